"""``arbiter audit`` on records servers and tools wrote (tests/data/audit/real, provenance
in its README): Lichess, chess.com, FICS, ICC, TWIC/ChessBase, CCRL, cutechess, fastchess.

Expectations come from outside the audit: python-chess reads every chess game of these
files to the end (so none may be unreadable) and replays the mating lines the findings
give; an exhaustive python-chess walk over every position reachable from a position the
audit calls dead finds no checkmate (FIDE 5.2.2); the records' own words give each
ending (a FICS end message, ICC's ICCResult tag, a cutechess comment); the variants the
Laws do not cover are named by the records' Variant or Event tags.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

from conformance.tools.audit.laws import NOT_CHESS
from conformance.cli import main
from helpmate_oracle import mates

REAL = Path(__file__).parent / "data" / "audit" / "real"
FILES = sorted(REAL.glob("*.pgn"))
LICHESS_2021 = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "lichess-2021-10-clk.pgn"
#: Positions an exhaustive walk may visit before the test gives up (far above the dead
#: positions here: locked pawns, kings shut in their halves).
WALK_LIMIT = 200_000


def adjudicated(path: Path) -> list[dict[str, Any]]:
    result = CliRunner().invoke(main, ["adjudicate", str(path), "--json"])
    return [json.loads(line) for line in result.stdout.splitlines()]


def audited(path: Path, tmp_path: Path) -> list[dict[str, Any]]:
    out = tmp_path / "out.jsonl"
    CliRunner().invoke(main, ["audit", str(path), "--rules", "fide", "--out", str(out)])
    return [json.loads(line) for line in out.read_text().splitlines()]


def python_chess_games(path: Path) -> list[chess.pgn.Game]:
    """The games of ``path`` as python-chess reads them (a game's tags that follow the
    previous game's result with no blank line, as chess.com's archive writes them, set
    apart by one: python-chess reads them as moves otherwise)."""
    text = re.sub(r"(?<=[^\n])\n(?=\[Event )", "\n\n", path.read_bytes().decode("utf-8", "replace"))
    handle, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


def checkmate_reachable(fen: str) -> bool | None:
    """Whether any sequence of legal moves from ``fen`` reaches a checkmate (python-chess,
    every position once); ``None`` past :data:`WALK_LIMIT` positions."""
    start = chess.Board(fen)
    seen, frontier = {start.epd()}, [start]
    while frontier:
        board = frontier.pop()
        for move in list(board.legal_moves):
            board.push(move)
            if board.is_checkmate():
                return True
            key = board.epd()
            if key not in seen:
                seen.add(key)
                if len(seen) > WALK_LIMIT:
                    return None
                frontier.append(board.copy(stack=False))
            board.pop()
    return False


def test_the_excerpts_are_there() -> None:
    assert {p.name for p in FILES} >= {
        "chesscom-2014.pgn", "lichess-api.pgn", "fics-ficsgames.pgn", "fics-ics-crazyhouse.pgn", "icc.pgn",
        "twic-style.pgn", "chessbase-pgnmentor.pgn", "ccrl.pgn", "cutechess-bitleandor.pgn",
        "cutechess-avalanche.pgn", "fastchess-quoted.pgn"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_game_python_chess_reads_is_judged(path: Path, tmp_path: Path) -> None:
    """No game of a real export is unreadable; each one python-chess replays to its end
    is judged; the others are variants the Laws do not cover (skipped) or records that
    end with the illegal move they say ended the game (judged, no finding)."""
    records = audited(path, tmp_path)
    summary = records[-1]
    assert summary["errors"] == 0 and not [r for r in records if r["type"] == "error"]
    theirs = python_chess_games(path)
    assert summary["games"] == len(theirs)
    judged, skipped = sum(summary["rulesets"].values()), sum(summary["skipped"].values())
    assert judged + skipped == len(theirs)
    assert judged >= sum(1 for game in theirs if not game.errors)
    assert skipped <= sum(1 for game in theirs if game.errors)


def test_fics_crazyhouse_without_a_variant_tag_is_skipped_by_its_event() -> None:
    rows = adjudicated(REAL / "fics-ics-crazyhouse.pgn")
    assert len(rows) == 2
    assert all(NOT_CHESS in r["skipped"] and "crazyhouse" in r["skipped"] for r in rows)
    assert all(not r["findings"] and r["error"] is None for r in rows)
    # python-chess, reading them as chess, stops at the first drop
    assert all(game.errors for game in python_chess_games(REAL / "fics-ics-crazyhouse.pgn"))


@pytest.mark.parametrize("name, expected", [
    # FICS writes the end message as the last comment
    ("fics-ficsgames.pgn", [("resignation", "1-0", True), ("time_forfeit", "1-0", True), ("checkmate", "1-0", True)]),
    # ICC in its own ICCResult tag
    ("icc.pgn", [("checkmate", "0-1", True)]),
    # cutechess: an end on the board in the last comment, the others as Termination
    ("cutechess-bitleandor.pgn", [("checkmate", "1-0", True), ("time_forfeit", "1-0", True),
                                  ("unterminated", "*", None), ("repetition", "1/2-1/2", True)]),
    ("cutechess-avalanche.pgn", [("adjudication", "1-0", None), ("illegal_move", "0-1", None)]),
    # fastchess writes an engine's illegal move into the record: the record's ending, no finding
    ("fastchess-quoted.pgn", [("normal", "0-1", True), ("abandonment", "0-1", None), ("illegal_move", "1-0", None),
                              (None, "0-1", True)]),
    ("lichess-api.pgn", [("time_forfeit", "1-0", True), ("normal", "0-1", True), ("abandonment", "0-1", None)]),
    ("twic-style.pgn", [(None, "1/2-1/2", True)]),
    ("chessbase-pgnmentor.pgn", [(None, "1-0", True), (None, "1/2-1/2", True)]),
])
def test_each_record_is_read_as_its_source_states_its_end(name: str, expected: list[tuple[Any, ...]]) -> None:
    rows = adjudicated(REAL / name)
    assert [(r["event"], r["recorded"], r["agrees"]) for r in rows] == expected
    assert all(not r["findings"] and r["error"] is None and not r["warnings"] for r in rows)


def test_cutechess_windows_1252_tag_and_fractional_time_control() -> None:
    assert b"Mitteleurop\xe4ische" in (REAL / "cutechess-bitleandor.pgn").read_bytes()  # not UTF-8
    rows = adjudicated(REAL / "cutechess-bitleandor.pgn")
    assert [r["ruleset"] for r in rows] == ["fide-2023-blitz"] * 4  # 10+0.1: FIDE B.1 blitz


def test_fastchess_game_without_move_numbers_ends_where_python_chess_ends() -> None:
    game = python_chess_games(REAL / "fastchess-quoted.pgn")[3]
    assert not game.errors and "SetUp" not in game.headers
    row = adjudicated(REAL / "fastchess-quoted.pgn")[3]
    assert row["ply"] == len(list(game.mainline_moves()))


def test_chesscom_timeout_vs_insufficient_material_where_the_opponent_could_mate(tmp_path: Path) -> None:
    """chess.com drew erichansen - MagnusCarlsen on White's flag "by timeout vs
    insufficient material"; Black could still checkmate by a series of legal moves, so
    under FIDE 6.9 the loss stands. The helpmate is replayed by python-chess."""
    records = audited(REAL / "chesscom-2014.pgn", tmp_path)
    (flag,) = [r for r in records if r["type"] == "finding" and r["rule"] == "flag_fall"]
    assert (flag["game"], flag["recorded"], flag["correct"], flag["cite"]) == (1, "1/2-1/2", "0-1", "fide-2014:6.9")
    assert mates(flag["fen"], flag["proof"].removeprefix("helpmate ").split(), "black")


@pytest.mark.parametrize("name, game", [("chesscom-2014.pgn", 2), ("ccrl.pgn", 1)])
def test_moves_after_a_dead_position_are_found_and_the_position_is_dead(name: str, game: int, tmp_path: Path) -> None:
    records = audited(REAL / name, tmp_path)
    (found,) = [r for r in records if r["type"] == "finding" and r["rule"] == "after_end"]
    assert (found["game"], found["correct"]) == (game, "1/2-1/2") and "dead_position" in found["reason"]
    assert checkmate_reachable(found["proof"].split(":", 1)[0]) is False


def test_chess960_game_of_a_chesscom_archive_is_judged_as_chess960() -> None:
    row = adjudicated(REAL / "chesscom-2014.pgn")[2]
    assert row["ruleset"] == "fide-2023-chess960" and row["agrees"] is True and row["error"] is None


def _coordinate(game: chess.pgn.Game) -> str:
    """``game`` with its main line in coordinate notation (python-chess's UCI; Chess960
    castling as the king taking its rook), numbered, its tags kept."""
    board, moves = game.board(), []
    for move in game.mainline_moves():
        if board.turn == chess.WHITE or not moves:
            moves.append(f"{board.fullmove_number}{'.' if board.turn == chess.WHITE else '...'}")
        moves.append(board.uci(move, chess960=board.chess960))
        board.push(move)
    head = "".join(f'[{name} "{value}"]\n' for name, value in game.headers.items())
    return f"{head}\n{' '.join(moves)} {game.headers['Result']}\n"


def test_real_games_in_coordinate_notation_give_the_rulings_of_their_san(tmp_path: Path) -> None:
    """Real Lichess and chess.com games (these excerpts and the benchmark's Lichess file)
    written by python-chess once in SAN and once in coordinate notation (e2e4, e1g1):
    every coordinate game is read, and judged as its SAN record is."""
    games = [g for path in (REAL / "lichess-api.pgn", REAL / "chesscom-2014.pgn", LICHESS_2021)
             for g in python_chess_games(path)[:100]]
    san, uci = tmp_path / "san.pgn", tmp_path / "uci.pgn"
    san.write_text("\n".join(game.accept(chess.pgn.StringExporter(comments=False, variations=False)) + "\n"
                             for game in games))
    uci.write_text("\n".join(_coordinate(game) for game in games))
    ours_san, ours_uci = adjudicated(san), adjudicated(uci)
    assert len(ours_uci) == len(games) > 100 and all(r["error"] is None for r in ours_uci)
    assert [(r["result"], r["reason"], r["ruleset"], [f["rule"] for f in r["findings"]]) for r in ours_uci] == \
        [(r["result"], r["reason"], r["ruleset"], [f["rule"] for f in r["findings"]]) for r in ours_san]
    # the findings are the chess.com records' above (a flag fall, moves after a dead position)
    assert sorted(f["rule"] for r in ours_uci for f in r["findings"]) == ["after_end", "flag_fall"]
