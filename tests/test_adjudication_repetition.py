"""Repetition of position: FIDE 9.2 (claim), 9.2.3 (same position), 9.6.1 (fivefold);
FIDE 2014 9.6 a and US Chess 14K1 (five consecutive alternate moves, discretionary).

Each sequence is worked out by hand from the article text; where python-chess
implements the same FIDE rule, its verdict is quoted in the test (it agrees on all of
these; the random cross-check is in test_adjudication_pychess.py).
"""

from __future__ import annotations

import pytest

from reference_impl.adjudication.api import game_end
from reference_impl.adjudication.game import Game
from reference_impl.errors import GameEventError
from reference_impl.rules.loader import derive_ruleset

KNIGHTS = "g1f3 g8f6 f3g1 f6g8".split()


def claims(game: Game) -> dict[str, tuple[bool, tuple[str, ...]]]:
    return {c.claim: (c.now, c.moves) for c in game.status().claims}


def test_fide_2023_9_2_knight_dance_after_double_steps_is_threefold() -> None:
    # Digest trap 1 (Stockfish#6563, cutechess#817): 1.e4 e5 2.Nf3 Nf6 3.Ng1 Ng8
    # 4.Nf3 Nf6 5.Ng1 Ng8 - the FEN e.p. field after 1...e5 names e6 but no capture
    # is possible, so the position after 1...e5 recurs: threefold (python-chess: True).
    game = Game("fide-2023")
    game.play("e2e4 e7e5".split() + KNIGHTS * 2)
    assert claims(game)["threefold_repetition"][0] is True
    assert game_end("fide-2023", game.board.fen(), [])["claimable"] == []  # a FEN has no history
    assert game_end("fide-2023", None, "e2e4 e7e5".split() + KNIGHTS * 2)["claimable"] == [
        "threefold_repetition"
    ]


def test_fide_2023_9_2_3_pseudo_legal_en_passant_does_not_make_positions_differ() -> None:
    # After d2-d4 the black king on h2 is in check from the rook on a2, so e4xd3 e.p.
    # is impossible; the position after d4 is the same as after the later Ra3-a2.
    fen = "8/8/8/8/4p3/8/R2P3k/K7 w - - 0 37"
    game = Game("fide-2023", fen)
    game.play("d2d4 h2h3 a2a3 h3h2 a3a2 h2h1 a2a3 h1h2 a3a2".split())
    assert claims(game)["threefold_repetition"][0] is True  # python-chess: is_repetition(3)


def test_fide_2023_9_2_3_counting_raw_fen_en_passant_would_miss_it() -> None:
    # The same moves under a ruleset whose same_position counts the FEN e.p. field:
    # the position after d4 then differs, so only two occurrences - the table decides.
    rules = derive_ruleset("fide-2023", {"repetition": {"same_position": {"en_passant": "fen"}}}, id="ep-fen")
    game = Game(rules, "8/8/8/8/4p3/8/R2P3k/K7 w - - 0 37")
    game.play("d2d4 h2h3 a2a3 h3h2 a3a2 h2h1 a2a3 h1h2 a3a2".split())
    assert claims(game).get("threefold_repetition", (False, ()))[0] is False


def test_fide_2023_9_2_3_1_first_position_with_legal_en_passant_differs() -> None:
    # 1.e4 a6 2.e5 d5: exd6 e.p. is legal, so this position differs from the same
    # placement after 4.Ng1 Ng8 and 6.Ng1 Ng8 - a visual third occurrence is only the
    # second in law (python-chess: is_repetition(3) False).
    game = Game("fide-2023")
    game.play("e2e4 a7a6 e4e5 d7d5".split() + KNIGHTS * 2)
    now, moves = claims(game)["threefold_repetition"]
    assert now is False
    assert moves == ("g1f3",)  # 7.Nf3 would bring the position after 5.Nf3 a third time
    game.play(KNIGHTS)
    assert claims(game)["threefold_repetition"][0] is True


def test_fide_2023_9_2_3_2_castling_rights_lost_by_moving_make_positions_differ() -> None:
    # 1.Nf3 Nf6 2.Rg1 Rg8 3.Rh1 Rh8: the placement after 1...Nf6 returns, but both
    # king-side rights are gone, so it is a different position (python-chess: twofold).
    game = Game("fide-2023")
    game.play("g1f3 g8f6 h1g1 h8g8 g1h1 g8h8 h1g1 h8g8 g1h1 g8h8".split())
    assert "threefold_repetition" not in claims(game)
    # Once the rights are gone for good the positions do repeat: after 6.Rg1 Rg8 the
    # position after 2...Rg8 stands a third time.
    game.play("h1g1 h8g8".split())
    assert claims(game)["threefold_repetition"][0] is True


def test_fide_2023_9_2_3_temporarily_impossible_castling_changes_nothing() -> None:
    # White's king-side castle is blocked by the knight on g1 in the start position
    # and open after Nf3; rights are the same in both, so the start recurs normally.
    game = Game("fide-2023")
    game.play(KNIGHTS * 2)
    assert claims(game)["threefold_repetition"][0] is True


def test_cutechess_817_position_with_en_passant_then_rook_shuffle() -> None:
    game = Game("fide-2023", "6k1/1p2p1rp/rP1pR3/2pP1pP1/p1P2P1P/R5K1/8/8 b - - 0 1")
    game.play("h7h5 e6h6 g7h7 h6e6 h7g7 e6h6 g7h7 h6e6 h7g7".split())
    assert claims(game)["threefold_repetition"][0] is True  # python-chess: True


def test_fide_2023_9_2_claim_with_intended_move_is_a_draw() -> None:
    game = Game("fide-2023")
    game.play(KNIGHTS + KNIGHTS[:3])
    verdict = game.claim_draw("black", "f6g8")
    assert verdict.correct and verdict.cite == "fide-2023:9.2"
    status = game.status()
    assert (status.result, status.reason, status.ply) == ("1/2-1/2", "threefold_repetition", 7)


def test_fide_2023_9_5_3_incorrect_claim_penalises_and_plays_the_intended_move() -> None:
    game = Game("fide-2023", time_control="5400+30")
    game.play(KNIGHTS[:3])
    verdict = game.claim_draw("black", "f6g8")
    assert not verdict.correct and verdict.penalty_ms == 120_000
    assert game.moves[-1] == "f6g8"
    assert game.clock is not None and game.clock.remaining_ms[0] == 5_400_000 + 120_000 + 2 * 30_000  # two instantaneous moves
    assert game.status().offer_by == "black"  # 9.1.2.3: the claim is also a draw offer


def test_fide_2023_a_3_rapid_incorrect_claim_costs_one_minute() -> None:
    game = Game("fide-2023", time_control="900+10")
    assert game.regime == "rapid"
    assert game.claim_draw("white").penalty_ms == 60_000


def test_claim_by_the_player_not_to_move_is_an_error_and_changes_nothing() -> None:
    game = Game("fide-2023")
    game.play(KNIGHTS * 2)
    before = (game.board.fen(), list(game.moves), game.status())
    with pytest.raises(GameEventError, match="claim by black: only the player to move"):
        game.claim_draw("black")
    assert (game.board.fen(), list(game.moves), game.status()) == before


def test_illegal_intended_move_is_an_error() -> None:
    game = Game("fide-2023")
    with pytest.raises(GameEventError, match="claim by white with e2e5"):
        game.claim_draw("white", "e2e5")
    assert game.moves == []


def test_fide_2023_9_4_touching_a_piece_forfeits_the_claim_on_that_move() -> None:
    game = Game("fide-2023")
    game.play(KNIGHTS * 2)
    game.touch("b1")
    assert game.status().claims == ()
    verdict = game.claim_draw("white")
    assert not verdict.correct and verdict.cite == "fide-2023:9.4"
    assert not game.finished


def test_uscf_7_14c4_claim_stays_open_after_a_touch() -> None:
    game = Game("uscf-7")
    game.play(KNIGHTS * 2)
    game.touch("b1")
    assert game.claim_draw("white").correct


# Start position at plies 0, 4, 12, 16, 20 (an 8-ply detour between 4 and 12).
DETOUR = "b1c3 b8c6 c3e4 c6e5 e4c3 e5c6 c3b1 c6b8".split()
FIVE_NOT_CONSECUTIVE = KNIGHTS + DETOUR + KNIGHTS + KNIGHTS


def test_fide_2023_9_6_1_fivefold_need_not_be_consecutive() -> None:
    assert game_end("fide-2023", None, FIVE_NOT_CONSECUTIVE[:-1])["reason"] is None
    assert game_end("fide-2023", None, FIVE_NOT_CONSECUTIVE) == {
        "result": "1/2-1/2", "reason": "fivefold_repetition", "claimable": []}
    assert game_end("fide-2018", None, FIVE_NOT_CONSECUTIVE)["reason"] == "fivefold_repetition"


def test_fide_2014_9_6_a_fivefold_needs_consecutive_alternate_moves() -> None:
    assert game_end("fide-2014", None, FIVE_NOT_CONSECUTIVE)["reason"] is None
    # Two more knight cycles: the start now stands at plies 12, 16, 20, 24, 28.
    assert game_end("fide-2014", None, FIVE_NOT_CONSECUTIVE + KNIGHTS)["reason"] is None
    assert game_end("fide-2014", None, FIVE_NOT_CONSECUTIVE + KNIGHTS * 2)["reason"] == "fivefold_repetition"


def test_uscf_7_14k1_fivefold_is_only_the_directors_discretion() -> None:
    game = Game("uscf-7")
    game.play(FIVE_NOT_CONSECUTIVE + KNIGHTS * 2)
    status = game.status()
    assert not status.finished
    assert ("fivefold_repetition", "uscf-7:14K1") in status.discretionary
    assert game_end("uscf-7", None, FIVE_NOT_CONSECUTIVE + KNIGHTS * 2)["reason"] is None
    assert game.director_draw().reason == "fivefold_repetition"


def test_director_draw_without_a_discretionary_rule_is_an_error() -> None:
    with pytest.raises(GameEventError, match="director's draw"):
        Game("uscf-7").director_draw()


def test_claim_threshold_is_data_not_code() -> None:
    rules = derive_ruleset("fide-2023", {"repetition": {"claim": {"occurrences": 4}}}, id="rep-4")
    game = Game(rules)
    game.play(KNIGHTS * 2)
    assert "threefold_repetition" not in {c.claim for c in game.status().claims if c.now}
    game.play(KNIGHTS)
    assert any(c.now for c in game.status().claims)
