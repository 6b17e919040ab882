"""The report file of ``arbiter run``: streamed to REPORT.partial and renamed at the end,
so a run whose adapter cannot start (exit 3) leaves an earlier report as it was."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from fake_adapter import fake_spec, perft_corpus

from conformance.cli import main

def test_an_adapter_that_cannot_start_leaves_the_earlier_report_alone(tmp_path: Path) -> None:
    fixtures = perft_corpus(tmp_path / "c.jsonl", 2, set())
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
    fixtures = perft_corpus(tmp_path / "c.jsonl", 2, set())
    report = tmp_path / "report.jsonl"
    broken = CliRunner().invoke(main, ["run", "-q", "--no-progress", "-a", fake_spec("--start", "refuse"),
                                       "-f", str(fixtures), "-o", str(report)])
    assert broken.exit_code == 3
    assert "licence expired" in broken.output and f"{report} not written" in broken.output
    assert not report.exists() and not (tmp_path / "report.jsonl.partial").exists()
    rendered = CliRunner().invoke(main, ["report", "render", str(report)])
    assert rendered.exit_code == 1 and "cannot read" in rendered.output and "Traceback" not in rendered.output
