"""Named regressions for the pathological inputs of docs/reliability.md, in process.

Linearity is asserted by counting work (characters scanned, regex calls), never by
timing; streaming by counting the lines consumed before the first game comes out.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from reference_impl.adjudication.record import adjudicate_games
from reference_impl.adjudication.timecontrol import parse as parse_time_control
from reference_impl.errors import FenError, GameEventError, quote
from reference_impl.notation import pgn
from reference_impl.rules.yamlio import YamlError, parse_yaml
from reference_impl.text import JsonError, NumberError, loads_json, parse_int

ROOT = Path(__file__).resolve().parent.parent
GAME = '[Event "g{n}"]\n[Result "*"]\n\n1. e4 e5 *\n\n'


# --- YAML --------------------------------------------------------------------------------


def test_alias_bomb_of_two_to_the_fortieth_values_is_refused_at_its_line() -> None:
    lines = ["a0: &a0 [x, x]"] + [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]" for i in range(1, 41)]
    with pytest.raises(YamlError) as caught:
        parse_yaml("\n".join(lines) + "\n", "bomb.yaml")
    # a{i} stands for 2**(i+2) - 1 values: a15 (line 16) is the first above 100,000.
    assert caught.value.line == 16 and "more than 100,000 values" in str(caught.value)


def test_aliases_within_the_limit_still_load() -> None:
    data, _ = parse_yaml("base: &b {x: 1}\nuse: [*b, *b]\nmerged:\n  <<: *b\n  y: 2\n", "ok.yaml")
    assert data["use"] == [{"x": 1}, {"x": 1}] and data["merged"] == {"x": 1, "y": 2}


@pytest.mark.parametrize("text, line, words", [
    ("a: &x {b: *x}\n", 1, "a YAML alias refers to a node that contains it"),
    ("a: 1\ntrue: 2\n", 2, "key 'true' is not a string"),
    ("a:\n  ? [1]\n  : 2\n", 2, "key a collection is not a string"),
    ("a:\n  " + "- " * 70 + "x\n", 2, "nested deeper than 64 levels"),
    ("a: " + "9" * 5000 + "\n", 1, "is too long (at most 18 digits)"),
])
def test_hostile_yaml_is_one_located_error(text: str, line: int, words: str) -> None:
    with pytest.raises(YamlError) as caught:
        parse_yaml(text, "f.yaml")
    assert caught.value.line == line and words in str(caught.value)
    assert str(caught.value).startswith(f"f.yaml:{line}: ")


# --- numbers -----------------------------------------------------------------------------


def test_parse_int_checks_length_before_converting() -> None:
    assert parse_int("0", "x") == 0 and parse_int("9" * 18, "x") == 10**18 - 1
    for bad in ("9" * 19, "9" * 5000, "-1", "1e3", "", "１２", "²"):
        with pytest.raises(NumberError):
            parse_int(bad, "x")


def test_huge_numbers_in_fen_and_time_control_are_clear_errors() -> None:
    from reference_impl import Board, load_ruleset

    with pytest.raises(FenError, match="halfmove clock has 5,000 digits"):
        Board.from_fen("8/8/8/4k3/8/8/8/4K3 w - - " + "9" * 5000 + " 1", load_ruleset("fide-2023"))
    with pytest.raises(GameEventError, match="move count has 30 digits"):
        parse_time_control("9" * 30 + "/300:60")


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000 + "]" * 100_000, "nested deeper than 64 levels"),
    ('{"a": ' + "9" * 5000 + "}", "a number has 5,000 digits"),
    ('{"a": "\\ud800"}', "lone surrogate"),
    ('{"a": NaN}', "NaN is not a JSON number"),
    ('{"a": 1', "not JSON"),
])
def test_bounded_json(text: str, words: str) -> None:
    with pytest.raises(JsonError, match=words):
        loads_json(text)
    assert loads_json('{"a": ["[[[", 123456789012345678, "\\ud83d\\ude00"]}') == {
        "a": ["[[[", 123456789012345678, "\U0001f600"]}


# --- PGN tokenizer: linear work ------------------------------------------------------------


class CountingText(str):
    """A string that counts the characters its ``find`` calls scan."""

    scanned = 0

    def find(self, sub: str, start: int = 0, end: int | None = None) -> int:  # type: ignore[override]
        found = super().find(sub, start, len(self) if end is None else end)
        CountingText.scanned += (found if found >= 0 else len(self)) - start
        return found


class CountingRegex:
    """Wraps the token regex: counts calls and checks it never starts at a '{'."""

    def __init__(self, regex: object) -> None:
        self.regex, self.calls = regex, 0

    def match(self, text: str, pos: int) -> object:
        assert text[pos] != "{"  # braces are the reader's job (a regex scan per '{' was quadratic)
        self.calls += 1
        return self.regex.match(text, pos)  # type: ignore[attr-defined]


def _work(monkeypatch: pytest.MonkeyPatch, text: str) -> int:
    counter = CountingRegex(pgn._TOKEN_RE)
    monkeypatch.setattr(pgn, "_TOKEN_RE", counter)
    CountingText.scanned = 0
    games = pgn._Reader(CountingText(text)).run()
    assert len(games) == 1 and games[0].errors[0].reason == "comment '{' is never closed"
    return CountingText.scanned + counter.calls


@pytest.mark.parametrize("shape", ["1. e4 {", "1. e4 {a} {", "{ x\n"])
def test_unclosed_braces_take_linear_work(monkeypatch: pytest.MonkeyPatch, shape: str) -> None:
    small = _work(monkeypatch, '[Result "*"]\n' + shape * 2000 + "\n")
    large = _work(monkeypatch, '[Result "*"]\n' + shape * 4000 + "\n")
    assert large <= 2.2 * small, (small, large)


def test_errors_per_game_are_bounded() -> None:
    (game,) = pgn.read_games('[Result "*"]\n\n1. e4 ' + "{" * 10_000 + " *\n")
    assert len(game.errors) == pgn.MAX_ERRORS + 1
    assert game.errors[-1].reason == f"{10_000 - pgn.MAX_ERRORS} more problem(s) not listed"


# --- PGN streaming and isolation -------------------------------------------------------------


def test_games_come_out_before_the_stream_ends() -> None:
    consumed = 0

    def endless() -> Iterator[str]:
        nonlocal consumed
        for n in range(10**9):
            for line in GAME.format(n=n).splitlines(keepends=True):
                consumed += 1
                yield line

    stream = pgn.iter_games(endless())
    first, second = next(stream), next(stream)
    assert (first.tags["Event"], second.tags["Event"]) == ("g0", "g1")
    assert consumed <= 3 * 5 + 1  # the lines of the games read so far and one more


def test_stream_split_matches_reading_the_whole_text() -> None:
    text = (pgn_text := Path(ROOT / "tests" / "data" / "notation" / "mixed.pgn").read_text(encoding="utf-8"))
    whole = [(g.index, g.line, g.tags, g.san(), [str(e) for e in g.errors]) for g in pgn._Reader(text).run()]
    split = [(g.index, g.line, g.tags, g.san(), [str(e) for e in g.errors]) for g in pgn.read_games(pgn_text)]
    assert split == whole


def test_a_comment_with_a_bracketed_line_stays_in_its_game() -> None:
    (game,) = pgn.read_games('[Result "*"]\n\n1. e4 {a remark\n[in brackets]} e5 *\n')
    assert game.san() == ["e4", "e5"] and not game.errors


def test_an_unclosed_comment_does_not_swallow_the_next_game() -> None:
    first, second = pgn.read_games('[Result "*"]\n\n1. e4 {oops e5 *\n\n[Result "*"]\n\n1. d4 {fine} *\n')
    assert first.errors and not second.errors and second.san() == ["d4"]


def test_adjudication_is_lazy_and_isolates_a_broken_game() -> None:
    text = (GAME.format(n=0) + '[Event "bad"]\n[Result "*"]\n[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 '
            + "9" * 5000 + '"]\n\n1. e4 *\n\n' + GAME.format(n=2))
    reports = list(adjudicate_games(pgn.read_games(text)))
    assert [r.error is None for r in reports] == [True, False, True]
    assert len(reports[1].error or "") < 400


def test_decode_lines_mixes_utf8_and_latin1_per_line() -> None:
    lines = list(pgn.decode_lines([b"\xef\xbb\xbf[White \"\xc3\xa9\"]\n", b"[Black \"\xe9\"]\n"]))
    assert lines == ['[White "é"]\n', '[Black "é"]\n']


# --- messages ----------------------------------------------------------------------------------


def test_quote_bounds_the_escaped_form_and_hides_no_control_character() -> None:
    for text in ("\x00" * 100_000, "\x1b[2J" * 1000, "a" * 10**6, "\ud800" * 50):
        shown = quote(text)
        assert len(shown) < 100 and shown.isprintable() and "characters)" in shown
    assert quote("e4") == "'e4'"


def test_adjudicate_streams_its_output_from_a_pipe() -> None:
    """The first verdict is printed while the input is still open (explicit pipe handshake)."""
    process = subprocess.Popen([sys.executable, "-m", "conformance.cli", "adjudicate", "/dev/stdin", "--json"],
                               cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(GAME.format(n=0) + '[Event "g1"]\n')
        process.stdin.flush()
        first = json.loads(process.stdout.readline())  # blocks until game 1 is judged
        assert first["game"] == 1 and first["error"] is None
        process.stdin.write('[Result "*"]\n\n1. d4 *\n')
        process.stdin.close()
        rest = process.stdout.read()
        assert json.loads(rest)["game"] == 2 and process.wait(timeout=300) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
