"""Renderers of a run's report: terminal tables, JUnit XML and static HTML.

The canonical report is JSON Lines (``docs/harness.md``); every renderer here is a
function of the list of its records. :func:`load` reads a saved report back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reference_impl.errors import ArbiterError


class ReportError(ArbiterError):
    """A saved report file cannot be read (missing, not JSON Lines, wrong records)."""


RECORD_TYPES: frozenset[str] = frozenset({"header", "result", "footer"})


def parse(lines: list[str], source: str = "<report>") -> list[dict[str, Any]]:
    """Records from the lines of a JSON Lines report; blank lines are ignored.

    Raises :class:`ReportError` naming ``source`` and the line of the first bad record.
    """
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ReportError(f"{source}:{number}: not JSON ({error.msg})") from None
        if not isinstance(record, dict) or record.get("type") not in RECORD_TYPES:
            raise ReportError(
                f"{source}:{number}: not a report record "
                "(want an object with type header, result or footer)")
        if record["type"] == "result" and not all(
                isinstance(record.get(key), str) for key in ("id", "kind", "status")):
            raise ReportError(f"{source}:{number}: result record needs string id, kind, status")
        records.append(record)
    if not any(r["type"] == "header" for r in records):
        raise ReportError(f"{source}: no header record; is this an arbiter report?")
    return records


def load(path: str | Path) -> list[dict[str, Any]]:
    """Read a saved JSON Lines report; :class:`ReportError` if it cannot be used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ReportError(f"cannot read report {path}: {error}") from None
    return parse(text.splitlines(), str(path))
