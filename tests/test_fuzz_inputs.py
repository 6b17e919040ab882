"""Property-based fuzzing of user input: FEN, PGN, rulesets (YAML), fixture lines, time controls.

The property is the same everywhere: hostile text is refused with the documented error
class and a bounded one-line message, or accepted; nothing else escapes. Examples are
derandomised (the same inputs on every run) and kept small so the suite stays in budget.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference_impl import Board, load_ruleset
from reference_impl.adjudication.record import adjudicate_game
from reference_impl.adjudication.timecontrol import parse as parse_time_control
from reference_impl.errors import ArbiterError, FenError, GameEventError, RulesetError
from reference_impl.notation.errors import PgnError
from reference_impl.notation.pgn import read_games
from reference_impl.rules import clear_cache
from reference_impl.rules.yamlio import YamlError, parse_yaml
from reference_impl.text import JsonError, loads_json
from conformance.harness.fixtures import parse_line

import pytest

pytestmark = pytest.mark.slow  # left out of `tox -e fast`

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
RULES = load_ruleset("fide-2023")

huge_number = st.integers(min_value=1, max_value=6000).map(lambda n: "9" * n)
nasty_text = st.one_of(st.text(max_size=40), huge_number, st.sampled_from(["\x00", "\x1b[2J", "\ud800", "}", "{", "\n"]))


def one_line(error: BaseException) -> None:
    message = str(error)
    assert "\n" not in message and len(message) < 600, message[:700]


# --- FEN ------------------------------------------------------------------------------


@st.composite
def mutated_fens(draw: st.DrawFn) -> str:
    fields = START.split()
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(fields) - 1))
        fields[index] = draw(st.one_of(nasty_text, st.text(alphabet="pnbrqkPNBRQK12345678/-wbKQkqa-h0 ", max_size=30)))
    if draw(st.booleans()):
        fields = fields[: draw(st.integers(0, 6))]
    return " ".join(fields)


@FUZZ
@given(mutated_fens())
def test_fen_is_read_or_refused_with_one_line(fen: str) -> None:
    try:
        Board.from_fen(fen, RULES)
    except FenError as error:
        one_line(error)


# --- PGN ------------------------------------------------------------------------------

pgn_token = st.one_of(
    st.sampled_from(["1.", "2...", "e4", "e5", "Nf3", "Nc6", "O-O", "0000", "--", "(", ")", "{", "}", "{ok}",
                     ";x\n", "$1", "!?", "1-0", "0-1", "1/2-1/2", "*", "½-½", "\n\n", "[", "]",
                     '[Event "e"]\n', '[Result "1-0"]\n', '[SetUp "1"]\n', f'[FEN "{START}"]\n',
                     '[TimeControl "40/5400:300+5"]\n', "{[%clk 0:01:00]}", '[Variant "Chess960"]\n', "%esc\n"]),
    huge_number.map(lambda n: f"${n}"),
    huge_number.map(lambda n: f"{{[%clk {n}:00:00]}}"),
    huge_number.map(lambda n: f'[TimeControl "{n}"]\n'),
    huge_number.map(lambda n: f'[FEN "{START[:-1]}{n}"]\n'),
    nasty_text,
)


@FUZZ
@given(st.lists(pgn_token, max_size=40).map(" ".join))
def test_pgn_reading_and_adjudication_never_escape(text: str) -> None:
    games = list(read_games(text))
    assert [g.index for g in games] == list(range(1, len(games) + 1))
    for game in games:
        for error in game.errors:
            assert isinstance(error, PgnError)
            one_line(error)
        report = adjudicate_game(game, RULES)
        if report.error is not None:
            assert "\n" not in report.error and len(report.error) < 600


# --- rulesets (YAML) --------------------------------------------------------------------

yaml_scalar = st.one_of(st.sampled_from(["x", "1", "true", "null", "~", "'q'", "1.5", "2023-01-01"]), huge_number)
yaml_key = st.sampled_from(["note", "title", "pieces", "termination", "true", "1", "null", "<<", "? [a]"])


@st.composite
def yaml_documents(draw: st.DrawFn) -> str:
    lines = ["id: fuzzed", "title: fuzzed", "extends: fide-2023"]
    anchors: list[str] = []
    for index in range(draw(st.integers(0, 8))):
        key = draw(yaml_key) if draw(st.booleans()) else f"k{index}"
        kind = draw(st.sampled_from(["scalar", "flow", "alias", "anchor", "deep", "self"]))
        if kind == "scalar":
            value = draw(yaml_scalar)
        elif kind == "flow":
            value = "[" + ", ".join(draw(st.lists(yaml_scalar, max_size=4))) + "]"
        elif kind == "alias" and anchors:
            value = "[" + ", ".join(f"*{draw(st.sampled_from(anchors))}" for _ in range(draw(st.integers(1, 9)))) + "]"
        elif kind == "deep":
            depth = draw(st.integers(1, 200))
            value = "[" * depth + "]" * depth
        elif kind == "self":
            value = f"&s{index} [*s{index}]"
        else:
            name = f"a{index}"
            members = [f"*{a}" for a in anchors] * draw(st.integers(1, 4)) or ["x"]
            value = f"&{name} [{', '.join(members)}]"
            anchors.append(name)
        lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"


@FUZZ
@given(yaml_documents())
def test_ruleset_yaml_is_parsed_within_limits_or_refused_at_a_line(text: str) -> None:
    try:
        parse_yaml(text, "fuzzed.yaml")
    except YamlError as error:
        one_line(error)
        assert str(error).startswith(f"fuzzed.yaml:{error.line}: ") and error.line >= 1


@settings(FUZZ, max_examples=15)
@given(yaml_documents())
def test_ruleset_files_load_or_fail_with_a_ruleset_error(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            load_ruleset(path)
        except RulesetError as error:
            one_line(error)
        finally:
            clear_cache()


# --- fixture lines and time controls -----------------------------------------------------

json_fragment = st.one_of(st.sampled_from(['{"id": "a.b", "kind": "perft", "rulesets": ["fide-2023"], "input": {}, "expect": {}}',
                                           "[", "]", "{", "}", '"\\ud800"', "NaN", ",", ":", '"k"']),
                          huge_number, st.integers(1, 300).map(lambda n: "[" * n))


@FUZZ
@given(st.lists(json_fragment, max_size=12).map("".join))
def test_fixture_lines_are_parsed_or_refused_with_a_reason(raw: str) -> None:
    fixture, problem = parse_line(raw)
    assert (problem is None) == bool(fixture)
    if problem is not None:
        assert "\n" not in problem and len(problem) < 600
    try:
        loads_json(raw)
    except JsonError as error:
        one_line(error)


@FUZZ
@given(st.lists(st.one_of(huge_number, st.sampled_from(["40/", "+", "d", "b", "*", ":", ".", "5", "0", "?", "-"])),
                max_size=10).map("".join))
def test_time_controls_are_parsed_or_refused(text: str) -> None:
    try:
        parse_time_control(text)
    except GameEventError as error:
        one_line(error)


def test_every_fuzzed_error_class_is_a_user_error() -> None:
    for cls in (FenError, PgnError, YamlError, JsonError, GameEventError, RulesetError):
        assert issubclass(cls, ArbiterError) and cls.exit_code == 1
