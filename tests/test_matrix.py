"""``arbiter matrix``: the row model (pure) and the command end to end on three fixtures."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli import main
from conformance.tools.matrix import render
from conformance.tools.matrix.model import row, skipped_row

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
    assert render.percent(got.cells["dead_position"]) == "not judged (1 declined)"
    assert render.percent(got.cells["san"]) == "no fixture"
    assert render.percent(None) == render.NOT_DECLARED
    assert [c["examples"] for c in got.classes] == [["p2"]]
    assert "nodes: expected <n>, got <n>" == got.classes[0]["signature"]
    assert got.classes[0]["smallest"] == "p2" and got.members[0][0]["id"] == "p2"


def test_cells_score_fixtures_as_the_summary_does_whatever_the_order_of_results() -> None:
    from conformance.harness.reports.summary import summarize

    # declined under one ruleset, passed under the other: judged and conforming, in either order
    results = [_result("a", "dead_position", "skipped"), _result("a", "dead_position", "passed", "fide-2018"),
               _result("b", "dead_position", "passed"), _result("b", "dead_position", "skipped", "fide-2018"),
               _result("c", "dead_position", "skipped"), _result("c", "dead_position", "skipped", "fide-2018"),
               _result("d", "dead_position", "failed", message="dead: expected True, got False")]
    header = {"type": "header", "adapter": {"name": "lib", "capabilities": ["dead_position"]}}
    cell = row("lib", [header, *results]).cells["dead_position"]
    assert (cell.conforming, cell.judged, cell.declined) == (2, 3, 1)
    fixtures = summarize([header, *results]).fixtures
    assert (fixtures.conforming, fixtures.judged, fixtures.declined) == (cell.conforming, cell.judged, cell.declined)
    assert render.percent(cell) == "66.7 % (2/3; 1 declined)"
    assert render.short(cell) == "66.7 (1 declined)"


def test_a_rounded_hundred_is_not_shown_for_a_failure() -> None:
    from conformance.tools.matrix.model import Cell

    assert render.percent(Cell(conforming=9999, judged=10000)) == "99.9 % (9999/10000)"
    assert render.percent(Cell(conforming=5, judged=5)) == "100 % (5/5)"
    assert render.short(Cell(conforming=19, judged=19, declined=881)) == "100 (881 declined)"


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
    assert pychess["classes"][0]["smallest"] == "dead.labelled.l0089"
    assert chessjs["skipped"] and "Node.js" in chessjs["skipped"] and not chessjs["kinds"]
    markdown = (out / "compliance.md").read_text()
    assert "| python-chess " in markdown and "`dead.labelled.l0089`" in markdown and "## Not run" in markdown
    page = (out / "compliance.html").read_text()
    assert page.startswith("<!doctype html>") and "dead.labelled.l0089" in page
    assert "href='#r1-dead_position'" in page and "id='r1-c1'" in page


@pytest.mark.parametrize("args, message", [
    (["-j", "0"], "-j must be at least 1"),
    (["-a", "telepathy", "--id", IDS[0]], "unknown adapter"),
])
@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["matrix", "-o", str(tmp_path / "m"), *args])
    assert result.exit_code == 2 and message in result.output


REPORTING = Path(__file__).parent / "data" / "reporting"


def _page_rows() -> list:
    """Two implementations from the hand-built reports, and one that did not run."""
    from conformance.harness.reports import load

    return [row("python-chess", load(REPORTING / "sample.jsonl")),
            row("cmd:node toylib-adapter.cjs", load(REPORTING / "causes.jsonl")),
            skipped_row("kokopu", "the npm adapters need Node.js")]


class _Page(HTMLParser):
    """Ids, in-page links and, per element id, the ids and classes of what it contains."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.open: list[tuple[str, str | None]] = []  # (tag, id) of the elements being read
        self.inside: dict[str, list[str]] = {}  # id -> classes and ids of the elements within

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        ident, href = found.get("id"), found.get("href")
        for _, outer in self.open:
            if outer is not None:
                self.inside[outer] += [f".{found.get('class')}", f"#{ident}"]
        if ident is not None:
            self.ids.append(ident)
            self.inside[ident] = []
        if href is not None and href.startswith("#"):
            self.links.append(href[1:])
        if tag not in ("br", "meta", "img", "hr"):
            self.open.append((tag, ident))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break


def _parse(page: str) -> _Page:
    parsed = _Page()
    parsed.feed(page)
    return parsed


def test_page_links_cells_to_classes_and_classes_to_boards() -> None:
    page = render.as_html(_page_rows(), {"corpus_revision": "x", "selection_text": "the test reports"})
    parsed = _parse(page)
    assert len(parsed.ids) == len(set(parsed.ids))  # unique ids
    assert set(parsed.links) <= set(parsed.ids)  # every in-page link lands
    # toylib (row 2): its failing legal_moves cell links to the legal_moves classes, which
    # are the double step and the king move, each linking to its boards
    assert "r2-legal_moves" in parsed.links
    legal = page[page.index("id='r2-legal_moves'"):]
    legal = legal[:legal.index("</table>")]
    assert "unexpected pawn double step" in legal and "unexpected king move" in legal
    targets = {href for href in parsed.links if href.startswith("r2-c")}
    assert len(targets) == 9  # one boards section per class (a crash's linked from each of its kinds)
    for target in targets:
        within = parsed.inside[target]
        assert ".board" in within and ".failure failed" in within or ".failure errored" in within
    # the smallest double-stepping fixture comes first in its boards: 3 pieces (a3 and a6
    # tie; the id decides), before the 4 of c5-castle
    boards = page[page.index("id='r2-c1'"):]
    assert boards.index("legal.double.a3") < boards.index("legal.double.c5-castle")
    # a crash class appears under each of its kinds, with its count in that kind
    assert page.count("TypeError: Cannot read properties of null (reading &#x27;type&#x27;)") >= 4
    # python-chess (row 1) declined one dead-position fixture: said in its cell, not linked
    cell = page[page.index("<tr><td><a href='#r1'>"):]
    assert "1 declined" in cell[:cell.index("</tr>")] and "r1-dead_position" not in parsed.links
    assert "<h2>Not run</h2>" in page and "kokopu" in page


def test_markdown_lists_classes_by_cause_with_their_smallest_fixture() -> None:
    text = render.as_markdown(_page_rows(), {"corpus_revision": "x"})
    section = text[text.index("## toylib 0.3.1"):]
    assert "9 failure classes by cause" in section
    line = next(line for line in section.splitlines() if "pawn double step" in line)
    assert "`legal.double.a3`" in line.split("|")[5]
    assert "| `perft, san, status, game_end` (errored) |" in section
    assert "| python-chess 1.11.2 |" in text and "1 declined" in text.split("## Not run")[0]


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: appended to a copy of the page (the page itself has no scripts): every in-page link's
#: target, the boards drawn and laid out, written into the DOM that --dump-dom prints
CHECK = """<script>
const links = [...document.querySelectorAll('a[href^="#"]')];
const missing = links.filter(a => !document.getElementById(a.getAttribute('href').slice(1)));
const square = document.querySelector('table.board td');
const found = {links: links.length, missing: missing.map(a => a.getAttribute('href')),
  sections: document.querySelectorAll('section.boards').length,
  boards: document.querySelectorAll('section.boards table.board').length,
  squares: [...document.querySelectorAll('table.board')].every(t => t.querySelectorAll('td').length === 64),
  squareWidth: square ? Math.round(square.getBoundingClientRect().width) : 0,
  cells: document.querySelectorAll('table.matrix tr').length};
document.body.setAttribute('data-check', JSON.stringify(found));
</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian package chromium)")
def test_page_in_headless_chromium(tmp_path: Path) -> None:
    page = render.as_html(_page_rows(), {"corpus_revision": "x", "selection_text": "the test reports"})
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", CHECK + "</body>"), encoding="utf-8")
    run = subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", probe.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    found = re.search(r'data-check="([^"]*)"', run.stdout)
    assert found is not None, run.stdout[-2000:]
    check = json.loads(html.unescape(found.group(1)))
    assert check["missing"] == [] and check["links"] > 20
    # python-chess's 6 classes and toylib's 9, each with its boards; every board 8 x 8,
    # drawn with the report's style (32-pixel squares)
    assert check["sections"] == 15 and check["boards"] >= 15
    assert check["squares"] and check["squareWidth"] == 32
    assert check["cells"] == 3  # the heading and two implementations that ran
