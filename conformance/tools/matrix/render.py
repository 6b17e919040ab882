"""The matrix as Markdown (``compliance.md``), HTML (``compliance.html``) and JSON (pure text).

Each cell is a kind's per-fixture compliance (conforming / judged fixtures), with the
fixtures the implementation declined beside it; ``—`` marks a kind it does not
declare. Under the table, each implementation's failure classes by cause, and the
implementations that did not run with their reasons.

The HTML page is meant to be read: each cell links to the failure classes of its kind
and implementation, each class to its boards (the smallest failing fixture and up to
two examples, drawn as the run's HTML report draws them), and every section back to
the table. It has no scripts and loads nothing.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from conformance.harness.reports.html import STYLE as REPORT_STYLE
from conformance.harness.reports.html import failure_html
from conformance.harness.reports.summary import Problem
from .model import Cell, Row, kinds_of

#: Output file names inside ``--out``.
FILES: dict[str, str] = {"markdown": "compliance.md", "html": "compliance.html", "json": "compliance.json"}
#: Classes listed per implementation in Markdown and HTML (the JSON keeps up to 40).
SHOWN_CLASSES = 12
NOT_DECLARED = "—"


def percent(cell: Cell | None) -> str:
    """``99.7 % (1234/1238)``, ``100 % (19/19; 881 declined)`` when some were declined;
    ``—`` a kind not declared; ``not judged (N declined)`` all declined; ``no fixture``."""
    if cell is None:
        return NOT_DECLARED
    declined = f"; {cell.declined} declined" if cell.declined else ""
    if cell.compliance is None:
        return f"not judged ({cell.declined} declined)" if cell.declined else "no fixture"
    return f"{_figure(cell)} % ({cell.conforming}/{cell.judged}{declined})"


def short(cell: Cell | None) -> str:
    """The short form of :func:`percent`: ``99.7``, ``100 (881 declined)``, ``—``."""
    if cell is None or cell.compliance is None:
        return percent(cell)
    return _figure(cell) + (f" ({cell.declined} declined)" if cell.declined else "")


def _figure(cell: Cell) -> str:
    assert cell.compliance is not None
    shown = f"{100.0 * cell.compliance:.1f}" if cell.conforming != cell.judged else "100"
    return "99.9" if shown == "100.0" else shown


def label(r: Row) -> str:
    """``chess.js 1.4.0``, or the spec of a row that did not run."""
    return f"{r.name} {r.version}".strip() if r.name else r.spec


def as_json(rows: list[Row], meta: dict[str, Any]) -> str:
    """The whole matrix as JSON: ``meta`` (corpus, selection), the kinds, one object per row."""
    return json.dumps({**meta, "kinds": kinds_of(rows), "implementations": [r.as_record() for r in rows]},
                      indent=1, ensure_ascii=False) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _title(c: dict[str, Any]) -> str:
    return f"{c['signature']} (where {c['expected']})" if c.get("expected") else str(c["signature"])


def markdown_table(rows: list[Row], brief: bool = False) -> str:
    """The matrix table; ``brief`` gives the percentage and the declined count only."""
    ran = [r for r in rows if r.skipped is None]
    kinds = kinds_of(ran)
    lines = ["| implementation | " + " | ".join(f"`{k}`" for k in kinds) + " | all |",
             "|---|" + "---|" * (len(kinds) + 1)]
    show = short if brief else percent
    for r in ran:
        cells = [show(r.cells.get(k)) for k in kinds] + [show(r.total)]
        lines.append(f"| {_md_escape(label(r))} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


EXPLAINED = ("Each cell: fixtures whose every judged result conformed / fixtures judged, for one "
             f"kind; fixtures the implementation declined are not judged and are counted beside "
             f"(`{NOT_DECLARED}`: kind not declared by the adapter).")


def as_markdown(rows: list[Row], meta: dict[str, Any]) -> str:
    """``compliance.md``: the table, the failure classes per implementation, the skipped ones."""
    out = ["# Compliance matrix", "",
           f"Corpus revision `{meta.get('corpus_revision')}`, selection: "
           f"{_md_escape(meta.get('selection_text', 'all'))}. {EXPLAINED}", "",
           markdown_table(rows)]
    skipped = [r for r in rows if r.skipped is not None]
    if skipped:
        out += ["## Not run", ""] + [f"* `{r.spec}`: {_md_escape(r.skipped or '')}" for r in skipped] + [""]
    for r in rows:
        if r.skipped is not None:
            continue
        out += [f"## {label(r)}", "", f"Adapter `{r.spec}`, rulesets {', '.join(r.rulesets) or '*'}; "
                f"{r.all_classes} failure class{'es' if r.all_classes != 1 else ''} by cause "
                f"(`arbiter report findings` drafts an issue for each).", ""]
        if r.classes:
            out += ["| kind | fixtures | failure | cites | smallest | examples |", "|---|---|---|---|---|---|"]
            for c in r.classes[:SHOWN_CLASSES]:
                kind = f"`{c['kind']}`" + (" (errored)" if c.get("crash") else "")
                out.append(f"| {_md_escape(kind)} | {c['fixtures']} | {_md_escape(_title(c))} | "
                           f"{', '.join(c['cites'][:3])} | `{c.get('smallest', '')}` | "
                           f"{', '.join(f'`{e}`' for e in c['examples'])} |")
            if r.all_classes > SHOWN_CLASSES:
                out.append(f"| | | ... {r.all_classes - SHOWN_CLASSES} more in compliance.json | | | |")
            out.append("")
    return "\n".join(out)


STYLE = REPORT_STYLE + (
    "body{max-width:none}table.matrix{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "table.matrix td,table.matrix th{border:1px solid #ccc;padding:.3em .6em;text-align:right;white-space:nowrap}"
    "table.matrix td:first-child,table.matrix th:first-child{text-align:left}"
    "table.matrix a{color:inherit} .declined{color:#6a5000;font-size:.85em}"
    ".full{background:#dfd}.high{background:#ffd}.low{background:#fdd}code{font-size:90%}"
    "table.classes{border-collapse:collapse;margin:.5em 0}"
    "table.classes td,table.classes th{border:1px solid #ddd;padding:.2em .6em;vertical-align:top}"
    ".back{font-size:.85em}")


def _css(cell: Cell | None) -> str:
    if cell is None or cell.compliance is None:
        return ""
    return "full" if cell.compliance == 1 else "high" if cell.compliance >= 0.95 else "low"


def row_id(index: int) -> str:
    """The element id of the ``index``-th implementation's section (``r1``, ``r2``...)."""
    return f"r{index}"


def kind_id(index: int, kind: str) -> str:
    """The id of an implementation's failure classes of one kind."""
    return f"r{index}-{re.sub(r'[^A-Za-z0-9_-]', '_', kind)}"


def class_id(index: int, number: int) -> str:
    """The id of one failure class's boards."""
    return f"r{index}-c{number}"


def _cell_html(r: Row, index: int, kind: str | None, cell: Cell | None) -> str:
    esc = html.escape
    if cell is not None and cell.compliance is not None:
        text = f"{_figure(cell)} %<br><small>{cell.conforming}/{cell.judged}</small>"
        if cell.declined:
            text += f"<br><span class='declined'>{cell.declined} declined</span>"
    else:
        text = esc(percent(cell))
    failing = cell is not None and cell.judged > cell.conforming
    listed = kind is None or any(kind in c["kinds"] for c in r.classes[:SHOWN_CLASSES])
    if failing and listed:
        target = row_id(index) if kind is None else kind_id(index, kind)
        text = f"<a href='#{target}'>{text}</a>"
    return f"<td class='{_css(cell)}'>{text}</td>"


def _classes_html(r: Row, index: int, kinds: list[str]) -> list[str]:
    """Per kind, the classes touching it; each links to its boards."""
    esc = html.escape
    shown = r.classes[:SHOWN_CLASSES]
    parts = []
    for kind in kinds:
        touching = [(n, c) for n, c in enumerate(shown, start=1) if kind in c["kinds"]]
        if not touching:
            continue
        parts.append(f"<h3 id='{kind_id(index, kind)}'><code>{esc(kind)}</code>: "
                     f"{len(touching)} failure class{'es' if len(touching) != 1 else ''}</h3>")
        parts.append("<table class='classes'><tr><th>fixtures</th><th>failure</th><th>cites</th>"
                     "<th>boards</th></tr>")
        for number, c in touching:
            in_kind = c["kinds"][kind]
            count = f"{in_kind} of {c['fixtures']}" if in_kind != c["results"] else str(c["fixtures"])
            where = ""
            if c.get("sites"):
                where = "<br><small>raised in " + ", ".join(
                    f"<code>{esc(site)}</code> ({n})" for site, n in list(c["sites"].items())[:3]) + "</small>"
            crash = " <small>(errored, all kinds)</small>" if c.get("crash") else ""
            parts.append(f"<tr><td>{count}</td><td><code>{esc(_title(c))}</code>{crash}{where}</td>"
                         f"<td>{esc(', '.join(c['cites'][:3]))}</td>"
                         f"<td><a href='#{class_id(index, number)}'>smallest: <code>{esc(c.get('smallest', ''))}"
                         f"</code></a></td></tr>")
        parts.append("</table>")
    return parts


def _boards_html(r: Row, index: int) -> list[str]:
    """Each shown class's boards: a heading, then a failure section per kept result."""
    esc = html.escape
    parts = []
    for number, (c, members) in enumerate(zip(r.classes[:SHOWN_CLASSES], r.members), start=1):
        parts.append(f"<section class='boards' id='{class_id(index, number)}'>"
                     f"<h3>{esc(label(r))}: <code>{esc(_title(c))}</code></h3>"
                     f"<p>{c['fixtures']} fixture{'s' if c['fixtures'] != 1 else ''} "
                     f"(<code>{esc(c['kind'])}</code>); the smallest first. "
                     f"<a class='back' href='#{row_id(index)}'>back to {esc(label(r))}</a> · "
                     "<a class='back' href='#matrix'>back to the table</a></p>")
        for position, result in enumerate(members):
            section = failure_html(Problem(result, [str(result.get("ruleset"))]),
                                   anchor=f"{class_id(index, number)}-b{position}")
            parts.append(section)
        parts.append("</section>")
    return parts


def as_html(rows: list[Row], meta: dict[str, Any]) -> str:
    """``compliance.html``: one static page, no scripts."""
    esc = html.escape
    ran = [(index, r) for index, r in enumerate(rows, start=1) if r.skipped is None]
    kinds = kinds_of([r for _, r in ran])
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Compliance matrix</title>",
             f"<style>{STYLE}</style></head><body><h1>Compliance matrix</h1>",
             f"<p>Corpus revision <code>{esc(str(meta.get('corpus_revision')))}</code>; selection: "
             f"{esc(meta.get('selection_text', 'all'))}. {esc(EXPLAINED).replace('`', '')} "
             "A cell with failures links to their classes; each class links to its boards.</p>",
             "<table class='matrix' id='matrix'><tr><th>implementation</th>"]
    parts += [f"<th><code>{esc(k)}</code></th>" for k in kinds] + ["<th>all</th></tr>"]
    for index, r in ran:
        parts.append(f"<tr><td><a href='#{row_id(index)}'>{esc(label(r))}</a></td>")
        parts += [_cell_html(r, index, k, r.cells.get(k)) for k in kinds]
        parts += [_cell_html(r, index, None, r.total), "</tr>"]
    parts.append("</table>")
    skipped = [r for r in rows if r.skipped is not None]
    if skipped:
        parts.append("<h2>Not run</h2><ul>" + "".join(f"<li><code>{esc(r.spec)}</code>: {esc(r.skipped or '')}</li>"
                                                     for r in skipped) + "</ul>")
    for index, r in ran:
        parts.append(f"<h2 id='{row_id(index)}'>{esc(label(r))}</h2>")
        parts.append(f"<p>Adapter <code>{esc(r.spec)}</code>, rulesets {esc(', '.join(r.rulesets) or '*')}; "
                     f"{r.all_classes} failure class{'es' if r.all_classes != 1 else ''} by cause"
                     + (f", the {SHOWN_CLASSES} largest shown" if r.all_classes > SHOWN_CLASSES else "")
                     + ". <a class='back' href='#matrix'>back to the table</a></p>")
        if not r.classes:
            parts.append("<p>No failures.</p>")
            continue
        parts += _classes_html(r, index, list(r.cells))
        parts += _boards_html(r, index)
    parts.append("</body></html>\n")
    return "".join(parts)
