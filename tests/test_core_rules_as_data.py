"""No rule the tables hold is hard-coded: change the YAML and the perft numbers change.

Each modified ruleset's expected counts come from an independent mover:
- python-chess, filtering out exactly the moves the modification forbids (no double
  step, no en passant, promotion to queen only: each removes moves and changes nothing
  else about legality);
- Fairy-Stockfish (pyffish) with a variant whose knight is replaced by a (1,3) leaper
  (Betza ``C``, the camel), for the knight that leaps (1,3).
"""

from __future__ import annotations

from typing import Callable

import chess
import pytest

from reference_impl import Board, perft
from reference_impl.rules import derive_ruleset

START = chess.STARTING_FEN
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
EN_PASSANT = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
PROMOTIONS = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"


def _filtered_perft(board: chess.Board, depth: int, allowed: Callable[[chess.Board, chess.Move], bool]) -> int:
    moves = [m for m in board.legal_moves if allowed(board, m)]
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += _filtered_perft(board, depth - 1, allowed)
        board.pop()
    return total


def _no_double_step(board: chess.Board, move: chess.Move) -> bool:
    return not (board.piece_type_at(move.from_square) == chess.PAWN and abs(move.to_square - move.from_square) == 16)


def _no_en_passant(board: chess.Board, move: chess.Move) -> bool:
    return not board.is_en_passant(move)


def _queen_only(board: chess.Board, move: chess.Move) -> bool:
    return move.promotion in (None, chess.QUEEN)


CASES = [
    ("no-double-step", {"pawn": {"double_step": None}}, _no_double_step, [(START, 4), (KIWIPETE, 3), (EN_PASSANT, 4)]),
    ("no-en-passant", {"pawn": {"en_passant": None}}, _no_en_passant, [(KIWIPETE, 3), (EN_PASSANT, 5)]),
    ("queen-only", {"pawn": {"promotion": {"to": ["queen"]}}}, _queen_only, [(PROMOTIONS, 4), ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3)]),
]


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("name, overrides, allowed, positions", CASES, ids=[c[0] for c in CASES])
def test_fide_2023_3_7_modified_pawn_table_changes_perft(name, overrides, allowed, positions) -> None:
    rules = derive_ruleset("fide-2023", overrides, id=name)
    for fen, depth in positions:
        expected = _filtered_perft(chess.Board(fen), depth, allowed)
        unmodified = _filtered_perft(chess.Board(fen), depth, lambda b, m: True)
        assert expected != unmodified, f"{name}: {fen} does not exercise the modification"
        assert perft(Board.from_fen(fen, rules), depth) == expected, (name, fen, depth)


CAMEL_VARIANT = """
[camelknight:chess]
knight = -
customPiece1 = n:C
promotionPieceTypes = nbrq
"""


def _fairy_perft(sf, fen: str, moves: list[str], depth: int) -> int:
    legal = sf.legal_moves("camelknight", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(_fairy_perft(sf, fen, moves + [m], depth - 1) for m in legal)


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("fen, depth", [(START, 3), ("4k3/8/8/3n4/8/2N5/8/4K3 w - - 0 1", 3)])
def test_fide_2023_3_6_knight_as_a_1_3_leaper(fen: str, depth: int) -> None:
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config(CAMEL_VARIANT)
    rules = derive_ruleset("fide-2023", {"pieces": {"knight": {"leaps": [[1, 3]]}}}, id="camel-knight")
    expected = _fairy_perft(sf, fen, [], depth)
    assert perft(Board.from_fen(fen, rules), depth) == expected
    assert perft(Board.from_fen(fen, rules), depth) != perft(Board.from_fen(fen, derive_ruleset("fide-2023", {}, id="plain")), depth)


def test_fide_2023_3_8_2_no_castling_table_means_no_castling() -> None:
    rules = derive_ruleset("fide-2023", {"castling": None}, id="no-castling")
    board = Board.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", rules)
    plain = Board.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", derive_ruleset("fide-2023", {}, id="plain"))
    assert perft(board, 1) == perft(plain, 1) - 2
