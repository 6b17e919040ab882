"""The static stage of the unwinnability analysis: what every unit could ever do.

The stage over-approximates everything a unit could ever do from a position, without
playing a move; :mod:`.mate` then checks the conditions a checkmate
needs against it. It only ever supports "proven: this side cannot mate" or "no proof".

1. *Frozen units.* A unit is frozen when, in every position reachable from this one,
   it stands on its square. A pawn: its push square holds a frozen unit, no enemy unit
   can ever stand on a square it captures to (nor is it the en passant square), and no
   enemy can ever take it (a king cannot take a unit guarded by a frozen unit). A
   piece: every square it attacks holds a frozen unit of its own side, and it cannot
   be taken. A king: every square next to it holds its own frozen unit or is guarded
   by a frozen enemy. Castling rights keep the king and rook concerned mobile. The
   set is the greatest fixed point: start with every unit frozen and thaw until
   nothing changes.
2. *Regions.* With the frozen units as the only obstacles, every other piece's region
   is the flood fill of its moves (a king never enters a square a frozen enemy
   guards), and its reach is everything it attacks from its region. A mobile pawn's
   cone grows by pushes and by captures onto squares where a non-royal enemy may
   stand (a least fixed point); a cone that meets the promotion rank adds the regions
   of the promoted pieces. Facing mobile pawns: an *anchored* one (it never leaves its
   file, never promotes, is never taken) stops the other's pushes at its square.
3. *Dead ends.* When one side's only unit that may move is its king (no castling
   right on the board, every other unit's region its own square), some squares next to the other
   king end the game when that king steps there: from every square the stuck king may
   stand on (and not next to it), each of its steps is onto its own frozen unit, onto a
   square a frozen enemy guards, or next to the arrival square, and its other units
   have no move either. The arriving king's region leaves them out, and a unit it
   would capture there counts as never taken: the position after that move is final
   (stalemate, or a checkmate that :mod:`.mate` checks separately, since only a
   discovered check can give it).

Soundness: by induction over legal moves, frozen units stay put and every other unit
stays inside its region, because each region is closed under the unit's moves with
fewer obstacles than the real board has (for an anchored pawn: it stays on its file,
and pawns on one file cannot pass each other); the one exception is a king's step into
a dead end, after which no move follows. Movement comes from the ruleset's
compiled tables; nothing here knows the pieces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reference_impl.records import record

from ..core.squares import BB_ALL, BLACK, WHITE, Bitboard, scan
from ..core.tables import MoveTables, PieceType
from ..kept import KeptAnswers

#: Safety valve for the fixed point; each round thaws at least one unit.
_MAX_ROUNDS = 64


@record
class Placement:
    """What the static stage needs to know about a position."""

    tables: MoveTables
    #: ``(type index, colour) -> bitboard`` for every piece type on the board.
    pieces: dict[tuple[int, int], Bitboard]
    #: The en passant target square if a capture there may be legal now, else ``None``.
    ep_square: int | None = None
    #: Squares of the rooks that still hold castling rights.
    castling: Bitboard = 0


@dataclass
class Unit:
    """One piece that may move: its region (where it may stand) and reach (what it attacks)."""

    type_index: int
    color: int
    square: int
    royal: bool
    region: Bitboard = 0
    reach: Bitboard = 0


@dataclass
class StaticAnalysis:
    """The fixed point: frozen pawns per colour and every other unit's region and reach."""

    frozen: list[Bitboard]
    #: Squares each colour's frozen units attack for ever (kings never enter them).
    guarded: list[Bitboard]
    units: list[Unit] = field(default_factory=list)
    #: Per colour, the squares whose entry by its king leaves the other side no legal move.
    dead_ends: list[Bitboard] = field(default_factory=lambda: [0, 0])

    def king(self, color: int) -> Unit | None:
        return next((u for u in self.units if u.royal and u.color == color), None)


def piece_attacks(piece: PieceType, color: int, sq: int, occupied: Bitboard) -> Bitboard:
    """The squares ``piece`` of ``color`` on ``sq`` attacks with ``occupied`` blocking riders."""
    bb = piece.leaps[color][sq] if piece.leaps[color] else 0
    for group in piece.groups[color]:
        bb |= group.table[sq][occupied & group.masks[sq]]
    return bb


#: Memo tables per compiled ruleset (flood fills and pawn cones recur all through a
#: search). Each is tied to its MoveTables object and cleared when it grows too big.
_MEMO_SIZE = 200_000
_MEMOS: KeptAnswers[tuple[MoveTables, dict]] = KeptAnswers(64)


def memo(tables: MoveTables, name: str) -> dict:
    """The memo dictionary ``name`` for ``tables`` (fresh if the tables are new)."""
    entry = _MEMOS.get((id(tables), name))
    if entry is None or entry[0] is not tables or len(entry[1]) > _MEMO_SIZE:
        entry = (tables, {})
        _MEMOS.put((id(tables), name), entry)
    return entry[1]


def _flood(
    tables: MoveTables, piece: PieceType, color: int, seeds: Bitboard, walls: Bitboard, allowed: Bitboard
) -> tuple[Bitboard, Bitboard]:
    """Region (closure of moves inside ``allowed``) and reach of a piece starting on ``seeds``."""
    cache = memo(tables, "flood")
    key = (piece.index, color, seeds, walls, allowed)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = _flood_uncached(piece, color, seeds, walls, allowed)
    return hit


def _flood_uncached(piece: PieceType, color: int, seeds: Bitboard, walls: Bitboard, allowed: Bitboard) -> tuple[Bitboard, Bitboard]:
    region, reach, frontier = seeds, 0, seeds
    while frontier:
        new = 0
        for sq in scan(frontier):
            attacked = piece_attacks(piece, color, sq, walls)
            reach |= attacked
            new |= attacked & allowed
        frontier = new & ~region
        region |= new
    return region, reach


def _pawn_cone(
    tables: MoveTables, color: int, sq: int, walls: Bitboard, prey: Bitboard, block: Bitboard = 0
) -> tuple[Bitboard, Bitboard]:
    """Squares a mobile pawn may ever stand on, and its reach.

    Pushes go to any square that is not a wall (nor in ``block``, the facing pawn of a
    locked pair); captures only to squares in ``prey`` (where an enemy unit may ever
    stand, or the current en passant square).
    """
    region, reach, frontier = 1 << sq, 0, 1 << sq
    promotion = tables.promotion_ranks[color]
    while frontier:
        new = 0
        for s in scan(frontier):
            if promotion >> s & 1:
                continue
            captures = tables.pawn_captures[color][s]
            reach |= captures
            push = tables.pawn_push[color][s] & ~walls & ~block
            if push:
                new |= push | (tables.pawn_double[color][s] & ~walls & ~block)
            new |= captures & prey & ~walls
        frontier = new & ~region
        region |= new
    return region, reach


def _castling_seeds(placement: Placement, color: int, royal_sq: int) -> tuple[Bitboard, Bitboard]:
    """Destinations of the king and rooks of ``color`` if it still has castling rights."""
    table = placement.tables.castling
    rank = royal_sq >> 3
    rights = placement.castling & (0xFF << (8 * rank))
    if table is None or not rights:
        return 0, 0
    king, rook = 0, 0
    for side in table.sides:
        king |= 1 << (rank * 8 + side.king_to_file)
        rook |= 1 << (rank * 8 + side.rook_to_file)
    return king, rook


def analyse_static(placement: Placement, dead_ends: bool = True) -> StaticAnalysis:
    """Compute the frozen units and every other unit's region and reach (the greatest
    fixed point); with ``dead_ends=False``, without the kings' dead ends."""
    occupied_by = [0, 0]
    for (_, color), bb in placement.pieces.items():
        occupied_by[color] |= bb
    frozen = list(occupied_by)
    for _ in range(_MAX_ROUNDS):
        analysis = _regions(placement, frozen, dead_ends)
        thawed = _thaw(placement, analysis, occupied_by)
        if thawed == frozen:
            return analysis
        frozen = thawed
    return _regions(placement, [0, 0], dead_ends)


def guarded_by(placement: Placement, color: int, frozen: Bitboard) -> Bitboard:
    """Squares the frozen units of ``color`` attack whatever else stands on the board."""
    tables = placement.tables
    bb = 0
    for (type_index, c), pieces in placement.pieces.items():
        if c != color:
            continue
        piece = tables.types[type_index]
        for sq in scan(pieces & frozen):
            if piece.is_pawn:
                bb |= tables.pawn_captures[color][sq]
            else:
                bb |= piece_attacks(piece, color, sq, BB_ALL)
    return bb


def _regions(placement: Placement, frozen: list[Bitboard], dead_ends: bool = True) -> StaticAnalysis:
    """Regions and reaches of the units that are not frozen, given the frozen ones.

    Pieces do not depend on each other (only frozen units block them). Kings always get
    a unit (a frozen king's region is its square). Pawn cones come from :func:`_pawn_regions`.
    """
    tables = placement.tables
    walls = frozen[WHITE] | frozen[BLACK]
    guarded = [guarded_by(placement, c, frozen[c]) for c in (WHITE, BLACK)]
    analysis = StaticAnalysis(frozen=list(frozen), guarded=guarded)
    pawns: list[Unit] = []
    for (type_index, color), bb in sorted(placement.pieces.items()):
        piece = tables.types[type_index]
        for sq in scan(bb if piece.royal else bb & ~frozen[color]):
            unit = Unit(type_index, color, sq, piece.royal)
            analysis.units.append(unit)
            if piece.is_pawn:
                unit.region = 1 << sq
                pawns.append(unit)
                continue
            _flood_unit(placement, analysis, unit, walls, 0)
    if pawns:
        _pawn_regions(placement, analysis, pawns, walls)
    if dead_ends:
        _dead_ends(placement, analysis, walls)
    return analysis


def _flood_unit(placement: Placement, analysis: StaticAnalysis, unit: Unit, walls: Bitboard, avoid: Bitboard) -> None:
    """Region and reach of a piece (not a pawn); a king also keeps out of ``avoid``."""
    tables = placement.tables
    color, sq = unit.color, unit.square
    seeds = 1 << sq
    allowed = ~walls
    king_seeds, rook_seeds = (0, 0)
    king = placement.pieces.get((tables.royal, color), 0)
    if king:
        king_seeds, rook_seeds = _castling_seeds(placement, color, next(scan(king)))
    if unit.royal:
        allowed &= ~analysis.guarded[1 - color] & ~avoid
        seeds |= king_seeds & allowed
    elif tables.castling is not None and unit.type_index == tables.castling.rook_type and placement.castling >> sq & 1:
        seeds |= rook_seeds & allowed
    unit.region, unit.reach = _flood(tables, tables.types[unit.type_index], color, seeds, walls, allowed)


def _dead_ends(placement: Placement, analysis: StaticAnalysis, walls: Bitboard) -> None:
    """Each king's dead ends (see the module docstring), and its region without them."""
    ends = [_dead_ends_of(placement, analysis, c, walls) for c in (WHITE, BLACK)]
    analysis.dead_ends = ends
    for unit in analysis.units:
        if unit.royal and ends[unit.color] & unit.region:
            _flood_unit(placement, analysis, unit, walls, ends[unit.color])


def _dead_ends_of(placement: Placement, analysis: StaticAnalysis, color: int, walls: Bitboard) -> Bitboard:
    """Squares the king of ``color`` may step to after which the other side has no move
    (``walls``: the frozen units)."""
    tables = placement.tables
    stuck = 1 - color
    mover, king = analysis.king(color), analysis.king(stuck)
    if mover is None or king is None:
        return 0
    for unit in analysis.units:
        if unit.color == stuck and not unit.royal and unit.region != 1 << unit.square:
            return 0
    if placement.castling:
        return 0  # a castling right: another move for the stuck side, or a rook that checks on arrival
    royal = tables.types[tables.royal]
    # only frozen units block for ever: a unit that never moves may still be taken
    barred = analysis.frozen[stuck] | analysis.guarded[color]
    ends = 0
    for s in scan(mover.reach & ~(1 << mover.square) & ~analysis.frozen[color]):
        near = piece_attacks(royal, color, s, BB_ALL) | 1 << s
        if all(
            not piece_attacks(royal, stuck, k, walls) & ~barred & ~near
            for k in scan(king.region & ~(1 << s))
            if not piece_attacks(royal, stuck, k, BB_ALL) >> s & 1
        ):
            ends |= 1 << s
    return ends


def _facing_pairs(tables: MoveTables, pawns: list[Unit], walls: Bitboard) -> dict[int, int]:
    """Mobile pawns with a mobile enemy pawn next ahead on their file (no frozen unit
    between them), each the other's nearest: square -> square."""
    by_square = {u.square: u for u in pawns}
    pairs: dict[int, int] = {}
    for unit in pawns:
        sq = unit.square
        while True:
            ahead = tables.pawn_push[unit.color][sq]
            if not ahead:
                break
            sq = ahead.bit_length() - 1
            if walls >> sq & 1:
                break
            other = by_square.get(sq)
            if other is not None:
                if other.color != unit.color:
                    pairs[unit.square] = sq
                break
    return {a: b for a, b in pairs.items() if pairs.get(b) == a}


def _pawn_regions(placement: Placement, analysis: StaticAnalysis, pawns: list[Unit], walls: Bitboard) -> None:
    """Cones of the mobile pawns: a least fixed point inside a greatest one.

    Inside: captures land only where a non-royal enemy may stand, so cones are grown
    until they stop growing. Outside: of two mobile pawns facing each other on a file,
    one is *anchored* when it can never leave the file (no capture in its cone), never
    promote and never be taken; an anchored pawn stays on its file between its square
    and the other pawn for ever, so the other one's pushes stop at its square. Every
    paired pawn starts anchored and loses it when its cone breaks those conditions.
    """
    tables = placement.tables
    frozen = analysis.frozen
    ep = 0 if placement.ep_square is None else 1 << placement.ep_square
    pairs = _facing_pairs(tables, pawns, walls)
    anchored = set(pairs)
    while True:
        for unit in pawns:
            unit.region, unit.reach = 1 << unit.square, 0
        while True:
            stand = [ep, ep]  # where a pawn may capture: a non-royal enemy may stand there
            for unit in analysis.units:
                if not unit.royal:
                    stand[unit.color] |= unit.region
            changed = False
            for unit in pawns:
                before = unit.region
                other = pairs.get(unit.square)
                block = 1 << other if other in anchored else 0
                _pawn_unit(placement, unit, walls, stand[1 - unit.color] | frozen[1 - unit.color], block)
                changed |= unit.region != before
            if not changed:
                break
        adrift = _adrift(placement, analysis, pawns, anchored)
        if not adrift:
            return
        anchored -= adrift


def _adrift(placement: Placement, analysis: StaticAnalysis, pawns: list[Unit], anchored: set[int]) -> set[int]:
    """Squares of anchored pawns whose cone shows they may leave the file or be taken."""
    if not anchored:
        return set()
    take = [0, 0]
    for unit in analysis.units:
        if unit.royal:
            take[unit.color] |= unit.reach & ~analysis.guarded[1 - unit.color]
        else:
            take[unit.color] |= unit.reach
    adrift = set()
    for unit in pawns:
        if unit.square not in anchored:
            continue
        file_mask = 0x0101010101010101 << (unit.square & 7)
        if unit.region & ~file_mask or unit.region & placement.tables.promotion_ranks[unit.color]:
            adrift.add(unit.square)
        elif unit.region & take[1 - unit.color]:
            adrift.add(unit.square)
    return adrift


def _pawn_unit(placement: Placement, unit: Unit, walls: Bitboard, prey: Bitboard, block: Bitboard = 0) -> None:
    """A mobile pawn: its cone, and the regions of whatever it may promote to."""
    tables = placement.tables
    cache = memo(tables, "cone")
    key = (unit.color, unit.square, walls, prey, block)
    hit = cache.get(key)
    if hit is None:
        region, reach = _pawn_cone(tables, unit.color, unit.square, walls, prey, block)
        promotion_squares = region & tables.promotion_ranks[unit.color]
        if promotion_squares:
            for type_index in tables.promotion_types:
                piece = tables.types[type_index]
                r, a = _flood(tables, piece, unit.color, promotion_squares, walls, ~walls)
                region |= r
                reach |= a
        hit = cache[key] = (region, reach)
    unit.region, unit.reach = hit


def _thaw(placement: Placement, analysis: StaticAnalysis, occupied_by: list[Bitboard]) -> list[Bitboard]:
    """The units that stay frozen given the regions computed with the current frozen set."""
    tables = placement.tables
    frozen = analysis.frozen
    walls = frozen[WHITE] | frozen[BLACK]
    stand = [0, 0]  # where mobile units of each colour may ever stand
    take = [0, 0]  # where mobile non-royal units of each colour may ever capture
    king_take = [0, 0]
    for unit in analysis.units:
        stand[unit.color] |= unit.region
        if unit.royal:
            king_take[unit.color] |= unit.reach & ~analysis.dead_ends[unit.color]
        else:
            take[unit.color] |= unit.reach
    result = [0, 0]
    ep = placement.ep_square
    for (type_index, color), bb in placement.pieces.items():
        piece = tables.types[type_index]
        enemy = 1 - color
        for sq in scan(bb & frozen[color]):
            if placement.castling & (0xFF << (sq & ~7)) and (piece.royal or placement.castling >> sq & 1):
                continue  # castling may still move it
            if piece.royal:
                if piece_attacks(piece, color, sq, walls) & ~frozen[color] & ~analysis.guarded[enemy]:
                    continue
                result[color] |= 1 << sq
                continue
            if take[enemy] >> sq & 1:
                continue
            if king_take[enemy] >> sq & 1 and not analysis.guarded[color] >> sq & 1:
                continue
            if piece.is_pawn:
                if tables.pawn_push[color][sq] & ~walls:
                    continue
                captures = tables.pawn_captures[color][sq]
                if captures & (stand[enemy] | occupied_by[enemy]):
                    continue
                if ep is not None and captures >> ep & 1:
                    continue
            elif piece_attacks(piece, color, sq, walls) & ~frozen[color]:
                continue
            result[color] |= 1 << sq
    return result
