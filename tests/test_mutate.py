"""``arbiter mutate``: the mutants of a ruleset, which fixtures kill them, and the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conformance.cli.commands import mutate as command
from conformance.tools.mutate import exempt
from conformance.tools.mutate import run as mutation
from conformance.tools.mutate.mutants import Mutant, apply, generate, overrides
from conformance.tools.mutate.schema_view import SchemaView
from reference_impl.rules import load_ruleset
from cli_run import arbiter, one_error

FIXTURES = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"

#: A two-file schema with a $ref, an enum, a fixed-length vector and a declarative key.
TINY_SCHEMA = SchemaView({
    "ruleset.schema.json": {"type": "object", "properties": {
        "id": {"type": "string"},
        "rule": {"$ref": "parts.schema.json#/$defs/rule"},
    }},
    "parts.schema.json": {"$defs": {"rule": {"type": "object", "properties": {
        "limit": {"type": "integer"},
        "strict": {"type": "boolean"},
        "mode": {"enum": ["a", "b", "c"]},
        "order": {"type": "array", "items": {"enum": ["x", "y", "z"]}},
        "step": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        "pinned": {"const": "only", "x-declarative": "documents the text"},
        "flag": {"type": "boolean", "x-declarative": "never decides anything"},
        "exists": {"type": "object"},
    }}}},
})

TINY = {
    "id": "tiny",
    "rule": {
        "limit": 3, "strict": True, "mode": "b", "order": ["x", "y"], "step": [0, 1],
        "pinned": "only", "flag": False, "exists": {"cite": "t:2"}, "cite": "t:1", "note": "not mutated",
    },
}


def test_mutants_of_a_tiny_ruleset_are_exactly_these() -> None:
    found = [(m.where, m.mutation, m.cite, m.equivalent) for m in generate(TINY, TINY_SCHEMA)]
    assert found == [
        ("rule.limit", "3 -> 4", "t:1", None),
        ("rule.limit", "3 -> 2", "t:1", None),
        ("rule.strict", "true -> false", "t:1", None),
        ("rule.mode", '"b" -> "a"', "t:1", None),
        ("rule.mode", '"b" -> "c"', "t:1", None),
        ("rule.order", 'drop "x"', "t:1", None),
        ("rule.order", 'drop "y"', "t:1", None),
        ("rule.order", 'add "z"', "t:1", None),
        ("rule.order", 'swap "x" and "y"', "t:1", None),
        ("rule.step", "[0, 1] -> [1, 1]", "t:1", None),
        ("rule.step", "[0, 1] -> [-1, 1]", "t:1", None),
        ("rule.step", "[0, 1] -> [0, 2]", "t:1", None),
        ("rule.flag", "false -> true", "t:1", "never decides anything"),
        ("rule.exists", "entry removed", "t:2", None),
    ]


def test_step_mutants_never_make_a_zero_vector() -> None:
    values = [m.value for m in generate(TINY, TINY_SCHEMA) if m.where == "rule.step"]
    # [0, 1] -> [0, 0] would be a step that goes nowhere: not generated
    assert [0, 0] not in values and len(values) == 3


def test_a_mutant_applies_to_a_copy_and_as_an_override() -> None:
    data = {"speed": {"bands": [{"below": 10, "cite": "c"}, {"below": 60}]}, "pawn": {"en_passant": {"cite": "e"}}}
    band = Mutant(("speed", "bands", 0, "below"), 11, "10 -> 11", ("speed", "bands", 0), "c")
    assert apply(data, band)["speed"]["bands"][0]["below"] == 11
    assert data["speed"]["bands"][0]["below"] == 10  # the original is untouched
    # a change inside a list replaces the list whole (the extends merge replaces lists)
    assert overrides(data, band) == {"speed": {"bands": [{"below": 11, "cite": "c"}, {"below": 60}]}}
    gone = Mutant(("pawn", "en_passant"), None, "entry removed", ("pawn", "en_passant"), "e")
    assert "en_passant" not in apply(data, gone)["pawn"]
    assert overrides(data, gone) == {"pawn": {"en_passant": None}}  # null removes the key


def _mutant(ruleset: Any, where: str, mutation_text: str) -> Mutant:
    found = [m for m in mutation.mutants_of(ruleset) if m.where == where and m.mutation == mutation_text]
    assert len(found) == 1, [m.mutation for m in mutation.mutants_of(ruleset) if m.where == where]
    return found[0]


@pytest.fixture(scope="module")
def fide() -> Any:
    return load_ruleset("fide-2023")


def test_the_fifty_move_threshold_plus_one_is_killed_by_a_game_end_fixture(fide: Any) -> None:
    judge = mutation.Judge(fide, mutation.cases_of("fide-2023", kinds=["game_end"]))
    result = judge.run(_mutant(fide, "move_rule.claim.plies", "100 -> 101"))
    assert result.status == "killed"
    killer = next(c for c in judge.cases if c.id == result.fixture)
    assert killer.kind == "game_end"
    assert "fifty_moves" in json.dumps(killer.expect)  # the fixture expects the claim


def test_the_same_mutant_survives_a_fixture_set_that_cannot_notice(fide: Any, tmp_path: Path) -> None:
    mates = tmp_path / "mates.jsonl"
    mates.write_text((FIXTURES / "game_end.jsonl").read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    judge = mutation.Judge(fide, mutation.cases_of("fide-2023", [str(mates)]))
    result = judge.run(_mutant(fide, "move_rule.claim.plies", "100 -> 101"))
    assert (result.status, result.fixtures) == ("survived", 1)
    # the one fixture does notice a change to the checkmate result
    assert judge.run(_mutant(fide, "termination.checkmate.result", '"win" -> "draw"')).status == "killed"


def test_a_mutant_the_checks_reject_is_invalid_with_its_reason(fide: Any) -> None:
    judge = mutation.Judge(fide, [])
    result = judge.run(_mutant(fide, "pieces.king.royal", "true -> false"))
    assert result.status == "invalid"
    assert "royal" in (result.detail or "")


def test_a_declarative_key_gives_an_equivalent_mutant_that_is_not_run(fide: Any) -> None:
    declared = Mutant(("move_rule", "claim", "plies"), 101, "100 -> 101", ("move_rule", "claim"), "c", "a reason")
    result = mutation.Judge(fide, mutation.cases_of("fide-2023", kinds=["game_end"])).run(declared)
    assert (result.status, result.detail, result.fixtures) == ("equivalent", "a reason", 0)


def test_section_kinds_keep_adjudication_mutants_off_move_layer_fixtures(fide: Any) -> None:
    plies = _mutant(fide, "move_rule.claim.plies", "100 -> 101")
    knight = _mutant(fide, "pieces.knight.leaps", 'drop [1, 2]')
    assert mutation.kinds_for(plies) == ("game_end", "game", "dead_position", "timeout")
    assert mutation.kinds_for(knight)[0] == "validate_fen" and "perft" in mutation.kinds_for(knight)
    assert mutation.kinds_for(plies, ["perft"]) == ()


def test_unknown_ruleset_or_kind_is_a_usage_error() -> None:
    assert "unknown ruleset 'nope' (known: " in one_error(arbiter("mutate", "--rules", "nope"), 2)
    assert "unknown kind 'nope' (known: " in one_error(arbiter("mutate", "--kind", "nope"), 2)
    assert "abstract" in one_error(arbiter("mutate", "--rules", "orthodox"), 2)


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_a_surviving_mutant_exits_1_with_json_lines(tmp_path: Path) -> None:
    mates = tmp_path / "mates.jsonl"
    mates.write_text((FIXTURES / "game_end.jsonl").read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    result = arbiter("mutate", "--rules", "fide", "--kind", "game_end", "-f", str(mates), "--json", "-j", "2")
    assert result.returncode == 1, result.stderr[-500:]
    records = [json.loads(line) for line in result.stdout.splitlines()]
    summary = records[-1]
    assert summary["type"] == "summary" and summary["ruleset"] == "fide-2023"
    mutants = [r for r in records if r["type"] == "mutant"]
    assert len(mutants) == summary["mutants"] and summary["survived"] > 0
    plies = next(r for r in mutants if r["path"] == "move_rule.claim.plies" and r["value"] == 101)
    assert (plies["status"], plies["cite"]) == ("survived", "fide-2023:9.3")
    killed = next(r for r in mutants if r["path"] == "termination.checkmate.result" and r["value"] == "draw")
    assert killed["status"] == "killed" and killed["fixture"] == "game.fools-mate"


def test_ctrl_c_writes_the_partial_table(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted_run(ruleset: str, mutants: list[Mutant], emit: Any, **options: Any) -> None:
        emit(mutation.Result(ruleset, mutants[0], "survived", fixtures=1))
        raise KeyboardInterrupt

    monkeypatch.setattr(mutation, "run", interrupted_run)
    result = CliRunner().invoke(command.command, ["--rules", "fide-2023"])
    assert result.exit_code == 130
    assert "fide-2023: 0 of 1 mutants killed" in result.output and "interrupted, partial" in result.output
    assert "interrupted" in (result.stderr if hasattr(result, "stderr") else result.output)


#: Mutants that survived the first fide-2023 run (the game kind was not tried), each with
#: the game fixture that now kills it.
FORMER_SURVIVORS = (
    ("speed.moves_assumed", "60 -> 59", "game.claim.penalty.speed-edge.sixty-minutes"),
    ("speed.bands[1].inclusive", "false -> true", "game.claim.penalty.speed-edge.sixty-minutes"),
    ("speed.counts", 'add "delay"', "game.claim.penalty.speed-edge.delay-not-counted"),
    ("illegal_moves.rapid.draw_if_opponent_cannot_checkmate", "true -> false",
     "game.illegal.second.rapid.opponent-cannot-mate"),
    ("termination.resignation.result", '"loss" -> "win"', "game.resign.white"),
    ("termination.agreement.min_moves_each", "1 -> 2", "game.offer.accepted"),
)


def test_formerly_surviving_mutants_are_killed_by_game_fixtures(fide: Any, tmp_path: Path) -> None:
    wanted = {killer for _, _, killer in FORMER_SURVIVORS}
    lines = [line for line in (FIXTURES / "game.jsonl").read_text(encoding="utf-8").splitlines()
             if json.loads(line)["id"] in wanted]
    assert len(lines) == len(wanted)
    chosen = tmp_path / "game.jsonl"
    chosen.write_text("\n".join(lines) + "\n", encoding="utf-8")
    judge = mutation.Judge(fide, mutation.cases_of("fide-2023", [str(chosen)]))
    for where, change, killer in FORMER_SURVIVORS:
        result = judge.run(_mutant(fide, where, change))
        assert (where, result.status, result.fixture) == (where, "killed", killer)


def test_exemptions_give_reasons_and_hold_only_under_their_condition(fide: Any) -> None:
    # search budgets are not in the Laws' tables (spec/limits.yaml): no mutant, no exemption
    for ruleset in (fide, load_ruleset("uscf-7")):
        wheres = {m.where for m in mutation.mutants_of(ruleset)}
        assert not [w for w in wheres if "node_limit" in w or "forced_win_max" in w or w.startswith("limits")]
    assert not [e for e in exempt.EXEMPTIONS if "node_limit" in e.path or "forced_win_max" in e.path]
    # fide-2023's three illegal-move regimes are equal, so the speed without a clock decides
    # nothing between standard and rapid; blitz is outside the both-flags rule (III.2.2)
    assert _mutant(fide, "scope.speed", '"standard" -> "rapid"').equivalent
    assert _mutant(fide, "scope.speed", '"standard" -> "blitz"').equivalent is None
    # US Chess blitz loses on the first illegal move: there the same change is a real mutant
    us = load_ruleset("uscf-7")
    assert _mutant(us, "scope.speed", '"standard" -> "blitz"').equivalent is None
    # an exemption names its mutations: dropping the castling king's start square is not exempt
    assert _mutant(fide, "castling.must_not_be_attacked.squares", 'drop "king_from"').equivalent is None


def test_regime_exemptions_follow_the_tables_of_the_unchanged_ruleset(fide: Any) -> None:
    us = load_ruleset("uscf-7")
    # quick and dual are both penalised as regular games: their common edge decides nothing
    assert _mutant(us, "speed.bands[1].below", "30 -> 31").equivalent
    assert _mutant(us, "speed.bands", 'drop {"class": "quick", "regime": "standard", "below": 30, '
                   '"inclusive": false, "cite": "uscf-7:5C"}').equivalent
    # the blitz edge moves a control into the regime whose first illegal move loses
    assert _mutant(us, "speed.bands[0].below", "10 -> 11").equivalent is None
    assert _mutant(us, "speed.bands[0].regime", '"blitz" -> "standard"').equivalent is None
    # US Chess has no rapid tables, so a band or a speed naming "rapid" gets the standard ones
    assert _mutant(us, "speed.bands[1].regime", '"standard" -> "rapid"').equivalent
    assert _mutant(us, "scope.speed", '"standard" -> "rapid"').equivalent
    assert _mutant(fide, "speed.bands[1].regime", '"rapid" -> "standard"').equivalent is None
    # a regime whose illegal moves never lose never reads the conditions of that loss
    assert _mutant(us, "illegal_moves.standard.claimant_needs_mating_material", "false -> true").equivalent
    assert _mutant(fide, "illegal_moves.standard.draw_if_opponent_cannot_checkmate",
                   "true -> false").equivalent is None
    # the termination order ranks only automatic ends: US Chess leaves fivefold to the director
    assert _mutant(us, "termination.precedence.order", 'drop "fivefold_repetition"').equivalent
    assert _mutant(fide, "termination.precedence.order", 'drop "fivefold_repetition"').equivalent is None
