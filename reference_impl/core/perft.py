"""Perft: the number of leaf nodes of the legal move tree at exactly a given depth.

No draw rule applies (repetition, move rules, dead positions): a checkmate or stalemate
above the last ply contributes nothing. The last ply is counted without generating
moves (population counts of target sets), as fast movers do.
"""

from __future__ import annotations

from .board import Board
from .movegen import count_legal


def _perft(board: Board, depth: int) -> int:
    if depth == 1:
        return count_legal(board)
    total = 0
    push, pop = board.push_code, board.pop_code
    for m in board.legal_codes():
        push(m)
        total += _perft(board, depth - 1)
        pop()
    return total


def perft(board: Board, depth: int) -> int:
    """Leaf nodes at ``depth`` plies (``perft(board, 0) == 1``)."""
    if depth < 0:
        raise ValueError("perft depth must be >= 0")
    if depth == 0:
        return 1
    return _perft(board.copy(stack=False), depth)


def divide(board: Board, depth: int) -> dict[str, int]:
    """Perft per root move, keyed by the move's UCI string (ruleset castling form)."""
    if depth < 1:
        raise ValueError("divide depth must be >= 1")
    work = board.copy(stack=False)
    result: dict[str, int] = {}
    for m in work.legal_codes():
        name = work.uci(work.move_of(m))
        work.push_code(m)
        result[name] = _perft(work, depth - 1) if depth > 1 else 1
        work.pop_code()
    return result
