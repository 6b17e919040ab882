"""Terminal summary of a report: counts, tables per kind and article, what was not
judged and why, failure classes, first failures, and the verdict.

``render(records, console)`` is a pure function of the record list apart from printing
to the given :class:`rich.console.Console`; pass ``Console(file=io.StringIO())`` to
capture it.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .classes import FailureClass
from .summary import (
    Problem,
    Record,
    Summary,
    Tally,
    article_title,
    cites_of,
    compact,
    describe_adapter,
    move_difference,
    percent,
    headline,
    ruleset_list,
    shown_groups,
    spread,
    status_columns,
    summarize,
)

#: how many failures are shown in full by default
MAX_FAILURES = 10
#: how many failure classes and skip reasons are listed
MAX_CLASSES = 15
#: rich styles for the status columns
STYLES: dict[str, str] = {
    "passed": "green", "failed": "red", "errored": "magenta", "skipped": "yellow",
    "unsupported": "dim", "xfailed": "cyan", "xpassed": "bold red",
}
#: short column headings, so every table fits an 80-column CI log
LABELS: dict[str, str] = {
    "passed": "pass", "failed": "fail", "errored": "error", "skipped": "skip",
    "unsupported": "unsup", "xfailed": "xfail", "xpassed": "xpass",
}
#: longest input/answer text shown per failure before it is cut
MAX_VALUE_CHARS = 400


def _title_budget(console: Console, groups: dict[str, Tally], columns: list[str],
                  first: str) -> int:
    """Characters left for an article title once the other columns fit (0: no room)."""
    widths = [max([len(first)] + [len(name) for name in groups]), len("total")]
    widths += [max(len(LABELS[s]), 5) for s in columns] + [len("score")]
    used = sum(w + 2 for w in widths) + 2  # one space and one rule between columns
    budget = min(48, console.width - used)
    return budget if budget >= 16 else 0


def _tally_table(title: str, first: str, groups: dict[str, Tally], columns: list[str],
                 titles: dict[str, str] | None = None, title_width: int = 40) -> Table:
    table = Table(title=title, title_justify="left", expand=False, box=box.SIMPLE_HEAD,
                  show_edge=False, pad_edge=False, collapse_padding=True)
    # only the name column may fold when the console is too narrow; numbers never do
    table.add_column(first, overflow="fold")
    if titles is not None:
        table.add_column("title", no_wrap=True, overflow="ellipsis", max_width=title_width)
    table.add_column("total", justify="right", no_wrap=True)
    for status in columns:
        table.add_column(LABELS[status], justify="right", style=STYLES[status], no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    for name, tally in groups.items():
        row = [escape(name)]
        if titles is not None:
            text = titles.get(name, "")
            if len(text) > title_width:
                text = text[: title_width - 1] + "\u2026"
            row.append(escape(text))
        row.append(str(sum(tally.counts[s] for s in columns)))
        row += [str(tally.counts[s]) if tally.counts[s] else "" for s in columns]
        row.append(percent(tally.compliance))
        table.add_row(*row)
    return table


def _cut(text: str) -> str:
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS] + " ..."


def _print_failure(console: Console, problem: Problem) -> None:
    result = problem.result
    status = str(result.get("status"))
    console.print(
        f"[{STYLES.get(status, 'red')}]{status.upper()}[/] "
        f"[bold]{escape(str(result.get('id')))}[/] "
        f"{escape('[' + ruleset_list(problem.rulesets) + ']')}"
        f"  {escape(', '.join(cites_of(result)))}"
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


def cites_text(group: FailureClass, limit: int = 3) -> str:
    """A class's cites: by cite all of them (they are its key), by cause the most frequent
    first, ``+N more`` past ``limit``."""
    cites = list(group.cites)
    if len(cites) <= limit or group.by != "cause":
        return ", ".join(cites) or "-"
    return ", ".join(cites[:limit]) + f", +{len(cites) - limit} more"


def sites_text(group: FailureClass, limit: int = 3) -> str:
    """Where a crash was raised: ``f (12), g (3)``; empty if no frame was named."""
    sites = group.sites.most_common()
    text = ", ".join(f"{name} ({count})" for name, count in sites[:limit])
    return text + (f", +{len(sites) - limit} more" if len(sites) > limit else "")


def print_classes(console: Console, title: str, groups: list[FailureClass],
                  limit: int | None = MAX_CLASSES, cites: bool = True) -> None:
    """Failure classes (or skip reasons), largest first: the counts, kind(s) and cites;
    the signature (by cause with the expectation's scene); for a crash where it was
    raised; up to three example ids. Fits any console width."""
    shown = groups if limit is None else groups[:limit]
    console.print(f"[bold]{escape(title)}[/]")
    for group in shown:
        fixtures = len(group.fixtures)
        line = (f"  [bold]{group.results}[/] result{'s' if group.results != 1 else ''}"
                f" ({fixtures} fixture{'s' if fixtures != 1 else ''})  {escape(group.kind)}")
        if group.crash:
            line += "  errored"
        if cites:
            line += f"  {escape(cites_text(group))}"
        console.print(line)
        console.print(f"    {escape(group.title or '(no message)')}")
        if group.sites:
            console.print(f"    raised in {escape(sites_text(group))}")
        console.print(f"    e.g. {escape(', '.join(group.examples))}")
    if len(shown) < len(groups):
        console.print(f"  {len(groups) - len(shown)} more; all of them: arbiter report classes REPORT")


def render(records: Iterable[Record], console: Console,
           max_failures: int = MAX_FAILURES, verbose: bool = False, summary: Summary | None = None) -> None:
    """Print the summary of a report: header line, headline figures, tables, classes,
    first failures, verdict. ``verbose`` also counts and lists what the adapter does
    not declare (``unsupported`` results, and the rows with nothing else); ``summary``:
    the records' summary when the caller has made it already."""
    summary = summary if summary is not None else summarize(records)
    header = summary.header
    columns = status_columns(summary, verbose)
    console.print(
        f"[bold]Arbiter report[/] for [bold]{escape(describe_adapter(header))}[/]"
        + (f", corpus {escape(str(header['corpus_revision']))}"
           if header.get("corpus_revision") else "")
    )
    for line in headline(summary, verbose, hint="; -v counts them"):
        console.print(escape(line))
    if summary.interrupted:
        console.print("[bold yellow]run interrupted: this report is partial[/]")
    if summary.missing_shards:
        console.print(f"[bold yellow]merged report lacks shard(s) "
                      f"{escape(', '.join(summary.missing_shards))}[/]")
    if not summary.results:
        _print_verdict(console, summary)
        return
    by_kind = shown_groups(summary.by_kind, verbose)
    by_ruleset = shown_groups(summary.by_ruleset, verbose)
    if by_kind:
        console.print()
        console.print(_tally_table("By kind", "kind", by_kind, columns))
    if len(by_ruleset) > 1:
        console.print()
        console.print(_tally_table("By ruleset", "ruleset", by_ruleset, columns))
    if summary.by_article:
        titles = {a: article_title(a) or "" for a in summary.by_article}
        width = _title_budget(console, summary.by_article, columns, "article")
        console.print()
        console.print(_tally_table(
            "By article", "article", summary.by_article, columns,
            titles if width and any(titles.values()) else None, width))
    if summary.not_judged:
        console.print()
        print_classes(console, f"Not judged ({len(summary.not_judged)} declined: skipped), by reason",
                      summary.skip_reasons, cites=False)
    if summary.problems:
        console.print()
        print_classes(console, f"Failure classes by cause ({len(summary.classes)}; "
                      "by article: arbiter report classes REPORT --by cite)", summary.classes)
        groups = summary.problem_groups
        shown = spread(groups, max_failures)
        console.print()
        console.print(f"[bold]Failures[/] ({len(shown)} of {len(groups)} shown; a failure "
                      "alike under several rulesets is listed once)")
        for problem in shown:
            _print_failure(console, problem)
    _print_verdict(console, summary)


def _print_verdict(console: Console, summary: Summary) -> None:
    verdict = summary.verdict()
    colour = "green" if verdict.good else ("red" if not summary.ok else "yellow")
    console.print(f"[bold {colour}]{escape(verdict.text)}[/]")
