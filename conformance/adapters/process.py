"""The ``cmd:"COMMAND"`` adapter: any program that speaks protocol v1 on stdio.

The program is started with ``shlex.split(COMMAND)`` in its own process group. Each
request is one JSON line on its stdin; the answer must be one JSON line on its stdout
(``docs/protocol.md``). stderr is collected (the last few KiB) for error messages.

Requests are pipelined (:meth:`ProcessAdapter.run_many`): up to WINDOW are written
ahead of the answers, which must come in order. When the program misbehaves -- it
exits, hangs past the timeout, writes something that is not a JSON object, answers
with another request's id, answers twice, or writes a line longer than the line limit
-- the request being answered gets an :class:`AdapterFault` (the runner marks that
fixture ``errored`` with the message), the process group is killed, and a fresh
process (``start`` replayed) gets the requests not yet answered. When the program
exits, every answer it wrote before is read first, so the request blamed is the one
after its last answer, whichever the harness noticed first (a failed write or the end
of the output). A second answer that arrives after its request's batch was returned
(or while ``stop`` waits) is kept in :meth:`ProcessAdapter.take_late_duplicates` for
the runner to charge to its fixture.
"""

from __future__ import annotations

import collections
import json
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Hashable
from typing import Any

from .base import KINDS, PROTOCOL_VERSION, Adapter, AdapterStartError, Skip, StartInfo

DEFAULT_TIMEOUT = 10.0  #: seconds per request
START_TIMEOUT = 30.0  #: seconds for the answer to ``start``
STOP_TIMEOUT = 2.0  #: seconds for ``stop`` and the exit that follows
DEATH_WAIT = 5.0  #: seconds, after its stdout ended, for the exit status and last stderr lines
LINE_LIMIT = 1 << 20  #: longest accepted answer line, bytes
STDERR_TAIL = 2048  #: bytes of stderr quoted in error messages
MAX_RESTART_FAILURES = 3  #: consecutive failed restarts before giving up
WINDOW = 16  #: requests written ahead of the answers in :meth:`ProcessAdapter.run_many`
RECENT = 1024  #: ids of past requests remembered, to recognise a late second answer
LATE_TWICE = "answered this request twice (the second answer came after the result was taken); adapter killed and restarted"


class AdapterFault(Exception):
    """The program broke the protocol or died; it has been killed."""


class AdapterErrored(Exception):
    """The program answered ``errored``: it tried and failed."""


class PartialRun(KeyboardInterrupt):
    """Ctrl-C during :meth:`ProcessAdapter.run_many`; ``done`` holds the answers obtained."""

    def __init__(self, done: list[tuple[Any, float]]) -> None:
        super().__init__()
        self.done = done


class ProcessAdapter(Adapter):
    """Protocol v1 over a child process's stdin and stdout."""

    own_timeout = True

    def __init__(
        self,
        command: str | list[str],
        spec: str = "",
        timeout: float | None = DEFAULT_TIMEOUT,
        line_limit: int = LINE_LIMIT,
        validate: bool = False,
        env: dict[str, str] | None = None,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise AdapterStartError("cmd: adapter needs a command, for example cmd:\"./my-adapter\"")
        self.spec = spec or f"cmd:{shlex.join(self.argv)}"
        self.timeout = timeout
        self.line_limit = line_limit
        self.validate = validate
        self.env = env
        self.start_timeout = start_timeout
        self.info: StartInfo | None = None
        self.restarts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._stderr: collections.deque[bytes] = collections.deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self._counter = 0
        self._failed_restarts = 0
        self._down_reason: str | None = None
        self._drainer: threading.Thread | None = None
        self._recent: collections.OrderedDict[str, Hashable] = collections.OrderedDict()
        self._late: list[Hashable] = []

    # -- the Adapter contract ------------------------------------------------------

    def start(self) -> StartInfo:
        """Start the program and negotiate protocol 1; AdapterStartError if it cannot."""
        self.info = self._spawn_and_start()
        return self.info

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        """Send one ``run`` request; return its result, raise Skip, AdapterErrored or AdapterFault."""
        ((value, _),) = self.run_many([(kind, ruleset, input)])
        if isinstance(value, BaseException):
            raise value
        return dict(value)

    def kill(self) -> None:
        """Kill the program's process group at once (no ``stop`` message)."""
        self._kill()

    def stop(self) -> None:
        """Ask the program to stop; kill it if it does not exit promptly."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._send({"cmd": "stop"})
                deadline = time.monotonic() + STOP_TIMEOUT
                while self._note_late(self._read_line(deadline, STOP_TIMEOUT)):
                    pass
                proc.wait(timeout=STOP_TIMEOUT)
            except (AdapterFault, subprocess.TimeoutExpired, OSError):
                pass
        self._kill()

    def take_late_duplicates(self) -> list[Hashable]:
        """The keys (see :meth:`run_many`) of requests answered a second time after their
        results were returned; the list is emptied."""
        late, self._late = self._late, []
        return late

    def _note_late(self, line: bytes) -> bool:
        """Whether ``line`` is a second answer to an earlier request (then it is noted)."""
        try:
            ident = json.loads(line).get("id")
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            return False
        if not isinstance(ident, str) or ident not in self._recent:
            return False
        self._late.append(self._recent[ident])
        return True

    def run_many(self, requests: list[tuple[str, str, dict[str, Any]]],
                 keys: list[Hashable] | None = None) -> list[tuple[Any, float]]:
        """Answer several requests, pipelined: up to WINDOW are written ahead of the answers.

        Returns, per request, its result dict or the exception ``run`` would have raised
        (Skip, AdapterErrored, AdapterFault), and the milliseconds it took (from the
        previous answer). A fault is charged to the request being answered; the program
        is restarted and the later requests are sent again. ``keys`` name the requests
        for :meth:`take_late_duplicates` (default: the protocol ids).
        """
        out: list[tuple[Any, float]] = [(None, 0.0)] * len(requests)
        position = 0
        try:
            while position < len(requests):
                position = self._pipeline(requests, position, out, keys)
        except KeyboardInterrupt:
            done = next((i for i, (value, _) in enumerate(out) if value is None), len(out))
            raise PartialRun(out[:done]) from None
        return out

    def _pipeline(self, requests: list[tuple[str, str, dict[str, Any]]], start: int,
                  out: list[tuple[Any, float]], keys: list[Hashable] | None) -> int:
        """Run ``requests[start:]`` on one process; return where to resume after a fault."""
        mark = time.monotonic()
        try:
            self._ensure_running()
        except AdapterFault as fault:
            out[start] = (fault, 0.0)
            return start + 1
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        write_fd, read_fd = proc.stdin.fileno(), proc.stdout.fileno()
        os.set_blocking(write_fd, False)
        ids: dict[str, int] = {}
        pending = bytearray()
        sent = answered = start
        reading = True  # False once a write fails: the program stopped reading its stdin
        with selectors.DefaultSelector() as selector:
            selector.register(read_fd, selectors.EVENT_READ)
            try:
                while answered < len(requests):
                    while reading and sent < len(requests) and sent - answered < WINDOW:
                        self._counter += 1
                        kind, ruleset, data = requests[sent]
                        ids[str(self._counter)] = sent
                        self._remember(str(self._counter), keys[sent] if keys is not None else str(self._counter))
                        pending += _encode({"cmd": "run", "id": str(self._counter), "kind": kind,
                                            "ruleset": ruleset, "input": data})
                        sent += 1
                    if pending:
                        try:
                            del pending[: os.write(write_fd, pending)]
                        except BlockingIOError:
                            pass
                        except OSError:
                            # The program is gone (or closed its stdin). Its answers may still
                            # be in the pipe: read them all before blaming a request, so the
                            # verdict depends on what it answered, not on which event came first.
                            reading = False
                            pending.clear()
                    line = self._take_line()
                    if line is None:
                        self._wait(selector, write_fd, bool(pending), mark)
                        continue
                    answer = self._decode(line)
                    ident = answer.get("id")
                    got = ids.get(ident) if isinstance(ident, str) else None
                    if got is None and isinstance(ident, str) and ident in self._recent:
                        self._late.append(self._recent[ident])  # a second answer from an earlier batch
                        self._kill()
                        self.restarts += 1
                        return answered
                    if got is None or got > answered:
                        raise AdapterFault(f"answered with id {ident!r}, expected "
                                           f"{next(k for k, v in ids.items() if v == answered)!r}")
                    if got < answered:
                        out[got] = (AdapterFault("answered this request twice; adapter killed and restarted"),
                                    out[got][1])
                        self._kill()
                        self.restarts += 1
                        return answered
                    if self.validate:
                        _validate("run-answer", answer)
                    now = time.monotonic()
                    try:
                        value: Any = _interpret(answer)
                    except (Skip, AdapterErrored) as declined:
                        value = declined
                    out[answered] = (value, (now - mark) * 1000.0)
                    answered, mark = answered + 1, now
                if b"\n" in self._buffer:  # a line nobody asked for: the last answer came twice
                    out[answered - 1] = (AdapterFault("answered this request twice; adapter killed and restarted"),
                                         out[answered - 1][1])
                    self._kill()
                    self.restarts += 1
            except AdapterFault as fault:
                out[answered] = (AdapterFault(f"{fault}; adapter killed and restarted"),
                                 (time.monotonic() - mark) * 1000.0)
                self._kill()
                self.restarts += 1
                return answered + 1
            finally:
                if self._proc is proc and proc.stdin is not None and not proc.stdin.closed:
                    os.set_blocking(write_fd, True)
        return answered

    def _remember(self, ident: str, key: Hashable) -> None:
        self._recent[ident] = key
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)

    def _wait(self, selector: selectors.BaseSelector, write_fd: int, writing: bool, mark: float) -> None:
        """Wait for output (or room to write); read it into the buffer. Faults on timeout or exit."""
        remaining = None if not self.timeout else mark + self.timeout - time.monotonic()
        if remaining is not None and remaining <= 0:
            raise AdapterFault(f"no answer within {self.timeout:g} s (timed out)")
        if writing:
            selector.register(write_fd, selectors.EVENT_WRITE)
        try:
            events = selector.select(remaining if not writing else min(remaining or 0.05, 0.05))
        finally:
            if writing:
                selector.unregister(write_fd)
        for key, mask in events:
            if key.fd != write_fd and mask & selectors.EVENT_READ:
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    raise AdapterFault(self._death("exited without answering"))
                self._buffer += chunk

    def _take_line(self) -> bytes | None:
        """The next complete line from the buffer, or None; faults over the line limit."""
        newline = self._buffer.find(b"\n")
        if newline < 0:
            if len(self._buffer) > self.line_limit:
                raise AdapterFault(f"wrote more than {self.line_limit} bytes without a newline (line limit)")
            return None
        line = bytes(self._buffer[:newline])
        del self._buffer[: newline + 1]
        if len(line) > self.line_limit:
            raise AdapterFault(f"wrote a line of {len(line)} bytes, over the {self.line_limit}-byte limit")
        return line

    # -- requests --------------------------------------------------------------------

    def _decode(self, line: bytes) -> dict[str, Any]:
        try:
            answer = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise AdapterFault(f"wrote a line that is not JSON: {_quote(line)}") from None
        if not isinstance(answer, dict):
            raise AdapterFault(f"wrote JSON that is not an object: {_quote(line)}")
        return answer

    # -- process management -----------------------------------------------------------

    def _ensure_running(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            return
        if self._down_reason is not None:
            raise AdapterFault(f"adapter is down, not restarted again: {self._down_reason}")
        self._kill()
        try:
            self._spawn_and_start()
            self._failed_restarts = 0
        except AdapterStartError as error:
            self._failed_restarts += 1
            if self._failed_restarts >= MAX_RESTART_FAILURES:
                self._down_reason = str(error)
            raise AdapterFault(f"adapter could not be restarted: {error}") from None

    def _spawn_and_start(self) -> StartInfo:
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                env=self.env,
                start_new_session=True,
            )
        except OSError as error:
            raise AdapterStartError(f"cannot start {self.argv[0]!r}: {error.strerror or error}") from None
        self._buffer.clear()
        self._stderr.clear()
        self._stderr_size = 0
        self._drainer = threading.Thread(target=self._drain_stderr, args=(self._proc,), daemon=True)
        self._drainer.start()
        try:
            self._send({"cmd": "start", "protocol": PROTOCOL_VERSION})
            answer = self._decode(self._read_line(time.monotonic() + self.start_timeout, self.start_timeout))
            if self.validate:
                _validate("start-answer", answer)
            info = _start_info(answer)
        except (AdapterFault, AdapterStartError) as error:
            self._kill()
            raise AdapterStartError(f"adapter {self.spec!r} did not start: {error}") from None
        return info

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self._buffer.clear()

    def _drain_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        stream = proc.stderr
        assert stream is not None
        while True:
            try:
                chunk = stream.read1(65536) if hasattr(stream, "read1") else os.read(stream.fileno(), 65536)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            with self._lock:
                if proc is not self._proc:
                    continue
                self._stderr.append(chunk)
                self._stderr_size += len(chunk)
                while self._stderr_size - len(self._stderr[0]) >= STDERR_TAIL and len(self._stderr) > 1:
                    self._stderr_size -= len(self._stderr.popleft())

    def _stderr_tail(self) -> str:
        with self._lock:
            data = b"".join(self._stderr)[-STDERR_TAIL:]
        text = data.decode("utf-8", errors="replace").strip()
        lines = [line for line in text.splitlines() if line.strip()][-3:]
        return " | ".join(lines)

    # -- bytes on the wire ------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        fd = proc.stdin.fileno()
        try:
            while data:
                written = os.write(fd, data)
                data = data[written:]
        except OSError:
            pass  # the program is gone: the read that follows reports how it ended

    def _read_line(self, deadline: float | None, seconds: float | None = None) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        start = 0
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while True:
                newline = self._buffer.find(b"\n", start)
                if newline >= 0:
                    line = bytes(self._buffer[:newline])
                    del self._buffer[: newline + 1]
                    if len(line) > self.line_limit:
                        raise AdapterFault(f"wrote a line of {len(line)} bytes, over the {self.line_limit}-byte limit")
                    return line
                start = len(self._buffer)
                if start > self.line_limit:
                    raise AdapterFault(f"wrote more than {self.line_limit} bytes without a newline (line limit)")
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise AdapterFault(f"no answer within {seconds or 0:g} s (timed out)")
                if not selector.select(remaining):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise AdapterFault(self._death("exited without answering"))
                self._buffer += chunk

    def _death(self, what: str) -> str:
        proc = self._proc
        status = None
        if proc is not None:
            try:
                status = proc.wait(timeout=DEATH_WAIT)
            except subprocess.TimeoutExpired:
                status = None
        text = f"{what} (exit status {status})" if status is not None else what
        if status is not None and self._drainer is not None:
            # stderr ends when the program does (unless a child it left behind holds it)
            self._drainer.join(timeout=DEATH_WAIT)
        tail = self._stderr_tail()
        return f"{text}; stderr: {tail}" if tail else text


def _encode(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


def _start_info(answer: dict[str, Any]) -> StartInfo:
    """Check the answer to ``start`` and turn it into a StartInfo."""
    if answer.get("ok") is not True:
        reason = answer.get("error") or answer.get("message") or "no reason given"
        raise AdapterStartError(f"refused to start: {reason}")
    if answer.get("protocol") != PROTOCOL_VERSION:
        raise AdapterStartError(f"speaks protocol {answer.get('protocol')!r}, the harness speaks {PROTOCOL_VERSION}")
    implementation = answer.get("implementation")
    if not isinstance(implementation, dict) or not isinstance(implementation.get("name"), str):
        raise AdapterStartError("start answer lacks implementation.name")
    capabilities = answer.get("capabilities")
    rulesets = answer.get("rulesets", ["*"])
    if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
        raise AdapterStartError("start answer: 'capabilities' must be a list of kinds")
    if not isinstance(rulesets, list) or not all(isinstance(r, str) for r in rulesets):
        raise AdapterStartError("start answer: 'rulesets' must be a list of ruleset ids")
    return StartInfo(
        name=implementation["name"],
        version=str(implementation.get("version", "")),
        capabilities=[c for c in capabilities if c in KINDS] + [c for c in capabilities if c not in KINDS],
        rulesets=list(rulesets),
    )


def _interpret(answer: dict[str, Any]) -> dict[str, Any]:
    """An in-sync answer: its result, or Skip / AdapterErrored."""
    if "result" in answer:
        result = answer["result"]
        if not isinstance(result, dict):
            raise AdapterErrored(f"'result' is not an object: {_quote(json.dumps(result).encode())}")
        return result
    if "skipped" in answer:
        raise Skip(str(answer["skipped"]))
    if "errored" in answer:
        raise AdapterErrored(f"adapter reported an error: {answer['errored']}")
    raise AdapterErrored("answer has none of 'result', 'skipped', 'errored'")


def _quote(data: bytes, limit: int = 80) -> str:
    text = data[:limit].decode("utf-8", errors="replace")
    return repr(text) + ("..." if len(data) > limit else "")


def _validate(message: str, answer: dict[str, Any]) -> None:
    from conformance.harness.protocol import validate

    problem = validate(message, answer)
    if problem:
        raise AdapterFault(f"{message} violates the protocol schema: {problem}")
