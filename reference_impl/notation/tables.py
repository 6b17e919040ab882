"""Load the notation tables (``spec/notation/*.yaml``), validated against their schema.

The tables are read once per spec directory and cached. The directory is the one
:func:`reference_impl.rules.paths.spec_dir` finds (``ARBITER_SPEC_DIR``, else the
wheel's ``reference_impl/_spec`` or a checkout's ``spec``): rulesets, articles and
notation tables always come from the same place.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from reference_impl.errors import ArbiterError, RulesetError
from reference_impl.rules import checked
from reference_impl.rules.paths import spec_dir
from reference_impl.rules.yamlio import SafeLoader

TABLE_NAMES = ("pieces", "marks", "iccf", "uedemann", "descriptive", "nags", "results", "pgn", "lookalikes")


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
    return _table(spec_root(), name)


@lru_cache(maxsize=None)
def _table(root: Path, name: str) -> dict[str, Any]:
    path = root / "notation" / f"{name}.yaml"
    try:
        # the safe loader, in C where libyaml is installed (the same safe semantics as yaml.safe_load)
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=SafeLoader)
    except (OSError, yaml.YAMLError) as error:
        raise NotationTableError(f"{path}: {error}") from None

    def check() -> None:
        errors = sorted(_validator(root).iter_errors(data), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            key = "/".join(str(p) for p in first.path) or "(top)"
            raise NotationTableError(f"{path}: {key}: {first.message}")

    checked.once(f"notation table {path}", [path, Path(__file__)], check)  # a pass is remembered
    if data.get("table") != name:
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
