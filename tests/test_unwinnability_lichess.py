"""FIDE 6.9 on real flag falls: the analysis against CHA on the shipped Lichess sample.

``tests/data/unwinnability/lichess-sample.txt`` (source and drawing rule in its header)
holds final positions of Lichess games lost on time with the Chess Unwinnability
Analyzer's verdict for the side not to move. For every row the reference answers the
same question at the node limit of the ``fide-2023`` flag-fall table: it must say
``CAN`` where CHA says winnable and never ``CAN`` where CHA says unwinnable (nor
``CANNOT`` where winnable), and every mating line it gives is replayed with python-chess
to a checkmate of the flagged player. The ``timeout-lichess`` fixtures are re-derived
from the same rows.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import chess

from reference_impl import Board, load_ruleset
from reference_impl.adjudication.verdicts import flag_fall_node_limit
from reference_impl.unwinnability import Analysis, Verdict, analyse

import pytest

from helpmate_oracle import mates

pytestmark = pytest.mark.slow  # left out of `tox -e fast`

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "unwinnability" / "lichess-sample.txt"
GENERATOR_COPY = ROOT / "conformance" / "tools" / "generate" / "data" / "lichess-sample.txt"
FIXTURES = ROOT / "conformance" / "fixtures" / "timeout-lichess.jsonl"
RULESET = "fide-2023"
#: What the header promises: rows, and how many CHA calls unwinnable.
ROWS, UNWINNABLE = 301, 1
FIDE_RULESETS = {"fide-2023", "fide-2023-rapid", "fide-2023-blitz", "fide-2018", "fide-2014",
                 "fide-2023-chess960"}


class Row(NamedTuple):
    fen: str
    game: str
    side: str
    winnable: bool
    helpmate: tuple[str, ...]


def _rows() -> list[Row]:
    rows = []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fen, game, side, verdict, moves = line.split("\t")
        assert verdict in ("winnable", "unwinnable"), line
        rows.append(Row(fen, game, side, verdict == "winnable", tuple(moves.split())))
    return rows


def _node_limit() -> int:
    return flag_fall_node_limit(load_ruleset(RULESET))


@lru_cache(maxsize=None)
def _analyses() -> tuple[tuple[Row, Analysis], ...]:
    rules = load_ruleset(RULESET)
    limit = _node_limit()
    return tuple((row, analyse(Board.from_fen(row.fen, rules), row.side, limit)) for row in _rows())


def _disagreements() -> list[str]:
    problems = []
    for row, found in _analyses():
        where = f"{row.game} {row.fen} ({row.side})"
        if row.winnable and found.verdict is Verdict.CANNOT:
            problems.append(f"CANNOT where CHA finds a mate: {where} [{found.proof}]")
        if not row.winnable and found.verdict is Verdict.CAN:
            problems.append(f"CAN where CHA proves none: {where}")
        if found.verdict is Verdict.CAN and not mates(row.fen, found.line, row.side):
            problems.append(f"mating line does not replay to mate: {where} {' '.join(found.line)}")
    return problems


def _undetermined() -> list[Row]:
    return [row for row, found in _analyses() if found.verdict is Verdict.UNDETERMINED]


def test_sample_matches_its_header_and_the_generator_copy() -> None:
    rows = _rows()
    assert len(rows) == ROWS
    assert sum(not row.winnable for row in rows) == UNWINNABLE
    assert f"# {ROWS} rows: {ROWS - UNWINNABLE} winnable, {UNWINNABLE} unwinnable." in SAMPLE.read_text()
    assert GENERATOR_COPY.read_bytes() == SAMPLE.read_bytes()
    for row in rows:
        # the flagged player is the side to move; the side asked is the other one
        assert chess.Board(row.fen).turn != (row.side == "white"), row.game


def test_helpmates_in_the_data_replay_to_mate_with_python_chess() -> None:
    rows = _rows()
    for row in rows:
        if row.winnable and row.helpmate:
            assert mates(row.fen, row.helpmate, row.side), row.game
        if not row.winnable:
            assert row.helpmate == ()
    assert sum(bool(row.helpmate) for row in rows) >= ROWS - UNWINNABLE - 1


def test_fide_2023_6_9_reference_agrees_with_cha_on_real_flag_falls() -> None:
    undetermined = len(_undetermined())
    assert _disagreements() == [], f"({undetermined} of {ROWS} undetermined)"


#: Rows left undetermined at the table's node limit, measured: none since the lone-minor
#: pictures of the compiled search.
UNDETERMINED_CEILING = 0


def test_fide_2023_6_9_real_flag_falls_decided_at_the_table_node_limit() -> None:
    open_rows = _undetermined()
    assert len(open_rows) <= UNDETERMINED_CEILING, (
        f"{len(open_rows)} of {ROWS} undetermined at {_node_limit()} nodes: "
        + "; ".join(f"{row.game} {row.fen} ({row.side})" for row in open_rows[:5]))


def test_fide_2023_6_9_a_mating_line_is_found_where_cha_finds_one() -> None:
    # a mate found must be a real one, and found in the bulk of the winnable rows
    found = [row for row, a in _analyses() if a.verdict is Verdict.CAN]
    assert all(row.winnable for row in found)
    assert len(found) >= (ROWS - UNWINNABLE) * 0.95


def _fixtures() -> list[dict]:
    return [json.loads(line) for line in FIXTURES.read_text(encoding="utf-8").splitlines()]


def test_timeout_lichess_fixtures_follow_cha_and_fide_6_9() -> None:
    by_fen = {row.fen: row for row in _rows()}
    fixtures = _fixtures()
    assert len(fixtures) >= 150
    assert any(not by_fen[f["input"]["fen"]].winnable for f in fixtures)
    for fixture in fixtures:
        row = by_fen[fixture["input"]["fen"]]
        flagged = fixture["input"]["flagged"]
        assert flagged != row.side and chess.COLOR_NAMES[chess.Board(row.fen).turn] == flagged
        loss = "0-1" if flagged == "white" else "1-0"
        want = loss if row.winnable else "1/2-1/2"
        assert FIDE_RULESETS <= set(fixture["rulesets"]), fixture["id"]
        for ruleset in FIDE_RULESETS:
            got = (fixture.get("expect_by_ruleset") or {}).get(ruleset) or fixture["expect"]
            assert got == {"result": want}, fixture["id"]
        assert "fide-2023:6.9" in fixture["cites"]


def test_uscf_7_14e_material_rows_decide_the_real_flag_falls() -> None:
    # Every Lichess fixture carries US Chess's expectation: a lone king cannot win on time
    # (14E1); a bishop, a knight or two knights draw unless a forced win is shown (14E2,
    # 14E3); any other material wins on time (13C) unless the position is dead (14D).
    by_fen = {row.fen: row for row in _rows()}
    weak = [[chess.BISHOP], [chess.KNIGHT], [chess.KNIGHT, chess.KNIGHT]]
    for fixture in _fixtures():
        assert {"uscf-7", "uscf-7-blitz"} <= set(fixture["rulesets"]), fixture["id"]
        row = by_fen[fixture["input"]["fen"]]
        board = chess.Board(row.fen)
        winner = row.side == "white"
        theirs = sorted(p.piece_type for p in board.piece_map().values()
                        if p.color == winner and p.piece_type != chess.KING)
        got = (fixture.get("expect_by_ruleset") or {}).get("uscf-7") or fixture["expect"]
        loss = {"result": "0-1" if winner == chess.BLACK else "1-0"}
        if not theirs:
            assert got == {"result": "1/2-1/2"}, fixture["id"]
        elif theirs in weak and got == loss:  # only with a forced win shown
            assert row.winnable and "forced-win-bounded" not in fixture["tags"], fixture["id"]
        elif theirs in weak:
            assert got == {"result": "1/2-1/2"}, fixture["id"]
        elif not any(c.startswith("uscf-7:14D") for c in fixture["cites"]):
            assert got == loss, fixture["id"]
