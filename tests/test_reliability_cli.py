"""Bad input through the real command line: exit status, one clear error line, no traceback.

Each class of hostile input from docs/reliability.md is driven through every command it
reaches, as a subprocess (the way a user meets it). The timeout only guards against a
hang taking the whole suite down; no assertion depends on time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import arbiter, one_error

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
HUGE = "9" * 5000  # beyond Python's 4,300-digit int/str conversion limit


@pytest.fixture(scope="module")
def bad_yaml(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Ruleset files that attack the YAML loader (each extends fide-2023)."""
    folder = tmp_path_factory.mktemp("yaml")
    head = "id: hostile\ntitle: hostile\nextends: fide-2023\n"
    bomb = [head, "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"]
    bomb += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10)]
    texts = {
        "bomb": "".join(bomb) + "note: *a9\n",
        "selfref": head + "note: &loop [*loop]\n",
        "truekey": head + "true: 1\n",
        "deep": head + "note: " + "[" * 50_000 + "]" * 50_000 + "\n",
        "bigint": head + f"note: {HUGE}\n",
    }
    files = {}
    for name, text in texts.items():
        files[name] = folder / f"{name}.yaml"
        files[name].write_text(text, encoding="utf-8")
    return files


YAML_REASONS = {
    "bomb": ":9: YAML expands to more than 100,000 values",
    "selfref": ":4: a YAML alias refers to a node that contains it",
    "truekey": ":4: key 'true' is not a string",
    "deep": ":4: YAML nested deeper than 64 levels",
    "bigint": ":4: integer '9999",
}


def test_yaml_limits_through_rules_validate(bad_yaml: dict[str, Path]) -> None:
    result = arbiter("rules", "validate", *map(str, bad_yaml.values()))
    assert "Traceback" not in result.stderr and result.returncode == 1
    for name, path in bad_yaml.items():
        line = next(x for x in result.stdout.splitlines() + result.stderr.splitlines() if x.startswith(str(path)))
        assert line.startswith(f"{path}{YAML_REASONS[name]}"), line


@pytest.mark.parametrize("command", [
    ["perft", "startpos", "1", "--rules"],
    ["fen", "check", START, "--rules"],
    ["adjudicate", "GAME", "--rules"],
    ["convert", "--to", "uci", "e4", "--rules"],
])
@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_alias_bomb_through_every_command_that_loads_rules(command: list[str], bad_yaml: dict[str, Path],
                                                           tmp_path: Path) -> None:
    game = tmp_path / "game.pgn"
    game.write_text('[Result "*"]\n\n1. e4 *\n')
    args = [str(game) if a == "GAME" else a for a in command]
    line = one_error(arbiter(*args, str(bad_yaml["bomb"])))
    assert line.startswith(f"arbiter: {bad_yaml['bomb']}{YAML_REASONS['bomb']}")


def test_deep_xfail_file_is_one_error(tmp_path: Path) -> None:
    xfail = tmp_path / "known.yaml"
    xfail.write_text("x: " + "[" * 50_000 + "]" * 50_000 + "\n")
    fixtures = tmp_path / "one.jsonl"
    fixtures.write_text(json.dumps({"id": "a.b", "kind": "perft", "rulesets": ["fide-2023"],
                                    "input": {"fen": START, "depth": 1}, "expect": {"nodes": 20}}) + "\n")
    line = one_error(arbiter("run", "--fixtures", str(fixtures), "--xfail", str(xfail), "-o", str(tmp_path / "r.jsonl")))
    assert f"{xfail}:1: not valid YAML: YAML nested deeper than 64 levels" in line


def test_huge_numbers_in_a_fen(tmp_path: Path) -> None:
    fen = START[:-1] + HUGE
    result = arbiter("fen", "check", fen)
    assert "Traceback" not in result.stderr and result.returncode == 1
    assert "fullmove number has 5,000 digits (at most 18)" in result.stdout + result.stderr
    line = one_error(arbiter("perft", fen, "1"))
    assert line.endswith("fullmove number has 5,000 digits (at most 18)") and len(line) < 250
    line = one_error(arbiter("perft", "startpos", HUGE), code=2)
    assert line.endswith("(5,000 characters) is out of range 0..12")


def test_huge_numbers_in_pgn_files(tmp_path: Path) -> None:
    games = [
        f'[White "clk"]\n[Result "*"]\n\n1. e4 {{[%clk {HUGE}:00:00]}} e5 *\n',
        f'[White "tc"]\n[Result "1-0"]\n[TimeControl "{HUGE}"]\n\n1. e4 1-0\n',
        f'[White "fen"]\n[Result "*"]\n[SetUp "1"]\n[FEN "{START[:-1] + HUGE}"]\n\n1. e4 *\n',
        f'[White "nag"]\n[Result "*"]\n\n1. e4 ${HUGE} *\n',
        '[White "good"]\n[Result "*"]\n\n1. d4 d5 *\n',
    ]
    pgn = tmp_path / "huge.pgn"
    pgn.write_text("\n".join(games))
    result = arbiter("adjudicate", str(pgn), "--json")
    assert "Traceback" not in result.stderr and result.returncode == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["white"] for r in rows] == ["clk", "tc", "fen", "nag", "good"]
    # Clock comments are evidence, not events (FIDE 6.8): the judge does not read them.
    assert [r["error"] is None for r in rows] == [True, True, False, False, True]
    assert "TimeControl" in rows[1]["ruleset_reason"] and "not understood" in rows[1]["ruleset_reason"]
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 2 and all(len(e) < 400 for e in errors)
    assert "fullmove number has 5,000 digits" in errors[0]
    converted = arbiter("convert", str(pgn), "--to", "uci")
    assert "Traceback" not in converted.stderr and converted.returncode == 1
    # The FEN game cannot be replayed; the NAG is reported and the game still converted.
    assert [line.split(":")[0] for line in converted.stdout.splitlines() if line.startswith("# game")] == [
        "# game 1", "# game 2", "# game 4", "# game 5"]


def test_huge_number_in_a_fixture_line(tmp_path: Path) -> None:
    fixtures = tmp_path / "big.jsonl"
    fixtures.write_text('{"id": "a.b", "kind": "perft", "rulesets": ["fide-2023"], '
                        f'"input": {{"fen": "startpos", "depth": {HUGE}}}, "expect": {{"nodes": 1}}}}\n')
    line = one_error(arbiter("run", "--fixtures", str(fixtures), "-o", str(tmp_path / "r.jsonl")))
    assert line == f"arbiter: bad fixture: {fixtures}:1: a number has 5,000 digits (at most 18)"


def test_two_good_games_and_a_broken_one(tmp_path: Path) -> None:
    pgn = tmp_path / "three.pgn"
    pgn.write_text('[White "A"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n'
                   '[White "broken"]\n[Result "*"]\n\n1. e4 {never closed e5 *\n\n'
                   '[White "C"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    result = arbiter("adjudicate", str(pgn), "--json")
    assert "Traceback" not in result.stderr and result.returncode == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["game"], r["white"], r["result"]) for r in rows] == [(1, "A", "1-0"), (2, "broken", None), (3, "C", "0-1")]
    assert "comment '{' is never closed" in rows[1]["error"]
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"arbiter: {pgn}: game 2 (broken - ?)") and "comment '{' is never closed" in line
    table = arbiter("adjudicate", str(pgn))
    assert table.returncode == 1 and "3 game(s): 2 adjudicated" in table.stdout


def test_adjudicate_reads_the_variant_tag(tmp_path: Path) -> None:
    pgn = tmp_path / "960.pgn"
    pgn.write_text('[White "Iota"]\n[Result "*"]\n[Variant "Chess960"]\n[SetUp "1"]\n'
                   '[FEN "nnqrbkrb/pppppppp/8/8/8/8/PPPPPPPP/NNQRBKRB w GDgd - 0 1"]\n\n'
                   "1. c3 Nc6 2. f3 h5 3. O-O *\n")
    result = arbiter("adjudicate", str(pgn), "--json")
    assert result.returncode == 0, result.stderr
    (row,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["error"] is None and row["result"] == "*"


def test_control_characters_and_long_text_are_escaped_and_bounded(tmp_path: Path) -> None:
    hostile = "\x01" * 50_000 + "\x1b[2J"  # (an argument cannot hold NUL)
    line = one_error(arbiter("perft", f"{hostile} w - - 0 1", "1"))
    assert "\\x01" in line and "\x01" not in line and "\x1b" not in line
    pgn = tmp_path / "ctrl.pgn"
    pgn.write_text(f'[White "{chr(27)}[2J{"x" * 10_000}"]\n[Result "*"]\n\n1. e4 {"Q" * 100_000} *\n')
    result = arbiter("adjudicate", str(pgn))
    assert "Traceback" not in result.stderr and result.returncode == 1
    assert "\x1b" not in result.stdout + result.stderr
    assert max(map(len, result.stderr.splitlines())) < 400


def test_null_move_and_dropped_variations_are_reported(tmp_path: Path) -> None:
    pgn = tmp_path / "null.pgn"
    pgn.write_text('[Result "*"]\n\n1. e4 0000 2. d4 *\n\n[Result "*"]\n\n1. e4 (1. d4 d5) e5 *\n')
    result = arbiter("convert", str(pgn), "--to", "pgn")
    assert "Traceback" not in result.stderr and result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert errors[0] == "arbiter: PGN game 1, line 3, move after 1. e4: '0000' is a null move (UCI notation), not a PGN move"
    assert "arbiter: warning: game 2: 1 variation(s) dropped (convert writes the main line only)" in errors
    assert "1. e4 e5 *" in result.stdout


def test_unclosed_braces_in_a_large_file_through_convert() -> None:
    text = '[Result "*"]\n\n1. e4 ' + "{" * 300_000 + " *\n"
    result = arbiter("convert", "-", "--to", "uci", stdin=text)
    assert "Traceback" not in result.stderr and result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert errors[0].endswith("comment '{' is never closed")
    assert any("more problem(s) not listed" in e for e in errors) and len(errors) <= 25
