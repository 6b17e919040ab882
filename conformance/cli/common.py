"""Small helpers shared by the sub-commands (the shell side only)."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from reference_impl.core import Board


def console(stderr: bool = False) -> Console:
    """A console that never wraps long lines (FENs, move lists)."""
    return Console(stderr=stderr, soft_wrap=True, highlight=False)


def load_rules(name: str) -> Any:
    """Load a ruleset by id, alias or path; errors are ArbiterErrors with one line."""
    from reference_impl.rules import load_ruleset

    return load_ruleset(name)


def parse_position(fen: str, rules: Any) -> Board:
    """``startpos`` or a FEN in any castling dialect."""
    if fen.strip() == "startpos":
        return Board(rules)
    return Board.from_fen(fen, rules)
