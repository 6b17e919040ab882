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
3. *A lone checker.* When the checker ``u`` is a piece (not a pawn) and no other winner
   unit's reach holds ``s`` (for instance, ``u`` is the winner's only mobile non-royal
   unit), a loser unit standing on a square the king needs blocked must not be able to
   capture ``u`` on ``c`` or step between ``c`` and ``s``: that move would be legal and
   answer the check, so the position would not be mate. Such a unit is left out of the
   matching for that square (see :func:`_answers_check`).

A king's step into one of its dead ends (see :mod:`.static`) ends the game, so the
position after it is checked on its own: the other side has no move there, so it is
checkmate only if the step uncovered a check. :func:`mate_on_arrival` looks for a unit
of the winner (on a square of its region, or a frozen one) whose line to a square of
the loser king's region is blocked by the king's square before the step and open after.
Where it finds one, the analysis without dead ends (which covers every reachable
position, that one included) decides instead.

Why step 3 is sound. Take a checkmate reachable from the position: the loser's king on
``s``, in check from the lone checker ``u`` on ``c``, the winner's king on ``k``, the
occupied squares ``O``, and on a square ``n`` that steps 1-2 leave to be blocked a loser
unit ``X`` (mobile: frozen units are never matched, and a winner unit there could be
taken by the king). On any board that holds every frozen unit, nothing of the winner
but ``u`` attacks ``s``: no other mobile winner unit, whose reach (all it attacks from
anywhere in its region with only the frozen units as obstacles; for a pawn, what it
promotes to attacks too) misses ``s``; no frozen winner piece, which attacks only its
own frozen units even with only the frozen units as obstacles (that keeps it frozen);
no frozen winner pawn, which attacks only squares of ``guarded``, where the loser's king
never goes (the step is skipped when ``s`` is guarded: the king may stand there now);
and not the winner's king, as the step is taken only for squares ``k`` from which the
king's moves, with only the frozen units as obstacles, miss ``s`` (for the rulesets'
king, every ``k`` tried: kings never stand next to each other).

Attacks only shrink as squares fill: a rider's ray stops at the first unit, a leap
ignores them. Call ``x`` *between* when filling it cuts the attack of ``u`` from ``c``
on ``s`` with only the frozen units on the board. ``O`` holds every frozen unit, so a
filled ``x`` would cut the check: every ``x`` is empty in the mate. If ``X`` attacks
``c`` or some ``x`` even with every square filled, it attacks it on any board, so it may
move there (``c`` holds an enemy piece, ``x`` is empty), and the move is legal:
afterwards ``u`` is taken, or its attack on ``s`` is cut (the board still holds every
frozen unit and ``x``), and nothing else attacks ``s`` (the board still holds every
frozen unit). The loser has a legal move, so it is not mate: a mate on ``s`` from ``c``
needs the squares left to block held by units that cannot do this, and the matching
without them is necessary too. A pawn's unit may stand on ``n`` as the pawn or as any
piece it promotes to, so it is left out only if each of them could answer: the pawn by a
capture onto ``c`` or a single push onto an ``x`` (a push to the last rank is a
promotion, counted only where the ruleset has promotion pieces; no pawn stands on the
last rank), each piece as above. Where another winner unit's reach holds ``s``, a double
check or a pin could make such a move illegal, so the step is not taken then.

Results are cached by the analysis' content: pieces wandering inside their regions give
the same regions, so the searches ask the same question many times.
"""

from __future__ import annotations

from ..core.squares import BB_ALL, BLACK, WHITE, Bitboard, scan
from ..core.tables import MoveTables, PieceType
from .static import Placement, StaticAnalysis, Unit, analyse_static, memo, piece_attacks


def cannot_mate(placement: Placement, analysis: StaticAnalysis, color: int, lone_checker: bool = True) -> bool:
    """True if ``color`` provably can never checkmate; False means "no proof". With
    ``lone_checker=False``, without step 3 (what it adds is tested against searches)."""
    cache = memo(placement.tables, "mate")
    key = (
        color,
        lone_checker,
        tuple(analysis.frozen),
        tuple(analysis.guarded),
        tuple(analysis.dead_ends),
        tuple((u.type_index, u.color, u.royal, u.region, u.reach) for u in analysis.units),
    )
    hit = cache.get(key)
    if hit is None:
        if mate_on_arrival(placement, analysis, color):
            hit = _cannot_mate(placement, analyse_static(placement, dead_ends=False), color, lone_checker)
        else:
            hit = _cannot_mate(placement, analysis, color, lone_checker)
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


def _cannot_mate(placement: Placement, analysis: StaticAnalysis, color: int, lone_checker: bool = True) -> bool:
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
    blocker_types: list[int] = []
    for unit in analysis.units:
        if unit.color == color:
            if unit.royal:
                own_king_region |= unit.region
            else:
                checkers.append(unit)
        elif not unit.royal:
            blockers.append(unit.region)
            blocker_types.append(unit.type_index)
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
            # a lone checker (step 3): blockers that could answer its check do not count
            lone = lone_checker and not others >> s & 1 and not fixed_cover >> s & 1
            answering = blocker_types if lone and not tables.types[unit.type_index].is_pawn else None
            if _mate_with_checker(
                placement, unit, s, steps, open_steps & ~others, own_king_region, blockers, walls, color, answering
            ):
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
    blocker_types: list[int] | None = None,
) -> bool:
    """Could ``unit`` give a mate on ``s`` with the help described in the module docstring?

    With ``blocker_types`` (the type of each blocker; ``unit`` is a lone checker, step 3),
    a blocker is not matched to a square from which it could answer the check."""
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
        narrowed = blockers
        if blocker_types is not None and escapes:
            narrowed = _not_answering(placement, piece, c, s, escapes, blockers, blocker_types, walls, color)
        places: list[int | None] = list(scan(king_region & ~near)) if king_region else [None]
        for k in places:
            king_attacks = 0 if k is None else piece_attacks(royal, color, k, walls)
            rest = escapes & ~king_attacks
            if c >= 0 and rest >> c & 1:
                continue
            if _matchable(rest, narrowed if not king_attacks >> s & 1 else blockers):
                return True
    return False


def _not_answering(
    placement: Placement,
    piece: PieceType,
    c: int,
    s: int,
    escapes: Bitboard,
    blockers: list[Bitboard],
    blocker_types: list[int],
    walls: Bitboard,
    color: int,
) -> list[Bitboard]:
    """The blockers' regions without the squares of ``escapes`` from which each could
    capture the lone checker ``piece`` on ``c`` or step between it and ``s`` (step 3)."""
    tables = placement.tables
    loser = 1 - color
    between = 0
    for x in scan(piece_attacks(piece, color, c, walls) & ~(1 << s)):
        if not piece_attacks(piece, color, c, walls | 1 << x) >> s & 1:
            between |= 1 << x
    line = between | 1 << c
    answering: dict[int, Bitboard] = {}  # type index -> squares of ``escapes`` it answers from
    for type_index in set(blocker_types):
        blocker = tables.types[type_index]
        squares = 0
        for n in scan(escapes):
            if _answers_check(tables, blocker, loser, n, c, between, line):
                squares |= 1 << n
        answering[type_index] = squares
    return [region & ~answering[t] for region, t in zip(blockers, blocker_types)]


def _answers_check(
    tables: MoveTables, blocker: PieceType, color: int, n: int, c: int, between: Bitboard, line: Bitboard
) -> bool:
    """Can ``blocker`` of ``color`` on ``n`` take the checker on ``c`` or move onto a square
    of ``between`` (empty) in every position, whatever else stands on the board?

    A pawn's unit may stand on ``n`` as the pawn or as any piece it promotes to (its region
    holds both): it answers only if every one of them does; as the pawn, by a capture
    onto ``c`` or a single push onto ``between``, and never from the last rank, where no
    pawn stands."""
    if not blocker.is_pawn:
        return bool(piece_attacks(blocker, color, n, BB_ALL) & line)
    promotion = tables.promotion_ranks[color]
    if not promotion >> n & 1:
        push, capture = tables.pawn_push[color][n] & between, tables.pawn_captures[color][n] & 1 << c
        if not tables.promotion_types:
            push &= ~promotion
            capture &= ~promotion
        if not push | capture:
            return False
    return all(piece_attacks(tables.types[t], color, n, BB_ALL) & line for t in tables.promotion_types)
