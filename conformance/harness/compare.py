"""Compare an adapter's answer with a fixture's expectation, per kind (pure).

:func:`compare` returns ``None`` when the answer meets the expectation and a one-line
description of the first difference otherwise. Only the fields the protocol documents
for a kind are compared, and only those the expectation states; an adapter may add
fields of its own.

* ``legal_moves``: the moves as a set (a move listed twice is a difference).
* FEN results (``apply_moves``, ``start_position``): compared as positions -- any
  castling dialect, the en passant square only where a legal en passant capture
  exists -- plus both clocks, read by :mod:`.positions` (the harness's own reader: the
  reference implementation is never part of a verdict).
* ``game_end``: ``result``, ``reason``, and ``claimable`` and ``declarable`` as sets.
* ``parse_san``, ``from_notation``: ``move``, and ``error`` where expected -- unless the
  adapter declared in ``start`` that it does not classify parse errors of that kind
  (``unclassified_errors``): then an expected error is met by ``move: null`` alone.
* ``game``: ``result``, ``reason``, ``clock_ms`` and ``error`` where stated; an answer
  rejecting an event where a result is expected (or the reverse) says so with its detail.
* everything else: equality of the documented fields.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from typing import Any

from .positions import BadFen, differences, read

#: The result fields protocol v1 documents for each kind (docs/protocol.md).
FIELDS: dict[str, tuple[str, ...]] = {
    "legal_moves": ("moves",),
    "perft": ("nodes",),
    "apply_moves": ("fen", "error"),
    "validate_fen": ("valid",),
    "status": ("check", "checkmate", "stalemate"),
    "san": ("san",),
    "parse_san": ("move", "error"),
    "game_end": ("result", "reason", "claimable", "declarable"),
    "timeout": ("result",),
    "dead_position": ("dead",),
    "start_position": ("fen",),
    "to_notation": ("text",),
    "from_notation": ("move", "error"),
    "game": ("result", "reason", "clock_ms", "error"),
}
#: Fields compared as unordered sets.
SET_FIELDS: frozenset[tuple[str, str]] = frozenset(
    {("legal_moves", "moves"), ("game_end", "claimable"), ("game_end", "declarable")}
)
#: Fields compared as positions (FEN strings).
FEN_FIELDS: frozenset[tuple[str, str]] = frozenset(
    {("apply_moves", "fen"), ("start_position", "fen")}
)
#: Kinds whose ``error`` category an adapter may declare it does not classify
#: (``unclassified_errors`` in the answer to ``start``).
CLASSIFIED_ERRORS: frozenset[str] = frozenset({"parse_san", "from_notation"})
#: How many moves a set difference lists before "...".
_SHOW = 6

__all__ = ["CLASSIFIED_ERRORS", "FIELDS", "BadFen", "compare"]


def compare(
    kind: str,
    ruleset: str,
    expect: dict[str, Any],
    actual: Any,
    unclassified: Collection[str] = (),
) -> str | None:
    """``None`` if ``actual`` meets ``expect`` for ``kind`` under ``ruleset``, else why not.

    ``unclassified`` lists the kinds whose parse errors the adapter declared it does
    not classify: for those an expected ``move: null`` is compared without ``error``.
    ``ruleset`` does not change how answers are compared today (positions are read the
    same way under every ruleset); it is part of the signature for kinds that may need it.
    """
    if not isinstance(actual, dict):
        return f"result is not a JSON object: {_short(actual)}"
    fields = FIELDS.get(kind, tuple(expect))
    if kind == "game" and ("error" in expect) != ("error" in actual):
        return _game_mismatch(expect, actual)
    if kind in unclassified and kind in CLASSIFIED_ERRORS and expect.get("move", "") is None:
        fields = tuple(name for name in fields if name != "error")
    for name in fields:
        if name not in expect:
            continue
        if name not in actual:
            return f"result lacks the field {name!r}"
        want, got = expect[name], actual[name]
        if (kind, name) in SET_FIELDS:
            problem = _compare_sets(name, want, got)
        elif (kind, name) in FEN_FIELDS and isinstance(want, str) and isinstance(got, str):
            problem = _compare_fens(want, got)
        else:
            problem = None if _equal(want, got) else f"{name}: expected {_short(want)}, got {_short(got)}"
        if problem:
            return problem
    return None


def _game_mismatch(expect: dict[str, Any], actual: dict[str, Any]) -> str:
    """A ``game`` answer that rejected an event where a result was due, or the reverse."""
    if "error" in actual:
        return f"rejected an event where {_short(expect.get('result'))} was expected: {_short(actual.get('detail'))}"
    got = {name: actual[name] for name in ("result", "reason") if name in actual}
    return f"expected an event to be rejected, got {_short(got)}"


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
    if not all(isinstance(item, str) for item in got):  # sorted() below needs one type
        return f"{name}: items must be strings, got {_short(got)}"
    if not all(isinstance(item, str) for item in want):
        return f"{name}: the fixture's items must be strings, got {_short(want)}"
    got_set, want_set = set(got), set(want)
    if len(got_set) != len(got):  # one counting pass: 120,000 copies of a move stay linear
        twice = sorted(move for move, times in Counter(got).items() if times > 1)
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


def _compare_fens(want: str, got: str) -> str | None:
    if want == got:
        return None
    try:
        want_position = read(want)
    except BadFen as error:
        return f"expected FEN {want!r} is unreadable ({error}); fix the fixture"
    try:
        got_position = read(got)
    except BadFen as error:
        return f"fen: got an invalid FEN {got!r} ({error})"
    if want_position == got_position:
        return None
    if want_position.identity == got_position.identity:
        return f"fen: expected {want!r}, got {got!r} (same position, different clocks)"
    parts = ", ".join(differences(want_position.identity, got_position.identity))
    return f"fen: expected {want!r}, got {got!r} (a different position: {parts})"


def _list(items: list[Any]) -> str:
    shown = ", ".join(str(i) for i in items[:_SHOW])
    return shown + (f", ... ({len(items)} in all)" if len(items) > _SHOW else "")


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
