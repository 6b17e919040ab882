"""The shipped example adapter works when copied out of the package, as it says."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import conformance.implementations.example as example

DATA = Path(__file__).parent / "data" / "harness" / "reference.jsonl"


def test_the_example_adapter_runs_when_copied_out(tmp_path: Path) -> None:
    shutil.copy(example.__file__, tmp_path / "arbiter_adapter.py")
    report = tmp_path / "report.jsonl"
    env = {**os.environ, "PYTHONPATH": "."}
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "run", "-q", "--no-progress", "-o", str(report),
         "-f", str(DATA), "-a", "module:arbiter_adapter:ExampleAdapter"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert records[0]["adapter"]["name"] == "example (python-chess)"
    statuses = {r["status"] for r in records if r["type"] == "result"}
    assert "passed" in statuses and not statuses & {"failed", "errored"}
