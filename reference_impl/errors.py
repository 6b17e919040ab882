"""Errors a user can cause, each with the exit status the command line reports.

Every error a user can provoke (a malformed FEN, an unknown ruleset, a broken YAML
file, an impossible game event) is an :class:`ArbiterError`. The command line prints
``str(error)`` as one line and exits with ``error.exit_code``; it never prints a
traceback for these.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILURE = 1  #: a check failed, or bad input (FEN, YAML, PGN, ...)
EXIT_USAGE = 2  #: the command line itself is wrong
EXIT_ADAPTER = 3  #: the implementation under test could not start

#: Characters of user text an error message repeats before eliding the rest.
QUOTE_LIMIT = 60


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for an error line: escapes visible, at most about ``limit`` characters.

    Escaped as ``repr`` does (control characters such as NUL and ESC, newlines, lone
    surrogates), so the line stays one line and cannot drive the terminal; the bound
    applies to the escaped form, and what is left out is counted.
    """
    value = text if isinstance(text, str) else str(text)
    if len(value) <= limit:
        shown = repr(value)
        if len(shown) <= limit + 2:
            return shown
    pieces, used = [], 0
    for char in value:
        piece = repr(char)[1:-1]
        if used + len(piece) > limit:
            break
        pieces.append(piece)
        used += len(piece)
    return f"'{''.join(pieces)}'... ({len(value):,} characters)"


class ArbiterError(Exception):
    """Base class of all user-facing errors."""

    exit_code: int = EXIT_FAILURE


class UsageError(ArbiterError):
    """The command line is wrong (unknown option value, absurd number)."""

    exit_code = EXIT_USAGE


class RulesetError(ArbiterError):
    """A ruleset could not be found, parsed, validated or resolved."""


class FenError(ArbiterError, ValueError):
    """A FEN string is malformed or describes an impossible position."""

    def __init__(self, fen: str, reason: str) -> None:
        super().__init__(f"invalid FEN {quote(fen, 100)}: {reason}")
        self.fen = fen
        self.reason = reason


class IllegalMoveError(ArbiterError, ValueError):
    """A move is malformed or not legal in the position."""


class GameEventError(ArbiterError, ValueError):
    """An event that is impossible in the game's current state."""
