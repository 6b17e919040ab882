"""JUnit XML on the hand-built sample report: well-formed, and counts match its statuses.

In the sample (written by hand): 12 results, of which 1 unsupported (left out of
JUnit); failures = failed 4 + xpassed 1 = 5, errors = errored 1,
skipped = skipped 1 + xfailed 1 = 2.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from conformance.harness.reports import junit, load

SAMPLE = Path(__file__).parent / "data" / "reporting" / "sample.jsonl"


def _root(tmp_path: Path, records: list[dict]) -> ET.Element:
    path = tmp_path / "report.xml"
    junit.write(records, path)
    return ET.parse(path).getroot()  # raises ParseError if not well-formed


def test_totals_match_statuses(tmp_path: Path) -> None:
    root = _root(tmp_path, load(SAMPLE))
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) \
        == ("11", "5", "1", "2")
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 11
    assert len(root.findall(".//testcase/failure")) == 5
    assert len(root.findall(".//testcase/error")) == 1
    assert len(root.findall(".//testcase/skipped")) == 2


def test_one_suite_per_kind_with_its_own_counts(tmp_path: Path) -> None:
    root = _root(tmp_path, load(SAMPLE))
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    # start_position holds only an unsupported result: no suite
    assert sorted(suites) == ["apply_moves", "dead_position", "game_end", "legal_moves",
                              "perft", "san", "status", "timeout"]
    perft = suites["perft"]
    assert (perft.get("tests"), perft.get("failures")) == ("3", "1")
    assert {c.get("name") for c in perft.findall("testcase")} == {
        "perft.kiwipete.d2[fide-2023]", "perft.kiwipete.d2[uscf-7]", "perft.start.d3[fide-2023]"}
    timeout = suites["timeout"]
    assert timeout.find("testcase/skipped").get("type") == "xfailed"
    assert timeout.find("testcase/failure").get("type") == "xpassed"


def test_adapter_metadata_in_properties(tmp_path: Path) -> None:
    root = _root(tmp_path, load(SAMPLE))
    props = {p.get("name"): p.get("value")
             for p in root.find("testsuite").findall("properties/property")}
    assert props["adapter.name"] == "python-chess"
    assert props["adapter.version"] == "1.11.2"
    assert props["corpus_revision"] == "abc1234"
    assert props["protocol_version"] == "1"
    assert props["unsupported"] == "0"


def test_failure_body_has_expected_and_actual(tmp_path: Path) -> None:
    root = _root(tmp_path, load(SAMPLE))
    case = root.find(".//testcase[@name='perft.start.d3[fide-2023]']")
    failure = case.find("failure")
    assert failure.get("message") == "nodes differ: expected 8902, got 8901"
    assert '{"nodes": 8902}' in failure.text and '{"nodes": 8901}' in failure.text
    assert "cites:    fide-2023:3.7.1" in failure.text
    assert case.get("classname") == "arbiter.perft"
    assert float(case.get("time")) == 0.0015


def test_hostile_text_stays_well_formed(tmp_path: Path) -> None:
    records = [{"type": "header", "adapter": {"name": "x\x00y"}},
               {"type": "result", "id": "a", "kind": "san", "ruleset": "fide-2023",
                "status": "failed", "cites": [], "message": "bad ]]> <x> & \x1b[31m \ud800",
                "expect": {"san": "</failure>"}, "actual": {"san": "\x07"}}]
    root = _root(tmp_path, records)
    failure = root.find(".//failure")
    assert "]]> <x> &" in failure.get("message")
    assert "</failure>" in failure.text


def test_ill_formed_fields_do_not_break_any_renderer(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from conformance.harness.reports import html, terminal

    records = [
        {"type": "header", "adapter": "not a mapping", "corpus_revision": 5},
        {"type": "result", "id": 1, "kind": None, "ruleset": ["x"], "status": "bogus",
         "cites": "fide-2023:1", "input": "text", "expect": [1], "actual": {"moves": "e2e4"},
         "message": 5, "duration_ms": "abc"},
        {"type": "result"},
        {"type": "result", "id": "a", "kind": "legal_moves", "ruleset": "r", "status": "failed",
         "cites": [None], "input": {"fen": 5, "move": ["x"], "moves": "e2e4"},
         "expect": {"moves": [1, 2]}, "actual": {"moves": [None]}, "duration_ms": None},
        {"type": "footer", "counts": None, "interrupted": "yes"},
    ]
    root = _root(tmp_path, records)
    assert root.get("tests") == "3"             # an unknown status counts as an error
    assert root.get("errors") == "2" and root.get("failures") == "1"
    terminal.render(records, Console(file=io.StringIO()))
    assert "<h2>Failures (3)</h2>" in html.render(records)  # unknown statuses are errors
