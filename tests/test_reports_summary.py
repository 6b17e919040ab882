"""Aggregation behind every renderer, on a hand-built report (tests/data/reporting/sample.jsonl).

The sample's 12 results were written by hand with known statuses: 3 passed, 4 failed,
1 errored, 1 skipped, 1 unsupported, 1 xfailed, 1 xpassed; so every count below is
fixed by construction, not by the code under test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.harness.reports import ReportError, load
from conformance.harness.reports.summary import move_difference, percent, summarize

SAMPLE = Path(__file__).parent / "data" / "reporting" / "sample.jsonl"


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return load(SAMPLE)


def test_overall_counts_and_compliance_definition(records: list[dict]) -> None:
    summary = summarize(records)
    counts = summary.overall.counts
    assert counts == {"passed": 3, "failed": 4, "errored": 1, "skipped": 1,
                      "unsupported": 1, "xfailed": 1, "xpassed": 1}
    assert summary.overall.total == 12
    assert summary.overall.applicable == 11          # unsupported left out
    assert summary.overall.judged == 10              # and the declined (skipped) one
    assert summary.overall.conforming == 4           # passed + xpassed
    assert summary.overall.compliance == pytest.approx(4 / 10)
    assert summary.overall.problems == 6             # failed + errored + xpassed
    assert not summary.ok and not summary.interrupted


def test_per_fixture_counts_each_fixture_once_and_declined_apart(records: list[dict]) -> None:
    # 11 fixtures: kiwipete (two rulesets, both passed), status.mate and the xpassed timeout
    # conform; six fail (the xfailed one among them); dead.kbk was declined; start.960 is
    # unsupported only
    fixtures = summarize(records).fixtures
    assert (fixtures.conforming, fixtures.judged, fixtures.declined) == (3, 9, 1)
    assert fixtures.compliance == pytest.approx(3 / 9) and fixtures.failing == 6


def test_counts_per_kind(records: list[dict]) -> None:
    by_kind = summarize(records).by_kind
    assert list(by_kind) == sorted(by_kind)
    assert by_kind["perft"].counts["passed"] == 2 and by_kind["perft"].counts["failed"] == 1
    assert by_kind["timeout"].counts["xfailed"] == 1 and by_kind["timeout"].counts["xpassed"] == 1
    assert by_kind["start_position"].compliance is None  # only unsupported results
    assert sum(t.total for t in by_kind.values()) == 12


def test_counts_per_article_count_each_cite(records: list[dict]) -> None:
    by_article = summarize(records).by_article
    # the second pass is under uscf-7, whose tables cite US Chess's own rules (8A2 for
    # castling), so it is not scored for a FIDE article (article_applies)
    assert by_article["fide-2023:3.8.2"].counts["passed"] == 1
    assert by_article["fide-2023:6.9"].total == 2
    # a result citing two articles counts under both
    assert by_article["fide-2023:3.7.3.1"].counts["failed"] == 1
    assert by_article["fide-2023:3.9.1"].counts["failed"] == 1
    assert by_article["fide-2023:9.6.2"].counts["errored"] == 1
    assert by_article["fide-2023:5.1.1"].counts["errored"] == 1


def test_articles_sort_numerically() -> None:
    results = [{"type": "result", "id": f"x{n}", "kind": "perft", "ruleset": "fide-2023",
                "status": "passed", "cites": [f"fide-2023:3.{n}"]} for n in (10, 9, 2)]
    assert list(summarize(results).by_article) == [
        "fide-2023:3.2", "fide-2023:3.9", "fide-2023:3.10"]


def test_problems_keep_report_order(records: list[dict]) -> None:
    ids = [r["id"] for r in summarize(records).problems]
    assert ids == ["perft.start.d3", "legal.ep.pinned", "san.hostile", "game_end.mate.75",
                   "timeout.kq.k", "apply.castle.960"]


def test_missing_footer_means_interrupted(records: list[dict]) -> None:
    assert summarize([r for r in records if r["type"] != "footer"]).interrupted


def test_move_difference_lists_missing_and_extra() -> None:
    result = {"expect": {"moves": ["a2a3", "b2b3"]}, "actual": {"moves": ["b2b3", "e4d3"]}}
    assert move_difference(result) == (["a2a3"], ["e4d3"])
    assert move_difference({"expect": {"nodes": 1}, "actual": None}) is None


def test_percent_never_rounds_up_to_100() -> None:
    assert percent(0.99999) == "99.9%"
    assert percent(1.0) == "100.0%"
    assert percent(None) == "-"


@pytest.mark.parametrize("lines, where", [
    (["{not json"], "r.jsonl:1: not JSON"),
    (['{"type":"header"}', "[1, 2]"], "r.jsonl:2: not a report record"),
    (['{"type":"result","id":"a","kind":"perft","status":"passed"}'], "starts with a header"),
])
def test_bad_report_lines_name_the_line(tmp_path: Path, lines: list[str], where: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReportError, match=where):
        load(path)
