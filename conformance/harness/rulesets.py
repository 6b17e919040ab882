"""Which ruleset ids exist, and which of them a fixture's ``"*"`` stands for.

``"*"`` in a fixture's ``rulesets`` means every complete ruleset whose move layer is
orthodox chess: the non-abstract rulesets whose resolved ``scope.variant`` is
``orthodox``. The answer comes from ``reference_impl.rules`` when it offers
``list_rulesets``; otherwise the spec files are read directly (ids, ``abstract``,
``extends`` and ``scope.variant`` only).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

#: Used only when neither the rules package nor the spec files can be read.
FALLBACK_ORTHODOX: tuple[str, ...] = ("fide-2023",)
#: ``"*"`` fixtures run under the first of these the adapter plays (then the rest in id order).
PREFERRED: tuple[str, ...] = ("fide-2023", "fide-2018", "uscf-7")
ORTHODOX = "orthodox"


@lru_cache(maxsize=1)
def all_rulesets() -> dict[str, dict[str, Any]]:
    """``{id: {"abstract", "extends", "variant", "aliases"}}`` read from the spec files."""
    found: dict[str, dict[str, Any]] = {}
    directory = _spec_dir()
    if directory is None:
        return found
    for path in sorted(directory.glob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            continue
        scope = data.get("scope") if isinstance(data.get("scope"), dict) else {}
        found[data["id"]] = {
            "abstract": bool(data.get("abstract", False)),
            "extends": data.get("extends"),
            "variant": scope.get("variant"),
            "aliases": list(data.get("aliases") or []),
        }
    return found


def _variant(ident: str, table: dict[str, dict[str, Any]], depth: int = 0) -> str | None:
    entry = table.get(ident)
    if entry is None or depth > 32:
        return None
    if entry["variant"] is not None:
        return str(entry["variant"])
    return _variant(entry["extends"], table, depth + 1) if entry["extends"] else None


@lru_cache(maxsize=1)
def concrete_rulesets() -> tuple[str, ...]:
    """Every complete (non-abstract) ruleset id, sorted."""
    ids = _from_rules_package()
    if ids:
        return ids
    table = all_rulesets()
    return tuple(sorted(i for i, e in table.items() if not e["abstract"]))


@lru_cache(maxsize=1)
def orthodox_rulesets() -> tuple[str, ...]:
    """The ids ``"*"`` expands to."""
    try:
        from reference_impl.rules import list_rulesets

        ids = tuple(
            r.id for r in list_rulesets() if (r.data.get("scope") or {}).get("variant") == ORTHODOX
        )
    except Exception:  # the rules package is unusable: read the files
        table = all_rulesets()
        ids = tuple(i for i in concrete_rulesets() if _variant(i, table) == ORTHODOX)
    ids = ids or FALLBACK_ORTHODOX
    return tuple(sorted(ids, key=lambda i: (PREFERRED.index(i) if i in PREFERRED else len(PREFERRED), i)))


def canonical(ident: str) -> str:
    """The id an alias stands for (``fide`` -> ``fide-2023``); unknown names unchanged."""
    try:
        from reference_impl.rules import load_ruleset

        return str(load_ruleset(ident).id)
    except Exception:  # unknown here; maybe the adapter knows it
        pass
    for real, entry in all_rulesets().items():
        if ident == real or ident in entry["aliases"]:
            return real
    return ident


def _from_rules_package() -> tuple[str, ...]:
    try:
        from reference_impl.rules import list_rulesets  # type: ignore[attr-defined]
    except ImportError:
        return ()
    try:
        listed = list_rulesets()
    except Exception:  # the rules package is being written; fall back to the files
        return ()
    ids = [getattr(item, "id", item) for item in listed]
    return tuple(sorted(str(i) for i in ids if isinstance(i, str) or hasattr(i, "__str__")))


def _spec_dir() -> Path | None:
    import reference_impl.errors

    base = Path(reference_impl.errors.__file__).resolve().parent
    for candidate in (base / "_spec" / "rulesets", base.parent / "spec" / "rulesets"):
        if candidate.is_dir():
            return candidate
    return None
