"""The citation registry: ``spec/articles/<document>.yaml``.

A cite is ``<document>:<article>``, e.g. ``fide-2023:3.8.2.2.1`` or ``uscf-7:14E2``.
Each registry file has ``document``, ``title``, ``source`` and ``articles``, a mapping
from article number to ``{title: ..., note: ...}``. Two optional keys say where a
ruleset of the document may cite another one: ``unchanged`` (``document`` and
``articles``: the other document's articles this one has with the same number and
wording, which a table inheriting them cites once, by design) and ``elsewhere``
(document -> why the tables cite it instead of the Laws' text).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from reference_impl.errors import RulesetError
from reference_impl.records import record

from .paths import spec_dir
from .yamlio import read_yaml


@record
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


@record
class Borrowing:
    """Where a document's rulesets may cite another document, and why."""

    unchanged: frozenset[str]  #: cites of another document identical in number and wording
    elsewhere: dict[str, str]  #: other document -> the reason it is cited


@lru_cache(maxsize=8)
def _borrowing(directory: Path) -> dict[str, Borrowing]:
    out: dict[str, Borrowing] = {}
    for path in sorted(directory.glob("*.yaml")):
        data, _ = read_yaml(path)
        if not isinstance(data, dict):
            continue
        unchanged = data.get("unchanged")
        same: dict[str, Any] = unchanged if isinstance(unchanged, dict) else {}
        other = str(same.get("document", ""))
        out[str(data.get("document") or path.stem)] = Borrowing(
            frozenset(f"{other}:{number}" for number in same.get("articles") or ()),
            {str(k): str(v) for k, v in (data.get("elsewhere") or {}).items()})
    return out


def borrowing(document: str) -> Borrowing:
    """What ``document``'s registry says its rulesets may cite of other documents."""
    return _borrowing(spec_dir() / "articles").get(document, Borrowing(frozenset(), {}))


def documents() -> dict[str, str]:
    """Document id -> title, for every registry file."""
    out: dict[str, str] = {}
    for path in sorted((spec_dir() / "articles").glob("*.yaml")):
        data, _ = read_yaml(path)
        if isinstance(data, dict):
            out[str(data.get("document") or path.stem)] = str(data.get("title", ""))
    return out
