"""Errors of the notation layer: a move text that cannot be read, a broken PGN construct.

Both derive from :mod:`reference_impl.errors`, so the command line prints them as one line
with exit status 1.
"""

from __future__ import annotations

from reference_impl.errors import ArbiterError, IllegalMoveError, quote

CATEGORIES = ("illegal", "ambiguous", "invalid")
#: Characters of a move text repeated in a message before eliding the rest.
CLIP = 40


def clip(text: str, limit: int = CLIP) -> str:
    """A move text for a message: bounded, control characters escaped, unquoted if plain."""
    if len(text) <= limit and text.isprintable():
        return text
    return quote(text, limit)


class NotationError(IllegalMoveError):
    """A move text that names no legal move.

    ``category`` is ``"invalid"`` (not a move in this notation), ``"illegal"`` (well-formed
    but no legal move fits) or ``"ambiguous"`` (several legal moves fit).
    """

    def __init__(self, text: str, category: str, reason: str) -> None:
        if category not in CATEGORIES:
            raise ValueError(f"unknown category {category!r}")
        super().__init__(f"{category} move {quote(text, CLIP)}: {reason}")
        self.text = text
        self.category = category
        self.reason = reason


class PgnError(ArbiterError, ValueError):
    """A PGN construct that cannot be read; names the game (1-based), move and reason."""

    def __init__(self, game: int, reason: str, *, move: str | None = None, line: int | None = None) -> None:
        where = f"game {game}"
        if line is not None:
            where += f", line {line}"
        if move is not None:
            where += f", move {move}"
        super().__init__(f"PGN {where}: {reason}")
        self.game = game
        self.move = move
        self.line = line
        self.reason = reason
