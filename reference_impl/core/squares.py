"""Squares, colours and bitboards.

A square is an int: ``a1 = 0``, ``b1 = 1``, ..., ``h8 = 63``. A bitboard is an int whose
bit ``i`` stands for square ``i``. Colours index lists: ``WHITE = 0``, ``BLACK = 1``.
"""

from __future__ import annotations

from typing import Iterator

Square = int
Bitboard = int
Color = int

WHITE: Color = 0
BLACK: Color = 1
COLOR_NAMES = ("white", "black")

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
SQUARES = range(64)
BB_SQUARES = [1 << sq for sq in SQUARES]
BB_ALL = (1 << 64) - 1
BB_RANKS = [0xFF << (8 * r) for r in range(8)]
BB_FILES = [0x0101010101010101 << f for f in range(8)]
BB_LIGHT_SQUARES = sum(1 << sq for sq in SQUARES if (sq % 8 + sq // 8) % 2 == 1)
BB_DARK_SQUARES = BB_ALL ^ BB_LIGHT_SQUARES


def color_of(value: Color | str) -> Color:
    """``WHITE``/``BLACK`` from a colour index or ``"white"``/``"w"``/``"black"``/``"b"``."""
    if value in (WHITE, "white", "w"):
        return WHITE
    if value in (BLACK, "black", "b"):
        return BLACK
    raise ValueError(f"not a colour: {value!r}")


def square(file_index: int, rank_index: int) -> Square:
    """The square on a 0-based file and rank."""
    return rank_index * 8 + file_index


def square_file(sq: Square) -> int:
    return sq & 7


def square_rank(sq: Square) -> int:
    return sq >> 3


def square_name(sq: Square) -> str:
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """``"e4"`` -> 28. Raises ``ValueError`` for anything else."""
    if len(name) != 2 or name[0] not in FILE_NAMES or name[1] not in RANK_NAMES:
        raise ValueError(f"not a square: {name!r}")
    return SQUARE_NAMES.index(name)


def relative_rank(rank_index: int, color: Color) -> int:
    """A 0-based rank seen from ``color``'s side of the board."""
    return rank_index if color == WHITE else 7 - rank_index


def scan(bb: Bitboard) -> Iterator[Square]:
    """The squares of a bitboard, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def offset(sq: Square, df: int, dr: int) -> Square | None:
    """The square ``(df, dr)`` away from ``sq``, or ``None`` off the board."""
    f, r = (sq & 7) + df, (sq >> 3) + dr
    return r * 8 + f if 0 <= f < 8 and 0 <= r < 8 else None
