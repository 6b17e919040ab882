"""Aggregation shared by every renderer: counts per status, per kind and per article.

A report is a list of records (see ``docs/harness.md``): one ``header``, one ``result``
per fixture × ruleset, one ``footer``. :func:`summarize` turns that list into plain data;
the terminal, JUnit, HTML and Markdown renderers only format it, and the matrix scores
its cells with the same :func:`fixture_verdicts`.

Compliance (documented in ``docs/reports.md``)::

    applicable = total - unsupported
    judged     = applicable - skipped          (skipped: the adapter declined it)
    conforming = passed + xpassed
    compliance = conforming / judged           (undefined when nothing was judged)

so errors, failures and expected failures count against an implementation; what it
never claimed (``unsupported``) is left out, and what it declined (``skipped``) is not
judged either way: neither a pass nor a failure, it is counted and shown beside every
figure (``declined``), and it keeps the verdict from "all expectations met".

Per fixture (the headline): a fixture is judged when one of its results was, and
conforms when every judged result conforms (it passes under every ruleset it ran
under); a fixture whose applicable results were all declined is *declined*. A fixture
that names two rulesets runs twice; per fixture it is counted once.

A run whose answers all met their expectations is still not "all expectations met"
while any result was not judged (``skipped``), shards of a merged report are missing,
or the run was cut short: :meth:`Summary.verdict` says which.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from functools import lru_cache

from conformance.harness.records import BAD_STATUSES, STATUSES
from reference_impl.errors import ArbiterError
from reference_impl.rules import articles, list_rulesets

from .classes import FailureClass, Grouping, classify

#: statuses that mean "an expectation was not met" (the run exits 1 if any occur)
PROBLEM_STATUSES: frozenset[str] = BAD_STATUSES
#: statuses in which the implementation's answer matched the fixture
CONFORMING_STATUSES: frozenset[str] = frozenset({"passed", "xpassed"})
#: results that do not enter the compliance denominator
NOT_APPLICABLE_STATUSES: frozenset[str] = frozenset({"unsupported"})
#: results sent to the adapter but not judged: it declined them (``--strict`` exits 1)
NOT_JUDGED_STATUSES: frozenset[str] = frozenset({"skipped"})
_KNOWN_STATUSES: frozenset[str] = frozenset(STATUSES)
#: column headings used by the renderers, in :data:`STATUSES` order
STATUS_LABELS: dict[str, str] = {
    "passed": "passed", "failed": "failed", "errored": "errored",
    "skipped": "skipped", "unsupported": "unsupported",
    "xfailed": "xfail", "xpassed": "xpass",
}

Record = Mapping[str, Any]


@dataclass
class Tally:
    """Counts of results per status for one group (all, a kind, an article)."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))

    def add(self, status: str) -> None:
        """Count one result under ``status`` (one of :data:`STATUSES`)."""
        self.counts[status] += 1

    @property
    def total(self) -> int:
        """Number of results in the group."""
        return sum(self.counts.values())

    @property
    def applicable(self) -> int:
        """Results the implementation declared it supports (total − unsupported)."""
        return self.total - sum(self.counts[s] for s in NOT_APPLICABLE_STATUSES)

    @property
    def conforming(self) -> int:
        """Results whose answer matched the fixture (passed + xpassed)."""
        return sum(self.counts[s] for s in CONFORMING_STATUSES)

    @property
    def problems(self) -> int:
        """Results that break the run's expectations (failed + errored + xpassed)."""
        return sum(self.counts[s] for s in PROBLEM_STATUSES)

    @property
    def not_judged(self) -> int:
        """Results the adapter was sent but declined (skipped)."""
        return sum(self.counts[s] for s in NOT_JUDGED_STATUSES)

    @property
    def judged(self) -> int:
        """Results whose answer was compared with the expectation (applicable − not judged)."""
        return self.applicable - self.not_judged

    @property
    def compliance(self) -> float | None:
        """conforming / judged, or None when nothing was judged (declined results left out)."""
        return self.conforming / self.judged if self.judged else None


#: A fixture's verdict (:func:`fixture_verdicts`).
FIXTURE_VERDICTS: tuple[str, ...] = ("conforms", "fails", "declined")


@dataclass
class FixtureScore:
    """Compliance per fixture (:func:`fixture_verdicts`): judged fixtures that conform."""

    conforming: int = 0
    judged: int = 0
    declined: int = 0  #: fixtures whose applicable results were all declined (skipped)

    @property
    def applicable(self) -> int:
        """Fixtures with a result the adapter declared (judged or declined)."""
        return self.judged + self.declined

    @property
    def failing(self) -> int:
        """Judged fixtures with a result that did not conform."""
        return self.judged - self.conforming

    @property
    def compliance(self) -> float | None:
        """conforming / judged fixtures, or None when no fixture was judged."""
        return self.conforming / self.judged if self.judged else None

    def add(self, verdict: str) -> None:
        """Count one fixture's verdict (one of :data:`FIXTURE_VERDICTS`)."""
        if verdict == "declined":
            self.declined += 1
        else:
            self.judged += 1
            self.conforming += verdict == "conforms"


def fixture_verdicts(results: Iterable[Record]) -> dict[tuple[str, str], str]:
    """(kind, id) -> ``conforms``, ``fails`` or ``declined``, for every fixture with an
    applicable result, in the order fixtures first appear (whatever the order of its
    results): ``fails`` if a judged result did not conform, ``conforms`` if one was
    judged and all judged ones conform, ``declined`` if all were declined."""
    verdicts: dict[tuple[str, str], str] = {}
    for result in results:
        status = status_of(result)
        if status in NOT_APPLICABLE_STATUSES:
            continue
        key = (str(result.get("kind")), str(result.get("id")))
        if status in NOT_JUDGED_STATUSES:
            verdicts.setdefault(key, "declined")
        elif status in CONFORMING_STATUSES:
            if verdicts.get(key, "declined") == "declined":
                verdicts[key] = "conforms"
        else:
            verdicts[key] = "fails"
    return verdicts


@dataclass
class Verdict:
    """The one-line conclusion every renderer prints; ``good`` only when nothing is amiss."""

    good: bool
    text: str


@dataclass
class Problem:
    """One unmet expectation, shown once for all the rulesets where it is identical."""

    result: dict[str, Any]  #: the first result record of the group
    rulesets: list[str]  #: every ruleset with the same status, answer and message

    @property
    def count(self) -> int:
        """Number of result records in the group."""
        return len(self.rulesets)


def group_problems(problems: Iterable[Record]) -> list[Problem]:
    """Merge results that differ only by ruleset (same id, status, expect, actual, message).

    Groups keep the order of their first result.
    """
    groups: dict[tuple[str, ...], Problem] = {}
    for result in problems:
        key = (str(result.get("id")), str(result.get("status")), compact(result.get("expect")),
               compact(result.get("actual")), str(result.get("message")))
        group = groups.get(key)
        if group is None:
            groups[key] = Problem(dict(result), [str(result.get("ruleset"))])
        else:
            group.rulesets.append(str(result.get("ruleset")))
    return list(groups.values())


def ruleset_list(rulesets: list[str], limit: int = 3) -> str:
    """``a, b, c`` or ``a, b, +4 more`` for a problem's rulesets."""
    if len(rulesets) <= limit:
        return ", ".join(rulesets)
    return ", ".join(rulesets[: limit - 1]) + f", +{len(rulesets) - limit + 1} more"


def spread(problems: list[Problem], limit: int) -> list[Problem]:
    """Up to ``limit`` problems taken in turn from each kind, in report order.

    A report dominated by one kind still shows examples of every other kind.
    """
    by_kind: dict[str, list[Problem]] = {}
    for problem in problems:
        by_kind.setdefault(str(problem.result.get("kind")), []).append(problem)
    chosen: set[int] = set()
    queues = [iter(group) for group in by_kind.values()]
    while len(chosen) < min(limit, len(problems)):
        for queue in queues:
            found = next(queue, None)
            if found is not None and len(chosen) < limit:
                chosen.add(id(found))
    return [p for p in problems if id(p) in chosen]


@dataclass
class Summary:
    """Everything a renderer needs, derived from the record list alone."""

    header: dict[str, Any]
    footer: dict[str, Any] | None
    results: list[dict[str, Any]]
    overall: Tally
    by_kind: dict[str, Tally]
    by_ruleset: dict[str, Tally]
    by_article: dict[str, Tally]
    problems: list[dict[str, Any]]
    fixtures: FixtureScore = field(default_factory=FixtureScore)
    not_judged: list[dict[str, Any]] = field(default_factory=list)
    _classes: list[FailureClass] | None = field(default=None, repr=False)

    @property
    def problem_groups(self) -> list[Problem]:
        """The problems with identical failures under several rulesets merged."""
        return group_problems(self.problems)

    @property
    def classes(self) -> list[FailureClass]:
        """The problems grouped by cause (:mod:`.classes`), largest first; computed once."""
        if self._classes is None:
            self._classes = classify(self.problems)
        return self._classes

    def classes_by(self, by: Grouping) -> list[FailureClass]:
        """The problems grouped by ``cause`` or by ``cite``, largest first."""
        return self.classes if by == "cause" else classify(self.problems, by=by)

    @property
    def skip_reasons(self) -> list[FailureClass]:
        """The results not judged, grouped by kind and reason signature, largest first."""
        return classify(self.not_judged, by="reason")

    @property
    def missing_shards(self) -> list[str]:
        """Shards (``K/N``) absent from a merged report (``arbiter run merge``)."""
        selection = self.header.get("selection")
        missing = selection.get("missing_shards") if isinstance(selection, Mapping) else None
        return [str(m) for m in missing] if isinstance(missing, list) else []

    @property
    def ok(self) -> bool:
        """True when no expectation was unmet (the harness's exit status 0 without --strict)."""
        return self.overall.problems == 0

    @property
    def complete(self) -> bool:
        """True when every result was judged, no shard is missing and the run finished."""
        return not self.not_judged and not self.missing_shards and not self.interrupted

    def verdict(self) -> Verdict:
        """``all expectations met`` only when ok and complete; otherwise what is amiss."""
        problems, skipped = self.overall.problems, len(self.not_judged)
        gaps = []
        if skipped:
            gaps.append(f"{skipped} result{'s' if skipped != 1 else ''} not judged (skipped)")
        if self.missing_shards:
            gaps.append(f"shard{'s' if len(self.missing_shards) != 1 else ''} "
                        f"{', '.join(self.missing_shards)} missing")
        if self.interrupted:
            gaps.append("the run did not finish")
        if problems:
            text = f"{problems} unmet expectation{'s' if problems != 1 else ''}"
            return Verdict(False, "; ".join([text, *gaps]))
        if gaps:
            return Verdict(False, "no unmet expectation, but " + "; ".join(gaps))
        return Verdict(True, "all expectations met")

    def exit_status(self, strict: bool = False) -> int:
        """1 when an expectation was unmet, or (``strict``) anything was left unjudged."""
        if not self.ok or (strict and not self.complete):
            return 1
        return 0

    @property
    def interrupted(self) -> bool:
        """True when the run was cut short (Ctrl-C) or the report has no footer."""
        return self.footer is None or bool(self.footer.get("interrupted"))


def headline(summary: Summary, verbose: bool = False, hint: str = "") -> list[str]:
    """The summary's first lines, the same in every renderer: per fixture first, then per
    result, then (unless ``verbose``, which counts them with the rest) how many results
    were of kinds or rulesets the adapter does not declare, with ``hint`` after it."""
    fixtures, overall = summary.fixtures, summary.overall
    if fixtures.judged:
        first = (f"per fixture {percent(fixtures.compliance)}: {fixtures.conforming} of {fixtures.judged} "
                 f"fixture{'s' if fixtures.judged != 1 else ''} judged pass under every ruleset they ran under")
    else:
        first = "per fixture -: no fixture judged"
    if fixtures.declined:
        first += f"; {fixtures.declined} declined (not judged)"
    shown = [s for s in STATUSES if overall.counts[s] and (verbose or s not in NOT_APPLICABLE_STATUSES)]
    counts = ", ".join(f"{overall.counts[s]} {STATUS_LABELS[s]}" for s in shown)
    total = overall.total if verbose else overall.applicable
    each = " (one per fixture and ruleset)" if overall.judged > fixtures.judged else ""
    second = (f"per result {percent(overall.compliance)}: {overall.conforming} of {overall.judged} "
              f"judged{each}; {total} result{'s' if total != 1 else ''}: {counts or 'none'}")
    lines = [first, second]
    unsupported = sum(overall.counts[s] for s in NOT_APPLICABLE_STATUSES)
    if unsupported and not verbose:
        lines.append(f"{unsupported} result{'s' if unsupported != 1 else ''} of kinds or rulesets "
                     f"the adapter does not declare left out (unsupported{hint})")
    return lines


def status_columns(summary: Summary, verbose: bool = False) -> list[str]:
    """Status columns worth a table: ``passed`` always, the others that occur, and
    ``unsupported`` only when ``verbose`` (a row's total is then the sum of its columns)."""
    return [s for s in STATUSES if s == "passed" or (summary.overall.counts[s]
                                                      and (verbose or s not in NOT_APPLICABLE_STATUSES))]


def shown_groups(groups: Mapping[str, Tally], verbose: bool = False) -> dict[str, Tally]:
    """The rows of a table per kind or ruleset worth printing: all with ``verbose``,
    else those with an applicable result (not only ``unsupported`` ones)."""
    return {name: tally for name, tally in groups.items() if verbose or tally.applicable}


def _natural_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """Sort key putting ``fide-2023:3.10`` after ``fide-2023:3.9``."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.split(r"[.:]", text))


def status_of(result: Record) -> str:
    """A result's status; anything not in :data:`STATUSES` counts as ``errored``."""
    status = result.get("status")
    return status if isinstance(status, str) and status in _KNOWN_STATUSES else "errored"


def cites_of(result: Record) -> list[str]:
    """A result's cited article ids (an ill-formed ``cites`` field counts as none)."""
    cites = result.get("cites")
    return [str(c) for c in cites] if isinstance(cites, list) else []


def seconds_of(result: Record) -> float:
    """A result's duration in seconds (0 when missing or not a number)."""
    value = result.get("duration_ms")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return max(float(value), 0.0) / 1000


def _group(groups: dict[str, Tally], name: str) -> Tally:
    tally = groups.get(name)
    if tally is None:
        tally = groups[name] = Tally()
    return tally


def summarize(records: Iterable[Record]) -> Summary:
    """Aggregate a report's records; result records keep their original order."""
    header: dict[str, Any] = {}
    footer: dict[str, Any] | None = None
    results: list[dict[str, Any]] = []
    overall = Tally()
    by_kind: dict[str, Tally] = {}
    by_ruleset: dict[str, Tally] = {}
    by_article: dict[str, Tally] = {}
    problems: list[dict[str, Any]] = []
    not_judged: list[dict[str, Any]] = []
    for record in records:
        kind_of_record = record.get("type")
        if kind_of_record == "header":
            header = dict(record)
        elif kind_of_record == "footer":
            footer = dict(record)
        elif kind_of_record == "result":
            result = dict(record)
            results.append(result)
            status = status_of(result)
            if status in PROBLEM_STATUSES:
                problems.append(result)
            elif status in NOT_JUDGED_STATUSES:
                not_judged.append(result)
            overall.add(status)
            _group(by_kind, str(result.get("kind"))).add(status)
            _group(by_ruleset, str(result.get("ruleset"))).add(status)
            for cite in cites_of(result):
                if article_applies(cite, str(result.get("ruleset"))):
                    _group(by_article, cite).add(status)
    return Summary(
        header=header,
        footer=footer,
        results=results,
        overall=overall,
        by_kind=dict(sorted(by_kind.items())),
        by_ruleset=dict(sorted(by_ruleset.items())),
        by_article=dict(sorted(((a, t) for a, t in by_article.items() if t.judged),
                               key=lambda kv: _natural_key(kv[0]))),
        problems=problems,
        fixtures=_score(fixture_verdicts(results).values()),
        not_judged=not_judged,
    )


def _score(verdicts: Iterable[str]) -> FixtureScore:
    score = FixtureScore()
    for verdict in verdicts:
        score.add(verdict)
    return score


@lru_cache(maxsize=1)
def ruleset_documents() -> dict[str, frozenset[str]]:
    """Built-in ruleset id -> the documents its rule entries cite (``fide-2023``, ``uscf-7``, ...)."""
    return {r.id: frozenset(_documents(r.data)) for r in list_rulesets()}


def _documents(data: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(data, Mapping):
        for key, value in data.items():
            if key == "cite":
                cites = value if isinstance(value, list) else [value]
                found.update(str(c).split(":")[0] for c in cites if isinstance(c, str))
            else:
                found |= _documents(value)
    elif isinstance(data, list):
        for item in data:
            found |= _documents(item)
    return found


def article_applies(cite: str, ruleset: str) -> bool:
    """Whether a result under ``ruleset`` is scored for the article ``cite``.

    An article of a document that some built-in ruleset's tables cite (a federation's
    Laws: ``fide-2023``, ``uscf-7``, ...) is scored only from rulesets whose tables cite
    that document; a ``uscf-7:14E`` row is not filled from fide results. Other documents
    (``pgn``, ``fen``, ``uci``) apply under every ruleset, and so does every article
    under a ruleset the spec does not know.
    """
    return _document_applies(cite.split(":")[0], ruleset)


@lru_cache(maxsize=1024)
def _document_applies(document: str, ruleset: str) -> bool:
    """:func:`article_applies` for an article of ``document`` (asked once per result and
    cite: kept by document and ruleset)."""
    table = ruleset_documents()
    if ruleset not in table:
        return True
    owned = frozenset().union(*table.values())
    return document not in owned or document in table[ruleset]


def percent(value: float | None) -> str:
    """Format a compliance ratio as ``97.3%`` (``-`` when undefined)."""
    if value is None:
        return "-"
    text = f"{100 * value:.1f}%"
    # never round a non-perfect score up to 100.0%
    return "99.9%" if text == "100.0%" and value < 1 else text


def article_title(article_id: str) -> str | None:
    """The registry title of an article id, or None if the registry does not know it."""
    try:
        title = articles.article_title(article_id)
    except (ArbiterError, LookupError, ValueError, OSError):
        return None  # an unknown id or a broken registry file: show the bare id
    return str(title) if title else None


def compact(value: Any) -> str:
    """One-line JSON for an expected or actual answer (``null`` for None)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def move_difference(result: Record) -> tuple[list[str], list[str]] | None:
    """For a move-list answer: (moves expected but missing, moves answered but not expected).

    None when the result does not hold move lists on both sides.
    """
    expect, actual = result.get("expect"), result.get("actual")
    if not isinstance(expect, Mapping) or not isinstance(actual, Mapping):
        return None
    want, got = expect.get("moves"), actual.get("moves")
    if not isinstance(want, list) or not isinstance(got, list):
        return None
    want_set, got_set = {str(m) for m in want}, {str(m) for m in got}
    return sorted(want_set - got_set), sorted(got_set - want_set)


def describe_adapter(header: Record) -> str:
    """``name version (spec)`` from a report header, for titles."""
    adapter = header.get("adapter") or {}
    if not isinstance(adapter, Mapping):
        return str(adapter)
    parts = [str(adapter.get("name") or "unknown")]
    if adapter.get("version"):
        parts.append(str(adapter["version"]))
    if adapter.get("spec") and adapter.get("spec") != adapter.get("name"):
        parts.append(f"({adapter['spec']})")
    return " ".join(parts)
