"""The protocol kinds game_end, timeout and dead_position through
reference_impl.adjudication.api and the in-process reference adapter.
"""

from __future__ import annotations

import pytest

from reference_impl.adjudication.api import UndeterminedError
from reference_impl.adjudication.api import timeout as adjudication_timeout
from reference_impl.rules import derive_ruleset

from conformance.implementations import reference
from reference_impl.adjudication.api import dead_position, game_end, timeout
from reference_impl.adjudication.game import Game
from reference_impl.errors import ArbiterError, GameEventError
from reference_impl.rules.loader import load_ruleset

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_game_end_shape_and_values() -> None:
    assert game_end("fide-2023", START, []) == {"result": "*", "reason": None, "claimable": []}
    assert game_end(load_ruleset("fide"), START, "f2f3 e7e5 g2g4 d8h4".split()) == {
        "result": "0-1", "reason": "checkmate", "claimable": []}


def test_game_end_first_end_stands_and_later_moves_must_be_legal() -> None:
    # After a mate no move is legal; after a dead position play may go on, but the
    # game was drawn the moment the position arose (5.2.2).
    with pytest.raises(GameEventError, match=r"move a2a3 \(after the game ended\)"):
        game_end("fide-2023", START, "f2f3 e7e5 g2g4 d8h4 a2a3".split())
    fen = "8/8/4k3/8/8/4K3/3q4/5B2 w - - 0 60"
    assert game_end("fide-2023", fen, ["e3d2", "e6d5", "f1g2"])["reason"] == "dead_position"
    with pytest.raises(GameEventError, match="f1f3"):
        game_end("fide-2023", fen, ["e3d2", "e6d5", "f1f3"])


def test_game_end_bad_move_is_an_error() -> None:
    with pytest.raises(GameEventError, match="move e1e8"):
        game_end("fide-2023", START, ["e1e8"])


def test_reference_adapter_answers_the_adjudication_kinds() -> None:
    assert reference.game_end("fide-2023", {"fen": START, "moves": []})["result"] == "*"
    # US Chess 14E2, K+B against a bare king: no mate exists at all, so no forced win
    assert reference.timeout("uscf-7", {"fen": "8/8/2b1k3/8/8/4K3/8/8 w - - 0 60", "flagged": "white"}) == {
        "result": "1/2-1/2"}
    # K+N against K+N: a helpmate exists and the search shows no forced win within its
    # budget (14E2's forced win has no bound). The table's reading (forced_win_unshown:
    # draw) lets the 14E2 draw stand; the other reading makes the strict adapter decline.
    kn_kn = {"fen": "8/8/2n1k3/8/8/3NK3/8/8 w - - 0 60", "flagged": "white"}
    assert reference.timeout("uscf-7", kn_kn) == {"result": "1/2-1/2"}
    declining = derive_ruleset("uscf-7", {"flag_fall": {"forced_win_unshown": "undetermined"}}, id="uscf-7-declining")
    with pytest.raises(UndeterminedError, match="no forced win decided"):
        adjudication_timeout(declining, kn_kn["fen"], "white", strict=True)
    assert reference.dead_position("fide-2023", {"fen": "8/8/4k3/8/8/3K4/8/5B2 b - - 0 60"}) == {"dead": True}


def test_timeout_after_an_automatic_end_keeps_that_end() -> None:
    # A stalemated position: the flag does not matter (6.9 exceptions).
    assert timeout("fide-2023", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 60", "black") == {"result": "1/2-1/2"}
    assert timeout("fide-2023", "k7/8/NKB5/8/8/8/8/8 b - - 5 76", "white") == {"result": "1-0"}


def test_dead_position_answers_are_proofs_or_errors() -> None:
    # The start position: White can mate; if the search cannot show it within the
    # limit, the answer is an error naming the FEN, never "dead".
    try:
        answer = dead_position("fide-2023", START)
    except ArbiterError as error:
        assert "undetermined" in str(error) and START in str(error)
    else:
        assert answer == {"dead": False}
    assert dead_position("uscf-7", "8/8/4k3/8/8/3K4/8/8 w - - 0 60") == {"dead": True}  # 14D1


def test_chess960_castling_in_a_game() -> None:
    fen = "bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1"
    # UCI under Chess960 is king-takes-rook: f1h1 is O-O (king g1, rook f1).
    assert game_end("chess960", fen, ["f1h1"])["result"] == "*"
    # f1g1 is a plain king step: it forfeits White's castling rights.
    game = Game("chess960", fen)
    game.move("f1g1")
    assert game.board.fen(castling="shredder").split()[2] == "he"
