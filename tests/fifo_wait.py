"""Waiting for a child process's signal through a named pipe, without hanging if it dies."""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path


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
