"""One entry point for every notation, by id: the protocol kinds ``to_notation`` and
``from_notation`` call these.

Notation ids: ``san`` (strict), ``san:lenient``, ``fan`` (figurines), ``lan``, ``uci``
(the ruleset's castling form), ``uci:standard`` (e1g1), ``uci:chess960`` (e1h1), ``iccf``,
``uedemann`` (the issue's table), ``uedemann:hooper-whyld`` (the code as Hooper and Whyld
describe it), ``descriptive``; and for SAN and LAN ``<kind>[:<language>][:<tradition>][:lenient]``:
``san:tg`` (Tajik letters, strict), ``san:tg:lenient`` (printed forms, one reader for every
language), ``san:tg:russian`` (written and read with the marks of ``marks.yaml``'s
``russian`` tradition: ``А:e5``, ``Аd5×``), ``lan:tg:russian`` (``Аg1—f3``).
"""

from __future__ import annotations

from typing import Any, Callable, TYPE_CHECKING

from . import descriptive, formats
from .errors import NotationError
from .san import ParsedMove, language_tradition, parse_san, read_san, to_san, traditions
from .tables import languages

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move

__all__ = [
    "NOTATIONS",
    "NotationError",
    "ParsedMove",
    "from_notation",
    "is_notation",
    "san_language",
    "with_marks",
    "notation_ids",
    "parse_san",
    "read_notation",
    "read_san",
    "to_notation",
    "to_san",
]

Writer = Callable[["Board", "Move"], str]
Reader = Callable[["Board", str], "Move"]

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
    """The ids listed to users and round-trip tested: the fixed ones, and per language
    ``san:<l>``, ``san:<l>:lenient``, ``san:<l>:<its tradition>``, ``lan:<l>:<its tradition>``
    (:func:`is_notation` accepts every combination)."""
    out = list(NOTATIONS)
    for code in languages():
        if code != "en":
            tradition = language_tradition(code)
            out += [f"san:{code}", f"san:{code}:lenient", f"san:{code}:{tradition}", f"lan:{code}:{tradition}"]
    return out


def _options(notation: str) -> tuple[str, str, str | None, bool] | None:
    """``(kind, language, tradition, lenient)`` for a SAN or LAN id, else ``None``."""
    kind, *parts = notation.split(":")
    if kind not in ("san", "lan") or not parts:
        return None
    language, tradition, lenient = "en", None, False
    if parts and parts[0] in languages():
        language = parts.pop(0)
    if parts and parts[0] in traditions():
        tradition = parts.pop(0)
    if parts and parts[0] == "lenient" and kind == "san":
        lenient = True
        parts.pop(0)
    return None if parts else (kind, language, tradition, lenient)


def san_language(notation: str) -> str | None:
    """The piece-letter language of a SAN id (``san:tg:lenient`` -> ``tg``), else ``None``."""
    if notation in ("san", "san:lenient"):
        return "en"
    options = None if notation in NOTATIONS else _options(notation)
    return options[1] if options is not None and options[0] == "san" else None


def with_marks(notation: str, tradition: str) -> str | None:
    """``notation`` written in the marks of ``tradition`` (``san:tg`` + ``russian`` ->
    ``san:tg:russian``); ``None`` if the notation has no marks to choose."""
    base = notation.removesuffix(":lenient")
    options = _options(base) if base not in ("san", "lan") else (base, "en", None, False)
    if options is None or options[2] is not None or tradition not in traditions():
        return None
    kind, language = options[0], options[1]
    return ":".join([kind, *([language] if language != "en" else []), tradition])


def is_notation(notation: str) -> bool:
    """Whether ``notation`` is an id :func:`to_notation` and :func:`from_notation` take."""
    return notation in NOTATIONS or _options(notation) is not None


def _unknown(notation: str) -> NotationError:
    return NotationError(notation, "invalid", f"unknown notation {notation!r} (known: {', '.join(notation_ids())}, "
                                              "or san/lan[:language][:tradition][:lenient])")


def _lookup(notation: str) -> tuple[Writer, Reader]:
    if notation in NOTATIONS:
        return NOTATIONS[notation]
    options = _options(notation)
    if options is None:
        raise _unknown(notation)
    kind, language, tradition, lenient = options
    if kind == "lan":
        marks = tradition or "lan"
        return (
            lambda b, m: formats.to_lan(b, m, language=language, marks=marks),
            lambda b, t: formats.from_lan(b, t, language=language),
        )
    marks = tradition or "pgn"
    return (
        lambda b, m: to_san(b, m, language=language, marks=marks),
        lambda b, t: read_san(b, t, language=language, marks=marks, lenient=lenient).move,
    )


def to_notation(board: Board, move: Move, notation: str) -> str:
    """``move`` (legal on ``board``) written in ``notation``."""
    return _lookup(notation)[0](board, move)


def from_notation(board: Board, text: str, notation: str) -> Move:
    """The legal move ``text`` names in ``notation``; :class:`NotationError` otherwise."""
    return _lookup(notation)[1](board, text)


def read_notation(board: Board, text: str, notation: str, *, push: bool = False) -> ParsedMove:
    """Like :func:`from_notation`, with the leniencies and suffix annotation of a SAN
    reading; with ``push`` the move is left made on ``board``."""
    options = _options(notation) if notation not in NOTATIONS else None
    if notation in ("san", "san:lenient") or (options is not None and options[0] == "san"):
        language, tradition, lenient = ("en", None, notation == "san:lenient") if options is None else options[1:]
        return read_san(board, text, lenient=lenient, language=language, marks=tradition or "pgn", push=push)
    move = from_notation(board, text, notation)
    if push:
        board.push(move)
    return ParsedMove(move)
