"""Protocol v1, adapter side: answer requests from a stream with an in-process adapter.

This is what ``arbiter serve`` runs: the reference (or any in-process adapter) as a
program that tools in any language can drive over stdin and stdout.
"""

from __future__ import annotations

import json
from typing import IO, Any

from ..adapters.base import PROTOCOL_VERSION, Adapter, AdapterStartError, Skip, StartInfo


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
        except AdapterStartError as error:
            return {"ok": False, "error": str(error)}, False
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


def serve(adapter: Adapter, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Answer requests line by line until ``stop`` or end of input; return the exit status."""
    state: dict[str, Any] = {}
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    try:
        for raw in stdin:
            if not raw.strip():
                continue
            try:
                message = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as error:
                reply: dict[str, Any] = {"ok": False, "error": f"not JSON: {error}"}
                done = False
            else:
                reply, done = answer(adapter, state, message)
            stdout.write(dumps(reply).encode("utf-8") + b"\n")
            stdout.flush()
            if done:
                break
    finally:
        if "info" in state:
            adapter.stop()
    return 0
