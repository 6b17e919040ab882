"""Each edition cites its own text (issue 23).

* An entry of a ruleset's resolved tables cites the ruleset's own document (the one its
  ``scope`` cites), or an article that document's registry lists as ``unchanged`` (same
  number and wording in the parent edition: cited once, by design), or a document the
  registry names ``elsewhere`` with a reason.
* Fixtures that run under an edition cite that edition's article: where a fixture cites
  the article one ruleset's table gives an entry, it cites the article each other
  ruleset it runs under gives that entry. The generators' concordance
  (``conformance.tools.generate.common.EDITION_CITES``) is exactly what the tables say.
* Every article a rule table cites is cited by at least three fixtures.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from conformance.tools.generate.common import EDITION_CITES, ORTHODOX
from reference_impl.rules import list_rulesets, load_ruleset
from reference_impl.rules.articles import borrowing, registry

FIXTURES = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"
MIN_FIXTURES = 3
KeyPath = tuple[str, ...]
#: Cites no fixture can carry, with the reason: a ruleset's ``scope`` cites where the
#: document states whom it governs, which no position or game decides.
NOT_A_RULE = {"scope"}


def _cites(node: Any, path: KeyPath = ()) -> Iterator[tuple[KeyPath, str]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            key = str(key)
            if key == "cite" or key.endswith("_cite"):
                for cite in value if isinstance(value, list) else [value]:
                    yield path + (key,), str(cite)
            else:
                yield from _cites(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _cites(value, path + (str(index),))


def tables() -> dict[str, dict[KeyPath, str]]:
    """Complete ruleset id -> entry path -> cite (its scope included)."""
    out = {}
    for info in list_rulesets():
        rules = load_ruleset(info.id)
        if not rules.abstract:
            out[info.id] = dict(_cites(rules.data))
    return out


def own_document(cites: dict[KeyPath, str]) -> str:
    return cites[("scope", "cite")].split(":")[0]


def fixtures() -> list[dict[str, Any]]:
    out = []
    for path in sorted(FIXTURES.glob("*.jsonl")):
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


def test_the_rulesets_are_read() -> None:
    found = tables()
    assert {"fide-2023", "fide-2018", "fide-2014", "uscf-7", "fide-2023-chess960"} <= set(found)
    assert all(len(cites) > 60 for cites in found.values())


@pytest.mark.parametrize("ruleset", sorted(tables()))
def test_every_entry_cites_its_own_edition_or_says_why_not(ruleset: str) -> None:
    cites = tables()[ruleset]
    document = own_document(cites)
    allowed = borrowing(document)
    stray = {".".join(path): cite for path, cite in cites.items()
             if not cite.startswith(f"{document}:") and cite not in allowed.unchanged
             and cite.split(":")[0] not in allowed.elsewhere}
    assert stray == {}, f"{ruleset} cites other documents without a reason: {stray}"


def test_the_named_rows_cite_their_edition() -> None:
    """The entries issue 23 found citing another edition's or another rule's article."""
    found = tables()
    assert found["fide-2018"][("pawn", "forbidden_ranks", "cite")] == "fide-2018:3.7.5.1"
    assert found["fide-2018"][("repetition", "claim", "intended_move_cite")] == "fide-2018:9.2.1.1"
    assert found["fide-2018"][("clocks", "penalty", "rapid", "cite")] == "fide-2018:A.3.1"
    assert found["fide-2023"][("illegal_moves", "rapid", "cite")] == "fide-2023:A.4"
    assert found["fide-2014"][("repetition", "claim", "intended_move_cite")] == "fide-2014:9.2.a"
    assert found["uscf-7"][("pawn", "forbidden_ranks", "cite")] == "uscf-7:8F6"
    assert found["uscf-7"][("castling", "sides", "king_side", "cite")] == "uscf-7:8A2"
    assert found["uscf-7"][("castling", "sides", "queen_side", "cite")] == "uscf-7:8A2"
    assert found["uscf-7"][("repetition", "claim", "touch_cite")] == "uscf-7:10B"


def test_unchanged_articles_are_inherited_and_used() -> None:
    """An article listed as unchanged is one the parent edition's table cites for the
    same entry, and some table of the edition still cites it (no stale rows)."""
    found = tables()
    for ruleset, cites in found.items():
        document = own_document(cites)
        unchanged = borrowing(document).unchanged
        for path, cite in cites.items():
            if cite in unchanged:
                assert found["fide-2023"].get(path) == cite, (ruleset, path, cite)
    used = {cite for cites in found.values() for cite in cites.values()}
    for document in {own_document(c) for c in found.values()}:
        assert sorted(borrowing(document).unchanged - used) == [], document


def concordance() -> dict[str, dict[str, tuple[str, ...]]]:
    """FIDE 2023 cite -> ruleset -> the articles that ruleset's table cites for the same entries."""
    found = tables()
    out: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for ruleset, cites in found.items():
        for path, cite in cites.items():
            base = found["fide-2023"].get(path)
            if path[0] not in NOT_A_RULE and base is not None and base != cite:
                out[base][ruleset].add(cite)
    return {c: {r: tuple(sorted(v)) for r, v in by.items()} for c, by in out.items()}


def test_the_generators_concordance_is_what_the_tables_say() -> None:
    assert EDITION_CITES == concordance()


def test_fixtures_cite_the_article_of_each_edition_they_run_under() -> None:
    table = concordance()
    missing: dict[str, list[str]] = {}
    for f in fixtures():
        names = {n for r in f["rulesets"] for n in (ORTHODOX if r == "*" else (r,))}
        cites = set(f["cites"])
        for cite in cites & set(table):
            for ruleset, own in table[cite].items():
                if ruleset in names and not cites & set(own):
                    missing.setdefault(f["id"], []).append(f"{ruleset}: {own}")
    assert missing == {}, f"{len(missing)} fixtures, e.g. {list(missing.items())[:5]}"


def test_every_article_a_table_cites_has_three_fixtures() -> None:
    counts = Counter(cite for f in fixtures() for cite in set(f["cites"]))
    cited = {cite for cites in tables().values() for path, cite in cites.items() if path[0] not in NOT_A_RULE}
    assert len(cited) > 150
    thin = sorted(cite for cite in cited if counts[cite] < MIN_FIXTURES)
    assert thin == [], f"articles a table cites with fewer than {MIN_FIXTURES} fixtures: {thin}"


def test_the_cites_are_registered() -> None:
    known = registry()
    assert sorted({c for cites in tables().values() for c in cites.values()} - set(known)) == []
