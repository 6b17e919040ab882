"""A Markdown summary of a report, for CI pages such as GitHub's job summary.

``render(records) -> str`` gives the compliance per fixture and per result, the counts,
a table per kind and per ruleset, what was not judged and why, the failure classes, and
the failures (grouped across rulesets, at most ``max_failures``) with expected and
actual answers. Table cells are escaped so report text cannot break the
layout or inject markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from . import save_text
from .classes import FailureClass
from .summary import (
    STATUS_LABELS,
    Record,
    Tally,
    compact,
    describe_adapter,
    headline,
    percent,
    ruleset_list,
    shown_groups,
    spread,
    status_columns,
    summarize,
)

#: failures listed in full
MAX_FAILURES = 20
#: longest answer shown in a failure line
MAX_VALUE_CHARS = 200
#: failure classes and skip reasons listed
MAX_CLASSES = 30


#: characters that would start Markdown formatting, links or table cells
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]|#~!])")


def _cell(value: object) -> str:
    """One line of text that Markdown shows literally (also inside a table cell)."""
    text = _MARKDOWN_SPECIALS.sub(r"\\\1", html.escape(str(value), quote=False))
    return " ".join(text.split())


def _code(value: object) -> str:
    text = str(value)
    if len(text) > MAX_VALUE_CHARS:
        text = text[:MAX_VALUE_CHARS] + " ..."
    return f"<code>{_cell(text)}</code>"


def _table(first: str, groups: Mapping[str, Tally], columns: list[str]) -> list[str]:
    head = [first, "total"] + [STATUS_LABELS[s] for s in columns] + ["compliance"]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for name, tally in groups.items():
        cells = [f"<code>{_cell(name)}</code>", str(sum(tally.counts[s] for s in columns))]
        cells += [str(tally.counts[s]) if tally.counts[s] else "" for s in columns]
        cells.append(percent(tally.compliance))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _classes(groups: list[FailureClass], cites: bool = True) -> list[str]:
    head = ["results", "fixtures", "kind"] + (["cites"] if cites else []) + [
        "signature" if cites else "reason", "examples"]
    lines = ["| " + " | ".join(head) + " |", "|---:|---:|" + "---|" * (len(head) - 2)]
    for group in groups[:MAX_CLASSES]:
        kind = f"<code>{_cell(group.kind)}</code>" + (" (errored)" if group.crash else "")
        cells = [str(group.results), str(len(group.fixtures)), kind]
        if cites:
            more = len(group.cites) - 3
            cells.append(_cell(", ".join(group.cites[:3]) or "-") + (f" +{more} more" if more > 0 else ""))
        cells += [_code(group.title or "(no message)"),
                  ", ".join(f"<code>{_cell(e)}</code>" for e in group.examples)]
        lines.append("| " + " | ".join(cells) + " |")
    if len(groups) > MAX_CLASSES:
        lines += ["", f"{len(groups) - MAX_CLASSES} more (`arbiter report classes REPORT`)."]
    return lines


def render(records: Iterable[Record], max_failures: int = MAX_FAILURES) -> str:
    """The Markdown summary of a report."""
    summary = summarize(records)
    columns = status_columns(summary)
    verdict = summary.verdict().text
    first, *rest = headline(summary)
    lines = [f"## Arbiter: {_cell(describe_adapter(summary.header))}", "",
             f"**{_cell(first)}**; " + "; ".join(_cell(line) for line in rest) + f"; **{_cell(verdict)}**."]
    if summary.interrupted:
        lines += ["", "The run was interrupted: this report is partial."]
    if summary.missing_shards:
        lines += ["", f"This merged report lacks shard(s) {_cell(', '.join(summary.missing_shards))}."]
    if summary.results:
        lines += ["", *_table("kind", shown_groups(summary.by_kind), columns)]
        by_ruleset = shown_groups(summary.by_ruleset)
        if len(by_ruleset) > 1:
            lines += ["", *_table("ruleset", by_ruleset, columns)]
    if summary.not_judged:
        lines += ["", f"### Not judged ({len(summary.not_judged)} declined: skipped), by reason", "",
                  *_classes(summary.skip_reasons, cites=False)]
    if summary.problems:
        lines += ["", f"### Failure classes by cause ({len(summary.classes)})", "", *_classes(summary.classes)]
    groups = summary.problem_groups
    shown = spread(groups, max_failures)
    if shown:
        lines += ["", f"### Failures ({len(shown)} of {len(groups)} shown)", ""]
        for problem in shown:
            result = problem.result
            lines.append(
                f"- **{_cell(result.get('status'))}** <code>{_cell(result.get('id'))}</code> under "
                f"{_cell(ruleset_list(problem.rulesets))}: {_cell(result.get('message') or '')}"
                f"<br>expected {_code(compact(result.get('expect')))}"
                f" actual {_code(compact(result.get('actual')))}")
    return "\n".join(lines) + "\n"


def write(records: Iterable[Record], path: str | Path, max_failures: int = MAX_FAILURES) -> None:
    """Write the Markdown summary to ``path``; ReportError if it cannot."""
    save_text(render(records, max_failures), path)
