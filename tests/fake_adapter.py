"""The fake protocol adapter (``tests/adapters/fake.py``) as the tests drive it: its
adapter spec, corpora it answers in chosen ways, and waiting for the signal it gives
through a named pipe without hanging if the run dies first."""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path

FAKE = Path(__file__).parent / "adapters" / "fake.py"


def fake_spec(*options: str) -> str:
    """The ``cmd:`` adapter spec that runs the fake with ``options``."""
    return "cmd:" + shlex.join([sys.executable, str(FAKE), *options])


def _write(path: Path, items: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(item) for item in items) + "\n")
    return path


def perft_corpus(path: Path, count: int, late: set[int]) -> Path:
    """``count`` perft fixtures the fake answers correctly (those in ``late`` twice)."""
    items = []
    for i in range(count):
        data = {"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "depth": 1, "answer": i}
        if i in late:
            data["act"] = "late_twice"
        items.append({"id": f"f.{i:03d}", "kind": "perft", "rulesets": ["fide-2023"],
                      "input": data, "expect": {"nodes": i}})
    return _write(path, items)


def stalling_corpus(path: Path, fifo: Path) -> Path:
    """200 fixtures: at the 151st the fake writes ``reached`` to ``fifo``, the 152nd hangs."""
    items = []
    for i in range(200):
        data: dict = {"fen": "x", "depth": 1, "answer": 1}
        if i == 150:
            data.update(act="notify", fifo=str(fifo))
        if i == 151:
            data["act"] = "hang"
        items.append({"id": f"slow.{i:03d}", "kind": "perft", "rulesets": ["fide-2023"],
                      "input": data, "expect": {"nodes": 1}})
    return _write(path, items)


def await_line(fifo: Path, proc: subprocess.Popen, limit: float = 120.0) -> str:
    """The line the fake adapter writes to ``fifo``; fails (never hangs) if the run dies
    first. Opening the reading end without blocking lets the run's death be noticed."""
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    data = b""
    deadline = time.monotonic() + limit
    try:
        while not data.endswith(b"\n"):
            ready, _, _ = select.select([fd], [], [], 0.2)
            chunk = os.read(fd, 256) if ready else b""
            data += chunk
            if not chunk and proc.poll() is not None:
                _, err = proc.communicate()
                raise AssertionError(f"the run ended (status {proc.returncode}) before the fake was reached: {err[-500:]}")
            assert time.monotonic() < deadline, "the fake never reached the chosen fixture"
    finally:
        os.close(fd)
    return data.decode()
