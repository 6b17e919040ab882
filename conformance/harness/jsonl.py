"""Write and read JSON Lines reports, and merge shard reports."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from reference_impl.errors import ArbiterError
from reference_impl.text import JsonError, loads_json

from . import records

#: Header fields that must agree between the shard reports being merged.
_SAME = ("protocol_version", "corpus_revision")


class ReportError(ArbiterError):
    """A report file is unreadable, malformed, or does not fit with the others."""


class ReportWriter:
    """Streams records to a JSON Lines file as they come, so a killed run leaves a prefix."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path else None
        self._file: IO[str] | None = None
        if self.path is not None:
            try:
                self._file = self.path.open("w", encoding="utf-8")
            except OSError as error:
                raise ReportError(f"{self.path}: cannot write the report ({error.strerror})") from None

    def write(self, record: records.Record) -> None:
        if self._file is not None:
            self._file.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n")
            if record.get("type") != "result":
                self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def write(path: str | Path | None, found: Iterable[records.Record]) -> None:
    """Write a whole report at once (``None``: nowhere)."""
    writer = ReportWriter(path)
    try:
        for record in found:
            writer.write(record)
    finally:
        writer.close()


def read(path: str | Path) -> list[records.Record]:
    """The records of a report file; errors name the file and line."""
    path = Path(path)
    try:
        lines = path.read_bytes().split(b"\n")
    except OSError as error:
        raise ReportError(f"{path}: cannot read ({error.strerror})") from None
    found: list[records.Record] = []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            record = loads_json(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise ReportError(f"{path}:{number}: not UTF-8 text") from None
        except JsonError as error:  # malformed, or beyond the bounded reader's limits
            raise ReportError(f"{path}:{number}: {error.reason}") from None
        if not isinstance(record, dict) or record.get("type") not in ("header", "result", "footer"):
            raise ReportError(f"{path}:{number}: not a report record (needs type header, result or footer)")
        found.append(record)
    if not found or found[0]["type"] != "header":
        raise ReportError(f"{path}: a report starts with a header record")
    return found


def merge(reports: Iterable[tuple[str, list[records.Record]]]) -> list[records.Record]:
    """One report from shard reports of the same corpus, adapter and protocol.

    Results are ordered by fixture id, then ruleset. A result present in two reports
    (overlapping shards) is an error, as are reports of different corpora or adapters.
    """
    reports = list(reports)
    if not reports:
        raise ReportError("merge needs at least one report")
    first_name, first = reports[0]
    head = dict(first[0])
    seen: dict[tuple[str, str], str] = {}
    results: list[records.Record] = []
    interrupted = fail_fast = False
    for name, report in reports:
        header = report[0]
        for key in _SAME:
            if header.get(key) != head.get(key):
                raise ReportError(f"{name}: {key} {header.get(key)!r} differs from {first_name}'s {head.get(key)!r}")
        if _adapter_id(header) != _adapter_id(head):
            raise ReportError(f"{name}: adapter {_adapter_id(header)} differs from {first_name}'s {_adapter_id(head)}")
        footer = next((r for r in report if r["type"] == "footer"), None)
        if footer is None:
            interrupted = True
        else:
            interrupted |= bool(footer.get("interrupted"))
            fail_fast |= bool(footer.get("fail_fast"))
        for record in report:
            if record["type"] != "result":
                continue
            case = (record["id"], record["ruleset"])
            if case in seen:
                raise ReportError(f"{name}: {case[0]} under {case[1]} is also in {seen[case]} (overlapping shards)")
            seen[case] = name
            results.append(record)
    results.sort(key=lambda r: (r["id"], r["ruleset"]))
    selection = dict(head.get("selection") or {})
    selection["shard"] = None
    selection["merged_from"] = [name for name, _ in reports]
    head["selection"] = selection
    return [head, *results, records.footer(results, interrupted, fail_fast)]


def _adapter_id(header: dict[str, Any]) -> str:
    adapter = header.get("adapter") or {}
    return f"{adapter.get('name')} {adapter.get('version')}"
