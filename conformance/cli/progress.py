"""The ``arbiter run`` progress bar: cases (fixture x ruleset) done, and the time left
estimated per kind, since kinds differ in cost by orders of magnitude and the slow ones
come last in the corpus.

:func:`remaining_seconds` is the pure estimator; :class:`RunProgress` the shell around
a rich progress bar.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

#: What the bar counts: one fixture under one ruleset.
UNIT = "cases"
#: Seconds between two estimates of the time left (the bar is redrawn ten times a second;
#: a run's results come by the thousand a second).
ESTIMATE_EVERY = 0.1


def remaining_seconds(
    remaining: Mapping[str, int], done: Mapping[str, int], seconds: Mapping[str, float], elapsed: float
) -> float | None:
    """Wall-clock seconds the ``remaining`` cases (per kind) should take.

    ``done`` and ``seconds`` are the cases finished and the adapter seconds they took, per
    kind; ``elapsed`` the wall-clock seconds of the run so far. A remaining case costs the
    mean of its kind so far, or the mean over all kinds for a kind not seen yet; the sum
    is scaled by wall time over adapter time so far (which covers ``-j`` workers and the
    harness's own work). ``None`` before any case is done.
    """
    total_done = sum(done.values())
    if total_done == 0 or elapsed <= 0:
        return None
    total_seconds = sum(seconds.values())
    if total_seconds <= 0:  # no adapter timings: every case is alike
        return elapsed / total_done * sum(remaining.values())
    overall = total_seconds / total_done
    work = sum(
        count * (seconds.get(kind, 0.0) / done[kind] if done.get(kind) else overall)
        for kind, count in remaining.items()
    )
    return work * elapsed / total_seconds


def clock(seconds: float | None) -> str:
    """``1:02:03`` / ``2:03``, or ``-:--`` when unknown."""
    if seconds is None:
        return "-:--"
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class RunProgress:
    """A transient rich progress bar on stderr that counts result records."""

    def __init__(self, console: Any) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.bar = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                            MofNCompleteColumn(), TextColumn("{task.fields[left]} left"),
                            console=console, transient=True)
        self.task: Any = None
        self.remaining: Counter[str] = Counter()
        self.done: Counter[str] = Counter()
        self.seconds: dict[str, float] = {}
        self.began = 0.0
        self.estimated = float("-inf")  #: when the time left was last estimated

    def start(self, kinds: Iterable[str]) -> None:
        """Show the bar for cases of these kinds (one entry per case)."""
        self.remaining = Counter(kinds)
        self.began = time.perf_counter()
        self.task = self.bar.add_task(UNIT, total=sum(self.remaining.values()), left=clock(None))
        self.bar.start()

    def advance(self, record: dict[str, Any]) -> None:
        """Count one result record."""
        if self.task is None or record.get("type") != "result":
            return
        kind = str(record["kind"])
        if self.remaining[kind] > 0:
            self.remaining[kind] -= 1
        self.done[kind] += 1
        self.seconds[kind] = self.seconds.get(kind, 0.0) + float(record.get("duration_ms") or 0.0) / 1000.0
        now = time.perf_counter()
        if now - self.estimated < ESTIMATE_EVERY:  # the bar shows a few frames a second
            self.bar.update(self.task, advance=1)
            return
        self.estimated = now
        left = remaining_seconds(self.remaining, self.done, self.seconds, now - self.began)
        self.bar.update(self.task, advance=1, left=clock(left))

    def stop(self) -> None:
        self.bar.stop()
