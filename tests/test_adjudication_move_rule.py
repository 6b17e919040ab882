"""The move rule: FIDE 9.3 (claim at 50 moves), 9.6.2 (automatic at 75, checkmate first);
US Chess 14F (claim; 14F3 even against a mate in one) and 14K2 (director's discretion).

Positions are python-chess's test_fifty_moves fixtures (Timman-Lutz 1995) and hand-built
ones; each expectation is derived from the article and, where python-chess implements
the same rule, its answer is noted.
"""

from __future__ import annotations

import chess

from reference_impl.adjudication.api import game_end
from reference_impl.adjudication.game import Game

NOT_YET = "6R1/7k/8/8/1r3B2/5K2/8/8 w - - 99 119"   # python-chess: can claim, not fifty
FIFTY = "8/7k/8/6R1/1r3B2/5K2/8/8 b - - 100 119"      # python-chess: fifty
MATED = "k7/8/NKB5/8/8/8/8/8 b - - 105 176"            # python-chess: checkmate, no claim
STALEMATE = "k7/3N4/1K6/1B6/8/8/8/8 b - - 99 60"        # python-chess: stalemate, no claim
QUEEN = "7k/8/6K1/8/8/8/8/1Q6 w - - {clock} 150"


def claim(game: Game, name: str = "fifty_moves") -> tuple[bool, tuple[str, ...]] | None:
    found = {c.claim: (c.now, c.moves) for c in game.status().claims}
    return found.get(name)


def test_fide_2023_9_3_1_claim_with_intended_move_at_99_plies() -> None:
    game = Game("fide-2023", NOT_YET)
    now, moves = claim(game)  # type: ignore[misc]
    assert now is False
    # Every legal move that is neither a pawn move nor a capture completes 50 moves.
    board = chess.Board(NOT_YET)
    assert set(moves) == {m.uci() for m in board.legal_moves if not board.is_zeroing(m)}
    assert game.claim_draw("white", "g8g7").correct
    assert game.status().reason == "fifty_moves"


def test_fide_2023_9_3_2_claim_now_at_100_plies() -> None:
    game = Game("fide-2023", FIFTY)
    assert claim(game)[0] is True  # type: ignore[index]
    assert game_end("fide-2023", FIFTY, []) == {"result": "*", "reason": None, "claimable": ["fifty_moves"]}


def test_fide_2023_5_1_1_a_mate_ends_the_game_before_any_claim() -> None:
    assert game_end("fide-2023", MATED, []) == {"result": "1-0", "reason": "checkmate", "claimable": []}
    assert game_end("fide-2023", STALEMATE, []) == {"result": "1/2-1/2", "reason": "stalemate", "claimable": []}


def test_fide_2023_9_3_1_intended_mating_move_still_makes_the_claim_correct() -> None:
    # python-chess#1188: python-chess tests the claim-ahead move by pushing it and
    # asking is_fifty_moves(), which needs a legal move afterwards, so it rejects Qb8#
    # as the intended move. 9.3.1 only asks that the written move completes 50 moves
    # without pawn move or capture; the claim is decided before the move is played
    # (9.5.3: a correct claim draws at once). The Laws, not python-chess, are right here.
    fen = QUEEN.format(clock=99)
    board = chess.Board(fen)
    board.push_uci("b1b8")
    assert board.is_checkmate() and not board.is_fifty_moves()  # python-chess's view
    game = Game("fide-2023", fen)
    assert "b1b8" in claim(game)[1]  # type: ignore[index]
    verdict = game.claim_draw("white", "b1b8")
    assert verdict.correct and game.status().result == "1/2-1/2"


def test_fide_2023_9_6_2_seventy_five_moves_is_automatic() -> None:
    fen = QUEEN.format(clock=149)
    assert game_end("fide-2023", fen, ["b1b7"]) == {
        "result": "1/2-1/2", "reason": "seventy_five_moves", "claimable": []}
    board = chess.Board(fen)
    board.push_uci("b1b7")
    assert board.is_seventyfive_moves()  # python-chess agrees


def test_fide_2023_9_6_2_checkmate_on_the_75th_move_takes_precedence() -> None:
    fen = QUEEN.format(clock=149)
    assert game_end("fide-2023", fen, ["b1b8"]) == {"result": "1-0", "reason": "checkmate", "claimable": []}


def test_fide_2023_9_6_2_stalemate_on_the_75th_move_is_a_stalemate() -> None:
    # Qf7 stalemates the king on h8 (g8, g7, h7 covered): the draw is by stalemate,
    # while a quiet queen move on the same ply is a 75-move draw.
    assert game_end("fide-2023", QUEEN.format(clock=149), ["b1f5"])["reason"] == "seventy_five_moves"
    fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 149 150"
    assert game_end("fide-2023", fen, ["f1f7"]) == {"result": "1/2-1/2", "reason": "stalemate", "claimable": []}


def test_fide_2014_9_6_b_and_2018_also_automatic() -> None:
    fen = QUEEN.format(clock=150)
    for rules in ("fide-2014", "fide-2018", "fide-2023-rapid", "fide-2023-blitz"):
        assert game_end(rules, fen, [])["reason"] == "seventy_five_moves", rules


def test_uscf_7_14k2_seventy_five_moves_is_only_discretionary() -> None:
    game = Game("uscf-7", QUEEN.format(clock=150))
    status = game.status()
    assert not status.finished
    assert ("seventy_five_moves", "uscf-7:14K2") in status.discretionary
    assert game_end("uscf-7", QUEEN.format(clock=150), []) == {
        "result": "*", "reason": None, "claimable": ["fifty_moves"], "declarable": ["seventy_five_moves"]}
    assert game_end("uscf-7", QUEEN.format(clock=149), [])["declarable"] == []
    # FIDE has no discretionary draw, so its answers carry no such field
    assert "declarable" not in game_end("fide-2023", QUEEN.format(clock=149), [])
    # ... but a checkmate still ends it, whatever the clock.
    assert game_end("uscf-7", QUEEN.format(clock=149), ["b1b8"])["reason"] == "checkmate"


def test_uscf_7_14f3_correct_claim_draws_even_against_mate_in_one() -> None:
    # Black to move claims with 100 plies done; after Black's only move Kg8 White
    # would have Qb8#. The claim is decided on the position: a draw.
    game = Game("uscf-7", "7k/8/6K1/8/8/8/8/1Q6 b - - 100 150")
    verdict = game.claim_draw("black")
    assert verdict.correct and verdict.claim == "fifty_moves" and verdict.cite == "uscf-7:14F"
    assert game.status().result == "1/2-1/2"


def test_uscf_7_14f2_incorrect_claim_costs_two_minutes() -> None:
    game = Game("uscf-7", QUEEN.format(clock=40), time_control="3600d5")
    verdict = game.claim_draw("white")
    assert not verdict.correct and verdict.penalty_ms == 120_000 and verdict.cite == "uscf-7:14C6"
    assert game.clock is not None and game.clock.remaining_ms[1] == 3_720_000


def test_a_capture_or_pawn_move_resets_the_count() -> None:
    game = Game("fide-2023", "7k/8/6K1/8/8/8/6p1/6Q1 w - - 99 150")
    now, moves = claim(game)  # type: ignore[misc]
    assert not now and "g1g2" not in moves and "g1f1" in moves  # a capture cannot complete 50
    game.move("g1g2")
    assert game.board.halfmove_clock == 0 and claim(game) is None
