"""The ``extends`` merge: how a child ruleset changes its parent's resolved mapping.

* a mapping merges key by key, recursively;
* any other value (a scalar or a list) replaces the parent's value whole;
* ``null`` removes the key;
* :data:`NOT_INHERITED` keys are never taken from the parent.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

#: Top-level keys that describe one file and are never inherited.
NOT_INHERITED = frozenset({"id", "title", "aliases", "abstract", "extends"})
#: Values a copy shares: they cannot change.
_IMMUTABLE = (str, int, float, bool, type(None))


def merge(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """``parent`` with ``child`` merged over it; neither argument is modified."""
    out: dict[str, Any] = {k: _copy(v) for k, v in parent.items()}
    for key, value in child.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, Mapping):
            base = out.get(key)
            out[key] = merge(base if isinstance(base, Mapping) else {}, value)
        else:
            out[key] = _copy(value)
    return out


def _copy(value: Any) -> Any:
    """``copy.deepcopy(value)`` for what YAML reads (mappings, lists, scalars), faster;
    anything else by ``copy.deepcopy``."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _IMMUTABLE else _copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _IMMUTABLE else _copy(v) for v in value]
    if kind in _IMMUTABLE:
        return value
    return copy.deepcopy(value)


def inherit(parent_resolved: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Resolve ``child`` over its parent's resolved mapping (top level: see NOT_INHERITED)."""
    base = {k: v for k, v in parent_resolved.items() if k not in NOT_INHERITED}
    return merge(base, child)


def strip_nulls(value: Any) -> Any:
    """``value`` without null-valued mapping keys (a file as written, minus its removals)."""
    if isinstance(value, Mapping):
        return {k: strip_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [strip_nulls(v) for v in value]
    return value
