"""Canonical SAN read straight off the board: the common path of :func:`.san.read_san`.

A move written exactly as :func:`.san.to_san` writes it with the English letters and the
``pgn`` marks (``Nbd7``, ``exd5``, ``e8=Q+``, ``O-O#``, optionally with a suffix
annotation, pgn:8.2.3.8) is found with one legal-move generation restricted to the
pieces of its kind and its target square, instead of reading every spelling and
formatting the candidates. Anything else -- another spelling, an illegal or ambiguous
move, a missing or wrong check mark -- gives ``None`` and the full reader decides, so
both always agree. Letters and marks come from ``pieces.yaml`` and ``marks.yaml``, read
once per move-table set (the spec a board's ruleset came from).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..core.codes import FLAG_CASTLE
from .tables import piece_letters, table

FILES = "abcdefgh"
#: Suffix annotations (pgn:8.2.3.8), longest first.
SUFFIXES = ("!!", "??", "!?", "?!", "!", "?")


@dataclass(frozen=True)
class Syntax:
    """The canonical forms for one board's piece types: one compiled pattern and its keys."""

    pattern: re.Pattern[str]
    types: dict[str | None, int]  #: piece letter (``None``: pawn) -> piece type index
    promotions: dict[str, int]  #: promotion letter -> promotion code (type index + 1)
    castling: dict[str, bool]  #: castling form -> king side
    check: str
    mate: str


_SYNTAX: dict[int, tuple[Any, Syntax]] = {}


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def syntax(tables: Any) -> Syntax:
    """The canonical-SAN syntax for the move tables ``tables`` (cached per tables object)."""
    hit = _SYNTAX.get(id(tables))
    if hit is not None and hit[0] is tables:
        return hit[1]
    row = table("marks")["traditions"]["pgn"]
    types: dict[str | None, int] = {}
    for name, letter in piece_letters("en").items():
        index = tables.by_name.get(name)
        if index is not None:
            types[None if index == tables.pawn else letter] = index
    promotions = {letter: index + 1 for letter, index in types.items() if letter is not None}
    castling = {row["castling"]["king_side"]: True, row["castling"]["queen_side"]: False}
    pieces = _alternatives([letter for letter in types if letter is not None])
    pattern = re.compile(
        rf"(?:(?P<castle>{_alternatives(list(castling))})"
        rf"|(?P<piece>{pieces})?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<capture>{re.escape(row['capture'][0])})?"
        rf"(?P<to>[a-h][1-8])(?:{re.escape(row['promotion_separator'])}(?P<promo>{pieces}))?)"
        rf"(?P<mark>{_alternatives([row['check'][0], row['mate'][0]])})?(?P<suffix>{_alternatives(list(SUFFIXES))})?"
    )
    found = Syntax(pattern, types, promotions, castling, row["check"][0], row["mate"][0])
    _SYNTAX[id(tables)] = (tables, found)
    return found


def _disambiguation(origin: int, others: list[int]) -> str:
    """pgn:8.2.3.4: the origin file if it tells the pieces apart, else the rank, else both."""
    if not others:
        return ""
    if all(o & 7 != origin & 7 for o in others):
        return FILES[origin & 7]
    if all(o >> 3 != origin >> 3 for o in others):
        return str((origin >> 3) + 1)
    return FILES[origin & 7] + str((origin >> 3) + 1)


def _code(board: Any, found: Syntax, m: re.Match[str]) -> int | None:
    """The packed code of the one legal move ``m`` writes canonically, else ``None``."""
    tables = board.tables
    mine = board.bb[board.turn]
    castle = m.group("castle")
    if castle is not None:
        king_side = found.castling[castle]
        codes = [c for c in board.legal_codes(mine[tables.royal])
                 if c >> 16 == FLAG_CASTLE and ((c >> 6 & 63) > (c & 63)) == king_side]
        return codes[0] if len(codes) == 1 else None
    letter = m.group("piece")
    pt = found.types.get(letter)
    if pt is None:
        return None
    to = m.group("to")
    promo = m.group("promo")
    promotion = found.promotions[promo] if promo else 0
    codes = [c for c in board.legal_codes(mine[pt], 1 << (FILES.index(to[0]) + 8 * (int(to[1]) - 1)))
             if c >> 12 & 15 == promotion and c >> 16 != FLAG_CASTLE]
    file, rank = m.group("file"), m.group("rank")
    chosen = [c for c in codes
              if (file is None or FILES[c & 7] == file) and (rank is None or str((c >> 3 & 7) + 1) == rank)]
    if len(chosen) != 1:
        return None
    code = chosen[0]
    capture = board.is_capture_code(code)
    if (m.group("capture") is not None) != capture:
        return None
    origin = code & 63
    if letter is None:
        canonical = FILES[origin & 7] if capture else ""
    else:
        canonical = _disambiguation(origin, [c & 63 for c in codes if c & 63 != origin])
    return code if (file or "") + (rank or "") == canonical else None


def read(board: Any, text: str, push: bool) -> tuple[Any, str | None] | None:
    """``(move, suffix annotation)`` when ``text`` is canonical SAN of a legal move on
    ``board`` (left made when ``push``), else ``None`` with ``board`` unchanged."""
    found = syntax(board.tables)
    m = found.pattern.fullmatch(text)
    if m is None:
        return None
    code = _code(board, found, m)
    if code is None:
        return None
    board.push_code(code)
    mark = ""
    if board.is_check():
        mark = found.check if board.legal_move_count() else found.mate
    if mark != (m.group("mark") or "") or not push:
        board.pop_code()
        if mark != (m.group("mark") or ""):
            return None
    return board.move_of(code), m.group("suffix")
