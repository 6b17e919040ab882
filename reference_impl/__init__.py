"""Reference interpreter of the Laws of Chess: it executes the tables in ``spec/``.

>>> from reference_impl import load_ruleset, Board
>>> board = Board(load_ruleset("fide-2023"))
>>> len(board.legal_moves())
20
"""

from .core import BLACK, WHITE, Board, Move, Piece, divide, perft
from .errors import ArbiterError, FenError, IllegalMoveError, RulesetError, UsageError


def load_ruleset(name_or_path: str):  # noqa: ANN201 - re-exported from .rules
    """Load a ruleset by id, alias or path (see :mod:`reference_impl.rules`)."""
    from .rules import load_ruleset as _load

    return _load(name_or_path)


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
    "perft",
]
