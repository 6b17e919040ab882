"""Perft fixtures from the published suites, each recomputed with python-chess.

Reads ``tricky.perft``, ``special.perft``, ``chess960.perft``, ``random.perft`` (python-chess's
``examples/perft`` format: ``id``, ``epd``, ``perft DEPTH NODES`` lines) and
``perftsuite.epd`` (``FEN ;D1 n ;D2 n ...``). Every published count that enters the
corpus is recomputed with python-chess; a mismatch aborts generation.

Run: ``python -m conformance.tools.generate.perft --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import chess

from conformance.implementations.python_chess import oracle_perft

from .common import (CHESS960, ORACLE, STANDARD_AND_960, DataError, Fixture,
                     OracleMismatch, data_file, fixture, full_fen, main, position_tags,
                     tag_cites)

#: Node budgets: the bulk stays under SMALL; a few published depths may reach LARGE.
SMALL = 50_000
LARGE = 500_000
#: Deterministic samples: every N-th entry of the big files gets deeper fixtures.
CHESS960_DEEP_EVERY = 16  # depth 3 for ids 0, 16, 32, ...
RANDOM_EVERY = 16  # gentest-1, 17, 33, ... at depths 1 and 2
RANDOM_DEEP_EVERY = 64  # gentest-1, 65, 129, ... also at depth 3 (if under SMALL)
#: Depth 0 counts the position itself: one leaf, whatever the position (mate, stalemate and
#: Chess960 castling data included). (name, FEN, Chess960 only).
DEPTH_ZERO: list[tuple[str, str, bool]] = [
    ("start", chess.STARTING_FEN, False),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", False),
    ("checkmated", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", False),
    ("stalemated", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", False),
    ("en-passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", False),
    ("chess960-n000", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", True),
]


@dataclass(frozen=True)
class Entry:
    """One published position with its counts by depth."""

    name: str
    fen: str
    counts: dict[int, int]


def read_perft_file(path: Path) -> list[Entry]:
    """Parse python-chess's ``.perft`` format."""
    entries: list[Entry] = []
    name = fen = None
    counts: dict[int, int] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "id":
            if name is not None and fen is not None:
                entries.append(Entry(name, fen, counts))
            name, fen, counts = rest.strip(), None, {}
        elif word == "epd":
            fen = full_fen(rest.strip())
        elif word == "perft":
            depth, nodes = rest.split()
            counts[int(depth)] = int(nodes)
        else:
            raise DataError(f"{path.name}:{number}: unexpected line {line!r}")
    if name is not None and fen is not None:
        entries.append(Entry(name, fen, counts))
    return entries


def read_suite(path: Path) -> list[Entry]:
    """Parse ``perftsuite.epd``; entries are named ``l<line>`` by their line number."""
    entries: list[Entry] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        fen, *depths = raw.split(";")
        counts = {}
        for item in depths:
            match = re.fullmatch(r"\s*D(\d+)\s+(\d+)\s*", item)
            if not match:
                raise DataError(f"{path.name}:{number}: bad depth field {item!r}")
            counts[int(match[1])] = int(match[2])
        entries.append(Entry(f"l{number:03d}", full_fen(fen.strip()), counts))
    return entries



def corner_king_rights(fen: str) -> bool:
    """True if a king on the a- or h-file holds castling rights.

    Such a king never stood between its rooks, so no series of legal moves from any
    initial array (standard or Chess960, Guidelines II.2.1) reaches the position;
    the published entry "asymmetrical-and-king-on-h" is one. These are left out.
    """
    board = chess.Board(fen, chess960=True)
    for color in chess.COLORS:
        king = board.king(color)
        rights = board.castling_rights & chess.BB_BACKRANKS & board.occupied_co[color]
        if king is not None and rights and chess.square_file(king) in (0, 7):
            return True
    return False


def standard_valid(fen: str) -> bool:
    """True if the FEN is a valid position under orthodox (non-960) castling rules."""
    return chess.Board(fen).status() == chess.STATUS_VALID


def impossible(fen: str) -> bool:
    """True if no castling convention makes the position valid for python-chess.

    Published suites hold a few positions no game can reach, most with a check that no
    last move could have given (the side to move in check by two pieces on one line, or
    by a piece other than the pawn whose double step the e.p. square announces). FIDE
    3.10.3 makes them illegal positions, so they test no rule of play and are left out;
    ``validate_fen`` fixtures reject them instead.
    """
    return chess.Board(fen, chess960=True).status() != chess.STATUS_VALID


def rulesets_for(fen: str, chess960_only: bool) -> list[str]:
    """Standard positions apply everywhere; 960-only castling data applies to Chess960."""
    return CHESS960 if chess960_only or not standard_valid(fen) else STANDARD_AND_960


def entry_fixtures(suite: str, entry: Entry, depths: list[int], chess960_only: bool,
                   published: str) -> list[Fixture]:
    """Fixtures for the chosen depths of one entry, verified against the oracle."""
    if corner_king_rights(entry.fen) or impossible(entry.fen):
        return []
    rulesets = rulesets_for(entry.fen, chess960_only)
    modes = [True] if rulesets == CHESS960 else [False, True]
    tags = position_tags(chess.Board(entry.fen, chess960=rulesets == CHESS960))
    out = []
    for depth in depths:
        expected = entry.counts[depth]
        for chess960 in modes:
            got = oracle_perft(chess.Board(entry.fen, chess960=chess960), depth)
            if got != expected:
                raise OracleMismatch(f"{published} {entry.name} depth {depth}: published "
                                     f"{expected}, {ORACLE} (chess960={chess960}) {got}")
        mode = "chess960=True" if modes == [True] else "both chess960 modes"
        out.append(fixture(
            f"perft.{suite}.{entry.name}.d{depth}", "perft",
            f"{published} {entry.name}: leaf nodes at depth {depth}", rulesets,
            {"fen": entry.fen, "depth": depth}, expect={"nodes": expected},
            cites=tag_cites(tags), tags=tags | {"perft", "published"},
            method="published+oracle",
            detail=f"{published}; recomputed with {ORACLE} ({mode})"))
    return out


def special_fixtures(entry: Entry) -> list[Fixture]:
    """Fixtures for a special-rule entry: its published deep count is reproduced with
    python-chess first, then the shallow depths within SMALL get python-chess counts."""
    if impossible(entry.fen):
        return []
    board = chess.Board(entry.fen)
    for depth, nodes in entry.counts.items():
        got = oracle_perft(board, depth)
        if got != nodes:
            raise OracleMismatch(f"special.perft {entry.name} depth {depth}: published "
                                 f"{nodes}, {ORACLE} {got}")
    deep = ", ".join(f"depth {d}: {n}" for d, n in sorted(entry.counts.items()))
    tags = position_tags(board)
    out = []
    for depth in range(1, 8):
        nodes = oracle_perft(board, depth)
        if nodes > SMALL or depth > max(entry.counts):
            break
        out.append(fixture(
            f"perft.special.{entry.name}.d{depth}", "perft",
            f"special-rule position {entry.name}: leaf nodes at depth {depth}",
            rulesets_for(entry.fen, False), {"fen": entry.fen, "depth": depth},
            expect={"nodes": nodes}, cites=tag_cites(tags), tags=tags | {"perft", "published"},
            method="published+oracle",
            detail=f"special.perft (M. Sedlak's list; published {deep}, reproduced with "
                   f"{ORACLE}); this depth counted with {ORACLE}"))
    return out


def depth_zero_fixtures() -> list[Fixture]:
    """Depth 0 on a few positions: the count is 1 (the position itself is the leaf)."""
    out = []
    for name, fen, chess960_only in DEPTH_ZERO:
        board = chess.Board(fen, chess960=chess960_only)
        if board.status() != chess.STATUS_VALID or oracle_perft(board, 0) != 1:
            raise OracleMismatch(f"perft.depth0.{name}: not a valid position")
        tags = position_tags(board) | {"perft", "hand-built"}
        if board.is_checkmate():
            tags.add("checkmate")
        if board.is_stalemate():
            tags.add("stalemate")
        out.append(fixture(
            f"perft.depth0.{name}", "perft", f"{name}: depth 0 counts the position itself",
            rulesets_for(fen, chess960_only), {"fen": fen, "depth": 0}, expect={"nodes": 1},
            cites=tag_cites(tags), tags=tags, method="laws+oracle",
            detail="perft's definition: the leaves at exactly 0 plies are the position itself "
                   f"(python-chess examples/perft: depth < 1 counts 1); {ORACLE} status() "
                   "valid"))
    return out


def depths_within(entry: Entry, limit: int) -> list[int]:
    """Published depths whose count stays within ``limit`` nodes."""
    return sorted(d for d, n in entry.counts.items() if n <= limit)


def build(data: Path) -> dict[str, list[Fixture]]:
    """Perft fixtures from the four published suites, cross-checked with python-chess."""
    tricky = [f for e in read_perft_file(data_file(data, "tricky.perft"))
              for f in entry_fixtures("tricky", e, depths_within(e, LARGE),
                                      e.name.startswith("xfen"),
                                      "python-chess tricky.perft")]
    c960 = []
    for entry in read_perft_file(data_file(data, "chess960.perft")):
        deep = int(entry.name) % CHESS960_DEEP_EVERY == 0
        depths = depths_within(entry, SMALL) if deep else [1, 2]
        c960 += entry_fixtures("960", _renamed(entry, f"n{int(entry.name):03d}"),
                               [d for d in depths if d <= 3], True,
                               "python-chess chess960.perft")
    random_ = []
    for entry in read_perft_file(data_file(data, "random.perft")):
        index = int(entry.name.removeprefix("gentest-"))
        if (index - 1) % RANDOM_EVERY == 0:
            deep = (index - 1) % RANDOM_DEEP_EVERY == 0
            depths = [d for d in depths_within(entry, SMALL) if d <= (3 if deep else 2)]
            random_ += entry_fixtures("random", entry, depths, False,
                                      "python-chess random.perft (Rookie 2.0 gentest)")
    suite = [f for e in read_suite(data_file(data, "perftsuite.epd"))
             for f in entry_fixtures("suite", e, depths_within(e, SMALL), False,
                                     "perftsuite.epd")]
    special = [f for e in read_perft_file(data_file(data, "special.perft"))
               for f in special_fixtures(e)] + depth_zero_fixtures()
    return {"perft-tricky.jsonl": tricky, "perft-special.jsonl": special,
            "perft-chess960.jsonl": c960,
            "perft-random.jsonl": random_, "perft-suite.jsonl": suite}


def _renamed(entry: Entry, name: str) -> Entry:
    return Entry(name, entry.fen, entry.counts)


if __name__ == "__main__":
    sys.exit(main("perft", build))
