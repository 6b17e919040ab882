"""Markdown summary on the hand-built sample report (counts fixed by construction)."""

from __future__ import annotations

from pathlib import Path

from conformance.harness.reports import load, markdown

SAMPLE = Path(__file__).parent / "data" / "reporting" / "sample.jsonl"


def test_counts_tables_and_failures() -> None:
    text = markdown.render(load(SAMPLE))
    assert "**per fixture 33.3%: 3 of 9 fixtures judged pass under every ruleset they ran under; " \
           "1 declined (not judged)**; per result 40.0%: 4 of 10 judged" in text
    assert "**6 unmet expectations; 1 result not judged (skipped)**" in text
    perft_row = next(line for line in text.splitlines() if line.startswith("| <code>perft"))
    assert [c.strip() for c in perft_row.strip("|").split("|")][1:4] == ["3", "2", "1"]
    assert text.count("\n- **") == 6


def test_report_text_cannot_break_markdown() -> None:
    text = markdown.render(load(SAMPLE))
    assert "<script>" not in text and "&lt;script&gt;" in text
    record = {"type": "result", "id": "x", "kind": "san", "ruleset": "fide-2023",
              "status": "failed", "cites": [], "message": "a | b *c* [l](u)",
              "expect": {"san": "`"}, "actual": None}
    line = markdown.render([{"type": "header"}, record]).splitlines()[-1]
    assert "a \\| b \\*c\\* \\[l\\](u)" in line and "\\`" in line


def test_write_and_limit(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    markdown.write(load(SAMPLE), path, max_failures=2)
    text = path.read_text(encoding="utf-8")
    assert "### Failures (2 of 6 shown)" in text and text.count("\n- **") == 2
