"""The ``cmd:"COMMAND"`` adapter: any program that speaks protocol v1 on stdio.

The program is started with ``shlex.split(COMMAND)`` in its own process group
(:class:`~conformance.harness.transports.child.ChildProcess`, shared with the ``uci:``
adapter). Each request is one JSON line on its stdin; the answer must be one JSON line
on its stdout (``docs/protocol.md``). stderr is collected (the last few KiB) for error
messages.

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
import subprocess
import time
from collections.abc import Hashable
from typing import Any

from reference_impl.errors import UsageError
from reference_impl.text import JsonError, loads_json, quote

from conformance.adapters.base import (KINDS, PROTOCOL_VERSION, Adapter, AdapterErrored, AdapterFault,
                   AdapterStartError, PartialRun, Skip, StartInfo)
from .child import ChildProcess

DEFAULT_TIMEOUT = 10.0  #: seconds per request
START_TIMEOUT = 30.0  #: seconds for the answer to ``start``
STOP_TIMEOUT = 2.0  #: seconds for ``stop`` and the exit that follows
LINE_LIMIT = 1 << 20  #: longest accepted answer line, bytes
MAX_RESTART_FAILURES = 3  #: consecutive failed restarts before giving up
WINDOW = 16  #: requests written ahead of the answers in :meth:`ProcessAdapter.run_many`
RECENT = 1024  #: ids of past requests remembered, to recognise a late second answer


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
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as error:  # "No closing quotation": the user's spec, a usage error
            raise UsageError(f"adapter command {quote(command)}: {error} (shell quoting)") from None
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
        self._child: ChildProcess | None = None
        self._counter = 0
        self._failed_restarts = 0
        self._down_reason: str | None = None
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
        child = self._child
        if child is None:
            return
        if child.alive():
            try:
                child.send(_encode({"cmd": "stop"}))
                deadline = time.monotonic() + STOP_TIMEOUT
                while self._note_late(child.read_line(deadline, STOP_TIMEOUT)):
                    pass
                child.proc.wait(timeout=STOP_TIMEOUT)
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
            ident = _parse(line).get("id")
        except (JsonError, UnicodeDecodeError, AttributeError):
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
        child = self._child
        assert child is not None
        write_fd, read_fd = child.stdin_fd, child.stdout_fd
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
                    line = child.take_line()
                    if line is None:
                        self._wait(child, selector, write_fd, bool(pending), mark)
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
                if b"\n" in child.buffer:  # a line nobody asked for: the last answer came twice
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
                if self._child is child and child.proc.stdin is not None and not child.proc.stdin.closed:
                    os.set_blocking(write_fd, True)
        return answered

    def _remember(self, ident: str, key: Hashable) -> None:
        self._recent[ident] = key
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)

    def _wait(self, child: ChildProcess, selector: selectors.BaseSelector, write_fd: int, writing: bool,
              mark: float) -> None:
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
                child.read_some()

    # -- requests --------------------------------------------------------------------

    def _decode(self, line: bytes) -> dict[str, Any]:
        """One answer line as a JSON object, read within the limits of the bounded reader
        (nesting, number length, Unicode strings); AdapterFault otherwise."""
        try:
            answer = _parse(line)
        except UnicodeDecodeError:
            raise AdapterFault(f"wrote a line that is not UTF-8: {_quote(line)}") from None
        except JsonError as error:
            raise AdapterFault(f"wrote a line that is not bounded JSON ({error.reason}): {_quote(line)}") from None
        if not isinstance(answer, dict):
            raise AdapterFault(f"wrote JSON that is not an object: {_quote(line)}")
        return answer

    # -- process management -----------------------------------------------------------

    def _ensure_running(self) -> None:
        if self._child is not None and self._child.alive():
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
            child = self._child = ChildProcess(self.argv, self.line_limit, "exited without answering", env=self.env)
        except OSError as error:
            raise AdapterStartError(f"cannot start {self.argv[0]!r}: {error.strerror or error}") from None
        try:
            child.send(_encode({"cmd": "start", "protocol": PROTOCOL_VERSION}))
            answer = self._decode(child.read_line(time.monotonic() + self.start_timeout, self.start_timeout))
            if self.validate:
                _validate("start-answer", answer)
            info = _start_info(answer)
        except (AdapterFault, AdapterStartError) as error:
            self._kill()
            raise AdapterStartError(f"adapter {quote(self.spec)} did not start: {error}") from None
        return info

    def _kill(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()


def _parse(line: bytes) -> Any:
    """A line of the program's output through the harness's bounded JSON reader."""
    return loads_json(line.decode("utf-8"))


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
    unclassified = answer.get("unclassified_errors", [])
    if not isinstance(unclassified, list) or not all(isinstance(k, str) for k in unclassified):
        raise AdapterStartError("start answer: 'unclassified_errors' must be a list of kinds")
    return StartInfo(
        name=implementation["name"],
        version=str(implementation.get("version", "")),
        capabilities=[c for c in capabilities if c in KINDS] + [c for c in capabilities if c not in KINDS],
        rulesets=list(rulesets),
        unclassified_errors=list(unclassified),
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


def _quote(data: bytes) -> str:
    """The start of a line the program wrote, escaped and bounded for a message."""
    return quote(data.decode("utf-8", errors="replace"))


def _validate(message: str, answer: dict[str, Any]) -> None:
    from conformance.harness.protocol import validate

    problem = validate(message, answer)
    if problem:
        raise AdapterFault(f"{message} violates the protocol schema: {problem}")
