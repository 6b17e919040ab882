"""No renderer says "all expectations met" while a result was not judged or a shard is missing.

The reports below are built by hand: every answer that was judged passed, and one or
more results were skipped (the adapter declined them) or the merged report lacks a
shard. Each summary must say how many were not judged and why, and its verdict must not
be the green one.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from conformance.harness.reports import html, junit, markdown, terminal
from conformance.harness.reports.summary import summarize

GREEN = "all expectations met"
UNDETERMINED = "dead-position analysis undetermined at 5000 nodes"


def _result(ident: str, status: str, kind: str = "timeout", message: str | None = None,
            ruleset: str = "fide-2023", cites: list[str] | None = None) -> dict:
    return {"type": "result", "id": ident, "kind": kind, "ruleset": ruleset,
            "cites": cites if cites is not None else ["fide-2023:6.9"], "status": status,
            "expect": {"result": "1-0"}, "actual": None, "message": message, "input": {}}


def _report(results: list[dict], selection: dict | None = None) -> list[dict]:
    header = {"type": "header", "adapter": {"name": "arbiter-reference", "version": "0.1.0"},
              "selection": selection or {}}
    return [header, *results, {"type": "footer", "counts": {}, "interrupted": False}]


def skipped_report() -> list[dict]:
    """Three passes and three skips: two for one reason (node counts differ), one for another."""
    return _report([
        _result("t.a", "passed"), _result("t.b", "passed"), _result("g.c", "passed", kind="game_end"),
        _result("t.d", "skipped", message=UNDETERMINED),
        _result("t.e", "skipped", message=UNDETERMINED.replace("5000", "50000")),
        _result("d.f", "skipped", kind="dead_position", message="not implemented"),
    ])


def all_passed_report() -> list[dict]:
    return _report([_result("t.a", "passed"), _result("t.b", "unsupported", message="no such ruleset")])


def _terminal(records: list[dict]) -> str:
    buffer = io.StringIO()
    terminal.render(records, Console(file=buffer, width=200, color_system=None))
    return buffer.getvalue()


def _junit(records: list[dict]) -> str:
    root = junit.build(records)
    verdicts = {p.get("value") for p in root.iter("property") if p.get("name") == "verdict"}
    assert len(verdicts) == 1
    return verdicts.pop() or ""


RENDERERS = {"terminal": _terminal, "markdown": markdown.render, "html": html.render, "junit": _junit}


@pytest.mark.parametrize("name", RENDERERS)
def test_a_clean_run_is_green(name: str) -> None:
    assert GREEN in RENDERERS[name](all_passed_report())


@pytest.mark.parametrize("name", RENDERERS)
def test_skips_are_never_all_expectations_met(name: str) -> None:
    text = RENDERERS[name](skipped_report())
    assert GREEN not in text
    assert "3 results not judged" in text


@pytest.mark.parametrize("name", ["terminal", "markdown", "html"])
def test_skips_are_grouped_by_reason(name: str) -> None:
    text = RENDERERS[name](skipped_report())
    assert "undetermined at &lt;n&gt; nodes" in text or "undetermined at <n> nodes" in text
    assert "not implemented" in text
    assert "t.d" in text and "t.e" in text  # both skips of the one reason, as examples


def test_skip_reasons_are_counted_per_kind_and_signature() -> None:
    reasons = summarize(skipped_report()).skip_reasons
    assert [(r.kind, r.results, r.examples) for r in reasons] == [
        ("timeout", 2, ["t.d", "t.e"]), ("dead_position", 1, ["d.f"])]


def test_junit_counts_not_judged_per_suite() -> None:
    root = junit.build(skipped_report())
    per_suite = {s.get("name"): next(p.get("value") for p in s.iter("property")
                                     if p.get("name") == "not_judged")
                 for s in root.iter("testsuite")}
    assert per_suite == {"dead_position": "1", "game_end": "0", "timeout": "2"}
    ET.tostring(root)  # still serialisable


@pytest.mark.parametrize("name", RENDERERS)
def test_missing_shards_are_never_all_expectations_met(name: str) -> None:
    records = _report([_result("t.a", "passed")], {"missing_shards": ["2/3", "3/3"]})
    text = RENDERERS[name](records)
    assert GREEN not in text and "2/3, 3/3" in text


def test_failures_and_skips_are_both_named() -> None:
    records = skipped_report()
    records.insert(1, _result("t.z", "failed", message="result: expected '1-0', got '0-1'"))
    verdict = summarize(records).verdict()
    assert not verdict.good
    assert verdict.text == "1 unmet expectation; 3 results not judged (skipped)"


def test_exit_status_strict_only_for_skips() -> None:
    skipped, clean = summarize(skipped_report()), summarize(all_passed_report())
    assert skipped.exit_status() == 0 and skipped.exit_status(strict=True) == 1
    assert clean.exit_status() == 0 and clean.exit_status(strict=True) == 0
    failed = summarize(_report([_result("t.z", "failed", message="x")]))
    assert failed.exit_status() == 1 and failed.exit_status(strict=True) == 1
