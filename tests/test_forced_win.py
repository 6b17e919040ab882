"""US Chess 14E "forced win": a bounded forced-mate search.

Positive cases were found with this search and confirmed with Stockfish 15.1 (Debian
package), ``position fen ...`` then ``go mate N``: the reported ``score mate N`` is the
shortest mate in moves, i.e. ``2N - 1`` plies for the side to move. Negative cases are
either the Laws' material facts (K+N cannot mate a bare king at all) or positions where
Stockfish at depth 22 reports a drawish score and no mate.
"""

from __future__ import annotations

import pytest

from reference_impl import BLACK, WHITE, Board, load_ruleset
from reference_impl.unwinnability.forced_win import forced_mate_distance, has_forced_win

RULES = load_ruleset("fide-2023")


def board(fen: str) -> Board:
    return Board.from_fen(fen, RULES)


def test_uscf_7_14E2_knight_alone_has_no_forced_win() -> None:
    # K+N v K: no checkmate exists at all (static proof), whatever the bound.
    assert has_forced_win(board("8/8/8/4k3/8/8/8/3NK3 w - - 0 1"), WHITE, 99) is False


@pytest.mark.parametrize(
    ("fen", "plies"),
    [
        # Stockfish: score mate 2, bestmove b4c6.
        ("1k6/8/BK6/8/1N6/8/8/8 w - - 0 1", 3),
        # Stockfish: score mate 3, bestmove c4a6.
        ("1k6/4N3/1K6/8/2B5/8/8/8 w - - 0 1", 5),
    ],
)
def test_uscf_7_14E2_bishop_and_knight_forced_mate(fen: str, plies: int) -> None:
    b = board(fen)
    assert has_forced_win(b, WHITE, plies) is True
    assert has_forced_win(b, WHITE, plies - 2) is False
    assert forced_mate_distance(b, WHITE, 9) == plies


@pytest.mark.parametrize(
    ("fen", "plies"),
    [
        # Stockfish: score mate 2, pv d3c1 a3a2 c1b3.
        ("8/8/8/8/8/p2N4/2K5/k7 w - - 0 1", 3),
        # Stockfish: score mate 2, pv c6b4 a3a2 b4c2.
        ("8/8/2N5/8/8/p7/8/k1K5 w - - 0 1", 3),
        # Stockfish: score mate 3, pv b3c2 a4a3 c2c1.
        ("8/8/8/8/pN6/1K6/8/k7 w - - 0 1", 5),
        # Stockfish: score mate 3, pv d3b4 a4a3 c2c1 a3a2 b4c2.
        ("8/8/8/8/p7/3N4/2K5/k7 w - - 0 1", 5),
    ],
)
def test_uscf_7_14E2_knight_against_king_and_pawn_forced_mate(fen: str, plies: int) -> None:
    # The defender's own pawn blocks its king: the knight side has a forced win, so
    # 14E2 does not save the defender whose flag falls.
    b = board(fen)
    assert has_forced_win(b, WHITE, plies) is True
    assert forced_mate_distance(b, WHITE, 7) == plies


def test_uscf_7_14E3_two_knights_no_forced_win_in_general() -> None:
    # Stockfish at depth 22: score cp -43, no mate.
    assert has_forced_win(board("8/8/8/4k3/8/8/8/2NNK3 w - - 0 1"), WHITE, 7) is False


def test_uscf_7_14E3_two_knights_helpmate_is_not_a_forced_win() -> None:
    # Black to move: Kh8?? allows Nf7#, but Kf8 escapes (Stockfish: score cp 0).
    assert has_forced_win(board("6k1/8/5NKN/8/8/8/8/8 b - - 0 1"), WHITE, 6) is False


def test_forced_win_for_the_side_not_to_move() -> None:
    # Black to move, then White mates: 14E asks about the opponent of the flagged player.
    b = board("8/8/8/8/8/p2N4/2K5/k7 w - - 0 1")
    b.push(b.parse_uci("d3c1"))
    assert has_forced_win(b, WHITE, 2) is True
    # Black's only legal move is a3a2, after which Nb3 mates: Black never mates.
    assert [b.uci(m) for m in b.legal_moves()] == ["a3a2"]
    assert has_forced_win(b, BLACK, 10) is False


def test_budget_exhausted_is_none() -> None:
    b = board("8/8/8/4k3/8/8/8/2NNK3 w - - 0 1")
    assert has_forced_win(b, WHITE, 15, node_limit=50) is None


def test_negative_bound_rejected() -> None:
    with pytest.raises(ValueError):
        has_forced_win(board("8/8/8/4k3/8/8/8/2NNK3 w - - 0 1"), WHITE, -1)


def test_reexported_where_the_adjudicator_looks_for_it() -> None:
    from reference_impl import unwinnability

    assert unwinnability.has_forced_win is has_forced_win
