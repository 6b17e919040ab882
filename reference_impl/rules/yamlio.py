"""Read YAML safely, keeping the line of every key for error messages.

Only the safe loader is used. :func:`read_yaml` returns the plain data together with a
:class:`LineMap` that answers "on which line is ``castling.sides.king_side``?".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import yaml

from reference_impl.errors import RulesetError

PathKey = tuple[str | int, ...]


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
    """Parse ``text`` (named ``name`` in errors) with the safe loader."""
    loader = SafeLoader(text)
    try:
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise RulesetError(f"{name}:{line}: invalid YAML: {problem}") from None
    finally:
        loader.dispose()
    return data, LineMap(root)


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
