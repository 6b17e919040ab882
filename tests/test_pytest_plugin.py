"""The pytest plugin: corpus items, xfail files, sharding, xdist, and inertness.

Run through ``pytester``; the entry-point plugin loads as it does for users (in a
subprocess where a clean process matters: inertness, xdist). Expectations: the fixture files in tests/data/harness (python-chess values)
and the fake adapter's documented echo behaviour.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_adapter import fake_spec

pytest_plugins = ["pytester"]

DATA = Path(__file__).parent / "data" / "harness"


def outcomes(result: pytest.RunResult) -> dict[str, int]:
    return result.parseoutcomes()


def test_inert_without_adapter_option(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_one():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "arbiter::" not in result.stdout.str()


def test_corpus_items_named_by_fixture_and_ruleset(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess(
        "--arbiter-adapter=reference", f"--arbiter-fixtures={DATA / 'reference.jsonl'}",
        "--arbiter-only", "--collect-only", "-q",
    )
    text = result.stdout.str()
    assert "arbiter::h.perft.start.d1[fide-2023]" in text
    assert "arbiter::h.legal.kiwipete.960[fide-2023-chess960]" in text
    assert "arbiter::h.perft.start.d1[fide-2023-chess960]" not in text  # "*" is orthodox only


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_pass_fail_skip_xfail(pytester: pytest.Pytester) -> None:
    known = pytester.path / "known.yaml"
    known.write_text("fake.00.good: {reason: thought broken, versions: ['<1']}\n"
                     "fake.05.garbage: garbage is a known bug\n")
    adapter = fake_spec()
    result = pytester.runpytest_subprocess(
        f"--arbiter-adapter={adapter}", f"--arbiter-fixtures={DATA / 'fake.jsonl'}", "--arbiter-only",
        "--arbiter-timeout=1", f"--arbiter-xfail={known}",
        "--arbiter-id=fake.0[0-9].*", "--arbiter-id=fake.16.skip",
    )
    # 00..09: good x5 (one listed for versions <1 only: fake is 1.0, so plain pass),
    # crash, hang, wrong-id, twice -> failed; garbage -> xfailed; 16 -> skipped.
    result.assert_outcomes(passed=5, failed=4, xfailed=1, skipped=1)
    text = result.stdout.str()
    assert "errored: exited without answering" in text
    assert "fixture fake.03.hang (perft) under fide-2023" in text


def test_failure_report_shows_expect_and_actual(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_inprocess(
        "--arbiter-adapter=reference", f"--arbiter-fixtures={DATA / 'wrong.jsonl'}", "--arbiter-only",
        "--arbiter-kind=perft",
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*failed: nodes: expected 19, got 20*", '*expect: {"nodes": 19}*',
                                 '*actual: {"nodes": 20}*'])


def test_shards_partition_the_items(pytester: pytest.Pytester) -> None:
    def collected(*extra: str) -> set[str]:
        result = pytester.runpytest_inprocess(
            "--arbiter-adapter=reference", f"--arbiter-fixtures={DATA / 'reference.jsonl'}",
            "--arbiter-only", "--collect-only", "-q", *extra,
        )
        return {line for line in result.stdout.lines if line.startswith("arbiter::")}

    whole = collected()
    parts = [collected(f"--shard={k}/3") for k in (1, 2, 3)]
    assert len(whole) == 8  # each "*" fixture once (fide-2023), named rulesets as listed
    assert set().union(*parts) == whole and sum(map(len, parts)) == len(whole)


@pytest.mark.slow
def test_runs_under_xdist(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    result = pytester.runpytest_subprocess(
        "--arbiter-adapter=reference", f"--arbiter-fixtures={DATA / 'reference.jsonl'}", "--arbiter-only",
        "-n", "2",
    )
    result.assert_outcomes(passed=8)


def test_project_tests_still_run_without_arbiter_only(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_mine():\n    assert True\n")
    result = pytester.runpytest_inprocess(
        "--arbiter-adapter=reference", f"--arbiter-fixtures={DATA / 'wrong.jsonl'}", "--arbiter-kind=game_end",
    )
    assert outcomes(result)["passed"] >= 1
