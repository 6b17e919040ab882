"""One matrix row per implementation, from its report records (pure).

A cell is the per-fixture compliance of one kind: a fixture conforms when every
result it has (one per ruleset) passed; fixtures the adapter declined (``skipped``) or
never declared (``unsupported``) are counted apart, never as conforming.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..adapters.base import KINDS
from ..reports.classes import classify
from ..reports.summary import CONFORMING_STATUSES, NOT_APPLICABLE_STATUSES, NOT_JUDGED_STATUSES, PROBLEM_STATUSES

#: Classes kept per implementation in the outputs (the rest are counted).
MAX_CLASSES = 40


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
    software: str = ""  #: library, engine, pgn-tool or gui (conformance.adapters.implementations.catalog)
    rulesets: list[str] = field(default_factory=list)
    cells: dict[str, Cell] = field(default_factory=dict)  #: declared kinds only
    classes: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

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
                "total": self.total.as_record(), "classes": list(self.classes)}


def skipped_row(spec: str, reason: str) -> Row:
    """The row of an implementation that could not run."""
    return Row(spec=spec, skipped=reason)


def row(spec: str, records: Iterable[Mapping[str, Any]], seconds: float = 0.0) -> Row:
    """The row of one implementation's report (header, results, footer)."""
    out = Row(spec=spec, seconds=seconds)
    verdicts: dict[tuple[str, str], str] = {}  # (kind, id) -> "ok" | "bad" | "declined"
    problems = []
    for record in records:
        if record.get("type") == "header":
            adapter = record.get("adapter") or {}
            out.name, out.version = str(adapter.get("name", "")), str(adapter.get("version", ""))
            out.rulesets = list(adapter.get("rulesets") or [])
            for kind in adapter.get("capabilities") or []:
                out.cells.setdefault(str(kind), Cell())
        elif record.get("type") == "result":
            status, key = str(record.get("status")), (str(record.get("kind")), str(record.get("id")))
            if status in NOT_APPLICABLE_STATUSES:
                continue
            if status in PROBLEM_STATUSES:
                problems.append(record)
                verdicts[key] = "bad"
            elif status in CONFORMING_STATUSES or status == "xfailed":
                verdicts.setdefault(key, "ok")
            elif status in NOT_JUDGED_STATUSES:
                verdicts[key] = verdicts.get(key, "declined")
    for (kind, _), verdict in verdicts.items():
        cell = out.cells.setdefault(kind, Cell())
        if verdict == "declined":
            cell.declined += 1
        else:
            cell.judged += 1
            cell.conforming += verdict == "ok"
    out.cells = {k: out.cells[k] for k in sorted(out.cells, key=_kind_order)}
    out.classes = [c.as_record() for c in classify(problems)[:MAX_CLASSES]]
    return out


def _kind_order(kind: str) -> tuple[int, str]:
    return (KINDS.index(kind) if kind in KINDS else len(KINDS), kind)


def kinds_of(rows: Iterable[Row]) -> list[str]:
    """Every kind some row declared, in protocol order."""
    return sorted({k for r in rows for k in r.cells}, key=_kind_order)
