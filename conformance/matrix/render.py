"""The matrix as Markdown (``compliance.md``), HTML (``compliance.html``) and JSON (pure text).

Each cell is a kind's per-fixture compliance (conforming / judged fixtures); ``—``
marks a kind the implementation does not declare. Under the table, each
implementation's failure classes with example fixture ids, and the skipped rows with
their reasons.
"""

from __future__ import annotations

import html
import json
from typing import Any

from .model import Cell, Row, kinds_of

#: Output file names inside ``--out``.
FILES: dict[str, str] = {"markdown": "compliance.md", "html": "compliance.html", "json": "compliance.json"}
#: Classes listed per implementation in Markdown and HTML (the JSON keeps them all).
SHOWN_CLASSES = 12
NOT_DECLARED = "—"


def percent(cell: Cell | None) -> str:
    """``99.7 % (1234/1238)``; ``—`` a kind not declared; ``not judged`` all declined; ``no fixture``."""
    if cell is None:
        return NOT_DECLARED
    if cell.compliance is None:
        return "not judged" if cell.declined else "no fixture"
    value = 100.0 * cell.compliance
    shown = f"{value:.1f}" if cell.conforming != cell.judged else "100"
    if shown == "100.0":
        shown = "99.9"
    return f"{shown} % ({cell.conforming}/{cell.judged})"


def label(r: Row) -> str:
    """``chess.js 1.4.0``, or the spec of a row that did not run."""
    return f"{r.name} {r.version}".strip() if r.name else r.spec


def as_json(rows: list[Row], meta: dict[str, Any]) -> str:
    """The whole matrix as JSON: ``meta`` (corpus, selection), the kinds, one object per row."""
    return json.dumps({**meta, "kinds": kinds_of(rows), "implementations": [r.as_record() for r in rows]},
                      indent=1, ensure_ascii=False) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(rows: list[Row], short: bool = False) -> str:
    """The matrix table; ``short`` gives one column per kind with the percentage only."""
    ran = [r for r in rows if r.skipped is None]
    kinds = kinds_of(ran)
    lines = ["| implementation | " + " | ".join(f"`{k}`" for k in kinds) + " | all |",
             "|---|" + "---|" * (len(kinds) + 1)]
    for r in ran:
        cells = [percent(r.cells.get(k)) for k in kinds] + [percent(r.total)]
        if short:
            cells = [c.split(" (")[0] for c in cells]
        lines.append(f"| {_md_escape(label(r))} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def as_markdown(rows: list[Row], meta: dict[str, Any]) -> str:
    """``compliance.md``: the table, the failure classes per implementation, the skipped ones."""
    out = ["# Compliance matrix", "",
           f"Corpus revision `{meta.get('corpus_revision')}`, selection: {_md_escape(meta.get('selection_text', 'all'))}. "
           "Each cell: fixtures whose every result conformed / fixtures judged, for one kind "
           f"(`{NOT_DECLARED}`: kind not declared by the adapter; declined fixtures are not judged).", "",
           markdown_table(rows)]
    skipped = [r for r in rows if r.skipped is not None]
    if skipped:
        out += ["## Not run", ""] + [f"* `{r.spec}`: {_md_escape(r.skipped or '')}" for r in skipped] + [""]
    for r in rows:
        if r.skipped is not None:
            continue
        out += [f"## {label(r)}", "", f"Adapter `{r.spec}`, rulesets {', '.join(r.rulesets) or '*'}; "
                f"{len(r.classes)} failure class{'es' if len(r.classes) != 1 else ''}.", ""]
        if r.classes:
            out += ["| kind | fixtures | message | cites | examples |", "|---|---|---|---|---|"]
            for c in r.classes[:SHOWN_CLASSES]:
                out.append(f"| `{c['kind']}` | {c['fixtures']} | {_md_escape(c['signature'])} | "
                           f"{', '.join(c['cites'])} | {', '.join(f'`{e}`' for e in c['examples'])} |")
            if len(r.classes) > SHOWN_CLASSES:
                out.append(f"| | | ... {len(r.classes) - SHOWN_CLASSES} more in compliance.json | | |")
            out.append("")
    return "\n".join(out)


STYLE = ("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
         "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}td:first-child,th:first-child{text-align:left}"
         ".full{background:#dfd}.high{background:#ffd}.low{background:#fdd}code{font-size:90%}")


def _css(cell: Cell | None) -> str:
    if cell is None or cell.compliance is None:
        return ""
    return "full" if cell.compliance == 1 else "high" if cell.compliance >= 0.95 else "low"


def as_html(rows: list[Row], meta: dict[str, Any]) -> str:
    """``compliance.html``: one static page, no scripts."""
    esc = html.escape
    ran = [r for r in rows if r.skipped is None]
    kinds = kinds_of(ran)
    parts = ["<!doctype html><html><head><meta charset='utf-8'><title>Compliance matrix</title>",
             f"<style>{STYLE}</style></head><body><h1>Compliance matrix</h1>",
             f"<p>Corpus revision <code>{esc(str(meta.get('corpus_revision')))}</code>; selection: "
             f"{esc(meta.get('selection_text', 'all'))}. Per-fixture compliance per kind; "
             f"{NOT_DECLARED} means not declared.</p><table><tr><th>implementation</th>"]
    parts += [f"<th><code>{esc(k)}</code></th>" for k in kinds] + ["<th>all</th></tr>"]
    for r in ran:
        parts.append(f"<tr><td>{esc(label(r))}</td>")
        for cell in [r.cells.get(k) for k in kinds] + [r.total]:
            parts.append(f"<td class='{_css(cell)}'>{esc(percent(cell))}</td>")
        parts.append("</tr>")
    parts.append("</table>")
    skipped = [r for r in rows if r.skipped is not None]
    if skipped:
        parts.append("<h2>Not run</h2><ul>" + "".join(f"<li><code>{esc(r.spec)}</code>: {esc(r.skipped or '')}</li>"
                                                     for r in skipped) + "</ul>")
    for r in ran:
        parts.append(f"<h2>{esc(label(r))}</h2>")
        if not r.classes:
            parts.append("<p>No failures.</p>")
            continue
        parts.append("<table><tr><th>kind</th><th>fixtures</th><th>message</th><th>cites</th><th>examples</th></tr>")
        for c in r.classes[:SHOWN_CLASSES]:
            parts.append(f"<tr><td><code>{esc(c['kind'])}</code></td><td>{c['fixtures']}</td><td>{esc(c['signature'])}</td>"
                         f"<td>{esc(', '.join(c['cites']))}</td><td>{esc(', '.join(c['examples']))}</td></tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "".join(parts)
