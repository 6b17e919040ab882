"""The fixture corpus is well formed: schema, unique ids, known kinds, tags and cites.

These checks read every ``conformance/fixtures/*.jsonl`` file (the notation files
included, since ids must be unique across the whole corpus). Full JSON Schema
validation of every line is slow with ``jsonschema``, so ``tox -e fast`` validates a
deterministic stride sample of every file plus every hand-built fixture; the full ``tox``
(and CI) validates them all and reruns every generator against the committed files.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "conformance" / "fixtures"
SCHEMA = ROOT / "conformance" / "schema" / "fixture.schema.json"
ARTICLES = ROOT / "spec" / "articles"
RULESETS = ROOT / "spec" / "rulesets"

#: Minimum fixture count per kind (the corpus as generated holds more).
FLOORS = {"perft": 3500, "legal_moves": 1000, "apply_moves": 300, "validate_fen": 300,
          "status": 300, "san": 500, "parse_san": 500, "start_position": 960,
          "dead_position": 800, "timeout": 1500, "game_end": 150, "game": 100}
KINDS = set(FLOORS) | {"to_notation", "from_notation", "game"}
#: Fixtures validated per file in the default run (every n-th line, plus all hand-built).
SAMPLE_PER_FILE = 60


@lru_cache(maxsize=1)
def corpus() -> list[tuple[str, int, dict[str, Any]]]:
    """(file name, line number, fixture) for every line of every corpus file."""
    out = []
    for path in sorted(FIXTURES.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                out.append((path.name, number, json.loads(line)))
    return out


def own() -> list[dict[str, Any]]:
    """The fixtures this corpus's generators write (not the notation files)."""
    return [f for name, _, f in corpus() if not name.startswith("notation-")]


@lru_cache(maxsize=1)
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def registered_articles() -> set[str]:
    out = set()
    for path in ARTICLES.glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out |= {f"{data['document']}:{key}" for key in data["articles"]}
    return out


def registered_tags() -> set[str]:
    lines = (FIXTURES / "tags.txt").read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def ruleset_ids() -> set[str]:
    out = set()
    for path in RULESETS.glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not data.get("abstract"):
            out.add(data["id"])
    return out


def _sample() -> list[tuple[str, int, dict[str, Any]]]:
    by_file: dict[str, list[tuple[str, int, dict[str, Any]]]] = {}
    for item in corpus():
        by_file.setdefault(item[0], []).append(item)
    chosen = []
    for items in by_file.values():
        stride = max(1, len(items) // SAMPLE_PER_FILE)
        chosen += [it for i, it in enumerate(items)
                   if i % stride == 0 or "hand-built" in it[2].get("tags", [])]
    return chosen


def test_schema_is_valid_2020_12() -> None:
    validator()


def test_schema_rejects_a_broken_fixture() -> None:
    good = dict(next(f for f in own() if f["kind"] == "perft"))
    assert validator().is_valid(good)
    assert not validator().is_valid({**good, "expect": {"nodes": -1}})
    assert not validator().is_valid({**good, "id": "Upper.Case"})
    assert not validator().is_valid({**good, "expect_by_ruleset": {"fide-2023": {"nodes": 1}}})
    source = {"method": "guess", "detail": "x"}
    assert not validator().is_valid({**good, "source": source})


@lru_cache(maxsize=None)
def kind_validator(kind: str) -> jsonschema.Draft202012Validator:
    """The schema with only ``kind``'s branch of ``allOf`` (same verdicts, faster)."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    branches = [b for b in schema["allOf"] if b["if"]["properties"]["kind"]["const"] == kind]
    return jsonschema.Draft202012Validator({**schema, "allOf": branches})


def _bad_lines(items: list[tuple[str, int, dict[str, Any]]]) -> list[str]:
    bad = []
    for name, number, item in items:
        kind = item.get("kind")
        check = kind_validator(kind) if kind in KINDS else validator()
        error = next(iter(check.iter_errors(item)), None)
        if error is not None:
            bad.append(f"{name}:{number}: {error.message}")
    return bad


def test_kind_branches_cover_every_kind() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    consts = {b["if"]["properties"]["kind"]["const"] for b in schema["allOf"]}
    assert consts == set(schema["$defs"]["kind"]["enum"]) == KINDS


def test_sampled_fixtures_match_schema() -> None:
    assert _bad_lines(_sample()) == []


@pytest.mark.slow  # the whole corpus: the full `tox` (and CI) runs it, `tox -e fast` leaves it out
def test_every_fixture_matches_schema() -> None:
    assert _bad_lines(corpus()) == []


def test_ids_unique_across_the_corpus() -> None:
    counts = Counter(item["id"] for _, _, item in corpus())
    assert [i for i, n in counts.items() if n > 1] == []


def test_every_kind_is_known() -> None:
    assert {item["kind"] for _, _, item in corpus()} <= KINDS


@pytest.mark.parametrize("kind,floor", sorted(FLOORS.items()))
def test_count_per_kind_above_floor(kind: str, floor: int) -> None:
    assert sum(1 for f in own() if f["kind"] == kind) >= floor


def test_total_count_at_least_5000() -> None:
    assert len(own()) >= 5000


def test_every_cite_is_registered() -> None:
    known = registered_articles()
    missing = sorted({c for f in own() for c in f["cites"]} - known)
    assert missing == []


def test_every_tag_is_registered() -> None:
    known = registered_tags()
    missing = sorted({t for f in own() for t in f["tags"]} - known)
    assert missing == []


def test_rulesets_name_existing_ids() -> None:
    known = ruleset_ids() | {"*"}
    named = {r for f in own() for r in f["rulesets"]}
    named |= {r for f in own() for r in f.get("expect_by_ruleset", {})}
    assert named <= known, sorted(named - known)


def test_expect_by_ruleset_covers_exactly_the_rulesets() -> None:
    for fixture in own():
        if "expect_by_ruleset" in fixture:
            assert "*" not in fixture["rulesets"], fixture["id"]
            assert set(fixture["expect_by_ruleset"]) == set(fixture["rulesets"]), fixture["id"]


def test_every_fixture_says_how_its_expectation_was_established() -> None:
    for fixture in own():
        assert fixture["source"]["detail"].strip(), fixture["id"]
        assert fixture["cites"], fixture["id"]


def test_no_fixture_uses_a_retired_id() -> None:
    lines = (FIXTURES / "retired.txt").read_text(encoding="utf-8").splitlines()
    retired = {line.strip() for line in lines if line.strip() and not line.startswith("#")}
    assert retired
    assert not retired & {item["id"] for _, _, item in corpus()}


@pytest.mark.slow  # every generator rerun: the full `tox` (and CI) runs it, `tox -e fast` leaves it out
def test_all_generators_reproduce_the_corpus_byte_for_byte(tmp_path: Path) -> None:
    from conformance.tools.generate import all as generate_all
    from conformance.tools.generate.common import main

    data = ROOT / "conformance" / "tools" / "generate" / "data"
    assert main("all", generate_all.build, ["--data", str(data), "--out", str(tmp_path)]) == 0
    produced = sorted(tmp_path.glob("*.jsonl"))
    assert len(produced) >= 15
    for path in produced:
        assert path.read_bytes() == (FIXTURES / path.name).read_bytes(), path.name
