"""FEN answers read as FIDE 9.2.3 positions plus clocks, by the harness alone (pure).

The judge must not use the implementation it may be judging, so this module, not the
reference interpreter, decides whether two FENs are the same answer (docs/fixtures.md,
docs/protocol.md): the same placement, side to move and castling rights in any dialect
(``KQkq``, X-FEN where ``K``/``Q`` name the outermost rook, Shredder-FEN ``HAha``), the
en passant square only where a legal en passant capture exists, and both clocks.

Only what those rules need is here: the six FEN letters of each side, and attacks on a
king after an en passant capture -- the one place where the e.p. field's meaning
depends on the position. It is not a move generator and checks no other legality.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: Piece letters a FEN placement may hold.
PIECES = frozenset("KQRBNPkqrbnp")
#: (file, rank) steps per attacking piece letter (white's letters; black's are the same
#: except for pawns).
KNIGHT_STEPS: tuple[tuple[int, int], ...] = (
    (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS: tuple[tuple[int, int], ...] = (
    (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_RAYS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_RAYS: tuple[tuple[int, int], ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
#: side to move -> (rank index of the e.p. square, rank step from it to the pawn that double-stepped)
EN_PASSANT_RANK: dict[str, tuple[int, int]] = {"w": (5, -1), "b": (2, 1)}
#: colour -> its back rank index
BACK_RANK: dict[str, int] = {"w": 0, "b": 7}
FILES = "abcdefgh"
_CLOCK = re.compile(r"^[0-9]+$")
_SQUARE = re.compile(r"^([a-h])([1-8])$")

#: 64 squares, index file + 8 * rank (a1 = 0, h8 = 63); None for empty
Grid = tuple[str | None, ...]


class BadFen(ValueError):
    """A FEN in an answer (or, worse, an expectation) could not be read; says why."""


class Identity(NamedTuple):
    """What FIDE 9.2.3 compares: pieces, side to move, castling rights, a capturable e.p. square."""

    placement: Grid
    turn: str
    castling: frozenset[tuple[str, int]]  #: (colour "w"/"b", file of the castling rook)
    en_passant: int | None


class Position(NamedTuple):
    """A FEN as the harness compares it."""

    identity: Identity
    halfmove_clock: int
    fullmove_number: int


def read(fen: str) -> Position:
    """The position a six-field FEN describes; :class:`BadFen` naming the field if not."""
    fields = fen.split()
    if len(fields) != 6:
        raise BadFen(f"{len(fields)} fields, not 6")
    placement_text, turn, castling_text, ep_text, halfmove, fullmove = fields
    grid = _placement(placement_text)
    if turn not in EN_PASSANT_RANK:
        raise BadFen(f"side to move {turn!r} is not 'w' or 'b'")
    castling = _castling(grid, castling_text)
    en_passant = _en_passant(grid, turn, ep_text)
    if not _CLOCK.match(halfmove) or not _CLOCK.match(fullmove) or int(fullmove) < 1:
        raise BadFen(f"clocks {halfmove!r} {fullmove!r} are not a halfmove count and a move number")
    return Position(Identity(grid, turn, castling, en_passant), int(halfmove), int(fullmove))


def differences(a: Identity, b: Identity) -> list[str]:
    """The parts in which two identities differ, named for a failure message."""
    names = ("placement", "side to move", "castling rights", "en passant square")
    return [name for name, x, y in zip(names, a, b) if x != y]


def _placement(text: str) -> Grid:
    ranks = text.split("/")
    if len(ranks) != 8:
        raise BadFen(f"placement has {len(ranks)} ranks, not 8")
    grid: list[str | None] = [None] * 64
    for row, rank_text in enumerate(ranks):
        rank, file = 7 - row, 0
        for char in rank_text:
            if char in "12345678":
                file += int(char)
            elif char in PIECES:
                if file < 8:
                    grid[file + 8 * rank] = char
                file += 1
            else:
                raise BadFen(f"placement holds {char!r}, not a piece letter or 1-8")
        if file != 8:
            raise BadFen(f"rank {rank + 1} has {file} squares, not 8")
    return tuple(grid)


def _colour(letter: str) -> str:
    return "w" if letter.isupper() else "b"


def _castling(grid: Grid, text: str) -> frozenset[tuple[str, int]]:
    if text == "-":
        return frozenset()
    rights: set[tuple[str, int]] = set()
    for char in text:
        colour = _colour(char)
        rank = BACK_RANK[colour]
        king, rook = ("K", "R") if colour == "w" else ("k", "r")
        king_files = [f for f in range(8) if grid[f + 8 * rank] == king]
        rook_files = [f for f in range(8) if grid[f + 8 * rank] == rook]
        if not king_files:
            raise BadFen(f"castling right {char!r} without a king on its back rank")
        if char in "KQkq":
            side = [f for f in rook_files if (f > king_files[0]) == (char in "Kk")]
            if not side:
                raise BadFen(f"castling right {char!r} without a rook on that side of the king")
            rights.add((colour, max(side) if char in "Kk" else min(side)))
        elif char.lower() in FILES:
            file = FILES.index(char.lower())
            if file not in rook_files:
                raise BadFen(f"castling right {char!r} without a rook on that file")
            rights.add((colour, file))
        else:
            raise BadFen(f"castling field {text!r} holds {char!r}")
    return frozenset(rights)


def _en_passant(grid: Grid, turn: str, text: str) -> int | None:
    """The e.p. square if a legal e.p. capture onto it exists, else None."""
    if text == "-":
        return None
    match = _SQUARE.match(text)
    if match is None:
        raise BadFen(f"en passant field {text!r} is not a square")
    file, rank = FILES.index(match.group(1)), int(match.group(2)) - 1
    want_rank, step = EN_PASSANT_RANK[turn]
    if rank != want_rank:
        raise BadFen(f"en passant square {text} is on the wrong rank for the side to move")
    square, victim = file + 8 * rank, file + 8 * (rank + step)
    pawn, enemy_pawn = ("P", "p") if turn == "w" else ("p", "P")
    if grid[victim] != enemy_pawn:
        return None
    for captor_file in (file - 1, file + 1):
        captor = captor_file + 8 * (rank + step)
        if 0 <= captor_file < 8 and grid[captor] == pawn and _legal_capture(grid, turn, captor, square, victim):
            return square
    return None


def _legal_capture(grid: Grid, turn: str, captor: int, square: int, victim: int) -> bool:
    """Whether the e.p. capture ``captor`` x ``square`` leaves the mover's king unattacked."""
    after = list(grid)
    after[square], after[captor], after[victim] = after[captor], None, None
    king = "K" if turn == "w" else "k"
    kings = [s for s in range(64) if after[s] == king]
    return not any(_attacked(after, s, "b" if turn == "w" else "w") for s in kings)


def _attacked(grid: list[str | None], square: int, by: str) -> bool:
    """Whether a piece of colour ``by`` attacks ``square``."""
    file, rank = square % 8, square // 8

    def piece(df: int, dr: int) -> str | None:
        f, r = file + df, rank + dr
        return grid[f + 8 * r] if 0 <= f < 8 and 0 <= r < 8 else None

    def own(letters: str) -> set[str]:
        return set(letters.upper() if by == "w" else letters.lower())

    pawn_rank = -1 if by == "w" else 1
    if any(piece(df, pawn_rank) in own("p") for df in (-1, 1)):
        return True
    if any(piece(df, dr) in own("n") for df, dr in KNIGHT_STEPS):
        return True
    if any(piece(df, dr) in own("k") for df, dr in KING_STEPS):
        return True
    for rays, letters in ((ROOK_RAYS, own("rq")), (BISHOP_RAYS, own("bq"))):
        for df, dr in rays:
            distance = 1
            while 0 <= file + df * distance < 8 and 0 <= rank + dr * distance < 8:
                found = piece(df * distance, dr * distance)
                if found is not None:
                    if found in letters:
                        return True
                    break
                distance += 1
    return False
