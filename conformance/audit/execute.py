"""Running the audit over partitions: in this process, in ``-j N`` local processes, or on a
Dask distributed cluster. Every runner yields one :class:`PartResult` per partition in
the order of the partitions, with at most a window of partitions in flight (memory stays
flat in the number of games), and passes each :class:`~.sources.Damage` through in place.
The task is the same function everywhere (:func:`audit_partition`), so a local and a
distributed run give the same findings.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from reference_impl.errors import EXIT_ADAPTER, ArbiterError
from reference_impl.rules.loader import load_ruleset

from .fast import audit_text
from .judge import GameAudit
from .sources import Damage, Partition, partition_lines

#: Partitions in flight per worker (one running, one waiting).
WINDOW_PER_WORKER = 2
#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT = 10.0


class SchedulerError(ArbiterError):
    """The Dask scheduler could not be reached (exit 3, as an adapter that cannot start)."""

    exit_code = EXIT_ADAPTER


@dataclass(frozen=True)
class PartResult:
    """What a task returns: games read, and the games with something to say."""

    path: str
    number: int
    start: int
    end: int
    size: int
    games: int
    audits: list[GameAudit] = field(default_factory=list)
    cpu: float = 0.0
    failure: str | None = None
    #: read back from the output file of an interrupted run, not audited again
    resumed: bool = False


def audit_partition(part: Partition, rules: str) -> PartResult:
    """Audit every game of ``part`` under ``rules`` (an id, alias or ruleset file).

    Game numbers in the result count from 1 within the partition."""
    began = time.process_time()
    ruleset = load_ruleset(rules)
    games, kept = 0, []
    try:
        for found in audit_text(_partition_bytes(part), ruleset, lambda: partition_lines(part)):
            games += 1
            if found.findings or found.error or found.undetermined:
                kept.append(found)
    except OSError as error:
        return PartResult(part.path, part.number, part.start, part.end, part.size, games, kept,
                          time.process_time() - began, f"{part.path}: {error.strerror or error}")
    return PartResult(part.path, part.number, part.start, part.end, part.size, games, kept,
                      time.process_time() - began)


def _partition_bytes(part: Partition) -> bytes:
    """The bytes of ``part``: its text, or its range of the file (as :func:`partition_lines`
    streams them, whole)."""
    if part.text is not None:
        return part.text
    with open(part.path, "rb") as handle:
        handle.seek(part.start)
        return handle.read(part.end - part.start)


#: What a runner takes: partitions to audit; damage and resumed results pass through.
Item = Partition | Damage | PartResult


def _ordered(items: Iterable[Item], submit: Callable[[Partition], Any],
             collect: Callable[[Any], PartResult], window: int) -> Iterator[PartResult | Damage]:
    pending: deque[Any] = deque()

    def take() -> PartResult | Damage:
        head = pending.popleft()
        return head if isinstance(head, (Damage, PartResult)) else collect(head)

    for item in items:
        pending.append(submit(item) if isinstance(item, Partition) else item)
        while len(pending) > window:
            yield take()
    while pending:
        yield take()


def run_local(items: Iterable[Item], rules: str, jobs: int) -> Iterator[PartResult | Damage]:
    """In this process (``jobs`` 1) or in ``jobs`` worker processes."""
    if jobs <= 1:
        for item in items:
            yield audit_partition(item, rules) if isinstance(item, Partition) else item
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        yield from _ordered(items, lambda p: pool.submit(audit_partition, p, rules),
                            lambda f: f.result(), jobs * WINDOW_PER_WORKER)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask client of the scheduler at ``address``, or :class:`SchedulerError`."""
    try:
        from distributed import Client
    except ImportError as error:  # pragma: no cover - a declared dependency
        raise SchedulerError(f"--scheduler needs dask[distributed]: {error}") from None
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SchedulerError(f"scheduler {address} could not be reached: {reason}") from None


def run_dask(items: Iterable[Item], rules: str, client: Any) -> Iterator[PartResult | Damage]:
    """On the cluster behind ``client``: one task per partition, results in order."""
    threads = sum(client.nthreads().values()) or 1
    yield from _ordered(items, lambda p: client.submit(audit_partition, p, rules, pure=False),
                        lambda f: f.result(), threads * WINDOW_PER_WORKER)
