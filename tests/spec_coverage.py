"""Which leaves of a ruleset the reference reads: a recording view of the resolved data.

:class:`Recorder` is a read-only mapping over a resolved ruleset's data that notes the
path of every value handed out (``get``, ``[]``, ``items()``, ``values()``). A list of
mappings is a table of rows: its rows are recorded under the path with ``[]`` (so a
key read in any row counts for every row); any other list is one leaf. Key tests
(``in``, ``keys()``, ``len``) read no value and record nothing.

:func:`leaf_paths` lists the leaves of a resolved ruleset in the same notation, and
:func:`declared` the ones the schema marks ``x-declarative`` (documentation the
reference is not meant to execute), with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from reference_impl.rules import spec_dir
from reference_impl.rules.diff import is_annotation

Path_ = tuple[str, ...]
ROW = "[]"  #: path step for "any row of a list of mappings"
ROOT_SCHEMA = "ruleset.schema.json"
DECLARATIVE = "x-declarative"


def _is_table(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


class Recorder(Mapping[str, Any]):
    """A read-only mapping that adds to ``log`` the path of every value read."""

    def __init__(self, data: Mapping[str, Any], log: set[Path_], path: Path_ = ()) -> None:
        self._data = data
        self._log = log
        self._path = path

    def __getitem__(self, key: str) -> Any:
        return wrap(self._data[key], self._log, self._path + (str(key),))

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Recorder({'.'.join(self._path) or '<root>'})"


def wrap(value: Any, log: set[Path_], path: Path_) -> Any:
    """``value`` as handed to the reader: mappings and rows wrapped, leaves recorded."""
    if isinstance(value, Mapping):
        if not value:
            log.add(path)
        return Recorder(value, log, path)
    if _is_table(value):
        return [Recorder(row, log, path + (ROW,)) for row in value]
    log.add(path)
    return value


def leaf_paths(data: Mapping[str, Any], path: Path_ = ()) -> Iterator[Path_]:
    """Every leaf path of ``data`` (annotations - cite, note, *_cite, *_note - left out)."""
    for key, value in data.items():
        key = str(key)
        if is_annotation(key):
            continue
        here = path + (key,)
        if isinstance(value, Mapping) and value:
            yield from leaf_paths(value, here)
        elif _is_table(value):
            for row in value:
                yield from leaf_paths(row, here + (ROW,))
        else:
            yield here


def dotted(path: Path_) -> str:
    return ".".join(path).replace(".[]", "[]")


# -- the schema's x-declarative marks -------------------------------------------------


def _schemas() -> dict[str, Any]:
    directory = spec_dir() / "schema"
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.schema.json"))}


def _resolve(schemas: dict[str, Any], current: str, node: Any) -> tuple[str, Any]:
    """Follow ``$ref`` (``file.json#/$defs/x`` or ``#/$defs/x``) until a plain node."""
    while isinstance(node, Mapping) and "$ref" in node:
        target, _, pointer = str(node["$ref"]).partition("#")
        current = target or current
        node = schemas[current]
        for part in filter(None, pointer.split("/")):
            node = node[part]
    return current, node


def _children(schemas: dict[str, Any], current: str, node: Any, key: str) -> list[tuple[str, Any]]:
    """The schema nodes that may describe ``key`` under ``node`` (through oneOf/anyOf)."""
    current, node = _resolve(schemas, current, node)
    if not isinstance(node, Mapping):
        return []
    found: list[tuple[str, Any]] = []
    for branch in list(node.get("oneOf") or []) + list(node.get("anyOf") or []):
        found += _children(schemas, current, branch, key)
    if key == ROW:
        if "items" in node:
            found.append((current, node["items"]))
        return found
    props = node.get("properties") or {}
    if key in props:
        found.append((current, props[key]))
    elif isinstance(node.get("additionalProperties"), Mapping):
        found.append((current, node["additionalProperties"]))
    return found


def declared(path: Path_) -> str | None:
    """The ``x-declarative`` reason the schema gives for ``path`` or an entry above it."""
    schemas = _schemas()
    nodes = [(ROOT_SCHEMA, schemas[ROOT_SCHEMA])]
    for key in path:
        nodes = [child for cur, node in nodes for child in _children(schemas, cur, node, key)]
        for where, node in nodes:  # the mark may sit next to a $ref or behind it
            for candidate in (node, _resolve(schemas, where, node)[1]):
                if isinstance(candidate, Mapping) and candidate.get(DECLARATIVE):
                    return str(candidate[DECLARATIVE])
    return None
