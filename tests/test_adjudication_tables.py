"""The adjudication tables themselves: schema, citations, inheritance, and the rule that
no federation or edition is named in the interpreter's code (differences are data).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from reference_impl.rules.articles import known_cites
from reference_impl.rules.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("termination", "repetition", "move_rule", "flag_fall", "illegal_moves", "touch_move", "clocks", "speed")
RULESETS = ("fide-2023", "fide-2023-rapid", "fide-2023-blitz", "fide-2018", "fide-2014", "uscf-7",
            "uscf-7-blitz", "fide-2023-chess960")
MINE = ("api.py", "clocks.py", "game.py", "record.py", "repetition.py", "tables.py", "timecontrol.py",
        "touch.py", "verdicts.py")


def _cites(node: object) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("cite") and isinstance(value, str):
                found.append(value)
            found += _cites(value)
    elif isinstance(node, list):
        for value in node:
            found += _cites(value)
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_resolved_ruleset_has_every_section_and_only_known_cites(ruleset: str) -> None:
    rules = load_ruleset(ruleset).data
    known = known_cites()
    for section in SECTIONS:
        assert rules.get(section), f"{ruleset}: no {section}"
        missing = [c for c in _cites(rules[section]) if c not in known]
        assert not missing, f"{ruleset}.{section}: unknown cites {missing}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_resolved_sections_validate_against_the_schema(ruleset: str) -> None:
    schema = json.loads((ROOT / "spec/schema/adjudication.schema.json").read_text())
    movement = json.loads((ROOT / "spec/schema/movement.schema.json").read_text())
    from referencing import Registry, Resource

    registry = Registry().with_resources(
        [(s["$id"], Resource.from_contents(s)) for s in (schema, movement)])
    rules = load_ruleset(ruleset)
    for section in SECTIONS:
        sub = {"$ref": f"{schema['$id']}#/$defs/{section}"}
        jsonschema.Draft202012Validator(sub, registry=registry).validate(rules.data[section])


def test_schema_rejects_a_typo() -> None:
    schema = json.loads((ROOT / "spec/schema/adjudication.schema.json").read_text())
    movement = json.loads((ROOT / "spec/schema/movement.schema.json").read_text())
    from referencing import Registry, Resource

    registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in (schema, movement)])
    validator = jsonschema.Draft202012Validator({"$ref": f"{schema['$id']}#/$defs/repetition"}, registry=registry)
    assert list(validator.iter_errors({"automatic": {"kind": "automatic", "occurences": 5, "cite": "fide-2023:9.6.1"}}))
    assert list(validator.iter_errors({"automatic": {"kind": "sometimes", "cite": "fide-2023:9.6.1"}}))


def test_editions_differ_exactly_where_the_digest_says() -> None:
    f23, f18, f14, us = (load_ruleset(r).data for r in ("fide-2023", "fide-2018", "fide-2014", "uscf-7"))
    assert f23["termination"]["resignation"]["draw_if_opponent_cannot_checkmate"] is True
    assert f18["termination"]["resignation"]["draw_if_opponent_cannot_checkmate"] is False
    assert (f18["repetition"]["automatic"]["consecutive"], f14["repetition"]["automatic"]["consecutive"]) == (False, True)
    assert us["repetition"]["automatic"]["kind"] == "discretionary"
    assert us["move_rule"]["automatic"]["kind"] == "discretionary"
    assert f23["flag_fall"]["draw_test"] == "opponent_cannot_checkmate"
    assert us["flag_fall"]["draw_test"] == "material_table"
    assert f23["clocks"]["penalty"]["rapid"]["seconds"] == 60 and f18["clocks"]["penalty"]["rapid"]["seconds"] == 120
    assert f14["illegal_moves"]["rapid"]["without_supervision"]["loses_at"] == 1 and f23["illegal_moves"]["rapid"]["loses_at"] == 2
    assert us["illegal_moves"]["standard"].get("loses_at") is None  # null: never
    assert "note" not in f18["repetition"]["automatic"]  # removed with ~


def test_unconfirmed_sources_carry_a_note() -> None:
    assert load_ruleset("fide-2023").data["illegal_moves"]["blitz"].get("note")       # B.2 / B.3
    assert load_ruleset("uscf-7").data["illegal_moves"]["blitz"].get("note")          # blitz chapter
    assert load_ruleset("fide-2014").data["speed"].get("note")                        # 2014 bands
    assert load_ruleset("fide-2023").data["clocks"]["delay"].get("note")              # Bronstein vs simple


def test_no_ruleset_is_named_in_the_interpreter_code() -> None:
    # "if ruleset == 'uscf'" is forbidden: string constants in code (docstrings aside)
    # must not name a federation or edition.
    for name in MINE:
        tree = ast.parse((ROOT / "reference_impl/adjudication" / name).read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text = node.value.lower()
                assert "fide" not in text and "uscf" not in text and "us chess" not in text, (name, node.value)


def test_ruleset_files_keep_yaml_safe_and_sections_commented() -> None:
    for ruleset in ("fide-2023", "uscf-7"):
        text = (ROOT / "spec/rulesets" / f"{ruleset}.yaml").read_text()
        assert "docs/adjudication.md" in text
        assert yaml.safe_load(text)["termination"]
