"""Loading rulesets: ids, aliases, paths, the ``extends`` merge, derived rulesets.

Expectations come from the merge rules in docs/architecture.md (mapping merged, list
and scalar replaced, null removes, id/title/aliases/abstract/extends not inherited)
applied by hand to small temporary files.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reference_impl.errors import RulesetError
from reference_impl.rules import derive_ruleset, list_rulesets, load_ruleset, spec_dir
from reference_impl.rules.articles import article_title, known_cites
from reference_impl.rules.merge import merge

REPO = Path(__file__).resolve().parent.parent


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def family(tmp_path: Path) -> Path:
    """A parent extending fide-2023 and a child extending the parent, side by side."""
    write(tmp_path, "parent.yaml", """\
        id: parent
        title: Parent
        extends: fide-2023
        aliases: [mum]
        pawn:
          promotion:
            to: [queen, knight]
            cite: fide-2023:3.7.3.3
        """)
    return write(tmp_path, "child.yaml", """\
        id: child
        title: Child
        extends: parent
        pawn:
          promotion:
            to: [queen]
          double_step: ~
        castling:
          uci: king_takes_rook
        """)


def test_alias_resolves_to_the_same_ruleset_as_the_id() -> None:
    assert load_ruleset("fide") is load_ruleset("fide-2023")
    assert load_ruleset("uscf").id == "uscf-7"
    assert load_ruleset("chess960").id == "fide-2023-chess960"
    assert load_ruleset("fide").aliases == ("fide",)


def test_chain_runs_from_root_to_self() -> None:
    assert load_ruleset("fide-2014").chain == ("orthodox", "fide-2023", "fide-2018", "fide-2014")
    assert load_ruleset("uscf-7-blitz").chain == ("orthodox", "uscf-7", "uscf-7-blitz")


def test_the_model_reads_the_resolved_data() -> None:
    rules = load_ruleset("fide-2023")
    promotion = rules.model.pawn.promotion if rules.model.pawn else None
    assert promotion is not None and list(promotion.to) == rules.data["pawn"]["promotion"]["to"]
    assert rules.model is rules.model  # read once


def test_fide_2018_states_only_the_renumbered_pawn_articles() -> None:
    """2018 numbered en passant 3.7.4.x and promotion 3.7.5.x; the rule text is the same."""
    old, new = load_ruleset("fide-2018").data, load_ruleset("fide-2023").data
    assert old["pawn"]["en_passant"]["cite"] == "fide-2018:3.7.4.1"
    assert new["pawn"]["en_passant"]["cite"] == "fide-2023:3.7.3.1"
    assert old["pawn"]["promotion"]["to"] == new["pawn"]["promotion"]["to"]


def test_list_replaces_map_merges_null_removes(family: Path) -> None:
    child = load_ruleset(family)
    data = child.data
    promotion = data["pawn"]["promotion"]
    assert promotion["to"] == ["queen"]  # list replaced whole
    assert promotion["cite"] == "fide-2023:3.7.3.3"  # sibling key kept: map merged
    assert promotion["rank"] == 8  # from orthodox, three levels up
    assert "double_step" not in data["pawn"]  # null removed the inherited key
    assert data["castling"]["uci"] == "king_takes_rook"
    assert data["castling"]["sides"]["king_side"]["king_to"] == "g"
    assert child.chain == ("orthodox", "fide-2023", "parent", "child")


def test_descriptive_keys_are_not_inherited(family: Path) -> None:
    child = load_ruleset(family)
    assert child.id == "child" and child.title == "Child"
    assert child.aliases == ()
    assert "aliases" not in child.data
    assert child.data["extends"] == "parent"
    assert "abstract" not in child.data  # orthodox is abstract; its children are not
    assert load_ruleset("orthodox").abstract


def test_path_parent_found_next_to_the_file_first(tmp_path: Path) -> None:
    """A sibling named like a built-in id shadows the built-in for that file."""
    write(tmp_path, "fide-2023.yaml", """\
        id: fide-2023
        title: Local fide
        extends: orthodox
        pawn:
          en_passant: ~
        """)
    path = write(tmp_path, "mine.yaml", "id: mine\ntitle: Mine\nextends: fide-2023\n")
    assert "en_passant" not in load_ruleset(path).data["pawn"]
    assert "en_passant" in load_ruleset("fide-2023").data["pawn"]


def test_cycle_is_an_error_naming_the_file(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "id: a\ntitle: A\nextends: b\n")
    write(tmp_path, "b.yaml", "id: b\ntitle: B\nextends: a\n")
    with pytest.raises(RulesetError, match=r"\.yaml:3: extends: inheritance cycle"):
        load_ruleset(tmp_path / "a.yaml")


def test_unknown_parent_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "orphan.yaml", "id: orphan\ntitle: O\nextends: fide-1999\n")
    with pytest.raises(RulesetError, match=r"orphan\.yaml:3: extends: unknown ruleset 'fide-1999'"):
        load_ruleset(path)


def test_unknown_id_and_missing_file() -> None:
    with pytest.raises(RulesetError, match=r"unknown ruleset 'fide-1999' \(known: .*fide-2023"):
        load_ruleset("fide-1999")
    with pytest.raises(RulesetError, match="no such ruleset file"):
        load_ruleset("does/not/exist.yaml")


def test_invalid_ruleset_file_fails_to_load(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "id: bad\ntitle: B\nextends: fide-2023\npawn:\n  promotion:\n    rank: 9\n")
    with pytest.raises(RulesetError, match=r"bad\.yaml:6: pawn\.promotion\.rank: 9 is greater than the maximum of 8"):
        load_ruleset(path)


def test_derive_ruleset_uses_the_same_merge_and_validates() -> None:
    derived = derive_ruleset("fide-2023", {"pawn": {"double_step": None}}, id="no-double-step")
    assert derived.id == "no-double-step"
    assert "double_step" not in derived.data["pawn"]
    assert derived.data["pawn"]["push"] == load_ruleset("fide").data["pawn"]["push"]
    assert derived.chain == ("orthodox", "fide-2023", "no-double-step")
    assert "double_step" in load_ruleset("fide-2023").data["pawn"]  # the base is untouched
    with pytest.raises(RulesetError, match=r"derived ruleset 'bad': pawn\.promotion\.to\[0\]: 'king' is not"):
        derive_ruleset("fide", {"pieces": {"king": None}, "pawn": {"promotion": {"to": ["king"]}}}, id="bad")


def test_list_rulesets_sorted_and_without_abstract_bases() -> None:
    ids = [r.id for r in list_rulesets()]
    assert ids == sorted(ids)
    assert "orthodox" not in ids
    assert {"fide-2023", "fide-2023-rapid", "fide-2023-blitz", "fide-2018", "fide-2014",
            "uscf-7", "uscf-7-blitz", "fide-2023-chess960"} <= set(ids)


def test_merge_does_not_modify_its_arguments() -> None:
    parent = {"a": {"b": [1, 2], "c": 1}}
    child = {"a": {"b": [3], "c": None}}
    assert merge(parent, child) == {"a": {"b": [3]}}
    assert parent == {"a": {"b": [1, 2], "c": 1}} and child == {"a": {"b": [3], "c": None}}


def test_spec_dir_is_the_checkout_spec_without_a_wheel() -> None:
    assert spec_dir() == (REPO / "spec").resolve() or (spec_dir() / "rulesets" / "fide-2023.yaml").is_file()
    assert (spec_dir() / "rulesets" / "fide-2023.yaml").is_file()
    assert (spec_dir() / "schema" / "ruleset.schema.json").is_file()


def test_spec_found_from_another_working_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_SPEC_DIR"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    code = "from reference_impl.rules import load_ruleset; print(load_ruleset('chess960').chain[-1])"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "fide-2023-chess960"


def test_spec_dir_override_must_hold_rulesets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_SPEC_DIR", str(tmp_path))
    with pytest.raises(RulesetError, match="no rulesets/ directory"):
        spec_dir()


def test_article_registry() -> None:
    cites = known_cites()
    assert {"fide-2023:3.8.2.2.1", "fide-2023:II.3.2.7.4", "uscf-7:14E2", "pgn:8.2.3.4",
            "fide-2018:9.2.2", "fide-2014:9.6.a", "uci:chess960", "fen:xfen"} <= cites
    assert "castl" in article_title("fide-2023:3.8.2.2.1").lower()
    with pytest.raises(RulesetError, match="unknown article"):
        article_title("fide-2023:99.9")
