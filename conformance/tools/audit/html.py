"""The ``arbiter audit`` output as one static, self-contained HTML page.

Rendered from the JSON Lines records of :mod:`.log` (``--out``), so a finished or an
interrupted audit can be rendered again later (``arbiter report audit OUT.jsonl --html``).
The page has a summary per server (the Site tag's host, :func:`~.judge.site_host`), per
rule (with the flag falls scored against the flag-fall rule out of every time forfeit
judged), every finding with a diagram of the position judged, the recorded and the
correct result, the article, the ruleset and why it applied, and the proof (a helpmate
as moves, also in SAN, and the position it reaches; or the static argument), and every
unreadable game with its reason, counted by reason. Diagrams are those of the harness's
report (:mod:`conformance.harness.reports.html`); no scripts, nothing loaded, every string from
the records escaped.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from reference_impl.errors import ArbiterError

from conformance.harness.reports import save_text
from conformance.harness.reports.classes import signature
from conformance.harness.reports.html import STYLE, board_html, position_after
from conformance.harness.reports.summary import article_title
from .execute import SITE_COUNTS
from .judge import KINDS, site_host

Record = Mapping[str, Any]

#: findings drawn with a board (spread over the rules); the rest are listed one a line
MAX_BOARDS = 500
#: findings listed without a board after those
MAX_LISTED = 5000
#: servers, files and unreadable games listed (counts are always over all of them)
MAX_ROWS = 1000
#: shown where a record lacks a field (an older audit, or one not recorded)
MISSING = "\u2014"
#: the diagram's place when the record holds no position
NO_POSITION = f"{MISSING} <small>(not in the record)</small>"
#: the per-server columns of :data:`~.execute.SITE_COUNTS`, in its order
SITE_HEADS = ("games", "time forfeits", "unreadable")
#: the prefix of a helpmate proof; its moves (UCI) follow, separated by spaces
HELPMATE = "helpmate "
#: a FEN anywhere in a proof or reason (the position judged when the record has no ``fen``)
FEN = re.compile(r"[pnbrqkPNBRQK1-8]+(?:/[pnbrqkPNBRQK1-8]+){7} [wb] [KQkqA-Ha-h-]+ [a-h1-8-]+ \d+ \d+")
#: the outcome a result is for the side it scores: flag-fall findings are classed by
#: (recorded, correct) outcome
OUTCOMES: dict[str, str] = {"1-0": "decisive", "0-1": "decisive", "1/2-1/2": "draw"}
#: flag-fall findings by (recorded, correct) outcome: what the per-rule summary says;
#: any other pair is "scored otherwise"
FLAG_FALL_CLASSES: dict[tuple[str, str], str] = {
    ("decisive", "draw"): "flag falls scored as losses where the opponent could not mate",
    ("draw", "decisive"): "flag falls scored as draws where the opponent could mate",
}
FLAG_FALL_OTHER = "flag falls scored otherwise than the flag-fall rule rules"
#: what else varies in an unreadable game's reason, replaced before the harness's
#: :func:`~conformance.harness.reports.classes.signature` so reasons count by kind: the move
#: label with its move (``12. Nf3``, ``12... Zz9``), a quoted token and a game result
#: (which the harness's signature keeps)
REASON_PLACEHOLDERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<![\w.])\d+\.(?:\.\.)? [^\s:]+"), "<n>. <move>"),
    (re.compile(r"(?<!\w)'[^']*'"), "'<token>'"),
    (re.compile(r"(?<![\w/-])(?:1-0|0-1|1/2-1/2|\*)(?![\w/-])"), "<result>"),
)
#: summary keys shown by the page's own tables; any other is listed as it stands
SUMMARY_SHOWN = frozenset({"type", "games", "bytes", "findings", "errors", "damaged_files", "undetermined",
                           "cpu_seconds", "wall_seconds", "flag_falls", "sites"})

EXTRA_STYLE = """
.finding{border:1px solid #ddd;border-left:6px solid #c33;padding:.6em 1em;margin:1em 0;border-radius:4px}
.finding h3{margin:.1em 0 .4em;font-size:1.05em}
table.facts{border-collapse:collapse} table.facts th{text-align:left;color:#555;font-weight:normal;
 padding:.15em .8em .15em 0;vertical-align:top;white-space:nowrap} table.facts td{padding:.15em 0}
.result{font-family:monospace;font-weight:bold} .correct{color:#165016} .recorded{color:#7a1010}
.proof{max-width:560px} .san{font-family:monospace}
.cols>div.facts{flex:1 1 420px}
table.tally td:first-child code{white-space:nowrap}
.warn{background:#fbefc8;color:#6a5000;padding:.4em .8em;border-radius:4px;display:inline-block}
"""


class AuditReportError(ArbiterError):
    """An audit output file cannot be read as one."""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _v(value: object) -> str:
    """A field's value escaped, or :data:`MISSING` when the record does not hold it."""
    return MISSING if value is None or value == "" else _e(value)


def read(path: str | Path) -> list[dict[str, Any]]:
    """The records of an ``arbiter audit --out`` file (a last line cut short by an
    interrupted run is left out); :class:`AuditReportError` naming the file and line."""
    records: list[dict[str, Any]] = []
    try:
        with Path(path).open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                try:
                    record = json.loads(raw)
                except ValueError:
                    if number == 1:
                        raise AuditReportError(f"{path}: not an arbiter audit output file") from None
                    if raw.endswith(b"\n"):
                        raise AuditReportError(f"{path}:{number}: not a JSON record") from None
                    break  # the last line, cut short
                if number == 1 and not (isinstance(record, dict) and record.get("type") == "audit"):
                    raise AuditReportError(f"{path}: not an arbiter audit output file")
                if not isinstance(record, dict):
                    raise AuditReportError(f"{path}:{number}: not a JSON object")
                records.append(record)
    except OSError as error:
        raise AuditReportError(f"{path}: {error.strerror or error}") from None
    if not records:
        raise AuditReportError(f"{path}: empty; not an arbiter audit output file")
    return records


def _count(value: object) -> int:
    """A count from a record (0 for anything but a whole number: a damaged record)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def position_of(finding: Record) -> str | None:
    """The position judged: the record's ``fen``, else the first FEN its proof or reason holds."""
    fen = finding.get("fen")
    if isinstance(fen, str) and fen:
        return fen
    for text in (finding.get("proof"), finding.get("reason")):
        match = FEN.search(text) if isinstance(text, str) else None
        if match:
            return match.group(0)
    return None


def helpmate_moves(proof: object) -> list[str] | None:
    """The UCI moves of a helpmate proof, or None when the proof is not one."""
    if not isinstance(proof, str) or not proof.startswith(HELPMATE):
        return None
    return proof[len(HELPMATE):].split()


def san_line(ruleset: str, fen: str, moves: list[str]) -> str | None:
    """``moves`` (UCI) from ``fen`` as numbered SAN (``12. Kd2 Kc4 13. Qb5#``); None when
    they cannot be played there."""
    from reference_impl import Board, load_ruleset
    from reference_impl.notation.san import to_san

    try:
        board = Board.from_fen(fen, load_ruleset(ruleset))
        number, parts = board.fullmove_number, []
        for index, text in enumerate(moves):
            move = board.parse_uci(text)
            if board.turn == 0:
                parts.append(f"{number}.")
            elif index == 0:
                parts.append(f"{number}...")
            parts.append(to_san(board, move))
            board.push(move)
            if board.turn == 0:
                number += 1
        return " ".join(parts)
    except (ArbiterError, ValueError, TypeError, AttributeError):
        return None


def reason_kind(message: object) -> str:
    """An unreadable game's reason with its particulars replaced (the count's key)."""
    text = str(message if message is not None else "")
    for pattern, placeholder in REASON_PLACEHOLDERS:
        text = pattern.sub(placeholder, text)
    return signature(text)


def outcome_class(finding: Record) -> str:
    """The per-rule line a flag-fall finding is counted in (:data:`FLAG_FALL_CLASSES`)."""
    recorded, correct = OUTCOMES.get(str(finding.get("recorded"))), OUTCOMES.get(str(finding.get("correct")))
    if recorded is None or correct is None:
        return FLAG_FALL_OTHER
    return FLAG_FALL_CLASSES.get((recorded, correct), FLAG_FALL_OTHER)


class _Audit:
    """The records of one audit, tallied in one pass (findings kept up to the caps)."""

    def __init__(self, records: Iterable[Record]) -> None:
        self.header: Record = {}
        self.summary: Record | None = None
        self.findings: list[Record] = []
        self.total: Counter = Counter()  # rule -> findings
        self.cites: defaultdict[str, Counter] = defaultdict(Counter)  # rule -> cite -> findings
        self.flag_classes: Counter = Counter()  # FLAG_FALL_CLASSES line -> findings
        self.site_findings: defaultdict[str, Counter] = defaultdict(Counter)  # host -> rule -> findings
        self.sites: defaultdict[str, Counter] = defaultdict(Counter)  # host -> SITE_COUNTS -> games
        self.counted_sites = False  # the partition records count games per server
        self.file_games: Counter = Counter()
        self.file_findings: Counter = Counter()
        self.file_errors: Counter = Counter()
        self.errors: list[Record] = []
        self.error_reasons: Counter = Counter()
        self.error_examples: dict[str, Record] = {}  # reason -> its first game
        self.damage: list[Record] = []
        for record in records:
            self._add(record)

    def _add(self, record: Record) -> None:
        kind = record.get("type")
        if kind == "audit":
            self.header = record
        elif kind == "summary":
            self.summary = record
        elif kind == "finding":
            rule = str(record.get("rule"))
            self.total[rule] += 1
            self.cites[rule][str(record.get("cite"))] += 1
            if rule == "flag_fall":
                self.flag_classes[outcome_class(record)] += 1
            tags: Mapping[str, Any] = record["tags"] if isinstance(record.get("tags"), Mapping) else {}
            self.site_findings[site_host(tags.get("Site"))][rule] += 1
            self.file_findings[str(record.get("file"))] += 1
            if len(self.findings) < MAX_BOARDS + MAX_LISTED:
                self.findings.append(record)
        elif kind == "error":
            self.file_errors[str(record.get("file"))] += 1
            reason = reason_kind(record.get("message"))
            self.error_reasons[reason] += 1
            self.error_examples.setdefault(reason, record)
            if len(self.errors) < MAX_ROWS:
                self.errors.append(record)
        elif kind == "damage":
            self.damage.append(record)
        elif kind == "partition":
            self.file_games[str(record.get("file"))] += _count(record.get("games"))
            if isinstance(record.get("sites"), Mapping):
                self.counted_sites = True
                for host, counts in record["sites"].items():
                    if isinstance(counts, Mapping):
                        self.sites[str(host)].update({k: _count(v) for k, v in counts.items()})

    @property
    def files(self) -> list[str]:
        """The files the header names."""
        files = self.header.get("files")
        return [str(f) for f in files] if isinstance(files, list) else []

    @property
    def games(self) -> int:
        return _count(self.summary.get("games")) if self.summary else sum(self.file_games.values())

    @property
    def flag_falls(self) -> int | None:
        """Time forfeits judged, or None when the output does not count them."""
        if self.summary is not None and isinstance(self.summary.get("flag_falls"), int):
            return _count(self.summary["flag_falls"])
        return sum(c["flag_falls"] for c in self.sites.values()) if self.counted_sites else None


def _table(head: list[str], rows: list[list[str]], numeric_from: int | None = 1) -> str:
    """A tally table; ``head`` and cells already HTML; columns from ``numeric_from`` on
    (none when None) right-aligned."""
    first = len(head) if numeric_from is None else numeric_from
    cells = "".join("<tr>" + "".join(f'<td class="n">{c}</td>' if i >= first else f"<td>{c}</td>"
                                     for i, c in enumerate(row)) + "</tr>" for row in rows)
    return (f'<table class="tally"><thead><tr>{"".join(f"<th>{h}</th>" for h in head)}</tr></thead>'
            f"<tbody>{cells}</tbody></table>")


def _more(shown: int, total: int, what: str) -> str:
    return f"<p>{total - shown} more {what} not listed.</p>" if total > shown else ""


def _sites_html(audit: _Audit) -> str:
    hosts = sorted(set(audit.sites) | set(audit.site_findings),
                   key=lambda h: (-audit.sites[h]["games"], -sum(audit.site_findings[h].values()), h))
    rules = [r for r in KINDS if audit.total[r]] + sorted(r for r in audit.total if r not in KINDS)
    rows = []
    for host in hosts[:MAX_ROWS]:
        counts, found = audit.sites[host], sum(audit.site_findings[host].values())
        counted = [str(counts[k]) if audit.counted_sites else MISSING for k in SITE_COUNTS]
        rate = f"{1000 * found / counts['games']:.1f}" if audit.counted_sites and counts["games"] else MISSING
        rows.append([f"<code>{_e(host)}</code>", *counted, str(found),
                     *[str(audit.site_findings[host][r] or "") for r in rules], rate])
    head = ["server (Site)", *SITE_HEADS, "findings", *[f"<code>{_e(r)}</code>" for r in rules],
            "findings per 1,000 games"]
    return _table(head, rows) + _more(min(len(hosts), MAX_ROWS), len(hosts), "servers")


def _rules_html(audit: _Audit) -> str:
    rows = []
    for rule in [r for r in KINDS if audit.total[r]] + sorted(r for r in audit.total if r not in KINDS):
        cites = ", ".join(f"<code>{_e(c)}</code> {_e(article_title(c) or '')} ({n})"
                          for c, n in audit.cites[rule].most_common())
        rows.append([f"<code>{_e(rule)}</code>", _e(KINDS.get(rule, "")), cites, str(audit.total[rule])])
    out = [_table(["rule", "what it means", "articles", "findings"], rows, numeric_from=3) if rows
           else "<p>No findings.</p>"]
    forfeits = audit.flag_falls
    of = f"{forfeits:,} time forfeits judged" if forfeits is not None else (
        f"{MISSING} time forfeits (this output does not count them)")
    lines = [f"<li>{_e(text)}: <b>{audit.flag_classes[text]:,}</b> of {of}</li>"
             for text in [*FLAG_FALL_CLASSES.values(), FLAG_FALL_OTHER]
             if audit.flag_classes[text] or text == next(iter(FLAG_FALL_CLASSES.values()))]
    out.append(f'<ul class="flagfalls">{"".join(lines)}</ul>')
    if audit.summary is not None and audit.summary.get("undetermined"):
        out.append(f"<p>{_e(audit.summary['undetermined'])} flag fall(s) undetermined (a search reached its "
                   "node limit): not counted as findings.</p>")
    return "".join(out)


def _files_html(audit: _Audit) -> str:
    files = list(dict.fromkeys([*audit.files, *audit.file_games,
                                *audit.file_findings, *audit.file_errors]))
    rows = [[f"<code>{_e(f)}</code>", str(audit.file_games[f]), str(audit.file_findings[f]),
             str(audit.file_errors[f])] for f in files[:MAX_ROWS]]
    return _table(["file", "games", "findings", "unreadable"], rows) + _more(len(rows), len(files), "files")


def _proof_html(finding: Record, ruleset: str, fen: str | None) -> str:
    proof = finding.get("proof")
    moves = helpmate_moves(proof)
    if moves is None:
        text = proof if isinstance(proof, str) else None
        if text and fen and text.startswith(fen):
            text = text[len(fen):].lstrip(": ")
        return f'<div class="proof">{_v(text)}</div>'
    out = [f'<div class="proof">helpmate in {len(moves)} plies: <span class="san">{_e(" ".join(moves))}</span>']
    line = san_line(ruleset, fen, moves) if fen else None
    if line:
        out.append(f'<br>SAN: <span class="san">{_e(line)}</span>')
    return "".join(out) + "</div>"


def _finding_html(finding: Record, number: int, rules: str) -> str:
    tags: Mapping[str, Any] = finding["tags"] if isinstance(finding.get("tags"), Mapping) else {}
    rule, cite = finding.get("rule"), finding.get("cite")
    ruleset = str(finding.get("ruleset") or rules)
    fen = position_of(finding)
    title = article_title(str(cite)) if cite else None
    correct = finding.get("correct")
    facts = [("game", f"<code>{_e(finding.get('file'))}</code> game {_v(finding.get('game'))}"),
             ("players", f"{_v(tags.get('White'))} \u2013 {_v(tags.get('Black'))}"),
             ("site, date", f"{_v(tags.get('Site'))}, {_v(tags.get('Date'))}"),
             ("recorded", f'<span class="result recorded">{_v(finding.get("recorded"))}</span>'),
             ("Laws", f'<span class="result correct">{_e(correct)}</span>' if correct is not None
              else "no result (the record is not a legal game)"),
             ("article", f"<code>{_v(cite)}</code>" + (f" {_e(title)}" if title else "")),
             ("ruleset", f"<code>{_e(ruleset)}</code>"),
             ("why this ruleset", _v(finding.get("ruleset_reason"))),
             ("reason", _v(finding.get("reason"))),
             ("proof", _proof_html(finding, ruleset, fen))]
    rows = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in facts)
    boards = [f"<div><h4>position judged</h4>{board_html(fen) if fen else NO_POSITION}</div>"]
    moves = helpmate_moves(finding.get("proof"))
    if fen and moves:
        final = position_after(ruleset, fen, moves)
        if final is not None:
            boards.append(f"<div><h4>after the helpmate</h4>{board_html(final)}</div>")
    return (f'<section class="finding" id="finding-{number}"><h3><span class="status">{_e(rule)}</span>'
            f"{_e(finding.get('file'))} game {_v(finding.get('game'))}</h3>"
            f'<div class="cols">{"".join(boards)}<div class="facts"><table class="facts">{rows}</table></div></div></section>')


def _spread(findings: list[Record], limit: int) -> list[Record]:
    """Up to ``limit`` findings taken in turn from each rule (file order within a rule)."""
    by_rule: dict[str, list[Record]] = defaultdict(list)
    for finding in findings:
        by_rule[str(finding.get("rule"))].append(finding)
    chosen: set[int] = set()
    queues = [iter(v) for v in by_rule.values()]
    while len(chosen) < min(limit, len(findings)):
        for queue in queues:
            item = next(queue, None)
            if item is not None and len(chosen) < limit:
                chosen.add(id(item))
    return [f for f in findings if id(f) in chosen]


def _unreadable_html(audit: _Audit) -> str:
    count = sum(audit.error_reasons.values())
    first = audit.error_examples
    out = [_table(["reason", "games", "first"],
                  [[_e(r or "(no message)"), str(n), f"<code>{_e(first[r].get('file'))}</code> game "
                    f"{_v(first[r].get('game'))}"] for r, n in audit.error_reasons.most_common(MAX_ROWS)],
                  numeric_from=None)]
    rows = [[f"<code>{_e(e.get('file'))}</code>", _v(e.get("game")), _e(e.get("message"))] for e in audit.errors]
    out.append(_table(["file", "game", "reason"], rows, numeric_from=None))
    out.append(_more(len(rows), count, "unreadable games"))
    return "".join(out)


def _extra_summary_html(summary: Record) -> str:
    """Summary counts this page has no table of (listed as they stand)."""
    out = []
    for key, value in summary.items():
        if key in SUMMARY_SHOWN:
            continue
        if isinstance(value, Mapping):
            rows = [[f"<code>{_e(k)}</code>", _e(json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list))
                                                  else v)] for k, v in list(value.items())[:MAX_ROWS]]
            out.append(f"<h3>{_e(key.replace('_', ' '))}</h3>" + (_table(["", "count"], rows) if rows else "<p>none</p>"))
        else:
            out.append(f"<p>{_e(key.replace('_', ' '))}: <b>{_e(json.dumps(value, ensure_ascii=False))}</b></p>")
    return "".join(out)


def render(records: Iterable[Record], max_boards: int = MAX_BOARDS) -> str:
    """The complete HTML document of an audit's records."""
    audit = _Audit(records)
    header, summary = audit.header, audit.summary
    rules = str(header.get("rules") or MISSING)
    files = audit.files
    title = f"Arbiter audit: {', '.join(Path(f).name for f in files) or MISSING}"
    found = sum(audit.total.values())
    unreadable = sum(audit.error_reasons.values())
    meta = [("rules", rules), ("files", len(files)), ("games", f"{audit.games:,}")]
    if summary is not None:
        meta += [("bytes", f"{_count(summary.get('bytes')):,}"), ("CPU seconds", summary.get("cpu_seconds")),
                 ("wall seconds", summary.get("wall_seconds"))]
    body = [f"<h1>{_e(title)}</h1>",
            '<div class="meta">' + "".join(f"<span>{_e(k)}: <b>{_e(v)}</b></span>" for k, v in meta
                                           if v is not None) + "</div>",
            f"<p><b>{found:,}</b> finding(s) in {audit.games:,} game(s); <b>{unreadable:,}</b> unreadable; "
            f"{len(audit.damage)} damaged file(s).</p>"]
    if summary is None:
        body.append('<p class="warn">No summary record: the audit was interrupted; this page shows the '
                    "partitions it finished (resume it with the same <code>--out</code>).</p>")
    body += ["<h2>By server (Site)</h2>", _sites_html(audit), "<h2>By rule</h2>", _rules_html(audit)]
    if len(audit.file_games) > 1 or len(files) > 1:
        body += ["<h2>By file</h2>", _files_html(audit)]
    if summary is not None and set(summary) - SUMMARY_SHOWN:
        body += ["<h2>Other counts</h2>", _extra_summary_html(summary)]
    if audit.findings:
        shown = _spread(audit.findings, max_boards)
        body.append(f"<h2>Findings ({found:,})</h2>")
        body += [_finding_html(f, n, rules) for n, f in enumerate(shown, 1)]
        chosen = {id(f) for f in shown}
        rest = [f for f in audit.findings if id(f) not in chosen]
        if rest:
            body.append(f"<p>{len(rest):,} more, without diagrams:</p>")
            body.append(_table(["file", "game", "rule", "recorded", "Laws", "reason"],
                               [[f"<code>{_e(f.get('file'))}</code>", _v(f.get("game")), _e(f.get("rule")),
                                 _v(f.get("recorded")), _v(f.get("correct")), _v(f.get("reason"))] for f in rest],
                               numeric_from=None))
        body.append(_more(len(audit.findings), found, "findings"))
    if unreadable or audit.damage:
        body.append(f"<h2>Unreadable games ({unreadable:,}), by reason</h2>")
        body.append(_unreadable_html(audit))
    if audit.damage:
        body.append("<h2>Damaged files</h2><ul>" + "".join(
            f"<li><code>{_e(d.get('file'))}</code>: damaged after {_v(d.get('at'))} bytes ({_e(d.get('message'))}); "
            "the games before the damage were audited</li>" for d in audit.damage) + "</ul>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{STYLE}{EXTRA_STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write(records: Iterable[Record], path: str | Path) -> None:
    """Write the page of ``records`` to ``path``; an error naming the file if it cannot."""
    save_text(render(records), path)
