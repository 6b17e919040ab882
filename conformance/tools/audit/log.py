"""The audit's output: JSON Lines records numbered per file, the summary, and resuming.

Records, one per line, in the order of the partitions:

* ``{"type": "audit", "version", "rules", "partition_bytes", "files"}`` first;
* ``{"type": "finding", "file", "game", "tags", "rule", "cite", "recorded", "correct",
  "reason", "proof", "ruleset", "ruleset_reason", "fen"}`` for each disagreement
  (``game``: 1-based within the file);
* ``{"type": "error", "file", "game", "message", "kind"}`` for a game that could not be read;
* ``{"type": "skipped", "file", "game", "message", "kind"}`` for a game not judged (a
  variant the Laws do not cover);
* ``{"type": "damage", "file", "at", "message"}`` for a truncated or corrupt file;
* ``{"type": "partition", "file", "number", "start", "end", "size", "games", "sites", ...}``
  after each partition's records: the partition is done (``sites``: per server, the Site
  tag's host, ``{"games", "flag_falls", "unreadable"}``: games, time forfeits judged by
  the flag-fall rule, games unreadable; and its games per ruleset, warnings and repairs
  per kind);
* ``{"type": "summary", ..., "flag_falls", "sites"}`` at the end (``flag_falls``: the time
  forfeits judged in all; ``sites`` as the partitions', summed).

An interrupted audit resumes from its file: the records after the last ``partition``
line are dropped (they belong to a partition not finished), the finished partitions are
not audited again, and their counts go into the new summary.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Iterator

from reference_impl.errors import ArbiterError

from .execute import COUNTS, SITE_COUNTS, PartResult
from .judge import KINDS, UNREADABLE
from .sources import Damage

VERSION = 2
#: Unreadable or skipped games kept per reason for the summary's lines (all are counted,
#: and every one is in the output file).
SUMMARY_LINES = 50


class OutputFileError(ArbiterError):
    """The output file cannot be written or belongs to another audit."""


@dataclass
class Summary:
    """Counts over the whole audit (resumed partitions included)."""

    games: int = 0
    size: int = 0
    findings: Counter = field(default_factory=Counter)
    errors: int = 0
    damaged: int = 0
    undetermined: int = 0
    cpu: float = 0.0
    #: unreadable and skipped games per reason, and the first lines of each
    unreadable: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    lines: dict[str, list[str]] = field(default_factory=dict)
    #: games per ruleset, warnings and repairs per kind (:data:`~.execute.COUNTS`)
    counts: dict[str, Counter] = field(default_factory=lambda: {name: Counter() for name in COUNTS})

    def note(self, record: dict[str, Any]) -> None:
        """Count an error or skipped record by its reason and keep its line (an unreadable
        game's reason with its particulars, move and quoted token, replaced as the page
        counts them)."""
        kind = str(record.get("kind") or UNREADABLE)
        if record["type"] == "error":
            from .html import reason_kind  # only where a game could not be read

            kind = reason_kind(record["message"])
        (self.skipped if record["type"] == "skipped" else self.unreadable)[kind] += 1
        kept = self.lines.setdefault(kind, [])
        if len(kept) < SUMMARY_LINES:
            where = f"game {record['game']}" if record.get("game") is not None else "the file"
            kept.append(f"{record['file']}: {where}: {record['message']}")

    def add(self, counts: dict[str, dict[str, int]]) -> None:
        for name in COUNTS:
            self.counts[name].update(counts.get(name) or {})
    #: per server (the Site tag's host): :data:`~.execute.SITE_COUNTS` -> games
    sites: defaultdict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    def count_sites(self, sites: dict[str, dict[str, int]]) -> None:
        for host, counts in sites.items():
            self.sites[host].update(counts)

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "bytes": self.size, "findings": {k: self.findings[k] for k in KINDS},
                "errors": self.errors, "damaged_files": self.damaged, "undetermined": self.undetermined,
                "cpu_seconds": round(self.cpu, 3), "flag_falls": sum(c["flag_falls"] for c in self.sites.values()),
                "sites": {host: {k: counts[k] for k in SITE_COUNTS}
                          for host, counts in sorted(self.sites.items(), key=lambda kv: -kv[1]["games"])},
                "unreadable": dict(self.unreadable), "skipped": dict(self.skipped),
                **{name: dict(self.counts[name]) for name in COUNTS}}


class Numbering:
    """Turns partition results into records numbered within each file."""

    def __init__(self) -> None:
        self.next_game: Counter = Counter()
        self.summary = Summary()

    def records(self, item: PartResult | Damage) -> list[dict[str, Any]]:
        """The records of one partition result (counted in the summary) or damage."""
        s = self.summary
        if isinstance(item, Damage):
            s.damaged += 1
            return [{"type": "damage", "file": item.path, "at": item.at, "message": item.message}]
        first = self.next_game[item.path] + 1
        self.next_game[item.path] += item.games
        s.games += item.games
        s.size += item.size
        s.cpu += item.cpu
        s.count_sites(item.sites)
        s.add(item.counts)
        out: list[dict[str, Any]] = []
        for audit in item.audits:
            number = first + audit.game - 1
            s.undetermined += audit.undetermined
            if audit.error is not None:
                s.errors += 1
                out.append({"type": "error", "file": item.path, "game": number, "message": audit.error,
                            "kind": audit.kind or UNREADABLE})
                s.note(out[-1])
            if audit.skipped is not None:
                out.append({"type": "skipped", "file": item.path, "game": number, "message": audit.skipped,
                            "kind": audit.kind})
                s.note(out[-1])
            for finding in audit.findings:
                s.findings[finding.rule] += 1
                out.append({"type": "finding", "file": item.path, **replace(finding, game=number).as_dict()})
        if item.failure is not None:
            s.errors += 1
            out.append({"type": "error", "file": item.path, "game": None, "message": item.failure,
                        "kind": "file unreadable"})
            s.note(out[-1])
        out.append({"type": "partition", "file": item.path, "number": item.number, "start": item.start,
                    "end": item.end, "size": item.size, "games": item.games, "cpu": round(item.cpu, 4),
                    "undetermined": sum(a.undetermined for a in item.audits), "sites": item.sites,
                    **item.counts})
        return out

    def resumed(self, records: list[dict[str, Any]]) -> PartResult:
        """Count a finished partition read back from the output file; its result."""
        s = self.summary
        part = records[-1]
        for record in records[:-1]:
            if record["type"] == "finding":
                s.findings[record["rule"]] += 1
            elif record["type"] == "error":
                s.errors += 1
                s.note(record)
            elif record["type"] == "skipped":
                s.note(record)
        s.add({name: part.get(name) or {} for name in COUNTS})
        s.undetermined += int(part.get("undetermined") or 0)
        self.next_game[part["file"]] += int(part["games"])
        s.games += int(part["games"])
        s.size += int(part["size"])
        s.cpu += float(part.get("cpu") or 0.0)
        s.count_sites(part.get("sites") or {})
        return PartResult(part["file"], int(part["number"]), int(part["start"]), int(part["end"]),
                          int(part["size"]), int(part["games"]), resumed=True)


def _lines(handle: IO[bytes]) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """(offset after the line, record or None when the line is not a whole record)."""
    offset = 0
    for raw in handle:
        offset += len(raw)
        try:
            record = json.loads(raw) if raw.endswith(b"\n") else None
        except ValueError:
            record = None
        yield offset, record if isinstance(record, dict) else None


class AuditLog:
    """The ``--out`` file: written as the audit goes, resumed when it already exists."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = {"type": "audit", "version": VERSION, **header}
        #: finished partitions read back: key -> their records (the partition line last)
        self.done: dict[str, list[dict[str, Any]]] = {}
        try:
            keep = self._read() if path.exists() else 0
            if keep:
                os.truncate(path, keep)  # drop the records of a partition not finished
            self.handle: IO[str] = path.open("a" if keep else "w", encoding="utf-8")
            if not keep:
                self.write([self.header])
        except OSError as error:
            raise OutputFileError(f"{path}: {error.strerror or error}") from None

    def _read(self) -> int:
        """The offset up to which the existing file is kept (0: start afresh)."""
        keep, pending = 0, []
        with self.path.open("rb") as handle:
            for number, (offset, record) in enumerate(_lines(handle)):
                if number == 0:
                    if record is None or record.get("type") != "audit":
                        raise OutputFileError(f"{self.path}: not an audit output file; remove it or choose another --out")
                    if record != self.header:
                        raise OutputFileError(f"{self.path}: written by another audit (rules, files or partition "
                                              f"size differ); remove it or choose another --out")
                    keep = offset
                    continue
                if record is None:
                    break
                pending.append(record)
                if record.get("type") == "partition":
                    self.done[f"{record['file']}#{record['number']}"] = pending
                    keep, pending = offset, []
        return keep

    def write(self, records: list[dict[str, Any]]) -> None:
        try:
            for record in records:
                self.handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.handle.flush()
        except OSError as error:
            raise OutputFileError(f"{self.path}: {error.strerror or error}") from None

    def close(self) -> None:
        self.handle.close()
