"""Protocol v1 clarifications: an adapter may declare in ``start``
that it does not classify parse errors (``unclassified_errors``); on the error fixtures
of those kinds only ``move: null`` is then compared."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.base import StartInfo
from conformance.harness.compare import compare
from conformance.harness.protocol import validate
from conformance.harness.session import Config, execute, plan

SCRIPTED = Path(__file__).parent / "adapters" / "scripted.py"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#: A parse_san error fixture as the corpus writes them, and one with a move.
FIXTURES = [
    {"id": "clar.ambiguous", "kind": "parse_san", "rulesets": ["*"],
     "input": {"fen": "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "san": "Nd2"},
     "expect": {"move": None, "error": "ambiguous"}, "cites": ["pgn:8.2.3"]},
    {"id": "clar.legal", "kind": "parse_san", "rulesets": ["*"],
     "input": {"fen": START, "san": "e4"}, "expect": {"move": "e2e4"}, "cites": ["pgn:8.2.3"]},
]


def _spec(result: dict[str, Any], *options: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(SCRIPTED), "--result", json.dumps(result), *options])


def _statuses(tmp_path: Path, adapter: str) -> tuple[dict[str, str], dict[str, Any]]:
    corpus = tmp_path / "clar.jsonl"
    corpus.write_text("".join(json.dumps(f) + "\n" for f in FIXTURES))
    config = Config(adapter=adapter, fixtures=[str(corpus)], validate_protocol=True)
    found = execute(config, plan(config), lambda record: None)
    return {r["id"]: r["status"] for r in found if r["type"] == "result"}, found[0]


def test_an_unclassified_parse_error_passes_only_when_declared(tmp_path: Path) -> None:
    answer = {"move": None, "error": "illegal"}  # the library says "illegal" for every failure
    plain, _ = _statuses(tmp_path, _spec(answer))
    assert plain["clar.ambiguous"] == "failed"
    declared, header = _statuses(tmp_path, _spec(answer, "--unclassified", "parse_san"))
    assert declared["clar.ambiguous"] == "passed"
    assert declared["clar.legal"] == "failed"  # a null move where a move is expected still fails
    assert header["adapter"]["unclassified_errors"] == ["parse_san"]


def test_a_move_where_an_error_is_expected_still_fails(tmp_path: Path) -> None:
    found, _ = _statuses(tmp_path, _spec({"move": "b1d2"}, "--unclassified", "parse_san"))
    assert found["clar.ambiguous"] == "failed"


def test_declaring_another_kind_does_not_relax_parse_san(tmp_path: Path) -> None:
    found, _ = _statuses(tmp_path, _spec({"move": None, "error": "invalid"}, "--unclassified", "from_notation"))
    assert found["clar.ambiguous"] == "failed"


@pytest.mark.parametrize("kind", ["parse_san", "from_notation"])
def test_compare_drops_only_the_error_category(kind: str) -> None:
    expect = {"move": None, "error": "ambiguous"}
    assert compare(kind, "fide-2023", expect, {"move": None}, unclassified=[kind]) is None
    assert compare(kind, "fide-2023", expect, {"move": None}) == "result lacks the field 'error'"
    assert "move" in (compare(kind, "fide-2023", expect, {"move": "e2e4"}, unclassified=[kind]) or "")
    # other kinds never relax: apply_moves' error is not a parse error
    relaxed = compare("apply_moves", "fide-2023", {"fen": None, "error": "illegal"}, {"fen": None},
                      unclassified=["apply_moves"])
    assert relaxed == "result lacks the field 'error'"


def test_the_declaration_is_part_of_the_start_schema() -> None:
    message = StartInfo("x", "1", ["parse_san"], ["*"], unclassified_errors=["parse_san"]).as_message()
    assert message["unclassified_errors"] == ["parse_san"]
    assert validate("start-answer", message) is None
    assert "unclassified_errors" not in StartInfo("x", "1", ["parse_san"]).as_message()  # v1 unchanged
    assert validate("start-answer", {**message, "unclassified_errors": ["perft"]}) is not None
    assert validate("start-answer", {**message, "unclassified_errors": "parse_san"}) is not None
