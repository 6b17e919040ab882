"""python-chess as the independent judge of a mating line: the one replay the tests use."""

from __future__ import annotations

from collections.abc import Sequence

import chess


def mates(fen: str, line: Sequence[str], winner: chess.Color | str) -> bool:
    """Is every move of ``line`` (UCI) legal for python-chess from ``fen``, one after the
    other, and is the last position ``winner``'s checkmate? ``winner``: a python-chess
    colour or its name (``"white"``, ``"black"``)."""
    if isinstance(winner, str):
        winner = chess.COLOR_NAMES.index(winner) == 1
    board = chess.Board(fen)
    for uci in line:
        move = chess.Move.from_uci(uci)
        if move not in board.legal_moves:
            return False
        board.push(move)
    return board.is_checkmate() and board.turn != winner
