"""The report records: plain dicts, one JSON object per line (JSON Lines).

A report is a header, one ``result`` record per fixture and ruleset, and a footer.
Renderers (``conformance.harness.reports``) consume the list of records; the format is
documented in ``docs/harness.md`` and ``conformance/schema/report.schema.json``.
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from collections.abc import Iterable
from typing import Any

from conformance import __version__ as HARNESS_VERSION

from conformance.adapters.base import PROTOCOL_VERSION

#: Every status a result can have, in report order.
STATUSES: tuple[str, ...] = (
    "passed",
    "failed",
    "errored",
    "skipped",
    "unsupported",
    "xfailed",
    "xpassed",
)
#: Statuses that make ``arbiter run`` exit 1.
BAD_STATUSES: frozenset[str] = frozenset({"failed", "errored", "xpassed"})

Record = dict[str, Any]


def now() -> str:
    """The current UTC time, ISO 8601 with seconds."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def header(
    adapter: dict[str, Any],
    corpus_revision: str | None,
    argv: list[str],
    selection: dict[str, Any],
    started: str | None = None,
) -> Record:
    """The first record: what ran, against what, chosen how.

    ``adapter`` is ``{"name", "version", "spec"}`` plus optional ``capabilities``
    and ``rulesets`` as the adapter declared them.
    """
    return {
        "type": "header",
        "harness_version": HARNESS_VERSION,
        "protocol_version": PROTOCOL_VERSION,
        "corpus_revision": corpus_revision,
        "adapter": adapter,
        "started": started or now(),
        "argv": list(argv),
        "selection": selection,
    }


def result(
    fixture: dict[str, Any],
    ruleset: str,
    status: str,
    expect: dict[str, Any] | None,
    actual: dict[str, Any] | None,
    message: str | None,
    duration_ms: float,
) -> Record:
    """One fixture run under one ruleset (with the fixture's description, if it has one)."""
    described = {"description": str(fixture["description"])} if fixture.get("description") else {}
    return {
        "type": "result",
        "id": fixture["id"],
        "kind": fixture["kind"],
        **described,
        "ruleset": ruleset,
        "cites": list(fixture.get("cites", [])),
        "tags": list(fixture.get("tags", [])),
        "status": status,
        "expect": expect,
        "actual": actual,
        "message": message,
        "input": fixture.get("input", {}),
        "duration_ms": round(duration_ms, 3),
    }


def count(records: Iterable[Record]) -> dict[str, int]:
    """Result records counted by status (every status present, zeros included)."""
    counts = Counter(r["status"] for r in records if r.get("type") == "result")
    return {status: counts.get(status, 0) for status in STATUSES}


def footer(
    results: Iterable[Record], interrupted: bool, fail_fast: bool, finished: str | None = None
) -> Record:
    """The last record: counts by status, and whether the run stopped early."""
    return {
        "type": "footer",
        "counts": count(results),
        "interrupted": interrupted,
        "fail_fast": fail_fast,
        "finished": finished or now(),
    }


def exit_status(records: Iterable[Record]) -> int:
    """0 if every expectation was met, 1 if any result failed, errored or xpassed."""
    return 1 if any(r.get("status") in BAD_STATUSES for r in records if r.get("type") == "result") else 0
