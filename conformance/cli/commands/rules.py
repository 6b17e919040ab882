"""``arbiter rules``: list, show, validate and compare the rulesets of ``spec/``.

* ``rules list`` - id, aliases, title and parent of every built-in ruleset;
* ``rules show ID`` - the resolved table (inheritance applied) as YAML or ``--json``;
* ``rules validate [FILE...]`` - every violation as ``FILE:LINE: key.path: message``;
  exit 1 if there is any (no files: all built-ins);
* ``rules diff A B`` - every entry whose resolved value differs, with both cites
  (citation-only changes counted, and listed apart with ``--annotations``); with
  ``--readings`` also the readings the Laws leave open (keys the schema marks
  ``x-reading``) as each table encodes them, with the alternatives;
* ``rules articles [DOCUMENT]`` - the citation registry: cite and title per article;
* ``rules scope ID`` - the ruleset's scope page (``--write DIR``: every page and the index);
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
    """The rule tables: list, show, validate, diff, articles, scope, trace."""


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
@click.option("--readings", "show_readings", is_flag=True,
              help="Also list the readings the Laws leave open, as each table encodes them, with the alternatives.")
def diff_command(a: str, b: str, as_json: bool, annotations: bool, show_readings: bool) -> None:
    """Every entry whose resolved value differs between A and B, with both cites.

    Values are compared without their citations and notes; where only those differ
    the entry is not a rule difference, and ``--annotations`` lists it separately."""
    left, right = load_ruleset(a), load_ruleset(b)
    differences = diff(left.data, right.data)
    cited = annotation_diff(left.data, right.data)
    if as_json:
        for d in differences:
            click.echo(json.dumps(_as_json(d, left, right), ensure_ascii=False))
        for reading in readings(left, right) if show_readings else ():
            click.echo(json.dumps({**reading, "reading": True}, ensure_ascii=False))
        for d in cited if annotations else ():
            click.echo(json.dumps({**_as_json(d, left, right), "annotation": True}, ensure_ascii=False))
        return
    _print(differences, left, right)
    open_readings = readings(left, right)
    if open_readings and show_readings:
        click.echo(f"\n# readings the Laws leave open ({len(open_readings)}): each table's choice, "
                   "the alternatives one row away")
        width = max(len(left.id), len(right.id))
        for reading in open_readings:
            click.echo(f"{reading['path']}  ({reading['why']})")
            for rid in (left.id, right.id):
                side = reading[rid]
                click.echo(f"  {rid.ljust(width)}  {_value(ABSENT if side['absent'] else side['value'])}"
                           + (f"  [{side['cite']}]" if side["cite"] else ""))
            click.echo(f"  {'other'.ljust(width)}  {', '.join(json.dumps(v) for v in reading['alternatives'])}")
    if annotations and cited:
        click.echo(f"\n# citations and notes only ({len(cited)})")
        _print(cited, left, right)
    more = "" if annotations else " (--annotations lists them)"
    click.echo(f"{len(differences)} entries differ between {left.id} and {right.id}; "
               f"{len(cited)} citations or notes differ{more}", err=True)
    if open_readings and not show_readings:
        click.echo(f"{len(open_readings)} readings the Laws leave open are encoded (--readings lists them, "
                   "with the alternatives)", err=True)


#: The schema annotation on a key that encodes a reading the Laws leave open.
READING = "x-reading"


def readings(left: Ruleset, right: Ruleset) -> list[dict[str, Any]]:
    """The keys either ruleset has that the schema marks ``x-reading``: both values (and
    the ``<key>_cite`` or the entry's cite), the question, and the values neither chose."""
    from conformance.tools.mutate.run import schema_view
    from reference_impl.rules.diff import cite_for

    view = schema_view()
    paths: dict[tuple[str, ...], str] = {}
    for rules in (left, right):
        for path in _leaf_paths(rules.data):
            why = next((str(n[READING]) for n in view.nodes(path) if READING in n), None)
            if why:
                paths.setdefault(path, why)
    out = []
    for path, why in paths.items():
        row: dict[str, Any] = {"path": ".".join(path), "why": why}
        chosen = []
        for rules in (left, right):
            value = _at(rules.data, path)
            parent = _at(rules.data, path[:-1])
            cite = parent.get(f"{path[-1]}_cite") if isinstance(parent, dict) else None
            row[rules.id] = {"value": None if value is ABSENT else value, "absent": value is ABSENT,
                             "cite": cite or (cite_for(rules.data, path) if value is not ABSENT else None)}
            chosen.append(value)
        row["alternatives"] = [v for v in view.allowed(path) if v not in chosen]
        out.append(row)
    return out


def _leaf_paths(data: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if not isinstance(data, dict):
        return [path]
    return [p for key, value in data.items() for p in _leaf_paths(value, path + (str(key),))]


def _at(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return ABSENT
        data = data[key]
    return data


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


@command.command(name="scope")
@click.argument("ruleset", required=False)
@click.option("--write", "directory", type=click.Path(path_type=Path),
              help="Write every complete ruleset's page to DIRECTORY/<id>.md and the index to DIRECTORY.md.")
def scope_command(ruleset: str | None, directory: Path | None) -> None:
    """RULESET's scope page: what its tables encode, what they leave out and why."""
    from reference_impl.errors import UsageError
    from reference_impl.rules.scope import index, page

    if directory is None:
        if ruleset is None:
            raise UsageError("rules scope: name a RULESET, or --write DIRECTORY for every page")
        click.echo(page(load_ruleset(ruleset)), nl=False)
        return
    rulesets = [load_ruleset(ruleset)] if ruleset else list_rulesets()
    directory.mkdir(parents=True, exist_ok=True)
    for rules in rulesets:
        (directory / f"{rules.id}.md").write_text(page(rules), encoding="utf-8")
    if ruleset is None:
        directory.with_suffix(".md").write_text(index(list_rulesets()), encoding="utf-8")
    click.echo(f"wrote {len(rulesets)} page(s) to {directory}", err=True)


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
