"""Find, validate and cache rulesets: ids, aliases, paths.

A ruleset is named by its id (``fide-2023``), an alias (``fide``) or a path to a
``.yaml`` file; :mod:`.files` reads the files and merges the ``extends`` chain. Every
file is validated as written and the resolved result in full (:mod:`.validate`);
problems raise :class:`RulesetError`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from reference_impl.errors import RulesetError

from . import checked
from .files import YAML_SUFFIXES, RawFile, Ruleset, forget_libraries, library, read_ruleset_file, resolve
from .merge import inherit, merge
from .validate import raise_for, validate_ruleset

__all__ = ["build", "clear_cache", "derive_ruleset", "list_rulesets", "load_ruleset"]

_CACHE: dict[Any, Ruleset] = {}


def clear_cache() -> None:
    """Forget every loaded ruleset (for tests and long-running tools)."""
    forget_libraries()
    _CACHE.clear()


def _is_path(name: str) -> bool:
    return name.endswith(YAML_SUFFIXES) or "/" in name or "\\" in name


def build(raw: RawFile, builtin: bool, check: bool = True) -> Ruleset:
    """Resolve ``raw`` into a Ruleset (validated unless ``check`` is false)."""
    ruleset = resolve(raw, builtin)
    if check:  # once per content: a pass is remembered across processes (.checked)
        checked.once(f"ruleset {ruleset.id} {ruleset.path}", [f.path for f in ruleset.files if f.path is not None],
                     lambda: raise_for(validate_ruleset(ruleset)))
    return ruleset


def load_ruleset(name: "str | Path | Ruleset") -> Ruleset:
    """The resolved ruleset named by an id, an alias or a path to a YAML file (cached)."""
    if isinstance(name, Ruleset):
        return name
    text = str(name)
    if isinstance(name, Path) or _is_path(text):
        path = Path(text)
        if not path.is_file():
            what = "a directory, not a ruleset file" if path.is_dir() else "no such ruleset file"
            raise RulesetError(f"{path}: {what}")
        stat = path.stat()
        key: tuple[str | int, ...] = ("path", str(path.resolve()), stat.st_mtime_ns, stat.st_size)
        if key not in _CACHE:
            lib = library()
            builtin = path.resolve().parent == lib.directory.resolve()
            _CACHE[key] = build(read_ruleset_file(path), builtin)
        return _CACHE[key]
    lib = library()
    canonical = lib.canonical(text)
    if canonical is None:
        known = ", ".join(sorted(lib.files))
        raise RulesetError(f"unknown ruleset {text!r} (known: {known})")
    key = ("id", str(lib.directory), canonical)
    if key not in _CACHE:
        _CACHE[key] = build(lib.files[canonical], builtin=True)
    return _CACHE[key]


def list_rulesets() -> list[Ruleset]:
    """Every non-abstract built-in ruleset, sorted by id."""
    lib = library()
    found = [load_ruleset(i) for i in sorted(lib.files)]
    return [r for r in found if not r.abstract]


def derive_ruleset(
    base: "str | Path | Ruleset", overrides: Mapping[str, Any], id: str | None = None
) -> Ruleset:
    """A new ruleset: ``base`` changed by ``overrides`` with the ``extends`` merge; validated."""
    parent = load_ruleset(base)
    new_id = id or str(overrides.get("id") or f"{parent.id}+derived")
    data = inherit(parent.data, dict(overrides))
    data["id"] = new_id
    data.setdefault("title", f"{parent.title} (derived: {new_id})")
    data["extends"] = parent.id
    ruleset = Ruleset(
        id=new_id,
        title=str(data["title"]),
        aliases=tuple(str(a) for a in data.get("aliases") or ()),
        path=None,
        chain=parent.chain + (new_id,),
        data=data,
        files=parent.files,
        overrides=merge(parent.overrides or {}, overrides),
    )
    raise_for(validate_ruleset(ruleset))
    return ruleset
