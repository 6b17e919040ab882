"""Failure classes by cause, on a hand-built report (tests/data/reporting/causes.jsonl).

The report's 19 failures were written with known causes (the expected move lists come
from python-chess): a pawn beyond its initial rank that double-steps, in three fixtures
citing three different sets of articles (one fixture run under two rulesets); a king
stepping into check, once alone and once beside a double step; one JavaScript crash in
four kinds, raised at two places, with paths and line numbers that differ; one Python
adapter dying with the same exception on two different squares; a flag fall scored as a
win for White and for Black; the same message for a dead position and for the 75-move
rule; check not seen in a mate; SAN without its check mark, on a rook move and on a
promotion. Nine causes in all; grouped by cite they make eighteen classes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.harness.positions import read
from conformance.harness.reports import load
from conformance.harness.reports.causes import (
    colour_neutral,
    crash_signature,
    expectation_gist,
    move_category,
    san_difference,
)
from conformance.harness.reports.classes import classify, signature
from conformance.harness.reports.summary import summarize

CAUSES = Path(__file__).parent / "data" / "reporting" / "causes.jsonl"


@pytest.fixture(scope="module")
def problems() -> list[dict]:
    return summarize(load(CAUSES)).problems


def test_nine_causes_where_the_articles_make_eighteen_classes(problems: list[dict]) -> None:
    by_cause, by_cite = classify(problems), classify(problems, by="cite")
    assert (len(problems), len(by_cause), len(by_cite)) == (19, 9, 18)
    assert [(c.title, c.results, len(c.fixtures)) for c in by_cause] == [
        ("moves: unexpected pawn double step from beyond its initial rank", 4, 3),
        ("TypeError: Cannot read properties of null (reading 'type')", 4, 4),
        ("moves: unexpected king move", 2, 2),
        ("ValueError: no piece on <arg>", 2, 2),
        ("result: expected \u00bd-\u00bd, got a win", 2, 2),
        ("san: check mark missing", 2, 2),
        ("result: expected \u00bd-\u00bd, got * (where reason: dead_position)", 1, 1),
        ("result: expected \u00bd-\u00bd, got * (where reason: seventy_five_moves)", 1, 1),
        ("check: expected True, got False (where checkmate: true, stalemate: false)", 1, 1),
    ]


def test_one_cause_across_articles_keeps_every_cite_most_frequent_first(problems: list[dict]) -> None:
    double = classify(problems)[0]
    assert double.kind == "legal_moves" and not double.crash
    assert double.cites == ("fide-2023:3.10.1", "fide-2023:3.7.2", "fide-2023:3.7.1", "fide-2023:3.8.2")
    assert double.cited["fide-2023:3.10.1"] == 3  # a6 under two rulesets, and a3


def test_one_crash_is_one_class_across_kinds_paths_and_sites(problems: list[dict]) -> None:
    crash = classify(problems)[1]
    assert crash.crash and dict(crash.kinds) == {"perft": 1, "san": 1, "status": 1, "game_end": 1}
    assert crash.kind == "perft, san, status, game_end"
    assert dict(crash.sites) == {"_Board.move": 3, "notate": 1}
    died = classify(problems)[3]
    assert died.crash and dict(died.sites) == {"piece_at, board.py": 2}


def test_a_result_showing_two_differences_is_filed_under_the_rarer(problems: list[dict]) -> None:
    king = classify(problems)[2]
    assert sorted(king.fixtures) == ["legal.king.and-double", "legal.king.into-check"]


def test_by_cite_keeps_todays_view(problems: list[dict]) -> None:
    by_cite = classify(problems, by="cite")
    double = [c for c in by_cite if c.signature == "moves: unexpected <move>" and c.kind == "legal_moves"]
    assert sorted(c.cites for c in double) == [
        ("fide-2023:3.10.1",), ("fide-2023:3.10.1", "fide-2023:3.7.2"), ("fide-2023:3.10.1", "fide-2023:3.9.2"),
        ("fide-2023:3.7.1", "fide-2023:3.8.2"), ("fide-2023:3.9.2",)]
    assert not any(c.crash for c in by_cite)


@pytest.mark.parametrize(("message", "expected", "site"), [
    ("adapter reported an error: TypeError: Cannot read properties of null (reading 'type') "
     "at _Board.move (/a/node_modules/chess/cjs/main.cjs:1267:23)",
     "TypeError: Cannot read properties of null (reading 'type')", "_Board.move"),
    ("adapter reported an error: Error: Notation is invalid (Nbd7)\n    at move (file:///x/y.mjs:10:2)",
     "Error: Notation is invalid (Nbd7)", "move"),
    ('exited without answering (exit status 1); stderr: File "/opt/lib/board.py", line 40, in piece_at | '
     'raise KeyError(sq) | KeyError: \'e4\'; adapter killed and restarted', "KeyError: 'e4'", "piece_at, board.py"),
    ("exited without answering (exit status 101); stderr: thread 'main' panicked at src/board.rs:12:5: "
     "index out of bounds", "panicked at board.rs: index out of bounds", "board.rs"),
    ("no answer within 10 s (timed out)", "no answer within 10 s (timed out)", None),
    ("adapter reported an error: internal error: /home/x/a.js exploded", "internal error: a.js exploded", None),
    ("ValueError: illegal uci: 'e1g1' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "ValueError: illegal uci: 'e1g1' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", None),
])
def test_crash_signature_is_the_exception_line_without_paths(message: str, expected: str, site: str | None) -> None:
    assert crash_signature(message) == (expected, site)


@pytest.mark.parametrize(("fen", "move", "category"), [
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "castling"),
    ("1r2k3/8/8/8/8/8/8/1R2K3 w B - 0 1", "e1b1", "castling"),  # Chess960: king takes own rook
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2", "king move"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "en passant capture"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", "pawn double step"),
    ("4k3/8/p7/8/8/8/8/4K3 b - - 0 1", "a6a4", "pawn double step from beyond its initial rank"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "promotion"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e3", "pawn move"),
    ("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1f3", "piece move"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "a1a2", "move from an empty square"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1", "not a UCI move"),
])
def test_move_category(fen: str, move: str, category: str) -> None:
    assert move_category(read(fen).identity.placement, move) == category


@pytest.mark.parametrize(("want", "got", "how"), [
    ("Rh7+", "Rh7", "check mark missing"),
    ("Qxf7#", "Qxf7+", "check mark instead of checkmate mark"),
    ("e8=Q", "e8=Q+", "check mark where none is due"),
    ("Nbd2", "Nfd2", "another disambiguation"),
    ("Nbd2", "Nd2", "disambiguation missing"),
    ("Nd2", "N1d2", "disambiguation where none is needed"),
    ("O-O", "0-0", "castling spelt otherwise"),
    ("e8=Q", "e8Q", "promotion spelt otherwise"),
    ("Nd2", "Be3", None),
    ("Nd2", None, None),
])
def test_san_difference(want: str, got: str | None, how: str | None) -> None:
    assert san_difference(want, got) == how


def test_decisive_results_are_named_by_who_wins_not_by_colour() -> None:
    assert colour_neutral("result: expected '1/2-1/2', got '0-1'") == "result: expected '1/2-1/2', got a win"
    assert colour_neutral("result: expected '1-0', got '0-1'") == "result: expected a win, got the other side's win"
    assert signature(colour_neutral("result: expected '0-1', got '*'")) == "result: expected a win, got *"


def test_expectation_gist_keeps_the_scene_not_the_named_field_or_particulars() -> None:
    expect = {"result": "1/2-1/2", "reason": "dead_position", "claimable": ["fifty_moves"]}
    assert expectation_gist(expect, "result: expected '1/2-1/2', got '*'") == "reason: dead_position"
    assert expectation_gist({"move": None, "error": "ambiguous"}, "result lacks the field 'error'") == ""
    assert expectation_gist({"fen": "8/8/8/8/8/8/8/8 w - - 0 1", "nodes": 3}) == ""
    assert expectation_gist({"check": True, "checkmate": False}, "check: x") == "checkmate: false"


def test_terminal_lists_every_cite_of_a_class_by_cite_and_the_first_three_by_cause(problems: list[dict]) -> None:
    from conformance.harness.reports.terminal import cites_text

    double = classify(problems)[0]
    assert cites_text(double) == "fide-2023:3.10.1, fide-2023:3.7.2, fide-2023:3.7.1, +1 more"
    many = next(c for c in classify(problems, by="cite") if len(c.cites) == 2)
    assert cites_text(many, limit=1) == ", ".join(many.cites)  # the cites are its key: all shown
