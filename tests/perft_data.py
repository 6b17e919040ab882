"""Readers for the public perft suites the project ships (conformance/tools/generate/data).

EPD lines get the clocks ``0 1`` (a FEN has six fields). Positions with a check no last
move can give (python-chess ``STATUS_IMPOSSIBLE_CHECK``) are left out: they are illegal
positions (FIDE 3.10.3) that the reference refuses, as the corpus's validate_fen
fixtures test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, NamedTuple

import chess

DATA = Path(__file__).resolve().parent.parent / "conformance" / "tools" / "generate" / "data"


def _fen(epd: str) -> str:
    fields = epd.split()
    return " ".join(fields + ["0", "1"] if len(fields) == 4 else fields)


def _reachable(fen: str) -> bool:
    return not chess.Board(fen, chess960=True).status() & chess.STATUS_IMPOSSIBLE_CHECK


class PerftCase(NamedTuple):
    suite: str
    id: str
    fen: str
    depth: int
    nodes: int


def perft_file(name: str) -> Iterator[PerftCase]:
    """Cases of a python-chess style ``.perft`` file (``id``, ``epd``, ``perft D N``)."""
    case_id = fen = ""
    for line in (DATA / name).read_text().splitlines():
        line = line.strip()
        if line.startswith("id "):
            case_id = line[3:]
        elif line.startswith("epd "):
            fen = line[4:]
        elif line.startswith("perft "):
            _, depth, nodes = line.split()
            if _reachable(_fen(fen)):
                yield PerftCase(name, case_id, _fen(fen), int(depth), int(nodes))


def perftsuite() -> Iterator[PerftCase]:
    """Cases of the classic ``perftsuite.epd`` (``FEN ;D1 n ;D2 n ...``)."""
    for number, line in enumerate((DATA / "perftsuite.epd").read_text().splitlines(), 1):
        if not line.strip():
            continue
        fen, *counts = (part.strip() for part in line.split(";"))
        for count in counts:
            depth, nodes = count.split()
            if _reachable(_fen(fen)):
                yield PerftCase("perftsuite.epd", f"line-{number}", _fen(fen), int(depth[1:]), int(nodes))
