"""The ``game`` kind's input, read and checked before any adapter plays it (pure).

An adapter answering ``game`` reads its request with :func:`read_game`: a malformed
event (unknown key, two event keys, a colour that is not one, a UCI or square that does
not parse, a negative or non-finite time) raises :class:`GameInputError` naming the
event's index, which the adapter turns into ``errored`` for that request alone. Whether
an event is *allowed* (a claim by the player not to move, a move after the end) is the
rules' business, not this module's: those are answered ``{error: "rejected"}``.

Two additions to the pinned v1 input are optional: the input key ``supervised`` (absent:
``true``) and the event ``{"flags": "both"}``; an adapter that does not implement them
declines (``skipped``) a request that uses them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from reference_impl.errors import quote

#: Each event's key, and the other keys it may carry (required ones first).
EVENTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "move": ((), ("seconds",)),
    "illegal": (("by",), ()),
    "claim": (("by",), ("intended_move",)),
    "offer": ((), ()),
    "accept": ((), ()),
    "resign": ((), ()),
    "flag": ((), ()),
    "touch": (("by",), ()),
    "flags": ((), ()),  # addition: both flags down, which fell first unknown
}
#: Draw claims a ``claim`` event may name.
CLAIMS = ("threefold_repetition", "fifty_moves")
#: Why a game ended, as the protocol names it.
REASONS = ("checkmate", "stalemate", "dead_position", "fivefold_repetition", "seventy_five_moves",
           "threefold_repetition", "fifty_moves", "agreement", "resignation", "flag_fall",
           "illegal_moves")
COLOURS = ("white", "black")
UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
SQUARE = re.compile(r"^[a-h][1-8]$")
#: Input keys of the kind (``supervised`` is an optional addition to the pinned three).
INPUT_KEYS = ("fen", "time_control", "events", "supervised")
#: The one value of a ``flags`` event: both flags are down.
BOTH_FLAGS = "both"


class GameInputError(ValueError):
    """The ``game`` input is malformed; the message names the field or event index."""


@dataclass(frozen=True)
class Event:
    """One checked event: its key, its value, and the optional fields it carried."""

    name: str
    value: Any
    by: str | None = None
    seconds: float | None = None
    intended_move: str | None = None


@dataclass(frozen=True)
class GameInput:
    """The checked input; ``supervised`` is true unless the input says otherwise."""

    fen: str | None
    time_control: str | None
    events: tuple[Event, ...]
    supervised: bool = True


def read_game(data: dict[str, Any]) -> GameInput:
    """The checked input, or :class:`GameInputError` for the first malformed part."""
    stray = sorted(set(data) - set(INPUT_KEYS))
    if stray:
        raise GameInputError(f"game input: unknown field {quote(stray[0])} ({', '.join(INPUT_KEYS)})")
    fen, control, events = data.get("fen"), data.get("time_control"), data.get("events")
    if fen is not None and not isinstance(fen, str):
        raise GameInputError("game input: fen must be a string or null")
    if control is not None and not isinstance(control, str):
        raise GameInputError("game input: time_control must be a string or null")
    if not isinstance(events, list):
        raise GameInputError("game input: events must be a list")
    supervised = data.get("supervised", True)
    if not isinstance(supervised, bool):
        raise GameInputError(f"game input: supervised must be true or false, not {quote(str(supervised))}")
    return GameInput(fen, control, tuple(_event(i, e) for i, e in enumerate(events)), supervised)


def _event(index: int, raw: Any) -> Event:
    where = f"event {index}"
    if not isinstance(raw, dict):
        raise GameInputError(f"{where}: must be an object")
    names = [key for key in raw if key in EVENTS]
    if len(names) != 1:
        found = ", ".join(quote(n) for n in names) if names else "none"
        raise GameInputError(f"{where}: needs exactly one of {', '.join(EVENTS)} (found {found})")
    name = names[0]
    required, optional = EVENTS[name]
    stray = [key for key in raw if key != name and key not in required + optional]
    if stray:
        raise GameInputError(f"{where}: unknown key {quote(stray[0])} for a {name} event")
    missing = [key for key in required if key not in raw]
    if missing:
        raise GameInputError(f"{where}: a {name} event needs {missing[0]!r}")
    value = raw[name]
    if name == "move":
        _uci(value, where, name)
    elif name == "illegal":
        if value is not None:
            _uci(value, where, name)
    elif name == "claim":
        if value not in CLAIMS:
            raise GameInputError(f"{where}: claim {quote(str(value))} is not one of {', '.join(CLAIMS)}")
    elif name == "touch":
        if not isinstance(value, str) or not SQUARE.match(value):
            raise GameInputError(f"{where}: touch {quote(str(value))} is not a square (a1..h8)")
    elif name == "flags":
        if value != BOTH_FLAGS:
            raise GameInputError(f"{where}: flags {quote(str(value))} is not {quote(BOTH_FLAGS)}")
    else:
        _colour(value, where, name)
    by = _colour(raw["by"], where, "by") if "by" in raw else None
    intended = raw.get("intended_move")
    if intended is not None:
        _uci(intended, where, "intended_move")
    seconds = raw.get("seconds")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
                or seconds < 0:
            raise GameInputError(f"{where}: seconds must be a finite number of at least 0, "
                                 f"not {quote(str(seconds))}")
    return Event(name, value, by, seconds, intended)


def _uci(value: Any, where: str, field: str) -> str:
    if not isinstance(value, str) or not UCI.match(value):
        raise GameInputError(f"{where}: {field} {quote(str(value))} is not a UCI move")
    return value


def _colour(value: Any, where: str, field: str) -> str:
    if value not in COLOURS:
        raise GameInputError(f"{where}: {field} {quote(str(value))} is not a colour (white or black)")
    return str(value)


def rejected(detail: str) -> dict[str, Any]:
    """The answer for an event the rules forbid."""
    return {"error": "rejected", "detail": detail}
