"""``arbiter mutate``: spec-mutation adequacy -- which rule entries the fixtures guard.

Exit status: 0 every mutant that can change an answer was killed; 1 one survived (or
bad input); 2 usage error (unknown ruleset or kind); 130 Ctrl-C (the table of the
mutants judged so far is written first).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from reference_impl.errors import UsageError

from conformance.adapters.base import KINDS
from conformance.tools.mutate import run as mutation
from conformance.tools.mutate.mutants import Mutant, dotted
from conformance.cli.common import console
from .run import EXIT_INTERRUPTED, _jobs

if TYPE_CHECKING:
    from reference_impl.rules import Ruleset

#: Table columns after entry and cite, in this order.
COUNTS = ("mutants", "killed", "equivalent", "invalid")
#: Table width when stdout is not a terminal (a file, a pipe).
WIDTH = 160


def _rulesets(names: Sequence[str]) -> list[str]:
    """The canonical ids asked for (every complete ruleset when none); unknown is a usage error."""
    from reference_impl.rules import list_rulesets
    from reference_impl.rules.files import library

    if not names:
        return [r.id for r in list_rulesets()]
    lib = library()
    out = []
    for name in names:
        canonical = lib.canonical(name)
        if canonical is None:
            raise UsageError(f"unknown ruleset {name!r} (known: {', '.join(sorted(lib.files))})")
        if lib.files[canonical].data.get("abstract"):
            raise UsageError(f"ruleset {name!r} is abstract: no fixture runs under it")
        out.append(canonical)
    return out


def _kinds(names: Sequence[str]) -> list[str]:
    for name in names:
        if name not in KINDS:
            raise UsageError(f"unknown kind {name!r} (known: {', '.join(KINDS)})")
    return list(names)


def summary(ruleset: str, results: Sequence[mutation.Result], interrupted: bool = False) -> dict[str, Any]:
    """The closing record of one ruleset: counts per status and the kill rate."""
    counts = Counter(r.status for r in results)
    decided = counts["killed"] + counts["survived"]
    return {"type": "summary", "ruleset": ruleset, "mutants": len(results),
            **{status: counts[status] for status in mutation.STATUSES},
            "killed_percent": round(100.0 * counts["killed"] / decided, 1) if decided else None,
            "interrupted": interrupted}


def render(ruleset: str, results: Sequence[mutation.Result], order: Sequence[Mutant], interrupted: bool = False) -> None:
    """One table: a row per rule entry (in document order) with its counts and its
    surviving mutations (key below the entry: change)."""
    from rich.table import Table

    rank = {_key(m): i for i, m in enumerate(order)}
    rows: dict[str, dict[str, Any]] = {}
    for result in sorted(results, key=lambda r: rank.get(_key(r.mutant), len(rank))):
        m = result.mutant
        row = rows.setdefault(dotted(m.entry), {"cite": m.cite, "counts": Counter(), "surviving": []})
        row["counts"]["mutants"] += 1
        row["counts"][result.status] += 1
        if result.status == "survived":
            below = dotted(m.path[len(m.entry):]) if len(m.path) > len(m.entry) else ""
            row["surviving"].append(f"{below}: {m.mutation}" if below else m.mutation)
    total = summary(ruleset, results, interrupted)
    title = f"{ruleset}: {total['killed']} of {total['killed'] + total['survived']} mutants killed"
    if total["killed_percent"] is not None:
        title += f" ({total['killed_percent']} %)"
    title += f"; {total['equivalent']} equivalent, {total['invalid']} invalid"
    if interrupted:
        title += " -- interrupted, partial"
    table = Table(title=title, title_justify="left")
    table.add_column("entry", no_wrap=True)
    table.add_column("cite", no_wrap=True)
    for name in COUNTS:
        table.add_column(name, justify="right")
    table.add_column("surviving")
    for entry, row in rows.items():
        counts = row["counts"]
        table.add_row(entry, row["cite"], *(str(counts[n]) for n in COUNTS), "\n".join(row["surviving"]))
    out = console()
    if not out.is_terminal:
        out.width = WIDTH
    out.print(table)


def _key(mutant: Mutant) -> tuple[str, str]:
    return (mutant.where, mutant.mutation)


@click.command(name="mutate")
@click.option("-r", "--rules", "--ruleset", "rules", multiple=True,
              help="ruleset id or alias (repeatable; default: every complete ruleset)")
@click.option("-k", "--kind", multiple=True, help="only fixtures of this kind, and the mutants they can notice (repeatable)")
@click.option("-j", "--jobs", default="1", show_default=True, help="worker processes, or 'auto' (one per CPU)")
@click.option("-f", "--fixtures", "fixture_paths", multiple=True, type=click.Path(),
              help="fixture files or directories (default: the shipped corpus)")
@click.option("--timeout", default=None, type=float, help="seconds per fixture; a fixture out of time kills the mutant")
@click.option("--json", "as_json", is_flag=True, help="JSON Lines on stdout: one record per mutant, a summary per ruleset")
@click.option("--notation", "notation_tables", multiple=True,
              help="mutate this notation table instead of a ruleset (repeatable; 'all': every table a kind executes)")
@click.pass_context
def command(ctx: click.Context, rules: tuple[str, ...], kind: tuple[str, ...], jobs: str,
            fixture_paths: tuple[str, ...], timeout: float | None, as_json: bool,
            notation_tables: tuple[str, ...]) -> None:
    """Change each rule entry of a ruleset in turn and report the changes no fixture notices.

    Per leaf of the resolved ruleset: an integer +-1, a boolean flipped, an enumerated
    value swapped, a list item dropped or added, a vector component +-1. A mutant is
    killed when a fixture the unchanged ruleset passes fails under it; keys the schema
    marks x-declarative give equivalent mutants; a mutant the schema or the checks
    reject is invalid (with its reason). Exit 1 when a mutant survives.

    With --notation, the notation tables instead (also each string of a mapping of
    strings swapped with the next), run against the notation fixtures.
    """
    if notation_tables:
        ctx.exit(_notation(ctx, notation_tables, fixture_paths, timeout, as_json))
    ids = _rulesets(rules)
    kinds = _kinds(kind)
    workers = _jobs(jobs)
    survived = False
    for ruleset in ids:
        results: list[mutation.Result] = []
        mutants = mutation.mutants_of(_load(ruleset), kinds)

        def emit(result: mutation.Result) -> None:
            results.append(result)
            if as_json:
                click.echo(json.dumps(result.as_record()))
                sys.stdout.flush()

        try:
            with _progress(len(mutants), ruleset, disabled=as_json) as advance:
                mutation.run(ruleset, mutants, _both(emit, advance), fixture_paths=fixture_paths,
                             kinds=kinds, jobs=workers, timeout=timeout)
        except KeyboardInterrupt:
            _close(ruleset, results, mutants, as_json, interrupted=True)
            click.echo("arbiter: interrupted; the table holds the mutants judged so far", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        _close(ruleset, results, mutants, as_json)
        survived = survived or any(r.status == "survived" for r in results)
    ctx.exit(1 if survived else 0)


def _notation(ctx: click.Context, names: Sequence[str], fixture_paths: Sequence[str], timeout: float | None,
              as_json: bool) -> int:
    """Mutate the notation tables ``names``; the exit status."""
    from conformance.tools.mutate import notation

    tables = list(notation.PROTOCOL_TABLES) if "all" in names else list(names)
    for name in tables:
        if name not in notation.PROTOCOL_TABLES:
            raise UsageError(f"notation table {name!r}: not one a kind of the protocol executes "
                             f"(known: {', '.join(notation.PROTOCOL_TABLES)}, or all)")
    survived = False
    for name in tables:
        results: list[mutation.Result] = []
        mutants = notation.mutants_of(name)
        where = f"notation:{name}"

        def emit(result: mutation.Result) -> None:
            results.append(result)
            if as_json:
                click.echo(json.dumps(result.as_record()))
                sys.stdout.flush()

        try:
            with _progress(len(mutants), where, disabled=as_json) as advance:
                notation.run(name, mutants, _both(emit, advance), fixture_paths=fixture_paths,
                             timeout=timeout)
        except KeyboardInterrupt:
            _close(where, results, mutants, as_json, interrupted=True)
            click.echo("arbiter: interrupted; the table holds the mutants judged so far", err=True)
            return EXIT_INTERRUPTED
        _close(where, results, mutants, as_json)
        survived = survived or any(r.status == "survived" for r in results)
    return 1 if survived else 0


def _both(first: Callable[[mutation.Result], None], then: Callable[[], None]) -> Callable[[mutation.Result], None]:
    """``first(result)``, then ``then()``: record a result, then advance the progress bar."""
    def call(result: mutation.Result) -> None:
        first(result)
        then()
    return call


def _load(ruleset: str) -> Ruleset:
    from reference_impl.rules import load_ruleset

    return load_ruleset(ruleset)


def _close(ruleset: str, results: list[mutation.Result], order: Sequence[Mutant], as_json: bool,
           interrupted: bool = False) -> None:
    if as_json:
        click.echo(json.dumps(summary(ruleset, results, interrupted)))
    else:
        render(ruleset, results, order, interrupted)


class _progress:
    """A transient progress bar on a terminal's stderr (a no-op elsewhere)."""

    def __init__(self, total: int, ruleset: str, disabled: bool) -> None:
        out = console(stderr=True)
        self.bar: Any = None
        if not disabled and out.is_terminal:
            from rich.progress import Progress

            self.bar = Progress(console=out, transient=True)
            self.task = self.bar.add_task(f"mutants of {ruleset}", total=total)

    def __enter__(self) -> Any:
        if self.bar is None:
            return lambda: None
        self.bar.start()
        return lambda: self.bar.advance(self.task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
