"""Compare an adapter's answer with a fixture's expectation, per kind (pure).

:func:`compare` returns ``None`` when the answer meets the expectation and a one-line
description of the first difference otherwise. Only the fields the protocol documents
for a kind are compared, and only those the expectation states; an adapter may add
fields of its own.

* ``legal_moves``: the moves as a set (a move listed twice is a difference).
* FEN results (``apply_moves``, ``start_position``): compared as positions -- any
  castling dialect, the en passant square only where a legal en passant capture
  exists -- plus both clocks. Normalisation uses the reference Board.
* ``game_end``: ``result``, ``reason``, and ``claimable`` as a set.
* everything else: equality of the documented fields.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any

#: The result fields protocol v1 documents for each kind (docs/protocol.md).
FIELDS: dict[str, tuple[str, ...]] = {
    "legal_moves": ("moves",),
    "perft": ("nodes",),
    "apply_moves": ("fen", "error"),
    "validate_fen": ("valid",),
    "status": ("check", "checkmate", "stalemate"),
    "san": ("san",),
    "parse_san": ("move", "error"),
    "game_end": ("result", "reason", "claimable"),
    "timeout": ("result",),
    "dead_position": ("dead",),
    "start_position": ("fen",),
    "to_notation": ("text",),
    "from_notation": ("move", "error"),
}
#: Fields compared as unordered sets.
SET_FIELDS: frozenset[tuple[str, str]] = frozenset(
    {("legal_moves", "moves"), ("game_end", "claimable")}
)
#: Fields compared as positions (FEN strings).
FEN_FIELDS: frozenset[tuple[str, str]] = frozenset(
    {("apply_moves", "fen"), ("start_position", "fen")}
)
#: How many moves a set difference lists before "...".
_SHOW = 6

#: ``(ruleset, fen) -> (position identity, halfmove clock, fullmove number)``
PositionKey = Callable[[str, str], Hashable]


class BadFen(ValueError):
    """A FEN in an answer (or, worse, an expectation) could not be read."""


def compare(
    kind: str,
    ruleset: str,
    expect: dict[str, Any],
    actual: Any,
    position_key: PositionKey | None = None,
) -> str | None:
    """``None`` if ``actual`` meets ``expect`` for ``kind`` under ``ruleset``, else why not."""
    if not isinstance(actual, dict):
        return f"result is not a JSON object: {_short(actual)}"
    fields = FIELDS.get(kind, tuple(expect))
    for name in fields:
        if name not in expect:
            continue
        if name not in actual:
            return f"result lacks the field {name!r}"
        want, got = expect[name], actual[name]
        if (kind, name) in SET_FIELDS:
            problem = _compare_sets(name, want, got)
        elif (kind, name) in FEN_FIELDS and isinstance(want, str) and isinstance(got, str):
            problem = _compare_fens(ruleset, want, got, position_key or reference_position_key)
        else:
            problem = None if _equal(want, got) else f"{name}: expected {_short(want)}, got {_short(got)}"
        if problem:
            return problem
    return None


def _equal(want: Any, got: Any) -> bool:
    """JSON equality that does not confuse ``True`` with ``1``."""
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    return bool(want == got)


def _compare_sets(name: str, want: Any, got: Any) -> str | None:
    if not isinstance(got, list):
        return f"{name}: expected a list, got {_short(got)}"
    if want is None or not isinstance(want, list):
        return None if _equal(want, got) else f"{name}: expected {_short(want)}, got {_short(got)}"
    try:
        got_set, want_set = set(got), set(want)
    except TypeError:
        return f"{name}: items must be strings, got {_short(got)}"
    if len(got_set) != len(got):
        twice = sorted({m for m in got if got.count(m) > 1})
        return f"{name}: listed more than once: {_list(twice)}"
    missing, extra = sorted(want_set - got_set), sorted(got_set - want_set)
    if not missing and not extra:
        return None
    parts = []
    if missing:
        parts.append(f"missing {_list(missing)}")
    if extra:
        parts.append(f"unexpected {_list(extra)}")
    return f"{name}: " + "; ".join(parts)


def _compare_fens(ruleset: str, want: str, got: str, key: PositionKey) -> str | None:
    if want == got:
        return None
    try:
        want_key = key(ruleset, want)
    except BadFen as error:
        return f"expected FEN {want!r} is unreadable ({error}); fix the fixture"
    try:
        got_key = key(ruleset, got)
    except BadFen as error:
        return f"fen: got an invalid FEN {got!r} ({error})"
    if want_key == got_key:
        return None
    if isinstance(want_key, tuple) and len(want_key) == 3 and want_key[0] == got_key[0]:
        return f"fen: expected {want!r}, got {got!r} (same position, different clocks)"
    return f"fen: expected {want!r}, got {got!r} (a different position)"


def _list(items: list[Any]) -> str:
    shown = ", ".join(str(i) for i in items[:_SHOW])
    return shown + (f", ... ({len(items)} in all)" if len(items) > _SHOW else "")


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@lru_cache(maxsize=4096)
def reference_position_key(ruleset: str, fen: str) -> Hashable:
    """FIDE 9.2.3 identity of ``fen`` plus both clocks, by the reference Board.

    Falls back to python-chess (as Chess960 to accept every castling dialect) while
    the reference move layer is not importable.
    """
    try:
        from reference_impl import Board, load_ruleset
    except ImportError:
        return _python_chess_key(fen)
    from reference_impl.errors import ArbiterError

    try:
        board = Board.from_fen(fen, _rules(ruleset))
    except ArbiterError as error:
        raise BadFen(getattr(error, "reason", str(error))) from None
    return (board.position_key(), board.halfmove_clock, board.fullmove_number)


@lru_cache(maxsize=64)
def _rules(ruleset: str) -> Any:
    from reference_impl import load_ruleset

    return load_ruleset(ruleset)


def _python_chess_key(fen: str) -> Hashable:
    import chess

    try:
        board = chess.Board(fen, chess960=True)
    except ValueError as error:
        raise BadFen(str(error)) from None
    return (board._transposition_key(), board.halfmove_clock, board.fullmove_number)
