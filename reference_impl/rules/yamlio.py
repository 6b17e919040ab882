"""Read YAML safely, keeping the line of every key for error messages.

Only the safe loader is used, within limits checked before any Python object is built
(:data:`LIMITS`): nesting depth (checked on the event stream, before the recursive
composer runs), the number of values once every alias is expanded (a kilobyte of nested
aliases can stand for billions), aliases that contain themselves, mapping keys that are
not strings, and integers too long to convert. :func:`read_yaml` returns the plain data
together with a :class:`LineMap` that answers "on which line is
``castling.sides.king_side``?".

A file read once is remembered on disk (:func:`read_yaml`, :func:`read_plain`; see
:mod:`reference_impl.remembered`): what its reading gave (the data and its lines) is kept under a
digest of the file's bytes and of this reader (this module, the installed PyYAML), in
``yaml/`` of the cache folder. A command then starts without importing or running
PyYAML; any change to the file or the reader is another digest.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from reference_impl.errors import RulesetError
from reference_impl.records import record
from reference_impl.text import MAX_INT_DIGITS, quote

from ..remembered import code_digest, remembered

if TYPE_CHECKING:
    import yaml

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


#: The lines of one YAML node: (its line, its mapping's entries as (the key's text, or
#: None for a key that is no scalar, the key's line, the value's lines), or None, its
#: sequence's items' lines, or None). Plain tuples: kept on disk as they are.
Lines = tuple[Any, ...]


@record
class LineMap:
    """1-based line numbers of the nodes of one YAML document, looked up by key path."""

    root: Lines | None

    def line(self, path: Sequence[str | int]) -> int:
        """The line of the deepest node on ``path`` that exists (1 for an empty file)."""
        node = self.root
        if node is None:
            return 1
        line = node[0]
        for key in path:
            child = _child(node, key)
            if child is None:
                break
            node, line = child
        return int(line)

    def duplicate_keys(self) -> list[tuple[PathKey, int]]:
        """(key path, line) of every mapping key that appears a second time."""
        out: list[tuple[PathKey, int]] = []
        if self.root is not None:
            _duplicates(self.root, (), out)
        return out


def _duplicates(node: Lines, path: PathKey, out: list[tuple[PathKey, int]]) -> None:
    _, entries, items = node
    if entries is not None:
        seen: set[str] = set()
        for text, line, value in entries:
            key = str(text) if text is not None else "?"
            if key in seen:
                out.append((path + (key,), line))
            seen.add(key)
            _duplicates(value, path + (key,), out)
    elif items is not None:
        for index, item in enumerate(items):
            _duplicates(item, path + (index,), out)


def _child(node: Lines, key: str | int) -> tuple[Lines, int] | None:
    _, entries, items = node
    if entries is not None:
        for text, line, value in entries:
            if text is not None and text == str(key):
                return value, line
    elif items is not None and isinstance(key, int):
        if 0 <= key < len(items):
            item = items[key]
            return item, item[0]
    return None


def _lines(node: yaml.Node) -> Lines:
    """The lines of ``node`` and everything under it (an alias's node under each use)."""
    import yaml

    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        return (line, tuple((str(key.value) if isinstance(key, yaml.ScalarNode) else None, key.start_mark.line + 1,
                             _lines(value)) for key, value in node.value), None)
    if isinstance(node, yaml.SequenceNode):
        return (line, None, tuple(_lines(item) for item in node.value))
    return (line, None, None)


def safe_loader() -> Any:
    """The safe loader, in C when libyaml is available (same safe semantics)."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, name: str) -> tuple[Any, LineMap]:
    """Parse ``text`` (named ``name`` in errors) with the safe loader, within :data:`LIMITS`.

    Every problem is a :class:`RulesetError` reading ``NAME:LINE: reason``.
    """
    import yaml

    try:
        _check_depth(text, name)
        loader = safe_loader()(text)
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
    return data, LineMap(_lines(root) if root is not None else None)


def _check_depth(text: str, name: str) -> None:
    """Refuse nesting deeper than the limit, from the parser's events (no recursion)."""
    import yaml

    depth, limit = 0, LIMITS["depth"]
    loader = safe_loader()(text)
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


def _next_event(loader: Any, name: str, limit: int) -> bool:
    """``loader.check_event()``; libyaml's own nesting limit (PyYAML 6.0.4 and later)
    reads as ours, whichever of the two is met first."""
    import yaml

    try:
        return bool(loader.check_event())
    except yaml.YAMLError as error:
        if "nesting depth" not in str(error):
            raise
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        raise YamlError(name, mark.line + 1 if mark else 1, f"YAML nested deeper than {limit} levels") from None


def _children(node: yaml.Node) -> list[yaml.Node]:
    import yaml

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
    import yaml

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
_PLAIN: dict[tuple[str, int, int], Any] = {}


def read_yaml(path: Path) -> tuple[Any, LineMap]:
    """Read and parse the YAML file at ``path`` (cached while the file is unchanged,
    and on disk by its bytes).

    Callers must not modify the returned data.
    """
    key = _file_key(path)
    hit = _PARSED.get(key)
    if hit is None:
        text, raw = _text(path)
        data, lines = _remembered("read_yaml", raw, lambda: _flat(parse_yaml(text, str(path))))
        hit = _PARSED[key] = (data, LineMap(lines))
    return hit


class PlainYamlError(Exception):
    """:func:`read_plain`: the file is not YAML the safe loader reads (PyYAML's message)."""


def read_plain(path: Path) -> Any:
    """The YAML file at ``path`` as ``yaml.load`` with the safe loader reads it, without
    this module's limits and checks (the notation tables: a schema checks them), cached
    as :func:`read_yaml`. :class:`PlainYamlError` if it is not YAML, ``OSError`` if it
    cannot be read. Callers must not modify the returned data."""
    key = _file_key(path, OSError)
    if key not in _PLAIN:
        raw = path.read_bytes()
        _PLAIN[key] = _remembered("read_plain", raw, lambda: _plain(raw.decode("utf-8")))
    return _PLAIN[key]


def _plain(text: str) -> Any:
    import yaml

    try:
        return yaml.load(text, Loader=safe_loader())
    except yaml.YAMLError as error:
        raise PlainYamlError(str(error)) from None


def _flat(parsed: tuple[Any, LineMap]) -> tuple[Any, Lines | None]:
    return parsed[0], parsed[1].root


def _file_key(path: Path, error: type[Exception] | None = None) -> tuple[str, int, int]:
    try:
        stat = path.stat()
    except OSError as failure:
        if error is not None:
            raise
        raise RulesetError(f"{path}: cannot read: {failure.strerror or failure}") from None
    return (str(path.resolve()), stat.st_mtime_ns, stat.st_size)


def _text(path: Path) -> tuple[str, bytes]:
    try:
        raw = path.read_bytes()
        return raw.decode("utf-8"), raw
    except OSError as error:
        raise RulesetError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RulesetError(f"{path}: not UTF-8 text") from None


def _remembered(kind: str, raw: bytes, read: Callable[[], Any]) -> Any:
    """What ``read`` gives for a file of bytes ``raw``, remembered on disk by those bytes
    and this reader (:func:`~reference_impl.remembered.remembered`)."""
    return remembered("yaml", _reader_digest() + kind.encode() + b"\0" + raw, read)


@lru_cache(maxsize=1)
def _reader_digest() -> bytes:
    """What the reading depends on besides the file: this module's code, the installed
    PyYAML (its location, size and time)."""
    from importlib.util import find_spec

    digest = hashlib.sha256(code_digest(__file__))
    found = find_spec("yaml")
    if found is not None and found.origin:
        stat = Path(found.origin).stat()
        digest.update(f"{found.origin}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.digest()


def format_path(path: Sequence[str | int]) -> str:
    """``("setup", "constraints", 0, "piece")`` as ``setup.constraints[0].piece``."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "(top level)"
