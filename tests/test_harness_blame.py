"""Blame under crashes: an adapter that dies on chosen requests (tests/adapters/crasher.py).

Every fixture answered before a crash keeps its real verdict, and exactly the fixture
whose request the adapter died on is ``errored`` -- sequentially and with ``-j``, for
every way of dying, and whatever the harness noticed first (its failed write or the
end of the program's output). The requests are padded so that the harness is still
writing when the adapter dies.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from conformance.harness.session import Config, execute, plan

CRASHER = Path(__file__).parent / "adapters" / "crasher.py"
FIXTURES = 150
#: first, consecutive, around the runner's 64-case blocks and -j chunks, last
CRASH_AT = (0, 1, 2, 9, 10, 37, 63, 64, 65, 100, 127, 128, 149)
PADDING = "p" * 20_000  # 16 requests ahead of the answers are more than a pipe holds


def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "crash.jsonl"
    lines = [
        {"id": f"crash.{i:03d}", "kind": "perft", "description": "crasher answers input.answer",
         "rulesets": ["fide-2023"], "input": {"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "depth": 1,
                                              "answer": i, "pad": PADDING},
         "expect": {"nodes": i}, "cites": ["fide-2023:3.10.1"], "tags": ["robustness"],
         "source": {"method": "laws", "detail": "the crasher echoes input.answer"}}
        for i in range(FIXTURES)
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("how", ["exit", "kill", "half"])
def test_only_the_request_the_adapter_died_on_is_errored(tmp_path: Path, jobs: int, how: str) -> None:
    command = [sys.executable, str(CRASHER), "--crash-at", ",".join(map(str, CRASH_AT)), "--how", how]
    config = Config(adapter="cmd:" + shlex.join(command), fixtures=[str(corpus(tmp_path))], jobs=jobs,
                    timeout=60.0)  # generous: no verdict here may depend on timing
    found = execute(config, plan(config), lambda record: None)
    results = {r["id"]: r for r in found if r["type"] == "result"}
    assert len(results) == FIXTURES
    errored = sorted(int(i.split(".")[1]) for i, r in results.items() if r["status"] == "errored")
    assert errored == list(CRASH_AT)
    for number in CRASH_AT:
        message = results[f"crash.{number:03d}"]["message"]
        assert message.startswith("exited without answering (exit status "), message
    passed = [r for r in results.values() if r["status"] == "passed"]
    assert len(passed) == FIXTURES - len(CRASH_AT)
    assert all(r["actual"] == {"nodes": int(r["id"].split(".")[1])} for r in passed)
