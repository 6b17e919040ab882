"""Readers for the public perft suites the project ships (conformance/generate/data)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, NamedTuple

DATA = Path(__file__).resolve().parent.parent / "conformance" / "generate" / "data"


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
            yield PerftCase(name, case_id, fen, int(depth), int(nodes))


def perftsuite() -> Iterator[PerftCase]:
    """Cases of the classic ``perftsuite.epd`` (``FEN ;D1 n ;D2 n ...``)."""
    for number, line in enumerate((DATA / "perftsuite.epd").read_text().splitlines(), 1):
        if not line.strip():
            continue
        fen, *counts = (part.strip() for part in line.split(";"))
        for count in counts:
            depth, nodes = count.split()
            yield PerftCase("perftsuite.epd", f"line-{number}", fen, int(depth[1:]), int(nodes))
