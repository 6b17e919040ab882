"""Packed move codes: the core's internal move form, for searches that need speed.

A code is ``origin | target << 6 | promotion << 12 | flag << 16``:

* ``origin`` and ``target`` are squares 0..63 (``a1 = 0``, ``h8 = 63``);
* ``promotion`` is the promoted piece's type index + 1, or 0 (no promotion);
* ``flag`` is one of the ``FLAG_*`` values below.

Castling is king-takes-own-rook: its target is the castling rook's square, so a code's
target holding a piece does not make it a capture (use ``Board.is_capture_code``).
Codes are only meaningful for the position they were generated in
(``Board.legal_codes``); :class:`~reference_impl.core.board.Move` is the public form.
"""

from __future__ import annotations

FLAG_NORMAL = 0
FLAG_CASTLE = 1
FLAG_EN_PASSANT = 2
FLAG_DOUBLE = 3  #: a pawn's double step (it sets the en passant square)


def encode(origin_sq: int, target_sq: int, promotion: int = 0, flag_value: int = FLAG_NORMAL) -> int:
    """The code of a move; ``promotion`` is a type index + 1 (0 for none)."""
    return origin_sq | target_sq << 6 | promotion << 12 | flag_value << 16


def origin(code: int) -> int:
    """The square the moving piece (the king, for castling) leaves."""
    return code & 63


def target(code: int) -> int:
    """The destination square; for castling, the castling rook's square."""
    return code >> 6 & 63


def promotion_type(code: int) -> int | None:
    """The promoted piece's type index (into ``MoveTables.types``), or ``None``."""
    promotion = code >> 12 & 15
    return promotion - 1 if promotion else None


def flag(code: int) -> int:
    """``FLAG_NORMAL``, ``FLAG_CASTLE``, ``FLAG_EN_PASSANT`` or ``FLAG_DOUBLE``."""
    return code >> 16


def is_castling(code: int) -> bool:
    return code >> 16 == FLAG_CASTLE


def is_en_passant(code: int) -> bool:
    return code >> 16 == FLAG_EN_PASSANT
