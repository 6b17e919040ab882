"""Every position the corpus asks about, outside ``validate_fen``, is a legal position.

The corpus tests the Laws on positions a game can reach (FIDE 3.10.3); a fixture on an
impossible position judges nothing but a library's robustness. So every FEN of a
non-``validate_fen`` fixture must pass the reference's ``validate_fen`` conditions and
python-chess's ``is_valid()`` (in Chess960 mode for Chess960-only fixtures), and every
``validate_fen`` fixture expecting invalid must be refused by the reference.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import chess
import pytest

from reference_impl import Board, FenError, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "conformance" / "fixtures"
CHESS960_ONLY = ["fide-2023-chess960"]


@lru_cache(maxsize=1)
def fixtures() -> list[dict[str, Any]]:
    out = []
    for path in sorted(FIXTURES.glob("*.jsonl")):
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip()]
    return out


def positions() -> dict[tuple[str, bool], str]:
    """(FEN, Chess960 only) -> the first fixture id using it, for non-validate_fen kinds."""
    out: dict[tuple[str, bool], str] = {}
    for item in fixtures():
        fen = item["input"].get("fen")
        if item["kind"] != "validate_fen" and isinstance(fen, str):
            out.setdefault((fen, item["rulesets"] == CHESS960_ONLY), item["id"])
    return out


def test_the_corpus_has_positions_outside_validate_fen() -> None:
    assert len(positions()) > 5000


def test_every_position_is_valid_for_python_chess() -> None:
    bad = [(fid, fen) for (fen, c960), fid in positions().items()
           if not chess.Board(fen, chess960=c960).is_valid()]
    assert bad == []


def test_every_position_is_valid_for_the_reference() -> None:
    rules = {False: load_ruleset("fide-2023"), True: load_ruleset("chess960")}
    bad = []
    for (fen, c960), fid in positions().items():
        try:
            Board.from_fen(fen, rules[c960])
        except FenError as error:
            bad.append((fid, str(error)))
    assert bad == []


@pytest.mark.parametrize("ruleset", ["fide-2023", "chess960"])
def test_reference_refuses_every_fen_the_corpus_calls_invalid(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    target = "fide-2023-chess960" if ruleset == "chess960" else "*"
    accepted = []
    for item in fixtures():
        if (item["kind"] == "validate_fen" and target in item["rulesets"]
                and item["expect"] == {"valid": False}):
            try:
                Board.from_fen(item["input"]["fen"], rules)
            except FenError:
                continue
            accepted.append(item["id"])
    assert accepted == []
