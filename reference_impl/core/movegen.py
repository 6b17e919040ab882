"""Legal move generation over compiled tables.

Moves are packed ints inside the core (``from | to << 6 | promotion << 12 | flag << 16``,
``promotion`` = piece type + 1; helpers in :mod:`.codes`);
:class:`~reference_impl.core.board.Move` is the public form. ``legal_moves`` fills a list; ``count_legal`` returns the same number without
building moves (perft's last ply), by population count of the target sets.

Legality follows the Laws directly: pieces pinned to the royal piece move only along the
pin (3.9), a check must be answered (3.9), the king never steps onto an attacked square,
en passant is tried on the board (its two vacated squares can uncover a check), and
castling follows the ruleset's ``castling`` table (3.8.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The flags and ``encode`` are re-exported: they were defined here first.
from .codes import FLAG_CASTLE, FLAG_DOUBLE, FLAG_EN_PASSANT, FLAG_NORMAL, encode  # noqa: F401

if TYPE_CHECKING:
    from .board import Board

BB_ALL = (1 << 64) - 1


def attackers(board: "Board", color: int, sq: int, occupied: int) -> int:
    """Squares of ``color``'s pieces attacking ``sq`` with ``occupied`` as the occupancy."""
    tables = board.tables
    pieces = board.bb[color]
    pawn = tables.pawn
    result = 0 if pawn is None else tables.pawn_captured_from[color][sq] & pieces[pawn]
    for leaps_to, pt in tables.leapers_to[color]:
        result |= leaps_to[sq] & pieces[pt]
    for table, masks, users, lines in tables.riders_to[color]:
        mask = 0
        for pt in users:
            mask |= pieces[pt]
        if mask & lines[sq]:
            result |= table[sq][occupied & masks[sq]] & mask
    return result


def piece_attacks(board: "Board", pt: int, color: int, sq: int, occupied: int) -> int:
    """The squares a ``pt`` of ``color`` on ``sq`` attacks (pawns: capture squares)."""
    tables = board.tables
    piece = tables.types[pt]
    if piece.is_pawn:
        return tables.pawn_captures[color][sq]
    result = piece.leaps[color][sq] if piece.leaps[color] else 0
    for group in piece.groups[color]:
        result |= group.table[sq][occupied & group.masks[sq]]
    return result


def _pins(board: "Board", color: int, king: int) -> dict[int, int]:
    """Own pieces pinned to the king: square -> squares it may still move to."""
    tables = board.tables
    them = color ^ 1
    pieces = board.bb[them]
    occupied = board.occupied
    own = board.occ_co[color]
    between = tables.between[king]
    pins: dict[int, int] = {}
    for group, users in tables.attacker_groups[them]:
        snipers = 0
        for pt in users:
            snipers |= pieces[pt]
        snipers &= group.table[king][0]
        while snipers:
            low = snipers & -snipers
            snipers ^= low
            sniper = low.bit_length() - 1
            blockers = between[sniper] & occupied
            if blockers and blockers & (blockers - 1) == 0 and blockers & own:
                pins[blockers.bit_length() - 1] = between[sniper] | low
    return pins


def _en_passant_moves(board: "Board", color: int, king: int, from_mask: int = BB_ALL) -> list[int]:
    tables = board.tables
    ep = board.ep_square
    if ep < 0 or not tables.en_passant or tables.pawn is None:
        return []
    capturers = tables.pawn_captured_from[color][ep] & board.bb[color][tables.pawn] & from_mask
    victim = ep + tables.pawn_push_delta[color ^ 1]
    if not (0 <= victim < 64) or board.mailbox[victim] != ((color ^ 1) << 4 | tables.pawn):
        return []
    result = []
    while capturers:
        low = capturers & -capturers
        capturers ^= low
        from_sq = low.bit_length() - 1
        occupied = (board.occupied ^ low ^ (1 << victim)) | (1 << ep)
        if not attackers(board, color ^ 1, king, occupied) & ~(1 << victim):
            result.append(encode(from_sq, ep, 0, FLAG_EN_PASSANT))
    return result


def _castling_moves(board: "Board", color: int, king: int, checkers: int) -> list[int]:
    table = board.tables.castling
    if table is None or checkers and "king_from" in table.safe_squares:
        return []
    rights = board.castling_rights & board.occ_co[color] & board.bb[color][table.rook_type]
    back_rank = king & ~7
    result = []
    while rights:
        low = rights & -rights
        rights ^= low
        rook = low.bit_length() - 1
        if rook & ~7 != back_rank:
            continue
        king_side = rook > king
        side = next((s for s in table.sides if s.king_side == king_side), None)
        if side is None:
            continue
        king_to = back_rank + side.king_to_file
        rook_to = back_rank + side.rook_to_file
        others = board.occupied & ~(1 << king) & ~low
        must_be_empty = 0
        if table.empty_king_path:
            must_be_empty |= _span(king, king_to) | 1 << king_to
        if table.empty_rook_path:
            must_be_empty |= _span(rook, rook_to) | 1 << rook_to
        if others & must_be_empty:
            continue
        lifted = others if table.rook_removed else others | low
        safe = 0
        if "king_path" in table.safe_squares:
            safe |= _span(king, king_to)
        if "king_to" in table.safe_squares:
            safe |= 1 << king_to
        if "king_from" in table.safe_squares:
            safe |= 1 << king
        attacked = False
        while safe:
            bit = safe & -safe
            safe ^= bit
            if attackers(board, color ^ 1, bit.bit_length() - 1, lifted):
                attacked = True
                break
        if attacked:
            continue
        # The Laws never allow a move that leaves the own king in check (3.9).
        after = others | 1 << king_to | 1 << rook_to
        if attackers(board, color ^ 1, king_to, after) & ~(1 << rook_to):
            continue
        result.append(encode(king, rook, 0, FLAG_CASTLE))
    return result


def _span(a: int, b: int) -> int:
    """Squares strictly between ``a`` and ``b`` on one rank."""
    low, high = (a, b) if a < b else (b, a)
    return ((1 << high) - 1) & ~((2 << low) - 1) if high > low else 0


def _generate(board: "Board", out: list[int] | None, from_mask: int = BB_ALL, to_mask: int = BB_ALL) -> int:
    """Count legal moves from ``from_mask`` to ``to_mask``; append them to ``out`` when
    it is given. Castling counts as a move to the castling rook's square."""
    tables = board.tables
    color = board.turn
    them = color ^ 1
    pieces = board.bb[color]
    own = board.occ_co[color]
    enemy = board.occ_co[them]
    occupied = board.occupied
    king_bb = pieces[tables.royal]
    if not king_bb:
        return 0
    king = king_bb.bit_length() - 1
    checkers = attackers(board, them, king, occupied)
    count = 0

    # King steps: the destination must not be attacked once the king has left.
    royal = tables.types[tables.royal]
    targets = piece_attacks(board, tables.royal, color, king, occupied) & ~own & to_mask
    if not king_bb & from_mask:
        targets = 0
    without_king = occupied ^ king_bb
    while targets:
        low = targets & -targets
        targets ^= low
        to = low.bit_length() - 1
        if not attackers(board, them, to, without_king):
            count += 1
            if out is not None:
                out.append(king | to << 6)
    if checkers & (checkers - 1):
        return count  # double check: only the king moves

    evasion = ~own & to_mask
    if checkers:
        checker = checkers.bit_length() - 1
        evasion = (tables.between[king][checker] | checkers) & to_mask
    pins = _pins(board, color, king)
    pawn = tables.pawn
    n_promotions = len(tables.promotion_types)
    promotion_ranks = tables.promotion_ranks[color]
    for piece in tables.types:
        pt = piece.index
        if piece is royal:
            continue
        squares = pieces[pt] & from_mask
        while squares:
            low = squares & -squares
            squares ^= low
            sq = low.bit_length() - 1
            if pt == pawn:
                push = tables.pawn_push[color][sq] & ~occupied
                moves = push | (tables.pawn_captures[color][sq] & enemy)
                if push:
                    moves |= tables.pawn_double[color][sq] & ~occupied
                moves &= evasion
            else:
                moves = piece.leaps[color][sq] if piece.leaps[color] else 0
                for group in piece.groups[color]:
                    moves |= group.table[sq][occupied & group.masks[sq]]
                moves &= evasion & ~own
            if sq in pins:
                moves &= pins[sq]
            if not moves:
                continue
            if pt == pawn and moves & promotion_ranks:
                promoting = moves & promotion_ranks
                moves ^= promoting
                count += promoting.bit_count() * n_promotions
                if out is not None:
                    while promoting:
                        bit = promoting & -promoting
                        promoting ^= bit
                        to = bit.bit_length() - 1
                        for target in tables.promotion_types:
                            out.append(sq | to << 6 | (target + 1) << 12)
            count += moves.bit_count()
            if out is not None:
                while moves:
                    bit = moves & -moves
                    moves ^= bit
                    to = bit.bit_length() - 1
                    if pt == pawn and tables.pawn_double[color][sq] >> to & 1:
                        out.append(sq | to << 6 | FLAG_DOUBLE << 16)
                    else:
                        out.append(sq | to << 6)

    ep = board.ep_square
    special = _en_passant_moves(board, color, king, from_mask) if ep >= 0 and to_mask >> ep & 1 else []
    if king_bb & from_mask:
        special += [m for m in _castling_moves(board, color, king, checkers) if to_mask >> (m >> 6 & 63) & 1]
    if out is not None:
        out.extend(special)
    return count + len(special)


def legal_moves(board: "Board", from_mask: int = BB_ALL, to_mask: int = BB_ALL) -> list[int]:
    out: list[int] = []
    _generate(board, out, from_mask, to_mask)
    return out


def count_legal(board: "Board") -> int:
    return _generate(board, None)


def has_legal(board: "Board") -> bool:
    """Whether the side to move has a legal move (``count_legal`` is not 0): a king step
    to a square no enemy unit attacks settles it without generating the other moves."""
    tables = board.tables
    color = board.turn
    king_bb = board.bb[color][tables.royal]
    if not king_bb:
        return False
    king = king_bb.bit_length() - 1
    without_king = board.occupied ^ king_bb
    targets = piece_attacks(board, tables.royal, color, king, board.occupied) & ~board.occ_co[color]
    while targets:
        low = targets & -targets
        targets ^= low
        if not attackers(board, color ^ 1, low.bit_length() - 1, without_king):
            return True
    return _generate(board, None) > 0


def checkers(board: "Board") -> int:
    """Enemy pieces giving check to the side to move."""
    king_bb = board.bb[board.turn][board.tables.royal]
    if not king_bb:
        return 0
    return attackers(board, board.turn ^ 1, king_bb.bit_length() - 1, board.occupied)
