"""The runner's verdicts for in-process adapters (conformance.harness.runner).

The tiny adapters below answer by construction, so each expected status follows from
the definitions in docs/harness.md.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conformance.adapters.base import Adapter, Skip, StartInfo
from conformance.harness.runner import Options, interrupts_held, run_cases
from conformance.harness.select import Selection, expand


class Scripted(Adapter):
    """perft only, under fide-2023 only; behaves as ``input["do"]`` says."""

    def start(self) -> StartInfo:
        return StartInfo("scripted", "1.0", ["perft"], ["fide-2023"])

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> Any:
        do = input.get("do")
        if do == "raise":
            raise ValueError("bad square 'z9'")
        if do == "skip":
            raise Skip("too deep for me")
        if do == "sleep":
            time.sleep(5)
        if do == "list":
            return [20]
        return {"nodes": 20}


def fixture(ident: str, do: str | None = None, rulesets: list[str] | None = None, kind: str = "perft",
            expect: dict | None = None) -> dict:
    data: dict[str, Any] = {"id": ident, "kind": kind, "rulesets": rulesets or ["fide-2023"],
                            "input": {"fen": "x", "depth": 1, **({"do": do} if do else {})}}
    if expect is not None:
        data["expect"] = expect
    else:
        data["expect_by_ruleset"] = {}
    return data


def run(fixtures: list[dict], **options: Any) -> list[dict]:
    adapter = Scripted()
    found: list[dict] = []
    progress = run_cases(adapter, adapter.start(), expand(fixtures, Selection(), ()), Options(**options),
                         found.append)
    assert not progress.interrupted
    return found


def one(fixture_: dict, **options: Any) -> dict:
    (record,) = run([fixture_], **options)
    return record


def test_passed_and_failed() -> None:
    assert one(fixture("p", expect={"nodes": 20}))["status"] == "passed"
    failed = one(fixture("f", expect={"nodes": 21}))
    assert failed["status"] == "failed" and failed["message"] == "nodes: expected 21, got 20"
    assert failed["actual"] == {"nodes": 20}


def test_exception_is_errored_with_its_type_and_text() -> None:
    record = one(fixture("e", "raise", expect={"nodes": 20}))
    assert record["status"] == "errored" and record["message"] == "ValueError: bad square 'z9'"


def test_skip_is_skipped_with_reason() -> None:
    record = one(fixture("s", "skip", expect={"nodes": 20}))
    assert (record["status"], record["message"]) == ("skipped", "too deep for me")


def test_non_object_result_is_errored() -> None:
    record = one(fixture("l", "list", expect={"nodes": 20}))
    assert record["status"] == "errored" and "not a result object" in record["message"]


def test_undeclared_kind_and_ruleset_are_unsupported() -> None:
    kind = one(fixture("k", kind="legal_moves", expect={"moves": []}))
    ruleset = one(fixture("r", rulesets=["uscf-7"], expect={"nodes": 20}))
    assert kind["status"] == ruleset["status"] == "unsupported"
    assert "kind 'legal_moves'" in kind["message"] and "ruleset 'uscf-7'" in ruleset["message"]


def test_missing_expectation_for_a_ruleset_is_errored() -> None:
    record = one(fixture("m"))
    assert record["status"] == "errored" and "no expectation for ruleset 'fide-2023'" in record["message"]


def test_in_process_timeout() -> None:
    record = one(fixture("t", "sleep", expect={"nodes": 20}), timeout=0.3)
    assert record["status"] == "errored" and record["message"] == "no answer within 0.3 s (timed out)"


@pytest.mark.parametrize("options, count", [({"fail_fast": True}, 2), ({"max_fail": 2}, 4), ({}, 6)])
def test_early_stop(options: dict, count: int) -> None:
    fixtures = [fixture("a", expect={"nodes": 20}), fixture("b", expect={"nodes": 1}),
                fixture("c", expect={"nodes": 20}), fixture("d", "raise", expect={"nodes": 20}),
                fixture("e", expect={"nodes": 1}), fixture("f", expect={"nodes": 20})]
    assert [r["id"] for r in run(fixtures, **options)] == list("abcdef")[:count]


def test_record_carries_what_renderers_need() -> None:
    source = fixture("c", expect={"nodes": 20})
    source.update(cites=["fide-2023:3.10.1"], tags=["perft"])
    record = one(source)
    assert {k: record[k] for k in ("type", "id", "kind", "ruleset", "cites", "tags", "expect", "input")} == {
        "type": "result", "id": "c", "kind": "perft", "ruleset": "fide-2023", "cites": ["fide-2023:3.10.1"],
        "tags": ["perft"], "expect": {"nodes": 20}, "input": {"fen": "x", "depth": 1}}
    assert record["duration_ms"] >= 0


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """SIGINT raising KeyboardInterrupt in this process, as at an interactive prompt, even
    where the tests run with it ignored (in the background)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_inside_interrupts_held_is_raised_when_the_block_ends() -> None:
    """The Ctrl-C is noted, the block runs to its end, then the handler in place runs."""
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_held():
            os.kill(os.getpid(), signal.SIGINT)
            for step in range(1000):  # bytecodes on which Python would have run the handler
                reached.append(step)
    assert len(reached) == 1000
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_stop_signal_inside_interrupts_held_runs_its_handler_when_the_block_ends() -> None:
    """The CLI turns SIGTERM into an exception; held like Ctrl-C, then its handler runs."""
    class Stopped(Exception):
        pass

    def stop(signum: int, frame: object) -> None:
        raise Stopped(signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        reached = []
        with pytest.raises(Stopped):
            with interrupts_held():
                os.kill(os.getpid(), signal.SIGTERM)
                for step in range(1000):
                    reached.append(step)
        assert len(reached) == 1000 and signal.getsignal(signal.SIGTERM) is stop
    finally:
        signal.signal(signal.SIGTERM, previous)


class Pipelined(Scripted):
    """Answers a block of cases at once, as protocol adapters do."""

    def run_many(self, requests: list[tuple[str, str, dict]]) -> list[tuple[Any, float]]:
        return [(self.run(*request), 0.0) for request in requests]


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_while_a_block_is_emitted_loses_none_of_it() -> None:
    """Ctrl-C arriving while the first record of a 64-case block is handed on: the whole
    block is in the report (the CI failure this guards against lost one record)."""
    adapter = Pipelined()
    cases = expand([fixture(f"p.{i:03d}", expect={"nodes": 20}) for i in range(100)], Selection(), ())
    found: list[dict] = []

    def emit(record: dict) -> None:
        if not found:
            os.kill(os.getpid(), signal.SIGINT)
        found.append(record)

    progress = run_cases(adapter, adapter.start(), cases, Options(), emit)
    assert progress.interrupted
    assert [r["id"] for r in found] == [f"p.{i:03d}" for i in range(64)]
