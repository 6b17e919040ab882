"""Compare two resolved rulesets entry by entry, with the articles each side cites.

An entry is a leaf of the resolved mapping (a scalar or a whole list). For each
differing entry the cite is the nearest ``cite`` on the way up from the leaf in each
ruleset (the entry's own, or its section's).
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
        if not isinstance(node, Mapping) or key not in node:
            return ABSENT
        node = node[key]
    return node


def cite_for(data: Mapping[str, Any], path: tuple[str, ...]) -> str | None:
    """The nearest ``cite`` at or above ``path`` in ``data``."""
    for depth in range(len(path), 0, -1):
        node = _get(data, path[:depth])
        if isinstance(node, Mapping) and isinstance(node.get("cite"), str):
            return str(node["cite"])
        parent = _get(data, path[: depth - 1])
        if path[depth - 1] == "cite" and isinstance(parent, Mapping):
            return str(parent.get("cite"))
    return None


def is_annotation(key: str) -> bool:
    """``cite``, ``*_cite``, ``note`` and ``*_note`` keys annotate an entry; they are not rules."""
    return key in ("cite", "note") or key.endswith(("_cite", "_note"))


def diff(a: Mapping[str, Any], b: Mapping[str, Any], annotations: bool = False) -> list[Difference]:
    """Every entry that differs between the resolved mappings ``a`` and ``b``.

    Differences in ``cite``/``note`` keys alone are left out unless ``annotations``.
    """
    skip = NOT_INHERITED
    paths: dict[tuple[str, ...], None] = {}
    for data in (a, b):
        for key, value in data.items():
            if key in skip:
                continue
            for path, _ in _leaves(value, (str(key),)):
                paths.setdefault(path, None)
    out = []
    for path in paths:
        if not annotations and is_annotation(path[-1]):
            continue
        va, vb = _get(a, path), _get(b, path)
        if isinstance(va, Mapping) and isinstance(vb, Mapping):
            continue  # a leaf on one side only because the other has an empty mapping
        if va != vb:
            out.append(Difference(path, va, vb, cite_for(a, path), cite_for(b, path)))
    return out
