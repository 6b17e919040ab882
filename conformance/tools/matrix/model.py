"""One matrix row per implementation, from its report records (pure).

A cell is the per-fixture compliance of one kind, scored as every summary scores it
(:func:`~conformance.harness.reports.summary.fixture_verdicts`): a fixture conforms when every
judged result it has (one per ruleset) passed; a fixture the adapter declined
(``skipped`` under every ruleset) is not judged and is counted apart as declined;
one it never declared (``unsupported``) is left out. A row's failure classes are its
report's classes by cause, each with the results it holds (:attr:`Row.members`) so a
page can draw their boards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.adapters.base import KINDS
from conformance.harness.reports.classes import FailureClass, classify
from conformance.harness.reports.findings import smallest
from conformance.harness.reports.summary import PROBLEM_STATUSES, fixture_verdicts

#: Classes kept per implementation in the outputs (the rest are counted).
MAX_CLASSES = 40
#: Results kept per class for its boards: the smallest failing fixture and examples.
BOARDS = 3


@dataclass
class Cell:
    """Fixtures of one kind: conforming, judged (answered and compared), declined."""

    conforming: int = 0
    judged: int = 0
    declined: int = 0

    @property
    def compliance(self) -> float | None:
        """conforming / judged fixtures, or None when none was judged."""
        return self.conforming / self.judged if self.judged else None

    def as_record(self) -> dict[str, Any]:
        return {"conforming": self.conforming, "judged": self.judged, "declined": self.declined,
                "compliance": self.compliance}


@dataclass
class Row:
    """One implementation: who it is, whether it ran, its cells and failure classes."""

    spec: str
    name: str = ""
    version: str = ""
    skipped: str | None = None  #: why it did not run (library or runtime missing)
    software: str = ""  #: library, engine, pgn-tool or gui (conformance.implementations.catalog)
    rulesets: list[str] = field(default_factory=list)
    cells: dict[str, Cell] = field(default_factory=dict)  #: declared kinds only
    classes: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    members: list[list[dict[str, Any]]] = field(default_factory=list, repr=False)  #: per class: its boards' results
    all_classes: int = 0  #: classes before the cut at :data:`MAX_CLASSES`

    @property
    def total(self) -> Cell:
        """All kinds together."""
        out = Cell()
        for cell in self.cells.values():
            out.conforming += cell.conforming
            out.judged += cell.judged
            out.declined += cell.declined
        return out

    def as_record(self) -> dict[str, Any]:
        return {"spec": self.spec, "name": self.name, "version": self.version, "software": self.software,
                "skipped": self.skipped,
                "rulesets": list(self.rulesets), "seconds": round(self.seconds, 1),
                "kinds": {k: c.as_record() for k, c in self.cells.items()},
                "total": self.total.as_record(), "classes": list(self.classes),
                "classes_in_all": self.all_classes}


def skipped_row(spec: str, reason: str) -> Row:
    """The row of an implementation that could not run."""
    return Row(spec=spec, skipped=reason)


def row(spec: str, records: Iterable[Mapping[str, Any]], seconds: float = 0.0) -> Row:
    """The row of one implementation's report (header, results, footer)."""
    out = Row(spec=spec, seconds=seconds)
    results = []
    for record in records:
        if record.get("type") == "header":
            adapter = record.get("adapter") or {}
            out.name, out.version = str(adapter.get("name", "")), str(adapter.get("version", ""))
            out.rulesets = list(adapter.get("rulesets") or [])
            for kind in adapter.get("capabilities") or []:
                out.cells.setdefault(str(kind), Cell())
        elif record.get("type") == "result":
            results.append(record)
    for (kind, _), verdict in fixture_verdicts(results).items():
        cell = out.cells.setdefault(kind, Cell())
        if verdict == "declined":
            cell.declined += 1
        else:
            cell.judged += 1
            cell.conforming += verdict == "conforms"
    out.cells = {k: out.cells[k] for k in sorted(out.cells, key=_kind_order)}
    classes = classify(r for r in results if r.get("status") in PROBLEM_STATUSES)
    out.all_classes = len(classes)
    out.classes = [_class_record(c) for c in classes[:MAX_CLASSES]]
    out.members = [_boards(c) for c in classes[:MAX_CLASSES]]
    return out


def _class_record(group: FailureClass) -> dict[str, Any]:
    return {**group.as_record(), "smallest": str(smallest(group).get("id"))}


def _boards(group: FailureClass) -> list[dict[str, Any]]:
    """The smallest failing result of a class, then results of its other examples."""
    first = smallest(group)
    chosen = [dict(first)]
    for ident in group.examples:
        if len(chosen) >= BOARDS:
            break
        found = next((r for r in group.members if r.get("id") == ident), None)
        if found is not None and ident != first.get("id"):
            chosen.append(dict(found))
    return chosen


def _kind_order(kind: str) -> tuple[int, str]:
    return (KINDS.index(kind) if kind in KINDS else len(KINDS), kind)


def kinds_of(rows: Iterable[Row]) -> list[str]:
    """Every kind some row declared, in protocol order."""
    return sorted({k for r in rows for k in r.cells}, key=_kind_order)
