"""Load the notation tables (``spec/notation/*.yaml``), validated against their schema.

The tables are read once and cached. They are found next to the package in an
installed wheel (``reference_impl/_spec``) or at the top of a source checkout (``spec``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from reference_impl.errors import ArbiterError

TABLE_NAMES = ("pieces", "marks", "iccf", "uedemann", "descriptive", "nags", "results", "pgn")
_CANDIDATES = (
    Path(__file__).resolve().parents[1] / "_spec",
    Path(__file__).resolve().parents[2] / "spec",
)


class NotationTableError(ArbiterError):
    """A notation table is missing, unreadable or violates its schema."""


def spec_root() -> Path:
    """The directory that holds ``notation/`` and ``schema/``."""
    for root in _CANDIDATES:
        if (root / "notation").is_dir():
            return root
    raise NotationTableError("spec/notation not found next to reference_impl")


@lru_cache(maxsize=None)
def _validator() -> Any:
    import jsonschema

    path = spec_root() / "schema" / "notation.schema.json"
    return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


@lru_cache(maxsize=None)
def table(name: str) -> dict[str, Any]:
    """The notation table ``name`` (one of :data:`TABLE_NAMES`), schema-checked."""
    if name not in TABLE_NAMES:
        raise NotationTableError(f"unknown notation table {name!r}")
    path = spec_root() / "notation" / f"{name}.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise NotationTableError(f"{path}: {error}") from None
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        key = "/".join(str(p) for p in first.path) or "(top)"
        raise NotationTableError(f"{path}: {key}: {first.message}")
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
