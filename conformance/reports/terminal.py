"""Terminal summary of a report: counts, a table per kind and per article, first failures.

``render(records, console)`` is a pure function of the record list apart from printing
to the given :class:`rich.console.Console`; pass ``Console(file=io.StringIO())`` to
capture it.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .summary import (
    STATUS_LABELS,
    STATUSES,
    Record,
    Summary,
    Tally,
    article_title,
    compact,
    describe_adapter,
    move_difference,
    percent,
    summarize,
)

#: how many failures are shown in full by default
MAX_FAILURES = 10
#: rich styles for the status columns
STYLES: dict[str, str] = {
    "passed": "green", "failed": "red", "errored": "magenta", "skipped": "yellow",
    "unsupported": "dim", "xfailed": "cyan", "xpassed": "bold red",
}
#: longest input/answer text shown per failure before it is cut
MAX_VALUE_CHARS = 400


def _columns(summary: Summary) -> list[str]:
    """Status columns worth showing: ``passed`` always, others when they occur."""
    return [s for s in STATUSES if s == "passed" or summary.overall.counts[s]]


def _tally_table(title: str, first: str, groups: dict[str, Tally], columns: list[str],
                 titles: dict[str, str] | None = None) -> Table:
    table = Table(title=title, title_justify="left", expand=False)
    table.add_column(first, no_wrap=True)
    if titles is not None:
        table.add_column("title", overflow="fold", max_width=40)
    table.add_column("total", justify="right")
    for status in columns:
        table.add_column(STATUS_LABELS[status], justify="right", style=STYLES[status])
    table.add_column("compliance", justify="right")
    for name, tally in groups.items():
        row = [escape(name)]
        if titles is not None:
            row.append(escape(titles.get(name, "")))
        row.append(str(tally.total))
        row += [str(tally.counts[s]) if tally.counts[s] else "" for s in columns]
        row.append(percent(tally.compliance))
        table.add_row(*row)
    return table


def _cut(text: str) -> str:
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS] + " ..."


def _print_failure(console: Console, result: dict[str, object]) -> None:
    status = str(result.get("status"))
    console.print(
        f"[{STYLES.get(status, 'red')}]{status.upper()}[/] "
        f"[bold]{escape(str(result.get('id')))}[/] {escape('[' + str(result.get('ruleset')) + ']')}"
        f"  {escape(', '.join(str(c) for c in result.get('cites') or ()))}"
    )
    if result.get("message"):
        console.print(f"  message:  {escape(_cut(str(result['message'])))}")
    console.print(f"  input:    {escape(_cut(compact(result.get('input'))))}")
    difference = move_difference(result)
    if difference is not None:
        missing, extra = difference
        console.print(f"  missing:  {escape(' '.join(missing) or '-')}")
        console.print(f"  extra:    {escape(' '.join(extra) or '-')}")
    else:
        console.print(f"  expected: {escape(_cut(compact(result.get('expect'))))}")
        console.print(f"  actual:   {escape(_cut(compact(result.get('actual'))))}")


def render(records: Iterable[Record], console: Console,
           max_failures: int = MAX_FAILURES) -> None:
    """Print the summary of a report: header line, totals, tables, first failures."""
    summary = summarize(records)
    header = summary.header
    overall = summary.overall
    columns = _columns(summary)
    console.print(
        f"[bold]Arbiter report[/] for [bold]{escape(describe_adapter(header))}[/]"
        + (f", corpus {escape(str(header['corpus_revision']))}"
           if header.get("corpus_revision") else "")
    )
    counts = ", ".join(f"{overall.counts[s]} {STATUS_LABELS[s]}"
                       for s in STATUSES if overall.counts[s])
    console.print(f"{overall.total} results: {counts or 'none'}")
    console.print(
        f"compliance [bold]{percent(overall.compliance)}[/] "
        f"({overall.conforming} of {overall.applicable} applicable; "
        "skipped, errored and failed count against)"
    )
    if summary.interrupted:
        console.print("[bold yellow]run interrupted: this report is partial[/]")
    if not summary.results:
        return
    console.print(_tally_table("By kind", "kind", summary.by_kind, columns))
    if len(summary.by_ruleset) > 1:
        console.print(_tally_table("By ruleset", "ruleset", summary.by_ruleset, columns))
    if summary.by_article:
        titles = {a: article_title(a) or "" for a in summary.by_article}
        console.print(_tally_table("By article", "article", summary.by_article, columns,
                                   titles if any(titles.values()) else None))
    if summary.problems:
        shown = summary.problems[:max_failures]
        console.print(f"[bold]Failures[/] ({len(shown)} of {len(summary.problems)} shown)")
        for result in shown:
            _print_failure(console, result)
    verdict = "all expectations met" if summary.ok else (
        f"{overall.problems} unmet expectation{'s' if overall.problems != 1 else ''}")
    console.print(f"[bold {'green' if summary.ok else 'red'}]{verdict}[/]")
