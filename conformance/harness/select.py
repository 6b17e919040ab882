"""Turn fixtures into cases (fixture x ruleset), filter them, and shard them (pure).

Filters of one kind are alternatives (``--tag a --tag b``: either tag); different
filters must all hold; ``--exclude-tag`` removes fixtures after the others select. Globs use shell syntax (``perft.*``). Sharding assigns each
fixture, with all its rulesets, to shard ``hash(id) mod N``, so the shards of a run
partition it whatever the corpus order, and a fixture never changes shard when other
fixtures are added.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from reference_impl.errors import UsageError

from .fixtures import Fixture, expectation

STAR = "*"


@dataclass(frozen=True)
class Case:
    """One fixture under one ruleset, with the expectation for that ruleset.

    ``expected_as`` is set when the ruleset is a file that borrows the fixtures of a
    built-in ruleset: the one whose expectation ``expect`` is.
    """

    fixture: Fixture
    ruleset: str
    expect: dict[str, Any] | None
    expected_as: str | None = None

    @property
    def id(self) -> str:
        return str(self.fixture["id"])

    @property
    def kind(self) -> str:
        return str(self.fixture["kind"])


@dataclass
class Selection:
    """What the user asked to run. Empty lists select everything."""

    kind: list[str] = field(default_factory=list)
    ruleset: list[str] = field(default_factory=list)
    tag: list[str] = field(default_factory=list)
    id: list[str] = field(default_factory=list)
    cite: list[str] = field(default_factory=list)
    shard: tuple[int, int] | None = None
    exclude_tag: list[str] = field(default_factory=list)

    def as_record(self) -> dict[str, Any]:
        """The selection as it goes into the report header."""
        data = asdict(self)
        data["shard"] = f"{self.shard[0]}/{self.shard[1]}" if self.shard else None
        return data


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/5"`` -> ``(2, 5)``; K counts from 1."""
    try:
        k_text, n_text = text.split("/")
        k, n = int(k_text), int(n_text)
    except ValueError:
        raise UsageError(f"--shard expects K/N (for example 1/4), got {text!r}") from None
    if n < 1 or not 1 <= k <= n:
        raise UsageError(f"--shard {text}: need 1 <= K <= N")
    return k, n


def missing_shards(labels: Sequence[str | None]) -> list[str]:
    """The shards ``K/N`` absent from reports labelled ``labels`` (each ``"K/N"`` or None).

    A report of a whole run (None, or no ``K/N`` label) leaves nothing missing;
    otherwise every N seen must have all of its K, so ``1/3`` and ``3/3`` lack ``2/3``.
    """
    seen: set[tuple[int, int]] = set()
    for label in labels:
        try:
            seen.add(parse_shard(str(label)))
        except UsageError:
            return []
    if not seen:
        return []
    counts = sorted({n for _, n in seen})
    return [f"{k}/{n}" for n in counts for k in range(1, n + 1) if (k, n) not in seen]


def shard_of(fixture_id: str, count: int) -> int:
    """The shard (1..count) a fixture id belongs to."""
    digest = hashlib.sha256(fixture_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def fixture_matches(fixture: Fixture, selection: Selection) -> bool:
    """Whether a fixture passes the kind, tag, id, cite and shard filters."""
    if selection.kind and fixture["kind"] not in selection.kind:
        return False
    if selection.tag and not set(fixture.get("tags", [])) & set(selection.tag):
        return False
    if selection.exclude_tag and set(fixture.get("tags", [])) & set(selection.exclude_tag):
        return False
    if selection.id and not any(fnmatchcase(fixture["id"], g) for g in selection.id):
        return False
    if selection.cite and not any(
        fnmatchcase(c, g) for c in fixture.get("cites", []) for g in selection.cite
    ):
        return False
    if selection.shard and shard_of(fixture["id"], selection.shard[1]) != selection.shard[0]:
        return False
    return True


def expand(
    fixtures: Iterable[Fixture], selection: Selection, star: Sequence[str],
    borrowed: Mapping[str, str] | None = None,
) -> list[Case]:
    """Every selected fixture once per ruleset, in corpus order.

    ``star`` is what ``"*"`` stands for (see :mod:`conformance.harness.rulesets`).
    ``borrowed`` maps a ruleset file's id to the built-in ruleset whose fixtures it runs:
    a fixture of that ruleset also runs under the file's id, with that ruleset's
    expectation, unless the fixture names the file's id itself.
    """
    cases: list[Case] = []
    wanted = set(selection.ruleset)
    lenders: dict[str, list[str]] = {}
    for file_id, lender in (borrowed or {}).items():
        lenders.setdefault(lender, []).append(file_id)
    for fixture in fixtures:
        if not fixture_matches(fixture, selection):
            continue
        seen: set[str] = set()
        named = fixture["rulesets"]
        for entry in named:
            for ruleset in star if entry == STAR else (entry,):
                runs: list[tuple[str, str | None]] = [(ruleset, None)]
                runs += [(f, ruleset) for f in lenders.get(ruleset, ()) if f not in named]
                for run_as, lent_by in runs:
                    if run_as in seen or (wanted and run_as not in wanted):
                        continue
                    seen.add(run_as)
                    cases.append(Case(fixture, run_as, expectation(fixture, lent_by or run_as), lent_by))
    return cases


def narrow_star(cases: list[Case], declared: Sequence[str], selected: Sequence[str] = ()) -> list[Case]:
    """Run each ``"*"`` fixture once, under one orthodox ruleset the adapter plays.

    ``"*"`` means "any orthodox ruleset: the answer is the same under each", so running
    it under every one would repeat identical work. It runs under the first ruleset of
    the ``"*"`` order (``fide-2023`` first) that the adapter declares, or, when the
    user selected rulesets (``--ruleset``), under each selected one the adapter plays.
    A ruleset a fixture names explicitly always stays (and is reported ``unsupported``
    if the adapter lacks it), and so does a ruleset file borrowing such a ruleset.
    """
    plays_all = STAR in declared
    playing = set(declared)
    kept: list[Case] = []
    chosen: dict[str, str] = {}
    for case in cases:
        named = case.fixture["rulesets"]
        if case.ruleset in named or (case.expected_as is not None and case.expected_as in named):
            kept.append(case)
            continue
        if not (plays_all or case.ruleset in playing):
            continue
        if selected:
            kept.append(case)
            continue
        first = chosen.setdefault(case.id, case.ruleset)
        if first == case.ruleset:
            kept.append(case)
    return kept
