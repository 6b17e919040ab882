"""``arbiter report findings``: a Markdown draft per failure class, on the hand-built
report of tests/data/reporting/causes.jsonl (nine causes, see tests/test_reports_causes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli import main
from conformance.harness.reports import load
from conformance.harness.reports.findings import Draft, drafts, size, smallest, text_board
from conformance.harness.reports.summary import summarize
from reference_impl.rules import articles

CAUSES = Path(__file__).parent / "data" / "reporting" / "causes.jsonl"


@pytest.fixture(scope="module")
def found() -> list[Draft]:
    return drafts(load(CAUSES))


def _draft(found: list[Draft], words: str) -> str:
    return next(d.text for d in found if words in d.title)


def test_one_draft_per_class_largest_first(found: list[Draft]) -> None:
    assert len(found) == 9
    assert found[0].name == "01-moves-unexpected-pawn-double-step-from-beyond-its-initial.md"
    assert found[0].title == ("toylib 0.3.1, legal_moves: moves: unexpected pawn double step "
                              "from beyond its initial rank")
    assert len({d.name for d in found}) == 9


def test_the_smallest_fixture_has_the_fewest_moves_then_pieces() -> None:
    classes = summarize(load(CAUSES)).classes
    double, crash = classes[0], classes[1]
    # a3 and a6 both have 3 pieces and no move (the id decides); c5-castle has 4
    assert smallest(double)["id"] == "legal.double.a3"
    assert size(smallest(double)) == (0, 3, 0)
    # the crash: perft depth 2 of kiwipete (32 pieces), a SAN of 5 pieces and one move,
    # a mate of 3 pieces and no move, four moves from the initial array
    assert smallest(crash)["id"] == "status.crash.mate"


def test_draft_names_rule_position_answers_and_reproduction(found: list[Draft]) -> None:
    text = found[0].text
    assert "3 fixtures (4 results) of Arbiter's conformance corpus, kind `legal_moves`" in text
    title = articles.article_title("fide-2023:3.7.2")
    assert (f"- FIDE Laws of Chess, in force from 1 January 2023, article 3.7.2: {title} "
            "(`fide-2023:3.7.2`), cited by 1 of the 4 results") in text
    assert "## Smallest case: `legal.double.a3` (fide-2023)" in text
    assert "Position: `4k3/8/8/8/8/P7/8/4K3 w - - 0 1`" in text
    assert "```\n8 . . . . k . . .\n" in text and "\n3 P . . . . . . .\n" in text
    assert "**The Laws give** 6 legal moves." in text
    assert "**toylib answered** all of them, and also `a3a5`." in text
    assert ("arbiter run --adapter 'cmd:node toylib-adapter.cjs' --id legal.double.a3 "
            "--ruleset fide-2023") in text
    assert "## All 3 fixtures\n\n`legal.double.a3`, `legal.double.a6`, `legal.double.c5-castle`" in text


def test_crash_draft_says_where_it_was_raised(found: list[Draft]) -> None:
    text = _draft(found, "TypeError")
    assert "kind `perft`, `san`, `status`, `game_end`, show this crash." in text
    assert "Raised in `_Board.move` (3), `notate` (1)." in text
    assert "## Articles the fixtures test" in text and "## Rule\n" not in text
    assert "(no answer: it errored)" in text


def test_draft_with_moves_shows_the_position_after_them(found: list[Draft]) -> None:
    text = _draft(found, "seventy_five_moves")
    assert "- moves: `a2a3`" in text
    assert "After the 1 move: `8/8/8/4k3/8/R7/3K4/8 b - - 150 120`" in text
    assert '**The Laws give:** `{"claimable": [], "reason": "seventy_five_moves", "result": "1/2-1/2"}`' in text


def test_text_board() -> None:
    assert text_board("8/8/8/8/8/8/8/R3K2r w Q - 0 1").splitlines()[-2:] == [
        "1 R . . . K . . r", "  a b c d e f g h"]
    assert text_board("not a fen") is None


def test_cli_writes_a_file_per_class_and_an_index(tmp_path: Path) -> None:
    out = tmp_path / "findings"
    result = CliRunner().invoke(main, ["report", "findings", str(CAUSES), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote 9 drafts and README.md" in result.output
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 10 and "README.md" in files
    index = (out / "README.md").read_text(encoding="utf-8")
    assert index.startswith("# Findings for toylib 0.3.1") and "(01-moves-unexpected-pawn" in index


def test_cli_prints_drafts_and_handles_no_failures_and_bad_folders(tmp_path: Path) -> None:
    printed = CliRunner().invoke(main, ["report", "findings", str(CAUSES)])
    assert printed.exit_code == 0 and printed.output.count("\n---\n") == 8
    clean = tmp_path / "ok.jsonl"
    clean.write_text('{"type":"header","adapter":{"name":"x"}}\n'
                     '{"type":"result","id":"a","kind":"perft","ruleset":"fide-2023","status":"passed"}\n',
                     encoding="utf-8")
    none = CliRunner().invoke(main, ["report", "findings", str(clean)])
    assert none.exit_code == 0 and none.output == "no failures\n"
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    bad = CliRunner().invoke(main, ["report", "findings", str(CAUSES), "--out", str(blocker / "sub")])
    assert bad.exit_code == 1 and "cannot write findings" in bad.stderr and "Traceback" not in bad.output
