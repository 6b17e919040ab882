"""The move layer: squares, compiled attack tables, Board, FEN, perft."""

from .board import Board, Move, Piece
from .perft import divide, perft
from .squares import BLACK, SQUARE_NAMES, WHITE, parse_square, square_name
from .tables import MoveTables, move_tables

__all__ = [
    "BLACK",
    "Board",
    "Move",
    "MoveTables",
    "Piece",
    "SQUARE_NAMES",
    "WHITE",
    "divide",
    "move_tables",
    "parse_square",
    "perft",
    "square_name",
]
