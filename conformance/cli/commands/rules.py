"""``arbiter rules``: list, show, validate and compare the rulesets of ``spec/``.

* ``rules list`` - id, aliases, title and parent of every built-in ruleset;
* ``rules show ID`` - the resolved table (inheritance applied) as YAML or ``--json``;
* ``rules validate [FILE...]`` - every violation as ``FILE:LINE: key.path: message``;
  exit 1 if there is any (no files: all built-ins);
* ``rules diff A B`` - every entry whose resolved value differs, with both cites
  (citation-only changes counted, and listed apart with ``--annotations``);
* ``rules articles [DOCUMENT]`` - the citation registry: cite and title per article;
* ``rules trace CITE`` - the YAML entries citing an article, the lines of the reference
  that read them, and the fixtures citing it (:mod:`conformance.cli.trace`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import yaml

from reference_impl.rules import Ruleset, list_rulesets, load_ruleset
from reference_impl.rules.files import library
from reference_impl.rules.diff import ABSENT, Difference, annotation_diff, diff
from reference_impl.rules.validate import validate_paths


@click.group(name="rules")
def command() -> None:
    """The rule tables: list, show, validate, diff, articles, trace."""


@command.command(name="list")
@click.option("--all", "show_all", is_flag=True, help="Include abstract bases (orthodox).")
def list_command(show_all: bool) -> None:
    """Every built-in ruleset: id, aliases, title, parent."""
    rulesets = list_rulesets()
    if show_all:
        rulesets = [load_ruleset(i) for i in sorted(library().files)]
    rows = [("ID", "ALIASES", "EXTENDS", "TITLE")]
    rows += [(r.id, ",".join(r.aliases) or "-", r.extends or "-", r.title) for r in rulesets]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[3])


@command.command(name="show")
@click.argument("ruleset")
@click.option("--json", "as_json", is_flag=True, help="JSON instead of YAML.")
def show_command(ruleset: str, as_json: bool) -> None:
    """RULESET (id, alias or file) after inheritance, as YAML."""
    rules = load_ruleset(ruleset)
    if as_json:
        click.echo(json.dumps(rules.data, indent=2, ensure_ascii=False))
    else:
        click.echo(f"# {rules.id}: resolved from {' -> '.join(rules.chain)}")
        click.echo(yaml.safe_dump(rules.data, sort_keys=False, allow_unicode=True, width=100), nl=False)


@command.command(name="validate")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.pass_context
def validate_command(ctx: click.Context, files: tuple[Path, ...]) -> None:
    """Check FILES (default: every built-in) against the schema and the registry."""
    violations = validate_paths(list(files) or None)
    for violation in violations:
        click.echo(str(violation))
    count = len(files) or len(library().files)
    if violations:
        click.echo(f"{len(violations)} problem(s) in {count} file(s)", err=True)
        ctx.exit(1)
    click.echo(f"ok: {count} ruleset file(s) valid", err=True)


def _value(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    return json.dumps(value, ensure_ascii=False)


def _as_json(d: Difference, a: Ruleset, b: Ruleset) -> dict[str, Any]:
    def side(value: Any, cite: str | None) -> dict[str, Any]:
        return {"value": None if value is ABSENT else value, "absent": value is ABSENT, "cite": cite}

    return {"path": d.key, a.id: side(d.a, d.cite_a), b.id: side(d.b, d.cite_b)}


@command.command(name="diff")
@click.argument("a")
@click.argument("b")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.option("--annotations", is_flag=True, help="Also list the citations and notes that differ, in a section of their own.")
def diff_command(a: str, b: str, as_json: bool, annotations: bool) -> None:
    """Every entry whose resolved value differs between A and B, with both cites.

    Values are compared without their citations and notes; where only those differ
    the entry is not a rule difference, and ``--annotations`` lists it separately."""
    left, right = load_ruleset(a), load_ruleset(b)
    differences = diff(left.data, right.data)
    cited = annotation_diff(left.data, right.data)
    if as_json:
        for d in differences:
            click.echo(json.dumps(_as_json(d, left, right), ensure_ascii=False))
        for d in cited if annotations else ():
            click.echo(json.dumps({**_as_json(d, left, right), "annotation": True}, ensure_ascii=False))
        return
    _print(differences, left, right)
    if annotations and cited:
        click.echo(f"\n# citations and notes only ({len(cited)})")
        _print(cited, left, right)
    more = "" if annotations else " (--annotations lists them)"
    click.echo(f"{len(differences)} entries differ between {left.id} and {right.id}; "
               f"{len(cited)} citations or notes differ{more}", err=True)


def _print(differences: list[Difference], left: Ruleset, right: Ruleset) -> None:
    width = max(len(left.id), len(right.id))
    for d in differences:
        click.echo(d.key)
        for rid, value, cite in ((left.id, d.a, d.cite_a), (right.id, d.b, d.cite_b)):
            click.echo(f"  {rid.ljust(width)}  {_value(value)}" + (f"  [{cite}]" if cite else ""))


@command.command(name="articles")
@click.argument("document", required=False)
def articles_command(document: str | None) -> None:
    """The cites of the registry (all, or DOCUMENT's: fide-2023, uscf-7, pgn, ...)."""
    from reference_impl.errors import UsageError
    from reference_impl.rules.articles import documents, registry

    known = documents()
    if document is not None and document not in known:
        raise UsageError(f"unknown document {document!r} (known: {', '.join(sorted(known))})")
    for cite, article in registry().items():
        if document is None or article.document == document:
            click.echo(f"{cite}\t{article.title}")


#: Fixture ids shown per kind in text output (``--json`` lists them all).
TRACE_IDS_SHOWN = 5
#: Characters of an entry's value shown in text output.
TRACE_VALUE_WIDTH = 100
#: C lines shown per member in text output (``--json`` lists them all).
TRACE_C_LINES_SHOWN = 6


def _slots(slots: list[str]) -> str:
    """``["load_tables[1]", "load_tables[2]", "load_tables[3]"]`` as ``load_tables[1-3]``."""
    out: dict[str, list[str]] = {}
    for slot in slots:
        array, _, rest = slot.partition("[")
        numbers = out.setdefault(array, [])
        n = int(rest.rstrip("]"))
        if numbers and numbers[-1].split("-")[-1] == str(n - 1):
            numbers[-1] = f"{numbers[-1].split('-')[0]}-{n}"
        else:
            numbers.append(str(n))
    return "; ".join(f"{array}[{', '.join(numbers)}]" for array, numbers in out.items()) or "no slot"


@command.command(name="trace")
@click.argument("cite")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: entries, fields, code, fixtures.")
def trace_command(cite: str, as_json: bool) -> None:
    """From the article CITE (e.g. fide-2023:9.3) to its YAML entries, the model fields
    carrying it, the Python and C lines that read them and the fixtures that cite it."""
    from conformance.cli.trace import check_cite, trace
    from conformance.harness.fixtures import load

    check_cite(cite)  # before the corpus is read
    found = trace(cite, list(load().fixtures))
    if as_json:
        click.echo(json.dumps(found.as_json(), ensure_ascii=False))
        return
    click.echo(f"{found.cite}  {found.title}")
    click.echo(f"\nYAML entries ({len(found.entries)})")
    if not found.entries:
        click.echo("  none: no table encodes this article (docs/scope.md says why)")
    for entry in found.entries:
        value = json.dumps(entry.value, ensure_ascii=False)
        if len(value) > TRACE_VALUE_WIDTH:
            value = value[: TRACE_VALUE_WIDTH - 3] + "..."
        click.echo(f"  spec/{entry.file}:{entry.line}  {entry.dotted}  {value}")
        if entry.rulesets:
            click.echo(f"      resolved into: {', '.join(entry.rulesets)}")
    click.echo(f"\nModel fields ({len(found.fields)})")
    for item in found.fields:
        where = f"spec/{item.source}" if item.source and item.source.line else "the schema's default"
        value = json.dumps(item.as_json()["value"], ensure_ascii=False)
        if len(value) > TRACE_VALUE_WIDTH:
            value = value[: TRACE_VALUE_WIDTH - 3] + "..."
        click.echo(f"  {item.dotted}  ({item.owner}.{item.name} = {value}; {where}; {', '.join(item.rulesets)})")
        for index, read in enumerate(item.reads):
            click.echo(f"    read   {read.file}:{read.line}  {read.text}")
            for call in item.reached.get(index, []):
                click.echo(f"    {'  ' * call.depth}-> {call.file}:{call.line}  {call.name.rpartition('.')[2]}()")
        if item.compiled is not None:
            compiled = item.compiled
            if compiled.attributes:
                click.echo(f"    compiled  {', '.join(compiled.attributes)}; packed {_slots(compiled.slots)}")
            for member, lines in compiled.lines.items():
                how = "derived" if member in compiled.derived else "from the slots"
                shown = ", ".join(f"{c.file}:{c.line}" for c in lines[:TRACE_C_LINES_SHOWN])
                more = f", ... ({len(lines) - TRACE_C_LINES_SHOWN} more)" if len(lines) > TRACE_C_LINES_SHOWN else ""
                click.echo(f"    C      {member} ({how}): {shown}{more}")
    click.echo(f"\nCode reading them ({len(found.code)})")
    for site in found.code:
        click.echo(f"  {site.file}:{site.line}  [{', '.join(site.keys)}]  {site.text}")
    total = sum(len(ids) for ids in found.fixtures.values())
    click.echo(f"\nFixtures ({total})")
    for kind, ids in found.fixtures.items():
        more = f", ... ({len(ids) - TRACE_IDS_SHOWN} more)" if len(ids) > TRACE_IDS_SHOWN else ""
        click.echo(f"  {kind}: {len(ids)}  {', '.join(ids[:TRACE_IDS_SHOWN])}{more}")
