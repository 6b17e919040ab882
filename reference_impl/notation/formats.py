"""Move notations other than SAN: LAN, UCI, ICCF numeric and the Uedemann code.

Each writer takes a board and a legal move and returns text; each reader takes a board
and text and returns the legal move, raising :class:`NotationError` with a category.
Digits, syllables and marks come from ``spec/notation/`` via :mod:`.codes` and
:mod:`.tables`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Callable, TYPE_CHECKING

from . import codes
from .errors import NotationError
from .san import castling_side, check_suffix, marks_row, read_san
from .tables import piece_letters, table

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move

FILES = "abcdefgh"


def _name(sq: int) -> str:
    return FILES[sq & 7] + str((sq >> 3) + 1)


def _legal(board: Board, move: Move) -> None:
    if move not in board.legal_moves():
        raise NotationError(str(move), "illegal", f"not a legal move in {board.fen()}")


def _promoted_name(board: Board, move: Move) -> str | None:
    if not move.promotion:
        return None
    return board.tables.types[board.tables.by_letter[move.promotion.upper()]].name


def king_destination(board: Board, move: Move) -> int:
    """Where the king ends up after the castling ``move`` (king takes own rook)."""
    castling = board.tables.castling
    if castling is None:
        raise ValueError("not a castling move: the ruleset has no castling")
    side = next(s for s in castling.sides if s.king_side == (castling_side(board, move) == "king_side"))
    return (move.from_square & ~7) + side.king_to_file


# --- LAN --------------------------------------------------------------------------------


def _dash(row: Mapping[str, Any]) -> str:
    """The dash of long algebraic: the tradition's, else the ``lan`` tradition's (a
    tradition of short algebraic, such as ``pgn``, has none of its own)."""
    dashes = row["move_dash"] or marks_row("lan")["move_dash"]
    if not dashes:
        raise NotationError("lan", "invalid", "marks.yaml gives long algebraic no move dash")
    return str(dashes[0])


def to_lan(board: Board, move: Move, *, language: str = "en", marks: str = "lan") -> str:
    """Long algebraic: ``e2-e4``, ``Ng1-f3``, ``Rd3xd7+``, ``e7-e8=Q``, ``O-O``; with a
    language's letters and a tradition's marks (``russian``: ``e2—e4``, ``Кf3:e5``, ``0-0``)."""
    _legal(board, move)
    row = marks_row(marks)
    mark = check_suffix(board, move, marks)
    if board.is_castling(move):
        return str(row["castling"][castling_side(board, move)]) + mark
    letters = piece_letters(language)
    piece = board.piece_on(move.from_square)
    letter = "" if board.tables.by_name[piece.name] == board.tables.pawn else letters[piece.name]
    sep = row["capture"][0] if board.is_capture(move) else _dash(row)
    text: str = letter + _name(move.from_square) + sep + _name(move.to_square)
    promoted = _promoted_name(board, move)
    if promoted:
        text += str(row["promotion_separator"]) + letters[promoted]
    return text + mark


def from_lan(board: Board, text: str, *, language: str = "en") -> Move:
    """Read LAN (the lenient SAN reader accepts it; a short SAN move is rejected here)."""
    parsed = read_san(board, text, lenient=True, language=language)
    if not board.is_castling(parsed.move) and "long_algebraic" not in parsed.leniencies:
        raise NotationError(text, "invalid", "LAN names the origin square (e2-e4, Ng1-f3)")
    return parsed.move


# --- UCI --------------------------------------------------------------------------------


def to_uci(board: Board, move: Move, *, form: str = "rules") -> str:
    """UCI text: ``form`` is ``rules`` (the ruleset's castling form), ``standard`` (e1g1)
    or ``chess960`` (king takes own rook, e1h1)."""
    _legal(board, move)
    if board.is_castling(move) and form != "rules":
        to = king_destination(board, move) if form == "standard" else move.to_square
        return _name(move.from_square) + _name(to)
    return board.uci(move)


def from_uci(board: Board, text: str) -> Move:
    """A legal move from UCI; both castling forms are read."""
    text = text.strip()
    if not re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbnQRBN]?", text):
        raise NotationError(text, "invalid", "UCI is from-square, to-square and an optional piece letter (e2e4, e7e8q)")
    try:
        return board.parse_uci(text.lower())
    except Exception as error:  # the core raises IllegalMoveError
        raise NotationError(text, "illegal", str(error)) from None


# --- square-code notations (ICCF, Uedemann) ----------------------------------------------


def _coded(board: Board, move: Move, square: Callable[[int], str]) -> tuple[str, str]:
    _legal(board, move)
    if board.is_castling(move):
        to = king_destination(board, move)
        plain = any(m.from_square == move.from_square and m.to_square == to and not board.is_castling(m)
                    for m in board.legal_moves())
        if to == move.from_square or plain:  # name the rook so that the text stays unambiguous
            to = move.to_square
        return square(move.from_square), square(to)
    return square(move.from_square), square(move.to_square)


def _find(board: Board, text: str, frm: int, to: int, promotion: str | None, kind: str) -> Move:
    candidates, by_destination = [], []
    for move in board.legal_moves():
        if move.from_square != frm:
            continue
        if board.is_castling(move):
            if promotion is None and to == move.to_square:
                candidates.append(move)
            elif promotion is None and to == king_destination(board, move):
                by_destination.append(move)
            continue
        if move.to_square == to and _promoted_name(board, move) == promotion:
            candidates.append(move)
    if not candidates:  # the king's destination names castling only when no plain move has it
        candidates = by_destination
    if not candidates:
        if promotion is None and any(m.from_square == frm and m.to_square == to and m.promotion for m in board.legal_moves()):
            raise NotationError(text, "invalid", f"{kind}: a promotion needs the new piece")
        raise NotationError(text, "illegal", f"no legal move fits in {board.fen()}")
    if len(candidates) > 1:
        raise NotationError(text, "ambiguous", f"fits {len(candidates)} legal moves")
    return candidates[0]


def to_iccf(board: Board, move: Move) -> str:
    """ICCF numeric: ``5254``; promotion adds the piece digit (``67682``); castling ``5171``."""
    frm, to = _coded(board, move, codes.iccf_square)
    promoted = _promoted_name(board, move)
    return frm + to + (codes.iccf_promotion_digit(promoted) if promoted else "")


_ICCF_RE = re.compile(r"([1-8][1-8])[-–—]?([1-8][1-8])(?:([1-9])|\s*\(([1-8][1-8])\))?")


def from_iccf(board: Board, text: str) -> Move:
    """Read ``5254``, ``67681`` or the older ``6768 (41)`` form."""
    m = _ICCF_RE.fullmatch(text.strip())
    if not m:
        raise NotationError(text, "invalid", "ICCF is four digits 1-8 (5254), a fifth for promotion (67681)")
    promotion = None
    if m.group(3):
        promotion = codes.iccf_piece_for_digit(m.group(3))
        if promotion is None:
            raise NotationError(text, "invalid", f"unknown ICCF promotion digit {m.group(3)}")
    elif m.group(4):
        promotion = codes.iccf_piece_for_original_square(m.group(4), board.turn)
        if promotion is None or promotion in ("king", "pawn"):
            raise NotationError(text, "invalid", f"({m.group(4)}) is no original square of a piece to promote to")
    frm, to = codes.parse_iccf_square(m.group(1)), codes.parse_iccf_square(m.group(2))
    return _find(board, text, frm, to, promotion, "ICCF")


def to_uedemann(board: Board, move: Move) -> str:
    """Uedemann code (table of ``uedemann.yaml``): e2-e4 = ``gego``; promotion letter appended."""
    frm, to = _coded(board, move, codes.uedemann_square)
    promoted = _promoted_name(board, move)
    return frm + to + (codes.uedemann_promotion_letter(promoted) if promoted else "")


def from_uedemann(board: Board, text: str) -> Move:
    """Read four letters, optionally a promotion letter (``sewaq``)."""
    clean = text.strip().lower()
    if not re.fullmatch(r"[a-z]{4,5}", clean):
        raise NotationError(text, "invalid", "Uedemann is two syllables of two letters (gego), then an optional piece letter")
    return _read_letter_code(board, text, clean, codes.parse_uedemann_square)


def _read_letter_code(board: Board, text: str, clean: str, parse_square: Any) -> Move:
    """Two two-letter squares and an optional promotion letter, as a legal move."""
    try:
        frm, to = parse_square(clean[:2]), parse_square(clean[2:4])
    except ValueError as error:
        raise NotationError(text, "invalid", str(error)) from None
    promotion = None
    if len(clean) == 5:
        promotion = codes.uedemann_piece_for_letter(clean[4])
        if promotion is None:
            raise NotationError(text, "invalid", f"unknown promotion letter {clean[4]!r}")
    return _find(board, text, frm, to, promotion, "Uedemann")


def to_uedemann_hw(board: Board, move: Move) -> str:
    """The Hooper-Whyld reading of the Uedemann code (``uedemann.yaml`` ``hooper_whyld``)."""
    frm, to = _coded(board, move, codes.hooper_whyld_square)
    promoted = _promoted_name(board, move)
    return frm + to + (codes.uedemann_promotion_letter(promoted).upper() if promoted else "")


def from_uedemann_hw(board: Board, text: str) -> Move:
    """Read four letters (e2-e4 = ``DOGO``), optionally a promotion letter."""
    clean = text.strip().upper()
    if not re.fullmatch(r"[A-Z]{4,5}", clean):
        raise NotationError(text, "invalid", "Uedemann (Hooper-Whyld) is two squares of two letters, then an optional piece letter")
    return _read_letter_code(board, text, clean, codes.parse_hooper_whyld_square)
