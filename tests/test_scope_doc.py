"""The scope pages (``docs/scope.md``, ``docs/scope/<id>.md``) leave no article silent.

Each committed page is the one ``arbiter rules scope --write docs/scope`` generates from
the tables and ``spec/scope/<document>.yaml``, so it cannot drift. Every article of the
registry is cited by a table of its document's rulesets, inherited unchanged from a parent
edition, or listed out of scope with a reason; nothing listed is also cited; each page
shows every article its ruleset's tables cite.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conformance.cli import main
from reference_impl.notation.tables import TABLE_NAMES, table
from reference_impl.rules import list_rulesets, load_ruleset
from reference_impl.rules.articles import borrowing, registry
from reference_impl.rules.scope import REASONS, document_of, entries, index, out_of_scope, page

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DOCUMENTS = ("fide-2023", "fide-2018", "fide-2014", "uscf-7")
#: Named on review with neither an entry nor a note; each must be listed.
NAMED_IN_ISSUE = (
    "fide-2023:4.4.4", "fide-2023:4.6", "fide-2023:4.7", "fide-2023:4.8", "fide-2023:7.2.1",
    "fide-2023:7.3", "fide-2023:7.4", "fide-2023:7.5.2", "fide-2023:7.5.4",
    "fide-2023:A.5.1.2", "fide-2023:A.5.2", "fide-2023:A.5.4", "fide-2023:III.4",
    "fide-2023:III.5", "fide-2023:III.6", "fide-2023:I", "uscf-7:11A", "uscf-7:11B",
    "uscf-7:11F", "uscf-7:14H",
    "fide-2014:G", "fide-2014:A.4.a", "fide-2014:A.4.c", "fide-2014:A.4.d", "fide-2014:A.4.e",
    "fide-2018:A.4.1", "fide-2018:A.4.2", "fide-2018:A.4.3", "fide-2018:A.4.4", "fide-2018:A.4.5",
    "uscf-7:blitz.draw-claims", "uscf-7:blitz.insufficient-losing-chances",
)


def _cites(node: Any) -> Iterator[str]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            if str(key) == "cite" or str(key).endswith("_cite"):
                yield from (str(v) for v in (value if isinstance(value, list) else [value]) if v)
            else:
                yield from _cites(value)
    elif isinstance(node, list):
        for item in node:
            yield from _cites(item)


def cited_by(document: str) -> set[str]:
    """Every cite of the rulesets of ``document`` (and of the notation tables)."""
    found: set[str] = set()
    for rules in list_rulesets():
        if document_of(rules) == document:
            found.update(_cites(rules.data))
    for name in TABLE_NAMES:
        found.update(_cites(table(name)))
    return found


@pytest.mark.parametrize("ruleset", [r.id for r in list_rulesets()])
def test_the_committed_page_is_the_generated_one(ruleset: str) -> None:
    committed = (DOCS / "scope" / f"{ruleset}.md").read_text(encoding="utf-8")
    assert committed == page(load_ruleset(ruleset)), \
        f"docs/scope/{ruleset}.md is stale: run arbiter rules scope --write docs/scope"


def test_the_committed_index_is_the_generated_one() -> None:
    assert (DOCS / "scope.md").read_text(encoding="utf-8") == index(list_rulesets())
    assert sorted(p.stem for p in (DOCS / "scope").glob("*.md")) == sorted(r.id for r in list_rulesets())


@pytest.mark.parametrize("ruleset", [r.id for r in list_rulesets()])
def test_each_page_shows_every_article_its_tables_cite(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    text = page(rules)
    cites = set(_cites(rules.data))
    assert len(cites) > 40
    assert sorted(c for c in cites if f"`{c}`" not in text) == []
    assert len(list(entries(rules.data))) >= len(cites)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_no_registered_article_is_silent(document: str) -> None:
    listed = {row.article for row in out_of_scope(document).rows()}
    cited = cited_by(document)
    silent = [cite for cite, article in registry().items()
              if article.document == document and cite not in cited and cite not in listed]
    assert silent == [], f"neither cited by a {document} table nor listed in spec/scope/{document}.yaml: {silent}"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_nothing_listed_is_cited_or_unregistered(document: str) -> None:
    rows = list(out_of_scope(document).rows())
    assert rows, document
    known = registry()
    cites = [row.article for row in rows if row.is_cite]
    assert sorted(set(cites) & cited_by(document)) == [], "listed as not encoded, but a table cites it"
    assert sorted(c for c in cites if c not in known) == []
    assert sorted(c for c in cites if not c.startswith(f"{document}:")) == [], "another document's article"
    assert len(cites) == len(set(cites)), "an article listed twice"
    assert all(row.reason in REASONS for row in rows)


def test_unchanged_articles_are_not_listed_again() -> None:
    for document in DOCUMENTS:
        listed = {row.article for row in out_of_scope(document).rows()}
        assert not borrowing(document).unchanged & listed, document


def test_the_articles_named_in_the_issues_are_listed() -> None:
    listed = {row.article for document in DOCUMENTS for row in out_of_scope(document).rows()}
    assert [cite for cite in NAMED_IN_ISSUE if cite not in listed] == []
    assert [cite for cite in NAMED_IN_ISSUE if cite not in registry()] == []


def test_the_2017_amendments_and_the_us_blitz_claims_are_on_their_pages() -> None:
    assert "The 2017 amendments, as they bear on the 2014 text" in page(load_ruleset("fide-2014"))
    blitz = page(load_ruleset("uscf-7-blitz"))
    assert "`uscf-7:blitz.insufficient-losing-chances`" in blitz and "less than one minute" in blitz


def test_the_write_command_reproduces_the_pages(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["rules", "scope", "--write", str(tmp_path / "scope")])
    assert result.exit_code == 0, result.output
    for path in (tmp_path / "scope").glob("*.md"):
        assert path.read_text(encoding="utf-8") == (DOCS / "scope" / path.name).read_text(encoding="utf-8")
    assert (tmp_path / "scope.md").read_text(encoding="utf-8") == (DOCS / "scope.md").read_text(encoding="utf-8")


def test_a_malformed_scope_list_is_one_line_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reference_impl.errors import RulesetError
    from reference_impl.rules import scope

    (tmp_path / "scope").mkdir()
    (tmp_path / "scope" / "fide-2023.yaml").write_text(
        "document: fide-2023\nsections:\n- heading: x\n  rows:\n  - {article: 'fide-2023:1.1', subject: s, reason: vague}\n",
        encoding="utf-8")
    monkeypatch.setattr(scope, "spec_dir", lambda: tmp_path)
    with pytest.raises(RulesetError, match=r"fide-2023.yaml: sections\[0\].rows\[0\]: reason 'vague'"):
        scope.out_of_scope("fide-2023")
