"""The compiled searches' goal direction and the length of the lines they report.

A ``CAN`` is only as good as its line: an arbiter reads it, so it must be legal, end in
the right side's checkmate and be short enough to read. Every line here is replayed by
python-chess (the independent oracle), which must see the asked side deliver mate; the
length bounds are the ones the analysis promises (``MAX_REPORTED_LINE``, and under 1,000
plies for the walk's line in a position whose walk once reported 202,582).
"""

from __future__ import annotations

import chess
import pytest

from reference_impl import BLACK, WHITE, Board, load_ruleset
from reference_impl.adjudication.verdicts import flag_fall_node_limit
from reference_impl.unwinnability import FIRST_WALK_SHARE, MAX_REPORTED_LINE, PROBE_NODES, Verdict, analyse, native

from helpmate_oracle import mates

pytestmark = pytest.mark.slow  # left out of `tox -e fast`

RULES = load_ruleset("fide-2023")
#: The flag-fall question's budget in the rulesets (10,000,000 moves).
FLAG_FALL_LIMIT = flag_fall_node_limit(RULES)
#: Eight bishops on one diagonal system, a king walled in by its own pawns: White can
#: mate only after a long regrouping (CHA, 500,000 nodes: undetermined).
EIGHT_BISHOPS = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 b - - 0 1"
#: An arbiter reads the line: the bound the walk's shortening must keep here.
EIGHT_BISHOPS_MAX_PLIES = 1000


def test_fide_2023_6_9_two_knights_mate_after_taking_both_queens() -> None:
    # White's flag falls; can Black (K+2N) mate White (K+2Q)? Only if the queens are
    # given up: the knights alone cannot hold them off a mating square. CHA finds a
    # 68-ply helpmate; the search must offer the loser's strong units to be taken.
    fen = "6nn/8/8/8/8/1k6/6K1/Q1Q5 w - - 0 1"
    result = analyse(Board.from_fen(fen, RULES), BLACK, FLAG_FALL_LIMIT)
    assert result.verdict is Verdict.CAN
    assert mates(fen, result.line, chess.BLACK)
    replay = chess.Board(fen)
    for uci in result.line:
        replay.push_uci(uci)
    assert not replay.pieces(chess.QUEEN, chess.WHITE)  # both queens were taken on the way


def test_fide_2023_6_9_eight_bishops_line_is_short_enough_to_read() -> None:
    result = analyse(Board.from_fen(EIGHT_BISHOPS, RULES), WHITE, FLAG_FALL_LIMIT)
    assert result.verdict is Verdict.CAN
    assert len(result.line) < EIGHT_BISHOPS_MAX_PLIES
    assert mates(EIGHT_BISHOPS, result.line, chess.WHITE)


def test_walk_reports_a_short_line_through_the_positions_it_visited() -> None:
    # The walk alone, on a budget where it meets White's mate without closing: its
    # depth-first path to that mate is as deep as its stack was, 202,582 plies here;
    # the breadth-first pass over its visited set and the segment shortening bring the
    # reported line under the bound, to the same or another mate by White.
    board = Board.from_fen(EIGHT_BISHOPS, RULES)
    found = native.explore(board, {WHITE, BLACK}, 2_000_000)
    assert WHITE in found.mates
    line = native.verified_line(board, found.mates[WHITE], WHITE)
    assert len(line) < EIGHT_BISHOPS_MAX_PLIES
    assert mates(EIGHT_BISHOPS, line, chess.WHITE)


@pytest.mark.parametrize(
    ("fen", "side"),
    [
        # Lichess flag falls decided by the walk, whose mating paths were 120 and 56 plies
        ("8/8/5n2/3k4/3P3P/3K4/8/8 w - - 5 74", BLACK),
        ("8/5pp1/4b3/4b1K1/1B6/3p1k2/8/8 b - - 4 45", WHITE),
        # K+B against K+P: the pawn must promote into the blocker (a knight)
        ("8/b7/8/5k2/5P2/8/4K3/8 w - - 0 60", BLACK),
        # K+N against K+R+P: the rook stands beside the cornered king
        ("1r6/3KN3/8/1p6/k7/8/8/8 b - - 1 59", WHITE),
    ],
)
def test_fide_2023_6_9_lichess_tail_lines_replay_within_the_report_bound(fen: str, side: int) -> None:
    result = analyse(Board.from_fen(fen, RULES), side, FLAG_FALL_LIMIT)
    assert result.verdict is Verdict.CAN
    assert len(result.line) <= MAX_REPORTED_LINE
    assert mates(fen, result.line, chess.WHITE if side == WHITE else chess.BLACK)


#: Moves the compiled helpmate search may make on the positions below: each was found
#: only past 90,000 moves (91,329 to 199,381 by the whole analysis) before the mirror
#: picture, and is found within 21,000 now.
LONE_MINOR_BOUND = 25_000


@pytest.mark.parametrize(
    ("fen", "side"),
    [
        # Lichess flag falls: a lone minor against pawns (and a rook or bishop) that
        # must become its blockers. The mates the search finds: K+N against K+2P, Ka8
        # behind its promoted bishop on a7 (the corner's file); K+N against K+R+4P, Ka8
        # behind its pawns on a7 and b7; K+B against K+R+3P, Kh1 behind its pawn on h2
        # (the file); K+B against K+2P, Kh1 beside its promoted knight on g1 (the rank).
        ("8/8/5n2/3k4/3P3P/3K4/8/8 w - - 5 74", BLACK),
        ("8/pp4pk/8/2pp2N1/8/5K2/r7/8 b - - 1 40", WHITE),
        ("8/8/1p6/5pk1/5r1p/8/4K3/3B4 b - - 1 60", WHITE),
        ("2b5/2P5/1K6/P7/1k6/8/8/8 w - - 7 61", BLACK),
    ],
)
def test_fide_2023_6_9_lone_minor_mates_beside_a_blocker_on_either_side_of_the_corner(fen: str, side: int) -> None:
    found = native.helpmate(Board.from_fen(fen, RULES), side, 50_000)
    assert found.status == "mate" and found.nodes <= LONE_MINOR_BOUND
    line = native.verified_line(Board.from_fen(fen, RULES), found.line, side)
    assert mates(fen, line, chess.WHITE if side == WHITE else chess.BLACK)


def test_fide_2023_6_9_loser_promotes_to_the_unit_that_reaches_the_blocker_square() -> None:
    # K+B against K+Q+4P (a Lichess flag fall): Black's pawns promote, and a queen that
    # can step onto the blocker's square next is progress like a minor piece. The probe's
    # budget (20,000 moves) finds it; before, 251,970 moves were needed.
    fen = "8/q5k1/p5p1/1p1Bp3/5p2/5K2/8/8 b - - 3 43"
    found = native.helpmate(Board.from_fen(fen, RULES), WHITE, 20_000)
    assert found.status == "mate"
    assert mates(fen, native.verified_line(Board.from_fen(fen, RULES), found.line, WHITE), chess.WHITE)


def test_fide_2023_6_9_a_mate_just_past_the_probe_is_tried_before_the_first_walk() -> None:
    # K+N against K+2P (a Lichess flag fall): the probe misses the mate, the tiny walk
    # does not close, the early helpmate trial finds it; the 50,000-move walk is not made.
    fen = "8/8/5n2/3k4/3P3P/3K4/8/8 w - - 5 74"
    result = analyse(Board.from_fen(fen, RULES), BLACK, FLAG_FALL_LIMIT)
    assert result.verdict is Verdict.CAN and result.stage == "helpmate"
    assert result.nodes < PROBE_NODES + int(FLAG_FALL_LIMIT * FIRST_WALK_SHARE)
    assert mates(fen, result.line, chess.BLACK)
