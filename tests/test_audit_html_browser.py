"""The audit's HTML page as a browser shows it: headless Chromium loads a page written by
``arbiter audit --html`` from real records (tests/data/audit/real) and a hostile one,
and the document it builds is checked: every finding with its boards and proof, the
counts per server and per rule, nothing a record's tags hold run as markup or script.

Skipped only when no Chromium is installed (Debian's ``chromium``; CI installs it).
"""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli import main

REAL = Path(__file__).parent / "data" / "audit" / "real"
CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser")) if p), None)
#: The flags of a quiet, isolated headless run (no network, no profile, no sandbox in a container).
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")
#: Seconds a page may take to load before the browser is stopped (a hang, not a speed test).
LOAD_LIMIT = 120

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")

HOSTILE = ('[Event "t"]\n[Site "<img src=x onerror=alert(1)>"]\n[White "<script>document.title=\'owned\'</script>"]\n'
           '[Black "B&amp;\\"C"]\n[Result "1-0"]\n[Termination "Time forfeit"]\n[SetUp "1"]\n'
           '[FEN "8/8/8/4k3/8/8/8/4K2q w - - 0 1"]\n\n1. Kd2 Qh2+ 1-0\n')


class _Elements(HTMLParser):
    """The elements of a document, by tag, with their attributes, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def rendered(page: Path, tmp_path: Path) -> _Elements:
    """The DOM headless Chromium builds from ``page`` (its --dump-dom), parsed."""
    done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",  # type: ignore[list-item]
                           page.resolve().as_uri()], capture_output=True, text=True, timeout=LOAD_LIMIT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.lstrip().startswith("<html") or done.stdout.lstrip().startswith("<!DOCTYPE")
    elements = _Elements()
    elements.feed(done.stdout)
    return elements


def page_of(files: list[Path], tmp_path: Path) -> Path:
    page = tmp_path / "page.html"
    result = CliRunner().invoke(main, ["audit", *map(str, files), "--rules", "fide", "--html", str(page)])
    assert "Traceback" not in result.output and page.is_file()
    return page


def test_the_page_of_real_records_as_chromium_builds_it(tmp_path: Path) -> None:
    files = [REAL / "chesscom-2014.pgn", REAL / "fics-ics-crazyhouse.pgn", REAL / "lichess-api.pgn"]
    dom = rendered(page_of(files, tmp_path), tmp_path)
    text = " ".join(" ".join(dom.text).split())
    headings = [" ".join(t.split()) for t in dom.text if t.strip()]
    assert {"Findings (2)", "By server (Site)", "By rule", "By file"} <= set(headings)
    # the two findings, each with its article, ruleset and proof
    assert text.count("chesscom-2014.pgn game 1") >= 1 and text.count("chesscom-2014.pgn game 2") >= 1
    assert "fide-2014:6.9" in text and "helpmate in 22 plies" in text and "SAN:" in text
    assert "dead_position" in text and "static: every checkmate square fails" in text
    # per server, per rule: the flag falls against all time forfeits judged
    assert "chess.com" in text and "lichess.org" in text and "ICS: freechess.org 5000" in text
    assert "flag falls scored as draws where the opponent could mate: 1 of 2 time forfeits judged" in text
    assert "not chess under these Laws" in text
    # a board per position shown: 8x8 squares, the pieces of the FEN
    boards = [attrs for tag, attrs in dom.tags if tag == "table" and "board" in (attrs.get("class") or "")]
    assert len(boards) == 3
    assert not [attrs for tag, attrs in dom.tags if tag in ("script", "iframe", "object", "embed")]


def test_tags_of_a_hostile_record_stay_text_in_chromium(tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.pgn"
    hostile.write_text(HOSTILE)
    dom = rendered(page_of([hostile], tmp_path), tmp_path)
    text = " ".join(dom.text)
    assert "<script>document.title='owned'</script>" in text and "<img src=x onerror=alert(1)>" in text
    assert not [tag for tag, _ in dom.tags if tag in ("script", "img")]
    assert not [attrs for _, attrs in dom.tags if any(name.startswith("on") for name in attrs)]
    title = next(t for t in dom.text if t.startswith("Arbiter audit"))
    assert "owned" not in title
