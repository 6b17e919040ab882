"""Protocol v1, adapter side: answer requests from a stream with an in-process adapter.

This is what ``arbiter serve`` runs: the reference (or any in-process adapter) as a
program that tools in any language can drive over stdin and stdout.

A bad request never ends the session: a line longer than :data:`LINE_LIMIT`, not UTF-8,
or beyond the bounded JSON reader's limits is answered ``{"ok": false, "error": ...}``;
a ``run`` whose answer cannot be written as one line within :data:`LINE_LIMIT` (too
large, not JSON text) is answered ``errored`` for its id.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

from reference_impl.text import JsonError, loads_json, quote

from conformance.adapters.base import PROTOCOL_VERSION, Adapter, AdapterStartError, Skip, StartInfo

#: Longest line read or written, newline included (protocol v1: 1 MiB).
LINE_LIMIT = 1 << 20


def answer(adapter: Adapter, state: dict[str, Any], message: Any) -> tuple[dict[str, Any], bool]:
    """The answer to one request, and whether the session ends after it."""
    if not isinstance(message, dict):
        return {"ok": False, "error": "a request must be a JSON object"}, False
    command = message.get("cmd")
    if command == "run":
        return _run(adapter, state.get("info"), message), False
    if command == "start":
        if message.get("protocol") != PROTOCOL_VERSION:
            return {"ok": False, "error": f"protocol {message.get('protocol')!r} is not supported; "
                                          f"this adapter speaks {PROTOCOL_VERSION}"}, False
        try:
            info = state.get("info") or adapter.start()
        except Exception as error:  # the served adapter failed to start: say so, keep serving
            text = str(error) if isinstance(error, AdapterStartError) else f"{type(error).__name__}: {error}"
            return {"ok": False, "error": text}, False
        state["info"] = info
        return info.as_message(), False
    if command == "stop":
        return {"ok": True}, True
    return {"ok": False, "error": f"unknown cmd {command!r} (start, run or stop)"}, False


def _run(adapter: Adapter, info: StartInfo | None, message: dict[str, Any]) -> dict[str, Any]:
    ident = message.get("id")
    if info is None:
        return {"id": ident, "errored": "no start request yet"}
    kind, ruleset, data = message.get("kind"), message.get("ruleset"), message.get("input")
    if not isinstance(kind, str) or not isinstance(ruleset, str) or not isinstance(data, dict):
        return {"id": ident, "errored": "run needs kind (string), ruleset (string) and input (object)"}
    if not info.supports(kind, ruleset):
        return {"id": ident, "skipped": f"not declared: kind {kind!r} under ruleset {ruleset!r}"}
    try:
        return {"id": ident, "result": adapter.run(kind, ruleset, data)}
    except Skip as skip:
        return {"id": ident, "skipped": skip.reason}
    except KeyError as error:
        return {"id": ident, "errored": f"input lacks {error}"}
    except Exception as error:  # reported to the harness, which marks the fixture errored
        return {"id": ident, "errored": f"{type(error).__name__}: {error}"}


def _lines(stdin: IO[bytes]) -> Iterator[bytes | None]:
    """The input's lines; ``None`` for one longer than LINE_LIMIT (the rest is skipped)."""
    while True:
        raw = stdin.readline(LINE_LIMIT + 1)
        if not raw:
            return
        if len(raw) > LINE_LIMIT and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = stdin.readline(LINE_LIMIT)
            yield None
        else:
            yield raw


def _read(raw: bytes | None) -> tuple[Any, str | None]:
    """A request line as JSON, or why it is not one (bounded text)."""
    if raw is None:
        return None, f"request line longer than {LINE_LIMIT:,} bytes"
    try:
        return loads_json(raw.decode("utf-8")), None
    except UnicodeDecodeError:
        return None, "request line is not UTF-8"
    except JsonError as error:
        return None, f"not JSON: {error.reason}"


def encode(reply: dict[str, Any]) -> bytes:
    """One answer line within LINE_LIMIT; a reply that cannot be one becomes an error for its id."""
    try:
        line = _DUMPS(reply).encode("utf-8") + b"\n"
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError) as error:
        problem = f"the answer is not JSON text ({type(error).__name__}: {quote(str(error))})"
    else:
        if len(line) <= LINE_LIMIT:
            return line
        problem = f"the answer is {len(line):,} bytes, over the protocol's {LINE_LIMIT:,}-byte line limit"
    ident = reply.get("id")
    fallback: dict[str, Any] = (
        {"id": ident, "errored": problem} if isinstance(ident, str) and len(ident) < 1000
        else {"ok": False, "error": problem}
    )
    return _DUMPS(fallback).encode("utf-8") + b"\n"


_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def serve(adapter: Adapter, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Answer requests line by line until ``stop`` or end of input; return the exit status."""
    state: dict[str, Any] = {}
    try:
        for raw in _lines(stdin):
            if raw is not None and not raw.strip():
                continue
            message, problem = _read(raw)
            if problem is not None:
                reply: dict[str, Any] = {"ok": False, "error": problem}
                done = False
            else:
                reply, done = answer(adapter, state, message)
            stdout.write(encode(reply))
            stdout.flush()
            if done:
                break
    finally:
        if "info" in state:
            adapter.stop()
    return 0
