"""The compiled search core (``_native.c``), fed from the ruleset's compiled tables.

The C module receives the move layer as numbers (leap bitboards, rider vectors, pawn
tables, the castling table) packed by :func:`pack_tables`, so it plays by the same YAML
as the interpreter and names no piece; :mod:`.layout` says where each number goes, and
the module is refused at import unless it was built with that layout. What it finds is
a *proposal*: a mating line is replayed by :class:`~reference_impl.core.board.Board`
(:func:`verified_line`) before anything reports it, and the tests compare its perft
counts with the interpreter's.
"""

from __future__ import annotations

import struct
from array import array
from typing import Callable, Iterable, NamedTuple

from reference_impl.records import record

from ..core.board import Board
from ..core.fen import _initial_squares
from ..core.reachable import initial_counts
from ..core.squares import BLACK, WHITE
from ..core.tables import MoveTables
from ..errors import ArbiterError
from ..kept import KeptAnswers
from . import _native  # type: ignore[attr-defined]  # the compiled extension: no stub
from . import layout
from .layout import DIRECTION, FEN, HEAD, MAX_DIRECTIONS, MAX_PROMOTIONS, MAX_SIDES, MAX_TYPES, PAWN, PIECE, SIDE, pack
from .search import code_uci


class LayoutMismatch(ArbiterError, ImportError):
    """The compiled module was built with another layout than :mod:`.layout`'s: it must
    be rebuilt (the command line says so in one line)."""


if (_mismatch := layout.mismatch(_native.LAYOUT)) is not None:
    raise LayoutMismatch(_mismatch)

#: Deepest nominal depth of the iterative deepening (progress moves cost no depth).
MAX_ITERATION_DEPTH = 400
#: Largest transposition table, as a power of two of entries; a search with a smaller
#: node limit gets one about twice its limit (a larger one would only cost its memory).
TT_BITS = 18
#: Share of the node limit one iteration (one depth, one mating picture) may use.
ITERATION_SHARE = 0.25
#: Fewest nodes an iteration may use, whatever the node limit.
MIN_ITERATION_NODES = 2_000
#: Share of the node limit for the depth-first search; the best-first search gets the rest.
DEPTH_FIRST_SHARE = 0.6
#: Plies after which progress moves cost depth like any other (lines stay finite).
HORIZON = 120

#: Nodes charged for each static proof the exploration makes (the compiled static stage
#: costs about as much as that many compiled moves), so that the node limit also bounds
#: its time.
PRUNE_COST = 12

_MASK = (1 << 64) - 1
#: Packed tables kept for the compiled tables used last (a mutation run compiles many).
TABLES_KEPT = 64
_PACKED: KeptAnswers[tuple[MoveTables, bytes]] = KeptAnswers(TABLES_KEPT)


def pack_tables(tables: MoveTables) -> bytes:
    """The move layer as :mod:`.layout` lays the tables out (cached per compiled tables)."""
    hit = _PACKED.get(id(tables))
    if hit is not None and hit[0] is tables:
        return hit[1]
    castling = tables.castling
    sides = list(castling.sides) if castling else []
    if len(tables.promotion_types) > MAX_PROMOTIONS or len(sides) > MAX_SIDES or len(tables.types) > MAX_TYPES:
        raise ValueError("move layer too large for the compiled search")
    safe = castling.safe_squares if castling else ()
    header = pack(
        HEAD,
        version=layout.TABLES_VERSION,
        ntypes=len(tables.types),
        royal=tables.royal,
        pawn=-1 if tables.pawn is None else tables.pawn,
        en_passant=int(tables.en_passant),
        npromo=len(tables.promotion_types),
        promo=tables.promotion_types + [0] * (MAX_PROMOTIONS - len(tables.promotion_types)),
        castling=int(castling is not None),
        rook_type=castling.rook_type if castling else 0,
        empty_king_path=int(bool(castling and castling.empty_king_path)),
        empty_rook_path=int(bool(castling and castling.empty_rook_path)),
        safe_king_from=int("king_from" in safe),
        safe_king_path=int("king_path" in safe),
        safe_king_to=int("king_to" in safe),
        rook_removed=int(bool(castling and castling.rook_removed)),
        nsides=len(sides),
        sides=[pack(SIDE, king_side=int(s.king_side), king_to_file=s.king_to_file, rook_to_file=s.rook_to_file)
               for s in sides] + [[0] * SIDE.size] * (MAX_SIDES - len(sides)),
        push_delta=tables.pawn_push_delta,
        rights_lost_from=tables.rights_lost_from,  # castling.rights_lost.by
        rights_lost_by_king=int(tables.rights_lost_by_king),
    )
    body: list[int] = []
    for piece in tables.types:
        for color in (0, 1):
            directions = sorted({d for group in piece.groups[color] for d in group.directions})
            if len(directions) > MAX_DIRECTIONS:
                raise ValueError(f"piece {piece.name!r}: too many rider directions for the compiled search")
            body += pack(
                PIECE,
                leaps=piece.leaps[color] if piece.leaps[color] and not piece.is_pawn else [0] * 64,
                ndirs=len(directions),
                dirs=[list(d) for d in directions] + [[0] * DIRECTION.size] * (MAX_DIRECTIONS - len(directions)),
            )
    for color in (0, 1):
        body += pack(PAWN, push=tables.pawn_push[color], double=tables.pawn_double[color],
                     captures=tables.pawn_captures[color], promotion_ranks=tables.promotion_ranks[color])
    values = [v & _MASK for v in header + body]
    packed = struct.pack(f"<{len(values)}Q", *values)
    _PACKED.put(id(tables), (tables, packed))
    return packed


def _position(board: Board) -> tuple[bytes, int, int, int]:
    # the mailbox's codes (colour << 4 | type, -1 for empty) as signed bytes: empty is 0xFF
    placement = array("b", board.mailbox).tobytes()
    return placement, board.turn, board.castling_rights, board.ep_square


def perft(board: Board, depth: int) -> int:
    """Leaf count by the compiled move generator (checked against the interpreter's)."""
    return _native.perft(pack_tables(board.tables), *_position(board), depth)


def legal_codes(board: Board) -> list[int]:
    """Legal packed moves by the compiled move generator."""
    return _native.legal_moves(pack_tables(board.tables), *_position(board))


def static_stage(board: Board, colors: Iterable[int]) -> set[int]:
    """The compiled static stage (:mod:`.static` and :mod:`.mate` are its specification):
    the colours among ``colors`` it proves can never mate."""
    mask = sum(1 << c for c in set(colors))
    proven = _native.static_stage(pack_tables(board.tables), *_position(board), mask)
    return {c for c in (0, 1) if proven >> c & 1}


def static_open(board: Board, colors: Iterable[int]) -> set[int]:
    """The colours among ``colors`` the static stage is shown, more cheaply, not to prove
    (``csrc/static_stage.c``: st_open, its last test passed on an under-approximation of
    its analysis); the screening leaves them undetermined without running it."""
    mask = sum(1 << c for c in set(colors))
    open_ = _native.static_open(pack_tables(board.tables), *_position(board), mask)
    return {c for c in (0, 1) if open_ >> c & 1}


@record
class NativeResult:
    """``status``: ``"mate"`` (``line`` holds it), ``"exhausted"`` (every line the search
    could play was tried) or ``"limit"`` (the node limit ran out); ``nodes`` moves made."""

    status: str
    line: tuple[int, ...]
    nodes: int


_STATUS = {1: "mate", 0: "exhausted", -1: "limit"}


def _search_parameters(node_limit: int) -> tuple[int, int, int, int, int, int]:
    """The compiled helpmate search's parameters for ``node_limit``, in its argument
    order: node limit, iteration share, deepest iteration, table size (bits), horizon,
    depth-first share. One place, so that :func:`helpmate` and :func:`batch` search alike."""
    local = max(MIN_ITERATION_NODES, int(node_limit * ITERATION_SHARE))
    return (node_limit, local, MAX_ITERATION_DEPTH, min(TT_BITS, max(node_limit, 1).bit_length() + 1), HORIZON,
            int(node_limit * DEPTH_FIRST_SHARE))


def helpmate(board: Board, winner: int, node_limit: int) -> NativeResult:
    """Search for a line of legal moves after which ``winner`` has checkmated."""
    status, line, nodes = _native.helpmate(
        pack_tables(board.tables), *_position(board), winner, *_search_parameters(node_limit)
    )
    return NativeResult(_STATUS[status], tuple(line), nodes)


class NativeForcedWin(NamedTuple):
    """What :func:`forced_win` found: ``status`` 1 a forced mate (``plies`` the length of the
    strategy found, ``line`` one line of it as packed moves), 0 none (within the bound,
    when one was given), -1 the node limit ran out first; ``nodes`` moves made,
    ``positions`` distinct positions kept."""

    status: int
    plies: int
    line: list[int]
    nodes: int
    positions: int


def forced_win(board: Board, winner: int, max_plies: int | None, node_limit: int, *, short_plies: int = 0,
               short_limit: int = 0, pns_limit: int = 0) -> NativeForcedWin:
    """US Chess 14E's forced win, compiled (``csrc/forced_win.c``; :mod:`.forced_win` is its
    specification): with ``max_plies`` the shortest forced mate for ``winner`` within that
    many plies; with ``None`` a forced mate at any distance (a bounded pass of
    ``short_plies`` on ``short_limit`` moves, the proof-number search on ``pns_limit``,
    then the game solved on the fly), all within ``node_limit`` moves made."""
    return NativeForcedWin._make(_native.forced_win(
        pack_tables(board.tables), *_position(board), winner, -1 if max_plies is None else max_plies, node_limit,
        short_plies, short_limit, pns_limit))


_FEN_INFO: KeptAnswers[tuple[MoveTables, bytes]] = KeptAnswers(TABLES_KEPT)


def pack_fen_info(board: Board) -> bytes:
    """What the compiled FEN reader needs of the ruleset besides the move layer, as
    :data:`.layout.FEN` lays it out (cached per compiled tables): the piece of each ASCII
    letter (as :func:`reference_impl.core.fen.set_fen` maps letters), each type's letter
    for promotions in UCI, how castling is written in UCI and which squares its rights
    need, the initial array's counts, the forbidden pawn ranks."""
    tables = board.tables
    hit = _FEN_INFO.get(id(tables))
    if hit is not None and hit[0] is tables:
        return hit[1]
    castling = tables.castling
    pieces = []
    for byte in range(128):
        char = chr(byte)
        piece = None if char.isdigit() else tables.by_letter.get(char.upper())
        pieces.append(0xFF if piece is None else (WHITE if char.isupper() else BLACK) << 4 | piece)
    letters = [ord(p.letter.lower()) if len(p.letter) == 1 and p.letter.isascii() else 0 for p in tables.types]
    initial = initial_counts(board)
    kings, rooks = _initial_squares(board)
    values = pack(
        FEN,
        version=layout.FEN_INFO_VERSION,
        uci_king_takes_rook=int(bool(castling and castling.uci_king_takes_rook)),
        require_initial=int(bool(castling and castling.rights_require == "initial_squares")),
        piece_of=pieces,
        letter=letters + [0] * (MAX_TYPES - len(letters)),
        initial=[initial[color][t] for color in (WHITE, BLACK) for t in range(MAX_TYPES)],
        forbidden_pawn=tables.forbidden_pawn_ranks,
        initial_kings=kings,
        initial_rooks=rooks,
    )
    packed = struct.pack(f"<{len(values)}Q", *(v & _MASK for v in values))
    _FEN_INFO.put(id(tables), (tables, packed))
    return packed


def read_fen(template: Board, text: str) -> tuple[bytes, int, int, int] | None:
    """The position the compiled FEN reader makes of ``text`` (as :func:`_position`
    writes a board), or None when it leaves the FEN to the interpreter."""
    return _native.read_fen(pack_tables(template.tables), pack_fen_info(template), text)


#: A position for :func:`batch`: a FEN (read by the compiled reader when plain) or a
#: board already validated by the interpreter.
BatchItem = str | Board
#: :func:`batch`'s verdicts and stages, indexed by the compiled module's numbers.
BATCH_VERDICTS = layout.BATCH_VERDICTS
BATCH_STAGES = layout.BATCH_STAGES


class BatchAnswer(NamedTuple):
    """One answer of :func:`batch` (a tuple: they are made by the thousand).
    ``verdict``: an index of :data:`BATCH_VERDICTS`: ``can`` (``line`` in UCI, replayed by
    the compiled generator; empty when the position is already the winner's checkmate),
    ``cannot`` (``stage`` ``terminal`` or ``static``) or ``open`` (not decided by the
    stages run); ``side`` the colour asked; ``nodes`` the moves the probe made;
    ``stage`` an index of :data:`BATCH_STAGES`."""

    verdict: int
    side: int
    line: list[str] | None
    nodes: int
    stage: int


def batch(
    template: Board, items: list[BatchItem], side: int | None, *, probe: int, full: bool,
    proofs: tuple[str, str, str, str] | None = None, numbers: list[int] | None = None,
) -> tuple[list[BatchAnswer | str | bool | None], BaseException | None, list[str]]:
    """Answer "can ``side`` (the side not to move when None) still checkmate?" for each
    item in one compiled call: the Laws' answer when there is no legal move, then the
    helpmate probe with ``probe`` nodes (the same search and parameters as
    :func:`helpmate`, so the same line and nodes; none when ``probe`` is 0), then, unless
    ``full`` (the full analysis's first stage: the probe alone), the static stage (where
    :func:`static_open` does not show it would prove nothing).

    ``template`` gives the ruleset. A FEN the compiled reader is not sure of (see
    ``csrc/batch.c``) answers None: the interpreter must validate it and pass the board.
    Returns the answers in order, the exception if a signal (Ctrl-C) stopped the call (to
    raise once the answers made are used; the answers then stop short), and the blocks
    below.

    With ``proofs`` (each of :data:`BATCH_STAGES`' proof as JSON text, ``null`` where
    none) the final answer to a FEN is its JSON Lines text from ``"fen"`` on (the same as
    ``json.dumps`` of the object ``arbiter unwinnable --batch`` prints), not a tuple; with
    ``numbers`` too (each item's input line number) it is the whole line, ``input_line``
    first, and the answer is True: each run of consecutive True answers has its lines,
    joined by newlines, in one str of the blocks, in order."""
    positions: list[str | tuple[bytes, int, int, int]] = [
        item if isinstance(item, str) else _position(item) for item in items
    ]
    answers, stopped, blocks = _native.batch(
        pack_tables(template.tables), pack_fen_info(template), positions, -1 if side is None else side,
        int(full), proofs, *_search_parameters(probe), numbers
    )
    make = BatchAnswer._make
    return [a if a is None or a is True or a.__class__ is str else make(a) for a in answers], stopped, blocks


@record
class NativeExploration:
    """What :func:`explore` found: ``complete`` when every reachable position was visited
    (a proof for each colour without a mate), a mating line per colour, the moves made
    (``nodes``) and the distinct positions visited."""

    complete: bool
    mates: dict[int, tuple[int, ...]]
    nodes: int
    positions: int


def board_from(template: Board, placement: bytes, turn: int, castling: int, ep: int) -> Board:
    """A Board for a position the compiled walk reached (``template`` gives the rules)."""
    board = template.copy(stack=False)
    board.clear()
    for sq, code in enumerate(placement):
        if code != 0xFF:
            board.place(sq, code >> 4, code & 15)
    board.turn, board.castling_rights, board.ep_square = turn, castling, ep
    return board


def scan_pgn(start: Board, syntax: tuple, data: bytes) -> list[tuple] | None:
    """PGN bytes cut into games and each main line replayed from ``start`` by the compiled
    board (``syntax``: the notation's letters, marks and the automatic-end thresholds, as
    :mod:`conformance.tools.audit.fast` packs them); ``None`` when the Python reader must read
    the whole of ``data``. See ``_native.c``: scan_pgn for the tuples."""
    return _native.scan_pgn(pack_tables(start.tables), syntax, data, *_position(start))


def _walk_callback(board: Board, proof: Callable[[Board, set[int]], set[int]]) -> Callable[..., int]:
    """``proof`` as the compiled walk calls it: a position as numbers, the open colours as
    a bitmask, the proven colours back as a bitmask."""

    def callback(placement: bytes, turn: int, castling: int, ep: int, mask: int) -> int:
        open_colors = {c for c in (0, 1) if mask >> c & 1}
        proven = proof(board_from(board, placement, turn, castling, ep), open_colors)
        return sum(1 << c for c in proven)

    return callback


def explore(
    board: Board, colors: set[int], node_limit: int, pawnless_proof: Callable[[Board, set[int]], set[int]] | None = None
) -> NativeExploration:
    """Walk every position reachable from ``board`` (at most ``node_limit`` moves made).

    After each capture or pawn move the compiled static stage runs on the position
    reached, and where it leaves a colour open in a position without pawns,
    ``pawnless_proof(position, open_colours)`` is asked too; each answers the colours it
    *proves* can never mate from there. A subtree is left out only when the proofs cover
    every colour still open.
    """

    callback = None if pawnless_proof is None else _walk_callback(board, pawnless_proof)
    mask = sum(1 << c for c in colors)
    complete, mates, nodes, positions = _native.explore(
        pack_tables(board.tables), *_position(board), mask, node_limit, callback, PRUNE_COST
    )
    return NativeExploration(bool(complete), {c: tuple(line) for c, line in mates.items()}, nodes, positions)


class UnverifiedLine(AssertionError):
    """The compiled search proposed a line the interpreter does not accept (a bug)."""


def verified_line(board: Board, line: tuple[int, ...], winner: int, *, uci: bool = True) -> list[str]:
    """``line`` replayed by the interpreter: each move legal, ending in ``winner``'s mate;
    returns it in UCI (nothing with ``uci=False``, for callers that only need the proof).

    Raises :class:`UnverifiedLine` otherwise; ``board`` is left unchanged.
    """
    replay = board.copy(stack=False)
    moves = []
    for ply, code in enumerate(line):
        if uci:
            moves.append(code_uci(replay, code))
        if not replay.try_push_code(code):
            raise UnverifiedLine(f"move {ply + 1} of the proposed helpmate is illegal in {replay.fen()}")
    if not (replay.turn != winner and replay.is_checkmate()):
        raise UnverifiedLine(f"the proposed helpmate does not end in mate: {replay.fen()}")
    return moves
