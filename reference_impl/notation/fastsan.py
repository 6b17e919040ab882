"""Canonical SAN read straight off the board: the common path of :func:`.san.read_san`.

A move written exactly as :func:`.san.to_san` writes it with the English letters and the
``pgn`` marks (``Nbd7``, ``exd5``, ``e8=Q+``, ``O-O#``, optionally with a suffix
annotation, pgn:8.2.3.8) is found by trying on the board the pieces of its kind that
reach its target square, instead of reading every spelling and formatting the
candidates. Anything else -- another spelling, an illegal or ambiguous move, a missing or
wrong check mark, en passant -- gives ``None`` and the full reader decides, so both
always agree. Letters and marks come from ``pieces.yaml`` and ``marks.yaml``, read once
per move-table set (the spec a board's ruleset came from).
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any, TYPE_CHECKING

from reference_impl.records import record

from ..core import movegen
from ..core.codes import FLAG_CASTLE, FLAG_DOUBLE
from ..core.tables import MoveTables
from ..kept import KeptFor
from .tables import on_forget, piece_letters, suffix_annotations, table

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move

FILES = "abcdefgh"
#: Square name -> square index.
SQUARES = {f"{file}{rank}": rank * 8 - 8 + index for index, file in enumerate(FILES) for rank in range(1, 9)}
#: The pattern's groups, in the order :func:`read` unpacks them.
GROUPS = ("castle", "piece", "file", "rank", "capture", "to", "promo", "mark", "suffix")


@record
class Syntax:
    """The canonical forms for one board's piece types: one compiled pattern and its keys."""

    pattern: re.Pattern[str]
    types: dict[str | None, int]  #: piece letter (``None``: pawn) -> piece type index
    promotions: dict[str, int]  #: promotion letter -> promotion code (type index + 1)
    castling: dict[str, bool]  #: castling form -> king side
    check: str
    mate: str
    #: move text -> the pattern's groups (``None``: not canonical in form); a database
    #: writes the same few thousand moves again and again
    parsed: dict[str, tuple[str | None, ...] | None] = field(default_factory=dict, compare=False)


#: Move texts whose groups a :class:`Syntax` keeps (it starts afresh when full).
PARSED_TEXTS = 8192
#: Compiled move tables whose syntax is kept (a mutation run builds many).
SYNTAXES_KEPT = 64


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def syntax(tables: MoveTables) -> Syntax:
    """The canonical-SAN syntax for the move tables ``tables`` (kept per tables object)."""
    return _SYNTAX(tables)


def _syntax(tables: MoveTables) -> Syntax:
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
        rf"(?P<mark>{_alternatives([row['check'][0], row['mate'][0]])})?(?P<suffix>{_alternatives(list(suffix_annotations()))})?"
    )
    assert tuple(pattern.groupindex) == GROUPS, pattern.groupindex
    return Syntax(pattern, types, promotions, castling, row["check"][0], row["mate"][0])


_SYNTAX: KeptFor[MoveTables, Syntax] = KeptFor(SYNTAXES_KEPT, _syntax)
on_forget(_SYNTAX.clear)


def _disambiguation(origin: int, others: list[int]) -> str:
    """pgn:8.2.3.4: the origin file if it tells the pieces apart, else the rank, else both."""
    if not others:
        return ""
    if all(o & 7 != origin & 7 for o in others):
        return FILES[origin & 7]
    if all(o >> 3 != origin >> 3 for o in others):
        return str((origin >> 3) + 1)
    return FILES[origin & 7] + str((origin >> 3) + 1)


def _reachers(board: Board, pt: int, to: int, promotion: int) -> list[int]:
    """Codes of the side to move's ``pt`` pieces that reach ``to`` on an empty or enemy
    square (pawns: step, double step, capture), promoting to ``promotion`` (0: none);
    a superset of the legal ones, made without moving anything."""
    tables = board.tables
    color = board.turn
    if board.occ_co[color] >> to & 1:
        return []
    squares = board.bb[color][pt]
    out = []
    if pt == tables.pawn:
        # Looked up from ``to``: the capturers, else the one step and the double step behind.
        if board.occ_co[color ^ 1] >> to & 1:
            squares &= tables.pawn_captured_from[color][to]
            while squares:
                low = squares & -squares
                squares ^= low
                out.append(low.bit_length() - 1 | to << 6 | promotion << 12)
            return out
        delta = tables.pawn_push_delta[color]
        for origin, reach, flag in ((to - delta, tables.pawn_push, 0), (to - 2 * delta, tables.pawn_double, FLAG_DOUBLE)):
            if 0 <= origin < 64 and squares >> origin & 1 and reach[color][origin] >> to & 1:
                out.append(origin | to << 6 | promotion << 12 | flag << 16)
        return out
    occupied = board.occupied
    while squares:
        low = squares & -squares
        squares ^= low
        sq = low.bit_length() - 1
        if movegen.piece_attacks(board, pt, color, sq, occupied) >> to & 1:
            out.append(sq | to << 6 | promotion << 12)
    return out


def _is_legal(board: Board, code: int) -> bool:
    if not board.try_push_code(code):
        return False
    board.pop_code()
    return True


def _push_canonical(board: Board, found: Syntax, groups: tuple[str | None, ...]) -> int | None:
    """Make the one legal move the pattern's ``groups`` write canonically and return its
    code, else ``None`` with ``board`` unchanged."""
    castle, letter, file, rank, capture_mark, name, promo = groups[:7]
    tables = board.tables
    if castle is not None:
        king_side = found.castling[castle]
        codes = [c for c in board.legal_codes(board.bb[board.turn][tables.royal])
                 if c >> 16 == FLAG_CASTLE and ((c >> 6 & 63) > (c & 63)) == king_side]
        if len(codes) != 1:
            return None
        board.push_code(codes[0])
        return codes[0]
    pt = found.types.get(letter)
    if pt is None:
        return None
    to = SQUARES[name]  # type: ignore[index]
    if pt == tables.pawn and to == board.ep_square:
        return None  # en passant: the full reader
    codes = _reachers(board, pt, to, found.promotions[promo] if promo else 0)
    capture = board.occ_co[board.turn ^ 1] >> to & 1
    if (capture_mark is not None) != capture:
        return None
    if len(codes) == 1:  # the common case: nothing to tell apart
        code = codes[0]
        if rank is not None or file != (FILES[code & 7] if capture and letter is None else None):
            return None
        return code if board.try_push_code(code) else None
    codes = [c for c in codes if _is_legal(board, c)]
    chosen = [c for c in codes
              if (file is None or FILES[c & 7] == file) and (rank is None or str((c >> 3 & 7) + 1) == rank)]
    if len(chosen) != 1:
        return None
    code = chosen[0]
    origin = code & 63
    if letter is None:
        canonical = FILES[origin & 7] if capture else ""
    else:
        canonical = _disambiguation(origin, [c & 63 for c in codes if c & 63 != origin])
    if (file or "") + (rank or "") != canonical or not board.try_push_code(code):
        return None
    return code


def read_code(board: Board, text: str, push: bool, marks: bool = True) -> tuple[int, str | None] | None:
    """``(packed move code, suffix annotation)`` when ``text`` is canonical SAN of a legal
    move on ``board`` (left made when ``push``), else ``None`` with ``board`` unchanged.

    With ``marks=False`` the check or mate mark written is not compared with the
    position: the move is then the one the lenient reader makes of ``text``, which takes
    any mark (a replay that wants the move, not the spelling, spares the check test).
    """
    found = syntax(board.tables)
    parsed = found.parsed
    groups = parsed.get(text, ())
    if groups == ():
        m = found.pattern.fullmatch(text)
        groups = None if m is None else m.groups()
        if len(parsed) >= PARSED_TEXTS:
            parsed.clear()
        parsed[text] = groups
    if groups is None:
        return None
    code = _push_canonical(board, found, groups)
    if code is None:
        return None
    if marks:
        mark = ""
        if movegen.checkers(board):
            mark = found.check if movegen.has_legal(board) else found.mate
        if mark != (groups[7] or ""):
            board.pop_code()
            return None
    if not push:
        board.pop_code()
    return code, groups[8]


def read(board: Board, text: str, push: bool) -> tuple[Any, str | None] | None:
    """``(move, suffix annotation)`` when ``text`` is canonical SAN of a legal move on
    ``board`` (left made when ``push``), else ``None`` with ``board`` unchanged."""
    found = read_code(board, text, push)
    return None if found is None else (board.move_of(found[0]), found[1])
