"""``-j N``: run chunks of cases in N worker processes, each with its own adapter.

Every worker builds and starts its own adapter from the spec string on its first
chunk (so ``cmd:`` adapters run as N programs). The workers get the cases once, when
they start; a chunk is a list of case indexes, and a worker sends back of each record
only what the case does not hold (:data:`FROM_CASE`), which the main process fills in
again. A chunk holds the cases on one position
together (see :func:`chunked`), so that a worker's adapter answers them all from its
caches instead of every worker working the same position out again. Records are
emitted in case order whatever the chunks, so the report is the same as a sequential
run's; with ``--fail-fast``/``--max-fail`` it is the same prefix of it (after Ctrl-C,
the answers already in are all kept, in case order). Each chunk also
reports the cases of earlier chunks its adapter answered a second time; at the end
every worker stops its adapter and reports the same for its last chunk.
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import signal
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import util as _mp_util
from typing import Any

from conformance.adapters.base import Adapter, AdapterStartError, StartInfo
from . import records
from .runner import Emit, Key, Options, Progress, interrupts_held, late_duplicates, run_block
from .select import Case

#: Largest chunk handed to one worker at a time.
MAX_CHUNK = 64
#: Seconds the workers wait for each other before stopping their adapters (only a worker
#: that died makes them wait that long).
FINISH_WAIT = 120.0


@dataclass(frozen=True)
class AdapterRecipe:
    """Everything a worker needs to build the same adapter as the main process."""

    spec: str
    timeout: float | None = None
    validate_protocol: bool = False
    rulesets: tuple[str, ...] | None = None
    #: ``module:function`` that turns ``spec`` into an adapter: named, not imported, so
    #: the harness knows no implementation and a worker process can find it again.
    resolver: str = "conformance.implementations:resolve"

    def build(self) -> Adapter:
        """The adapter; with ``validate_protocol`` its results are checked by kind too."""
        module, _, name = self.resolver.partition(":")
        resolve = getattr(importlib.import_module(module), name)
        adapter = resolve(
            self.spec,
            timeout=self.timeout,
            validate_protocol=self.validate_protocol,
            rulesets=list(self.rulesets) if self.rulesets else None,
        )
        if self.validate_protocol:
            from .protocol import KindChecked

            return KindChecked(adapter)
        return adapter


#: The fields of a result record that :func:`records.result` fills in from the case
#: (its fixture, ruleset and expectation): a worker does not send them back.
FROM_CASE = frozenset({"type", "id", "kind", "description", "ruleset", "cites", "tags", "expect", "input"})

_state: dict[str, Any] = {}


def _init_worker(recipe: AdapterRecipe, info: StartInfo, options: Options, barrier: threading.Barrier,
                 cases: Sequence[Case]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process handles Ctrl-C
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # and a hang-up: it stops the workers
    signal.signal(signal.SIGTERM, _terminated)  # sent by the main process when the run stops
    _state.update(recipe=recipe, info=info, options=options, adapter=None, error=None, barrier=barrier,
                  cases=cases)


def _terminated(signum: int, frame: Any) -> None:
    """Kill this worker's adapter program (if any) and leave at once."""
    kill = getattr(_state.get("adapter"), "kill", None)
    if callable(kill):
        kill()
    os._exit(128 + signum)


def _worker_adapter() -> Adapter | None:
    if _state["adapter"] is None and _state["error"] is None:
        adapter = _state["recipe"].build()
        try:
            adapter.start()
        except AdapterStartError as error:
            _state["error"] = f"adapter could not start in worker process: {error}"
            return None
        _state["adapter"] = adapter
        _mp_util.Finalize(None, adapter.stop, exitpriority=10)
    return _state["adapter"]


def _run_chunk(indexes: list[int]) -> tuple[list[records.Record], list[Key]]:
    """The records of the cases at ``indexes`` (less :data:`FROM_CASE`), and the cases of
    earlier chunks answered a second time since."""
    adapter = _worker_adapter()
    options: Options = _state["options"]
    cases = [_state["cases"][i] for i in indexes]
    if adapter is None:
        found = [records.result(c.fixture, c.ruleset, "errored", c.expect, None, _state["error"], 0.0)
                 for c in cases]
        return [_compact(r) for r in found], []
    found = run_block(adapter, _state["info"], cases, options)[0]
    return [_compact(r) for r in found], late_duplicates(adapter)


def _compact(record: records.Record) -> records.Record:
    """What a worker sends back of a result record: the fields the case does not hold."""
    return {key: value for key, value in record.items() if key not in FROM_CASE}


def _filled(case: Case, sent: records.Record) -> records.Record:
    """The result record a worker sent (:func:`_compact`), its case's fields filled in again."""
    record = records.result(case.fixture, case.ruleset, sent["status"], case.expect, sent["actual"],
                            sent["message"], sent["duration_ms"])
    record.update(sent)
    return record


def _finish_worker() -> list[Key]:
    """Stop this worker's adapter; the cases it answered a second time since its last chunk.

    Every worker gets exactly one of these: each waits at the barrier until all have one.
    """
    try:
        _state["barrier"].wait(FINISH_WAIT)
    except threading.BrokenBarrierError:
        pass
    adapter, _state["adapter"] = _state["adapter"], None
    if adapter is None:
        return []
    adapter.stop()
    return late_duplicates(adapter)


def _position(case: Case) -> Any:
    """The position a case starts from (its input's ``fen``), or None."""
    given = case.fixture.get("input")
    return given.get("fen") if isinstance(given, dict) else None


def chunked(cases: Sequence[Case], jobs: int) -> list[list[int]]:
    """Split the indexes of ``cases`` into chunks, about four per worker, at most
    MAX_CHUNK long. Cases on the same position (the same input FEN: one position asked by
    several kinds and rulesets) go into one chunk where they fit, in order of first
    appearance, so one worker and its adapter's caches serve them all."""
    if not cases:
        return []
    size = max(1, min(MAX_CHUNK, math.ceil(len(cases) / (jobs * 4))))
    groups: dict[Any, list[int]] = {}
    for index, case in enumerate(cases):
        position = _position(case)
        groups.setdefault(("position", position) if position is not None else ("case", index), []).append(index)
    chunks: list[list[int]] = []
    current: list[int] = []
    for members in groups.values():
        for start in range(0, len(members), size):
            part = members[start : start + size]
            if current and len(current) + len(part) > size:
                chunks.append(current)
                current = []
            current.extend(part)
    if current:
        chunks.append(current)
    return chunks


def run_parallel(
    recipe: AdapterRecipe,
    info: StartInfo,
    cases: Sequence[Case],
    options: Options,
    jobs: int,
    emit: Emit,
) -> Progress:
    """Run ``cases`` in ``jobs`` worker processes; emit records in case order."""
    progress = Progress()
    context = multiprocessing.get_context()
    executor = ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=_init_worker,
        initargs=(recipe, info, options, context.Barrier(jobs), cases),
    )
    futures: list[Future[tuple[list[records.Record], list[Key]]]] = []
    done: dict[int, records.Record | None] = {}  # by case index, until its turn to be emitted
    turn = 0  # the next case index to emit

    def emit_ready() -> bool:
        """Emit the records whose turn has come, in case order; True to stop the run."""
        nonlocal turn
        while turn in done:
            record = done.pop(turn)
            turn += 1
            if record is not None:
                emit(record)
                if progress.count(record, options):
                    return True
        return False

    try:
        chunks = chunked(cases, jobs)
        futures = [executor.submit(_run_chunk, chunk) for chunk in chunks]
        for chunk, future in zip(chunks, futures):
            found, late = future.result()
            with interrupts_held():  # a chunk's records are all kept or emitted before Ctrl-C counts
                progress.late_twice.extend(late)
                for position, index in enumerate(chunk):
                    done[index] = _filled(cases[index], found[position]) if position < len(found) else None
                if emit_ready():
                    break
        if not progress.stopped_early:
            for finishing in [executor.submit(_finish_worker) for _ in range(jobs)]:
                progress.late_twice.extend(finishing.result())
    except KeyboardInterrupt:
        progress.interrupted = True
        for index in sorted(done):  # answered, but waiting for an earlier case: keep them
            record = done[index]
            if record is not None:
                emit(record)
                progress.count(record, options)
    finally:
        if progress.interrupted:
            # Do not wait for the chunks in flight. Nothing is cancelled here: the pool
            # fails its pending futures itself once its workers are gone, and a future
            # cancelled first would make its manager thread die with a traceback.
            for process in list(getattr(executor, "_processes", {}).values()):
                process.terminate()
            executor.shutdown(wait=True)
        else:
            for future in futures:
                future.cancel()
            executor.shutdown(wait=True, cancel_futures=True)
    return progress
