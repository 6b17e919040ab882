"""Run each mutant of a ruleset against the fixtures that can notice it.

A mutant is built with :func:`reference_impl.rules.derive_ruleset` (the ``extends``
merge and the full validation: an invalid mutant is reported with its reason) and
answered by the reference adapter's handlers in this process. It is **killed** by the
first fixture it fails or errors on that the unchanged ruleset passes; fixtures run
cheapest kind first, and only the kinds its section can change (:data:`SECTION_KINDS`).
With ``jobs > 1`` mutants go to worker processes, each with its own analysis caches.
No printing here: each result goes to an ``emit`` callback.
"""

from __future__ import annotations

import json
import multiprocessing
import signal
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from reference_impl.errors import RulesetError
from reference_impl.rules import Ruleset, derive_ruleset, load_ruleset, spec_dir

from conformance.adapters.base import KINDS, Adapter, StartInfo
from conformance.implementations.reference import HANDLERS
from conformance.harness import fixtures as fixture_files
from conformance.harness.rulesets import orthodox_rulesets
from conformance.harness.runner import execute, judge
from conformance.harness.select import Case, Selection, expand
from .exempt import mark
from .mutants import Mutant, dotted, generate, overrides
from .schema_view import SchemaView

#: Kinds in the order a mutant meets them: cheap answers first, searches last.
KIND_ORDER: tuple[str, ...] = (
    "validate_fen", "status", "legal_moves", "apply_moves", "start_position", "san", "parse_san",
    "to_notation", "from_notation", "perft", "game_end", "game", "dead_position", "timeout",
)
#: The kinds a change in each top-level section can alter; a section not listed may alter
#: any kind. The move layer decides every answer; the adjudication tables only rulings.
ADJUDICATION_KINDS = ("game_end", "game", "dead_position", "timeout")
SECTION_KINDS: dict[str, tuple[str, ...]] = {
    "termination": ADJUDICATION_KINDS,
    "repetition": ADJUDICATION_KINDS,
    "move_rule": ADJUDICATION_KINDS,
    "flag_fall": ADJUDICATION_KINDS,
    "illegal_moves": ADJUDICATION_KINDS,
    "touch_move": ADJUDICATION_KINDS,
    "clocks": ADJUDICATION_KINDS,
    "speed": ADJUDICATION_KINDS,
}
#: Analyses the unwinnability cache keeps while mutants run: every survivor asks the
#: dead-position and flag-fall questions of the unchanged ruleset again, and game_end's
#: per-move checks must not push those answers out (the default keeps 8,192).
ANALYSIS_CACHE_ENTRIES = 1 << 18
#: Record statuses of a fixture that noticed the change.
NOTICED = ("failed", "errored")

STATUSES = ("killed", "survived", "equivalent", "invalid")


@dataclass(frozen=True)
class Result:
    """What became of one mutant: ``status`` is one of :data:`STATUSES`; ``fixture`` the
    killing fixture's id; ``detail`` its message, the invalid mutant's reason or the
    equivalence reason; ``fixtures`` how many fixtures it ran."""

    ruleset: str
    mutant: Mutant
    status: str
    fixture: str | None = None
    detail: str | None = None
    fixtures: int = 0

    def as_record(self) -> dict[str, Any]:
        """One JSON Lines record."""
        m = self.mutant
        return {"type": "mutant", "ruleset": self.ruleset, "path": m.where, "entry": dotted(m.entry),
                "cite": m.cite, "mutation": m.mutation, "value": m.value, "status": self.status,
                "fixture": self.fixture, "detail": self.detail, "fixtures_run": self.fixtures}


def kinds_for(mutant: Mutant, only: Sequence[str] = ()) -> tuple[str, ...]:
    """The kinds that can notice ``mutant`` (within ``only`` when given), cheapest first."""
    able = SECTION_KINDS.get(str(mutant.path[0]), KIND_ORDER)
    return tuple(k for k in KIND_ORDER if k in able and (not only or k in only))


def schema_view() -> SchemaView:
    """The ruleset schema of the current spec directory."""
    directory = spec_dir() / "schema"
    return SchemaView({p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.schema.json"))})


def mutants_of(ruleset: Ruleset, only: Sequence[str] = ()) -> list[Mutant]:
    """Every mutant of ``ruleset`` that a fixture of the kinds ``only`` could notice
    (equivalent with the reason when :data:`.exempt.EXEMPTIONS` covers it)."""
    return [mark(m, ruleset.data) for m in generate(ruleset.data, schema_view()) if kinds_for(m, only)]


class MutantAdapter(Adapter):
    """The reference adapter's handlers with one in-memory ruleset."""

    spec = "reference"

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    def start(self) -> StartInfo:
        return StartInfo("arbiter-reference", "mutant", list(HANDLERS), [self.rules.id])

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        return HANDLERS[kind](self.rules, input)  # type: ignore[arg-type]  # a Ruleset loads as itself


@dataclass
class Judge:
    """The fixtures of one ruleset and the unchanged ruleset's verdict on each (lazily)."""

    ruleset: Ruleset
    cases: list[Case]
    timeout: float | None = None
    baseline: dict[int, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        rank = {kind: i for i, kind in enumerate(KIND_ORDER)}
        self.by_kind: dict[str, list[tuple[int, Case]]] = {}
        for index, case in sorted(enumerate(self.cases), key=lambda p: (rank.get(p[1].kind, len(rank)), p[0])):
            self.by_kind.setdefault(case.kind, []).append((index, case))
        self.base_adapter = MutantAdapter(self.ruleset)
        _keep_analyses(ANALYSIS_CACHE_ENTRIES)

    def verdict(self, adapter: Adapter, case: Case) -> dict[str, Any]:
        return judge(case, execute(adapter, case, self.timeout), None)

    def passes_unchanged(self, index: int, case: Case) -> bool:
        """Whether the unchanged ruleset passes the case (only such a case can kill)."""
        if index not in self.baseline:
            self.baseline[index] = self.verdict(self.base_adapter, case)["status"] == "passed"
        return self.baseline[index]

    def run(self, mutant: Mutant, only: Sequence[str] = ()) -> Result:
        """Build the mutant and run it until a fixture notices."""
        name = self.ruleset.id
        if mutant.equivalent:
            return Result(name, mutant, "equivalent", detail=mutant.equivalent)
        try:
            rules = derive_ruleset(self.ruleset, overrides(self.ruleset.data, mutant), id=name)
        except RulesetError as error:
            return Result(name, mutant, "invalid", detail=str(error))
        adapter = MutantAdapter(rules)
        ran = 0
        for kind in kinds_for(mutant, only):
            for index, case in self.by_kind.get(kind, []):
                ran += 1
                record = self.verdict(adapter, case)
                if record["status"] in NOTICED and self.passes_unchanged(index, case):
                    return Result(name, mutant, "killed", case.id, str(record.get("message")), ran)
        return Result(name, mutant, "survived", fixtures=ran)


def _keep_analyses(entries: int) -> None:
    """Let the unwinnability analysis cache hold at least ``entries`` answers."""
    from reference_impl import unwinnability

    unwinnability.set_cache_size(entries)


def cases_of(ruleset: str, fixture_paths: Sequence[str] = (), kinds: Sequence[str] = ()) -> list[Case]:
    """The fixtures that run under ``ruleset`` (``"*"`` ones included when it is orthodox)."""
    corpus = fixture_files.load(list(fixture_paths) or None)
    return expand(corpus.fixtures, Selection(kind=list(kinds), ruleset=[ruleset]), orthodox_rulesets())


_worker: dict[str, Any] = {}


def _init_worker(ruleset: str, fixture_paths: Sequence[str], kinds: Sequence[str], timeout: float | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process handles Ctrl-C
    _worker["judge"] = Judge(load_ruleset(ruleset), cases_of(ruleset, fixture_paths, kinds), timeout)
    _worker["kinds"] = tuple(kinds)


def _run_in_worker(mutant: Mutant) -> Result:
    return _worker["judge"].run(mutant, _worker["kinds"])


def run(
    ruleset: str,
    mutants: Iterable[Mutant],
    emit: Callable[[Result], None],
    *,
    fixture_paths: Sequence[str] = (),
    kinds: Sequence[str] = (),
    jobs: int = 1,
    timeout: float | None = None,
) -> None:
    """Judge every mutant; results go to ``emit`` as they come (in order with one job).
    Ctrl-C stops the workers and propagates as KeyboardInterrupt after what is done."""
    todo = list(mutants)
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise ValueError(f"unknown kinds {unknown}")
    if jobs <= 1:
        judge_ = Judge(load_ruleset(ruleset), cases_of(ruleset, fixture_paths, kinds), timeout)
        for mutant in todo:
            emit(judge_.run(mutant, kinds))
        return
    context = multiprocessing.get_context()
    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                                   initargs=(ruleset, tuple(fixture_paths), tuple(kinds), timeout))
    interrupted = False
    try:
        pending: set[Future[Result]] = {executor.submit(_run_in_worker, m) for m in todo}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                emit(future.result())
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        if interrupted:
            for process in list(getattr(executor, "_processes", {}).values()):
                process.terminate()
            executor.shutdown(wait=True)
        else:
            executor.shutdown(wait=True, cancel_futures=True)
