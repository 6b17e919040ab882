"""The main job: ``arbiter run -j auto`` over the whole shipped corpus, timed.

Runs the command line once as a user would (a separate process, the reference
adapter, every kind and ruleset), and prints its wall time, the CPU time of it and its
workers, the result counts from the report's footer, the time the answers took by kind
(the sum of the report's per-case durations: where the time goes), and the skipped
results by kind and by reason (a skipped result is a question the reference declined,
e.g. a search undetermined at its node limit). Target: 0 skipped and <= 30 s wall on an
idle 2-core machine. The timing is a measurement, never asserted. Run::

    python benchmarks/bench_main_job.py [--jobs auto] [-- EXTRA ARBITER RUN OPTIONS]

Options after ``--`` go to ``arbiter run`` unchanged (``-- -k timeout`` times one kind).
The answer times are wall-clock, and on a loaded machine they say little about CPU;
``--groups`` then runs the kinds of each of :data:`GROUPS` as an ``arbiter run -j 1`` of
its own and prints the CPU each took, the start-up (an empty selection's CPU) taken off.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

#: How many reasons and example ids to print per kind.
SHOWN = 5
#: The kinds ``--groups`` times together: those that share the unwinnability analyses'
#: kept answers (flag falls, dead positions and games ask the same positions) in one run.
GROUPS = {
    "timeout, dead_position, game": ("timeout", "dead_position", "game"),
    "perft": ("perft",),
    "game_end": ("game_end",),
    "notation": ("from_notation", "to_notation", "san", "parse_san"),
    "moves and positions": ("legal_moves", "apply_moves", "status", "start_position", "validate_fen"),
}
#: A selection that matches no fixture: the start-up's CPU.
NOTHING = ("--id", "no-such-fixture")
#: A quoted position in a skip message (replaced so that messages group by reason).
QUOTED = re.compile(r"'[^']*'")


def run_main_job(jobs: str, extra: list[str], report: Path) -> tuple[int, float, float]:
    """Exit status, wall seconds and child CPU seconds of one ``arbiter run``."""
    command = [sys.executable, "-m", "conformance.cli", "run", "-j", jobs, "-o", str(report),
               "--no-progress", "-q", *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    status = subprocess.run(command, stdout=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return status, wall, cpu


def group_cpu(extra: list[str]) -> dict[str, float]:
    """CPU seconds of ``arbiter run -j 1`` per group of :data:`GROUPS`, start-up taken off."""
    def cpu(selection: list[str]) -> float:
        command = [sys.executable, "-m", "conformance.cli", "run", "-j", "1", "-o", "-", "--no-progress", "-q",
                   *selection, *extra]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    start = cpu(list(NOTHING))
    return {name: cpu([word for kind in kinds for word in ("-k", kind)]) - start
            for name, kinds in GROUPS.items()} | {"start-up (each run)": start}


def read_report(report: Path) -> tuple[dict[str, int], list[dict[str, Any]], dict[str, tuple[int, float]]]:
    """The footer's counts, the skipped result records and, per kind, the results and
    the seconds their answers took."""
    counts: dict[str, int] = {}
    skipped = []
    by_kind: dict[str, tuple[int, float]] = {}
    with report.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record.get("type") == "footer":
                counts = record.get("counts", {})
            elif record.get("type") == "result":
                number, seconds = by_kind.get(record["kind"], (0, 0.0))
                by_kind[record["kind"]] = (number + 1, seconds + (record.get("duration_ms") or 0.0) / 1000.0)
                if record.get("status") == "skipped":
                    skipped.append(record)
    return counts, skipped, by_kind


def kind_times(by_kind: dict[str, tuple[int, float]]) -> list[str]:
    """Printable lines: per kind, the results and the seconds their answers took, most first."""
    total = sum(seconds for _, seconds in by_kind.values()) or 1.0
    return ["answer time by kind:"] + [
        f"  {kind:<14} {number:>6,} results {seconds:7.1f} s {100 * seconds / total:5.1f} %"
        for kind, (number, seconds) in sorted(by_kind.items(), key=lambda item: -item[1][1])
    ]


def summary(counts: dict[str, int], skipped: list[dict[str, Any]]) -> list[str]:
    """Printable lines: the counts, then skipped results by kind with their reasons."""
    lines = ["results: " + ", ".join(f"{k} {v:,}" for k, v in counts.items() if v)]
    by_kind = Counter(r["kind"] for r in skipped)
    fixtures = {r["id"] for r in skipped}
    lines.append(f"skipped: {len(skipped):,} results ({len(fixtures):,} fixtures)")
    for kind, number in by_kind.most_common():
        ids = sorted({r["id"] for r in skipped if r["kind"] == kind})
        lines.append(f"  {kind:<14} {number:>6,} results, {len(ids):,} fixtures, e.g. "
                     + ", ".join(ids[:SHOWN]))
        reasons = Counter(QUOTED.sub("<fen>", r.get("message") or "").split(":")[-1].strip()
                          for r in skipped if r["kind"] == kind)
        lines += [f"      {n:>6,} {reason}" for reason, n in reasons.most_common(SHOWN)]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", default="auto", help="-j for arbiter run (default auto)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the JSON Lines report here")
    parser.add_argument("--groups", action="store_true", help="also the CPU of each group of kinds, one -j 1 run each")
    parser.add_argument("extra", nargs="*", help="further arbiter run options (after --)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = args.keep or Path(folder) / "report.jsonl"
        status, wall, cpu = run_main_job(args.jobs, args.extra, report)
        if not report.is_file():
            print(f"arbiter run wrote no report (exit status {status})", file=sys.stderr)
            return 1
        counts, skipped, by_kind = read_report(report)
    print(f"arbiter run -j {args.jobs} {' '.join(args.extra)}".rstrip()
          + f" on {os.cpu_count()} CPUs: exit status {status}")
    print(f"wall {wall:.1f} s ({int(wall // 60)} min {wall % 60:.0f} s), CPU {cpu:.1f} s")
    for line in [*summary(counts, skipped), *kind_times(by_kind)]:
        print(line)
    if args.groups:
        print("CPU by group of kinds (arbiter run -j 1 each):")
        for name, seconds in group_cpu(args.extra).items():
            print(f"  {name:<30} {seconds:6.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
