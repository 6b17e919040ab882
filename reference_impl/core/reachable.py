"""Necessary conditions for a position to be reachable (FIDE 3.10.3), from the tables.

Material: a side never has more pawns than its initial array holds, and every piece
beyond the initial array's count of its type was promoted from a missing pawn.
Checks: the side not to move is not in check, and the checks on the side to move are
ones a single last move can have given: at most two checkers; with two, one of them was
uncovered (a rider whose line to the king a move opened) and the other is the piece that
moved from that line (or both were uncovered by an en passant capture); with an en
passant square the last move was that double step, so any check comes from the pawn or
through the square it left, and un-making that double step gives a position whose checks
fit a last move as well (the side now to move was not in check while the other side had
the move). Each failure is a :class:`~reference_impl.errors.FenError` naming the
condition.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..errors import FenError
from ..kept import KeptFor
from . import movegen
from .squares import BLACK, WHITE

if TYPE_CHECKING:
    from .board import Board
    from .tables import MoveTables

SIDES = ((WHITE, "White"), (BLACK, "Black"))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _counts(tables: "MoveTables") -> list[Counter[int]]:
    counts: list[Counter[int]] = [Counter(), Counter()]
    placement = tables.initial_fen.split()[0] if tables.initial_fen else ""
    for char in placement:
        pt = tables.by_letter.get(char.upper())
        if pt is not None:
            counts[WHITE if char.isupper() else BLACK][pt] += 1
    return counts


#: :func:`initial_counts` of the move tables asked last (FENs are read under the
#: standard and the Chess960 move layers in turn).
_INITIAL: KeptFor["MoveTables", list[Counter[int]]] = KeptFor(16, _counts)


def initial_counts(board: "Board") -> list[Counter[int]]:
    """Pieces per type in the ruleset's initial array, per colour (not to be modified)."""
    return _INITIAL(board.tables)


def check_material(board: "Board", fen: str) -> None:
    """Pawn counts within the initial array; extra pieces no more than the missing pawns."""
    tables = board.tables
    initial = initial_counts(board)
    for color, name in SIDES:
        have = [bb.bit_count() for bb in board.bb[color]]
        start_pawns = initial[color][tables.pawn] if tables.pawn is not None else 0
        pawns = have[tables.pawn] if tables.pawn is not None else 0
        if pawns > start_pawns:
            raise FenError(fen, f"{name} has {pawns} pawns, at most {start_pawns}")
        extra = 0
        for pt, count in enumerate(have):
            surplus = count - initial[color][pt]
            if pt == tables.pawn or surplus <= 0:
                continue
            if pt not in tables.promotion_types:
                raise FenError(fen, f"{name} has {count} {tables.types[pt].name}s, at most "
                                    f"{initial[color][pt]} (no pawn promotes to one)")
            extra += surplus
        if extra > start_pawns - pawns:
            raise FenError(fen, f"{name} has {extra} pieces beyond the initial array but only "
                                f"{start_pawns - pawns} missing pawns to have promoted")


def _arrivals(board: "Board", color: int, sq: int) -> list[frozenset[int]]:
    """Sets of squares one move by ``color`` ending on ``sq`` can have vacated.

    Geometry only (empty origins, open paths): a piece's own move, a pawn's push, double
    step or capture, a promotion onto ``sq``, an en passant capture (two squares).
    Castling is left to :func:`_castled_rook`.
    """
    tables = board.tables
    code = board.mailbox[sq]
    pt = code & 15
    empty = ~board.occupied
    out: list[frozenset[int]] = []
    pawn_like = pt == tables.pawn or (
        tables.promotion_ranks[color] >> sq & 1 and pt in tables.promotion_types)
    if pt != tables.pawn:
        for origin in _bits(empty & movegen.BB_ALL):
            if movegen.piece_attacks(board, pt, color, origin, board.occupied) >> sq & 1:
                out.append(frozenset({origin}))
    if pawn_like and tables.pawn is not None:
        push = tables.pawn_push_delta[color]
        empty &= ~tables.forbidden_pawn_ranks[color]  # no pawn ever stood there
        for origin in _bits(tables.pawn_captured_from[color][sq] & empty):
            out.append(frozenset({origin}))
        back = sq - push
        if 0 <= back < 64 and empty >> back & 1 and tables.pawn_push[color][back] >> sq & 1:
            out.append(frozenset({back}))
            far = back - push
            if 0 <= far < 64 and empty >> far & 1 and tables.pawn_double[color][far] >> sq & 1:
                out.append(frozenset({far}))
        if pt == tables.pawn and tables.en_passant:
            mover = color ^ 1  # the side whose double step passed over sq
            captured = sq + tables.pawn_push_delta[mover]
            start = sq - tables.pawn_push_delta[mover]
            if (0 <= captured < 64 and 0 <= start < 64 and empty >> captured & 1
                    and tables.double_step_ranks[mover] >> start & 1):
                for origin in _bits(tables.pawn_captured_from[color][sq] & empty):
                    out.append(frozenset({origin, captured}))
    return out


def _castled_rook(board: "Board", color: int, sq: int) -> bool:
    """A castling-type rook on its first rank with its king there: it may have castled."""
    tables = board.tables
    if tables.castling is None or board.mailbox[sq] & 15 != tables.castling.rook_type:
        return False
    rank = 0 if color == WHITE else 7
    return sq >> 3 == rank and board.king_square(color) >> 3 == rank


def before_double_step(board: "Board") -> "Board":
    """The position the en passant square announces the last move came from: the pawn
    back on its origin, the other side to move, no en passant square (FIDE 3.7.2)."""
    tables = board.tables
    them = board.turn ^ 1
    assert tables.pawn is not None, "an en passant square implies a pawn table"
    delta = tables.pawn_push_delta[them]
    prior = board.copy(stack=False)
    prior._remove(board.ep_square + delta)
    prior._put(board.ep_square - delta, them, tables.pawn)
    prior.turn, prior.ep_square = them, -1
    return prior


def check_checks(board: "Board", fen: str) -> None:
    """The side not to move is not in check; the checks given fit one last move; with an
    en passant square, the position before the double step passes the same test."""
    _check_last_move(board, fen)
    if board.ep_square >= 0:
        try:
            _check_last_move(before_double_step(board), fen)
        except FenError as error:
            raise FenError(fen, f"before the double step the en passant square announces, "
                                f"{error.reason}") from None


def _check_last_move(board: "Board", fen: str) -> None:
    tables = board.tables
    us, them = board.turn, board.turn ^ 1
    if movegen.attackers(board, us, board.king_square(them), board.occupied):
        raise FenError(fen, "the side not to move is in check")
    king = board.king_square(us)
    checkers = _bits(movegen.checkers(board))
    if len(checkers) > 2:
        raise FenError(fen, f"the side to move is in check by {len(checkers)} pieces, at most 2")
    if not checkers:
        return
    names = " and ".join(sorted(f"{tables.types[board.mailbox[c] & 15].name}" for c in checkers))
    if board.ep_square >= 0:
        landing = board.ep_square + tables.pawn_push_delta[them]
        origin = board.ep_square - tables.pawn_push_delta[them]
        before = (board.occupied & ~(1 << landing)) | (1 << origin)
        if len(checkers) > 1 or (checkers[0] != landing
                                 and movegen.attackers(board, them, king, before)):
            raise FenError(fen, f"the check by the {names} cannot come from the double step "
                                "the en passant square announces")
        return
    # A rider uncovered by the last move: its line to the king passed over a vacated square.
    lines = {c: tables.between[c][king] for c in checkers
             if tables.between[c][king] and tables.types[board.mailbox[c] & 15].groups[them]}
    if len(checkers) == 1:
        if checkers[0] in lines or _arrivals(board, them, checkers[0]) \
                or _castled_rook(board, them, checkers[0]):
            return
        raise FenError(fen, f"no last move can have given the check by the {names}")
    first, second = checkers
    if tables.between[first][second] >> king & 1:
        raise FenError(fen, f"the {names} check from both sides of the king at once")
    for mover, uncovered in ((first, second), (second, first)):
        if uncovered not in lines:
            continue
        if _castled_rook(board, them, mover):
            return
        if any(vacated & set(_bits(lines[uncovered])) for vacated in _arrivals(board, them, mover)):
            return
    if first in lines and second in lines:  # an en passant capture uncovers two lines
        for sq in _bits(board.bb[them][tables.pawn] if tables.pawn is not None else 0):
            for vacated in _arrivals(board, them, sq):
                if len(vacated) == 2 and all(vacated & set(_bits(lines[c])) for c in checkers):
                    return
    raise FenError(fen, f"no last move can have given check by both the {names}")
