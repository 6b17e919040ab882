"""Results come from the termination tables, and ``flag_fall.when`` decides whether a
fallen flag is a result before anyone claims it (FIDE 6.8 against US Chess 13C1).

Each test changes one table entry with :func:`derive_ruleset` and checks that the
answer follows it; the unchanged rulesets give the Laws' answers.
"""

from __future__ import annotations

import pytest

from reference_impl.adjudication.api import game_end, timeout
from reference_impl.adjudication.game import Game
from reference_impl.errors import RulesetError
from reference_impl.rules import derive_ruleset

STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 60"          # Black to move, no legal move
MATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 60"              # Black is checkmated
FOOLS_MATE = "f2f3 e7e5 g2g4 d8h4".split()
KN_KN = "8/8/4k3/8/2n5/3NK3/8/8 w - - 0 60"              # 6.9: Black can still mate


def test_fide_2023_5_2_1_stalemate_result_is_read_from_the_table() -> None:
    assert game_end("fide-2023", STALEMATE, []) == {"result": "1/2-1/2", "reason": "stalemate", "claimable": []}
    # The stalemated player (to move) gets the table's result: a loss gives White the game.
    lost = derive_ruleset("fide-2023", {"termination": {"stalemate": {"result": "loss"}}}, id="stalemate-loses")
    assert game_end(lost, STALEMATE, [])["result"] == "1-0"
    won = derive_ruleset("fide-2023", {"termination": {"stalemate": {"result": "win"}}}, id="stalemate-wins")
    assert game_end(won, STALEMATE, [])["result"] == "0-1"


def test_fide_2023_5_1_1_checkmate_result_is_for_the_player_who_gave_mate() -> None:
    assert game_end("fide-2023", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    FOOLS_MATE)["result"] == "0-1"
    drawn = derive_ruleset("fide-2023", {"termination": {"checkmate": {"result": "draw"}}}, id="mate-draws")
    assert game_end(drawn, MATED, []) == {"result": "1/2-1/2", "reason": "checkmate", "claimable": []}


def test_fide_2023_6_9_flag_fall_result_is_read_from_the_table() -> None:
    assert timeout("fide-2023", KN_KN, "white") == {"result": "0-1"}
    drawn = derive_ruleset("fide-2023", {"flag_fall": {"result": "draw"}}, id="flag-draws")
    assert timeout(drawn, KN_KN, "white") == {"result": "1/2-1/2"}


def test_fide_2023_5_1_2_resignation_result_is_read_from_the_table() -> None:
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert Game("fide-2023", start).resign("white").result == "0-1"
    drawn = derive_ruleset("fide-2023", {"termination": {"resignation": {"result": "draw"}}}, id="resign-draws")
    assert Game(drawn, start).resign("white").result == "1/2-1/2"


def test_a_result_entry_without_a_result_is_refused() -> None:
    with pytest.raises(RulesetError, match="result"):
        derive_ruleset("fide-2023", {"termination": {"stalemate": {"result": None}}}, id="no-result")


def _flag_on_a_move(rules: object) -> Game:
    game = Game(rules, time_control="300")
    game.move("e2e4", seconds=300)       # all of White's time: the flag falls
    return game


def test_fide_2023_6_8_a_flag_is_a_result_as_soon_as_it_is_seen() -> None:
    status = _flag_on_a_move("fide-2023").status()
    assert (status.finished, status.result, status.reason, status.cite) == (True, "0-1", "timeout", "fide-2023:6.9")


def test_uscf_7_13c1_a_flag_is_no_result_until_the_opponent_claims_it() -> None:
    game = _flag_on_a_move("uscf-7")
    status = game.status()
    assert not status.finished
    assert status.note == "flag of white down; no result until claimed (uscf-7:13C1)"
    # Play goes on; a mate given before the claim stands (the flag was never called).
    game.play(["e7e5", "f1c4", "b8c6", "d1h5", "g8f6"])
    status = game.move("h5f7")
    assert (status.result, status.reason) == ("1-0", "checkmate")


def test_uscf_7_13c1_the_claim_makes_the_flag_a_result() -> None:
    game = _flag_on_a_move("uscf-7")
    game.move("e7e5")
    status = game.flag("white")
    assert (status.finished, status.result, status.reason) == (True, "0-1", "timeout")


def test_flag_fall_when_is_read_from_the_table() -> None:
    # The same FIDE game with only `when` changed behaves as US Chess does, and back.
    claimed = derive_ruleset("fide-2023", {"flag_fall": {"when": "claimed"}}, id="fide-claimed")
    assert not _flag_on_a_move(claimed).finished
    noticed = derive_ruleset("uscf-7", {"flag_fall": {"when": "noticed"}}, id="uscf-noticed")
    assert _flag_on_a_move(noticed).status().result == "0-1"


def test_fide_2023_6_8_a_flag_down_from_a_clock_reading_awaits_the_arbiter() -> None:
    # A reading of zero (a PGN %clk comment) is no result by itself; the note says what
    # would make it one under each ruleset.
    for rules, until in (("fide-2023", "seen by the arbiter or claimed (fide-2023:6.8)"),
                         ("uscf-7", "claimed (uscf-7:13C1)")):
        game = Game(rules, time_control="300")
        status = game.set_clock("white", 0)
        assert not status.finished
        assert status.note == f"flag of white down; no result until {until}"
