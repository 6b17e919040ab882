"""Ruleset files: reading them, the built-in library, ``extends`` chains and their merge.

The layer below both :mod:`.validate` (which checks what is read here) and
:mod:`.loader` (which names, validates and caches rulesets): it imports neither.
A file's ``extends`` is looked up next to that file first, then among the built-in
rulesets in ``spec/rulesets/``; problems raise :class:`RulesetError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from reference_impl.errors import RulesetError
from reference_impl.records import record

from .merge import inherit, merge
from .paths import spec_dir
from .yamlio import LineMap, read_yaml

if TYPE_CHECKING:
    from .model import Model, Scope

#: Suffixes that mark a ruleset name as a file path.
YAML_SUFFIXES = (".yaml", ".yml")


@record
class RawFile:
    """One ruleset file as written: its data and the line of every key."""

    path: Path
    data: dict[str, Any]
    lines: LineMap

    @property
    def id(self) -> str:
        return str(self.data.get("id") or self.path.stem)


@dataclass(frozen=True, eq=False)
class Ruleset:
    """A resolved ruleset: ``data`` is the mapping after inheritance (do not mutate it),
    for the rules tooling; :attr:`model` is what the interpreter reads."""

    id: str
    title: str
    aliases: tuple[str, ...]
    path: Path | None
    chain: tuple[str, ...]
    data: dict[str, Any]
    files: tuple[RawFile, ...] = field(default=(), repr=False)
    #: The changes a derived ruleset makes to its parent (``None`` for a file's).
    overrides: dict[str, Any] | None = field(default=None, repr=False)

    @cached_property
    def model(self) -> Model:
        """The typed model (:mod:`.model`), read once by :func:`.reader.read_model`."""
        from .reader import locator, read_model

        return read_model(self.data, locate=locator(self.files, self.overrides, self.id))

    @property
    def scope(self) -> Scope:
        """:attr:`model`'s ``scope``, without reading the rest of the model when it has
        not been read (choosing among many rulesets by their scope reads one each)."""
        model: Model | None = self.__dict__.get("model")
        return model.scope if model is not None else self._scope_alone

    @cached_property
    def _scope_alone(self) -> Scope:
        from .reader import locator, read_section

        found: Scope = read_section(self.data, "scope", locate=locator(self.files, self.overrides, self.id))
        return found

    @property
    def abstract(self) -> bool:
        return bool(self.data.get("abstract"))

    @property
    def extends(self) -> str | None:
        parent = self.data.get("extends")
        return str(parent) if parent else None


def read_ruleset_file(path: Path) -> RawFile:
    """Read one ruleset file; it must hold a mapping."""
    data, lines = read_yaml(path)
    if not isinstance(data, dict):
        raise RulesetError(f"{path}:1: a ruleset file must be a YAML mapping")
    return RawFile(path, data, lines)


class Library:
    """The built-in rulesets of one spec directory, indexed by id and alias."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.files: dict[str, RawFile] = {}
        self.aliases: dict[str, str] = {}
        for path in sorted(directory.glob("*.yaml")):
            raw = read_ruleset_file(path)
            self.files.setdefault(raw.id, raw)
            for alias in raw.data.get("aliases") or []:
                self.aliases.setdefault(str(alias), raw.id)

    def canonical(self, name: str) -> str | None:
        """The id that ``name`` (id or alias) denotes, or None."""
        if name in self.files:
            return name
        return self.aliases.get(name)


_LIBRARIES: dict[Path, Library] = {}


def library() -> Library:
    """The built-in library of the current spec directory (read once)."""
    directory = spec_dir() / "rulesets"
    lib = _LIBRARIES.get(directory)
    if lib is None:
        lib = _LIBRARIES[directory] = Library(directory)
    return lib


def forget_libraries() -> None:
    """Read the library again on next use (the spec directory may have changed)."""
    _LIBRARIES.clear()


def _parent_file(child: RawFile, parent: str, builtin: bool) -> RawFile:
    lib = library()
    if not builtin:
        for suffix in YAML_SUFFIXES:
            sibling = child.path.parent / f"{parent}{suffix}"
            if sibling.is_file() and sibling.resolve() != child.path.resolve():
                return read_ruleset_file(sibling)
    canonical = lib.canonical(parent)
    if canonical is None:
        line = child.lines.line(["extends"])
        raise RulesetError(f"{child.path}:{line}: extends: unknown ruleset {parent!r}")
    return lib.files[canonical]


def chain_of(raw: RawFile, builtin: bool) -> list[RawFile]:
    """The files from the root ancestor down to ``raw``; a cycle is an error."""
    files = [raw]
    seen = {raw.path.resolve()}
    while files[0].data.get("extends"):
        child = files[0]
        parent = _parent_file(child, str(child.data["extends"]), builtin)
        key = parent.path.resolve()
        if key in seen:
            names = " -> ".join(f.id for f in reversed(files)) + f" -> {parent.id}"
            line = child.lines.line(["extends"])
            raise RulesetError(f"{child.path}:{line}: extends: inheritance cycle ({names})")
        seen.add(key)
        files.insert(0, parent)
    return files


#: Keys shown first in a resolved mapping, in this order.
HEAD_KEYS = ("id", "title", "aliases", "abstract", "extends", "federation", "edition", "note", "scope")


def resolve_chain(files: list[RawFile]) -> dict[str, Any]:
    """Merge the files of a chain, root first (descriptive keys first in the result)."""
    data = merge({}, files[0].data)
    for raw in files[1:]:
        data = inherit(data, raw.data)
    head = {k: data[k] for k in HEAD_KEYS if k in data}
    return {**head, **{k: v for k, v in data.items() if k not in head}}


def resolve(raw: RawFile, builtin: bool) -> Ruleset:
    """``raw`` with its ``extends`` chain merged, not validated (see :func:`.loader.build`)."""
    files = chain_of(raw, builtin)
    return Ruleset(
        id=raw.id,
        title=str(raw.data.get("title", raw.id)),
        aliases=tuple(str(a) for a in raw.data.get("aliases") or ()),
        path=raw.path,
        chain=tuple(f.id for f in files),
        data=resolve_chain(files),
        files=tuple(files),
    )
