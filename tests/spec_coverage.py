"""Which leaves of a table the reference reads: recorded reads of the model and of the
notation tables.

:class:`ModelReads` notes, while active, the key path of every rule field read from an
entry of a ruleset's model (:mod:`reference_impl.rules.model`): each entry knows its
path, and a field read is the path and the field's YAML key. The rows of a list are
recorded under ``[]`` (so a key read in any row counts for every row); a mapping of
values (``opponent_has``) counts as read in full.

:class:`Recorder` is a read-only mapping over a table's data (the notation tables are
mappings) that notes the path of every value handed out (``get``, ``[]``, ``items()``,
``values()``), lists of mappings as rows in the same way; any other list is one leaf.
Key tests (``in``, ``keys()``, ``len``) read no value and record nothing.

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
from reference_impl.rules.model import Entry
from reference_impl.rules.reader import rule_fields

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


class ModelReads:
    """A context in which every rule field read from a model entry adds its path to ``log``."""

    def __init__(self, log: set[Path_]) -> None:
        self.log = log
        self._saved: Any = None

    def __enter__(self) -> "ModelReads":
        log = self.log
        keys: dict[type, dict[str, str]] = {}
        read = object.__getattribute__

        def recording(entry: Entry, name: str) -> Any:
            value = read(entry, name)
            cls = type(entry)
            names = keys.get(cls)
            if names is None:
                names = keys[cls] = {f.name: str(f.metadata.get("key", f.name)) for f in rule_fields(cls)}
            if name in names:
                path = tuple(ROW if isinstance(k, int) else str(k) for k in read(entry, "origin").path)
                _note(value, log, path + (names[name],))
            return value

        self._saved = Entry.__getattribute__
        Entry.__getattribute__ = recording  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        Entry.__getattribute__ = self._saved  # type: ignore[method-assign]


def _note(value: Any, log: set[Path_], path: Path_) -> None:
    """A field's value handed out: a leaf is read; an entry, or rows of entries, are read
    field by field; a mapping of leaves is read in full."""
    if isinstance(value, Entry) or (isinstance(value, tuple) and value and all(isinstance(v, Entry) for v in value)):
        return
    if isinstance(value, Mapping):
        if all(isinstance(v, Entry) for v in value.values()):
            return
        for key in value:
            log.add(path + (str(key),))
        return
    log.add(path)


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


def notation_declared(table: str, path: Path_) -> str | None:
    """The ``x-declarative`` reason the notation schema gives for ``path`` of ``table``."""
    schemas = _schemas()
    root = "notation.schema.json"
    nodes = [(root, schemas[root]), (root, schemas[root]["$defs"].get(table, {}))]
    for key in path:
        nodes = [child for cur, node in nodes for child in _children(schemas, cur, node, key)]
        for where, node in nodes:
            for candidate in (node, _resolve(schemas, where, node)[1]):
                if isinstance(candidate, Mapping) and candidate.get(DECLARATIVE):
                    return str(candidate[DECLARATIVE])
    return None
