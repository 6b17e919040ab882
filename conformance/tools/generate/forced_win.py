"""``timeout`` fixtures for US Chess 14E2's forced win.

14E2 draws a flag fall against king and knight (or bishop) only when that side "does not
have a forced win", and 14E3 the same against two knights. The text gives no distance: a
forced mate at any length loses on time. Two groups of fixtures:

* three built by hand, each mate distance proven exact by python-chess's exhaustive
  AND/OR search (:func:`.uscf_flag.forced_mate`; the generator stops if it disagrees):
  the knight's side to move and mate in exactly five moves (nine plies); the flagged
  side to move and mate on the knight's fifth move (ten plies), beyond the nine plies a
  bounded reading would search; two knights against a bare king, mate in one (14E3's
  own clause: a forced win, so the flag loses although the flagged player has no pawns).
  The first two are from one line of Stockfish's mate from ``8/8/p7/8/8/p7/7N/k2K4 w``;
* the positions of ``data/forced-win-mates.txt`` (drawn by
  :mod:`.forced_win_search`): K+N or K+B against king and pawns, the flagged side to
  move, where Stockfish reports ``mate -M`` for it (M from 5 to 12 moves): a forced win,
  so both FIDE 6.9 (a forced mate is a series of legal moves) and 14E lose on time; and a
  few where Stockfish reports no mate at its depth and the minor piece's side is not
  winning: 14E2's draw, for the US Chess rulesets only (whether a helpmate exists, which
  FIDE 6.9 asks, is not settled there). Each fixture's ``source`` states the engine, the
  depth and the score.

Run: ``python -m conformance.tools.generate.forced_win --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

from .common import DataError, Fixture, OracleMismatch, checked_board, fixture, main
from .unwinnable import timeout_fixture, timeout_result
from .uscf_flag import USCF_FLAG, UsVerdict, forced_mate, row_for

#: (name, FEN, flagged colour, the exact forced-mate distance in plies for the other side).
EDGES: list[tuple[str, str, chess.Color, int]] = [
    ("mate-in-9-plies", "8/8/8/8/p7/p1N5/8/k1K5 w - - 0 7", chess.BLACK, 9),
    ("mate-in-10-plies", "8/8/8/p7/8/p1N5/8/k1K5 b - - 7 6", chess.BLACK, 10),
    ("two-knights-mate-in-one", "k7/8/K1N5/8/2N5/8/8/8 w - - 0 1", chess.BLACK, 1),
]
#: The Stockfish-verified positions (see :mod:`.forced_win_search`).
MATES_FILE = "forced-win-mates.txt"
MINOR_NAMES = {chess.KNIGHT: "knight", chess.BISHOP: "bishop"}


def exact_distance(board: chess.Board, winner: chess.Color, plies: int) -> bool:
    """True if ``winner`` forces mate within ``plies`` plies and not within fewer
    (a mate lands on the winner's ply, so two plies fewer is the next shorter one)."""
    return forced_mate(board, winner, plies) and not forced_mate(board, winner, plies - 2)


def _loss(flagged: chess.Color) -> str:
    return "0-1" if flagged == chess.WHITE else "1-0"


def edge_fixtures() -> list[Fixture]:
    """One flag fall per hand-built case, with FIDE 6.9's and US Chess 14E's expectations."""
    out = []
    for name, fen, flagged, plies in EDGES:
        board = checked_board(fen)
        winner = not flagged
        if not exact_distance(board, winner, plies):
            raise OracleMismatch(f"forced_win {name}: python-chess finds no forced mate in "
                                 f"exactly {plies} plies in {fen}")
        row = row_for(board, flagged)
        assert row is not None and row[2], name
        fide = timeout_result(board, flagged, True, False)
        us = UsVerdict(_loss(flagged), ["uscf-7:14E", row[3]],
                       f"{row[3][7:]} does not apply: the opponent forces mate in {plies} "
                       f"{'ply' if plies == 1 else 'plies'} (python-chess exhaustive search), "
                       "and the rule's forced win has no bound")
        side = chess.COLOR_NAMES[winner]
        origin = ("built by hand" if plies == 1 else
                  "position from Stockfish's mating line of 8/8/p7/8/8/p7/7N/k2K4 w")
        pieces = "two knights" if len(board.pieces(chess.KNIGHT, winner)) == 2 else "knight"
        what = (f"{chess.COLOR_NAMES[flagged]} oversteps the time limit; {side} (king and {pieces}) "
                f"forces mate in exactly {plies} {'ply' if plies == 1 else 'plies'}")
        out.append(timeout_fixture(
            f"timeout.forced-win.{name}", what, fen, flagged, fide, us,
            {"flag-fall", "hand-built"}, "laws+oracle",
            f"{origin}; mate distance {plies} {'ply' if plies == 1 else 'plies'} proven exact by "
            f"python-chess's exhaustive search (none within {plies - 2}); FIDE 6.9 applied by hand: {fide[1]}"))
    return out


def stockfish_fixtures(path: Path) -> list[Fixture]:
    """One flag fall per line of ``path``: ``FEN;flagged;mate moves or -;engine;depth;score``."""
    if not path.is_file():
        raise DataError(f"{path}: missing (draw it with python -m conformance.tools.generate.forced_win_search)")
    out = []
    counts: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            fen, flagged_name, moves, engine, depth, score = line.split(";")
        except ValueError:
            raise DataError(f"{path}:{number}: expected 6 fields separated by ';'") from None
        board = checked_board(fen)
        flagged = chess.WHITE if flagged_name == "white" else chess.BLACK
        if board.turn != flagged:
            raise DataError(f"{path}:{number}: the flagged side must be to move")
        row = row_for(board, flagged)
        if row is None or not row[2]:
            raise DataError(f"{path}:{number}: not 14E2/14E3 material")
        winner = not flagged
        minor = next(MINOR_NAMES[p.piece_type] for p in board.piece_map().values()
                     if p.color == winner and p.piece_type != chess.KING)
        side, name = chess.COLOR_NAMES[winner], chess.COLOR_NAMES[flagged]
        verified = f"{engine}, position fen then go depth {depth}: score {score} for {name} to move"
        if moves != "-":
            fid = f"timeout.forced-win.stockfish.{minor}-mate-in-{moves}"
            counts[fid] = counts.get(fid, 0) + 1
            if counts[fid] > 1:
                fid += f".{counts[fid]}"
            if score != f"mate -{moves}":
                raise DataError(f"{path}:{number}: score {score!r} is not mate -{moves}")
            fide = timeout_result(board, flagged, True, False)
            us = UsVerdict(_loss(flagged), ["uscf-7:14E", row[3]],
                           f"{row[3][7:]} does not apply: the opponent forces mate in {moves} moves ({verified})")
            out.append(timeout_fixture(
                fid, f"{name} oversteps the time limit with the move; {side} (king and {minor}) "
                f"forces mate in {moves} moves", fen, flagged, fide, us,
                {"flag-fall", "stockfish"}, "laws+oracle",
                f"drawn by conformance/tools/generate/forced_win_search.py; {verified}; "
                f"FIDE 6.9 applied by hand: {fide[1]} (a forced mate is a series of legal moves)"))
        else:
            counts["none"] = counts.get("none", 0) + 1
            out.append(fixture(
                f"timeout.forced-win.stockfish.no-mate-{counts['none']}", "timeout",
                f"{name} oversteps the time limit with the move; {side} (king and {minor}) has no "
                "forced mate and is not winning", USCF_FLAG,
                {"fen": fen, "flagged": name}, expect={"result": "1/2-1/2"},
                cites=["uscf-7:14E", row[3]], tags={"flag-fall", "stockfish"}, method="laws+oracle",
                detail=f"drawn by conformance/tools/generate/forced_win_search.py; {verified}, no mate; "
                f"US Chess 14E applied by hand: {row[3][7:]}: the opponent has only a king and a "
                f"{minor} and no forced win, a draw (FIDE 6.9 left out: whether a helpmate "
                "exists is not settled here)"))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """timeout fixtures for US Chess 14E2/14E3's forced win."""
    return {"timeout-forced-win.jsonl": edge_fixtures() + stockfish_fixtures(data / MATES_FILE)}


if __name__ == "__main__":
    sys.exit(main("forced_win", build))
