"""``docs/scope.md`` leaves no article silent: every registered FIDE 2023 and
US Chess article is either cited by a table entry or listed in the scope page with its
reason, and the page does not list as unencoded what a table does cite."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from reference_impl.notation.tables import TABLE_NAMES, table
from reference_impl.rules import spec_dir
from reference_impl.rules.articles import registry
from reference_impl.rules.yamlio import read_yaml

ROOT = Path(__file__).resolve().parent.parent
SCOPE = ROOT / "docs" / "scope.md"
DOCUMENTS = ("fide-2023", "uscf-7")
#: Named on review with neither an entry nor a note; each must be listed.
NAMED_IN_ISSUE = (
    "fide-2023:4.4.4", "fide-2023:4.6", "fide-2023:4.7", "fide-2023:4.8", "fide-2023:7.2.1",
    "fide-2023:7.3", "fide-2023:7.4", "fide-2023:7.5.2", "fide-2023:7.5.3", "fide-2023:7.5.4",
    "fide-2023:A.5.1.2", "fide-2023:A.5.2", "fide-2023:A.5.4", "fide-2023:III.4",
    "fide-2023:III.5", "fide-2023:III.6", "fide-2023:I", "uscf-7:11A", "uscf-7:11B",
    "uscf-7:11F", "uscf-7:14H",
)
REASONS = ("definition", "structural", "parent", "covered elsewhere", "physical", "equipment",
           "recording", "arbiter", "conduct", "event", "not yet")
ROW = re.compile(r"^\|\s*`((?:fide-2023|uscf-7):[^`]+)`\s*\|([^|]*)\|([^|]*)\|")
LISTED = re.compile(r"`((?:" + "|".join(DOCUMENTS) + r"):[^`\s]+)`")


def _cites(node: Any) -> Iterator[str]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            if str(key) == "cite" or str(key).endswith("_cite"):
                yield from (str(v) for v in (value if isinstance(value, list) else [value]))
            else:
                yield from _cites(value)
    elif isinstance(node, list):
        for item in node:
            yield from _cites(item)


def _table_cites() -> set[str]:
    """Every cite of a ruleset file or a notation table."""
    found: set[str] = set()
    for file in sorted((spec_dir() / "rulesets").glob("*.yaml")):
        found.update(_cites(read_yaml(file)[0]))
    for name in TABLE_NAMES:
        found.update(_cites(table(name)))
    return found


@pytest.fixture(scope="module")
def rows() -> dict[str, str]:
    """cite -> reason, for every table row of the scope page that starts with a cite."""
    out: dict[str, str] = {}
    for line in SCOPE.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            assert match.group(1) not in out, f"listed twice: {match.group(1)}"
            out[match.group(1)] = match.group(3).strip()
    return out


def test_no_registered_article_is_silent(rows: dict[str, str]) -> None:
    cited = _table_cites()
    silent = [cite for cite, article in registry().items()
              if article.document in DOCUMENTS and cite not in cited and cite not in rows]
    assert silent == [], f"neither cited by a table nor listed in docs/scope.md: {silent}"


def test_the_page_lists_nothing_a_table_cites(rows: dict[str, str]) -> None:
    stale = sorted(set(rows) & _table_cites())
    assert stale == [], f"docs/scope.md lists as not encoded what a table cites: {stale}"


def test_every_cite_on_the_page_is_registered() -> None:
    known = registry()
    written = set(LISTED.findall(SCOPE.read_text(encoding="utf-8")))
    assert written, "the pattern finds the cites"
    assert sorted(c for c in written if c not in known) == []


def test_every_row_gives_a_known_reason(rows: dict[str, str]) -> None:
    assert len(rows) > 150
    odd = {cite: reason for cite, reason in rows.items() if reason not in REASONS}
    assert odd == {}


def test_the_articles_named_in_the_issue_are_listed(rows: dict[str, str]) -> None:
    assert [cite for cite in NAMED_IN_ISSUE if cite not in rows] == []
    assert [cite for cite in NAMED_IN_ISSUE if cite not in registry()] == []
