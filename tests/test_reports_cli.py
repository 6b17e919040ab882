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
    assert "per fixture 33.3%" in result.output and "per result 40.0%" in result.output
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
    assert result.stderr.strip().endswith("bad.jsonl:2: not JSON (Expecting value at column 1)")
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


def _write(path: Path, results: list[dict]) -> Path:
    import json

    lines = [{"type": "header", "adapter": {"name": "x"}}, *results,
             {"type": "footer", "counts": {}, "interrupted": False}]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


def _perft(ident: str, status: str, message: str | None) -> dict:
    return {"type": "result", "id": ident, "kind": "perft", "ruleset": "fide-2023",
            "cites": ["fide-2023:3.7"], "status": status, "message": message}


def test_classes_groups_alike_failures(tmp_path: Path) -> None:
    import json

    report = _write(tmp_path / "r.jsonl", [_perft(f"p.{n}", "failed", f"nodes: expected {n}, got {n + 1}")
                                           for n in range(7)] + [_perft("q", "errored", "crashed")])
    result = CliRunner().invoke(main, ["report", "classes", "--json", str(report)])
    assert result.exit_code == 1
    classes = [json.loads(line) for line in result.output.splitlines()]
    assert [(c["results"], c["signature"], c["examples"], c["crash"]) for c in classes] == [
        (7, "nodes: expected <n>, got <n>", ["p.0", "p.1", "p.2"], False), (1, "crashed", ["q"], True)]
    table = CliRunner().invoke(main, ["report", "classes", str(report)])
    assert "Failure classes by cause: 2 for 8 failures" in table.output and "e.g. p.0, p.1, p.2" in table.output


def test_classes_of_the_sample_and_of_its_skips() -> None:
    result = CliRunner().invoke(main, ["report", "classes", str(SAMPLE)])
    assert result.exit_code == 1 and "Failure classes by cause: 6 for 6 failures" in result.output
    by_cite = CliRunner().invoke(main, ["report", "classes", "--by", "cite", str(SAMPLE)])
    assert by_cite.exit_code == 1 and "Failure classes by cite: 6 for 6 failures" in by_cite.output
    skips = CliRunner().invoke(main, ["report", "classes", "--skips", str(SAMPLE)])
    assert "adapter skipped: not implemented" in skips.output and "dead.kbk" in skips.output


def test_render_strict_exits_1_on_a_skip(tmp_path: Path) -> None:
    report = _write(tmp_path / "r.jsonl", [_perft("a", "passed", None), _perft("b", "skipped", "declined")])
    lenient = CliRunner().invoke(main, ["report", "render", str(report)])
    assert lenient.exit_code == 0 and "all expectations met" not in lenient.output
    assert "1 result not judged (skipped)" in lenient.output
    strict = CliRunner().invoke(main, ["report", "render", "-q", "--strict", str(report)])
    assert strict.exit_code == 1
