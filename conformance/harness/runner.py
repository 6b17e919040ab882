"""Run cases through an adapter and judge each answer.

:func:`judge` is the pure core: one case, the adapter's declaration, what the adapter
did (an :class:`Outcome`), and the expected-failure entry give one result record.
:func:`run_cases` is the loop around it (sequential, in this process);
:mod:`conformance.harness.parallel` runs chunks of it in worker processes. Neither
prints nor touches files: records go to an ``emit`` callback.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from reference_impl.text import JsonError, loads_json, quote

from conformance.adapters.base import LATE_TWICE, Adapter, AdapterErrored, AdapterFault, PartialRun, Skip, StartInfo
from . import records, xfail
from .compare import compare
from .select import Case

Emit = Callable[[records.Record], None]
#: A case as the adapter knows it: fixture id and ruleset.
Key = tuple[str, str]


@dataclass
class Options:
    """How to run: per-fixture timeout (seconds), early stop, expected failures."""

    timeout: float | None = None
    fail_fast: bool = False
    max_fail: int | None = None
    xfails: list[xfail.Entry] = field(default_factory=list)

    @property
    def stop_after(self) -> int | None:
        """How many bad results stop the run (``None``: never)."""
        if self.fail_fast:
            return 1
        return self.max_fail


@dataclass
class Outcome:
    """What the adapter did with one request."""

    actual: dict[str, Any] | None = None
    skipped: str | None = None
    error: str | None = None
    duration_ms: float = 0.0


class FixtureTimeout(Exception):
    """An in-process adapter took longer than the per-fixture timeout."""


@contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Raise FixtureTimeout in this thread after ``seconds`` (main thread, POSIX only)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not seconds or not usable:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise FixtureTimeout(f"no answer within {seconds:g} s (timed out)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


#: The signals a run's shell may turn into KeyboardInterrupt (Ctrl-C; the CLI's stop
#: signals), held by :func:`interrupts_held`.
HELD_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold the stop signals while records are handed on, and act on them once all are.

    A KeyboardInterrupt raised between taking a finished record and emitting it would
    lose that record from the report; inside this block each of :data:`HELD_SIGNALS`
    whose handler is Python code is only noted, and that handler runs when the block
    ends. Main thread only (elsewhere signals are not delivered to Python code anyway);
    a signal ignored or at its default is left as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handlers: dict[int, Callable[[int, Any], Any]] = {}
    for number in HELD_SIGNALS:
        handler = signal.getsignal(number)
        if callable(handler):
            handlers[number] = handler
    noted: list[tuple[int, Any]] = []
    for number in handlers:
        signal.signal(number, lambda signum, frame: noted.append((signum, frame)))
    try:
        yield
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        for number, frame in noted:
            handlers[number](number, frame)


def execute(adapter: Adapter, case: Case, timeout: float | None) -> Outcome:
    """Send one case to the adapter and capture what happened (never raises Exception)."""
    own = getattr(adapter, "own_timeout", False)
    began = time.perf_counter()
    try:
        with _deadline(None if own else timeout):
            value: Any = adapter.run(case.kind, case.ruleset, case.fixture["input"])
    except Exception as error:  # the implementation under test failed: a verdict, not a crash
        value = error
    if isinstance(value, dict) and not own:
        problem = json_problem(value)
        if problem is not None:
            value = AdapterErrored(f"result is not bounded JSON: {problem}")
    return outcome_of(value, (time.perf_counter() - began) * 1000.0)


def json_problem(value: dict[str, Any]) -> str | None:
    """Why an in-process result could not cross the protocol (and so cannot be reported):
    the bounded JSON reader's reason, or ``None``. Child-process answers were read by it."""
    try:
        loads_json(json.dumps(value))
    except JsonError as error:
        return error.reason
    except (ValueError, TypeError, RecursionError) as error:
        return f"{type(error).__name__}: {quote(str(error))}"
    return None


def outcome_of(value: Any, duration_ms: float) -> Outcome:
    """An Outcome from what ``run`` returned or raised."""
    outcome = Outcome(duration_ms=duration_ms)
    if isinstance(value, Skip):
        outcome.skipped = value.reason or "skipped"
    elif isinstance(value, (FixtureTimeout, AdapterFault, AdapterErrored)):
        outcome.error = str(value)
    elif isinstance(value, BaseException):
        outcome.error = f"{type(value).__name__}: {value}" if str(value) else f"{type(value).__name__} raised"
    elif isinstance(value, dict):
        outcome.actual = value
    else:
        outcome.error = f"adapter returned {type(value).__name__}, not a result object"
    return outcome


def unsupported_reason(info: StartInfo, case: Case) -> str | None:
    """Why the adapter will not be sent this case, or ``None`` if it will."""
    if case.kind not in info.capabilities:
        return f"adapter does not declare the kind {case.kind!r}"
    if "*" not in info.rulesets and case.ruleset not in info.rulesets:
        return f"adapter does not declare the ruleset {case.ruleset!r}"
    return None


def judge(case: Case, outcome: Outcome, xfail_reason: str | None,
          unclassified: Collection[str] = ()) -> records.Record:
    """The result record for a case the adapter was sent (``unclassified``: the kinds
    whose parse errors the adapter declared it does not classify)."""
    expect = case.expect
    message: str | None
    if outcome.skipped is not None:
        status, message = "skipped", outcome.skipped
    elif outcome.error is not None:
        status, message = "errored", outcome.error
    elif expect is None:
        status, message = "errored", f"fixture has no expectation for ruleset {case.ruleset!r}"
    else:
        message = compare(case.kind, case.ruleset, expect, outcome.actual, unclassified)
        status = "passed" if message is None else "failed"
    if xfail_reason is not None:
        if status in ("failed", "errored"):
            status, message = "xfailed", f"expected failure: {xfail_reason} ({message})"
        elif status == "passed":
            status, message = "xpassed", f"listed as an expected failure but passed: {xfail_reason}"
    return records.result(case.fixture, case.ruleset, status, expect, outcome.actual, message, outcome.duration_ms)


def run_one(adapter: Adapter, info: StartInfo, case: Case, options: Options) -> records.Record:
    """Run and judge one case (unsupported cases are not sent)."""
    reason = unsupported_reason(info, case)
    if reason is not None:
        return records.result(case.fixture, case.ruleset, "unsupported", case.expect, None, reason, 0.0)
    outcome = execute(adapter, case, options.timeout)
    return judge(case, outcome, xfail.lookup(options.xfails, case.id, case.ruleset, info.version),
                 info.unclassified_errors)


@dataclass
class Progress:
    """How a run ended."""

    bad: int = 0
    stopped_early: bool = False
    interrupted: bool = False
    late_twice: list[Key] = field(default_factory=list)  #: answered twice after being judged

    def count(self, record: records.Record, options: Options) -> bool:
        """Count a record; True when the run must stop (fail-fast / max-fail)."""
        if record["status"] in records.BAD_STATUSES:
            self.bad += 1
        limit = options.stop_after
        if limit is not None and self.bad >= limit:
            self.stopped_early = True
        return self.stopped_early


#: Cases sent to a pipelining adapter (one with ``run_many``) at a time.
BLOCK = 64


def run_block(
    adapter: Adapter, info: StartInfo, cases: list[Case], options: Options
) -> tuple[list[records.Record], bool]:
    """Run cases in order; pipelined through ``adapter.run_many`` when the adapter has it.

    Returns the records and whether Ctrl-C cut the block short (the records then cover
    the cases answered before it).
    """
    run_many = getattr(adapter, "run_many", None)
    if run_many is None:
        return [run_one(adapter, info, case, options) for case in cases], False
    sendable = [case for case in cases if unsupported_reason(info, case) is None]
    interrupted = False
    requests = [(c.kind, c.ruleset, c.fixture["input"]) for c in sendable]
    try:
        if hasattr(adapter, "take_late_duplicates"):
            answers = run_many(requests, keys=[(c.id, c.ruleset) for c in sendable])
        else:
            answers = run_many(requests)
    except PartialRun as partial:
        answers, interrupted = partial.done, True
    remaining = iter(answers)
    found = []
    for case in cases:
        reason = unsupported_reason(info, case)
        if reason is not None:
            found.append(records.result(case.fixture, case.ruleset, "unsupported", case.expect, None, reason, 0.0))
            continue
        answer = next(remaining, None)
        if answer is None:
            break
        value, duration_ms = answer
        entry = xfail.lookup(options.xfails, case.id, case.ruleset, info.version)
        found.append(judge(case, outcome_of(value, duration_ms), entry, info.unclassified_errors))
    return found, interrupted


def late_duplicates(adapter: Adapter) -> list[Key]:
    """The cases the adapter answered a second time after their answer was taken."""
    take = getattr(adapter, "take_late_duplicates", None)
    return [key for key in take() if isinstance(key, tuple)] if callable(take) else []


def rejudge_late(found: list[records.Record], late: list[Key], cases: list[Case], options: Options,
                 info: StartInfo) -> None:
    """Charge each late second answer to its case: its record (already emitted) becomes
    the verdict of an adapter fault, in place."""
    wanted = set(late)
    by_key = {(c.id, c.ruleset): c for c in cases if (c.id, c.ruleset) in wanted}
    for record in found:
        case = by_key.get((str(record.get("id")), str(record.get("ruleset")))) if record.get("type") == "result" else None
        if case is None or record["status"] == "unsupported":
            continue
        entry = xfail.lookup(options.xfails, case.id, case.ruleset, info.version)
        fresh = judge(case, Outcome(error=LATE_TWICE, duration_ms=record["duration_ms"]), entry,
                      info.unclassified_errors)
        record.clear()
        record.update(fresh)


def run_cases(
    adapter: Adapter, info: StartInfo, cases: Iterable[Case], options: Options, emit: Emit
) -> Progress:
    """Run cases in order in this process; Ctrl-C ends the run with what is done.

    A pipelining adapter gets BLOCK cases at a time (with --fail-fast the rest of a
    block is computed but not reported); others one at a time.
    """
    progress = Progress()
    block = BLOCK if hasattr(adapter, "run_many") else 1
    pending = list(cases)
    try:
        for offset in range(0, len(pending), block):
            found, progress.interrupted = run_block(adapter, info, pending[offset : offset + block], options)
            progress.late_twice.extend(late_duplicates(adapter))
            with interrupts_held():
                for record in found:
                    emit(record)
                    if progress.count(record, options):
                        break
            if progress.stopped_early or progress.interrupted:
                break
    except KeyboardInterrupt:
        progress.interrupted = True
    return progress
