"""Touch-move: FIDE 4.3-4.5 and US Chess 10B-10D, 10I (castling gestures).

Each case is a hand-built position; the allowed moves are read off the article.
"""

from __future__ import annotations

import pytest

from reference_impl.adjudication.game import Game
from reference_impl.adjudication.touch import allowed_moves
from reference_impl.errors import GameEventError
from reference_impl.rules.loader import derive_ruleset

CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def allowed(game: Game) -> tuple[set[str], str | None]:
    moves, cite = allowed_moves(game.board, game._touches, game.model)
    return {game.board.uci(m) for m in moves}, cite


def test_fide_2023_4_3_1_touched_own_piece_must_move() -> None:
    game = Game("fide-2023")
    game.touch("e2")
    assert allowed(game) == ({"e2e3", "e2e4"}, "fide-2023:4.3.1")
    with pytest.raises(GameEventError, match=r"move g1f3: touch-move \(fide-2023:4.3.1\) allows only e2e3 e2e4"):
        game.move("g1f3")
    game.move("e2e4")
    assert game._touches == []


def test_fide_2023_4_3_1_first_touched_piece_that_can_move() -> None:
    game = Game("fide-2023")
    game.touch("a1")   # the rook cannot move
    game.touch("b1")
    assert allowed(game) == ({"b1a3", "b1c3"}, "fide-2023:4.3.1")


def test_fide_2023_4_5_nothing_touched_can_move_any_move() -> None:
    game = Game("fide-2023")
    game.touch("a1")
    moves, cite = allowed(game)
    assert len(moves) == 20 and cite == "fide-2023:4.5"


def test_fide_2023_4_3_2_touched_opponent_piece_must_be_captured() -> None:
    game = Game("fide-2023", "4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1")
    game.touch("d5")
    assert allowed(game) == ({"e4d5", "c3d5"}, "fide-2023:4.3.2")


def test_fide_2023_4_3_3_own_and_opponent_piece_capture_with_the_own() -> None:
    game = Game("fide-2023", "4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1")
    game.touch("c3", "d5")   # at once: the own piece counts first
    assert allowed(game) == ({"c3d5"}, "fide-2023:4.3.3")


def test_fide_2023_4_4_1_king_then_rook_must_castle() -> None:
    game = Game("fide-2023", CASTLES)
    game.touch("e1")
    game.touch("h1")
    assert allowed(game) == ({"e1g1"}, "fide-2023:4.4.1")
    game = Game("fide-2023", CASTLES)
    game.touch("h1", "e1")   # together
    assert allowed(game)[0] == {"e1g1"}


def test_fide_2023_4_4_3_castling_illegal_then_another_king_move() -> None:
    # f1 is attacked: king-side castling is illegal; the king must move, and
    # queen-side castling is one of its moves.
    game = Game("fide-2023", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    game.touch("e1")
    game.touch("h1")
    moves, cite = allowed(game)
    assert cite == "fide-2023:4.4.3"
    assert "e1c1" in moves and "e1g1" not in moves and all(m.startswith("e1") for m in moves)


def test_fide_2023_4_4_2_rook_first_then_king_no_castling() -> None:
    game = Game("fide-2023", CASTLES)
    game.touch("h1")
    game.touch("e1")
    moves, cite = allowed(game)
    assert cite == "fide-2023:4.3.1" and "e1g1" not in moves
    assert moves == {"h1f1", "h1g1", "h1h2", "h1h3", "h1h4", "h1h5", "h1h6", "h1h7", "h1h8"}


def test_uscf_7_10i2_rook_first_no_castling_variation_i_allows_it() -> None:
    game = Game("uscf-7", CASTLES)
    game.touch("h1")
    assert "e1g1" not in allowed(game)[0]
    variation = derive_ruleset("uscf-7", {"touch_move": {"rook_first": {"castling_allowed": True}}}, id="uscf-7-var-i")
    game = Game(variation, CASTLES)
    game.touch("h1")
    game.touch("e1")
    assert "e1g1" in allowed(game)[0]


def test_fide_2023_9_4_a_touch_removes_the_claim_the_uscf_keeps_it() -> None:
    moves = "g1f3 g8f6 f3g1 f6g8".split() * 2
    fide, uscf = Game("fide-2023"), Game("uscf-7")
    for game in (fide, uscf):
        game.play(moves)
        game.touch("g1")
    assert fide.status().claims == ()
    assert [c.claim for c in uscf.status().claims] == ["threefold_repetition"]
