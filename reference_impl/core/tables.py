"""Compile a ruleset's move layer (``pieces``, ``pawn``, ``castling``) into attack tables.

The YAML states pieces as vectors; this module turns them, once per ruleset, into the
same kind of tables python-chess uses: a bitboard per square for every leaper, and for
riders a dictionary per square keyed by the occupancy of the rider's lines. Nothing
here knows what a knight or a bishop is: a piece is what its vectors say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from reference_impl.records import record

from ..errors import RulesetError
from ..kept import KeptAnswers
from ..rules.files import Ruleset
from ..rules.model import BoardShape, Castling, Model, Vector
from ..rules.reader import model_of
from ..remembered import code_digest, remembered
from .squares import BB_ALL, BB_RANKS, BLACK, FILE_NAMES, WHITE, Bitboard, offset

#: The board the core's 64-bit square sets can hold (files, ranks).
BOARD_SIZE = 8
#: The ``castling.sides`` key of the side whose rook stands on the king's higher-file
#: side (h); the other side's rook stands toward a.
KING_SIDE = "king_side"

#: Above this many table entries per rider group, lines get a table each.
_MAX_GROUP_ENTRIES = 1 << 14


def expand_vectors(vectors: Iterable[Iterable[int]], symmetry: str | None) -> list[Vector]:
    """Apply ``symmetry: all`` (every reflection and rotation) to a list of vectors."""
    result: list[Vector] = []
    for raw in vectors:
        df, dr = (int(v) for v in raw)
        images = [(df, dr)]
        if symmetry == "all":
            images = [(a * x, b * y) for x, y in ((df, dr), (dr, df)) for a in (1, -1) for b in (1, -1)]
        for image in images:
            if image != (0, 0) and image not in result:
                result.append(image)
    return result


def _for_color(vectors: list[Vector], color: int) -> list[Vector]:
    """Vectors are written from White's side; Black's mirror the rank."""
    return vectors if color == WHITE else [(df, -dr) for df, dr in vectors]


def _leap_table(vectors: list[Vector]) -> list[Bitboard]:
    table = []
    for sq in range(64):
        bb = 0
        for df, dr in vectors:
            target = offset(sq, df, dr)
            if target is not None:
                bb |= 1 << target
        table.append(bb)
    return table


def _ray(sq: int, direction: Vector) -> list[int]:
    squares = []
    target = offset(sq, *direction)
    while target is not None:
        squares.append(target)
        target = offset(target, *direction)
    return squares


def _subsets(mask: Bitboard) -> Iterable[Bitboard]:
    subset = 0
    while True:
        yield subset
        subset = (subset - mask) & mask
        if subset == 0:
            return


@record
class RiderGroup:
    """Slides along ``directions``: ``table[sq][occupied & masks[sq]]`` is the attack set."""

    directions: frozenset[Vector]
    masks: list[Bitboard]
    table: list[dict[Bitboard, Bitboard]]

    @classmethod
    def build(cls, directions: frozenset[Vector]) -> "RiderGroup":
        """The group of ``directions``, remembered on disk by them and this module's code
        (:func:`~reference_impl.remembered.remembered`: a pure function of both)."""
        key = code_digest(__file__) + repr(sorted(directions)).encode()
        masks, table = remembered("rider-groups", key, lambda: cls._tables(directions))
        return cls(directions, masks, table)

    @staticmethod
    def _tables(directions: frozenset[Vector]) -> tuple[list[Bitboard], list[dict[Bitboard, Bitboard]]]:
        masks, table = [], []
        for sq in range(64):
            rays = [_ray(sq, d) for d in directions]
            # The last square of a ray never blocks anything behind it.
            mask = 0
            for ray in rays:
                for target in ray[:-1]:
                    mask |= 1 << target
            attacks_by_occupancy: dict[Bitboard, Bitboard] = {}
            for occupied in _subsets(mask):
                attacks = 0
                for ray in rays:
                    for target in ray:
                        attacks |= 1 << target
                        if occupied >> target & 1:
                            break
                attacks_by_occupancy[occupied] = attacks
            masks.append(mask)
            table.append(attacks_by_occupancy)
        return masks, table

    def size(self) -> int:
        return sum(len(t) for t in self.table)


@dataclass
class PieceType:
    """One row of the ``pieces`` table, compiled."""

    index: int
    name: str
    letter: str
    royal: bool
    is_pawn: bool
    leaps: list[list[Bitboard]] = field(default_factory=list)  #: [color][square]
    leaps_to: list[list[Bitboard]] = field(default_factory=list)  #: reverse: who attacks sq
    groups: list[list[RiderGroup]] = field(default_factory=list)  #: [color]
    groups_to: list[list[RiderGroup]] = field(default_factory=list)


@dataclass
class MoveTables:
    """The compiled move layer of one ruleset."""

    types: list[PieceType]
    by_letter: dict[str, int]
    by_name: dict[str, int]
    royal: int
    pawn: int | None
    #: Every distinct rider group and the piece types using it: (group, [type indices]),
    #: per colour, for "which pieces attack this square" (groups of reversed vectors).
    attacker_groups: list[list[tuple[RiderGroup, list[int]]]]
    leaper_types: list[int]
    between: list[list[Bitboard]]
    # pawn
    pawn_push: list[list[Bitboard]]  #: [color][sq] single step target (empty board)
    pawn_push_delta: list[int]  #: [color] square difference of one push
    pawn_double: list[list[Bitboard]]  #: [color][sq] double step target, 0 if not allowed
    pawn_captures: list[list[Bitboard]]  #: [color][sq]
    pawn_captured_from: list[list[Bitboard]]  #: [color][sq]: where a color pawn attacks sq
    en_passant: bool
    promotion_ranks: list[Bitboard]  #: [color]
    promotion_types: list[int]
    forbidden_pawn_ranks: list[Bitboard]  #: [color]
    double_step_ranks: list[Bitboard]  #: [color] ranks a pawn may double step from
    castling: "CastlingTable | None"
    initial_fen: str
    #: Equal for rulesets whose move layers are equal apart from citations and notes.
    signature: str = ""
    #: Equal for rulesets whose moves are equal once no castling right is left (the
    #: standard and Chess960 layers): positions without rights are analysed once for both.
    signature_without_castling: str = ""
    #: ``castling.rights_lost.by`` (FIDE 3.8.2.1): the mask applied to the origin of
    #: every move (all squares when a rook's move loses its right, else none), and
    #: whether a king move forfeits both sides. A captured rook always loses its right.
    rights_lost_from: Bitboard = BB_ALL
    rights_lost_by_king: bool = True
    #: ``attacker_groups`` and ``leaper_types`` flattened for the attack test, per colour:
    #: (reverse leap table, type) and (rider table, masks, types using the group, the
    #: group's lines on an empty board: no unit off them can reach the square).
    leapers_to: list[tuple[tuple[list[Bitboard], int], ...]] = field(default_factory=list)
    riders_to: list[tuple[tuple[list[dict[Bitboard, Bitboard]], list[Bitboard], tuple[int, ...], list[Bitboard]], ...]] = \
        field(default_factory=list)

    def __post_init__(self) -> None:
        self.leapers_to = [tuple((self.types[pt].leaps_to[color], pt) for pt in self.leaper_types)
                           for color in (WHITE, BLACK)]
        self.riders_to = [tuple((group.table, group.masks, tuple(users), [attacks[0] for attacks in group.table])
                                for group, users in self.attacker_groups[color])
                          for color in (WHITE, BLACK)]


@record
class CastlingSide:
    name: str
    king_to_file: int
    rook_to_file: int
    king_side: bool  #: the rook stands on the king's higher-file side


@record
class CastlingTable:
    rook_type: int
    sides: tuple[CastlingSide, ...]
    rights_require: str
    empty_king_path: bool
    empty_rook_path: bool
    safe_squares: frozenset[str]  #: subset of {"king_from", "king_path", "king_to"}
    rook_removed: bool
    uci_king_takes_rook: bool


def _compile_castling(castling: Castling | None, by_name: dict[str, int]) -> CastlingTable | None:
    if castling is None:
        return None
    if castling.rook not in by_name:
        raise RulesetError(f"castling.rook: unknown piece {castling.rook!r}")
    sides = [CastlingSide(name, FILE_NAMES.index(side.king_to), FILE_NAMES.index(side.rook_to), name == KING_SIDE)
             for name, side in castling.sides.items()]
    empty = set(castling.must_be_empty.squares)
    safe = castling.must_not_be_attacked
    return CastlingTable(
        rook_type=by_name[castling.rook],
        sides=tuple(sides),
        rights_require=castling.rights_require,
        empty_king_path="king_path" in empty,
        empty_rook_path="rook_path" in empty,
        safe_squares=frozenset(safe.squares),
        rook_removed=safe.rook_removed,
        uci_king_takes_rook=castling.uci == "king_takes_rook",
    )


def _rank_mask(rank_numbers: Iterable[int], color: int) -> Bitboard:
    bb = 0
    for number in rank_numbers:
        rank_index = int(number) - 1
        bb |= BB_RANKS[rank_index if color == WHITE else 7 - rank_index]
    return bb


def _lines(directions: list[Vector]) -> list[frozenset[Vector]]:
    """Split directions into lines: a direction with its opposite, if present."""
    lines, seen = [], set()
    for d in directions:
        if d in seen:
            continue
        opposite = (-d[0], -d[1])
        line = {d} | ({opposite} if opposite in directions else set())
        seen |= line
        lines.append(frozenset(line))
    return lines


def _check_board(board: BoardShape) -> None:
    """The core's squares are 64-bit sets: ``board`` must say 8 files and 8 ranks."""
    if (board.files, board.ranks) != (BOARD_SIZE, BOARD_SIZE):
        raise RulesetError(f"board: {board.files} files x {board.ranks} ranks; the reference plays only 8 x 8 ({board.cite})")


def _rights_lost(castling: Castling | None) -> set[str]:
    """``castling.rights_lost.by``; ``rook_captured`` must be listed (a captured rook
    cannot castle, and its square may later hold another piece)."""
    if castling is None:
        return set()
    lost: set[str] = set(castling.rights_lost.by)
    if "rook_captured" not in lost:
        raise RulesetError("castling.rights_lost.by: rook_captured must be listed (a captured rook cannot castle)")
    return lost


#: Rider groups built so far, by their directions: a pure function of them, so the
#: rulesets of a family share them (bounded: mutated move layers make new ones).
_RIDER_GROUPS: KeptAnswers[RiderGroup] = KeptAnswers(256)


def compile_move_tables(model: Model) -> MoveTables:
    """Compile the move layer of ``model`` into :class:`MoveTables`."""
    _check_board(model.board)
    pieces = model.pieces
    names = sorted(pieces, key=lambda n: (not pieces[n].pawn, list(pieces).index(n)))
    group_cache: dict[frozenset[Vector], RiderGroup] = {}

    def group(directions: frozenset[Vector]) -> RiderGroup:
        if directions not in group_cache:
            shared = _RIDER_GROUPS.get(directions)
            if shared is None:
                shared = RiderGroup.build(directions)
                _RIDER_GROUPS.put(directions, shared)
            group_cache[directions] = shared
        return group_cache[directions]

    def rider_groups(directions: list[Vector]) -> list[RiderGroup]:
        lines = _lines(directions)
        straight = [line for line in lines if any(d[0] == 0 or d[1] == 0 for d in line)]
        others = [line for line in lines if line not in straight]
        result = [group(line) for line in straight]
        if others:
            merged = frozenset().union(*others)
            candidate = group(merged) if len(others) > 1 else None
            if candidate is not None and candidate.size() <= _MAX_GROUP_ENTRIES * 4:
                result.append(candidate)
            else:
                result.extend(group(line) for line in others)
        return result

    types: list[PieceType] = []
    for index, name in enumerate(names):
        row = pieces[name]
        piece = PieceType(index, name, row.letter.upper(), row.royal, row.pawn)
        leaps = expand_vectors(row.leaps, row.symmetry)
        rides = expand_vectors(row.rides, row.symmetry)
        for color in (WHITE, BLACK):
            own = _for_color(leaps, color)
            piece.leaps.append(_leap_table(own) if own else [])
            piece.leaps_to.append(_leap_table([(-a, -b) for a, b in own]) if own else [])
            own_rides = _for_color(rides, color)
            piece.groups.append(rider_groups(own_rides) if own_rides else [])
            piece.groups_to.append(rider_groups([(-a, -b) for a, b in own_rides]) if own_rides else [])
        types.append(piece)

    by_letter = {p.letter: p.index for p in types}
    by_name = {p.name: p.index for p in types}
    if len(by_letter) != len(types):
        raise RulesetError("pieces: two pieces share a letter")
    royals = [p.index for p in types if p.royal]
    if len(royals) != 1:
        raise RulesetError(f"pieces: exactly one royal piece expected, found {len(royals)}")
    pawn = next((p.index for p in types if p.is_pawn), None)

    attacker_groups: list[list[tuple[RiderGroup, list[int]]]] = []
    for color in (WHITE, BLACK):
        users: dict[frozenset[Vector], tuple[RiderGroup, list[int]]] = {}
        for piece in types:
            for g in piece.groups_to[color]:
                users.setdefault(g.directions, (g, []))[1].append(piece.index)
        attacker_groups.append(list(users.values()))
    leaper_types = [p.index for p in types if p.leaps[WHITE] and not p.is_pawn]

    between = [[0] * 64 for _ in range(64)]
    all_directions = {d for g in group_cache.values() for d in g.directions}
    for sq in range(64):
        for d in all_directions:
            passed = 0
            for target in _ray(sq, d):
                if not between[sq][target]:
                    between[sq][target] = passed
                passed |= 1 << target

    rules = model.pawn
    # Without a pawn table no piece moves as a pawn: its tables stay empty.
    push: Vector = rules.push.vector if rules else (0, 0)
    captures: list[Vector] = list(rules.captures.vectors) if rules else []
    double = rules.double_step if rules else None
    promotion = rules.promotion if rules else None
    forbidden = rules.forbidden_ranks.ranks if rules and rules.forbidden_ranks else ()
    pawn_push, pawn_double, pawn_captures, pawn_captured_from = [], [], [], []
    promotion_ranks, forbidden_ranks, double_ranks = [], [], []
    for color in (WHITE, BLACK):
        step = _for_color([push], color)[0]
        pawn_push.append(_leap_table([step]) if rules else [0] * 64)
        caps = _for_color(captures, color)
        pawn_captures.append(_leap_table(caps))
        pawn_captured_from.append(_leap_table([(-a, -b) for a, b in caps]))
        if double:
            ranks = _rank_mask([double.from_rank], color)
            two = _leap_table([(2 * step[0], 2 * step[1])])
            pawn_double.append([two[sq] if ranks >> sq & 1 else 0 for sq in range(64)])
            double_ranks.append(ranks)
        else:
            pawn_double.append([0] * 64)
            double_ranks.append(0)
        promotion_ranks.append(_rank_mask([promotion.rank], color) if promotion else 0)
        forbidden_ranks.append(_rank_mask(forbidden, color))
    promotion_types = []
    for promoted in promotion.to if promotion else ():
        if promoted not in by_name:
            raise RulesetError(f"pawn.promotion.to: unknown piece {promoted!r}")
        promotion_types.append(by_name[promoted])

    lost = _rights_lost(model.castling)
    return MoveTables(
        types=types,
        by_letter=by_letter,
        by_name=by_name,
        royal=royals[0],
        pawn=pawn,
        attacker_groups=attacker_groups,
        leaper_types=leaper_types,
        between=between,
        pawn_push=pawn_push,
        pawn_push_delta=[push[1] * 8 + push[0], -push[1] * 8 + push[0]],
        pawn_double=pawn_double,
        pawn_captures=pawn_captures,
        pawn_captured_from=pawn_captured_from,
        en_passant=rules is not None and rules.en_passant is not None and double is not None,
        promotion_ranks=promotion_ranks,
        promotion_types=promotion_types,
        forbidden_pawn_ranks=forbidden_ranks,
        double_step_ranks=double_ranks,
        castling=_compile_castling(model.castling, by_name),
        initial_fen=model.setup.initial_fen if model.setup else "",
        signature=model.signature,
        signature_without_castling=model.signature_without_castling,
        rights_lost_from=BB_ALL if "rook_move" in lost else 0,
        rights_lost_by_king="king_move" in lost,
    )


#: Compiled tables kept, by the move layer's digest (rulesets that move alike share them).
CACHE_SIZE = 64
_CACHE: KeptAnswers[MoveTables] = KeptAnswers(CACHE_SIZE)


def move_tables(rules: Ruleset | Model) -> MoveTables:
    """The compiled tables of ``rules``, compiled once per move layer."""
    model = model_of(rules)
    key = (model.signature,)
    tables = _CACHE.get(key)
    if tables is None:
        tables = compile_move_tables(model)
        _CACHE.put(key, tables)
    return tables
