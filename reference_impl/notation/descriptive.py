"""English descriptive notation (``spec/notation/descriptive.yaml``): reading and writing.

A descriptive move names the moving piece, then either the destination square (``P-K4``,
``N-KB3``) or the captured piece (``PxP``, ``NxB``), each optionally qualified by a
square in parentheses (``N(K5)xR``, ``NxR(Q7)``) or by a side (``KN-B3``, ``PxQP``).
Ranks count from the mover's side. The reader turns every part into a filter over the
legal moves and accepts the text when exactly one move passes; the writer emits the
shortest form the reader maps back to the move.
"""

from __future__ import annotations

import re
from itertools import product
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import codes
from .errors import NotationError
from .san import castling_side
from .tables import derived, suffix_annotations, table

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move

#: The tradition of ``marks.yaml`` whose marks descriptive texts carry.
TRADITION = "english_descriptive"


def _words(values: Iterable[object]) -> str:
    """Alternatives of a regular expression, longest first."""
    words = sorted({str(v) for v in values}, key=len, reverse=True)
    return "|".join(re.escape(w) for w in words)


@derived
def _grammar() -> re.Pattern[str]:
    """A descriptive move, every word from ``descriptive.yaml`` (and the tradition's marks
    in ``marks.yaml``): a piece letter or alias (``N``, ``Kt``, ``S``), optionally after the
    name of its file (``KN``, ``QRP``); a square as a file name and a rank; the move and
    capture separators; the promotion's brackets."""
    t = table("descriptive")
    marks = table("marks")["traditions"][TRADITION]
    pieces = _words(_piece_names())
    files = _words(list(t["files"].values()) + list(t.get("file_aliases", {})))
    squares = _words(codes.descriptive_file_names())
    piece = rf"(?:(?:{files})?(?:{pieces}))"
    square = rf"(?:{squares})\d"
    dash = _words([t["move_separator"], *marks.get("move_dash", [])])
    capture = _words([t["capture_separator"], *marks.get("capture", [])])
    promotion = t["promotion"]
    opening = _words([promotion["open"], *promotion.get("also", []), marks["promotion_separator"]])
    return re.compile(
        rf"(?P<piece>{piece})(?:{re.escape(promotion['open'])}(?P<from>{square}){re.escape(promotion['close'])})?"
        rf"(?:(?P<dash>{dash})(?P<to>{square})|(?P<x>{capture})(?P<cap>{piece})"
        rf"(?:{re.escape(promotion['open'])}(?P<capsq>{square}){re.escape(promotion['close'])})?)"
        rf"(?P<promo>(?:{opening})(?:{pieces}){re.escape(promotion['close'])}?)?"
    )


@derived
def _trailers() -> tuple[str, ...]:
    """What may follow a move: the table's check and en passant marks (``ch``, ``dis ch``, ``e.p.``),
    the tradition's double check and mate marks (``dbl ch``, ``mate``) and the suffix
    annotations (``!?``), longest first."""
    t = table("descriptive")
    marks = table("marks")["traditions"][TRADITION]
    found = [*t.get("check", []), *t.get("discovered_check", []), *t.get("en_passant", []),
             *marks.get("double_check", []), *marks.get("mate", []), *suffix_annotations()]
    return tuple(sorted(set(found), key=len, reverse=True))


@derived
def _castles() -> dict[str, str]:
    """Castling text -> side: every tradition's (``0-0``), then the table's, which decide."""
    forms = [*(row["castling"] for row in table("marks")["traditions"].values()), table("descriptive")["castling"]]
    return {text: side for form in forms for side, text in form.items()}


@derived
def _piece_names() -> dict[str, str]:
    """Letter or alias -> piece name (``N``, ``Kt`` and ``S`` -> knight)."""
    t = table("descriptive")
    names = {letter: name for name, letter in t["pieces"].items()}
    names.update(t.get("piece_aliases", {}))
    return names


def _parse_piece(spec: str) -> tuple[str, tuple[int, ...] | None]:
    """``"KN"`` -> (knight, files e-h); ``"QP"`` -> (pawn, the d-file); ``"P"`` -> (pawn, None)."""
    names = _piece_names()
    for letter in sorted(names, key=len, reverse=True):
        if spec.endswith(letter):
            qualifier = spec[: -len(letter)]
            name = names[letter]
            if not qualifier:
                return name, None
            if name == "pawn":  # QP, KBP: the pawn's file
                files = codes.descriptive_file_names().get(qualifier)
                if files is None or len(files) != 1 and qualifier not in ("Q", "K"):
                    raise ValueError(spec)
                if qualifier in ("Q", "K"):
                    return name, (3,) if qualifier == "Q" else (4,)
                return name, files
            return name, (0, 1, 2, 3) if qualifier[0] == "Q" else (4, 5, 6, 7)
    raise ValueError(spec)


def _strip(text: str) -> str:
    text = text.strip()
    changed = True
    while changed:
        changed = False
        for trailer in _trailers():
            if text.endswith(trailer) and len(text) > len(trailer):
                text = text[: -len(trailer)].rstrip()
                changed = True
    return text.replace(" ", "")


def from_descriptive(board: Board, text: str) -> Move:
    """The legal move ``text`` describes; :class:`NotationError` if none or several fit."""
    core = _strip(text)
    side = _castles().get(core)
    if side is not None:
        moves = [m for m in board.legal_moves() if board.is_castling(m) and castling_side(board, m) == side]
        return _one(text, moves)
    m = _grammar().fullmatch(core)
    if not m:
        raise NotationError(text, "invalid", "not a descriptive move (P-K4, N-KB3, PxP, O-O)")
    color = board.turn
    try:
        piece, piece_files = _parse_piece(m.group("piece"))
        frm = set(codes.parse_descriptive_square(m.group("from"), color)) if m.group("from") else None
        to = set(codes.parse_descriptive_square(m.group("to"), color)) if m.group("to") else None
        cap = _parse_piece(m.group("cap")) if m.group("cap") else None
        capsq = set(codes.parse_descriptive_square(m.group("capsq"), color)) if m.group("capsq") else None
        promo = _promotion(m.group("promo")) if m.group("promo") else None
    except (ValueError, KeyError):
        raise NotationError(text, "invalid", "unknown piece or square name") from None
    targets = {board.tables.types[t].name for t in board.tables.promotion_types}
    if promo is not None and promo not in targets:
        raise NotationError(text, "invalid", f"a pawn does not promote to a {promo}")
    fits = []
    for move in board.legal_moves():
        if board.is_castling(move):
            continue
        mover = board.piece_on(move.from_square)
        if mover.name != piece or (piece_files and move.from_square & 7 not in piece_files):
            continue
        if frm is not None and move.from_square not in frm:
            continue
        promoted = board.tables.types[board.tables.by_letter[move.promotion.upper()]].name if move.promotion else None
        if promoted != promo:
            continue
        if to is not None:
            if move.to_square not in to or board.is_capture(move):
                continue
        else:
            if not board.is_capture(move):
                continue
            victim_sq = move.to_square
            if board.is_en_passant(move):
                victim_sq = move.to_square - 8 if color == 0 else move.to_square + 8
            victim = board.piece_on(victim_sq)
            if cap is None:
                continue
            cap_name, cap_files = cap
            if victim.name != cap_name or (cap_files and victim_sq & 7 not in cap_files):
                continue
            if capsq is not None and move.to_square not in capsq:
                continue
        fits.append(move)
    return _one(text, fits)


def _promotion(text: str) -> str:
    """The piece a promotion suffix (``(Q)``, ``=Q``, ``/Kt``) names."""
    promotion = table("descriptive")["promotion"]
    for mark in sorted([promotion["open"], *promotion.get("also", [])], key=len, reverse=True):
        if text.startswith(mark):
            text = text[len(mark):]
            break
    return _piece_names()[text.removesuffix(promotion["close"])]


def _one(text: str, moves: list[Move]) -> Move:
    if not moves:
        raise NotationError(text, "illegal", "no legal move fits")
    if len(moves) > 1:
        raise NotationError(text, "ambiguous", f"fits {len(moves)} legal moves")
    return moves[0]


def _square_forms(sq: int, color: int) -> list[str]:
    full = codes.descriptive_square(sq, color)
    short = full[-2:] if len(full) == 3 else None
    return [s for s in (short, full) if s]


def to_descriptive(board: Board, move: Move) -> str:
    """The shortest descriptive text that :func:`from_descriptive` maps back to ``move``."""
    t = table("descriptive")
    if move not in board.legal_moves():
        raise NotationError(str(move), "illegal", "not a legal move")
    if board.is_castling(move):
        return str(t["castling"][castling_side(board, move)])
    color = board.turn
    letters = t["pieces"]
    piece = letters[board.piece_on(move.from_square).name]
    promo = ""
    if move.promotion:
        name = board.tables.types[board.tables.by_letter[move.promotion.upper()]].name
        promo = t["promotion"]["open"] + letters[name] + t["promotion"]["close"]
    froms = [""] + [f"({s})" for s in _square_forms(move.from_square, color)]
    if board.is_capture(move):
        victim_sq = move.to_square
        if board.is_en_passant(move):
            victim_sq = move.to_square - 8 if color == 0 else move.to_square + 8
        victim = letters[board.piece_on(victim_sq).name]
        targets = [f"x{victim}"] + [f"x{victim}({s})" for s in _square_forms(move.to_square, color)]
    else:
        targets = [f"-{s}" for s in _square_forms(move.to_square, color)]
    for frm, target in sorted(product(froms, targets), key=lambda p: len(p[0]) + len(p[1])):
        text: str = piece + frm + target + promo
        try:
            if from_descriptive(board, text) == move:
                return text
        except NotationError:
            continue
    raise NotationError(str(move), "ambiguous", "no descriptive form names this move alone")
