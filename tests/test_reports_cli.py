"""``arbiter report render`` re-renders a saved report (the hand-built sample)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from conformance.cli import main

SAMPLE = Path(__file__).parent / "data" / "reporting" / "sample.jsonl"


def test_render_writes_junit_and_html_and_exits_1_on_failures(tmp_path: Path) -> None:
    junit_path, html_path = tmp_path / "r.xml", tmp_path / "r.html"
    result = CliRunner().invoke(main, ["report", "render", str(SAMPLE),
                                       "--junit", str(junit_path), "--html", str(html_path)])
    assert result.exit_code == 1, result.output
    assert "compliance 36.4%" in result.output
    assert ET.parse(junit_path).getroot().get("tests") == "11"  # 12 minus 1 unsupported
    assert "<h2>Failures (6)</h2>" in html_path.read_text(encoding="utf-8")


def test_render_exits_0_when_all_passed(tmp_path: Path) -> None:
    report = tmp_path / "ok.jsonl"
    report.write_text('{"type":"header","adapter":{"name":"x"}}\n'
                      '{"type":"result","id":"a","kind":"perft","ruleset":"fide-2023",'
                      '"status":"passed","cites":[]}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["report", "render", "-q", str(report)])
    assert result.exit_code == 0 and result.output == ""


def test_bad_report_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    report = tmp_path / "bad.jsonl"
    report.write_text('{"type":"header"}\nnot json\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["report", "render", str(report)])
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("bad.jsonl:2: not JSON (Expecting value)")
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_unwritable_output_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["report", "render", "-q", str(SAMPLE), "--html", str(tmp_path / "no" / "x.html")])
    assert result.exit_code == 1
    assert result.stderr.startswith("arbiter: ") and "x.html: cannot write" in result.stderr
    assert result.stderr.count("\n") == 1


def test_render_writes_markdown(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    result = CliRunner().invoke(main, ["report", "render", "-q", str(SAMPLE), "--markdown", str(path)])
    assert result.exit_code == 1
    assert path.read_text(encoding="utf-8").startswith("## Arbiter: python-chess 1.11.2")
