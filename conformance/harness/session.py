"""One ``arbiter run``: load, select, start the adapter, run, collect the records.

The caller supplies ``emit`` (write a record, advance a progress bar); this module
neither prints nor opens report files, so the CLI, the pytest plugin and the tests
share it.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from reference_impl.collector import collector_paused
from reference_impl.errors import UsageError

from conformance.adapters.base import Adapter, StartInfo
from . import fixtures, records, rulesets, xfail
from .parallel import AdapterRecipe, run_parallel
from .runner import Options, Progress, late_duplicates, rejudge_late, run_cases
from .select import Case, Selection, expand, narrow_star


#: Longest ``--timeout`` accepted, seconds (a week; beyond it the interval timer overflows).
MAX_TIMEOUT = 604_800.0
#: Per-fixture limit for in-process adapters the project does not ship, when no
#: ``--timeout`` is given (the same as for ``cmd:`` programs).
MODULE_TIMEOUT = 10.0
#: Adapter specs that get MODULE_TIMEOUT by default.
UNTRUSTED_IN_PROCESS: tuple[str, ...] = ("module:",)


@dataclass
class Config:
    """Everything ``arbiter run`` was asked to do."""

    adapter: str = "reference"
    fixtures: list[str] = field(default_factory=list)
    selection: Selection = field(default_factory=Selection)
    xfail_files: list[str] = field(default_factory=list)
    timeout: float | None = None
    fail_fast: bool = False
    max_fail: int | None = None
    jobs: int = 1
    validate_protocol: bool = False
    validate_fixtures: bool = False
    argv: list[str] = field(default_factory=list)


@dataclass
class Plan:
    """What will run: the cases, the corpus revision and the run options."""

    cases: list[Case]
    revision: str
    options: Options
    recipe: AdapterRecipe
    stale_xfails: list[str] = field(default_factory=list)
    ruleset_files: dict[str, str] = field(default_factory=dict)  #: selected file ids -> paths


def plan(config: Config) -> Plan:
    """Load and select the fixtures, read the expected failures; nothing is started."""
    if config.jobs < 1:
        raise UsageError(f"-j must be at least 1, got {config.jobs}")
    if config.timeout is not None and not 0 < config.timeout <= MAX_TIMEOUT:  # also refuses NaN
        raise UsageError(f"--timeout must be a number of seconds in (0, {MAX_TIMEOUT:,}], got {config.timeout:g}")
    if config.max_fail is not None and config.max_fail < 1:
        raise UsageError(f"--max-fail must be at least 1, got {config.max_fail}")
    targets = [rulesets.target(name) for name in config.selection.ruleset]  # a bad file: error now
    with collector_paused():
        corpus = fixtures.load(config.fixtures or None, validate=config.validate_fixtures)
        selection = config.selection
        selection.ruleset = [t.id for t in targets]
        star = rulesets.orthodox_rulesets() + tuple(t.id for t in targets if t.orthodox)
        borrowed = {t.id: t.borrows for t in targets if t.borrows is not None}
        cases = expand(corpus.fixtures, selection, star, borrowed)
    entries: list[xfail.Entry] = []
    for path in config.xfail_files:
        entries.extend(xfail.load(path))
    timeout = config.timeout
    if timeout is None and config.adapter.strip().startswith(UNTRUSTED_IN_PROCESS):
        timeout = MODULE_TIMEOUT
    options = Options(timeout, config.fail_fast, config.max_fail, entries)
    only = tuple(t.name for t in targets) if targets else None  # the reference's rulesets; others ignore it
    recipe = AdapterRecipe(config.adapter, config.timeout, config.validate_protocol, only)
    stale = xfail.stale(entries, [f["id"] for f in corpus.fixtures]) if entries else []
    files = {t.id: t.name for t in targets if t.is_file}
    return Plan(cases, corpus.revision, options, recipe, stale, files)


@contextmanager
def corpus_frozen() -> Iterator[None]:
    """The objects made so far (the corpus, the cases) left out of the cycle collector's
    walks while the run lasts, in this process and in the workers it forks, whose walks
    would also copy every page they touch: they live as long as the run."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def header_for(config: Config, plan_: Plan, adapter: Adapter, info: StartInfo) -> records.Record:
    """The report header for this run."""
    described = {
        "name": info.name,
        "version": info.version,
        "spec": adapter.spec or config.adapter,
        "capabilities": list(info.capabilities),
        "rulesets": list(info.rulesets),
        **({"unclassified_errors": list(info.unclassified_errors)} if info.unclassified_errors else {}),
    }
    selection = config.selection.as_record()
    selection.update(
        fixtures=[str(Path(p)) for p in config.fixtures] or ["(shipped corpus)"],
        xfail=list(config.xfail_files),
        jobs=config.jobs,
        timeout=config.timeout,
        max_fail=config.max_fail,
        cases=len(plan_.cases),
    )
    if plan_.ruleset_files:
        selection["ruleset_files"] = dict(plan_.ruleset_files)
    return records.header(described, plan_.revision, config.argv, selection)


def execute(
    config: Config,
    plan_: Plan,
    emit: Callable[[records.Record], None],
    started: Callable[[records.Record], None] | None = None,
    rejudged: Callable[[], None] | None = None,
) -> list[records.Record]:
    """Start the adapter (AdapterStartError if it cannot), run every case, return all records.

    ``emit`` receives each record as it is made (header, results, footer); a result
    whose answer the adapter repeated late is re-judged in place before the footer,
    and ``rejudged`` is then called (the records emitted so far are no longer the
    report); ``started`` is called with the header once the adapter is up (its
    ``selection.cases`` is the final number of cases: ``"*"`` is narrowed to the
    rulesets the adapter declares).
    """
    collected: list[records.Record] = []

    def keep(record: records.Record) -> None:
        collected.append(record)
        emit(record)

    adapter = plan_.recipe.build()
    info = adapter.start()
    plan_.cases = narrow_star(plan_.cases, info.rulesets, config.selection.ruleset)
    head = header_for(config, plan_, adapter, info)
    keep(head)
    if started is not None:
        started(head)
    progress = Progress()
    try:
        with corpus_frozen():
            if config.jobs > 1:
                adapter.stop()
                progress = run_parallel(plan_.recipe, info, plan_.cases, plan_.options, config.jobs, keep)
            else:
                progress = run_cases(adapter, info, plan_.cases, plan_.options, keep)
    finally:
        try:
            adapter.stop()
        except KeyboardInterrupt:  # a second Ctrl-C while stopping: still write the footer
            progress.interrupted = True
    progress.late_twice.extend(late_duplicates(adapter))  # the last answer, repeated before stop's
    if progress.late_twice:
        rejudge_late(collected, progress.late_twice, plan_.cases, plan_.options, info)
        if rejudged is not None:
            rejudged()
    results = [r for r in collected if r["type"] == "result"]
    keep(records.footer(results, progress.interrupted, progress.stopped_early))
    return collected
