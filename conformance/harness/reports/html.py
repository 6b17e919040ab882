"""A static, self-contained HTML report: summary, tables, and every failure as a diagram.

``render(records) -> str`` is pure; ``write(records, path)`` saves it. The page has no
scripts and loads nothing: styles are inline and the boards are HTML tables with Unicode
pieces. Every string that comes from the report is passed through :func:`html.escape`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from reference_impl.errors import ArbiterError

from . import save_text
from .classes import FailureClass
from .summary import (
    STATUS_LABELS,
    Problem,
    Record,
    Summary,
    Tally,
    article_title,
    cites_of,
    compact,
    describe_adapter,
    headline,
    move_difference,
    percent,
    ruleset_list,
    shown_groups,
    spread,
    status_columns,
    summarize,
)

#: failures shown with diagrams; the rest are listed by id only
MAX_FAILURES = 500
#: failure classes and skip reasons listed
MAX_CLASSES = 200
#: a move-list difference this small is also marked on the diagram
MAX_MARKED_MOVES = 3
#: FEN piece letter -> figurine (the solid set; colour comes from the CSS class)
FIGURINES: dict[str, str] = {
    "k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f",
}
#: U+FE0E asks for the text (not emoji) presentation of the pawn and friends
TEXT_PRESENTATION = "\ufe0e"
FILES = "abcdefgh"
UCI_MOVE = re.compile(r"^([a-h][1-8])([a-h][1-8])[qrbnkQRBNK]?$")

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em;color:#222;max-width:1200px}
h1{font-size:1.5em;margin-bottom:.2em} h2{margin-top:1.6em;border-bottom:1px solid #ccc}
.meta{color:#555;font-size:.9em} .meta span{margin-right:1.5em}
.verdict{font-weight:bold;padding:.4em .8em;display:inline-block;border-radius:4px}
.ok{background:#d8f0d8;color:#165016} .bad{background:#f8dada;color:#7a1010}
.incomplete{background:#fbefc8;color:#6a5000}
table.tally{border-collapse:collapse;margin:.5em 0} table.tally th,table.tally td{border:1px solid #ddd;padding:.2em .6em}
table.tally td.n{text-align:right} table.tally th{background:#f3f3f3}
td.passed{color:#186018} td.failed,td.xpassed{color:#a01010;font-weight:bold} td.errored{color:#802080}
td.skipped{color:#8a6d00} td.unsupported{color:#888} td.xfailed{color:#107070}
.failure{border:1px solid #ddd;border-left:6px solid #c33;padding:.6em 1em;margin:1em 0;border-radius:4px}
.failure.errored{border-left-color:#937} .failure.xpassed{border-left-color:#e70}
.failure h3{margin:.1em 0 .4em;font-size:1.05em} .failure h3 code{font-size:1em}
.status{font-size:.8em;text-transform:uppercase;padding:.1em .4em;border-radius:3px;background:#eee;margin-right:.5em}
.cols{display:flex;gap:1.5em;flex-wrap:wrap;align-items:flex-start}
.cols>div{min-width:200px} .cols h4,.answers h4{margin:.2em 0;font-size:.9em;color:#555}
.answers{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1.5em;margin-top:.4em}
.answers .wide{grid-column:1 / span 2}
pre{background:#f7f7f7;padding:.4em .6em;white-space:pre-wrap;word-break:break-all;max-width:520px;margin:.2em 0}
table.board{border-collapse:collapse;border:2px solid #555;margin:.2em 0}
table.board td{width:32px;height:32px;padding:0;text-align:center;vertical-align:middle;
 font-size:26px;line-height:32px;font-family:"DejaVu Sans","Segoe UI Symbol","Noto Sans Symbols2",serif}
table.board td.l{background:#f0d9b5} table.board td.d{background:#b58863}
table.board td.hl.l{background:#f6f669} table.board td.hl.d{background:#baca2b}
table.board th{font-size:11px;color:#555;font-weight:normal;width:14px;height:14px;padding:0}
.pw{color:#fff;text-shadow:0 0 1px #000,0 0 1px #000,0 0 2px #000} .pb{color:#000}
.fen{font-family:monospace;font-size:.8em;color:#444;word-break:break-all;max-width:330px}
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def parse_placement(fen: str) -> list[list[str | None]] | None:
    """The board of a FEN's first field as 8 ranks (rank 8 first) of 8 letters or None.

    Returns None when the field is not a well-formed 8×8 placement; the renderer then
    shows the FEN text alone.
    """
    if not isinstance(fen, str) or not fen.strip():
        return None
    ranks = fen.split()[0].split("/")
    if len(ranks) != 8:
        return None
    board: list[list[str | None]] = []
    for rank in ranks:
        row: list[str | None] = []
        for char in rank:
            if char.isdigit():
                row.extend([None] * int(char))
            elif char.lower() in FIGURINES:
                row.append(char)
            elif char == "~":  # promoted-piece mark (crazyhouse FEN); ignored
                continue
            else:
                return None
        if len(row) != 8:
            return None
        board.append(row)
    return board


def move_squares(move: object) -> set[str]:
    """The from and to squares of a UCI move string (empty for anything else)."""
    match = UCI_MOVE.match(move) if isinstance(move, str) else None
    return {match.group(1), match.group(2)} if match else set()


def board_html(fen: str, highlight: Collection[str] = ()) -> str:
    """An 8×8 diagram of a FEN's placement with ``highlight`` squares marked."""
    board = parse_placement(fen)
    caption = f'<div class="fen">{_e(fen)}</div>'
    if board is None:
        return f'<div class="nodiagram">(no diagram: unreadable placement)</div>{caption}'
    rows = []
    for index, rank in enumerate(board):
        rank_number = 8 - index
        cells = [f"<th>{rank_number}</th>"]
        for file_index, piece in enumerate(rank):
            square = f"{FILES[file_index]}{rank_number}"
            classes = ["l" if (file_index + rank_number) % 2 == 0 else "d"]
            if square in highlight:
                classes.append("hl")
            content = ""
            if piece is not None:
                colour = "pw" if piece.isupper() else "pb"
                content = (f'<span class="{colour}">{FIGURINES[piece.lower()]}'
                           f"{TEXT_PRESENTATION}</span>")
            cells.append(f'<td class="{" ".join(classes)}" title="{square}">{content}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    rows.append("<tr><th></th>" + "".join(f"<th>{f}</th>" for f in FILES) + "</tr>")
    return f'<table class="board">{"".join(rows)}</table>{caption}'


def position_after(ruleset: str, fen: str, moves: Sequence[object]) -> str | None:
    """The FEN after ``moves`` from ``fen``, played by the reference; None if it cannot.

    Only a picture: the verdict was made by the harness without the reference.
    """
    from reference_impl import Board, load_ruleset

    try:
        board = Board.from_fen(fen, load_ruleset(ruleset))
        for move in moves:
            board.push(board.parse_uci(str(move)))
        return str(board.fen())
    except (ArbiterError, ValueError, TypeError):
        return None


def _tally_table(first: str, groups: Mapping[str, Tally], columns: list[str],
                 titles: Mapping[str, str] | None = None) -> str:
    head = [f"<th>{_e(first)}</th>"] + (["<th>title</th>"] if titles else [])
    head += ["<th>total</th>"] + [f"<th>{_e(STATUS_LABELS[s])}</th>" for s in columns]
    head.append("<th>compliance</th>")
    rows = []
    for name, tally in groups.items():
        cells = [f"<td><code>{_e(name)}</code></td>"]
        if titles:
            cells.append(f"<td>{_e(titles.get(name, ''))}</td>")
        cells.append(f'<td class="n">{sum(tally.counts[s] for s in columns)}</td>')
        cells += [f'<td class="n {s}">{tally.counts[s] or ""}</td>' for s in columns]
        cells.append(f'<td class="n">{_e(percent(tally.compliance))}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<table class="tally"><thead><tr>{"".join(head)}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def fixture_anchor(ident: object) -> str:
    """The element id of a fixture's section (``f-`` and the id, characters outside
    ``[A-Za-z0-9_.-]`` replaced by ``_``)."""
    return "f-" + re.sub(r"[^A-Za-z0-9_.-]", "_", str(ident))


def class_rows(groups: list[FailureClass], cites: bool = True, shown: Collection[str] = (),
               limit: int = MAX_CLASSES) -> str:
    """Table rows of failure classes (or, without cites, skip reasons): counts, kind(s),
    the cites (three most frequent), the signature with the expectation's scene and, for
    a crash, where it was raised, and example ids -- links for those in ``shown``."""
    rows = []
    for group in groups[:limit]:
        cells = [f'<td class="n">{group.results}</td>', f'<td class="n">{len(group.fixtures)}</td>',
                 f"<td><code>{_e(group.kind)}</code>{' (errored)' if group.crash else ''}</td>"]
        if cites:
            more = len(group.cites) - 3
            cells.append(f"<td>{', '.join(f'<code>{_e(c)}</code>' for c in group.cites[:3]) or '-'}"
                         f"{f' +{more} more' if more > 0 else ''}</td>")
        where = ""
        if group.sites:
            where = "<br><small>raised in " + ", ".join(
                f"<code>{_e(site)}</code> ({n})" for site, n in group.sites.most_common(3)) + "</small>"
        cells.append(f"<td><code>{_e(group.title or '(no message)')}</code>{where}</td>")
        cells.append("<td>" + ", ".join(
            f'<a href="#{fixture_anchor(e)}"><code>{_e(e)}</code></a>' if e in shown else f"<code>{_e(e)}</code>"
            for e in group.examples) + "</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return "".join(rows)


def _classes_html(groups: list[FailureClass], cites: bool = True, shown: Collection[str] = ()) -> str:
    """A table of failure classes (or, without cites, skip reasons)."""
    head = ["results", "fixtures", "kind"] + (["cites"] if cites else []) + [
        "signature" if cites else "reason", "examples"]
    more = (f"<p>{len(groups) - MAX_CLASSES} more: <code>arbiter report classes REPORT</code>.</p>"
            if len(groups) > MAX_CLASSES else "")
    return (f'<table class="tally"><thead><tr>{"".join(f"<th>{h}</th>" for h in head)}</tr></thead>'
            f'<tbody>{class_rows(groups, cites, shown)}</tbody></table>{more}')


def plies_before(fen: object) -> int:
    """Plies played before a FEN's position by its move number and side; 0 when unreadable
    or at move 1 (a position set up, not played to: its ply would say nothing)."""
    fields = fen.split() if isinstance(fen, str) else []
    if len(fields) < 6 or fields[1] not in ("w", "b") or not fields[5].isdigit() or int(fields[5]) < 2:
        return 0
    return 2 * (int(fields[5]) - 1) + (fields[1] == "b")


def _answer_html(answer: object, input_fen: object) -> str:
    """One side of the expected/actual comparison: a diagram when it names a position."""
    if answer is None:
        return "<pre>null (no answer)</pre>"
    parts = []
    if isinstance(answer, Mapping):
        if isinstance(answer.get("fen"), str):
            parts.append(board_html(answer["fen"]))
        elif isinstance(answer.get("move"), str) and isinstance(input_fen, str):
            parts.append(board_html(input_fen, move_squares(answer["move"])))
    parts.append(f"<pre>{_e(compact(answer))}</pre>")
    return "".join(parts)


def failure_html(problem: Problem, anchor: str | None = None) -> str:
    """One failure's section: status, id, rulesets, cites, message, boards, answers; its
    element id is ``anchor`` or, by default, :func:`fixture_anchor` of the fixture id."""
    result = problem.result
    status = str(result.get("status"))
    given = result.get("input")
    data: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    fen = data.get("fen")
    moves = data.get("moves")
    first_move = data.get("move") or (moves[0] if isinstance(moves, list) and moves else None)
    cites = ", ".join(f"<code>{_e(c)}</code>" for c in cites_of(result))
    out = [f'<section class="failure {_e(status)}" id="{_e(anchor or fixture_anchor(result.get("id")))}">',
           f'<h3><span class="status">{_e(status)}</span><code>{_e(result.get("id"))}</code>'
           f' under {", ".join(f"<code>{_e(r)}</code>" for r in problem.rulesets)} '
           f'<small>({_e(result.get("kind"))})</small></h3>']
    if result.get("description"):
        out.append(f'<p class="description">{_e(result["description"])}</p>')
    if cites:
        out.append(f"<div>cites {cites}</div>")
    if result.get("message"):
        out.append(f"<pre>{_e(result['message'])}</pre>")
    out.append('<div class="cols">')
    if isinstance(fen, str):
        before = plies_before(fen)
        notes, squares = [f"ply {before} of the game"] if before else [], move_squares(first_move)
        difference = move_difference(result)
        if first_move:
            notes.append("first move highlighted")
        elif difference and 0 < len(difference[0]) + len(difference[1]) <= MAX_MARKED_MOVES:
            notes.append("differing moves highlighted")
            squares = set().union(*(move_squares(m) for m in difference[0] + difference[1]))
        label = "position" + (f" ({'; '.join(notes)})" if notes else "")
        out.append(f"<div><h4>{label}</h4>{board_html(fen, squares)}</div>")
        if isinstance(moves, list) and moves and isinstance(result.get("ruleset"), str):
            final = position_after(result["ruleset"], fen, moves)
            if final is not None:
                ply = f"ply {before + len(moves)} of the game; " if before else ""
                out.append(f"<div><h4>after the {len(moves)} pl{'ies' if len(moves) != 1 else 'y'} of the input"
                           f" ({ply}last move highlighted)</h4>"
                           f"{board_html(final, move_squares(moves[-1]))}</div>")
    out.append(f"<div><h4>input</h4><pre>{_e(compact(result.get('input')))}</pre></div>")
    out.append('</div><div class="answers">')
    out.append(f"<div><h4>expected</h4>{_answer_html(result.get('expect'), fen)}</div>")
    out.append(f"<div><h4>actual</h4>{_answer_html(result.get('actual'), fen)}</div>")
    difference = move_difference(result)
    if difference is not None:
        missing, extra = difference
        out.append(f"<div class=\"wide\"><h4>difference</h4><pre>missing: "
                   f"{_e(' '.join(missing) or '-')}\n"
                   f"extra:   {_e(' '.join(extra) or '-')}</pre></div>")
    out.append("</div></section>")
    return "\n".join(out)


def _meta(summary: Summary) -> str:
    header, footer = summary.header, summary.footer or {}
    items = [("adapter", describe_adapter(header)),
             ("corpus", header.get("corpus_revision")),
             ("harness", header.get("harness_version")),
             ("protocol", header.get("protocol_version")),
             ("started", header.get("started")),
             ("finished", footer.get("finished"))]
    return "".join(f"<span>{_e(k)}: <b>{_e(v)}</b></span>" for k, v in items if v is not None)


def render(records: Iterable[Record], max_failures: int = MAX_FAILURES) -> str:
    """The complete HTML document for a report."""
    summary = summarize(records)
    columns = status_columns(summary)
    title = f"Arbiter report: {describe_adapter(summary.header)}"
    verdict = summary.verdict()
    verdict_class = "ok" if verdict.good else ("bad" if not summary.ok else "incomplete")
    lines = headline(summary)
    body = [f"<h1>{_e(title)}</h1>", f'<div class="meta">{_meta(summary)}</div>',
            f'<p><span class="verdict {verdict_class}">{_e(verdict.text)}</span></p>',
            f"<p><b>{_e(lines[0])}</b>.<br>{'<br>'.join(_e(line) for line in lines[1:])}.<br>"
            "<small>Compliance = passed + xpass over the results judged: failed, errored and xfail "
            "count against; declined (skipped) results are not judged and are counted apart.</small></p>"]
    if summary.interrupted:
        body.append('<p class="verdict bad">The run was interrupted: this report is partial.</p>')
    if summary.missing_shards:
        body.append(f'<p class="verdict incomplete">This merged report lacks shard(s) '
                    f'{_e(", ".join(summary.missing_shards))}.</p>')
    if summary.results:
        body += ["<h2>By kind</h2>", _tally_table("kind", shown_groups(summary.by_kind), columns),
                 "<h2>By ruleset</h2>", _tally_table("ruleset", shown_groups(summary.by_ruleset), columns)]
        if summary.by_article:
            titles = {a: article_title(a) or "" for a in summary.by_article}
            body += ["<h2>By article</h2>",
                     _tally_table("article", summary.by_article, columns,
                                  titles if any(titles.values()) else None)]
    if summary.not_judged:
        body += [f"<h2>Not judged ({len(summary.not_judged)} declined: skipped), by reason</h2>",
                 _classes_html(summary.skip_reasons, cites=False)]
    if summary.problems:
        groups = summary.problem_groups
        shown = spread(groups, max_failures)
        shown_ids = {str(p.result.get("id")) for p in shown}
        body += [f"<h2>Failure classes by cause ({len(summary.classes)})</h2>",
                 "<p>Failures of one kind whose messages agree once FENs, moves, squares and numbers "
                 "are replaced by placeholders, and whose expectations set the same scene, whatever "
                 "articles they cite; errored results with one crash signature whatever their kind "
                 "(<code>arbiter report classes REPORT --by cite</code> splits them by article).</p>",
                 _classes_html(summary.classes, shown=shown_ids)]
        body.append(f"<h2>Failures ({len(summary.problems)})</h2>")
        if len(groups) < len(summary.problems):
            body.append(f"<p>{len(groups)} distinct: a failure alike under several rulesets "
                        "is shown once.</p>")
        seen: set[str] = set()
        for problem in shown:  # a fixture failing differently under two rulesets: one anchor
            section = failure_html(problem)
            ident = fixture_anchor(problem.result.get("id"))
            if ident in seen:
                section = section.replace(f' id="{ident}"', "", 1)
            seen.add(ident)
            body.append(section)
        chosen = {id(p) for p in shown}
        rest = [p for p in groups if id(p) not in chosen]
        if rest:
            body.append(f"<p>{len(rest)} more, without diagrams:</p><ul>")
            body += [f"<li><code>{_e(p.result.get('id'))}</code> under "
                     f"<code>{_e(ruleset_list(p.rulesets))}</code>: "
                     f"{_e(p.result.get('status'))}</li>" for p in rest]
            body.append("</ul>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write(records: Iterable[Record], path: str | Path, max_failures: int = MAX_FAILURES) -> None:
    """Write the HTML report for ``records`` to ``path``; ReportError if it cannot."""
    save_text(render(records, max_failures), path)
