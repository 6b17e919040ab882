"""``timeout`` fixtures at the edge of US Chess 14E2's forced-win bound.

14E2 draws a flag fall against king and knight (or bishop) only when that side "does not
have a forced win". ``uscf-7`` reads the unbounded phrase as a forced mate within nine
plies (``flag_fall.forced_win_max_plies``, mate in five moves); these fixtures sit on
that edge, so a table that says eight or ten plies is noticed:

* the knight's side to move, mate in exactly five moves (nine plies): a forced win
  within the bound, the flag loses;
* the flagged side to move, mate on the knight's fifth move (ten plies): beyond the
  bound, so ``uscf-7`` draws (tagged ``forced-win-bounded``: the text's unbounded
  reading would give the loss);
* 14E3's own clause: two knights against a bare king mate in one, a forced win, so the
  flag loses although the flagged player has no pawns.

The first two positions are from one line of Stockfish's mate in 11 from ``8/8/p7/8/8/p7/7N/k2K4 w``
(a knight and king against two rook's pawns). Each mate distance is settled by
python-chess's exhaustive AND/OR search (:func:`.uscf_flag.forced_mate`), which proves
both that the mate exists and that none is shorter; the generator stops if it does not.
FIDE 6.9: the opponent can checkmate (a forced mate is a series of legal moves), so
the flag loses there.

Run: ``python -m conformance.generate.forced_win --data conformance/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

from .common import Fixture, OracleMismatch, checked_board, main
from .unwinnable import timeout_fixture, timeout_result
from .uscf_flag import FORCED_PLIES, forced_mate, uscf_flag

#: (name, FEN, flagged colour, the exact forced-mate distance in plies for the other side).
EDGES: list[tuple[str, str, chess.Color, int]] = [
    ("mate-at-bound", "8/8/8/8/p7/p1N5/8/k1K5 w - - 0 7", chess.BLACK, FORCED_PLIES),
    ("mate-beyond-bound", "8/8/8/p7/8/p1N5/8/k1K5 b - - 7 6", chess.BLACK, FORCED_PLIES + 1),
    ("two-knights-mate-in-one", "k7/8/K1N5/8/2N5/8/8/8 w - - 0 1", chess.BLACK, 1),
]


def exact_distance(board: chess.Board, winner: chess.Color, plies: int) -> bool:
    """True if ``winner`` forces mate within ``plies`` plies and not within fewer
    (a mate lands on the winner's ply, so two plies fewer is the next shorter one)."""
    return forced_mate(board, winner, plies) and not forced_mate(board, winner, plies - 1)


def edge_fixtures() -> list[Fixture]:
    """One flag fall per edge case, with FIDE 6.9's and US Chess 14E2's expectations."""
    out = []
    for name, fen, flagged, plies in EDGES:
        board = checked_board(fen)
        winner = not flagged
        if not exact_distance(board, winner, plies):
            raise OracleMismatch(f"forced_win {name}: python-chess finds no forced mate in "
                                 f"exactly {plies} plies in {fen}")
        fide = timeout_result(board, flagged, True, False)
        us = uscf_flag(board, flagged, True, False)
        side = chess.COLOR_NAMES[winner]
        origin = ("built by hand" if plies == 1 else
                  "position from Stockfish's mating line of 8/8/p7/8/8/p7/7N/k2K4 w")
        pieces = "two knights" if len(board.pieces(chess.KNIGHT, winner)) == 2 else "knight"
        what = (f"{chess.COLOR_NAMES[flagged]} oversteps the time limit; {side} (king and {pieces}) "
                f"forces mate in exactly {plies} {'ply' if plies == 1 else 'plies'}, the forced-win bound being {FORCED_PLIES}")
        out.append(timeout_fixture(
            f"timeout.forced-win.{name}", what, fen, flagged, fide, us,
            {"flag-fall", "hand-built"}, "laws+oracle",
            f"{origin}; mate distance "
            f"{plies} plies proven exact by python-chess's exhaustive search (none within "
            f"{plies - 1}); FIDE 6.9 applied by hand: {fide[1]}"))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """timeout fixtures on the edge of uscf-7's forced-win bound (14E2)."""
    del data  # hand-built: no data file
    return {"timeout-forced-win.jsonl": edge_fixtures()}


if __name__ == "__main__":
    sys.exit(main("forced_win", build))
