"""The report file of ``arbiter run``: streamed to REPORT.partial and renamed at the end,
so a run whose adapter cannot start (exit 3) leaves an earlier report as it was."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from conformance.cli import main

FAKE = Path(__file__).parent / "adapters" / "fake.py"


def fake_spec(*options: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(FAKE), *options])


def corpus(path: Path, count: int, late: set[int]) -> Path:
    """``count`` perft fixtures the fake answers correctly (those in ``late`` twice)."""
    lines = []
    for i in range(count):
        data = {"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "depth": 1, "answer": i}
        if i in late:
            data["act"] = "late_twice"
        lines.append(json.dumps({"id": f"f.{i:03d}", "kind": "perft", "rulesets": ["fide-2023"],
                                 "input": data, "expect": {"nodes": i}}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_an_adapter_that_cannot_start_leaves_the_earlier_report_alone(tmp_path: Path) -> None:
    fixtures = corpus(tmp_path / "c.jsonl", 2, set())
    report = tmp_path / "report.jsonl"
    first = CliRunner().invoke(main, ["run", "-q", "--no-progress", "-a", fake_spec(), "-f", str(fixtures),
                                      "-o", str(report)])
    assert first.exit_code == 0
    before = report.read_bytes()
    broken = CliRunner().invoke(main, ["run", "-q", "--no-progress", "-a", fake_spec("--start", "exit"),
                                       "-f", str(fixtures), "-o", str(report)])
    assert broken.exit_code == 3
    assert "did not start" in broken.output and "earlier report is unchanged" in broken.output
    assert "Traceback" not in broken.output
    assert report.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl", "report.jsonl"]
    rendered = CliRunner().invoke(main, ["report", "render", str(report)])
    assert rendered.exit_code == 0 and "2" in rendered.output


def test_an_adapter_that_cannot_start_writes_no_report(tmp_path: Path) -> None:
    fixtures = corpus(tmp_path / "c.jsonl", 2, set())
    report = tmp_path / "report.jsonl"
    broken = CliRunner().invoke(main, ["run", "-q", "--no-progress", "-a", fake_spec("--start", "refuse"),
                                       "-f", str(fixtures), "-o", str(report)])
    assert broken.exit_code == 3
    assert "licence expired" in broken.output and f"{report} not written" in broken.output
    assert not report.exists() and not (tmp_path / "report.jsonl.partial").exists()
    rendered = CliRunner().invoke(main, ["report", "render", str(report)])
    assert rendered.exit_code == 1 and "cannot read" in rendered.output and "Traceback" not in rendered.output
