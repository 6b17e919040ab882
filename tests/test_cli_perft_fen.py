"""``arbiter perft`` and ``arbiter fen check`` through the real command line."""

from __future__ import annotations


import pytest
from cli_run import arbiter


def test_perft_startpos_depth_3() -> None:
    result = arbiter("perft", "startpos", "3")
    assert result.returncode == 0, result.stderr
    assert "Nodes searched: 8902" in result.stdout


def test_perft_divide_sums_to_total_and_uses_ruleset_castling_form() -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    standard = arbiter("perft", fen, "1", "--divide")
    assert "e1g1: 1" in standard.stdout and "Nodes searched: 26" in standard.stdout
    chess960 = arbiter("perft", fen, "1", "--divide", "--rules", "chess960")
    assert "e1h1: 1" in chess960.stdout and "e1g1" not in chess960.stdout


def test_perft_unquoted_fen_words() -> None:
    result = arbiter("perft", *"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".split(), "2")
    assert "Nodes searched: 191" in result.stdout


@pytest.mark.parametrize(
    "args, status, message",
    [
        (("perft", "startpos", "-1"), 2, "out of range"),
        (("perft", "startpos", "99"), 2, "out of range"),
        (("perft", "startpos", "two"), 2, "not an integer"),
        (("perft", "8/8/8 w - - 0 1", "2"), 1, "invalid FEN"),
        (("perft", "startpos", "2", "--rules", "no-such-rules"), 1, "no-such-rules"),
    ],
)
@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_perft_bad_input_one_line_no_traceback(args, status: int, message: str) -> None:
    result = arbiter(*args)
    assert result.returncode == status
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_fen_check_valid_and_invalid() -> None:
    ok = arbiter("fen", "check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
    assert ok.returncode == 0
    assert "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" in ok.stdout
    bad = arbiter("fen", "check", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1")
    assert bad.returncode == 1
    assert "side not to move is in check" in bad.stdout
