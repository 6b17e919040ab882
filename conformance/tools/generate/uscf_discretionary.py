"""``game_end`` fixtures for US Chess 14K: the draws a director may declare.

Under US Chess the fivefold repetition and the 75-move rule do not end the game: 14K1
"the director may declare the game drawn" when the same position stands after five
consecutive alternate moves by each player, 14K2 likewise after 75 moves by each player
without a capture or a pawn move. ``game_end`` answers ``*`` there and lists the draw
in ``declarable`` (an addition to protocol v1). These fixtures state that list on both
sides of each threshold: five occurrences in consecutive alternate moves and four, five
not consecutive, 150 plies and 149.

The verdicts are written from the articles; python-chess replays the moves (any illegal
one stops the generator) and counts the halfmove clock.

Run: ``python -m conformance.tools.generate.uscf_discretionary --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

from .common import DataError, Fixture, checked_board, fixture, main

US_RULESETS = ["uscf-7", "uscf-7-blitz"]
START = chess.STARTING_FEN
SHUFFLE = "Nf3 Nf6 Ng1 Ng8"
QUEEN = "7k/8/6K1/8/8/8/8/1Q6 w - - {clock} 150"
K1 = ("US Chess 14K1: the director may declare a draw when the same position has appeared after "
      "five consecutive alternate moves by each player; 14C: three occurrences can be claimed")
K2 = ("US Chess 14K2: the director may declare a draw after 75 moves by each player without a "
      "capture or a pawn move; 14F: after 50 the player to move can claim")
#: (name, FEN, SAN moves, description, claimable, declarable, cites, detail)
CASES: list[tuple[str, str, str, str, list[str], list[str], tuple[str, ...], str]] = [
    ("fivefold-consecutive", START, " ".join([SHUFFLE] * 4),
     "the initial position five times in consecutive alternate moves",
     ["threefold_repetition"], ["fivefold_repetition"], ("uscf-7:14K1", "uscf-7:14C"),
     f"{K1}: five occurrences, each two moves by each player after the last"),
    ("fourfold-consecutive", START, " ".join([SHUFFLE] * 3),
     "the initial position four times in consecutive alternate moves",
     ["threefold_repetition"], [], ("uscf-7:14K1", "uscf-7:14C"),
     f"{K1}: four occurrences are not five"),
    ("fivefold-not-consecutive", START,
     f"{SHUFFLE} {SHUFFLE} Nf3 Nf6 Nc3 Nc6 Nb1 Nb8 Ng1 Ng8 {SHUFFLE}",
     "five occurrences with a longer cycle in between",
     ["threefold_repetition"], [], ("uscf-7:14K1", "uscf-7:14C"),
     f"{K1}: five occurrences, but a four-move cycle between two of them, so not on "
     "consecutive alternate moves"),
    ("seventy-five", QUEEN.format(clock=149), "Qb7",
     "the 75th move by each player without a capture or a pawn move",
     ["fifty_moves"], ["seventy_five_moves"], ("uscf-7:14K2",),
     f"{K2}: 150 plies"),
    ("seventy-five-one-ply-short", QUEEN.format(clock=148), "Qb7",
     "149 plies without a capture or a pawn move: one ply short of 75 moves each",
     ["fifty_moves"], [], ("uscf-7:14K2",), f"{K2}: 149 plies are not 75 moves by each"),
]


def discretionary_fixtures() -> list[Fixture]:
    """One game_end fixture per case, under both US Chess rulesets."""
    out = []
    for name, fen, san, description, claimable, declarable, cites, detail in CASES:
        board = checked_board(fen)
        moves = []
        for text in san.split():
            move = board.parse_san(text)
            moves.append(move.uci())
            board.push(move)
        if "seventy_five_moves" in declarable and board.halfmove_clock < 150:
            raise DataError(f"game_end.uscf.{name}: halfmove clock {board.halfmove_clock}, not 150")
        out.append(fixture(
            f"game_end.uscf.{name}", "game_end", description, US_RULESETS,
            {"fen": fen, "moves": moves},
            expect={"result": "*", "reason": None, "claimable": claimable, "declarable": declarable},
            cites=cites, tags={"hand-built", "discretionary", "protocol-addition",
                               "fivefold-repetition" if "K1" in cites[0] else "seventy-five-moves"},
            method="laws", detail=detail))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """game_end fixtures: the draws US Chess 14K leaves to the director."""
    del data
    return {"game_end-uscf.jsonl": discretionary_fixtures()}


if __name__ == "__main__":
    sys.exit(main("uscf_discretionary", build))
