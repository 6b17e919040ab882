"""Protocol v1 messages: their JSON Schemas and a validator (debug mode only).

The schemas live in ``conformance/schema/protocol/``, one file per message, plus
``kinds.json`` with the input and result of every kind. Validation is off in the hot
path; ``arbiter run --validate-protocol`` and the tests turn it on: the messages are
checked by the child-process adapter, every adapter's results by :class:`KindChecked`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from conformance.adapters.base import Adapter, AdapterFault, PartialRun, StartInfo

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema" / "protocol"
#: Every message of protocol v1, named as its schema file.
MESSAGES: tuple[str, ...] = (
    "start-request",
    "start-answer",
    "run-request",
    "run-answer",
    "stop-request",
    "stop-answer",
)


@lru_cache(maxsize=1)
def _registry() -> Any:
    from referencing import Registry, Resource

    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((path.name, Resource.from_contents(schema)))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(message: str) -> Any:
    """A jsonschema validator for one message (``run-answer``) or kind part (``perft/result``)."""
    from jsonschema import Draft202012Validator

    if "/" in message:
        kind, part = message.split("/")
        base = json.loads((SCHEMA_DIR / "kinds.json").read_text(encoding="utf-8"))["$id"]
        schema = {"$ref": base.rsplit("/", 1)[0] + f"/kinds.json#/$defs/{kind}/{part}"}
    else:
        schema = json.loads((SCHEMA_DIR / f"{message}.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=_registry())


def validate(message: str, data: Any) -> str | None:
    """``None`` if ``data`` is a valid ``message``, else the first violation as one line."""
    error = next(iter(validator(message).iter_errors(data)), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(top)"
    return f"at {where}: {error.message}"


def kind_result_problem(kind: str, result: Any) -> str | None:
    """Whether a result object has the shape ``kinds.json`` gives for ``kind``."""
    if kind not in _kinds():
        return None
    return validate(f"{kind}/result", result)


@lru_cache(maxsize=1)
def _kinds() -> frozenset[str]:
    defs = json.loads((SCHEMA_DIR / "kinds.json").read_text(encoding="utf-8"))["$defs"]
    return frozenset(k for k, v in defs.items() if isinstance(v, dict) and "result" in v)


def result_fault(kind: str, value: Any) -> Any:
    """``value`` (a result dict or an exception), or a protocol error when it is a result
    dict without the shape ``kinds.json`` gives for ``kind``."""
    if not isinstance(value, dict):
        return value
    problem = kind_result_problem(kind, value)
    if problem is None:
        return value
    return AdapterFault(f"protocol error: {kind} result violates kinds.json: {problem}")


class KindChecked(Adapter):
    """An adapter whose every result is checked against its kind's schema: a result of
    the wrong shape (``{"nodes": "48"}``) is a protocol error (``errored``), not a
    failure. Everything else is the wrapped adapter's."""

    def __init__(self, inner: Adapter) -> None:
        self.inner = inner
        self.spec = inner.spec
        if callable(getattr(inner, "run_many", None)):
            self.run_many = self._run_many

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # not set yet (unpickling): no recursion through __getattr__
            raise AttributeError(name)
        return getattr(self.inner, name)

    def start(self) -> StartInfo:
        return self.inner.start()

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        value = result_fault(kind, self.inner.run(kind, ruleset, input))
        if isinstance(value, AdapterFault):
            raise value
        return dict(value)

    def _run_many(self, requests: list[tuple[str, str, dict[str, Any]]], **options: Any) -> list[tuple[Any, float]]:
        def checked(done: list[tuple[Any, float]]) -> list[tuple[Any, float]]:
            return [(result_fault(request[0], value), ms) for request, (value, ms) in zip(requests, done)]

        try:
            return checked(getattr(self.inner, "run_many")(requests, **options))
        except PartialRun as partial:
            raise PartialRun(checked(partial.done)) from None

    def stop(self) -> None:
        self.inner.stop()
