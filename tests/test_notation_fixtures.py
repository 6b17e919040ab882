"""The generated notation fixtures: well-formed, tagged, cited, and met by the reference.

The expectations were set by python-chess and by the generator's own table encoders
(conformance/tools/generate/notation.py); here the reference implementation is held to them.
A sample of the corpus runs in ``tox -e fast``; the full ``tox`` (and CI) also runs every
line and regenerates the files to check they are reproducible byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from reference_impl import Board, load_ruleset
from reference_impl.errors import IllegalMoveError
from reference_impl.notation.api import from_notation, to_notation
from reference_impl.rules.articles import known_cites

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "conformance" / "fixtures").glob("notation-*.jsonl"))
TAGS = {line.strip() for line in (ROOT / "conformance" / "fixtures" / "tags.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")}
RULES = {"*": load_ruleset("fide-2023"), "fide-2023-chess960": load_ruleset("fide-2023-chess960")}
SAMPLE = 17


def _fixtures(step: int) -> list[dict]:
    out = []
    for path in FILES:
        lines = path.read_text(encoding="utf-8").splitlines()
        out += [json.loads(line) for line in lines[::step]]
    return out


def _answer(fixture: dict) -> dict:
    data = fixture["input"]
    board = Board.from_fen(data["fen"], RULES[fixture["rulesets"][0]])
    if fixture["kind"] == "to_notation":
        return {"text": to_notation(board, board.parse_uci(data["move"]), data["notation"])}
    try:
        return {"move": board.uci(from_notation(board, data["text"], data["notation"]))}
    except IllegalMoveError as error:
        return {"move": None, "error": getattr(error, "category", "invalid")}


def test_corpus_has_thousands_of_fixtures_for_every_notation() -> None:
    notations = {}
    for path in FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            notation = json.loads(line)["input"]["notation"]
            notations[notation] = notations.get(notation, 0) + 1
    assert sum(notations.values()) > 10_000
    for notation in ("san", "san:lenient", "lan", "uci", "uci:chess960", "fan", "iccf", "uedemann",
                     "descriptive", "san:de", "san:ru", "san:tg", "san:hy"):
        assert notations.get(notation, 0) >= 10, notation


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_fixtures_are_schema_valid_tagged_and_cited() -> None:
    schema = json.loads((ROOT / "conformance" / "schema" / "fixture.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    cites = known_cites()
    ids = set()
    for fixture in _fixtures(5):
        validator.validate(fixture)
        assert set(fixture["tags"]) <= TAGS
        assert set(fixture["cites"]) <= cites
        assert fixture["id"] not in ids
        ids.add(fixture["id"])


def _check(step: int) -> None:
    for fixture in _fixtures(step):
        answer = _answer(fixture)
        assert all(answer.get(k) == v for k, v in fixture["expect"].items()), (fixture["id"], answer)


def test_reference_meets_a_sample_of_the_notation_fixtures() -> None:
    _check(SAMPLE)


@pytest.mark.slow  # every line: the full `tox` (and CI) runs it
def test_reference_meets_every_notation_fixture() -> None:
    _check(1)


@pytest.mark.slow  # the generator rerun: the full `tox` (and CI) runs it
def test_generator_reproduces_the_files(tmp_path: Path) -> None:
    from conformance.tools.generate.notation import build
    from conformance.tools.generate.common import write_jsonl

    for name, records in build(ROOT / "spec" / "notation").items():
        write_jsonl(tmp_path / name, records)
        assert (tmp_path / name).read_bytes() == (ROOT / "conformance" / "fixtures" / name).read_bytes()
