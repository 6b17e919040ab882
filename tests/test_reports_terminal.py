"""Terminal summary on the hand-built sample report (counts fixed by construction)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from conformance.harness.reports import load, terminal

SAMPLE = Path(__file__).parent / "data" / "reporting" / "sample.jsonl"


def _render(records: list[dict], **kwargs: int | bool) -> str:
    buffer = io.StringIO()
    terminal.render(records, Console(file=buffer, width=160, color_system=None), **kwargs)
    return buffer.getvalue()


def test_summary_line_counts_and_compliance() -> None:
    text = _render(load(SAMPLE))
    assert "python-chess 1.11.2" in text
    lines = text.splitlines()
    # per fixture first, then per result; the unsupported result only named, not counted
    assert lines[1] == ("per fixture 33.3%: 3 of 9 fixtures judged pass under every ruleset they "
                        "ran under; 1 declined (not judged)")
    assert lines[2] == ("per result 40.0%: 4 of 10 judged (one per fixture and ruleset); 11 results: "
                        "3 passed, 4 failed, 1 errored, 1 skipped, 1 xfail, 1 xpass")
    assert lines[3] == ("1 result of kinds or rulesets the adapter does not declare left out "
                        "(unsupported; -v counts them)")
    assert "6 unmet expectations" in text


def test_verbose_counts_unsupported_results_and_rows() -> None:
    quiet, verbose = _render(load(SAMPLE)), _render(load(SAMPLE), verbose=True)
    assert "12 results: 3 passed, 4 failed, 1 errored, 1 skipped, 1 unsupported, 1 xfail, 1 xpass" in verbose
    assert "left out (unsupported" not in verbose
    heading = next(line for line in quiet.splitlines() if line.startswith("kind "))
    assert "unsup" not in heading.split()
    assert not any(line.startswith("start_position ") for line in quiet.splitlines())  # only unsupported
    row = next(line for line in verbose.splitlines() if line.startswith("start_position "))
    assert row.split() == ["start_position", "1", "1", "-"]


def test_tables_per_kind_and_article() -> None:
    text = _render(load(SAMPLE))
    heading = next(line for line in text.splitlines() if line.startswith("kind "))
    assert heading.split() == ["kind", "total", "pass", "fail", "error", "skip",
                               "xfail", "xpass", "score"]
    perft_row = next(line for line in text.splitlines() if line.startswith("perft "))
    assert perft_row.split() == ["perft", "3", "2", "1", "66.7%"]
    assert "fide-2023:3.7.3.1" in text and "fide-2023:II.3.2" in text
    article_row = next(line for line in text.splitlines() if line.startswith("fide-2023:6.9 "))
    assert article_row.split()[-4:] == ["2", "1", "1", "50.0%"]


def test_failures_show_expected_and_actual_or_move_difference() -> None:
    text = _render(load(SAMPLE))
    assert "FAILED perft.start.d3 [fide-2023]" in text
    assert 'expected: {"nodes": 8902}' in text and 'actual:   {"nodes": 8901}' in text
    assert "extra:    c5d6" in text           # legal_moves shown as a set difference
    assert "XPASSED timeout.kq.k" in text


def test_failure_list_is_limited() -> None:
    text = _render(load(SAMPLE), max_failures=2)
    assert "Failures (2 of 6 shown;" in text
    shown = text.split("Failures")[1]
    # one failure from each of the first two kinds, in report order
    assert "perft.start.d3" in shown and "legal.ep.pinned" in shown
    assert "apply.castle.960" not in shown


def test_all_passed_report() -> None:
    records = [{"type": "header", "adapter": {"name": "x"}},
               {"type": "result", "id": "a", "kind": "perft", "ruleset": "fide-2023",
                "status": "passed", "cites": []},
               {"type": "footer", "counts": {}, "interrupted": False}]
    text = _render(records)
    assert "per fixture 100.0%: 1 of 1 fixture judged" in text and "all expectations met" in text
    assert "Failures" not in text


def test_interrupted_report_says_partial() -> None:
    text = _render([{"type": "header", "adapter": {"name": "x"}}])
    assert "per fixture -: no fixture judged" in text and "0 results: none" in text and "partial" in text


def test_article_titles_from_registry_when_wide_and_dropped_when_narrow() -> None:
    from conformance.harness.reports.summary import article_title

    title = article_title("fide-2023:3.7.3.1")
    wide = _render(load(SAMPLE))
    if title:
        assert title[:20] in wide
    narrow = io.StringIO()
    terminal.render(load(SAMPLE), Console(file=narrow, width=80, color_system=None))
    text = narrow.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    header = next(line for line in text.splitlines() if line.startswith("article "))
    assert "title" not in header and "…" not in text
    assert header.split()[-1] == "score"


def test_failures_alike_under_several_rulesets_are_listed_once() -> None:
    records = [{"type": "header", "adapter": {"name": "x"}}] + [
        {"type": "result", "id": "perft.x", "kind": "perft", "ruleset": ruleset,
         "status": "failed", "cites": [], "expect": {"nodes": 2}, "actual": {"nodes": 3},
         "message": "nodes: expected 2, got 3", "input": {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}}
        for ruleset in ("fide-2023", "fide-2018", "fide-2014", "uscf-7")]
    records.append(dict(records[1], ruleset="chess960", actual={"nodes": 4}))
    text = _render(records)
    assert "Failures (2 of 2 shown;" in text
    assert "FAILED perft.x [fide-2023, fide-2018, +2 more]" in text
    assert "FAILED perft.x [chess960]" in text
