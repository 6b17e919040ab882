"""Compare two resolved rulesets entry by entry, with the articles each side cites.

An entry is a leaf of the resolved mapping (a scalar or a whole list). Values are
compared without their annotations (``cite``, ``note``, ``*_cite``, ``*_note``, also
inside the rows of a list such as ``speed.bands``), so an entry differs only when a
rule differs; :func:`annotation_diff` lists the annotations that differ, rows of lists
included, separately. For each differing entry the cite is the nearest ``cite`` on
the way up from the leaf in each ruleset (the entry's own, or its section's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from .merge import NOT_INHERITED

#: Shown for an entry one ruleset does not have.
ABSENT = object()


@dataclass(frozen=True)
class Difference:
    """One entry whose resolved value differs between rulesets A and B."""

    path: tuple[str, ...]
    a: Any
    b: Any
    cite_a: str | None
    cite_b: str | None

    @property
    def key(self) -> str:
        return ".".join(self.path)


def _leaves(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(value, Mapping) and value:
        for key, child in value.items():
            yield from _leaves(child, path + (str(key),))
    else:
        yield path, value


def _get(data: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = data
    for key in path:
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        elif isinstance(node, Mapping) and key in node:
            node = node[key]
        else:
            return ABSENT
    return node


def without_annotations(value: Any) -> Any:
    """``value`` with every annotation key removed, in mappings and in list rows."""
    if isinstance(value, Mapping):
        return {k: without_annotations(v) for k, v in value.items() if not is_annotation(str(k))}
    if isinstance(value, list):
        return [without_annotations(v) for v in value]
    return value


def _annotations(value: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every annotation leaf under ``value``, list rows included (by index)."""
    if isinstance(value, Mapping):
        for key, child in value.items():
            here = path + (str(key),)
            if is_annotation(str(key)):
                yield here, child
            else:
                yield from _annotations(child, here)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _annotations(child, path + (str(index),))


def cite_for(data: Mapping[str, Any], path: tuple[str, ...]) -> str | None:
    """The key's own ``<key>_cite`` beside it, else the nearest ``cite`` at or above ``path``."""
    parent = _get(data, path[:-1]) if path else ABSENT
    if isinstance(parent, Mapping) and isinstance(parent.get(f"{path[-1]}_cite"), str):
        return str(parent[f"{path[-1]}_cite"])
    for depth in range(len(path), 0, -1):
        node = _get(data, path[:depth])
        if isinstance(node, Mapping) and isinstance(node.get("cite"), str):
            return str(node["cite"])
        parent = _get(data, path[: depth - 1])
        if path[depth - 1] == "cite" and isinstance(parent, Mapping):
            return str(parent.get("cite"))
    return None


def is_annotation(key: object) -> bool:
    """``cite``, ``*_cite``, ``note`` and ``*_note`` keys annotate an entry; they are not
    rules (nor is a list index an annotation)."""
    return isinstance(key, str) and (key in ("cite", "note") or key.endswith(("_cite", "_note")))


def diff(a: Mapping[str, Any], b: Mapping[str, Any], annotations: bool = False) -> list[Difference]:
    """Every rule entry whose value (annotations left out) differs between ``a`` and ``b``.

    With ``annotations``, the differing annotations follow (:func:`annotation_diff`).
    """
    paths: dict[tuple[str, ...], None] = {}
    for data in (a, b):
        for key, value in data.items():
            if key in NOT_INHERITED or is_annotation(str(key)):
                continue
            for path, _ in _leaves(without_annotations(value), (str(key),)):
                paths.setdefault(path, None)
    out = []
    for path in paths:
        va, vb = (without_annotations(_get(data, path)) for data in (a, b))
        if isinstance(va, Mapping) and isinstance(vb, Mapping):
            continue  # a leaf on one side only because the other has an empty mapping
        if va != vb:
            out.append(Difference(path, _get(a, path), _get(b, path), cite_for(a, path), cite_for(b, path)))
    return out + annotation_diff(a, b) if annotations else out


def annotation_diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[Difference]:
    """Every ``cite``/``note`` (or ``*_cite``/``*_note``) that differs, rows of lists included."""
    paths: dict[tuple[str, ...], None] = {}
    for data in (a, b):
        for key, value in data.items():
            if key in NOT_INHERITED:
                continue
            if is_annotation(str(key)):
                paths.setdefault((str(key),), None)
            for path, _ in _annotations(value, (str(key),)):
                paths.setdefault(path, None)
    out = []
    for path in paths:
        va, vb = _get(a, path), _get(b, path)
        if va != vb:
            out.append(Difference(path, va, vb, cite_for(a, path), cite_for(b, path)))
    return out
