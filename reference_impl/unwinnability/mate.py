"""Necessary conditions for a checkmate, checked against the static stage's regions.

Given the fixed point of :mod:`.static` (frozen units, and every other
unit's region and reach), :func:`cannot_mate` looks for a square ``s`` on which the
winner could ever mate the loser's king. Every test below is necessary for a mate on
``s``, so when no square survives, no mate is reachable: a proof.

For a candidate ``s`` (in the loser king's region):

1. some non-royal winner unit ``u`` gives the check: for a piece, from a square ``c``
   in its region from which it attacks ``s`` (a pawn unit is taken with its whole reach);
2. every square the king could step to from ``s`` is covered: by ``u`` from ``c``, by the
   reach of any other winner unit, by the winner's frozen units, or by the winner's
   king from one square ``k`` of its region not next to ``s`` (kings never touch), or it
   holds a loser unit: a frozen one, or a mobile one that can stand there. Blocking loser
   units are matched one per square (a unit stands on one square at a time). The
   checker's own square ``c``, if next to ``s``, must be covered by the others or the king.

A king's step into one of its dead ends (see :mod:`.static`) ends the game, so the
position after it is checked on its own: the other side has no move there, so it is
checkmate only if the step uncovered a check. :func:`mate_on_arrival` looks for a unit
of the winner (on a square of its region, or a frozen one) whose line to a square of
the loser king's region is blocked by the king's square before the step and open after.
Where it finds one, the analysis without dead ends (which covers every reachable
position, that one included) decides instead.

Results are cached by the analysis' content: pieces wandering inside their regions give
the same regions, so the searches ask the same question many times.
"""

from __future__ import annotations

from ..core.squares import BLACK, WHITE, Bitboard, scan
from ..core.tables import PieceType
from .static import Placement, StaticAnalysis, Unit, analyse_static, memo, piece_attacks


def cannot_mate(placement: Placement, analysis: StaticAnalysis, color: int) -> bool:
    """True if ``color`` provably can never checkmate; False means "no proof"."""
    cache = memo(placement.tables, "mate")
    key = (
        color,
        tuple(analysis.frozen),
        tuple(analysis.guarded),
        tuple(analysis.dead_ends),
        tuple((u.type_index, u.color, u.royal, u.region, u.reach) for u in analysis.units),
    )
    hit = cache.get(key)
    if hit is None:
        if mate_on_arrival(placement, analysis, color):
            hit = _cannot_mate(placement, analyse_static(placement, dead_ends=False), color)
        else:
            hit = _cannot_mate(placement, analysis, color)
        cache[key] = hit
    return hit


def mate_on_arrival(placement: Placement, analysis: StaticAnalysis, color: int) -> bool:
    """Could a step of ``color``'s king into a dead end uncover a check (then it is mate)?"""
    ends = analysis.dead_ends[color]
    king, target = analysis.king(color), analysis.king(1 - color)
    if not ends or king is None or target is None:
        return False
    tables = placement.tables
    royal = tables.types[tables.royal]
    walls = analysis.frozen[WHITE] | analysis.frozen[BLACK]
    lines: list[tuple[PieceType, Bitboard]] = []  # a piece type and the squares it may check from
    for unit in analysis.units:
        if unit.color == color and not unit.royal:
            lines.append((tables.types[unit.type_index], unit.region))
            if tables.types[unit.type_index].is_pawn:
                lines.extend((tables.types[t], unit.region) for t in tables.promotion_types)
    for (type_index, c), bb in placement.pieces.items():
        if c == color and type_index != tables.royal and bb & analysis.frozen[color]:
            lines.append((tables.types[type_index], bb & analysis.frozen[color]))
    for o in scan(king.region):
        for s in scan(piece_attacks(royal, color, o, walls) & ends):
            for k in scan(target.region & ~(1 << s | 1 << o)):
                for piece, squares in lines:
                    for r in scan(squares & ~(1 << s | 1 << o | 1 << k)):
                        if (
                            piece_attacks(piece, color, r, walls) >> k & 1
                            and not piece_attacks(piece, color, r, walls | 1 << o) >> k & 1
                            and piece_attacks(piece, color, r, walls | 1 << s) >> k & 1
                        ):
                            return True
    return False


def _matchable(squares: Bitboard, regions: list[Bitboard]) -> bool:
    """Can each square get its own unit whose region holds it (bipartite matching)?"""
    owner: dict[int, int] = {}  # unit index -> square

    def assign(sq: int, seen: set[int]) -> bool:
        for i, region in enumerate(regions):
            if region >> sq & 1 and i not in seen:
                seen.add(i)
                if i not in owner or assign(owner[i], seen):
                    owner[i] = sq
                    return True
        return False

    return all(assign(sq, set()) for sq in scan(squares))


def _cannot_mate(placement: Placement, analysis: StaticAnalysis, color: int) -> bool:
    tables = placement.tables
    loser = 1 - color
    king = analysis.king(loser)
    if king is None:
        return False
    walls = analysis.frozen[WHITE] | analysis.frozen[BLACK]
    royal = tables.types[tables.royal]
    checkers: list[Unit] = []
    own_king_region = 0
    blockers: list[Bitboard] = []
    for unit in analysis.units:
        if unit.color == color:
            if unit.royal:
                own_king_region |= unit.region
            else:
                checkers.append(unit)
        elif not unit.royal:
            blockers.append(unit.region)
    fixed_cover = analysis.guarded[color]
    fixed_block = analysis.frozen[loser]
    all_reach = 0
    for unit in checkers:
        all_reach |= unit.reach
    block_union = 0
    for region in blockers:
        block_union |= region
    for s in scan(king.region & all_reach):
        steps = piece_attacks(royal, loser, s, walls)
        open_steps = steps & ~(fixed_cover | fixed_block)
        # Cheap filter: everything any unit could do at once.
        if open_steps & ~(all_reach | block_union) and not _king_can_cover(
            royal, color, own_king_region, steps | 1 << s, open_steps & ~(all_reach | block_union), walls
        ):
            continue
        for index, unit in enumerate(checkers):
            if not unit.reach >> s & 1:
                continue
            others = 0
            for j, other in enumerate(checkers):
                if j != index:
                    others |= other.reach
            if _mate_with_checker(placement, unit, s, steps, open_steps & ~others, own_king_region, blockers, walls, color):
                return False
    return True


def _king_can_cover(royal, color: int, region: Bitboard, near: Bitboard, needed: Bitboard, walls: Bitboard) -> bool:
    """Is there a square in ``region`` outside ``near`` from which the king covers ``needed``?"""
    if not region:
        return False
    for k in scan(region & ~near):
        if not needed & ~piece_attacks(royal, color, k, walls):
            return True
    return False


def _mate_with_checker(
    placement: Placement,
    unit: Unit,
    s: int,
    steps: Bitboard,
    uncovered: Bitboard,
    king_region: Bitboard,
    blockers: list[Bitboard],
    walls: Bitboard,
    color: int,
) -> bool:
    """Could ``unit`` give a mate on ``s`` with the help described in the module docstring?"""
    tables = placement.tables
    piece = tables.types[unit.type_index]
    royal = tables.types[tables.royal]
    if piece.is_pawn:
        squares = [(unit.reach, -1)]
    else:
        squares = []
        for c in scan(unit.region & ~(1 << s)):
            attacks = piece_attacks(piece, color, c, walls)
            if attacks >> s & 1:
                squares.append((attacks, c))
    for attacks, c in squares:
        escapes = uncovered & ~attacks
        if c >= 0 and steps >> c & 1:
            escapes |= uncovered & 1 << c  # the king could take the checker
        near = steps | 1 << s | (1 << c if c >= 0 else 0)
        places: list[int | None] = list(scan(king_region & ~near)) if king_region else [None]
        for k in places:
            rest = escapes if k is None else escapes & ~piece_attacks(royal, color, k, walls)
            if c >= 0 and rest >> c & 1:
                continue
            if _matchable(rest, blockers):
                return True
    return False
