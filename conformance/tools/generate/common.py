"""Shared plumbing for the fixture generators: records, output, command line, oracles.

Generators are deterministic: they read data files named on the command line, use
fixed seeds, and write JSON Lines in a fixed order, so a rerun reproduces every file
byte for byte. Expectations come from independent oracles (python-chess, Stockfish,
published suites, labelled data, the Laws' text), never from ``reference_impl``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import chess

from reference_impl.errors import ArbiterError, UsageError

Fixture = dict[str, Any]

ORACLE_VERSION = "1.11.2"
ORACLE = f"python-chess {ORACLE_VERSION}"
FIELD_ORDER = ("id", "kind", "description", "rulesets", "input", "expect",
               "expect_by_ruleset", "cites", "tags", "source")

#: Ruleset lists used across generators.
STANDARD = ["*"]
CHESS960 = ["fide-2023-chess960"]
STANDARD_AND_960 = ["*", "fide-2023-chess960"]
FIDE_ALL = ["fide-2023", "fide-2023-rapid", "fide-2023-blitz", "fide-2018", "fide-2014"]
USCF = "uscf-7"

#: Article cited for each move-layer feature a position exhibits.
TAG_CITES: dict[str, str] = {
    "castling": "fide-2023:3.8.2",
    "en-passant": "fide-2023:3.7.3.1",
    "promotion": "fide-2023:3.7.3.3",
    "check": "fide-2023:3.9.1",
    "double-check": "fide-2023:3.9.1",
    "pin": "fide-2023:3.9.2",
    "chess960": "fide-2023:II.3.2.7.4",
    "castling-rights-lost": "fide-2023:3.8.2.1",
}
MOVE_LAYER_CITE = "fide-2023:3.10.1"
#: The complete rulesets ``"*"`` stands for (docs/fixtures.md).
ORTHODOX = ("fide-2023", "fide-2023-rapid", "fide-2023-blitz", "fide-2018", "fide-2014", "uscf-7",
            "uscf-7-blitz")
#: Each FIDE 2023 article a rule table cites -> for every ruleset whose table cites another
#: article for the same entry, that article (the 2018 and 2014 numbers and wording, US
#: Chess's rules, Chess960's Guidelines II). A fixture citing the 2023 article also cites
#: the article of each ruleset it runs under (:func:`fixture` adds them), so that fixtures
#: run under an edition cite that edition's text. Read off the tables by hand;
#: tests/test_edition_cites.py checks it equals what the tables say.
EDITION_CITES: dict[str, dict[str, tuple[str, ...]]] = {
    "fide-2023:2.1": {"fide-2014": ("fide-2014:2.1",), "uscf-7": ("uscf-7:2B",),
        "uscf-7-blitz": ("uscf-7:2B",)},
    "fide-2023:2.3": {"fide-2014": ("fide-2014:2.3",), "fide-2023-chess960": ("fide-2023:II.2",),
        "uscf-7": ("uscf-7:3C",), "uscf-7-blitz": ("uscf-7:3C",)},
    "fide-2023:3.2": {"fide-2014": ("fide-2014:3.2",), "uscf-7": ("uscf-7:8D",),
        "uscf-7-blitz": ("uscf-7:8D",)},
    "fide-2023:3.3": {"fide-2014": ("fide-2014:3.3",), "uscf-7": ("uscf-7:8C",),
        "uscf-7-blitz": ("uscf-7:8C",)},
    "fide-2023:3.4": {"fide-2014": ("fide-2014:3.4",), "uscf-7": ("uscf-7:8B",),
        "uscf-7-blitz": ("uscf-7:8B",)},
    "fide-2023:3.6": {"fide-2014": ("fide-2014:3.6",), "uscf-7": ("uscf-7:8E",),
        "uscf-7-blitz": ("uscf-7:8E",)},
    "fide-2023:3.7": {"fide-2014": ("fide-2014:3.7",), "uscf-7": ("uscf-7:8F",),
        "uscf-7-blitz": ("uscf-7:8F",)},
    "fide-2023:3.7.1": {"fide-2014": ("fide-2014:3.7.a",), "uscf-7": ("uscf-7:8F3",),
        "uscf-7-blitz": ("uscf-7:8F3",)},
    "fide-2023:3.7.2": {"fide-2014": ("fide-2014:3.7.b",), "uscf-7": ("uscf-7:8F2",),
        "uscf-7-blitz": ("uscf-7:8F2",)},
    "fide-2023:3.7.3": {"fide-2014": ("fide-2014:3.7.c",), "uscf-7": ("uscf-7:8F4",),
        "uscf-7-blitz": ("uscf-7:8F4",)},
    "fide-2023:3.7.3.1": {"fide-2014": ("fide-2014:3.7.d",), "fide-2018": ("fide-2018:3.7.4.1",),
        "uscf-7": ("uscf-7:8F5",), "uscf-7-blitz": ("uscf-7:8F5",)},
    "fide-2023:3.7.3.3": {"fide-2014": ("fide-2014:3.7.e",), "fide-2018": ("fide-2018:3.7.5.1",),
        "uscf-7": ("uscf-7:8F6",), "uscf-7-blitz": ("uscf-7:8F6",)},
    "fide-2023:3.8.1": {"fide-2014": ("fide-2014:3.8.a",), "uscf-7": ("uscf-7:8A1",),
        "uscf-7-blitz": ("uscf-7:8A1",)},
    "fide-2023:3.8.2": {"fide-2014": ("fide-2014:3.8.a",),
        "fide-2023-chess960": ("fide-2023:II.3.2", "fide-2023:II.3.2.6",),
        "uscf-7": ("uscf-7:8A2",), "uscf-7-blitz": ("uscf-7:8A2",)},
    "fide-2023:3.8.2.1": {"fide-2014": ("fide-2014:3.8.b.1",), "uscf-7": ("uscf-7:8A3",),
        "uscf-7-blitz": ("uscf-7:8A3",)},
    "fide-2023:3.8.2.2.1": {"fide-2014": ("fide-2014:3.8.b.2.a",), "uscf-7": ("uscf-7:8A4",),
        "uscf-7-blitz": ("uscf-7:8A4",)},
    "fide-2023:3.8.2.2.2": {"fide-2014": ("fide-2014:3.8.b.2.b",),
        "fide-2023-chess960": ("fide-2023:II.3.2.7.4",), "uscf-7": ("uscf-7:8A4",),
        "uscf-7-blitz": ("uscf-7:8A4",)},
    "fide-2023:4.3.1": {"fide-2014": ("fide-2014:4.3.a",), "uscf-7": ("uscf-7:10B",),
        "uscf-7-blitz": ("uscf-7:10B",)},
    "fide-2023:4.3.2": {"fide-2014": ("fide-2014:4.3.b",), "uscf-7": ("uscf-7:10B",),
        "uscf-7-blitz": ("uscf-7:10B",)},
    "fide-2023:4.3.3": {"fide-2014": ("fide-2014:4.3.c",), "uscf-7": ("uscf-7:10C",),
        "uscf-7-blitz": ("uscf-7:10C",)},
    "fide-2023:4.4.1": {"fide-2014": ("fide-2014:4.4.a",), "uscf-7": ("uscf-7:10I1",),
        "uscf-7-blitz": ("uscf-7:10I1",)},
    "fide-2023:4.4.2": {"fide-2014": ("fide-2014:4.4.b",), "uscf-7": ("uscf-7:10I2",),
        "uscf-7-blitz": ("uscf-7:10I2",)},
    "fide-2023:4.4.3": {"fide-2014": ("fide-2014:4.4.c",)},
    "fide-2023:4.5": {"fide-2014": ("fide-2014:4.5",), "uscf-7": ("uscf-7:10D",),
        "uscf-7-blitz": ("uscf-7:10D",)},
    "fide-2023:5.1.1": {"fide-2014": ("fide-2014:5.1.a",), "uscf-7": ("uscf-7:13A",),
        "uscf-7-blitz": ("uscf-7:13A",)},
    "fide-2023:5.1.2": {"fide-2014": ("fide-2014:5.1.b",), "fide-2018": ("fide-2018:5.1.2",),
        "uscf-7": ("uscf-7:13B",), "uscf-7-blitz": ("uscf-7:13B",)},
    "fide-2023:5.2.1": {"fide-2014": ("fide-2014:5.2.a",), "uscf-7": ("uscf-7:14A",),
        "uscf-7-blitz": ("uscf-7:14A",)},
    "fide-2023:5.2.2": {"fide-2014": ("fide-2014:5.2.b",), "uscf-7": ("uscf-7:14D",),
        "uscf-7-blitz": ("uscf-7:14D",)},
    "fide-2023:5.2.3": {"fide-2014": ("fide-2014:5.2.c",), "fide-2018": ("fide-2018:5.2.3",),
        "uscf-7": ("uscf-7:14B",), "uscf-7-blitz": ("uscf-7:14B",)},
    "fide-2023:6.3.1": {"fide-2014": ("fide-2014:6.3.a",), "uscf-7": ("uscf-7:5B1b",),
        "uscf-7-blitz": ("uscf-7:5B1b",)},
    "fide-2023:6.3.2": {"fide-2014": ("fide-2014:6.3.b",), "uscf-7": ("uscf-7:5B1a", "uscf-7:5D",),
        "uscf-7-blitz": ("uscf-7:5B1a", "uscf-7:5D",)},
    "fide-2023:6.8": {"fide-2014": ("fide-2014:6.8",), "uscf-7": ("uscf-7:13C1",),
        "uscf-7-blitz": ("uscf-7:13C1",)},
    "fide-2023:6.9": {"fide-2014": ("fide-2014:6.9",), "fide-2018": ("fide-2018:6.9",),
        "uscf-7": ("uscf-7:14E",), "uscf-7-blitz": ("uscf-7:14E",)},
    "fide-2023:7.5.1": {"fide-2014": ("fide-2014:7.5.a",), "fide-2018": ("fide-2018:7.5.1",),
        "uscf-7": ("uscf-7:11D",), "uscf-7-blitz": ("uscf-7:11D",)},
    "fide-2023:7.5.3": {"fide-2014": ("fide-2014:6.2",), "fide-2018": ("fide-2018:7.5.3",)},
    "fide-2023:7.5.5": {"fide-2014": ("fide-2014:7.5.b",), "fide-2018": ("fide-2018:7.5.5",),
        "uscf-7": ("uscf-7:11D", "uscf-7:1C2a",), "uscf-7-blitz": ("uscf-7:11D", "uscf-7:1C2a",)},
    "fide-2023:9.1.2.3": {"fide-2014": ("fide-2014:9.1.b",), "uscf-7": ("uscf-7:14",),
        "uscf-7-blitz": ("uscf-7:14",)},
    "fide-2023:9.2": {"fide-2014": ("fide-2014:9.2",), "fide-2018": ("fide-2018:9.2",),
        "uscf-7": ("uscf-7:14C",), "uscf-7-blitz": ("uscf-7:14C",)},
    "fide-2023:9.2.1": {"fide-2014": ("fide-2014:9.2.a",), "fide-2018": ("fide-2018:9.2.1.1",),
        "uscf-7": ("uscf-7:14C2",), "uscf-7-blitz": ("uscf-7:14C2",)},
    "fide-2023:9.2.3": {"fide-2014": ("fide-2014:9.2",), "fide-2018": ("fide-2018:9.2.2",),
        "uscf-7": ("uscf-7:14C",), "uscf-7-blitz": ("uscf-7:14C",)},
    "fide-2023:9.2.3.1": {"fide-2014": ("fide-2014:9.2",), "fide-2018": ("fide-2018:9.2.2.1",)},
    "fide-2023:9.2.3.2": {"fide-2014": ("fide-2014:9.2",), "fide-2018": ("fide-2018:9.2.2.2",)},
    "fide-2023:9.3": {"fide-2014": ("fide-2014:9.3",), "fide-2018": ("fide-2018:9.3",),
        "uscf-7": ("uscf-7:14F",), "uscf-7-blitz": ("uscf-7:14F",)},
    "fide-2023:9.3.1": {"fide-2014": ("fide-2014:9.3.a",), "fide-2018": ("fide-2018:9.3.1",),
        "uscf-7": ("uscf-7:9G1",), "uscf-7-blitz": ("uscf-7:9G1",)},
    "fide-2023:9.4": {"fide-2014": ("fide-2014:9.4",), "uscf-7": ("uscf-7:10B", "uscf-7:9G1",),
        "uscf-7-blitz": ("uscf-7:10B", "uscf-7:9G1",)},
    "fide-2023:9.5.3": {"fide-2014": ("fide-2014:9.5.c",),
        "uscf-7": ("uscf-7:14C6", "uscf-7:14F2",), "uscf-7-blitz": ("uscf-7:14C6", "uscf-7:14F2",)},
    "fide-2023:9.6.1": {"fide-2014": ("fide-2014:9.6.a",), "fide-2018": ("fide-2018:9.6.1",),
        "uscf-7": ("uscf-7:14K1",), "uscf-7-blitz": ("uscf-7:14K1",)},
    "fide-2023:9.6.2": {"fide-2014": ("fide-2014:9.6.b",), "fide-2018": ("fide-2018:9.6.2",),
        "uscf-7": ("uscf-7:14K2",), "uscf-7-blitz": ("uscf-7:14K2",)},
    "fide-2023:A.1": {"fide-2014": ("fide-2014:A.1",), "fide-2018": ("fide-2018:A.1",),
        "uscf-7": ("uscf-7:5C",), "uscf-7-blitz": ("uscf-7:5C",)},
    "fide-2023:A.3": {"fide-2014": ("fide-2014:A.3",), "fide-2018": ("fide-2018:A.3.1",)},
    "fide-2023:A.4": {"fide-2014": ("fide-2014:A.3",), "fide-2018": ("fide-2018:A.3.1",)},
    "fide-2023:B.1": {"fide-2014": ("fide-2014:B.1",), "fide-2018": ("fide-2018:B.1",),
        "uscf-7": ("uscf-7:5C",), "uscf-7-blitz": ("uscf-7:5C",)},
    "fide-2023:B.2": {"fide-2014": ("fide-2014:B.2", "fide-2014:B.3",),
        "fide-2018": ("fide-2018:B.2", "fide-2018:B.3.1",),
        "uscf-7": ("uscf-7:blitz.illegal-move",), "uscf-7-blitz": ("uscf-7:blitz.illegal-move",)},
    "fide-2023:B.3": {"fide-2014": ("fide-2014:B.2",), "fide-2018": ("fide-2018:B.2",),
        "uscf-7": ("uscf-7:1C2a",), "uscf-7-blitz": ("uscf-7:1C2a",)},
    "fide-2023:III.2.2": {"fide-2014": ("fide-2014:6.11",)},
    "fide-2023:III.3.1": {"fide-2014": ("fide-2014:6.11",), "uscf-7": ("uscf-7:14G",),
        "uscf-7-blitz": ("uscf-7:14G",)},
}


class DataError(ArbiterError):
    """A generator's input data is missing or malformed."""


class OracleMismatch(ArbiterError):
    """A published expectation disagrees with the oracle; generation stops."""


def fixture(fid: str, kind: str, description: str, rulesets: list[str],
            inp: Mapping[str, Any], *, expect: Mapping[str, Any] | None = None,
            expect_by_ruleset: Mapping[str, Mapping[str, Any]] | None = None,
            cites: Iterable[str] = (), tags: Iterable[str] = (),
            method: str, detail: str) -> Fixture:
    """Build one fixture record with its fields in the canonical order."""
    if (expect is None) == (expect_by_ruleset is None):
        raise ValueError(f"{fid}: give exactly one of expect / expect_by_ruleset")
    record: Fixture = {"id": fid, "kind": kind, "description": description,
                       "rulesets": list(rulesets), "input": dict(inp)}
    if expect is not None:
        record["expect"] = dict(expect)
    else:
        assert expect_by_ruleset is not None
        record["expect_by_ruleset"] = {k: dict(v) for k, v in expect_by_ruleset.items()}
    record["cites"] = sorted(edition_cites(cites, rulesets))
    record["tags"] = sorted(set(tags))
    record["source"] = {"method": method, "detail": detail}
    return record


def edition_cites(cites: Iterable[str], rulesets: Iterable[str]) -> set[str]:
    """``cites`` with each ruleset's own article for the rules they cite (:data:`EDITION_CITES`)."""
    names = {name for r in rulesets for name in (ORTHODOX if r == "*" else (r,))}
    found = set(cites)
    return found | {own for cite in found for ruleset, mine in EDITION_CITES.get(cite, {}).items()
                    if ruleset in names for own in mine}


def dumps(record: Fixture) -> str:
    """One fixture as one JSON line, fields in canonical order."""
    ordered = {k: record[k] for k in FIELD_ORDER if k in record}
    return json.dumps(ordered, ensure_ascii=False, separators=(", ", ": "))


def write_jsonl(path: Path, records: list[Fixture]) -> None:
    """Write records to ``path``; ids must be unique within the file."""
    seen: set[str] = set()
    for record in records:
        if record["id"] in seen:
            raise DataError(f"{path.name}: duplicate fixture id {record['id']!r}")
        seen.add(record["id"])
    text = "".join(dumps(r) + "\n" for r in records)
    path.write_text(text, encoding="utf-8")


def full_fen(epd: str) -> str:
    """A FEN with all six fields (EPD-style four-field strings get ``0 1``)."""
    fields = epd.split()
    if len(fields) == 4:
        fields += ["0", "1"]
    return " ".join(fields)


def uci(board: chess.Board, move: chess.Move) -> str:
    """UCI text of ``move`` in the board's own mode (king-takes-rook under 960)."""
    return board.uci(move)


def position_tags(board: chess.Board) -> set[str]:
    """Move-layer features visible in the position's legal moves."""
    tags: set[str] = set()
    for move in board.legal_moves:
        if board.is_castling(move):
            tags.add("castling")
        if board.is_en_passant(move):
            tags.add("en-passant")
        if move.promotion:
            tags.add("promotion")
    if board.is_check():
        tags.add("check")
        if len(board.checkers()) > 1:
            tags.add("double-check")
    if any(board.is_pinned(board.turn, sq) for sq in chess.SquareSet(board.occupied_co[board.turn])
           if sq != board.king(board.turn)):
        tags.add("pin")
    if board.chess960:
        tags.add("chess960")
    return tags


def tag_cites(tags: Iterable[str]) -> list[str]:
    """Articles for a set of move-layer tags, always including the legality article."""
    return sorted({MOVE_LAYER_CITE} | {TAG_CITES[t] for t in tags if t in TAG_CITES})


#: Pieces a side starts with, by python-chess piece type (FIDE 2.3).
INITIAL_COUNTS = {chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1}


def promotions_fit(board: chess.Board) -> bool:
    """True if each side's pieces beyond the initial array are no more than its missing
    pawns (each such piece is a promoted pawn, FIDE 3.7.3.3); python-chess only caps a
    side at 16 pieces and 8 pawns."""
    for color in chess.COLORS:
        extra = sum(max(0, len(board.pieces(pt, color)) - n) for pt, n in INITIAL_COUNTS.items())
        if extra > 8 - len(board.pieces(chess.PAWN, color)):
            return False
    return True


def checked_board(fen: str, chess960: bool = False) -> chess.Board:
    """The board for a hand-built FEN, or a DataError if python-chess finds the position
    impossible (any ``status()`` flag: the corpus tests the Laws on legal positions only)."""
    board = chess.Board(fen, chess960=chess960)
    if board.status() != chess.STATUS_VALID or not promotions_fit(board):
        raise DataError(f"hand-built FEN is not a valid position: {fen} "
                        f"(python-chess status {int(board.status())})")
    return board


def check_oracle() -> None:
    """Refuse to run with another python-chess than the one the corpus records."""
    if chess.__version__ != ORACLE_VERSION:
        raise DataError(f"python-chess {ORACLE_VERSION} is required to regenerate "
                        f"the corpus (found {chess.__version__})")


def data_file(data: Path, name: str) -> Path:
    """``data/name``, or a DataError naming what is missing."""
    path = data / name
    if not path.is_file():
        raise DataError(f"data file not found: {path}")
    return path


Builder = Callable[[Path], dict[str, list[Fixture]]]


def main(name: str, build: Builder, argv: list[str] | None = None) -> int:
    """Command line of one generator: ``--data DIR --out DIR``; returns the exit status."""
    parser = argparse.ArgumentParser(prog=f"python -m conformance.tools.generate.{name}",
                                     description=(build.__doc__ or "").strip())
    parser.add_argument("--data", type=Path, required=True,
                        help="folder holding the source data files")
    parser.add_argument("--out", type=Path, required=True,
                        help="folder to write the .jsonl files into")
    args = parser.parse_args(argv)
    try:
        if not args.data.is_dir():
            raise UsageError(f"--data: not a directory: {args.data}")
        if not args.out.is_dir():
            raise UsageError(f"--out: not a directory: {args.out}")
        check_oracle()
        outputs = build(args.data)
        for filename, records in outputs.items():
            write_jsonl(args.out / filename, records)
            print(f"{filename}: {len(records)} fixtures")
    except ArbiterError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return error.exit_code
    return 0
