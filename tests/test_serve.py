"""``arbiter serve``: the reference speaks protocol v1 on stdio.

Every answer is checked against the published message schemas; perft counts of the
initial position (20, 400) are the published values, also given by python-chess.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from conformance.cli import main
from conformance.harness.protocol import validate

DATA = Path(__file__).parent / "data" / "harness"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def converse(requests: list[object], *args: str) -> list[dict]:
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    result = CliRunner().invoke(main, ["serve", *args], input=lines)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_round_trip_answers_follow_the_schemas() -> None:
    answers = converse([
        {"cmd": "start", "protocol": 1},
        {"cmd": "run", "id": "a", "kind": "perft", "ruleset": "fide-2023", "input": {"fen": START, "depth": 2}},
        {"cmd": "run", "id": "b", "kind": "legal_moves", "ruleset": "fide-2023", "input": {"fen": START}},
        {"cmd": "stop"},
    ])
    start, perft, legal, stop = answers
    assert validate("start-answer", start) is None and start["ok"] is True
    assert "perft" in start["capabilities"] and start["protocol"] == 1
    assert perft == {"id": "a", "result": {"nodes": 400}}
    assert validate("run-answer", legal) is None and len(legal["result"]["moves"]) == 20
    assert validate("perft/result", perft["result"]) is None
    assert stop == {"ok": True}


def test_bad_input_is_errored_not_a_crash() -> None:
    answers = converse([
        {"cmd": "start", "protocol": 1},
        {"cmd": "run", "id": "x", "kind": "perft", "ruleset": "fide-2023", "input": {"fen": "nonsense", "depth": 1}},
        "this is not json",
        {"cmd": "run", "id": "y", "kind": "perft", "ruleset": "fide-2023", "input": {"fen": START, "depth": 1}},
    ])
    assert answers[1]["id"] == "x" and "FenError" in answers[1]["errored"]
    assert answers[2]["ok"] is False and "not JSON" in answers[2]["error"]
    assert answers[3] == {"id": "y", "result": {"nodes": 20}}


def test_other_protocol_version_is_refused() -> None:
    (answer,) = converse([{"cmd": "start", "protocol": 2}])
    assert answer["ok"] is False and "protocol 2" in answer["error"]
    assert validate("start-answer", answer) is None


def test_rules_option_restricts_declared_rulesets() -> None:
    answers = converse([
        {"cmd": "start", "protocol": 1},
        {"cmd": "run", "id": "1", "kind": "perft", "ruleset": "uscf-7", "input": {"fen": START, "depth": 1}},
    ], "--rules", "fide")
    assert answers[0]["rulesets"] == ["fide-2023"]
    assert "skipped" in answers[1]


def test_unknown_rules_is_one_line_error() -> None:
    result = CliRunner().invoke(main, ["serve", "--rules", "no-such-ruleset"], input="")
    assert result.exit_code == 1 and "no-such-ruleset" in result.output and "Traceback" not in result.output


def test_run_through_cmd_arbiter_serve(tmp_path: Path) -> None:
    """The whole loop: arbiter run drives arbiter serve as a subprocess, checking every
    answer against the protocol schemas (--validate-protocol)."""
    report = tmp_path / "r.jsonl"
    command = f"cmd:{sys.executable} -m conformance.cli serve"
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "run", "-q", "--no-progress", "-a", command,
         "--validate-protocol", "-f", str(DATA / "reference.jsonl"), "-o", str(report)],
        capture_output=True, text=True, timeout=120,
    )
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert done.returncode == 0, done.stderr
    assert records[0]["adapter"]["name"] == "arbiter-reference"
    assert {r["status"] for r in records if r["type"] == "result"} == {"passed"}
