"""Reference interpreter of the Laws of Chess: it executes the tables in ``spec/``.

>>> from reference_impl import load_ruleset, Board
>>> board = Board(load_ruleset("fide-2023"))
>>> len(board.legal_moves())
20
"""

from .core import BLACK, WHITE, Board, Move, Piece, divide, perft
from .errors import ArbiterError, FenError, IllegalMoveError, RulesetError, UsageError


from .rules import Ruleset, load_ruleset


__all__ = [
    "ArbiterError",
    "BLACK",
    "Board",
    "FenError",
    "IllegalMoveError",
    "Move",
    "Piece",
    "RulesetError",
    "UsageError",
    "WHITE",
    "divide",
    "load_ruleset",
    "Ruleset",
    "perft",
]
