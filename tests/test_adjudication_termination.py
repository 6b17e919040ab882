"""How a game ends: checkmate (FIDE 5.1.1), resignation (5.1.2: new 2023 draw rule),
stalemate (5.2.1), dead position (5.2.2; US Chess 14D), agreement (5.2.3), and bad
events (a move after the end, an unknown colour, an empty touch).

Expectations follow the article texts; the dead positions are K+B v K (14D2) and a
locked pawn wall with bishops, both decided by the static proof.
"""

from __future__ import annotations

import pytest

from reference_impl.adjudication.api import dead_position, game_end
from reference_impl.adjudication.game import Game
from reference_impl.errors import GameEventError

KQ_V_K = "8/8/4k3/8/8/3QK3/8/8 w - - 0 60"
FOOLS_MATE = "f2f3 e7e5 g2g4 d8h4".split()


def test_fide_2023_5_1_1_checkmate_ends_the_game() -> None:
    game = Game("fide-2023")
    status = game.play(FOOLS_MATE)
    assert (status.result, status.reason, status.cite, status.end_ply) == ("0-1", "checkmate", "fide-2023:5.1.1", 4)
    assert Game("uscf-7").play(FOOLS_MATE).cite == "uscf-7:13A"


def test_move_after_the_end_is_an_error_and_changes_nothing() -> None:
    game = Game("fide-2023")
    game.play(FOOLS_MATE)
    fen = game.board.fen()
    with pytest.raises(GameEventError, match=r"move a2a3: the game is over \(0-1, checkmate"):
        game.move("a2a3")
    with pytest.raises(GameEventError, match="resignation by white: the game is over"):
        game.resign("white")
    assert game.board.fen() == fen and len(game.moves) == 4


def test_illegal_or_malformed_move_event_names_the_move() -> None:
    game = Game("fide-2023")
    with pytest.raises(GameEventError, match="move e2e5"):
        game.move("e2e5")
    with pytest.raises(GameEventError, match="move zz"):
        game.move("zz")
    assert game.moves == []


def test_fide_2023_5_2_1_stalemate() -> None:
    assert game_end("fide-2023", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 60", []) == {
        "result": "1/2-1/2", "reason": "stalemate", "claimable": []}


def test_fide_2023_5_2_2_dead_position_ends_the_game_at_once() -> None:
    # 1.Kxd2: K+B v K remains - dead, no claim needed.
    fen = "8/8/4k3/8/8/4K3/3q4/5B2 w - - 0 60"
    assert game_end("fide-2023", fen, ["e3d2"]) == {"result": "1/2-1/2", "reason": "dead_position", "claimable": []}
    assert dead_position("fide-2023", "8/8/4k3/8/8/3K4/8/5B2 b - - 0 60") == {"dead": True}
    status = Game("fide-2023", fen).move("e3d2")
    assert status.cite == "fide-2023:5.2.2"


def test_uscf_7_14d_draw_as_of_the_move_that_made_the_position() -> None:
    status = Game("uscf-7", "8/8/4k3/8/8/4K3/3q4/5B2 w - - 0 60").move("e3d2")
    assert (status.reason, status.cite, status.end_ply) == ("dead_position", "uscf-7:14D", 1)


def test_fide_2023_5_2_2_locked_pawn_wall_is_dead_but_opposite_bishops_are_not() -> None:
    # Labelled dead (CHA vectors): pawns locked, bishops that can never attack a pawn.
    assert dead_position("fide-2023", "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1") == {"dead": True}
    # Opposite-coloured bishops: a helpmate exists (chessops#152), so not dead.
    assert game_end("fide-2023", "7k/8/7K/2Bb4/8/8/8/8 b - - 0 1", [])["reason"] is None


def test_fide_2023_5_1_2_resignation_is_a_draw_when_the_opponent_cannot_mate() -> None:
    # White (K+Q) resigns against a lone king: under 2023 a draw, as the opponent
    # cannot checkmate; FIDE 2018 5.1.2 and US Chess 13B have no such exception.
    status = Game("fide-2023", KQ_V_K).resign("white")
    assert (status.result, status.reason, status.cite) == ("1/2-1/2", "resignation", "fide-2023:5.1.2")
    status = Game("fide-2018", KQ_V_K).resign("white")
    assert (status.result, status.cite) == ("0-1", "fide-2018:5.1.2")
    assert Game("uscf-7", KQ_V_K).resign("white").result == "0-1"


def test_fide_2023_5_1_2_resignation_with_mating_chances_loses() -> None:
    assert Game("fide-2023", KQ_V_K).resign("black").result == "1-0"


def test_fide_2023_5_2_3_agreement_needs_a_move_by_each_player() -> None:
    game = Game("fide-2023")
    game.move("e2e4")
    game.offer_draw("white")
    with pytest.raises(GameEventError, match=r"both players must have made 1 move\(s\) first \(fide-2023:5.2.3\)"):
        game.accept_draw("black")
    assert not game.finished
    game.move("e7e5")  # Black moves: White's offer lapses (9.1.2.1)
    assert game.status().offer_by is None
    game.offer_draw("white")
    status = game.accept_draw("black")
    assert (status.result, status.reason, status.cite) == ("1/2-1/2", "agreement", "fide-2023:5.2.3")


def test_uscf_7_14b_agreement_has_no_minimum() -> None:
    game = Game("uscf-7")
    game.offer_draw("white")
    assert game.accept_draw("black").reason == "agreement"


def test_agreement_counts_moves_made_before_a_fen_start() -> None:
    game = Game("fide-2023", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    game.offer_draw("black")
    assert game.accept_draw("white").finished


def test_accepting_without_an_offer_or_with_a_bad_colour_is_an_error() -> None:
    game = Game("fide-2023")
    with pytest.raises(GameEventError, match="draw acceptance by black: white has no draw offer standing"):
        game.accept_draw("black")
    with pytest.raises(GameEventError, match="unknown colour 'green'"):
        game.resign("green")


def test_touching_an_empty_square_is_an_error() -> None:
    with pytest.raises(GameEventError, match="touch: no piece on e4"):
        Game("fide-2023").touch("e4")
    with pytest.raises(GameEventError, match="not a square"):
        Game("fide-2023").touch("z9")


def test_malformed_time_control_in_a_game_is_an_error() -> None:
    with pytest.raises(GameEventError, match="malformed time control '90 min'"):
        Game("fide-2023", time_control="90 min")


def test_clock_reading_without_a_time_control_is_an_error() -> None:
    with pytest.raises(GameEventError, match="clock reading for white: the game has no time control"):
        Game("fide-2023").set_clock("white", 10)


def _snapshot(game: Game) -> tuple:
    return (game.board.fen(), list(game.moves), list(game.events), game.status(), game.clock,
            list(game._touches), list(game._illegal))


IMPOSSIBLE = {
    "claim by the player not to move": lambda g: g.claim_draw("black"),
    "claim with an illegal intended move": lambda g: g.claim_draw("white", "a1a8"),
    "claim with a malformed move": lambda g: g.claim_draw("white", "e9e10"),
    "flag with time left": lambda g: g.flag("white"),
    "acceptance without an offer": lambda g: g.accept_draw("black"),
    "touch of an empty square": lambda g: g.touch("e4"),
    "director's draw without a rule": lambda g: g.director_draw(),
    "negative move time": lambda g: g.move("e2e4", seconds=-1),
    "illegal move": lambda g: g.move("e2e5"),
    "unknown colour": lambda g: g.offer_draw("blue"),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_impossible_events_raise_and_leave_the_game_unchanged(name: str) -> None:
    game = Game("fide-2023", time_control="300+2")
    game.play("g1f3 g8f6".split())
    before = _snapshot(game)
    with pytest.raises(GameEventError):
        IMPOSSIBLE[name](game)
    assert _snapshot(game) == before


def test_us_chess_14d4_reading_is_a_table_key_one_row_away() -> None:
    """14D4 read two-sided (the table) against literally one-sided: K+R against a lone
    king goes on, unless a player who can no longer be mated ends the game."""
    from reference_impl.rules import derive_ruleset, load_ruleset

    fen, moves = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ["a1a7"]
    termination = load_ruleset("uscf-7").model.termination
    assert termination is not None and termination.dead_position is not None
    assert termination.dead_position.test == "neither_can_checkmate"
    assert game_end("uscf-7", fen, moves)["result"] == "*"
    literal = derive_ruleset("uscf-7", {"termination": {"dead_position": {"test": "player_cannot_be_checkmated"}}},
                             id="uscf-7-one-sided")
    one_sided = game_end(literal, fen, moves)
    assert (one_sided["result"], one_sided["reason"]) == ("1/2-1/2", "dead_position")
