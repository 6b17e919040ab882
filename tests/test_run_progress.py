"""The ``arbiter run`` progress bar: it counts cases, and estimates the time left per kind."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from conformance.cli.progress import UNIT, RunProgress, clock, remaining_seconds


def test_remaining_cases_cost_the_mean_of_their_kind() -> None:
    # 100 cheap perft cases took 1 s, 2 slow status cases 4 s: adapter time 5 s in 10 s wall
    done, seconds = {"perft": 100, "status": 2}, {"perft": 1.0, "status": 4.0}
    # 100 more perft (1 s) and 10 status (20 s) of adapter time, scaled by 10 / 5
    assert remaining_seconds({"perft": 100, "status": 10}, done, seconds, 10.0) == pytest.approx(42.0)
    # the slow kind last: a per-case mean over all kinds would say 110 * 10/102 s, about 10.8
    assert remaining_seconds({"status": 10}, done, seconds, 10.0) == pytest.approx(40.0)


def test_a_kind_not_seen_yet_costs_the_overall_mean() -> None:
    done, seconds = {"perft": 4}, {"perft": 2.0}
    assert remaining_seconds({"perft": 2, "legal_moves": 6}, done, seconds, 2.0) == pytest.approx(4.0)


def test_without_timings_every_case_is_alike_and_nothing_done_is_unknown() -> None:
    assert remaining_seconds({"perft": 3}, {"perft": 6}, {"perft": 0.0}, 12.0) == pytest.approx(6.0)
    assert remaining_seconds({"perft": 3}, {}, {}, 5.0) is None
    assert remaining_seconds({}, {"perft": 6}, {"perft": 1.0}, 12.0) == 0.0


def test_clock() -> None:
    assert (clock(None), clock(65.4), clock(3723)) == ("-:--", "1:05", "1:02:03")


def test_the_bar_names_its_unit_and_counts_results_only() -> None:
    out = io.StringIO()
    bar = RunProgress(Console(file=out, force_terminal=True, width=100))
    bar.start(["perft", "perft", "status"])
    bar.advance({"type": "header"})
    bar.advance({"type": "result", "kind": "perft", "duration_ms": 10.0})
    task = bar.bar.tasks[0]
    assert task.description == UNIT == "cases"
    assert (task.completed, task.total) == (1, 3)
    assert dict(bar.remaining) == {"perft": 1, "status": 1}
    bar.stop()


def test_the_time_left_is_estimated_a_few_times_a_second_and_every_result_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.cli import progress

    now = [100.0]
    monkeypatch.setattr(progress.time, "perf_counter", lambda: now[0])
    bar = RunProgress(Console(file=io.StringIO(), force_terminal=True, width=100))
    bar.start(["perft"] * 10)
    now[0] += 1.0
    bar.advance({"type": "result", "kind": "perft", "duration_ms": 100.0})
    first = bar.bar.tasks[0].fields["left"]
    assert first == clock(9.0)  # 9 left at 1 s each (wall over adapter time: 1 s / 0.1 s)
    for _ in range(3):  # within the same tenth of a second: counted, not estimated again
        bar.advance({"type": "result", "kind": "perft", "duration_ms": 1000.0})
    assert bar.bar.tasks[0].completed == 4 and bar.bar.tasks[0].fields["left"] == first
    now[0] += 1.0  # a second later: estimated again
    bar.advance({"type": "result", "kind": "perft", "duration_ms": 100.0})
    assert bar.bar.tasks[0].completed == 5 and bar.bar.tasks[0].fields["left"] == clock(2.0)
    bar.stop()
