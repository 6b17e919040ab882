"""One message for an unknown ruleset whichever command is given it; HTML failure cards
show the fixture's description."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli import main

WRONG = Path(__file__).parent / "data" / "harness" / "wrong.jsonl"


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_run_and_perft_report_an_unknown_ruleset_alike(tmp_path: Path) -> None:
    runner = CliRunner()
    ran = runner.invoke(main, ["run", "-q", "--no-progress", "-o", "-", "--rules", "nonesuch"])
    counted = runner.invoke(main, ["perft", "--rules", "nonesuch", "startpos", "1"])
    assert ran.exit_code == counted.exit_code == 1
    assert "unknown ruleset 'nonesuch'" in ran.output and "Traceback" not in ran.output
    assert ran.output == counted.output
    # a known ruleset that selects nothing is still the usage error it was
    empty = runner.invoke(main, ["run", "-q", "--no-progress", "-o", "-", "--rules", "fide", "-k", "nonesuch"])
    assert empty.exit_code == 2 and "no fixture matches" in empty.output


def test_failure_cards_show_the_fixture_description(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    report = tmp_path / "report.jsonl"
    result = CliRunner().invoke(main, ["run", "-q", "--no-progress", "-f", str(WRONG), "-o", str(report),
                                       "--html", str(html)])
    assert result.exit_code == 1
    page = html.read_text()
    card = page[page.index('<section class="failure'):]
    card = card[: card.index("</section>")]
    assert "w.perft.start.d1.wrong" in card
    assert "deliberately wrong expectation (19 instead of 20)" in card
    records = [json.loads(line) for line in report.read_text().splitlines()]
    described = {r["id"]: r.get("description") for r in records if r["type"] == "result"}
    assert described["w.perft.start.d1.right"] == "start position, 20 moves"  # the record carries it
