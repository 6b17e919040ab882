"""``arbiter run`` ended by a signal: the workers stop and the report gets its footer.

The run is signalled once the fake adapter has reached a chosen fixture (it says so
through a named pipe) while the next one hangs: no timing involved.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fake_adapter import await_line, fake_spec, stalling_corpus



def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, start time) of a live process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], fields[19]


def _descendants(root: int) -> dict[int, str]:
    """Every process below ``root``, by pid, with its start time (to tell a reused pid)."""
    parents: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            parents[int(entry)] = (stat[0], stat[2])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, started) in parents.items():
            if ppid == parent and pid not in found:
                found[pid] = started
                frontier.append(pid)
    return found


def _running(pid: int, started: str) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[2] == started and stat[1] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_stop_signal_stops_the_workers_and_writes_the_footer(
    tmp_path: Path, signum: int, status: int
) -> None:
    fifo = tmp_path / "reached"
    os.mkfifo(fifo)
    fixture = stalling_corpus(tmp_path / "slow.jsonl", fifo)
    report = tmp_path / "report.jsonl"
    adapter = fake_spec()
    command = [sys.executable, "-m", "conformance.cli", "run", "-q", "--no-progress", "-f", str(fixture),
               "-o", str(report), "-a", adapter, "-j", "2", "--timeout", "600"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL))
    assert await_line(fifo, proc) == "reached\n"
    below = _descendants(proc.pid)
    assert len(below) >= 4  # two workers, each with its adapter program
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == status
    assert "interrupted" in err and "Traceback" not in err
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert not Path(str(report) + ".partial").exists()
    assert records[-1]["type"] == "footer" and records[-1]["interrupted"] is True
    results = [r for r in records if r["type"] == "result"]
    assert [r["id"] for r in results] == [f"slow.{i:03d}" for i in range(len(results))]
    assert [pid for pid, started in below.items() if _running(pid, started)] == []
