"""``start_position`` fixtures: all 960 Chess960 numbers and their arrays.

Each expectation is python-chess's ``Board.from_chess960_pos(n).fen()``, checked
against a direct implementation of Scharnagl's numbering scheme below (light bishop,
dark bishop, queen, then the knight-rook-king pattern), so two derivations agree.

Run: ``python -m conformance.tools.generate.start --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

from .common import CHESS960, ORACLE, Fixture, OracleMismatch, fixture, main

#: The five remaining squares, left to right, for the last digit 0..9.
KRN = ["NNRKR", "NRNKR", "NRKNR", "NRKRN", "RNNKR", "RNKNR", "RNKRN", "RKNNR", "RKNRN", "RKRNN"]


def scharnagl_rank(number: int) -> str:
    """White's first rank (files a..h) for start position ``number``."""
    rank = [""] * 8
    number, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    number, dark = divmod(number, 4)
    rank[2 * dark] = "B"
    number, queen = divmod(number, 6)
    empty = [i for i, piece in enumerate(rank) if not piece]
    rank[empty[queen]] = "Q"
    for square, piece in zip([i for i, p in enumerate(rank) if not p], KRN[number]):
        rank[square] = piece
    return "".join(rank)


def build(data: Path) -> dict[str, list[Fixture]]:
    """960 start_position fixtures, python-chess and the numbering scheme agreeing."""
    del data
    out = []
    for number in range(960):
        fen = chess.Board.from_chess960_pos(number).fen()
        own = scharnagl_rank(number)
        if fen.split("/")[-1].split()[0] != own or fen.split("/")[0] != own.lower():
            raise OracleMismatch(f"start.n{number:03d}: python-chess {fen}, scheme {own}")
        tags = {"chess960", "start-position"} | ({"published"} if number == 518 else set())
        out.append(fixture(f"start.n{number:03d}", "start_position",
                           f"Chess960 start position {number}: {own}", CHESS960,
                           {"number": number}, expect={"fen": fen},
                           cites=["scharnagl:numbering", "scharnagl:light-bishop",
                                  "scharnagl:dark-bishop", "scharnagl:queen", "scharnagl:krn",
                                  "fide-2023:II.2", "fide-2023:II.2.1", "fide-2023:II.2.2",
                                  "fide-2023:II.2.3"],
                           tags=tags, method="oracle+laws",
                           detail=f"{ORACLE} Board.from_chess960_pos; the Scharnagl "
                                  "numbering scheme recomputed independently"))
    return {"start_position.jsonl": out}


if __name__ == "__main__":
    sys.exit(main("start", build))
