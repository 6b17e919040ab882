"""The mutants of a resolved ruleset: one small change to one entry each (pure).

Per leaf: an integer ±1, a boolean flipped, a string the schema enumerates swapped
for each other value it allows. Per list: each item dropped, each value the schema
allows for an item added, integer items ±1, the items of an ordered list swapped in
pairs; a vector (fixed-length list) changes a component ±1 but never loses one. A
mapping that holds only annotations (``pawn.en_passant: {cite: ...}``: the rule exists)
is removed. Annotations (``cite``, ``note``, ``*_cite``, ``*_note``) and the descriptive top-level keys
(:data:`DESCRIPTIVE`) are never mutated; free text (a FEN, a piece letter) neither.
A mutant under a key the schema marks ``x-declarative`` is equivalent, with the reason.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from reference_impl.rules.diff import is_annotation
from reference_impl.rules.yamlio import format_path as dotted

from .schema_view import KeyPath, SchemaView

__all__ = ["DESCRIPTIVE", "Mutant", "apply", "dotted", "generate", "is_annotation", "overrides", "show"]

#: Top-level keys that describe the file, not a rule.
DESCRIPTIVE = frozenset({"id", "title", "aliases", "abstract", "extends", "federation", "edition", "note"})
#: Lists whose order decides something (precedence): their neighbours are also swapped.
ORDERED_KEYS = frozenset({"order", "precedence"})
#: The value of a mutant that removes its key.
REMOVE = None


@dataclass(frozen=True)
class Mutant:
    """One change: ``path`` gets ``value`` (:data:`REMOVE`: the key goes).

    ``entry`` is the rule entry the change belongs to (the nearest mapping with a
    ``cite``) and ``cite`` its article; ``equivalent`` the reason the change cannot
    alter any answer, or None.
    """

    path: KeyPath
    value: Any
    mutation: str
    entry: KeyPath
    cite: str
    equivalent: str | None = None

    @property
    def where(self) -> str:
        return dotted(self.path)


def show(value: Any) -> str:
    """A value as it reads in the YAML (compact JSON)."""
    return json.dumps(value, separators=(", ", ": "))


def apply(data: Mapping[str, Any], mutant: Mutant) -> dict[str, Any]:
    """A deep copy of ``data`` with the mutant's change made."""
    out = copy.deepcopy(dict(data))
    node: Any = out
    for key in mutant.path[:-1]:
        node = node[key]
    last = mutant.path[-1]
    if mutant.value is REMOVE and isinstance(node, dict):
        node.pop(last, None)
    else:
        node[last] = copy.deepcopy(mutant.value)
    return out


def overrides(data: Mapping[str, Any], mutant: Mutant) -> dict[str, Any]:
    """The mutant as an ``extends``-style override of ``data``: nested mappings down to
    the changed key, or to the outermost list on the way (a list is replaced whole;
    ``None``, i.e. :data:`REMOVE`, removes the key)."""
    index = next((i for i, key in enumerate(mutant.path) if isinstance(key, int)), None)
    if index is None:
        cut, leaf = mutant.path, mutant.value
    else:
        cut, leaf = mutant.path[:index], apply(data, mutant)
        for step in cut:
            leaf = leaf[step]  # type: ignore[index]  # a list by index
    out: dict[str, Any] = {}
    here = out
    for key in cut[:-1]:
        here = here.setdefault(str(key), {})
    here[str(cut[-1])] = leaf
    return out


def generate(data: Mapping[str, Any], schema: SchemaView) -> list[Mutant]:
    """Every mutant of ``data`` (a resolved ruleset), in document order."""
    out: list[Mutant] = []
    for key, value in data.items():
        if key in DESCRIPTIVE or is_annotation(key):
            continue
        out.extend(_mutants((key,), value, schema, _entry_of(data, (key,))))
    return out


def _entry_of(data: Mapping[str, Any], path: KeyPath) -> tuple[KeyPath, str]:
    """The nearest mapping on ``path`` (itself included) that carries a cite."""
    found: tuple[KeyPath, str] = ((path[0],), "")
    node: Any = data
    for depth, key in enumerate(path):
        node = node[key] if isinstance(node, (dict, list)) else None  # type: ignore[index]  # a list by index
        if isinstance(node, dict) and "cite" in node:
            found = (path[: depth + 1], _cite_text(node["cite"]))
    return found


def _cite_text(cite: Any) -> str:
    return ", ".join(map(str, cite)) if isinstance(cite, list) else str(cite)


def _mutants(path: KeyPath, value: Any, schema: SchemaView, entry: tuple[KeyPath, str]) -> Iterator[Mutant]:
    if isinstance(value, dict):
        entry = (path, _cite_text(value["cite"])) if "cite" in value else entry
        rules = [k for k in value if not is_annotation(k)]
        if not rules and value:
            yield _make(path, REMOVE, "entry removed", entry, schema)
        for key in rules:
            yield from _mutants(path + (key,), value[key], schema, entry)
    elif isinstance(value, list):
        yield from _list_mutants(path, value, schema, entry)
    else:
        for new, text in _scalar_changes(path, value, schema):
            yield _make(path, new, text, entry, schema)


def _scalar_changes(path: KeyPath, value: Any, schema: SchemaView) -> list[tuple[Any, str]]:
    if isinstance(value, bool):
        return [(not value, f"{show(value)} -> {show(not value)}")]
    if isinstance(value, (int, float)):
        return [(value + d, f"{show(value)} -> {show(value + d)}") for d in (1, -1)]
    if isinstance(value, str):
        return [(v, f"{show(value)} -> {show(v)}") for v in schema.allowed(path) if v != value]
    return []


def _list_mutants(path: KeyPath, items: list[Any], schema: SchemaView, entry: tuple[KeyPath, str]) -> Iterator[Mutant]:
    fixed = schema.fixed_length(path)
    if all(isinstance(i, dict) for i in items):
        for index, item in enumerate(items):
            yield from _mutants(path + (index,), item, schema, entry)
    if not fixed:
        for index, item in enumerate(items):
            yield _make(path, items[:index] + items[index + 1:], f"drop {show(item)}", entry, schema)
        for extra in schema.allowed(path + (len(items),)):
            if extra not in items:
                yield _make(path, items + [extra], f"add {show(extra)}", entry, schema)
    if all(isinstance(i, int) and not isinstance(i, bool) for i in items):
        for index, item in enumerate(items):
            for d in (1, -1):
                changed = items[:index] + [item + d] + items[index + 1:]
                if fixed and not any(changed):  # a vector: a zero step is no move at all
                    continue
                yield _make(path, changed, f"{show(items)} -> {show(changed)}", entry, schema)
    numbers = all(isinstance(i, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in i) for i in items)
    if all(isinstance(i, list) for i in items) and not numbers:  # rows of words (look-alike groups)
        for index, row in enumerate(items):
            yield from _list_mutants(path + (index,), row, schema, entry)
    if all(isinstance(i, list) for i in items) and numbers:
        for index, vector in enumerate(items):
            for component, number in enumerate(vector):
                for d in (1, -1):
                    changed = list(vector)
                    changed[component] = number + d
                    if any(changed):  # a zero step is no move at all
                        new = items[:index] + [changed] + items[index + 1:]
                        yield _make(path, new, f"{show(vector)} -> {show(changed)}", entry, schema)
    if path[-1] in ORDERED_KEYS and len(items) > 1:
        for index in range(len(items) - 1):
            swapped = items[:index] + [items[index + 1], items[index]] + items[index + 2:]
            yield _make(path, swapped, f"swap {show(items[index])} and {show(items[index + 1])}", entry, schema)


def _make(path: KeyPath, value: Any, text: str, entry: tuple[KeyPath, str], schema: SchemaView) -> Mutant:
    return Mutant(path, value, text, entry[0], entry[1], schema.declarative(path))
