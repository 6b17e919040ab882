"""Failure classes by cite, per-fixture compliance and the per-article table, on hand-built
reports (the grouping by cause: tests/test_reports_causes.py)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from conformance.harness.reports import html, markdown, terminal
from conformance.harness.reports.classes import classify, signature
from conformance.harness.reports.summary import article_applies, summarize

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _result(ident: str, status: str, message: str | None = None, kind: str = "perft",
            ruleset: str = "fide-2023", cites: tuple[str, ...] = ("fide-2023:3.7",)) -> dict:
    return {"type": "result", "id": ident, "kind": kind, "ruleset": ruleset, "cites": list(cites),
            "status": status, "expect": None, "actual": None, "message": message, "input": {}}


def _report(results: list[dict]) -> list[dict]:
    return [{"type": "header", "adapter": {"name": "x"}}, *results,
            {"type": "footer", "counts": {}, "interrupted": False}]


@pytest.mark.parametrize(("message", "expected"), [
    ("nodes: expected 97862, got 97863", "nodes: expected <n>, got <n>"),
    ("moves: missing a2a3, b2b4, c2c3, d2d4, e2e4, f2f3, ... (12 in all)", "moves: missing <move>"),
    ("moves: missing e1g1; unexpected e1h1", "moves: missing <move>; unexpected <move>"),
    (f"fen: expected '{START}', got '{START}' (x)", "fen: expected '<fen>', got '<fen>' (x)"),
    ("san: expected 'Nbd7', got 'Nd7'", "san: expected '<san>', got '<san>'"),
    ("en passant square e3 is wrong", "en passant square <square> is wrong"),
    # results, verdict words, kinds, rulesets and articles stay as they are
    ("result: expected '1/2-1/2', got '1-0'", "result: expected \u00bd-\u00bd, got 1-0"),
    ("result: expected '0-1', got '*'", "result: expected 0-1, got *"),
    ("check: expected True, got False", "check: expected True, got False"),
    ("adapter does not declare the ruleset 'fide-2023-chess960'",
     "adapter does not declare the ruleset 'fide-2023-chess960'"),
    ("cites fide-2023:3.7.3.1 and uscf-7:14E2, 12 times", "cites fide-2023:3.7.3.1 and uscf-7:14E2, <n> times"),
])
def test_signature_replaces_particulars(message: str, expected: str) -> None:
    assert signature(message) == expected


def test_classes_group_by_kind_cites_and_signature_largest_first() -> None:
    results = [
        _result("p.1", "failed", "nodes: expected 20, got 21"),
        _result("p.2", "failed", "nodes: expected 400, got 401"),
        _result("p.2", "failed", "nodes: expected 400, got 401", ruleset="uscf-7"),
        _result("p.3", "failed", "nodes: expected 8902, got 8903"),
        _result("p.4", "failed", "nodes: expected 5, got 6"),
        _result("p.5", "failed", "nodes: expected 5, got 6", cites=("fide-2023:3.8",)),
        _result("s.1", "failed", "nodes: expected 5, got 6", kind="status"),
    ]
    classes = classify(results, by="cite")
    assert [(c.kind, c.cites, c.results, len(c.fixtures)) for c in classes] == [
        ("perft", ("fide-2023:3.7",), 5, 4),
        ("perft", ("fide-2023:3.8",), 1, 1),
        ("status", ("fide-2023:3.7",), 1, 1),
    ]
    assert classes[0].examples == ["p.1", "p.2", "p.3"]  # at most three, distinct ids
    # by cause (the default) the articles no longer split the perft class; the kinds still do
    by_cause = classify(results)
    assert [(c.kind, c.cites, c.results, len(c.fixtures)) for c in by_cause] == [
        ("perft", ("fide-2023:3.7", "fide-2023:3.8"), 6, 5),
        ("status", ("fide-2023:3.7",), 1, 1),
    ]
    with pytest.raises(ValueError, match="unknown grouping"):
        classify(results, by="colour")  # type: ignore[arg-type]


def _many_failures() -> list[dict]:
    return _report([_result(f"p.{n}", "failed", f"nodes: expected {n}, got {n + 1}") for n in range(40)]
                   + [_result("q.1", "errored", "adapter exited (status -11)", kind="legal_moves")])


def test_terminal_shows_classes() -> None:
    buffer = io.StringIO()
    terminal.render(_many_failures(), Console(file=buffer, width=200, color_system=None))
    text = buffer.getvalue()
    lines = text.splitlines()
    at = lines.index("    nodes: expected <n>, got <n>")
    assert lines[at - 1].split() == ["40", "results", "(40", "fixtures)", "perft", "fide-2023:3.7"]
    assert lines[at + 1] == "    e.g. p.0, p.1, p.2"
    assert "    adapter exited (status -<n>)" in lines
    crash = lines.index("    adapter exited (status -<n>)")
    assert lines[crash - 1].split() == ["1", "result", "(1", "fixture)", "legal_moves", "errored", "fide-2023:3.7"]


@pytest.mark.parametrize("render", [markdown.render, html.render])
def test_markdown_and_html_show_classes(render) -> None:  # noqa: ANN001
    text = render(_many_failures())
    assert "Failure classes by cause (2)" in text
    assert "expected &lt;n&gt;, got &lt;n&gt;" in text


def test_fixture_passes_only_under_every_ruleset_it_ran_under() -> None:
    summary = summarize(_report([
        _result("a", "passed"), _result("a", "failed", "x", ruleset="uscf-7"),
        _result("b", "passed"), _result("b", "passed", ruleset="uscf-7"),
        _result("c", "passed"), _result("c", "unsupported", ruleset="fide-2023-chess960"),
        _result("d", "unsupported"),
    ]))
    assert summary.overall.compliance == pytest.approx(4 / 5)
    assert (summary.fixtures.conforming, summary.fixtures.applicable) == (2, 3)  # b and c; d not applicable


def test_uscf_articles_are_not_scored_from_fide_results() -> None:
    assert article_applies("uscf-7:14E", "uscf-7")
    assert article_applies("uscf-7:14E", "uscf-7-blitz")
    assert not article_applies("uscf-7:14E", "fide-2023")
    assert not article_applies("fide-2023:6.9", "uscf-7")  # US Chess's tables cite its own rules
    assert article_applies("fide-2023:3.8.2", "fide-2018")  # 2018 inherits the unchanged 2023 cites
    assert not article_applies("fide-2018:6.9", "fide-2023")
    assert article_applies("pgn:8.2.3", "fide-2023-chess960")  # not a ruleset's document
    summary = summarize(_report([
        _result("t.1", "passed", kind="timeout", cites=("fide-2023:6.9", "uscf-7:14E")),
        _result("t.1", "unsupported", kind="timeout", ruleset="uscf-7", cites=("fide-2023:6.9", "uscf-7:14E")),
    ]))
    assert summary.by_article["fide-2023:6.9"].counts["passed"] == 1
    assert "uscf-7:14E" not in summary.by_article  # nothing judged under a US Chess ruleset


def test_article_rows_with_nothing_judged_are_left_out() -> None:
    summary = summarize(_report([
        _result("a", "passed", cites=("fide-2023:3.7",)),
        _result("b", "skipped", "declined", cites=("fide-2023:5.2.2",)),
        _result("c", "unsupported", cites=("fide-2023:9.6",)),
    ]))
    assert list(summary.by_article) == ["fide-2023:3.7"]
