"""Read YAML safely, keeping the line of every key for error messages.

Only the safe loader is used, within limits checked before any Python object is built
(:data:`LIMITS`): nesting depth (checked on the event stream, before the recursive
composer runs), the number of values once every alias is expanded (a kilobyte of nested
aliases can stand for billions), aliases that contain themselves, mapping keys that are
not strings, and integers too long to convert. :func:`read_yaml` returns the plain data
together with a :class:`LineMap` that answers "on which line is
``castling.sides.king_side``?".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import yaml

from reference_impl.errors import RulesetError
from reference_impl.text import MAX_INT_DIGITS, quote

#: Bounds on one YAML document; a ruleset uses a few thousand values and depth 8.
LIMITS = {
    "depth": 64,  # nested mappings and sequences
    "values": 100_000,  # scalars, mappings and sequences, every alias expanded
}
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_MERGE = "tag:yaml.org,2002:merge"

PathKey = tuple[str | int, ...]


class YamlError(RulesetError):
    """A YAML document is malformed or beyond :data:`LIMITS`: ``NAME:LINE: reason``."""

    def __init__(self, name: str, line: int, reason: str) -> None:
        super().__init__(f"{name}:{line}: {reason}")
        self.name, self.line, self.reason = name, line, reason


@dataclass(frozen=True)
class LineMap:
    """1-based line numbers of the nodes of one YAML document, looked up by key path."""

    root: yaml.Node | None

    def line(self, path: Sequence[str | int]) -> int:
        """The line of the deepest node on ``path`` that exists (1 for an empty file)."""
        node = self.root
        if node is None:
            return 1
        line = node.start_mark.line + 1
        for key in path:
            child = _child(node, key)
            if child is None:
                break
            node, line = child
        return line


    def duplicate_keys(self) -> list[tuple[PathKey, int]]:
        """(key path, line) of every mapping key that appears a second time."""
        out: list[tuple[PathKey, int]] = []
        if self.root is not None:
            _duplicates(self.root, (), out)
        return out


def _duplicates(node: yaml.Node, path: PathKey, out: list[tuple[PathKey, int]]) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "?"
            if key in seen:
                out.append((path + (key,), key_node.start_mark.line + 1))
            seen.add(key)
            _duplicates(value_node, path + (key,), out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _duplicates(item, path + (index,), out)


def _child(node: yaml.Node, key: str | int) -> tuple[yaml.Node, int] | None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(key):
                return value_node, key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
        if 0 <= key < len(node.value):
            item = node.value[key]
            return item, item.start_mark.line + 1
    return None


#: The safe loader, in C when libyaml is available (same safe semantics).
SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, name: str) -> tuple[Any, LineMap]:
    """Parse ``text`` (named ``name`` in errors) with the safe loader, within :data:`LIMITS`.

    Every problem is a :class:`RulesetError` reading ``NAME:LINE: reason``.
    """
    try:
        _check_depth(text, name)
        loader = SafeLoader(text)
        try:
            root = loader.get_single_node()
            if root is not None:
                _check_nodes(root, name)
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise YamlError(name, line, f"invalid YAML: {problem}") from None
    return data, LineMap(root)


def _check_depth(text: str, name: str) -> None:
    """Refuse nesting deeper than the limit, from the parser's events (no recursion)."""
    depth, limit = 0, LIMITS["depth"]
    loader = SafeLoader(text)
    try:
        while _next_event(loader, name, limit):
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > limit:
                    line = event.start_mark.line + 1 if event.start_mark else 1
                    raise YamlError(name, line, f"YAML nested deeper than {limit} levels")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    finally:
        loader.dispose()


def _next_event(loader: SafeLoader, name: str, limit: int) -> bool:
    """``loader.check_event()``; libyaml's own nesting limit (PyYAML 6.0.4 and later)
    reads as ours, whichever of the two is met first."""
    try:
        return bool(loader.check_event())
    except yaml.YAMLError as error:
        if "nesting depth" not in str(error):
            raise
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        raise YamlError(name, mark.line + 1 if mark else 1, f"YAML nested deeper than {limit} levels") from None


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_nodes(root: yaml.Node, name: str) -> None:
    """Keys are strings, integers are short, aliases are acyclic and expand within limits.

    An iterative walk over the node graph, each node visited once: the expanded size of
    a node is memoised, so an alias bomb is measured without being expanded.
    """
    limit = LIMITS["values"]
    size: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        ident = id(node)
        line = node.start_mark.line + 1
        if done:
            on_path.discard(ident)
            total = 1 + sum(size[id(child)] for child in _children(node))
            if total > limit:
                raise YamlError(name, line, f"YAML expands to more than {limit:,} values "
                                "(aliases repeated inside aliases?)")
            size[ident] = total
            continue
        if ident in size:
            continue
        if ident in on_path:
            raise YamlError(name, line, "a YAML alias refers to a node that contains it")
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT and len(node.value) > MAX_INT_DIGITS + 3:
                raise YamlError(name, line, f"integer {quote(node.value)} is too long "
                                f"(at most {MAX_INT_DIGITS} digits)")
            size[ident] = 1
            continue
        if isinstance(node, yaml.MappingNode):
            for key, _ in node.value:
                if key.tag not in (_STR, _MERGE) or not isinstance(key, yaml.ScalarNode):
                    shown = quote(key.value) if isinstance(key, yaml.ScalarNode) else "a collection"
                    raise YamlError(name, key.start_mark.line + 1,
                                    f"key {shown} is not a string (quote it if it is meant as text)")
        on_path.add(ident)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(_children(node)))


_PARSED: dict[tuple[str, int, int], tuple[Any, LineMap]] = {}


def read_yaml(path: Path) -> tuple[Any, LineMap]:
    """Read and parse the YAML file at ``path`` (cached while the file is unchanged).

    Callers must not modify the returned data.
    """
    try:
        stat = path.stat()
    except OSError as error:
        raise RulesetError(f"{path}: cannot read: {error.strerror or error}") from None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    hit = _PARSED.get(key)
    if hit is None:
        hit = _PARSED[key] = _read_uncached(path)
    return hit


def _read_uncached(path: Path) -> tuple[Any, LineMap]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesetError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RulesetError(f"{path}: not UTF-8 text") from None
    return parse_yaml(text, str(path))


def format_path(path: Sequence[str | int]) -> str:
    """``("setup", "constraints", 0, "piece")`` as ``setup.constraints[0].piece``."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "(top level)"
