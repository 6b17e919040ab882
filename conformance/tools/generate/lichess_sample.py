"""Draw the shipped sample of real flag falls from the lichess-timeouts file.

The source holds final positions of Lichess games lost on time, one a line, each with
the Chess Unwinnability Analyzer's verdict for the side *not* to move (the player whose
flag did not fall). The sample is every ``STRIDE``-th data row, starting with the first,
plus every row the analyser calls unwinnable (the rare draws), in source order, with the
columns unchanged. The same source gives the same sample byte for byte.

Run: ``python -m conformance.tools.generate.lichess_sample SOURCE --out
tests/data/unwinnability/lichess-sample.txt --out conformance/tools/generate/data/lichess-sample.txt``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from reference_impl.errors import ArbiterError, UsageError

from .common import DataError

#: Every STRIDE-th data row goes into the sample.
STRIDE = 50
SIDES = ("white", "black")
VERDICTS = ("winnable", "unwinnable")
SOURCE_NAME = ("lichess-timeouts (final positions of Lichess games lost on time, from "
               "D3-Chess tests/lichess-30K-games.txt, with Chess Unwinnability Analyzer "
               "2.6.1 full-mode verdicts)")
HEADER = """\
# A sample of real flag falls: final positions of Lichess games lost on time.
# Source: lichess-timeouts, {total:,} final positions of games lost on time from D3-Chess
# tests/lichess-30K-games.txt, each with the verdict of the Chess Unwinnability Analyzer
# (CHA) 2.6.1 in full mode. This sample: every {stride}th data row, starting with the
# first, plus every row whose verdict is unwinnable; source order, columns unchanged.
# {count} rows: {winnable} winnable, {unwinnable} unwinnable.
# Redraw with conformance/tools/generate/lichess_sample.py (same source, same bytes).
# Tab-separated columns:
#   1 FEN (six fields); the side to move is the player whose flag fell
#   2 the Lichess game id
#   3 the side asked about: the other player, who wins on time unless it can never mate
#   4 CHA's answer for that side: winnable (a checkmate by it is reachable by
#     some series of legal moves) or unwinnable (none is)
#   5 for winnable rows, a mating sequence for that side in UCI, space-separated, from the
#     FEN (may be empty); empty for unwinnable rows
"""


@dataclass(frozen=True)
class Row:
    """One data row of the source or the sample."""

    fen: str
    game: str
    side: str
    verdict: str
    helpmate: tuple[str, ...]

    def line(self) -> str:
        return "\t".join((self.fen, self.game, self.side, self.verdict, " ".join(self.helpmate)))


def parse(text: str, name: str) -> list[Row]:
    """The data rows of a lichess-timeouts file (``#`` lines are comments)."""
    rows = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cells = raw.split("\t")
        if len(cells) != 5:
            raise DataError(f"{name}:{number}: expected 5 tab-separated columns, found {len(cells)}")
        fen, game, side, verdict, line = cells
        fields = fen.split()
        if len(fields) != 6 or fields[1] not in ("w", "b"):
            raise DataError(f"{name}:{number}: not a six-field FEN: {fen[:60]!r}")
        if side not in SIDES or verdict not in VERDICTS:
            raise DataError(f"{name}:{number}: unknown side or verdict {side!r} {verdict!r}")
        if side[0] == fields[1]:
            raise DataError(f"{name}:{number}: the side asked ({side}) is the side to move")
        if verdict == "unwinnable" and line.strip():
            raise DataError(f"{name}:{number}: an unwinnable row carries a mating line")
        rows.append(Row(fen, game, side, verdict, tuple(line.split())))
    if not rows:
        raise DataError(f"{name}: no data rows")
    return rows


def draw(rows: list[Row], stride: int = STRIDE) -> list[Row]:
    """Every ``stride``-th row from the first, plus every unwinnable row, in order."""
    return [row for index, row in enumerate(rows)
            if index % stride == 0 or row.verdict == "unwinnable"]


def render(rows: list[Row], total: int, stride: int = STRIDE) -> str:
    """The sample file: header, then one line per row."""
    unwinnable = sum(row.verdict == "unwinnable" for row in rows)
    head = HEADER.format(total=total, stride=stride, count=len(rows),
                         winnable=len(rows) - unwinnable, unwinnable=unwinnable)
    return head + "".join(row.line() + "\n" for row in rows)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``SOURCE --out FILE [--out FILE]``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m conformance.tools.generate.lichess_sample",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("source", type=Path, help="the lichess-timeouts file")
    parser.add_argument("--out", type=Path, action="append", required=True,
                        help="sample file to write (repeat for copies)")
    args = parser.parse_args(argv)
    try:
        if not args.source.is_file():
            raise DataError(f"source file not found: {args.source}")
        for out in args.out:
            if not out.parent.is_dir():
                raise UsageError(f"--out: no such directory: {out.parent}")
        rows = parse(args.source.read_text(encoding="utf-8"), args.source.name)
        text = render(draw(rows), len(rows))
        for out in args.out:
            out.write_text(text, encoding="utf-8")
            print(f"{out}: {text.count(chr(10)) - HEADER.count(chr(10))} rows")
    except ArbiterError as error:
        print(f"lichess_sample: {error}", file=sys.stderr)
        return error.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
