"""Material proofs without pawns: no checkmate by ``color`` exists for any sub-multiset.

Without pawns nothing can ever be added to the board: every later position holds a
sub-multiset of today's units, and each unit stands in its *region*, the squares its
moves reach on an empty board from where it stands now (a unit bound to one square
colour keeps it). So if no legal checkmate by ``color`` exists with units drawn from
today's material, each inside its region, ``color`` can never checkmate.

Whether such a mate exists is decided exactly by a search over *partial positions*
``S`` (sets of units on squares, every other square empty), grown one unit at a time.
A mate here is a position with the loser to move, in check, without a legal move,
that the Board's FEN test accepts (the winner king is not attacked; the checks fit one
last move, so two bishops of one colour never check at once). Castling is ignored (it only adds loser moves; a
ruleset that forbids it out of check adds none), which can only add mates.

**The proof (minimality argument).** Let ``P`` be a mate and ``S`` a subset of its
units. If ``S``, read as a whole position, is not a mate, one of these obligations
fails in ``S``, and for each one ``P`` holds a unit outside ``S`` in a small set of
candidates computed from ``S`` alone:

* *O1, no check:* some winner unit of ``P`` attacks the loser king ``k``; ``S`` has fewer
  blockers, so it is not in ``S``: it stands on an empty square of ``S`` attacking ``k``.
* *O2, a king step to b is legal in S:* in ``P`` either ``b`` holds a loser unit, or a
  unit blocks the step (a rider king), or after the step a winner unit attacks ``b``
  (occupancy ``P - k + b``). Such an attacker is not in ``S``, since ``S - k + b`` has
  fewer blockers: it stands where it attacks ``b`` in ``S - k + b``.
* *O3, a loser move a->b is legal in S:* in ``P`` ``b`` holds a loser unit, or a unit
  stands on the path from ``a`` to ``b``, or after the move a winner unit (not on ``b``)
  attacks ``k`` in ``P - a + b``, hence also in ``S - a + b``, so it is not in ``S``.
* *O4, the winner king is attacked in S:* in ``P`` it is not, so a unit of ``P`` stands
  on the path between (a leaper's attack cannot be blocked: no such ``P``).
* *O5, no winner king in S:* ``P`` has one, on some empty square of ``S``.
* *O6, S meets O1-O5 but its checks fit no last move:* then ``P``'s checkers differ
  from ``S``'s (whether the same checkers fit a last move only gets harder with more
  units: their lines are fixed, their possible origins must be empty). So ``P`` has a
  checker outside ``S`` (an O1 candidate) or a unit on the line of one of ``S``'s.

A path is blocked by a single unit on it because every rider reaches a square along
one ray only (checked on the tables; otherwise no proof is attempted). Starting from
``S = {k}`` and adding, for the failed obligation with fewest candidates, each candidate
in turn (within counts and regions), one branch always stays inside ``P`` and, since
``S`` only grows, ends at a mate no later than at ``S = P``. So if every branch dies
(an obligation with no candidate) no mate exists. A leaf is confirmed by the Board's
own checkmate test; a disagreement answers "no proof". Loser king squares are taken up to the board symmetries that keep
every piece's moves and every region. Movement comes from the compiled tables only.

The search runs compiled (``csrc/material.c``): the same partial positions grown in the
same order with the same node count, the leaf confirmed here and the FEN test of O6
asked of the Board here; :class:`_Search` is its specification
(``tests/test_unwinnability_material.py`` compares the two answer by answer and node by
node).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from reference_impl.records import record

from ..core import reachable
from ..core.board import Board
from ..core.squares import BB_ALL, BLACK, WHITE, Bitboard, offset, scan
from ..core.tables import MoveTables, PieceType
from ..errors import FenError
from . import _native  # type: ignore[attr-defined]  # the compiled extension: no stub
from .native import pack_tables
from .static import memo, piece_attacks

#: Partial positions a proof may visit before it gives up (answers "no proof"); about
#: a second of Python. The examples of the labelled data need a few thousand.
NODE_LIMIT = 6_000

#: Whether the search runs compiled (:func:`_compiled_search`); off, :class:`_Search`
#: (its specification) runs: the same answers.
COMPILED = True

#: Answers per (move layer, colour, material signature, node limit).
_RESULTS: dict[tuple, str | None] = {}
_MAX_RESULTS = 50_000
_TABLE_FACTS: dict[str, "_Facts"] = {}
_SYMMETRIES: dict[str, tuple[bytes, ...]] = {}
#: What the compiled search answers (its statuses): no mate, a leaf to confirm, the node
#: limit, a rider reaching a square along two rays (no proof attempted).
_NO_MATE, _LEAF, _LIMIT, _NO_PATHS = 0, 1, 2, 3


@record
class UnitClass:
    """Interchangeable units: same colour, type and region; ``count`` of them today."""

    color: int
    type_index: int
    region: Bitboard
    count: int


@dataclass
class _Facts:
    """What the proof needs from a ruleset's tables, computed once."""

    #: ``paths[type][color][a][b]``: squares strictly between a rider on ``a`` and ``b``
    #: (0 for leaps); ``None`` when some rider reaches a square along two rays.
    paths: list[list[list[dict[int, Bitboard]]]] | None
    #: Square maps of the board symmetries that keep every piece's moves.
    symmetries: list[list[int]]


def cannot_mate_by_material(board: Board, color: int, node_limit: int = NODE_LIMIT) -> bool:
    """True only with a proof that ``color`` can never checkmate from ``board`` (found
    within ``node_limit`` partial positions)."""
    return find_mate_pattern(board, color, node_limit) is None


def find_mate_pattern(board: Board, color: int, node_limit: int = NODE_LIMIT) -> str | None:
    """A FEN of a checkmate by ``color`` within ``board``'s material, or ``None`` if proven
    that none exists. Any case the proof does not cover answers ``"?"`` (not a FEN)."""
    tables = board.tables
    if _has_pawns(board) or board.castling_rights:
        return "?"
    if not COMPILED and _facts(tables).paths is None:
        return "?"
    classes = material_classes(board)
    signature = tuple(sorted((c.color, c.type_index, c.region, c.count) for c in classes))
    key = (tables.signature_without_castling, color, signature, node_limit)
    if key not in _RESULTS:
        if len(_RESULTS) > _MAX_RESULTS:
            _RESULTS.clear()
        try:  # a sub-multiset of legal material is legal material (the leaves rely on it)
            reachable.check_material(board, board.fen())
            if COMPILED:
                _RESULTS[key] = _compiled_search(board, classes, color, node_limit)[0]
            else:
                _RESULTS[key] = _Search(board, _facts(tables), classes, color, node_limit).run()
        except (FenError, _Budget):
            _RESULTS[key] = "?"
    return _RESULTS[key]


def _compiled_search(board: Board, classes: list[UnitClass], color: int, node_limit: int) -> tuple[str | None, int]:
    """(:meth:`_Search.run`'s answer, the partial positions it visits) by the compiled
    search; :class:`_Budget` at the node limit, as the search raises it. Material too
    large for the compiled search is searched by :class:`_Search`."""
    found = _native.material_search(
        pack_tables(board.tables), tuple((c.color, c.type_index, c.region, c.count) for c in classes), color,
        node_limit, _symmetry_maps(board.tables), lambda placement: _fen_ok(board, classes, color, placement))
    if found is None:
        search = _Search(board, _facts(board.tables), classes, color, node_limit)
        return search.run(), search.nodes
    status, placement, nodes = found
    if status == _NO_MATE:
        return None, nodes
    if status == _LEAF:
        return _confirm(board, classes, color, _placed(placement)), nodes
    if status == _LIMIT:
        raise _Budget
    return "?", nodes  # _NO_PATHS: one blocker may not do


def _placed(placement: bytes) -> dict[int, int]:
    """Square -> class of a compiled search's board (the class + 1 on each square)."""
    return {sq: cid - 1 for sq, cid in enumerate(placement) if cid}


def _fen_ok(board: Board, classes: list[UnitClass], winner: int, placement: bytes) -> bool:
    """O6 for the compiled search: does the Board's FEN test accept the placed units?"""
    try:
        Board.from_fen(_fen(board.tables, classes, 1 - winner, _placed(placement)), board.rules)
    except FenError:
        return False
    return True


def _fen(tables: MoveTables, classes: list[UnitClass], loser: int, placed: dict[int, int]) -> str:
    """The FEN of the partial position ``placed`` (square -> class), the loser to move."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            cid = placed.get(rank * 8 + file)
            if cid is None:
                empty += 1
                continue
            cls = classes[cid]
            letter = tables.types[cls.type_index].letter
            row += (str(empty) if empty else "") + (letter if cls.color == WHITE else letter.lower())
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if loser == WHITE else " b") + " - - 0 1"


def _confirm(board: Board, classes: list[UnitClass], winner: int, placed: dict[int, int]) -> str:
    """The FEN of a leaf if the Board's own test agrees it is a legal mate, else ``"?"``
    (the obligations missed something: no proof is claimed)."""
    loser = 1 - winner
    fen = _fen(board.tables, classes, loser, placed)
    leaf = Board.from_fen(fen, board.rules)
    winner_attacked = leaf.attackers(loser, leaf.king_square(winner))
    return fen if leaf.is_checkmate() and not winner_attacked else "?"


def _has_pawns(board: Board) -> bool:
    tables = board.tables
    return any(board.bb[c][t.index] for c in (WHITE, BLACK) for t in tables.types if t.is_pawn)


def material_classes(board: Board) -> list[UnitClass]:
    """Today's units grouped by colour, type and empty-board region."""
    tables = board.tables
    regions = memo(tables, "material-regions")
    counts: dict[tuple[int, int, Bitboard], int] = {}
    for color in (WHITE, BLACK):
        for piece in tables.types:
            for sq in scan(board.bb[color][piece.index]):
                region = regions.get((piece.index, color, sq))
                if region is None:
                    region = regions[(piece.index, color, sq)] = _region(piece, color, sq)
                counts[(color, piece.index, region)] = counts.get((color, piece.index, region), 0) + 1
    return [UnitClass(c, t, r, n) for (c, t, r), n in sorted(counts.items())]


def _region(piece: PieceType, color: int, sq: int) -> Bitboard:
    region, frontier = 1 << sq, 1 << sq
    while frontier:
        new = 0
        for s in scan(frontier):
            new |= piece_attacks(piece, color, s, 0)
        frontier = new & ~region
        region |= new
    return region


def _facts(tables: MoveTables) -> _Facts:
    key = tables.signature_without_castling
    facts = _TABLE_FACTS.get(key)
    if facts is None:
        facts = _TABLE_FACTS[key] = _Facts(_paths(tables), _symmetries(tables))
    return facts


def _symmetry_maps(tables: MoveTables) -> tuple[bytes, ...]:
    """:func:`_symmetries` as the compiled search takes them (64 bytes a map)."""
    key = tables.signature_without_castling
    maps = _SYMMETRIES.get(key)
    if maps is None:
        maps = _SYMMETRIES[key] = tuple(bytes(m) for m in _symmetries(tables))
    return maps


def _directions(piece: PieceType, color: int) -> set[tuple[int, int]]:
    return {d for group in piece.groups[color] for d in group.directions}


def _paths(tables: MoveTables) -> list[list[list[dict[int, Bitboard]]]] | None:
    result = []
    for piece in tables.types:
        per_color = []
        for color in (WHITE, BLACK):
            per_square = []
            for a in range(64):
                paths: dict[int, Bitboard] = {}
                for d in _directions(piece, color):
                    passed, sq = 0, offset(a, *d)
                    while sq is not None:
                        if sq in paths:
                            return None  # two rays reach one square: one blocker may not do
                        paths[sq] = passed
                        passed |= 1 << sq
                        sq = offset(sq, *d)
                for sq in scan(piece.leaps[color][a] if piece.leaps[color] else 0):
                    paths[sq] = 0  # a leap cannot be blocked
                per_square.append(paths)
            per_color.append(per_square)
        result.append(per_color)
    return result


def _dihedral() -> Iterator[tuple[list[int], Callable[[tuple[int, int]], tuple[int, int]]]]:
    """The eight symmetries of the square: the map of squares and the map of vectors."""
    for swap in (False, True):
        for flip_f in (False, True):
            for flip_r in (False, True):
                def vector(d: tuple[int, int], swap: bool = swap, flip_f: bool = flip_f, flip_r: bool = flip_r) -> tuple[int, int]:
                    f, r = (d[1], d[0]) if swap else d
                    return (-f if flip_f else f, -r if flip_r else r)
                mapping = []
                for sq in range(64):
                    f, r = sq & 7, sq >> 3
                    if swap:
                        f, r = r, f
                    mapping.append((7 - r if flip_r else r) * 8 + (7 - f if flip_f else f))
                yield mapping, vector


def _map(mapping: list[int], bb: Bitboard) -> Bitboard:
    out = 0
    for sq in scan(bb):
        out |= 1 << mapping[sq]
    return out


def _symmetries(tables: MoveTables) -> list[list[int]]:
    """Board maps under which every piece's leaps and ride directions map onto themselves."""
    found = []
    for mapping, vector in _dihedral():
        ok = True
        for piece in tables.types:
            for color in (WHITE, BLACK):
                if piece.is_pawn or not ok:
                    continue
                directions = _directions(piece, color)
                ok = {vector(d) for d in directions} == directions
                if ok and piece.leaps[color]:
                    ok = all(_map(mapping, piece.leaps[color][sq]) == piece.leaps[color][mapping[sq]] for sq in range(64))
        if ok:
            found.append(mapping)
    return found


class _Budget(Exception):
    """The node limit was reached: no proof."""


class _Search:
    """The growth of partial positions described in the module docstring."""

    def __init__(self, board: Board, facts: _Facts, classes: list[UnitClass], winner: int, node_limit: int) -> None:
        self.board = board
        self.tables = board.tables
        self.paths = facts.paths
        self.winner, self.loser = winner, 1 - winner
        self.node_limit = node_limit
        self.nodes = 0
        royal = self.tables.royal
        self.classes = classes
        self.loser_king = next((i for i, c in enumerate(classes) if c.color == self.loser and c.type_index == royal), None)
        self.winner_king = next((i for i, c in enumerate(classes) if c.color == winner and c.type_index == royal), None)
        self.loser_units = [i for i, c in enumerate(classes) if c.color == self.loser and c.type_index != royal]
        self.winner_units = [i for i, c in enumerate(classes) if c.color == winner]
        regions = [c.region for c in classes]
        self.symmetries = [m for m in facts.symmetries if all(_map(m, r) == r for r in regions)]
        self.seen: set[frozenset] = set()

    def run(self) -> str | None:
        if self.loser_king is None or self.winner_king is None:
            return None
        done: set[int] = set()
        for k in scan(self.classes[self.loser_king].region):
            if k in done:
                continue
            done |= {m[k] for m in self.symmetries}
            used = [0] * len(self.classes)
            used[self.loser_king] = 1
            pattern = self._grow({k: self.loser_king}, used)
            if pattern is not None:
                return pattern
        return None

    # -- the search -----------------------------------------------------------------

    def _grow(self, placed: dict[int, int], used: list[int]) -> str | None:
        key = frozenset(placed.items())
        if key in self.seen:
            return None
        self.seen.add(key)
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _Budget
        candidates = self._obligation(placed, used)
        if candidates is None:
            return self._confirm(placed)
        for sq, cid in candidates:
            placed[sq] = cid
            used[cid] += 1
            pattern = self._grow(placed, used)
            del placed[sq]
            used[cid] -= 1
            if pattern is not None:
                return pattern
        return None

    def _confirm(self, placed: dict[int, int]) -> str:
        return _confirm(self.board, self.classes, self.winner, placed)

    def _enough(self, failed: list[list[tuple[int, int]]], used: list[int]) -> bool:
        """Whether the units left can meet the failed obligations: those whose candidate
        squares are pairwise disjoint need a unit each (one square holds one unit), and
        those offering only one side's units need that side's units."""
        classes = self.classes
        left = [c.count - u for c, u in zip(classes, used)]
        for side in (None, self.winner, self.loser):
            taken, needed = 0, 0
            for cands in sorted(failed, key=len):
                if side is not None and any(classes[cid].color != side for _, cid in cands):
                    continue
                squares = 0
                for sq, _ in cands:
                    squares |= 1 << sq
                if not squares & taken:
                    taken |= squares
                    needed += 1
            have = sum(n for c, n in zip(classes, left) if side is None or c.color == side)
            if needed > have:
                return False
        return True

    def fen(self, placed: dict[int, int]) -> str:
        return _fen(self.tables, self.classes, self.loser, placed)

    # -- obligations ------------------------------------------------------------------

    def _obligation(self, placed: dict[int, int], used: list[int]) -> list[tuple[int, int]] | None:
        """``None`` if ``placed`` is a mate; else the candidates of the failed obligation
        with fewest of them (an empty list: no mate extends ``placed``)."""
        tables, classes = self.tables, self.classes
        occ_by = [0, 0]
        units = []
        for sq, cid in placed.items():
            cls = classes[cid]
            occ_by[cls.color] |= 1 << sq
            units.append((sq, cls.color, tables.types[cls.type_index]))
        occ = occ_by[0] | occ_by[1]
        winners = [(sq, p) for sq, c, p in units if c == self.winner]
        losers = [(sq, p) for sq, c, p in units if c == self.loser]
        k = next(sq for sq, p in losers if p.royal)
        w = next((sq for sq, p in winners if p.royal), None)
        best: list[tuple[int, int]] | None = None

        def free(cids: list[int], squares: Bitboard) -> list[tuple[int, int]]:
            return [(sq, cid) for cid in cids if used[cid] < classes[cid].count
                    for sq in scan(squares & classes[cid].region & ~occ)]

        def blockers(piece: PieceType, color: int, a: int, b: int) -> list[tuple[int, int]]:
            return free(list(range(len(classes))), self.paths[piece.index][color][a][b])  # type: ignore[index]  # set when the search runs

        def attackers(target: int, occupied: Bitboard, exclude: Bitboard) -> list[tuple[int, int]]:
            out = []
            for cid in self.winner_units:
                piece = tables.types[classes[cid].type_index]
                out += free([cid], _attackers_from(piece, self.winner, target, occupied) & ~exclude)
            return out

        def attacked(target: int, occupied: Bitboard, captured: int) -> bool:
            return any(sq != captured and piece_attacks(p, self.winner, sq, occupied) >> target & 1 for sq, p in winners)

        failed: list[list[tuple[int, int]]] = []

        def consider(candidates: list[tuple[int, int]]) -> bool:
            nonlocal best
            failed.append(candidates)
            if best is None or len(candidates) < len(best):
                best = candidates
            return not candidates

        if w is not None:  # O4
            for sq, p in losers:
                if piece_attacks(p, self.loser, sq, occ) >> w & 1 and consider(blockers(p, self.loser, sq, w)):
                    return best
        if not attacked(k, occ, -1) and consider(attackers(k, occ, 0)):  # O1
            return best
        royal = tables.types[tables.royal]
        for b in scan(piece_attacks(royal, self.loser, k, occ) & ~occ_by[self.loser]):  # O2
            after = (occ & ~(1 << k)) | 1 << b
            if attacked(b, after, b):
                continue
            cands = free(self.loser_units, 1 << b) + blockers(royal, self.loser, k, b) + attackers(b, after, 1 << b)
            if consider(cands):
                return best
        for a, p in losers:  # O3
            if p.royal:
                continue
            for b in scan(piece_attacks(p, self.loser, a, occ) & ~occ_by[self.loser]):
                after = (occ & ~(1 << a)) | 1 << b
                if attacked(k, after, b):
                    continue
                cands = free(self.loser_units, 1 << b) + blockers(p, self.loser, a, b) + attackers(k, after, 1 << b)
                if consider(cands):
                    return best
        if w is None:  # O5
            consider(free([self.winner_king], BB_ALL))  # type: ignore[list-item]  # checked in run()
        if best is not None:
            return best if self._enough(failed, used) else []
        try:  # O6: the checks must fit one last move (the Board's own FEN test)
            Board.from_fen(self.fen(placed), self.board.rules)
        except FenError:
            cands = attackers(k, occ, 0)
            for sq, p in winners:
                if piece_attacks(p, self.winner, sq, occ) >> k & 1:
                    cands += blockers(p, self.winner, sq, k)
            return cands
        return None


def _attackers_from(piece: PieceType, color: int, target: int, occupied: Bitboard) -> Bitboard:
    """Squares from which ``piece`` of ``color`` attacks ``target`` with ``occupied`` blocking."""
    bb = piece.leaps_to[color][target] if piece.leaps_to[color] else 0
    for group in piece.groups_to[color]:
        bb |= group.table[target][occupied & group.masks[target]]
    return bb
