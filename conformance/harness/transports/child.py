"""One child process on pipes, as the ``cmd:`` and ``uci:`` adapters drive it.

:class:`ChildProcess` starts a program in its own process group, writes to its stdin,
reads its stdout into a buffer as lines of bounded length against a deadline, keeps
the last few KiB of its stderr (a thread drains it, so a chatty program never blocks),
kills the whole group, and words the message when the program dies: the exit status
and the last stderr lines.

A failed write is not an error here: the program may have died with answers still in
the pipe, and those are read first. The end of its output is what reports the death,
so the message never depends on which of the two the caller noticed first.
"""

from __future__ import annotations

import collections
import os
import selectors
import signal
import subprocess
import threading
import time

from conformance.adapters.base import AdapterFault

STDERR_TAIL = 2048  #: bytes of stderr kept for error messages
STDERR_LINES = 3  #: stderr lines quoted in an error message
DEATH_WAIT = 5.0  #: seconds, after stdout ended, for the exit status and last stderr lines
KILL_WAIT = 5.0  #: seconds for a killed process group's leader to be reaped
CHUNK = 1 << 16  #: bytes read at a time


class ChildProcess:
    """A running program: stdin, buffered stdout lines, stderr tail, kill.

    ``who`` begins the messages about its output (``"engine "`` gives "engine wrote
    ..."); ``eof`` is what the end of its output is called ("exited without answering").
    Raises OSError when the program cannot be started.
    """

    def __init__(self, argv: list[str], line_limit: int, eof: str, who: str = "",
                 env: dict[str, str] | None = None) -> None:
        self.line_limit = line_limit
        self.eof = eof
        self.who = who
        self.buffer = bytearray()
        self._stderr: collections.deque[bytes] = collections.deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self.proc: subprocess.Popen[bytes] = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0, env=env, start_new_session=True)
        self._drainer = threading.Thread(target=self._drain_stderr, daemon=True)
        self._drainer.start()

    @property
    def stdin_fd(self) -> int:
        assert self.proc.stdin is not None
        return self.proc.stdin.fileno()

    @property
    def stdout_fd(self) -> int:
        assert self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def alive(self) -> bool:
        return self.proc.poll() is None

    # -- writing ------------------------------------------------------------------------

    def send(self, data: bytes) -> None:
        """Write all of ``data``; if the program is gone, the next read reports how it ended."""
        try:
            while data:
                data = data[os.write(self.stdin_fd, data):]
        except OSError:
            pass

    # -- reading ------------------------------------------------------------------------

    def take_line(self) -> bytes | None:
        """The next complete line from the buffer, or None; faults over the line limit."""
        newline = self.buffer.find(b"\n")
        if newline < 0:
            if len(self.buffer) > self.line_limit:
                raise AdapterFault(f"{self.who}wrote more than {self.line_limit} bytes without a newline (line limit)")
            return None
        line = bytes(self.buffer[:newline])
        del self.buffer[: newline + 1]
        if len(line) > self.line_limit:
            raise AdapterFault(f"{self.who}wrote a line of {len(line)} bytes, over the {self.line_limit}-byte limit")
        return line

    def read_some(self) -> None:
        """Read what stdout has (it must be readable) into the buffer; the end of it is a fault."""
        chunk = os.read(self.stdout_fd, CHUNK)
        if not chunk:
            raise AdapterFault(self.death(self.eof))
        self.buffer += chunk

    def read_line(self, deadline: float | None, seconds: float | None) -> bytes:
        """The next line, waiting for output until ``deadline`` (monotonic; None: forever)."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.stdout_fd, selectors.EVENT_READ)
            while True:
                line = self.take_line()
                if line is not None:
                    return line
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise AdapterFault(f"no answer within {seconds or 0:g} s (timed out)")
                if selector.select(remaining):
                    self.read_some()

    # -- the end --------------------------------------------------------------------------

    def death(self, what: str) -> str:
        """``what``, the exit status and the last stderr lines, once stdout has ended."""
        try:
            status: int | None = self.proc.wait(timeout=DEATH_WAIT)
        except subprocess.TimeoutExpired:
            status = None
        text = f"{what} (exit status {status})" if status is not None else what
        if status is not None:
            # stderr ends when the program does (unless a child it left behind holds it)
            self._drainer.join(timeout=DEATH_WAIT)
        tail = self.stderr_tail()
        return f"{text}; stderr: {tail}" if tail else text

    def kill(self) -> None:
        """Kill the process group at once, close the pipes, reap the leader."""
        proc = self.proc
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=KILL_WAIT)
        except subprocess.TimeoutExpired:
            pass
        self.buffer.clear()

    def stderr_tail(self) -> str:
        """The last few non-empty stderr lines, joined with `` | ``."""
        with self._lock:
            data = b"".join(self._stderr)[-STDERR_TAIL:]
        text = data.decode("utf-8", errors="replace").strip()
        lines = [line for line in text.splitlines() if line.strip()][-STDERR_LINES:]
        return " | ".join(lines)

    def _drain_stderr(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        while True:
            try:
                chunk = os.read(stream.fileno(), CHUNK)
            except (OSError, ValueError):
                return
            if not chunk:
                stream.close()
                return
            with self._lock:
                self._stderr.append(chunk)
                self._stderr_size += len(chunk)
                while len(self._stderr) > 1 and self._stderr_size - len(self._stderr[0]) >= STDERR_TAIL:
                    self._stderr_size -= len(self._stderr.popleft())
