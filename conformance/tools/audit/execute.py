"""Running the audit over partitions: in this process, in ``-j N`` local processes, or on a
Dask distributed cluster. Every runner yields one :class:`PartResult` per partition in
the order of the partitions, with at most a window of partitions in flight (memory stays
flat in the number of games), and passes each :class:`~.sources.Damage` through in place.
The task is the same function everywhere (:func:`audit_partition`), so a local and a
distributed run give the same findings.
"""

from __future__ import annotations

import gc
import time
from collections import Counter, deque
from contextlib import contextmanager
from dataclasses import field
from functools import partial
from typing import Any, Callable, Iterable, Iterator

from reference_impl.errors import EXIT_ADAPTER, ArbiterError
from reference_impl.notation.pgn import iter_games
from reference_impl.records import record

from .fast import audit_text
from .judge import GameAudit, site_host
from .laws import cached_chooser
from .sources import Damage, Partition, partition_lines

#: Partitions in flight per worker (one running, one waiting).
WINDOW_PER_WORKER = 2
#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT = 10.0
#: What is counted per server: games, time forfeits judged by the flag-fall rule, games unreadable.
SITE_COUNTS = ("games", "flag_falls", "unreadable")
#: New objects between two passes of the cyclic garbage collector over the young ones
#: while games are judged (Python's default is 700): a run makes many short-lived
#: objects and almost no cycles, so a pass seldom frees anything.
YOUNG_OBJECTS = 20_000


class SchedulerError(ArbiterError):
    """The Dask scheduler could not be reached (exit 3, as an adapter that cannot start)."""

    exit_code = EXIT_ADAPTER


@record
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
    #: per server (:func:`~.judge.site_host` of the Site tag): :data:`SITE_COUNTS` -> games
    sites: dict[str, dict[str, int]] = field(default_factory=dict)
    #: read back from the output file of an interrupted run, not audited again
    resumed: bool = False
    #: games per ruleset judged under, warnings per kind, reader repairs per kind
    counts: dict[str, dict[str, int]] = field(default_factory=dict)


#: The per-partition counts a :class:`PartResult` carries (and the summary adds up).
COUNTS = ("rulesets", "warnings", "repairs")


def strict_reader() -> bool:
    """Whether the PGN reader takes ``strict`` (refusing the departures it otherwise repairs)."""
    import inspect

    return "strict" in inspect.signature(iter_games).parameters


@contextmanager
def judging() -> Iterator[None]:
    """While games are judged in this process (and its ``-j`` workers, forked inside):
    the young objects collected every :data:`YOUNG_OBJECTS` (the threshold restored
    after), and the objects made before (modules, rulesets, tables: they live on) left
    out of the collector's passes for good (``gc.freeze``; unfrozen, the interpreter's
    last collection at exit would pass over them all)."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def audit_partition(part: Partition, rules: str, strict: bool = False) -> PartResult:
    """Audit every game of ``part`` under ``rules`` (a family of the laws table, or an id,
    alias or ruleset file); ``strict``: the reader refuses what it would repair.

    Game numbers in the result count from 1 within the partition."""
    began = time.process_time()
    choose = cached_chooser(rules)
    games, kept, failure = 0, [], None
    sites: dict[str, list[int]] = {}  # host -> SITE_COUNTS
    rulesets: Counter = Counter()
    warnings: Counter = Counter()
    repairs: Counter = Counter()
    read = partial(iter_games, strict=True) if strict and strict_reader() else iter_games
    try:
        for pgn, found in audit_text(partition_bytes(part), choose, lambda: partition_lines(part), read,
                                     strict):
            games += 1
            host = site_host(pgn.tags.get("Site"))
            counts = sites.get(host)
            if counts is None:
                counts = sites[host] = [0] * len(SITE_COUNTS)
            counts[0] += 1
            if found.flag_fall:
                counts[1] += 1
            if found.error is not None:
                counts[2] += 1
            if found.ruleset:
                rulesets[found.ruleset] += 1
            for warning in found.warnings:
                warnings[warning] += 1
            for repair in getattr(pgn, "repairs", ()):
                repairs[repair] += 1
            if found.kept:
                kept.append(found)
    except OSError as error:
        failure = f"{part.path}: {error.strerror or error}"
    return PartResult(part.path, part.number, part.start, part.end, part.size, games, kept,
                      time.process_time() - began, failure,
                      {host: dict(zip(SITE_COUNTS, counts)) for host, counts in sites.items()},
                      counts={"rulesets": dict(rulesets), "warnings": dict(warnings), "repairs": dict(repairs)})


def partition_bytes(part: Partition) -> bytes:
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


def run_local(items: Iterable[Item], rules: str, jobs: int, strict: bool = False) -> Iterator[PartResult | Damage]:
    """In this process (``jobs`` 1) or in ``jobs`` worker processes."""
    if jobs <= 1:
        for item in items:
            yield audit_partition(item, rules, strict) if isinstance(item, Partition) else item
        return
    import multiprocessing  # only for worker processes: -j 1 starts without it
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        yield from _ordered(items, lambda p: pool.submit(audit_partition, p, rules, strict),
                            lambda f: f.result(), jobs * WINDOW_PER_WORKER)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask client of the scheduler at ``address``, or :class:`SchedulerError`."""
    try:
        from distributed import Client
    except ImportError:  # Dask is an optional extra: only --scheduler needs it
        raise SchedulerError("--scheduler needs Dask, an optional extra: pip install 'chess-arbiter[dask]'") from None
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SchedulerError(f"scheduler {address} could not be reached: {reason}") from None


def run_dask(items: Iterable[Item], rules: str, client: Any, strict: bool = False) -> Iterator[PartResult | Damage]:
    """On the cluster behind ``client``: one task per partition, results in order."""
    threads = sum(client.nthreads().values()) or 1
    yield from _ordered(items, lambda p: client.submit(audit_partition, p, rules, strict, pure=False),
                        lambda f: f.result(), threads * WINDOW_PER_WORKER)
