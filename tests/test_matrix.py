"""``arbiter matrix``: the row model (pure) and the command end to end on three fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli import main
from conformance.matrix import render
from conformance.matrix.model import row, skipped_row

#: python-chess passes the first two and misses the blocked-pawn dead position.
IDS = ("perft.suite.l001.d1", "legal.random.s1-0000", "dead.labelled.l0089")


def _result(ident: str, kind: str, status: str, ruleset: str = "fide-2023", message: str = "") -> dict:
    return {"type": "result", "id": ident, "kind": kind, "ruleset": ruleset, "status": status,
            "message": message, "cites": ["fide-2023:5.2.2"]}


def test_a_fixture_conforms_only_when_every_ruleset_passed() -> None:
    records = [
        {"type": "header", "adapter": {"name": "lib", "version": "1.2", "rulesets": ["fide-2023"],
                                       "capabilities": ["perft", "dead_position", "san"]}},
        _result("p1", "perft", "passed"), _result("p1", "perft", "passed", "fide-2018"),
        _result("p2", "perft", "passed"), _result("p2", "perft", "failed", "fide-2018", "nodes: expected 20, got 21"),
        _result("d1", "dead_position", "skipped"), _result("d2", "dead_position", "unsupported"),
        {"type": "footer"},
    ]
    got = row("lib", records)
    assert (got.name, got.version) == ("lib", "1.2")
    assert (got.cells["perft"].conforming, got.cells["perft"].judged) == (1, 2)
    assert (got.cells["dead_position"].judged, got.cells["dead_position"].declined) == (0, 1)
    assert render.percent(got.cells["perft"]) == "50.0 % (1/2)"
    assert render.percent(got.cells["dead_position"]) == "not judged"
    assert render.percent(got.cells["san"]) == "no fixture"
    assert render.percent(None) == render.NOT_DECLARED
    assert [c["examples"] for c in got.classes] == [["p2"]]
    assert "nodes: expected <n>, got <n>" == got.classes[0]["signature"]


def test_a_rounded_hundred_is_not_shown_for_a_failure() -> None:
    from conformance.matrix.model import Cell

    assert render.percent(Cell(conforming=9999, judged=10000)) == "99.9 % (9999/10000)"
    assert render.percent(Cell(conforming=5, judged=5)) == "100 % (5/5)"


def test_skipped_rows_are_listed_with_their_reason_not_as_passing() -> None:
    rows = [skipped_row("chess.js", "the npm adapters need Node.js")]
    text = render.as_markdown(rows, {"corpus_revision": "x"})
    assert "## Not run" in text and "`chess.js`: the npm adapters need Node.js" in text
    assert "chess.js |" not in text.split("## Not run")[0]  # no row in the table


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_matrix_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_NODE", str(tmp_path / "no-node"))
    out = tmp_path / "m"
    args = ["matrix", "-a", "python-chess", "-a", "chess.js", "-o", str(out)]
    for ident in IDS:
        args += ["--id", ident]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "compliance.json").read_text())
    pychess, chessjs = data["implementations"]
    assert pychess["name"] == "python-chess" and pychess["version"]
    assert pychess["kinds"]["perft"]["conforming"] == pychess["kinds"]["perft"]["judged"] == 1
    assert pychess["kinds"]["dead_position"] == {"conforming": 0, "judged": 1, "declined": 0, "compliance": 0.0}
    assert [c["examples"] for c in pychess["classes"]] == [["dead.labelled.l0089"]]
    assert chessjs["skipped"] and "Node.js" in chessjs["skipped"] and not chessjs["kinds"]
    markdown = (out / "compliance.md").read_text()
    assert "| python-chess " in markdown and "`dead.labelled.l0089`" in markdown and "## Not run" in markdown
    page = (out / "compliance.html").read_text()
    assert page.startswith("<!doctype html>") and "dead.labelled.l0089" in page


@pytest.mark.parametrize("args, message", [
    (["-j", "0"], "-j must be at least 1"),
    (["-a", "telepathy", "--id", IDS[0]], "unknown adapter"),
])
@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["matrix", "-o", str(tmp_path / "m"), *args])
    assert result.exit_code == 2 and message in result.output
