"""``arbiter audit --html`` and ``arbiter report audit``: the page rendered from a real audit's
records of a small PGN written here.

Expectations are established apart from the renderer: the positions, the moves in SAN and
which games are time forfeits by python-chess; each game's server and whether it can be read
are labelled by hand in :data:`GAMES`; the per-server and per-rule counts are recomputed
here from the JSON Lines records (the renderer's input). The page is read back with the
standard library's HTML parser, so a count is checked in its own table cell.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import chess
import chess.pgn
import pytest

from conformance.tools.audit import html as audit_html
from conformance.tools.audit.judge import site_host

from cli_run import arbiter, one_error

HOSTILE_WHITE = "<script>alert(1)</script>"
HOSTILE_BLACK = '"><img src=x onerror=alert(2)>'


def game(moves: str, result: str, site: str, fen: str | None = None, termination: str | None = None,
         white: str = "W", black: str = "B") -> str:
    escaped = {"White": white, "Black": black}
    head = {"Event": "t", "Site": site, "Date": "2024.01.02", "Result": result,
            **{k: v.replace("\\", "\\\\").replace('"', '\\"') for k, v in escaped.items()}}
    if termination:
        head["Termination"] = termination
    if fen:
        head.update(SetUp="1", FEN=fen)
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + f"\n{moves} {result}\n\n"


KQ_K = "8/8/8/4k3/8/8/8/4K2Q"
#: (PGN, the server its Site names, whether the audit can read it), in file order
GAMES: list[tuple[str, str, bool]] = [
    # White's flag fell with only Black's king left: FIDE 6.9 rules a draw, recorded 0-1
    (game("", "0-1", "https://lichess.org/aaaa1111", f"{KQ_K} w - - 0 50", "Time forfeit",
          HOSTILE_WHITE, HOSTILE_BLACK), "lichess.org", True),
    # Black's flag fell and White can mate: the loss stands
    (game("1. e4 e5", "1-0", "https://lichess.org/bbbb2222", termination="Time forfeit"), "lichess.org", True),
    # a move after the fool's mate
    (game("1. f3 e5 2. g4 Qh4# 3. Kf2", "1-0", "Chess.com"), "chess.com", True),
    # Black's flag fell, White can mate: a loss, recorded as a draw
    (game("", "1/2-1/2", "https://lichess.org/cccc3333", f"{KQ_K} b - - 0 50", "Time forfeit"),
     "lichess.org", True),
    # unreadable: the marker contradicts the Result tag (twice), and a token that is no move
    (game("1. e4 e5 0-1", "1-0", "https://lichess.org/dddd4444").replace("0-1 1-0", "0-1"), "lichess.org", False),
    (game("1. d4 d5 2. c4 1-0", "0-1", "https://www.chess.com/game/live/1").replace("1-0 0-1", "1-0"),
     "chess.com", False),
    (game("1. e4 Zz9", "1-0", "London ENG"), "London ENG", False),
    (game("1. e4 e5 2. Nf3", "1/2-1/2", "London ENG"), "London ENG", True),
]


class Tables(HTMLParser):
    """Every ``<table>`` of a page as rows of cell texts; every element's text by id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.stack: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.stack.append([])
        elif tag == "tr" and self.stack:
            self.stack[-1].append([])
        elif tag in ("td", "th") and self.stack:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.stack:
            self.tables.append(self.stack.pop())
        elif tag in ("td", "th") and self.cell is not None and self.stack and self.stack[-1]:
            self.stack[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables(page: str) -> list[list[list[str]]]:
    parser = Tables()
    parser.feed(page)
    return parser.tables


def table_with(page: str, *header: str) -> list[list[str]]:
    """The one table whose header row starts with ``header``."""
    (found,) = [t for t in tables(page) if t and t[0][: len(header)] == list(header)]
    return found


def text_of(page: str) -> str:
    """The page's text, tags dropped and entities decoded, spaces collapsed."""
    import html

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def host_of(site: str) -> str:
    """The server a Site names, by urllib (a URL or bare domain), else the value itself."""
    if " " in site or "." not in site:
        return site
    host = urlsplit(site if "://" in site else "//" + site).hostname or site
    return host.removeprefix("www.")


def section(page: str, number: int) -> str:
    match = re.search(rf'<section class="finding" id="finding-{number}">.*?</section>', page, re.S)
    assert match, number
    return match.group(0)


def pieces_on_page(html_text: str, board_index: int = 0) -> dict[str, str]:
    """square -> colour class and figurine, of the ``board_index``-th diagram in ``html_text``."""
    boards = re.findall(r'<table class="board">.*?</table>', html_text, re.S)
    return {square: colour + figure for square, colour, figure in
            re.findall(r'title="([a-h][1-8])"><span class="(pw|pb)">(.)', boards[board_index])}


def pieces_expected(board: chess.Board) -> dict[str, str]:
    """The same map from python-chess (its black figurines are the page's solid set)."""
    return {chess.square_name(sq): ("pw" if p.color else "pb") + chess.UNICODE_PIECE_SYMBOLS[p.symbol().lower()]
            for sq, p in board.piece_map().items()}


def python_chess_games() -> list[chess.pgn.Game]:
    stream = io.StringIO("".join(text for text, _, _ in GAMES))
    return [g for g in iter(lambda: chess.pgn.read_game(stream), None)]


def judged_board(pgn: chess.pgn.Game) -> chess.Board:
    """The position a finding is about: the mate where moves follow one, else the last."""
    board = pgn.board()
    for move in pgn.mainline_moves():
        if board.is_checkmate():
            break
        board.push(move)
    return board


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]], str]:
    """(directory, the --out records, the --html page) of one real audit."""
    where = tmp_path_factory.mktemp("audit_html")
    (where / "games.pgn").write_text("".join(text for text, _, _ in GAMES), encoding="utf-8")
    run = arbiter("audit", str(where / "games.pgn"), "--rules", "fide-2023", "--out", str(where / "a.jsonl"),
                  "--html", str(where / "a.html"))
    assert run.returncode == 1, run.stderr  # unreadable games: exit 1, the page written all the same
    records = [json.loads(line) for line in (where / "a.jsonl").read_text(encoding="utf-8").splitlines()]
    return where, records, (where / "a.html").read_text(encoding="utf-8")


def findings_of(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["type"] == "finding"]


def test_the_audit_found_what_the_games_hold(audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    """The fixture's premise: one finding per game built for one, the unreadable ones unread."""
    _, records, _ = audited
    assert [(f["game"], f["rule"]) for f in findings_of(records)] == [
        (1, "flag_fall"), (3, "after_end"), (4, "flag_fall")]
    assert sorted(r["game"] for r in records if r["type"] == "error") == [
        n for n, (_, _, readable) in enumerate(GAMES, 1) if not readable]


def test_each_finding_has_its_cite_results_ruleset_and_board(
        audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    _, records, page = audited
    games = python_chess_games()
    rules = records[0]["rules"]
    for number, finding in enumerate(findings_of(records), 1):
        part = section(page, number)
        facts = {row[0]: row[1] for row in tables(part)[-1] if len(row) == 2}
        assert facts["article"].startswith(finding["cite"])
        assert facts["recorded"] == finding["recorded"]
        assert facts["Laws"] == finding["correct"]
        assert facts["ruleset"] == finding.get("ruleset", rules)
        assert facts["why this ruleset"] == finding.get("ruleset_reason", audit_html.MISSING)
        expected = judged_board(games[finding["game"] - 1])
        if finding["rule"] == "flag_fall" and "fen" not in finding:
            # the record holds no position (only the after-end proof starts with one)
            assert '<table class="board">' not in part
        else:
            assert pieces_on_page(part) == pieces_expected(expected)


def test_helpmate_in_san_and_its_mate_when_the_record_holds_the_position(
        audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    """With the position judged in the record (``fen``), the helpmate is drawn and read in SAN."""
    _, records, _ = audited
    games = python_chess_games()
    with_fen = [dict(r, fen=judged_board(games[r["game"] - 1]).fen()) if r["type"] == "finding" else r
                for r in records]
    page = audit_html.render(with_fen)
    (number, finding), = [(n, f) for n, f in enumerate(findings_of(with_fen), 1)
                          if (f["proof"] or "").startswith("helpmate ")]
    board = chess.Board(finding["fen"])
    moves = [chess.Move.from_uci(m) for m in finding["proof"].split()[1:]]
    san = board.variation_san(moves)
    for move in moves:
        board.push(move)
    assert board.is_checkmate()
    part = section(page, number)
    assert text_of(part).replace("... ", "...").count(san) == 1
    assert pieces_on_page(part, 1) == pieces_expected(board)
    assert pieces_on_page(part, 0) == pieces_expected(chess.Board(finding["fen"]))


def test_per_server_counts(audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    _, records, page = audited
    unread = {r["game"] for r in records if r["type"] == "error"}
    games, forfeits, found = Counter(), Counter(), Counter()
    for number, pgn in enumerate(python_chess_games(), 1):
        host = host_of(pgn.headers["Site"])
        games[host] += 1
        board = pgn.end().board()
        if pgn.headers.get("Termination") == "Time forfeit" and number not in unread and not board.is_game_over():
            forfeits[host] += 1
    # the error records name no Site: their games' servers as labelled
    unreadable = Counter(host for n, (_, host, _) in enumerate(GAMES, 1) if n in unread)
    per_rule: dict[str, Counter] = {}
    for finding in findings_of(records):
        host = host_of(finding["tags"]["Site"])
        found[host] += 1
        per_rule.setdefault(finding["rule"], Counter())[host] += 1
    assert [host_of(pgn.headers["Site"]) for pgn in python_chess_games()] == [host for _, host, _ in GAMES]
    summary = records[-1]
    assert summary["flag_falls"] == sum(forfeits.values())
    assert summary["sites"] == {h: {"games": games[h], "flag_falls": forfeits[h], "unreadable": unreadable[h]}
                                for h in games}
    head, *rows = table_with(page, "server (Site)")
    assert {row[0] for row in rows} == set(games)
    for row in rows:
        cell = dict(zip(head, row))
        host = row[0]
        assert (cell["games"], cell["time forfeits"], cell["unreadable"], cell["findings"]) == (
            str(games[host]), str(forfeits[host]), str(unreadable[host]), str(found[host]))
        for rule, hosts in per_rule.items():
            assert cell[rule] == (str(hosts[host]) if hosts[host] else "")


def test_per_rule_counts_and_the_flag_fall_line(audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    _, records, page = audited
    findings = findings_of(records)
    head, *rows = table_with(page, "rule")
    assert {row[0]: int(row[-1]) for row in rows} == Counter(f["rule"] for f in findings)
    unread = {r["game"] for r in records if r["type"] == "error"}
    forfeits = sum(1 for n, pgn in enumerate(python_chess_games(), 1)
                   if pgn.headers.get("Termination") == "Time forfeit" and n not in unread)
    losses = sum(1 for f in findings if f["rule"] == "flag_fall" and f["recorded"] in ("1-0", "0-1")
                 and f["correct"] == "1/2-1/2")
    draws = sum(1 for f in findings if f["rule"] == "flag_fall" and f["recorded"] == "1/2-1/2"
                and f["correct"] in ("1-0", "0-1"))
    assert (losses, draws, forfeits) == (1, 1, 3)  # the games were written so
    text = text_of(page)
    assert (f"flag falls scored as losses where the opponent could not mate: {losses} of {forfeits} "
            "time forfeits judged") in text
    assert f"flag falls scored as draws where the opponent could mate: {draws} of {forfeits}" in text


def test_unreadable_games_listed_and_counted_by_reason(audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    _, records, page = audited
    errors = [r for r in records if r["type"] == "error"]
    listed = table_with(page, "file", "game", "reason")[1:]
    assert [(row[1], row[2]) for row in listed] == [(str(e["game"]), e["message"]) for e in errors]
    assert {row[0] for row in listed} == {e["file"] for e in errors}
    # two games whose marker contradicts the Result tag, one with a token that is no move
    markers = sum("differs from the Result tag" in e["message"] for e in errors)
    reasons = table_with(page, "reason")[1:]
    assert (markers, [int(row[1]) for row in reasons]) == (2, [2, 1])
    assert [row[2] for row in reasons] == [f"{errors[0]['file']} game 5", f"{errors[0]['file']} game 7"]


def test_hostile_tag_values_are_escaped(audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    _, records, page = audited
    assert findings_of(records)[0]["tags"]["White"] == HOSTILE_WHITE  # they did reach the page's input
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert f"{HOSTILE_WHITE} \u2013 {HOSTILE_BLACK}" in text_of(page)


def test_report_audit_renders_the_same_page(audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    where, _, page = audited
    run = arbiter("report", "audit", str(where / "a.jsonl"), "--html", str(where / "b.html"))
    assert run.returncode == 0, run.stderr
    assert (where / "b.html").read_text(encoding="utf-8") == page


def test_an_interrupted_audit_renders_from_its_partitions(
        audited: tuple[Path, list[dict[str, Any]], str], tmp_path: Path) -> None:
    where, records, page = audited
    lines = (where / "a.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    assert json.loads(lines[-1])["type"] == "summary"
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:-1]) + lines[-1][:20], encoding="utf-8")  # no summary; a line cut short
    partial = audit_html.render(audit_html.read(cut))
    assert "the audit was interrupted" in partial
    assert table_with(partial, "server (Site)") == table_with(page, "server (Site)")


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    assert "no such file" in one_error(arbiter("report", "audit", str(tmp_path / "none.jsonl"), "--html",
                                               str(tmp_path / "x.html"))).lower()
    pgn = tmp_path / "g.pgn"
    pgn.write_text(GAMES[1][0], encoding="utf-8")
    line = one_error(arbiter("report", "audit", str(pgn), "--html", str(tmp_path / "x.html")))
    assert f"{pgn}: not an arbiter audit output file" in line
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("site,host", [
    ("https://lichess.org/abcd1234", "lichess.org"), ("lichess.org", "lichess.org"), ("Chess.com", "chess.com"),
    ("https://www.chess.com/game/live/1", "chess.com"), ("http://www.chessclub.com:80/x", "chessclub.com"),
    ("FICS freechess.org", "FICS freechess.org"), ("London ENG", "London ENG"), ("", "?"), (None, "?")])
def test_site_host(site: str | None, host: str) -> None:
    assert site_host(site) == host


def test_findings_past_the_diagram_limit_are_listed_one_a_line(
        audited: tuple[Path, list[dict[str, Any]], str]) -> None:
    _, records, _ = audited
    page = audit_html.render(records, max_boards=1)
    findings = findings_of(records)
    assert page.count('<section class="finding"') == 1
    head, *rows = table_with(page, "file", "game", "rule")
    assert [(row[1], row[2]) for row in rows] == [(str(f["game"]), f["rule"]) for f in findings[1:]]


def test_damaged_records_are_rendered_not_raised() -> None:
    """Records an editor or another tool garbled: values of the wrong type become '—' or 0."""
    records = [{"type": "audit", "rules": "fide-2023", "files": "x.pgn"},
               {"type": "finding", "file": "x.pgn", "game": "two", "tags": ["Site"], "rule": "flag_fall",
                "cite": None, "recorded": 1, "correct": None, "reason": None, "proof": "helpmate zz"},
               {"type": "partition", "file": "x.pgn", "games": "many", "sites": {"a.org": {"games": "3"}}},
               {"type": "summary", "games": None, "flag_falls": "x"}]
    page = audit_html.render(records)
    head, *rows = table_with(page, "server (Site)")
    assert [dict(zip(head, row))["games"] for row in rows] == ["0", "0"]  # "?" (the finding's) and a.org
    assert "helpmate in 1 plies: zz" in text_of(page)


def test_a_resumed_audit_counts_the_servers_of_the_partitions_it_read_back(
        audited: tuple[Path, list[dict[str, Any]], str], tmp_path: Path) -> None:
    where, records, _ = audited
    out = tmp_path / "small.jsonl"
    args = ("audit", str(where / "games.pgn"), "--rules", "fide-2023", "--out", str(out), "--partition-bytes", "300")
    arbiter(*args)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if '"type": "partition"' in line)
    assert sum('"type": "partition"' in line for line in lines) > 2  # partitions both read back and audited
    out.write_text("".join(lines[: first + 1]), encoding="utf-8")
    arbiter(*args)
    summary = json.loads(out.read_text(encoding="utf-8").splitlines()[-1])
    assert (summary["sites"], summary["flag_falls"]) == (records[-1]["sites"], records[-1]["flag_falls"])


def test_the_page_without_out_is_the_same_page(audited: tuple[Path, list[dict[str, Any]], str],
                                               tmp_path: Path) -> None:
    """Without ``--out`` the page is rendered from the records kept in memory: the same page
    but for the times measured."""
    where, _, page = audited
    run = arbiter("audit", str(where / "games.pgn"), "--rules", "fide-2023", "--html", str(tmp_path / "c.html"))
    assert run.returncode == 1 and "Traceback" not in run.stderr

    def untimed(text: str) -> str:
        return re.sub(r"(CPU|wall) seconds: <b>[0-9.]+</b>", "", text)

    assert untimed((tmp_path / "c.html").read_text(encoding="utf-8")) == untimed(page)


def test_an_html_page_nowhere_is_refused_before_the_audit(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    pgn.write_text(GAMES[1][0], encoding="utf-8")
    line = one_error(arbiter("audit", str(pgn), "--rules", "fide-2023", "--html", str(tmp_path / "no" / "x.html")))
    assert "no such directory" in line
