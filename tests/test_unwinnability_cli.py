"""``arbiter unwinnable FEN``: verdicts with their evidence, limits, bad input, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import multiprocessing
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import chess
import pytest
from cli_run import arbiter as run_arbiter
from click.testing import CliRunner

from conformance.cli import main
from conformance.cli.commands import unwinnable
from reference_impl.rules import load_ruleset
from reference_impl.unwinnability import analyse

#: K+2B v K: White can mate (a helpmate exists), Black has a bare king.
WINNABLE = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"
#: K+B v K+B, both bishops on dark squares: neither side can ever mate (FIDE 5.2.2).
DEAD = "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
CHECKMATE = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
#: Unwinnable for both sides, built so that no static proof settles it: CHA needs about
#: 10^8 nodes of exhaustive search per side (miguel-ambrona/D3-Chess issue 48). With a
#: node limit of 10^12 the analysis runs far longer than any test waits.
HARD = "3k1b2/2p1pBp1/KpP1P1P1/1P3B2/4B1B1/5B2/8/8 w - - 3 57"
HUGE_LIMIT = str(10**12)

SIDE_FIELDS = {"verdict", "stage", "line_uci", "line_san", "proof", "nodes", "cpu_seconds", "wall_seconds", "limit"}
TOP_FIELDS = {"fen", "rules", "node_limit", "time_limit", "terminal", "dead", "cite", "sides"}


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, ["unwinnable", *args])


def answer(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == TOP_FIELDS
    for side in data["sides"].values():
        assert set(side) == SIDE_FIELDS
    return data


def arbiter(*args: str) -> subprocess.CompletedProcess[str]:
    return run_arbiter("unwinnable", *args)


def test_winnable_helpmate_replays_to_checkmate_by_white_with_matching_san() -> None:
    data = answer(WINNABLE)
    white, black = data["sides"]["white"], data["sides"]["black"]
    assert white["verdict"] == "can" and white["proof"] is None and white["limit"] is None
    board = chess.Board(WINNABLE)
    for uci, san in zip(white["line_uci"], white["line_san"], strict=True):
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves
        assert board.san(move) == san
        board.push(move)
    assert board.is_checkmate() and board.turn == chess.BLACK  # White gave the mate
    assert black["verdict"] == "cannot" and black["proof"] and black["line_uci"] == []
    assert data["dead"] is False and data["terminal"] is None and data["cite"] == "fide-2023:5.2.2"
    assert white["nodes"] > 0 and white["cpu_seconds"] >= 0 and white["wall_seconds"] >= 0


def test_winnable_text_shows_uci_and_numbered_san() -> None:
    result = invoke("--side", "white", WINNABLE)
    assert result.exit_code == 0, result.output
    data = answer("--side", "white", WINNABLE)
    line = data["sides"]["white"]
    assert f"uci   {' '.join(line['line_uci'])}" in result.stdout
    assert f"san   1. {line['line_san'][0]} {line['line_san'][1]} 2. " in result.stdout
    assert line["line_san"][-1].endswith("#")


def test_dead_position_both_sides_cannot_with_proofs() -> None:
    data = answer(DEAD)
    assert {side: v["verdict"] for side, v in data["sides"].items()} == {"white": "cannot", "black": "cannot"}
    assert all(v["proof"] for v in data["sides"].values())
    assert data["dead"] is True
    text = invoke(DEAD).stdout
    assert "dead      yes: neither side can checkmate (fide-2023:5.2.2)" in text
    assert text.count("proof ") == 2


def test_side_analyses_that_side_only() -> None:
    black = answer("--side", "black", WINNABLE)
    assert list(black["sides"]) == ["black"]
    assert black["sides"]["black"]["verdict"] == "cannot"
    assert black["dead"] is None  # one side cannot: says nothing about the position
    white = answer("--side", "white", WINNABLE)
    assert list(white["sides"]) == ["white"] and white["dead"] is False
    assert "black" not in invoke("--side", "white", WINNABLE).stdout


def test_stalemate_and_checkmate_are_answered_by_the_laws() -> None:
    stale = answer(STALEMATE)
    assert stale["terminal"] == "stalemate" and stale["dead"] is None and stale["cite"] == "fide-2023:5.2.1"
    assert {v["stage"] for v in stale["sides"].values()} == {"terminal"}
    assert {v["verdict"] for v in stale["sides"].values()} == {"cannot"}
    assert all(v["nodes"] == 0 for v in stale["sides"].values())
    assert "game over stalemate (fide-2023:5.2.1): answered by the Laws" in invoke(STALEMATE).stdout
    mate = answer(CHECKMATE)
    assert mate["terminal"] == "checkmate" and mate["cite"] == "fide-2023:5.1.1"
    assert mate["sides"]["white"]["verdict"] == "can" and mate["sides"]["white"]["line_uci"] == []
    assert mate["sides"]["black"]["verdict"] == "cannot"
    assert "already checkmate" in invoke(CHECKMATE).stdout


def test_default_node_limit_is_the_limits_tables_and_the_option_overrides_it(tmp_path: Path) -> None:
    from reference_impl.rules.limits import limits_of

    assert answer(DEAD)["node_limit"] == limits_of(load_ruleset("fide-2023")).dead_position.node_limit
    tight = tmp_path / "tight.yaml"
    tight.write_text("id: tight\ntitle: T\nextends: fide-2023\n"
                     "limits:\n  dead_position:\n    node_limit: 777\n", encoding="utf-8")
    data = answer("--rules", str(tight), DEAD)
    assert data["rules"] == "tight" and data["node_limit"] == 777
    assert answer("--node-limit", "5", DEAD)["node_limit"] == 5


def test_node_limit_reached_is_undetermined_and_exit_0() -> None:
    data = answer("--side", "white", "--node-limit", "1000", HARD)
    white = data["sides"]["white"]
    assert white["verdict"] == "undetermined" and white["limit"] == "nodes"
    assert white["nodes"] > 0
    assert "node limit 1,000 reached" in invoke("--side", "white", "--node-limit", "1000", HARD).stdout


def test_time_limit_stops_the_analysis_and_exit_0() -> None:
    data = answer("--node-limit", HUGE_LIMIT, "--time-limit", "0.3", HARD)
    assert data["time_limit"] == 0.3 and data["dead"] is None
    for side in data["sides"].values():
        assert side["verdict"] == "undetermined" and side["limit"] == "time"
        assert side["nodes"] is None and side["cpu_seconds"] is None
    result = invoke("--side", "black", "--node-limit", HUGE_LIMIT, "--time-limit", "0.3", HARD)
    assert result.exit_code == 0
    assert "black     undetermined (time limit 0.3 s)" in result.stdout


def test_time_limit_not_reached_keeps_the_verdict() -> None:
    data = answer("--time-limit", "600", WINNABLE)
    assert data["sides"]["white"]["verdict"] == "can" and data["sides"]["white"]["limit"] is None


needs_fork = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="the worker sees the test's stand-in analysis only when forked")


def white_then_black_never_ends(monkeypatch: pytest.MonkeyPatch, interrupt: bool) -> None:
    """In the worker: White's real analysis, then a Black analysis that never returns
    (after sending Ctrl-C to the command's own process when ``interrupt``)."""
    def stand_in(board: Any, color: int, node_limit: int) -> Any:
        if color == 0:
            return analyse(board, color, node_limit)
        if interrupt:
            os.kill(os.getppid(), signal.SIGINT)
        threading.Event().wait()

    monkeypatch.setattr(unwinnable, "analyse", stand_in)


@needs_fork
def test_time_limit_keeps_the_sides_already_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    white_then_black_never_ends(monkeypatch, interrupt=False)
    data = answer("--time-limit", "0.5", WINNABLE)
    assert data["sides"]["white"]["verdict"] == "can" and data["sides"]["white"]["line_uci"]
    assert data["sides"]["black"]["verdict"] == "undetermined" and data["sides"]["black"]["limit"] == "time"
    assert data["dead"] is False  # White can mate: known without Black's answer


@needs_fork
def test_ctrl_c_keeps_the_sides_already_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    white_then_black_never_ends(monkeypatch, interrupt=True)
    result = invoke(WINNABLE)
    assert result.exit_code == 130
    assert "white     can (helpmate in" in result.stdout and "san   1. " in result.stdout
    assert "black     undetermined (interrupted)" in result.stdout
    assert "dead      no: white can checkmate" in result.stdout
    assert result.stderr.strip().splitlines() == ["arbiter: interrupted"]


@pytest.mark.parametrize(
    "args, status, message",
    [
        (("8/8/8 w - - 0 1",), 1, "arbiter: invalid FEN '8/8/8 w - - 0 1': "),
        (("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",), 1, "side not to move is in check"),
        ((WINNABLE, "--rules", "no-such-rules"), 1, "arbiter: unknown ruleset 'no-such-rules'"),
        ((WINNABLE, "--node-limit", "-1"), 2, "--node-limit -1 is out of range"),
        ((WINNABLE, "--time-limit", "0"), 2, "--time-limit 0 must be a positive number"),
    ],
)
@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_bad_input_one_line_no_traceback(args: tuple[str, ...], status: int, message: str) -> None:
    result = arbiter(*args)
    assert result.returncode == status
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert message in result.stderr and "Traceback" not in result.stderr


def test_unknown_side_is_a_usage_error() -> None:
    result = invoke("--side", "purple", WINNABLE)
    assert result.exit_code == 2 and "purple" in result.output


def test_subprocess_json_and_unquoted_fen_words() -> None:
    result = arbiter(*DEAD.split(), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["dead"] is True


@pytest.mark.parametrize("group", [False, True], ids=["process", "process-group"])
def test_ctrl_c_stops_cleanly_with_130_and_prints_what_it_has(group: bool) -> None:
    """SIGINT to the command alone, or (as a terminal's Ctrl-C) to its whole process
    group, the analysis worker included: one line on stderr either way."""
    command = [sys.executable, "-m", "conformance.cli", "unwinnable", "--verbose", "--node-limit", HUGE_LIMIT, HARD]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=group)
    try:
        started = proc.stderr.readline()  # printed once the worker has begun White's analysis
        assert started.startswith("arbiter: analysing white"), started
        assert proc.poll() is None, "the analysis ended before Ctrl-C: HARD is no longer hard"
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["arbiter: interrupted"]
    assert "white     undetermined (interrupted)" in out and "black     undetermined (interrupted)" in out
