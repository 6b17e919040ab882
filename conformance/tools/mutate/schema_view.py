"""What the ruleset JSON Schema says about one key path: allowed values, fixed lengths,
and ``x-declarative`` reasons (pure; the schema documents come in as a mapping).

``x-declarative: REASON`` on a subschema marks a key that documents the Laws without
deciding anything the reference computes; a mutant of it (or of anything below it) is
equivalent, with that reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

KeyPath = tuple[str | int, ...]

#: The schema annotation that marks a key declarative; its value is the reason.
DECLARATIVE = "x-declarative"
#: Keywords whose subschemas all apply to the same instance.
COMBINATORS = ("allOf", "anyOf", "oneOf")
CONDITIONALS = ("then", "else")

Node = tuple[Mapping[str, Any], str]  #: a subschema and the document it lives in


@dataclass(frozen=True)
class SchemaView:
    """The schema documents (file name -> JSON) and the root document's name."""

    documents: Mapping[str, Any]
    root: str = "ruleset.schema.json"

    def nodes(self, path: KeyPath) -> list[Mapping[str, Any]]:
        """Every subschema that may apply at ``path`` (refs and combinators expanded)."""
        return [node for node, _ in self._walk(path)[-1]]

    def declarative(self, path: KeyPath) -> str | None:
        """The ``x-declarative`` reason on ``path`` or on one of its ancestors, or None."""
        for level in reversed(self._walk(path)):
            for node, _ in level:
                reason = node.get(DECLARATIVE)
                if isinstance(reason, str) and reason:
                    return reason
        return None

    def allowed(self, path: KeyPath) -> list[Any]:
        """The values an ``enum`` or ``const`` at ``path`` allows, in schema order (may be empty)."""
        out: list[Any] = []
        for node in self.nodes(path):
            values = list(node.get("enum") or []) + ([node["const"]] if "const" in node else [])
            out.extend(v for v in values if not any(_same(v, seen) for seen in out))
        return out

    def fixed_length(self, path: KeyPath) -> bool:
        """True when the array at ``path`` has ``minItems == maxItems`` (a tuple, e.g. a vector)."""
        return any("minItems" in n and n.get("minItems") == n.get("maxItems") for n in self.nodes(path))

    def _walk(self, path: KeyPath) -> list[list[Node]]:
        level = self._expand(self.documents[self.root], self.root)
        levels = [level]
        for key in path:
            level = [found for node, doc in level for child in _children(node, key) for found in self._expand(child, doc)]
            levels.append(level)
        return levels

    def _expand(self, node: Any, doc: str) -> list[Node]:
        out: list[Node] = []
        stack: list[tuple[Any, str]] = [(node, doc)]
        while stack:
            current, where = stack.pop()
            if not isinstance(current, Mapping):
                continue
            out.append((current, where))
            if isinstance(current.get("$ref"), str):
                stack.append(self._ref(current["$ref"], where))
            for key in COMBINATORS:
                stack.extend((sub, where) for sub in current.get(key) or [])
            stack.extend((current[key], where) for key in CONDITIONALS if key in current)
        return out

    def _ref(self, ref: str, doc: str) -> tuple[Any, str]:
        target, _, pointer = ref.partition("#")
        name = target.rsplit("/", 1)[-1] if target else doc
        node: Any = self.documents.get(name, {})
        for part in [p for p in pointer.split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            node = node.get(part, {}) if isinstance(node, Mapping) else {}
        return node, name


def _children(node: Mapping[str, Any], key: str | int) -> list[Any]:
    if isinstance(key, int):
        prefix = node.get("prefixItems") or []
        if key < len(prefix):
            return [prefix[key]]
        return [node["items"]] if isinstance(node.get("items"), Mapping) else []
    properties = node.get("properties") or {}
    if key in properties:
        return [properties[key]]
    matched = [sub for pattern, sub in (node.get("patternProperties") or {}).items() if re.search(pattern, key)]
    if matched:
        return matched
    extra = node.get("additionalProperties")
    return [extra] if isinstance(extra, Mapping) else []


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b
