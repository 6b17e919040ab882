"""The citation registry: ``spec/articles/<document>.yaml``.

A cite is ``<document>:<article>``, e.g. ``fide-2023:3.8.2.2.1`` or ``uscf-7:14E2``.
Each registry file has ``document``, ``title``, ``source`` and ``articles``, a mapping
from article number to ``{title: ..., note: ...}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from reference_impl.errors import RulesetError

from .paths import spec_dir
from .yamlio import read_yaml


@dataclass(frozen=True)
class Article:
    """One entry of the registry."""

    cite: str
    title: str
    document: str
    note: str | None = None


@lru_cache(maxsize=8)
def _registry(directory: Path) -> dict[str, Article]:
    out: dict[str, Article] = {}
    for path in sorted(directory.glob("*.yaml")):
        data, _ = read_yaml(path)
        if not isinstance(data, dict) or not isinstance(data.get("articles"), dict):
            raise RulesetError(f"{path}:1: articles: a registry file needs an 'articles' mapping")
        document = str(data.get("document") or path.stem)
        for number, entry in data["articles"].items():
            entry = entry if isinstance(entry, dict) else {}
            cite = f"{document}:{number}"
            note: Any = entry.get("note")
            out[cite] = Article(cite, str(entry.get("title", "")), document, note)
    return out


def registry() -> dict[str, Article]:
    """Every article of the built-in registry, keyed by cite."""
    return _registry(spec_dir() / "articles")


def known_cites() -> set[str]:
    """The set of every valid cite."""
    return set(registry())


def article_title(cite: str) -> str:
    """The short title of ``cite``; :class:`RulesetError` if the registry lacks it."""
    try:
        return registry()[cite].title
    except KeyError:
        raise RulesetError(f"unknown article {cite!r} (not in spec/articles/)") from None


def documents() -> dict[str, str]:
    """Document id -> title, for every registry file."""
    out: dict[str, str] = {}
    for path in sorted((spec_dir() / "articles").glob("*.yaml")):
        data, _ = read_yaml(path)
        if isinstance(data, dict):
            out[str(data.get("document") or path.stem)] = str(data.get("title", ""))
    return out
