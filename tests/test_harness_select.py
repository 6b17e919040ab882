"""Fixture loading, selection filters, "*" expansion and sharding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.harness import fixtures, rulesets
from conformance.harness.select import Selection, expand, narrow_star, parse_shard, shard_of
from reference_impl.errors import UsageError

DATA = Path(__file__).parent / "data" / "harness"
STAR = ("fide-2023", "uscf-7")


def make(ident: str, kind: str = "perft", tags: tuple[str, ...] = (), cites: tuple[str, ...] = (),
         rulesets_: tuple[str, ...] = ("*",)) -> dict:
    return {"id": ident, "kind": kind, "rulesets": list(rulesets_), "input": {"fen": "x"},
            "expect": {"nodes": 1}, "tags": list(tags), "cites": list(cites)}


CORPUS = [
    make("a.perft.one", tags=("castling",), cites=("fide-2023:3.8.2",)),
    make("a.legal.two", kind="legal_moves", tags=("en-passant",), cites=("fide-2023:3.7.3.1",)),
    make("b.status.three", kind="status", cites=("uscf-7:14E2",), rulesets_=("uscf-7",)),
]


def ids(cases: list) -> list[tuple[str, str]]:
    return [(c.id, c.ruleset) for c in cases]


def test_star_expands_to_every_given_ruleset_in_order() -> None:
    assert ids(expand(CORPUS[:1], Selection(), STAR)) == [("a.perft.one", "fide-2023"), ("a.perft.one", "uscf-7")]


def test_star_means_the_orthodox_rulesets_not_chess960() -> None:
    ortho = rulesets.orthodox_rulesets()
    assert "fide-2023" in ortho and "uscf-7" in ortho
    assert "fide-2023-chess960" not in ortho


@pytest.mark.parametrize(
    "selection, expected",
    [
        (Selection(kind=["status"]), [("b.status.three", "uscf-7")]),
        (Selection(tag=["castling", "en-passant"]), [("a.perft.one", "fide-2023"), ("a.perft.one", "uscf-7"),
                                                      ("a.legal.two", "fide-2023"), ("a.legal.two", "uscf-7")]),
        (Selection(id=["a.*"], ruleset=["uscf-7"]), [("a.perft.one", "uscf-7"), ("a.legal.two", "uscf-7")]),
        (Selection(cite=["uscf-7:*"]), [("b.status.three", "uscf-7")]),
        (Selection(cite=["fide-2023:3.7.*"], kind=["perft"]), []),
        (Selection(exclude_tag=["castling"], ruleset=["fide-2023"]), [("a.legal.two", "fide-2023")]),
    ],
)
def test_filters(selection: Selection, expected: list) -> None:
    assert ids(expand(CORPUS, selection, STAR)) == expected


def test_expect_by_ruleset_overrides_expect() -> None:
    fixture = make("c.split", rulesets_=("fide-2023", "uscf-7"))
    fixture["expect_by_ruleset"] = {"uscf-7": {"nodes": 2}}
    cases = expand([fixture], Selection(), STAR)
    assert [c.expect for c in cases] == [{"nodes": 1}, {"nodes": 2}]


def test_shards_partition_the_run() -> None:
    many = [make(f"s.fixture.{i}") for i in range(200)]
    whole = ids(expand(many, Selection(), STAR))
    parts = [ids(expand(many, Selection(shard=(k, 4)), STAR)) for k in range(1, 5)]
    flat = [case for part in parts for case in part]
    assert sorted(flat) == sorted(whole) and len(flat) == len(whole)
    assert all(parts)  # no shard is empty with 200 fixtures
    for part in parts:  # a fixture's rulesets stay together
        assert len({i for i, _ in part}) * 2 == len(part)


def test_shard_is_stable_when_fixtures_are_added() -> None:
    before = {f"s.{i}": shard_of(f"s.{i}", 5) for i in range(50)}
    assert all(shard_of(i, 5) == k for i, k in before.items())


@pytest.mark.parametrize("text", ["0/3", "4/3", "a/b", "3", "1/0"])
def test_bad_shard_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError):
        parse_shard(text)


def test_load_reads_directory_and_reports_revision() -> None:
    corpus = fixtures.load([DATA / "reference.jsonl"])
    assert len(corpus.fixtures) == 7
    assert corpus.revision.startswith("sha256:")
    assert corpus.origins["h.perft.start.d1"].endswith("reference.jsonl:1")


def test_bad_lines_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = json.dumps(make("ok.one"))
    path.write_text("\n".join([good, "{not json", json.dumps({"id": "Bad Id"}), good]) + "\n")
    with pytest.raises(fixtures.FixtureError) as caught:
        fixtures.load([path])
    problems = caught.value.problems
    assert problems[0].startswith(f"{path}:2: not JSON")
    assert problems[1].startswith(f"{path}:3: 'id' must be")
    assert problems[2].startswith(f"{path}:4: duplicate id 'ok.one' (first at {path}:1)")
    assert caught.value.exit_code == 1


def test_missing_fixture_path(tmp_path: Path) -> None:
    with pytest.raises(fixtures.FixtureError, match="no such file"):
        fixtures.load([tmp_path / "nope.jsonl"])


def test_schema_validation_is_available(tmp_path: Path) -> None:
    if not fixtures.SCHEMA_PATH.is_file():
        pytest.skip("no fixture schema in this tree")
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(make("schema.check")) + "\n")
    with pytest.raises(fixtures.FixtureError, match="schema"):
        fixtures.load([path], validate=True)  # lacks description and source


def test_star_narrowed_to_declared_rulesets_explicit_ones_kept() -> None:
    cases = expand(CORPUS, Selection(), STAR)
    narrowed = narrow_star(cases, ["fide-2023"])
    assert ids(narrowed) == [("a.perft.one", "fide-2023"), ("a.legal.two", "fide-2023"),
                             ("b.status.three", "uscf-7")]  # named explicitly: kept (unsupported)
    # "*" runs once, under the first ruleset of the "*" order the adapter plays...
    assert ids(narrow_star(cases, ["*"])) == ids(narrowed)
    assert ids(narrow_star(cases, ["uscf-7"])) == [("a.perft.one", "uscf-7"), ("a.legal.two", "uscf-7"),
                                                   ("b.status.three", "uscf-7")]
    # ...or under every ruleset the user selected.
    assert narrow_star(cases, ["*"], ["fide-2023", "uscf-7"]) == cases
