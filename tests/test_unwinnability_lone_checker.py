"""The static stage's lone checker (step 3 of :mod:`reference_impl.unwinnability.mate`).

When the checker is a piece and nothing else of the winner can ever attack the mated
king's square (as when it is the winner's only mobile unit besides its king), a loser
unit that must stand on a square next to that king, and could take the checker or step
between, has a legal answer to the check: it is left out of the blockers of that square. The
step's proofs are checked against code that shares nothing with the static stage:

* python-chess enumerates every placement of K+B against K+R, K+Q and K+N with the
  bishop's side giving check (the board's eight symmetries aside): no checkmate exists
  against the rook or the queen, so every position of those materials is dead for the
  bishop's side, and the stage must prove them; against the knight mates exist, and it
  must prove none;
* the compiled helpmate search, which only ever returns real mating lines, finds none
  wherever only this step proves a side unable to mate (random positions of a lone
  piece against mixed material), and does find mates in positions of the same kind the
  stage leaves open;
* the position CHA proves unwinnable without a search (a dark-squared bishop against
  nine queens and two rooks), and its relatives with one blocker made a knight, where
  the search finds a mate that python-chess replays.

The compiled stage must prove exactly what the Python stage proves on all of them.
"""

from __future__ import annotations

import random

import chess
import pytest

from reference_impl import Board, load_ruleset
from reference_impl.adjudication import verdicts
from reference_impl.adjudication.api import timeout
from reference_impl.core.squares import BLACK, WHITE
from reference_impl.errors import FenError
from reference_impl.unwinnability import Verdict, analyse, native
from reference_impl.unwinnability.mate import cannot_mate
from reference_impl.unwinnability.search import placement_of, static_proofs
from reference_impl.unwinnability.static import analyse_static

RULES = load_ruleset("fide-2023")

#: CHA 2.6.1 proves White unable to mate with 0 nodes: the
#: light squares next to any square Black's king can be mated on can be blocked only by
#: Black's queens and rooks (its bishop is dark-squared), and each such blocker can step
#: onto the first square of the bishop's diagonal, taking it or stepping between.
NINE_QUEENS = "krq5/bqqq4/qqr5/1qq5/8/8/8/3qB2K b - - 0 1"
#: One blocker made a knight, which answers no bishop check from a light square: the
#: compiled helpmate search finds White's mate in each (under 40,000 moves, measured).
KNIGHT_RELATIVES = [
    "krn5/bqqq4/qqr5/1qq5/8/8/8/3qB2K b - - 0 1",
    "krq5/bqqq4/qqr5/1qn5/8/8/8/3qB2K b - - 0 1",
    "krq5/bqqq4/qqr5/1qq5/8/8/8/3nB2K b - - 0 1",
    # White's bishop made a knight: its checks cannot be blocked, only taken
    "krq5/bqqq4/qqr5/1qq5/8/8/8/3qN2K b - - 0 1",
]
RELATIVE_NODES = 200_000
#: Nodes the helpmate search gets against each proof of the random sweep.
SWEEP_NODES = 20_000
#: Nodes it gets against each position the stage leaves open (most mates come early).
OPEN_NODES = 2_000
#: Measured with the seed below: of 3,000 positions, 164 proved by this step alone (all
#: a lone bishop against rooks, queens and same-coloured bishops), and 1,698 mates found
#: among the positions the stage leaves open.
SWEEP_POSITIONS = 3_000
MIN_ONLY_STEP_3 = 130
MIN_MATES_FOUND = 1_400


def _proofs_both_ways(board: Board) -> tuple[set[int], set[int]]:
    """The colours the Python stage proves unable to mate, with and without step 3."""
    placement = placement_of(board)
    analysis = analyse_static(placement)
    with_step = {c for c in (WHITE, BLACK) if cannot_mate(placement, analysis, c)}
    without = {c for c in (WHITE, BLACK) if cannot_mate(placement, analysis, c, lone_checker=False)}
    return with_step, without


def test_fide_2023_6_9_bishop_against_nine_queens_is_proven_unable_statically() -> None:
    board = Board.from_fen(NINE_QUEENS, RULES)
    with_step, without = _proofs_both_ways(board)
    assert WHITE in with_step and WHITE not in without
    assert native.static_stage(board, (WHITE, BLACK)) == static_proofs(board, (WHITE, BLACK))
    result = analyse(board, WHITE, 10_000_000)
    assert (result.verdict, result.stage) == (Verdict.CANNOT, "static")


def test_fide_2023_6_9_flag_fall_against_a_lone_bishop_and_nine_queens_is_a_draw() -> None:
    # FIDE 6.9: Black's flag falls, but White cannot mate by any series of legal moves.
    assert timeout("fide-2023", NINE_QUEENS, "black") == {"result": "1/2-1/2"}
    ruling = verdicts.flag_fall(RULES, Board.from_fen(NINE_QUEENS, RULES), BLACK)
    assert (ruling.result, ruling.cite) == ("1/2-1/2", "fide-2023:6.9")


@pytest.mark.parametrize("fen", KNIGHT_RELATIVES)
def test_a_blocker_that_cannot_answer_the_check_leaves_the_mate_possible(fen: str) -> None:
    board = Board.from_fen(fen, RULES)
    assert WHITE not in static_proofs(board, (WHITE,))
    assert WHITE not in native.static_stage(board, (WHITE,))
    found = native.helpmate(board, WHITE, RELATIVE_NODES)
    assert found.status == "mate"
    replay = chess.Board(fen)
    for uci in native.verified_line(board, found.line, WHITE):
        replay.push(chess.Move.from_uci(uci))  # raises on an illegal move
    assert replay.is_checkmate() and replay.turn == chess.BLACK


def _bishop_mates(loser_piece: chess.PieceType) -> int:
    """Checkmates of Black (to move) by White's king and bishop against Black's king and
    at most one ``loser_piece``: every placement with the bishop checking (only it can
    give check), Black's king on a1-d1-d4 (the other squares are its images under the
    board's symmetries, which keep every move of these pieces and every mate)."""
    board = chess.Board(None)
    corner = [sq for sq in chess.SQUARES if chess.square_rank(sq) <= chess.square_file(sq) <= 3]
    mates = 0
    for s in corner:
        for c in chess.SquareSet(chess.BB_DIAG_ATTACKS[s][0]):
            for k in chess.SQUARES:
                if k in (s, c) or chess.square_distance(k, s) <= 1:
                    continue
                for r in [None, *chess.SQUARES]:
                    if r in (s, c, k):
                        continue
                    pieces = {
                        s: chess.Piece(chess.KING, chess.BLACK),
                        c: chess.Piece(chess.BISHOP, chess.WHITE),
                        k: chess.Piece(chess.KING, chess.WHITE),
                    }
                    if r is not None:
                        pieces[r] = chess.Piece(loser_piece, chess.BLACK)
                    board.set_piece_map(pieces)
                    board.turn = chess.BLACK
                    mates += board.is_check() and board.is_checkmate()
    return mates


def _random_position(rng: random.Random, winner_pieces: list[str], loser_pieces: list[str]) -> str | None:
    """A legal position (python-chess and this project's FEN checks agreeing) with White's
    king and ``winner_pieces``, Black's king and ``loser_pieces``, either side to move."""
    board = chess.Board(None)
    units = ["K", *winner_pieces, "k", *(p.lower() for p in loser_pieces)]
    for symbol, sq in zip(units, rng.sample(range(64), len(units))):
        board.set_piece_at(sq, chess.Piece.from_symbol(symbol))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    if not board.is_valid() or board.is_check():
        return None
    try:
        Board.from_fen(board.fen(), RULES)
    except FenError:
        return None
    return board.fen()


@pytest.mark.slow  # the enumerations take about 12 s: left out of `tox -e fast`
@pytest.mark.parametrize(("loser_piece", "dead"), [(chess.ROOK, True), (chess.QUEEN, True), (chess.KNIGHT, False)])
def test_bishop_against_one_piece_agrees_with_python_chess_enumeration(loser_piece: chess.PieceType, dead: bool) -> None:
    mates = _bishop_mates(loser_piece)
    assert (mates == 0) is dead, mates
    rng = random.Random(loser_piece)
    letter = chess.piece_symbol(loser_piece).upper()
    proven = tried = 0
    while tried < 60:
        fen = _random_position(rng, ["B"], [letter])
        if fen is None:
            continue
        tried += 1
        board = Board.from_fen(fen, RULES)
        with_step, without = _proofs_both_ways(board)
        assert native.static_stage(board, (WHITE, BLACK)) == with_step, fen
        if dead:
            assert WHITE in with_step, fen  # no mate exists, so the step must see it
            proven += WHITE not in without
        else:
            assert WHITE not in with_step, fen
    if dead:
        assert proven == tried  # the step alone: without it the rook or queen still blocks


def _sweep_position(rng: random.Random) -> tuple[str, int] | None:
    """A piece (and its king, sometimes a second piece or pawns, whose reach may miss the
    squares the first one checks) against up to eight units, either colour the winner;
    the winner's colour with the position."""
    winner = [rng.choice("BBNRQ")] + ["P"] * rng.choice([0, 0, 0, 1, 2]) + [rng.choice("BN")] * rng.choice([0, 0, 1])
    loser = [rng.choice("QQRRBNP") for _ in range(rng.randrange(1, 9))]
    fen = _random_position(rng, winner, loser)
    if fen is None:
        return None
    if rng.random() < 0.5:  # the same position with the colours exchanged
        return chess.Board(fen).mirror().fen(), BLACK
    return fen, WHITE


@pytest.mark.slow  # about 10 s: left out of `tox -e fast`
def test_proofs_of_the_lone_checker_step_hold_against_the_helpmate_search() -> None:
    rng = random.Random(26)
    only = mates = 0
    positions = 0
    while positions < SWEEP_POSITIONS:
        case = _sweep_position(rng)
        if case is None:
            continue
        positions += 1
        fen, winner = case
        board = Board.from_fen(fen, RULES)
        with_step, without = _proofs_both_ways(board)
        assert without <= with_step, fen
        assert native.static_stage(board, (WHITE, BLACK)) == with_step, fen
        if winner in with_step:
            found = native.helpmate(board, winner, SWEEP_NODES)
            assert found.status != "mate", (fen, found.line)
            only += winner not in without
        else:
            found = native.helpmate(board, winner, OPEN_NODES)
            if found.status == "mate":
                native.verified_line(board, found.line, winner, uci=False)
                mates += 1
    print(f"{only} proofs by the lone-checker step alone, {mates} mates among the rest")
    assert only >= MIN_ONLY_STEP_3
    assert mates >= MIN_MATES_FOUND
