"""The pawnless material proof: "this colour can never checkmate", cross-checked.

Expectations: the "cannot" positions are the labelled vectors of the Chess
Unwinnability Analyzer (CHA) test set; every mate pattern the proof reports is
replayed with python-chess; the exhaustive cross-checks enumerate placements with
python-chess's own move generation and checkmate test; the compiled search is compared
with its Python specification answer by answer and node by node.
"""

from __future__ import annotations

import random
from typing import Callable

import chess
import pytest

from reference_impl import BLACK, WHITE, Board, load_ruleset
from reference_impl.core import reachable
from reference_impl.errors import FenError
from reference_impl.unwinnability import material
from reference_impl.unwinnability.material import cannot_mate_by_material, find_mate_pattern

RULES = load_ruleset("fide-2023")

#: (FEN, colour that can never checkmate): labelled "cannot" for that colour by CHA's vectors.
CANNOT = [
    ("2kq4/8/8/8/8/8/2KN4/8 w - - 0 1", WHITE),  # K+N vs K+Q
    ("k7/8/8/1K6/N7/8/8/q7 w - - 0 1", WHITE),
    ("6nk/8/8/8/4K3/8/3Q4/8 w - - 0 1", BLACK),  # Black K+N vs K+Q
    ("1q1q1q2/1k6/8/8/8/2K5/2N5/8 b - - 0 1", WHITE),  # K+N vs K+3Q
    ("1q1q1q2/1k2q1q1/8/8/8/8/2N5/1K6 b - - 0 1", WHITE),  # K+N vs K+5Q
    ("3kr3/8/8/8/8/3KB3/8/8 w - - 0 1", WHITE),  # K+B vs K+R
    ("k7/2K5/q7/8/8/8/5B2/8 b - - 0 1", WHITE),  # K+B vs K+Q
    ("3kqb2/8/8/8/8/3KB3/8/8 w - - 0 1", WHITE),  # K+B vs K+Q+B, bishops of one colour
    ("rr6/rk6/8/8/8/2K5/2B5/8 b - - 0 1", WHITE),  # K+B vs K+3R
    ("rr1r4/rk1r4/rr6/8/8/2K5/2B5/8 b - - 0 1", WHITE),  # K+B vs K+6R
    ("8/8/8/8/8/2b1k1b1/3R4/4KR2 w - - 0 1", BLACK),  # K+2 dark bishops vs K+2R
]

#: (FEN, colour that can checkmate with this material).
CAN = [
    ("3kr3/8/8/8/8/3KN3/8/8 w - - 0 1", WHITE),  # K+N vs K+R
    ("3kb3/8/8/8/8/3KN3/8/8 w - - 0 1", WHITE),  # K+N vs K+B
    ("3kn3/8/8/8/8/3KB3/8/8 w - - 0 1", WHITE),  # K+B vs K+N
    ("3k4/8/8/8/8/3KNN2/8/8 w - - 0 1", WHITE),  # K+2N vs K
    ("3k4/8/8/8/8/3KR3/8/8 w - - 0 1", WHITE),  # K+R vs K
    ("3k1b2/8/8/8/8/3K1B2/8/8 w - - 0 1", WHITE),  # K+B vs K+B of the other colour
    ("3k1b2/8/8/8/8/3K1B2/8/8 w - - 0 1", BLACK),
    ("3kn3/8/8/8/8/3KN3/8/8 w - - 0 1", BLACK),  # K+N vs K+N
    ("qqbbk3/qqbb4/8/8/8/8/8/1B1B3K w - - 0 1", WHITE),  # light bishops vs dark bishops and queens
    ("2kq4/8/8/8/8/8/2KN4/8 w - - 0 1", BLACK),  # the queen's side of a "cannot" example
    ("8/8/8/8/8/2b1k1b1/3R4/4KR2 w - - 0 1", WHITE),
]


def _color(color: int) -> chess.Color:
    return chess.WHITE if color == WHITE else chess.BLACK


@pytest.mark.parametrize("fen,color", CANNOT)
def test_labelled_cannot_positions_are_proven(fen: str, color: int) -> None:
    assert cannot_mate_by_material(Board.from_fen(fen, RULES), color)


@pytest.mark.parametrize("fen,color", CAN)
def test_material_that_can_mate_is_never_proven_and_its_pattern_is_a_real_mate(fen: str, color: int) -> None:
    board = Board.from_fen(fen, RULES)
    assert not cannot_mate_by_material(board, color)
    pattern = find_mate_pattern(board, color)
    assert pattern is not None and pattern != "?"
    replay = chess.Board(pattern)
    assert replay.is_valid(), pattern
    assert replay.is_checkmate() and replay.turn == (not _color(color)), pattern
    before = chess.Board(fen)
    for piece_type in chess.PIECE_TYPES:  # a sub-multiset of the material
        for side in chess.COLORS:
            assert len(replay.pieces(piece_type, side)) <= len(before.pieces(piece_type, side))


@pytest.mark.parametrize("fen", [
    "2kq4/8/8/8/8/8/2KNP3/8 w - - 0 1",  # K+N+P vs K+Q: the pawn may promote
    "2kq4/7p/8/8/8/8/2KN4/8 w - - 0 1",  # a black pawn: no claim either
])
def test_positions_with_pawns_get_no_proof(fen: str) -> None:
    assert not cannot_mate_by_material(Board.from_fen(fen, RULES), WHITE)


def test_node_limit_answers_no_proof() -> None:
    board = Board.from_fen("1q1q1q2/1k2q1q1/8/8/8/8/2N5/1K6 b - - 0 1", RULES)
    material._RESULTS.clear()
    assert find_mate_pattern(board, WHITE, node_limit=5) == "?"
    assert find_mate_pattern(board, WHITE) is None


def test_castling_rights_get_no_proof() -> None:
    board = Board.from_fen("r3k3/8/8/8/8/8/2N5/4K3 w q - 0 1", RULES)
    assert find_mate_pattern(board, WHITE) == "?"


def test_material_classes_keep_the_bishops_square_colour() -> None:
    board = Board.from_fen("8/8/8/8/8/2b1k1b1/3R4/4KR2 w - - 0 1", RULES)
    classes = material.material_classes(board)
    bishops = [c for c in classes if c.color == BLACK and board.tables.types[c.type_index].letter == "B"]
    assert len(bishops) == 1 and bishops[0].count == 2
    assert bishops[0].region == chess.BB_DARK_SQUARES


# -- exhaustive cross-checks with python-chess ---------------------------------------

#: The loser king's squares up to the board's symmetries: a1-d1-d4 (the ten of one octant).
OCTANT = [chess.square(f, r) for r in range(4) for f in range(4) if f <= r]


def _mates(checker_type: chess.PieceType, other_type: chess.PieceType, first: bool = False) -> list[str]:
    """Every checkmate by White's K + one ``checker_type`` against Black's K (+ one
    ``other_type`` or nothing), Black king in the octant, White king not in check.

    A mate needs a check; White's king cannot give one, so only the placements where
    the checker attacks the black king (on an empty board: a superset) are tried."""
    found = []
    for k in OCTANT:
        for c in chess.SquareSet(_reach(checker_type, k)):
            for w in chess.SQUARES:
                if w in (k, c) or chess.square_distance(w, k) < 2:
                    continue
                for extra in [None, *chess.SQUARES]:
                    if extra in (k, c, w):
                        continue
                    pieces = {k: chess.Piece(chess.KING, chess.BLACK), c: chess.Piece(checker_type, chess.WHITE),
                              w: chess.Piece(chess.KING, chess.WHITE)}
                    if extra is not None:
                        pieces[extra] = chess.Piece(other_type, chess.BLACK)
                    board = chess.Board(None)
                    board.set_piece_map(pieces)
                    board.turn = chess.BLACK
                    if board.is_checkmate() and not board.was_into_check():
                        found.append(board.fen())
                        if first:
                            return found
    return found


def _reach(piece_type: chess.PieceType, sq: chess.Square) -> chess.Bitboard:
    """Squares from which ``piece_type`` attacks ``sq`` on an empty board."""
    board = chess.Board(None)
    board.set_piece_at(sq, chess.Piece(piece_type, chess.WHITE))
    return int(board.attacks(sq))


@pytest.mark.slow
@pytest.mark.parametrize("fen,checker,other", [
    ("2kq4/8/8/8/8/8/2KN4/8 w - - 0 1", chess.KNIGHT, chess.QUEEN),
    ("3kr3/8/8/8/8/3KB3/8/8 w - - 0 1", chess.BISHOP, chess.ROOK),
])
def test_exhaustive_placements_agree_that_no_mate_exists(fen: str, checker: chess.PieceType, other: chess.PieceType) -> None:
    assert cannot_mate_by_material(Board.from_fen(fen, RULES), WHITE)
    assert _mates(checker, other) == []


@pytest.mark.slow
def test_exhaustive_enumeration_finds_mates_where_the_proof_reports_some() -> None:
    """The enumeration itself can see mates: K+N vs K+R has them, and the proof agrees."""
    assert not cannot_mate_by_material(Board.from_fen("3kr3/8/8/8/8/3KN3/8/8 w - - 0 1", RULES), WHITE)
    assert _mates(chess.KNIGHT, chess.ROOK, first=True)


# -- the compiled search against its specification ----------------------------------------

#: Node limits of the comparison: the proof's own, a walk's, and limits the searches
#: reach part-way (where both must stop at the same partial position).
COMPARED_LIMITS = (material.NODE_LIMIT, 600, 40, 7)


def _random_pawnless(rng: random.Random, rules: object) -> Board:
    """A valid position without pawns or castling rights: both kings and up to three
    pieces a side, each on a random square (the material one the initial array allows)."""
    while True:
        units = ["K", "k"] + [rng.choice("QRBN") for _ in range(rng.randint(0, 3))] + \
            [rng.choice("qrbn") for _ in range(rng.randint(0, 3))]
        grid = dict(zip(rng.sample(range(64), len(units)), units))
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                unit = grid.get(rank * 8 + file)
                if unit is None:
                    empty += 1
                else:
                    row, empty = row + (str(empty) if empty else "") + unit, 0
            rows.append(row + (str(empty) if empty else ""))
        try:
            board = Board.from_fen("/".join(rows) + f" {rng.choice('wb')} - - 0 1", rules)
            reachable.check_material(board, board.fen())
        except FenError:
            continue
        return board


def _answer(search: Callable[[], tuple[str | None, int]]) -> tuple[str | None, int] | str:
    try:
        return search()
    except material._Budget:
        return "node limit"


@pytest.mark.parametrize("ruleset,seed,count", [("fide-2023", 1, 120), ("fide-2023-chess960", 2, 40), ("uscf-7", 3, 40)])
def test_compiled_search_visits_what_its_specification_visits(ruleset: str, seed: int, count: int) -> None:
    """csrc/material.c against _Search: the same answer (no mate, the same mate
    pattern, "?"), the same partial positions counted, the same stop at each node limit,
    on random pawnless positions, both colours."""
    rules = load_ruleset(ruleset)
    rng = random.Random(seed)
    outcomes: set[str] = set()
    for _ in range(count):
        board = _random_pawnless(rng, rules)
        classes = material.material_classes(board)
        for color in (WHITE, BLACK):
            for limit in COMPARED_LIMITS[1:] if rng.random() < 0.9 else COMPARED_LIMITS:
                spec = material._Search(board, material._facts(board.tables), classes, color, limit)
                expected = _answer(lambda: (spec.run(), spec.nodes))
                compiled = _answer(lambda: material._compiled_search(board, classes, color, limit))
                assert compiled == expected, (board.fen(), color, limit)
                outcomes.add("limit" if expected == "node limit" else "proof" if expected[0] is None else "pattern")
    assert outcomes == {"limit", "proof", "pattern"}  # every kind of answer was compared


def test_find_mate_pattern_answers_alike_compiled_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = {}
    for compiled in (True, False):
        monkeypatch.setattr(material, "COMPILED", compiled)
        material._RESULTS.clear()
        answers[compiled] = [find_mate_pattern(Board.from_fen(fen, RULES), color) for fen, color in CANNOT + CAN]
    assert answers[True] == answers[False]
    assert answers[True].count(None) == len(CANNOT)
