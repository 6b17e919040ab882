"""Static HTML report on the hand-built sample: tables, diagrams, escaping.

Diagram expectations come from reading the FENs by hand (e.g. Kiwipete has a black
bishop on a6 and a white bishop on e2; the move e2a6 highlights those two squares).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from conformance.harness.reports import html, load

SAMPLE = Path(__file__).parent / "data" / "reporting" / "sample.jsonl"


class _Collector(HTMLParser):
    """Collects tags and script elements; HTMLParser tolerates nothing silently here."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def _page() -> str:
    return html.render(load(SAMPLE))


def test_page_is_self_contained_and_has_no_script() -> None:
    page = _page()
    parser = _Collector()
    parser.feed(page)
    assert "script" not in parser.tags
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)
    assert page.startswith("<!DOCTYPE html>")


def test_hostile_strings_are_escaped() -> None:
    page = _page()
    assert "<script>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;" in page


def test_summary_and_tables() -> None:
    page = _page()
    assert "6 unmet expectations" in page
    assert "<b>per fixture 33.3%: 3 of 9 fixtures judged" in page and "per result 40.0%" in page
    assert "<h2>By kind</h2>" in page and "<h2>By article</h2>" in page
    assert "<code>fide-2023:3.7.3.1</code>" in page
    assert "<h2>Failures (6)</h2>" in page
    assert page.count('<section class="failure') == 6


def test_failure_diagram_shows_pieces_and_highlights_move() -> None:
    page = _page()
    section = page[page.index("san.hostile</code> under"):]
    section = section[:section.index("</section>")]
    assert '<td class="l hl" title="a6"><span class="pb">\u265d' in section  # black bishop a6
    assert '<td class="l hl" title="e2"><span class="pw">\u265d' in section  # white bishop e2
    assert section.count(" hl\"") == 2


def test_board_html_orientation_and_colours() -> None:
    board = html.board_html("4k3/8/8/8/8/8/8/4K2R w K - 0 1", {"e1", "h1"})
    assert '<td class="l hl" title="h1"><span class="pw">\u265c' in board   # h1 is light
    assert '<td class="d" title="a1"></td>' in board                        # a1 is dark
    assert board.index('title="e8"') < board.index('title="e1"')             # rank 8 on top


def test_fen_answers_get_their_own_diagram() -> None:
    page = _page()
    section = page[page.index("apply.castle.960</code> under"):]
    section = section[:section.index("</section>")]
    assert section.count('<table class="board">') == 3  # input, expected, actual


def test_unreadable_placement_falls_back_to_text() -> None:
    assert html.parse_placement("8/8/8 w - - 0 1") is None
    assert html.parse_placement("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w") is None
    assert "(no diagram" in html.board_html("<not a fen>")
    assert "&lt;not a fen&gt;" in html.board_html("<not a fen>")


def test_failures_beyond_limit_are_listed_without_diagrams(tmp_path: Path) -> None:
    path = tmp_path / "r.html"
    html.write(load(SAMPLE), path, max_failures=1)
    page = path.read_text(encoding="utf-8")
    assert page.count('<section class="failure') == 1
    assert "5 more, without diagrams" in page


def test_small_move_difference_is_marked_on_the_diagram() -> None:
    page = _page()
    section = page[page.index("legal.ep.pinned</code> under"):]
    section = section[:section.index("</section>")]
    assert "differing moves highlighted" in section
    # the extra move c5d6 (e.p. capture exposing the king): c5 holds the white pawn
    assert '<td class="d hl" title="c5"><span class="pw">\u265f' in section
    assert '<td class="d hl" title="d6"></td>' in section


def test_failures_alike_under_several_rulesets_get_one_section() -> None:
    result = {"type": "result", "id": "perft.x", "kind": "perft", "status": "failed",
              "cites": [], "expect": {"nodes": 2}, "actual": {"nodes": 3}, "message": "m",
              "input": {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}}
    records = [{"type": "header", "adapter": {"name": "x"}}] + [
        dict(result, ruleset=r) for r in ("fide-2023", "uscf-7")]
    page = html.render(records)
    assert page.count('<section class="failure') == 1
    assert "under <code>fide-2023</code>, <code>uscf-7</code>" in page
    assert "<h2>Failures (2)</h2>" in page and "1 distinct" in page


def test_failure_sections_spread_over_kinds(tmp_path: Path) -> None:
    path = tmp_path / "r.html"
    html.write(load(SAMPLE), path, max_failures=3)
    page = path.read_text(encoding="utf-8")
    kinds = re.findall(r"<small>\((\w+)\)</small>", page)
    assert kinds == ["perft", "legal_moves", "san"]   # one per kind, in report order


def test_position_after_the_moves_is_drawn_too() -> None:
    # 1.e4 e5 played from the start: the second diagram shows both pawns advanced
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    result = {"type": "result", "id": "g", "kind": "game_end", "ruleset": "fide-2023",
              "status": "failed", "cites": [], "input": {"fen": start, "moves": ["e2e4", "e7e5"]},
              "expect": {"result": "*"}, "actual": {"result": "1-0"}, "message": "m"}
    page = html.render([{"type": "header", "adapter": {"name": "x"}}, result])
    assert "after the 2 plies of the input (last move highlighted)" in page
    after = page[page.index("after the 2 plies"):]
    assert '<td class="d hl" title="e5"><span class="pb">\u265f' in after
    assert '<td class="l" title="e4"><span class="pw">\u265f' in after
    assert html.position_after("fide-2023", start, ["e2e5"]) is None  # illegal: no diagram


def test_captions_count_plies_as_the_fixture_descriptions_do() -> None:
    # "23 random plies" from the initial array: 7 before the input position (move 4, Black
    # to move), 16 in the input; the captions say so in plies, never "moves"
    fen = "rnbqkbnr/pp2ppp1/2pp4/7p/6P1/2P1P2N/PP1P1P1P/RNBQKB1R b KQkq - 0 4"
    moves = ["e7e5", "f1e2", "d8h4", "b2b4", "b7b5", "h3g5", "h8h7", "g5h3",
             "f7f5", "e2c4", "g8h6", "h3f4", "e8d7", "f4g6", "d7d8", "g4f5"]
    result = {"type": "result", "id": "apply.random.s3-0032", "kind": "apply_moves", "ruleset": "fide-2023",
              "description": "23 random plies", "status": "failed", "cites": [],
              "input": {"fen": fen, "moves": moves}, "expect": {"fen": None}, "actual": {"fen": None},
              "message": "m"}
    page = html.render([{"type": "header", "adapter": {"name": "x"}}, result])
    assert html.plies_before(fen) == 7
    assert "position (ply 7 of the game; first move highlighted)" in page
    assert "after the 16 plies of the input (ply 23 of the game; last move highlighted)" in page
    assert " moves (" not in page
