"""``fen check`` and ``serve`` refuse what ``validate_fen`` refuses (issue: both accepted
a four-field FEN and 16 white queens with 8 black pawns gone)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conformance.cli import main

REFUSED = [
    ("4k3/8/8/8/8/8/8/4K3 w - -", "expected 6 fields, found 4"),
    ("4k3/pppppppp/8/8/8/Q7/QQQQQQQQ/QQQQKQQQ w - - 0 1", "15 pieces beyond the initial array"),
    ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "Black has 9 pawns"),
    ("8/8/8/7k/3Pp3/8/8/4K2Q b - d3 0 1", "cannot come from the double step"),
]


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("fen, reason", REFUSED, ids=[r for _, r in REFUSED])
def test_fen_check_refuses_with_the_reason(fen: str, reason: str) -> None:
    run = subprocess.run([sys.executable, "-m", "conformance.cli", "fen", "check", fen],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert reason in run.stdout and "Traceback" not in run.stderr


def test_serve_answers_invalid_with_the_reason() -> None:
    requests = [{"cmd": "start", "protocol": 1}]
    requests += [{"cmd": "run", "id": str(i), "kind": "validate_fen", "ruleset": "fide-2023",
                  "input": {"fen": fen}} for i, (fen, _) in enumerate(REFUSED)]
    requests += [{"cmd": "run", "id": "ok", "kind": "validate_fen", "ruleset": "fide-2023",
                  "input": {"fen": "4k3/8/8/8/8/8/PPPPPPP1/NNN1K3 w - - 0 60"}},
                 {"cmd": "stop"}]
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    result = CliRunner().invoke(main, ["serve"], input=lines)
    assert result.exit_code == 0, result.output
    answers = {a["id"]: a["result"] for a in map(json.loads, result.stdout.splitlines())
               if "id" in a}
    for i, (_, reason) in enumerate(REFUSED):
        assert answers[str(i)]["valid"] is False and reason in answers[str(i)]["reason"]
    assert answers["ok"] == {"valid": True}
