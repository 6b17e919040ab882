"""Load the notation tables (``spec/notation/*.yaml``), validated against their schema.

The tables are read once per spec directory and cached. The directory is the one
:func:`reference_impl.rules.paths.spec_dir` finds (``ARBITER_SPEC_DIR``, else the
wheel's ``reference_impl/_spec`` or a checkout's ``spec``): rulesets, articles and
notation tables always come from the same place.

What the readers build from a table (a grammar, a map of letters) is cached by
:func:`derived`; :func:`substituted` puts another table in place for a while (``arbiter
mutate`` runs the fixtures under each changed table) and forgets all of it on the way in
and out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from reference_impl.errors import ArbiterError, RulesetError
from reference_impl.rules import checked
from reference_impl.rules.paths import spec_dir
from reference_impl.rules.yamlio import PlainYamlError, read_plain

TABLE_NAMES = ("pieces", "marks", "iccf", "uedemann", "descriptive", "nags", "results", "pgn", "lookalikes")

F = TypeVar("F", bound=Callable[..., Any])

#: The caches of everything built from the tables, emptied by :func:`forget`.
_DERIVED: list[Callable[[], None]] = []
#: Tables put in place of the files' by :func:`substituted`.
_SUBSTITUTES: dict[str, Mapping[str, Any]] = {}


def derived(function: F) -> F:
    """``function`` (of the tables, with hashable arguments) cached until :func:`forget`."""
    cached = lru_cache(maxsize=None)(function)
    _DERIVED.append(cached.cache_clear)
    return cached  # type: ignore[return-value]


def on_forget(clear: Callable[[], None]) -> None:
    """Call ``clear`` whenever the tables are forgotten (a cache kept another way)."""
    _DERIVED.append(clear)


def forget() -> None:
    """Read the tables again on next use, and everything built from them."""
    _table.cache_clear()
    for clear in _DERIVED:
        clear()


@contextmanager
def substituted(name: str, data: Mapping[str, Any], *, check: bool = True) -> Iterator[None]:
    """Within the block, table ``name`` is ``data`` (checked against the schema unless
    ``check`` is false: :class:`NotationTableError` if it violates it)."""
    if name not in TABLE_NAMES:
        raise NotationTableError(f"unknown notation table {name!r}")
    if check:
        errors = sorted(_validator(spec_root()).iter_errors(data), key=lambda e: list(e.path))
        if errors:
            key = "/".join(str(p) for p in errors[0].path) or "(top)"
            raise NotationTableError(f"notation table {name}: {key}: {errors[0].message}")
    _SUBSTITUTES[name] = data
    forget()
    try:
        yield
    finally:
        del _SUBSTITUTES[name]
        forget()


class NotationTableError(ArbiterError):
    """A notation table is missing, unreadable or violates its schema."""


def spec_root() -> Path:
    """The spec directory (:func:`~reference_impl.rules.paths.spec_dir`), which must
    hold ``notation/``."""
    try:
        return _with_notation(spec_dir())
    except RulesetError as error:
        raise NotationTableError(str(error)) from None


@lru_cache(maxsize=None)
def _with_notation(root: Path) -> Path:
    if not (root / "notation").is_dir():
        raise NotationTableError(f"{root}: no notation/ directory")
    return root


@lru_cache(maxsize=None)
def _validator(root: Path | None = None) -> Any:
    import jsonschema

    path = (root or spec_root()) / "schema" / "notation.schema.json"
    return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def table(name: str) -> dict[str, Any]:
    """The notation table ``name`` (one of :data:`TABLE_NAMES`), schema-checked."""
    if name not in TABLE_NAMES:
        raise NotationTableError(f"unknown notation table {name!r}")
    if name in _SUBSTITUTES:
        return _SUBSTITUTES[name]  # type: ignore[return-value]
    return _table(spec_root(), name)


@lru_cache(maxsize=None)
def _table(root: Path, name: str) -> dict[str, Any]:
    path = root / "notation" / f"{name}.yaml"
    try:
        # the safe loader, in C where libyaml is installed (the same safe semantics as
        # yaml.safe_load), remembered on disk by the file's bytes
        data = read_plain(path)
    except (OSError, PlainYamlError) as error:
        raise NotationTableError(f"{path}: {error}") from None

    def check() -> None:
        errors = sorted(_validator(root).iter_errors(data), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            key = "/".join(str(p) for p in first.path) or "(top)"
            raise NotationTableError(f"{path}: {key}: {first.message}")

    checked.once(f"notation table {path}", [path, Path(__file__)], check)  # a pass is remembered
    if not isinstance(data, dict) or data.get("table") != name:
        raise NotationTableError(f"{path}: table: expected {name!r}")
    return data


def languages() -> list[str]:
    """Language codes with a piece-letter row (``en``, ``de``, ...)."""
    return list(table("pieces")["languages"])


def piece_letters(language: str = "en") -> dict[str, str]:
    """Piece name -> letter for ``language``; raises for an unknown language."""
    rows = table("pieces")["languages"]
    if language not in rows:
        raise NotationTableError(f"unknown notation language {language!r} (known: {', '.join(rows)})")
    return dict(rows[language]["letters"])


def figurines(color: int) -> dict[str, str]:
    """Piece name -> figurine for White (0) or Black (1)."""
    fig = table("pieces")["figurines"]
    return dict(fig["white" if color == 0 else "black"])


def written_figurines(mover: int) -> dict[str, str]:
    """The figurines a move of ``mover`` is written with: the mover's set, or always the
    outline (White) set, as ``figurines.export`` says."""
    return figurines(mover if table("pieces")["figurines"]["export"] == "mover" else 0)


@derived
def suffix_annotations() -> tuple[str, ...]:
    """The move suffix annotations (``!``, ``?!``, ...; marks.yaml), longest first."""
    return tuple(sorted(table("marks")["suffix_annotations"]["map"], key=len, reverse=True))


@derived
def result_markers() -> tuple[str, ...]:
    """The PGN game termination markers (``1-0``, ``0-1``, ``1/2-1/2``, ``*``; results.yaml)."""
    return tuple(table("results")["results"])
