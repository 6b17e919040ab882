"""US Chess 14E in the timeout fixtures: every flag fall carries uscf-7 (and its blitz)
or says why not, and the expectations follow the rule's material rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chess
import pytest
import yaml

from conformance.tools.generate.uscf_flag import (FORCED_PLIES, USCF_FLAG, dead_by_exhaustion,
                                            forced_mate, row_for, uscf_flag)

ROOT = Path(__file__).resolve().parent.parent
FILES = ["timeout.jsonl", "timeout-lichess.jsonl"]


def fixtures() -> list[dict[str, Any]]:
    out = []
    for name in FILES:
        text = (ROOT / "conformance" / "fixtures" / name).read_text(encoding="utf-8")
        out += [json.loads(line) for line in text.splitlines()]
    return out


def expectation(fixture: dict[str, Any], ruleset: str) -> dict[str, Any]:
    return fixture.get("expect_by_ruleset", {}).get(ruleset) or fixture["expect"]


def test_no_timeout_fixture_omits_uscf_without_a_recorded_reason() -> None:
    for fixture in fixtures():
        listed = [r for r in USCF_FLAG if r in fixture["rulesets"]]
        if not listed:
            assert "US Chess omitted: " in fixture["source"]["detail"], fixture["id"]
        else:
            assert listed == USCF_FLAG, fixture["id"]
            assert expectation(fixture, "uscf-7") == expectation(fixture, "uscf-7-blitz")
            assert "US Chess 14E applied by hand: " in fixture["source"]["detail"]


def test_material_rows_decide_the_us_chess_result() -> None:
    for fixture in fixtures():
        if "uscf-7" not in fixture["rulesets"]:
            continue
        board = chess.Board(fixture["input"]["fen"])
        if board.is_checkmate() or board.is_stalemate() or "uscf-7:14D4" in fixture["cites"]:
            continue
        flagged = chess.WHITE if fixture["input"]["flagged"] == "white" else chess.BLACK
        loss = "0-1" if flagged == chess.WHITE else "1-0"
        got = expectation(fixture, "uscf-7")["result"]
        row = row_for(board, flagged)
        if row is None:
            assert got == loss, fixture["id"]
        elif not row[2]:  # 14E1, a lone king
            assert got == "1/2-1/2", fixture["id"]
        else:
            assert row[3] in fixture["cites"], fixture["id"]
            assert got == loss or "forced-win-bounded" in fixture["tags"] or \
                "cannot checkmate" in fixture["source"]["detail"], fixture["id"]


def test_every_file_now_lists_uscf_for_the_disputed_rows() -> None:
    by_id = {f["id"]: f for f in fixtures()}
    # K+N v K+N: FIDE 6.9 loses (a helpmate exists), US 14E2 draws (no forced win)
    disputed = by_id["timeout.classic.kn-v-kn"]
    assert expectation(disputed, "fide-2023")["result"] == "0-1"
    assert expectation(disputed, "uscf-7")["result"] == "1/2-1/2"
    # K+N+N against a flagged player with a pawn: 14E3 does not apply, the flag loses
    pawn = by_id["timeout.labelled.l0828.black"]
    assert expectation(pawn, "uscf-7")["result"] == "1-0"


def test_the_oracles_horizon_is_not_the_rules() -> None:
    # 14E2's forced win has no bound and uscf-7 states none; the exhaustive search's
    # horizon only tags the draws it cannot prove (forced-win-bounded).
    spec = yaml.safe_load((ROOT / "spec" / "rulesets" / "uscf-7.yaml").read_text(encoding="utf-8"))
    assert not [key for key in spec["flag_fall"] if "max_plies" in key]
    assert FORCED_PLIES >= 9
    bounded = [f for f in fixtures() if "forced-win-bounded" in f["tags"]]
    assert bounded and all(expectation(f, "uscf-7")["result"] == "1/2-1/2" for f in bounded)


def test_forced_mate_finds_a_forced_win_and_rejects_a_helpmate() -> None:
    # K+B against K+R+P, Black flags: Bxe4 mates, so 14E2's forced-win exception applies
    board = chess.Board("B7/8/8/8/4r3/8/7p/5K1k w - - 0 1")
    assert forced_mate(board, chess.WHITE, 1) is True
    assert uscf_flag(board, chess.BLACK, True, False).result == "1-0"
    # two knights against a lone king in the centre: mate exists, not forced
    knights = chess.Board("8/4k3/8/8/8/1K1N1N2/8/8 b - - 0 1")
    assert forced_mate(knights, chess.WHITE, 6) is False
    # a mate in one is found; the side to move being mated is no win for it
    scholar = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1")
    assert forced_mate(scholar, chess.WHITE, 1) is True
    assert forced_mate(scholar, chess.BLACK, 4) is False


@pytest.mark.parametrize(("fen", "dead"), [
    ("7k/6pP/6P1/5K2/8/8/8/8 w - - 1 67", True),  # every White move stalemates Black
    (chess.STARTING_FEN, False),
    ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", False),  # Qg7 mates
])
def test_dead_by_exhaustion(fen: str, dead: bool) -> None:
    assert dead_by_exhaustion(chess.Board(fen)) is dead


def test_undecided_material_outside_the_rows_is_left_out_with_why() -> None:
    # K+R v K+R, opponent said unable to mate, deadness unknown and not shown in 4 plies
    board = chess.Board("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    verdict = uscf_flag(board, chess.WHITE, False, None)
    assert verdict.result is None and "14D4" in verdict.why
