"""``arbiter mutate --notation``: the mutants of the notation tables and the fixtures that kill them."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.tools.mutate import notation
from conformance.tools.mutate.mutants import Mutant
from reference_impl.notation.tables import table
from cli_run import arbiter, one_error

FIXTURES = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"


def _mutant(name: str, where: str, change: str) -> Mutant:
    found = [m for m in notation.mutants_of(name) if m.where == where and m.mutation == change]
    assert len(found) == 1, [(m.where, m.mutation) for m in notation.mutants_of(name) if m.where == where]
    return found[0]


def _fixtures(tmp_path: Path, filename: str, ids: set[str]) -> str:
    lines = [line for line in (FIXTURES / filename).read_text(encoding="utf-8").splitlines()
             if json.loads(line)["id"] in ids]
    assert len(lines) == len(ids)
    chosen = tmp_path / filename
    chosen.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(chosen)


def test_two_piece_letters_swapped_is_a_mutant_of_the_strings_of_a_mapping() -> None:
    swapped = _mutant("pieces", "languages.en.letters.king", '"K" -> "Q" (the next entry\'s)')
    assert (swapped.value, swapped.equivalent) == ("Q", None)


def test_a_swapped_piece_letter_is_killed_and_survives_a_set_that_cannot_notice(tmp_path: Path) -> None:
    swapped = _mutant("pieces", "languages.de.letters.rook", '"T" -> "L" (the next entry\'s)')
    rook = _fixtures(tmp_path, "notation-localized.jsonl", {"notation.san-de-lenient.from.lookalike-09-u0422"})
    result = notation.NotationJudge.build("pieces", [rook]).run(swapped)
    assert (result.status, result.fixture) == ("killed", "notation.san-de-lenient.from.lookalike-09-u0422")
    uci = _fixtures(tmp_path, "notation-descriptive.jsonl", {"notation.descriptive.to.castling-0-king-side"})
    assert notation.NotationJudge.build("pieces", [uci]).run(swapped).status == "survived"


def test_the_descriptive_castling_form_is_killed_by_writing_a_castling(tmp_path: Path) -> None:
    swapped = _mutant("descriptive", "castling.king_side", '"O-O" -> "O-O-O" (the next entry\'s)')
    chosen = _fixtures(tmp_path, "notation-descriptive.jsonl", {"notation.descriptive.to.castling-0-king-side"})
    result = notation.NotationJudge.build("descriptive", [chosen]).run(swapped)
    assert (result.status, result.fixture) == ("killed", "notation.descriptive.to.castling-0-king-side")


def test_a_lookalike_group_is_killed_by_a_printed_move_that_uses_it(tmp_path: Path) -> None:
    ve = ["B", "\u0412"]
    dropped = next(m for m in notation.mutants_of("lookalikes")
                   if m.where == "groups" and isinstance(m.value, list) and ve not in m.value
                   and len(m.value) == len(table("lookalikes")["groups"]) - 1)
    assert dropped.equivalent is None
    chosen = _fixtures(tmp_path, "notation-san.jsonl", {"notation.san-lenient.from.lookalike-01-u0412"})
    result = notation.NotationJudge.build("lookalikes", [chosen]).run(dropped)
    assert result.status == "killed"


def test_a_lookalike_group_no_printed_move_reads_is_equivalent() -> None:
    groups = table("lookalikes")["groups"]
    for letter, read in (("E", False), ("H", False), ("X", False), ("x", True), ("O", True), ("p", True)):
        group = next(g for g in groups if g[0] == letter)
        dropped = next(m for m in notation.mutants_of("lookalikes")
                       if m.where == "groups" and isinstance(m.value, list) and group not in m.value
                       and len(m.value) == len(groups) - 1)
        assert (letter, dropped.equivalent is None) == (letter, read)


def test_a_mark_only_a_readers_union_keeps_is_equivalent_and_a_written_one_is_not() -> None:
    # the russian tradition's double check mark is also the pgn tradition's: every reader's set is unchanged
    assert _mutant("marks", "traditions.russian.double_check", 'drop "++"').equivalent == notation.UNION
    # the descriptive reader takes "++" as its check mark twice; fide keeps it among the mate marks
    assert _mutant("marks", "traditions.english_descriptive.mate", 'drop "++"').equivalent == notation.UNION
    assert _mutant("marks", "traditions.english_descriptive.mate", 'drop "#"').equivalent is None
    # the check mark every SAN writer writes first
    assert _mutant("marks", "traditions.pgn.check", 'drop "+"').equivalent is None
    nag = next(m for m in notation.mutants_of("marks") if m.path[:2] == ("suffix_annotations", "map"))
    assert nag.equivalent == notation.PGN_ONLY


def test_a_mutant_the_notation_schema_refuses_is_invalid() -> None:
    groups = table("lookalikes")["groups"]
    single = next(m for m in notation.mutants_of("lookalikes")
                  if len(m.path) == 2 and m.path[0] == "groups" and isinstance(m.value, list) and len(m.value) < 2)
    judge = notation.NotationJudge("lookalikes")
    result = judge.run(single)
    assert result.status == "invalid" and result.detail
    assert table("lookalikes")["groups"] == groups  # the shipped table is back


def test_an_unknown_notation_table_is_a_usage_error() -> None:
    assert "notation table 'nags': not one a kind of the protocol executes" in one_error(
        arbiter("mutate", "--notation", "nags"), 2)
