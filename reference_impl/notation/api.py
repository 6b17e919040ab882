"""One entry point for every notation, by id: the protocol kinds ``to_notation`` and
``from_notation`` call these.

Notation ids: ``san`` (strict), ``san:lenient``, ``san:<language>`` (localized letters,
e.g. ``san:de``), ``fan`` (figurines), ``lan``, ``uci`` (the ruleset's castling form),
``uci:standard`` (e1g1), ``uci:chess960`` (e1h1), ``iccf``, ``uedemann`` (the issue's table),
``uedemann:hooper-whyld`` (the code as Hooper and Whyld describe it), ``descriptive``.
"""

from __future__ import annotations

from typing import Any, Callable

from . import descriptive, formats
from .errors import NotationError
from .san import ParsedMove, parse_san, read_san, to_san
from .tables import languages

__all__ = [
    "NOTATIONS",
    "NotationError",
    "ParsedMove",
    "from_notation",
    "notation_ids",
    "parse_san",
    "read_san",
    "to_notation",
    "to_san",
]

Writer = Callable[[Any, Any], str]
Reader = Callable[[Any, str], Any]

NOTATIONS: dict[str, tuple[Writer, Reader]] = {
    "san": (to_san, lambda b, t: parse_san(b, t)),
    "san:lenient": (to_san, lambda b, t: parse_san(b, t, lenient=True)),
    "fan": (lambda b, m: to_san(b, m, figurine=True), lambda b, t: parse_san(b, t, figurine=True)),
    "lan": (formats.to_lan, formats.from_lan),
    "uci": (formats.to_uci, formats.from_uci),
    "uci:standard": (lambda b, m: formats.to_uci(b, m, form="standard"), formats.from_uci),
    "uci:chess960": (lambda b, m: formats.to_uci(b, m, form="chess960"), formats.from_uci),
    "iccf": (formats.to_iccf, formats.from_iccf),
    "uedemann": (formats.to_uedemann, formats.from_uedemann),
    "uedemann:hooper-whyld": (formats.to_uedemann_hw, formats.from_uedemann_hw),
    "descriptive": (descriptive.to_descriptive, descriptive.from_descriptive),
}


def notation_ids() -> list[str]:
    """Every id accepted by :func:`to_notation` and :func:`from_notation`."""
    return list(NOTATIONS) + [f"san:{code}" for code in languages() if code != "en"]


def _lookup(notation: str) -> tuple[Writer, Reader]:
    if notation in NOTATIONS:
        return NOTATIONS[notation]
    kind, _, language = notation.partition(":")
    if kind == "san" and language in languages():
        return (
            lambda b, m: to_san(b, m, language=language),
            lambda b, t: parse_san(b, t, language=language),
        )
    raise NotationError(notation, "invalid", f"unknown notation {notation!r} (known: {', '.join(notation_ids())})")


def to_notation(board: Any, move: Any, notation: str) -> str:
    """``move`` (legal on ``board``) written in ``notation``."""
    return _lookup(notation)[0](board, move)


def from_notation(board: Any, text: str, notation: str) -> Any:
    """The legal move ``text`` names in ``notation``; :class:`NotationError` otherwise."""
    return _lookup(notation)[1](board, text)
