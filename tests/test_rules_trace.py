"""``arbiter rules trace CITE``: from an article to its YAML entries, the model fields that
carry it, the Python lines that read them (by type, not by word), the C lines that use
what they compile to, and the fixtures citing it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli_run import ROOT, arbiter, one_error
from conformance.cli import main
from reference_impl.rules import spec_dir

FIXTURES = ROOT / "conformance" / "fixtures"


@pytest.fixture(scope="module")
def fifty() -> dict[str, Any]:
    result = CliRunner().invoke(main, ["rules", "trace", "fide-2023:9.3", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _line_of(path: Path, *after: str) -> int:
    """1-based line of the last of ``after`` (stripped) found in order in ``path``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    index = -1
    for wanted in after:
        index = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == wanted)
    return index + 1


def _citing(cite: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for file in FIXTURES.glob("*.jsonl"):
        for raw in file.read_text(encoding="utf-8").splitlines():
            if raw.strip():
                fixture = json.loads(raw)
                if cite in fixture.get("cites", []):
                    counts[fixture["kind"]] = counts.get(fixture["kind"], 0) + 1
    return counts


def test_the_yaml_entry_with_file_line_path_and_value(fifty: dict[str, Any]) -> None:
    assert fifty["cite"] == "fide-2023:9.3" and "fifty" in fifty["title"].lower()
    entries = {(e["file"], e["path"]): e for e in fifty["entries"]}
    claim = entries[("rulesets/fide-2023.yaml", "move_rule.claim")]
    assert claim["value"]["plies"] == 100 and claim["value"]["kind"] == "claim"
    assert "plies" in claim["keys"] and "cite" not in claim["value"]
    assert claim["line"] == _line_of(spec_dir() / "rulesets" / "fide-2023.yaml", "move_rule:", "cite: fide-2023:9.3")
    assert {"fide-2023", "fide-2023-rapid", "fide-2023-blitz"} <= set(claim["rulesets"])
    assert "uscf-7" not in claim["rulesets"]  # US Chess re-cites the entry to 14F


def test_an_entry_cited_by_key_is_that_key(fifty: dict[str, Any]) -> None:
    result = CliRunner().invoke(main, ["rules", "trace", "fide-2023:9.4", "--json"])
    paths = {e["path"]: e["value"] for e in json.loads(result.output)["entries"]}
    assert paths == {"repetition.claim.touch_forfeits": True, "move_rule.claim.touch_forfeits": True}


def test_fide_2023_9_3_code_sites_are_real_lines_that_read_the_fields(fifty: dict[str, Any]) -> None:
    sites = fifty["code"]
    assert sites, "no reading site found"
    for site in sites:
        line = (ROOT / site["file"]).read_text(encoding="utf-8").splitlines()[site["line"] - 1]
        assert line.strip() == site["text"]
        # a read names the field it reads: no line counts for a word it merely contains
        assert any(f".{key.rpartition('.')[2]}" in site["text"] for key in site["keys"]), site
    reads = {(s["file"], k) for s in sites for k in s["keys"]}
    assert ("reference_impl/adjudication/game.py", "move_rule.claim.plies") in reads  # the claim's count
    assert ("reference_impl/adjudication/verdicts.py", "move_rule.claim.plies") in reads  # the 14E2 horizon
    assert not any(s["file"].startswith("reference_impl/core/") for s in sites)
    fields = {f["path"]: f for f in fifty["fields"]}
    assert fields["move_rule.claim.plies"]["value"] == 100
    assert fields["move_rule.claim.plies"]["source"] == {
        "file": "rulesets/fide-2023.yaml",
        "line": _line_of(spec_dir() / "rulesets" / "fide-2023.yaml", "move_rule:", "claim:", "plies: 100               # 50 moves by each player without pawn move or capture")}
    assert fields["move_rule.claim.plies"]["compiled"] is None  # not in the move layer: no C


@pytest.fixture(scope="module")
def forced_win() -> dict[str, Any]:
    result = CliRunner().invoke(main, ["rules", "trace", "uscf-7:14E2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_uscf_7_14e2_reads_are_the_model_reads_and_reach_the_forced_win_search(forced_win: dict[str, Any]) -> None:
    fields = {f["path"]: f for f in forced_win["fields"]}
    row = fields["flag_fall.material_draws[1].unless_forced_win"]
    assert row["model"] == "MaterialRow.unless_forced_win" and row["value"] is True
    assert [(r["file"], r["text"]) for r in row["reads"]] == [
        ("reference_impl/adjudication/verdicts.py", "if row.unless_forced_win:")]
    reached = {(c["file"], c["function"].rpartition(".")[2]) for c in row["reads"][0]["reaches"]}
    assert ("reference_impl/unwinnability/forced_win.py", "forced_mate") in reached
    assert fields["flag_fall.forced_win_unshown"]["reads"]
    # every site reads a traced field by its name; none merely names the section
    assert forced_win["code"] and all("flag_fall" not in s["text"] or "need(" in s["text"] for s in forced_win["code"])
    assert {s["file"] for s in forced_win["code"]} == {"reference_impl/adjudication/verdicts.py"}


def test_a_same_named_attribute_of_another_type_is_no_read() -> None:
    from conformance.cli import trace_python
    from reference_impl.rules.model import ResultEntry

    reads = trace_python.reads_of(ResultEntry, "result", ("termination", "checkmate", "result"))
    assert reads and all(r.cls is ResultEntry for r in reads)
    # status.result, ruling.result, r.result: results of other types on the same files
    assert not any(word in r.text for r in reads for word in ("status.result", "ruling.result", "r.result"))


@pytest.fixture(scope="module")
def castling() -> dict[str, Any]:
    result = CliRunner().invoke(main, ["rules", "trace", "fide-2023:3.8.2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_fide_2023_3_8_2_castling_reaches_python_and_c(castling: dict[str, Any]) -> None:
    fields = {f["path"]: f for f in castling["fields"]}
    rook = fields["castling.rook"]
    assert {r["file"] for r in rook["reads"]} >= {"reference_impl/core/tables.py", "reference_impl/adjudication/touch.py"}
    compiled = rook["compiled"]
    assert "castling.rook_type" in compiled["attributes"]
    assert "load_tables[15]" in compiled["slots"] and "T->rook_type" in compiled["members"]
    c_lines = compiled["c"]["T->rook_type"]
    assert any(c["file"].endswith("csrc/board.c") and "T->rook_type" in c["text"] for c in c_lines)
    for c in c_lines:
        assert (ROOT / c["file"]).read_text(encoding="utf-8").splitlines()[c["line"] - 1].strip() == c["text"]
    king_to = fields["castling.sides.king_side.king_to"]["compiled"]
    assert "T->side_kto" in king_to["members"]
    uci = fields["castling.uci"]["compiled"]
    assert uci["attributes"] == ["castling.uci_king_takes_rook"] and "F->uci_king_takes_rook" in uci["members"]


@pytest.mark.parametrize(("cite", "path", "member"), [
    ("fide-2023:3.7.3.1", "pawn.en_passant", "T->en_passant"),
    ("fide-2023:3.7.3.3", "pawn.promotion.to", "T->promo"),
    ("fide-2023:3.7.3", "pawn.captures.vectors", "T->pawn_cap"),
])
def test_fide_2023_3_7_3_pawn_fields_reach_their_c_members(cite: str, path: str, member: str) -> None:
    result = CliRunner().invoke(main, ["rules", "trace", cite, "--json"])
    fields = {f["path"]: f for f in json.loads(result.output)["fields"]}
    assert fields[path]["reads"] and all(r["file"].startswith("reference_impl/") for r in fields[path]["reads"])
    assert member in fields[path]["compiled"]["members"]
    assert fields[path]["compiled"]["c"][member]


def test_a_member_derived_in_the_loader_is_followed() -> None:
    from conformance.cli import trace_c

    # the reverse capture table is computed from the capture table when the tables load
    assert "pawn_cap_from" in trace_c.derived_members("load_tables", "T", {"pawn_cap"})
    assert "leaps_to" in trace_c.derived_members("load_tables", "T", {"leaps"})
    slots = trace_c.slot_members("load_tables", "T", 6)
    assert slots[15][0] == "rook_type" and slots[4][0] == "en_passant"


def test_the_fixtures_are_counted_per_kind(fifty: dict[str, Any]) -> None:
    expected = _citing("fide-2023:9.3")
    assert expected, "the corpus has fixtures citing 9.3"
    assert fifty["fixtures"]["per_kind"] == expected
    assert fifty["fixtures"]["count"] == sum(expected.values())
    assert all(len(fifty["fixtures"]["ids"][k]) == n for k, n in expected.items())


def test_notation_tables_are_traced_too() -> None:
    result = CliRunner().invoke(main, ["rules", "trace", "fide-2023:C.8", "--json"])
    data = json.loads(result.output)
    assert any(e["file"] == "notation/marks.yaml" for e in data["entries"])
    assert any(s["file"].startswith("reference_impl/notation/") for s in data["code"])


def test_text_output_names_file_line_code_and_counts(fifty: dict[str, Any]) -> None:
    result = CliRunner().invoke(main, ["rules", "trace", "fide-2023:9.3"])
    assert result.exit_code == 0
    claim = next(e for e in fifty["entries"] if e["path"] == "move_rule.claim")
    assert f"spec/rulesets/fide-2023.yaml:{claim['line']}  move_rule.claim" in result.output
    site = fifty["code"][0]
    assert f"{site['file']}:{site['line']}" in result.output
    for kind, count in fifty["fixtures"]["per_kind"].items():
        assert f"{kind}: {count}" in result.output


def test_an_article_no_table_encodes_says_so() -> None:
    result = CliRunner().invoke(main, ["rules", "trace", "fide-2023:7.3", "--json"])
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["entries"] == [] and data["code"] == []


def test_an_unknown_cite_is_one_line_exit_1() -> None:
    line = one_error(arbiter("rules", "trace", "fide-2023:9.33"), 1)
    assert "unknown article 'fide-2023:9.33' (did you mean fide-2023:9.3" in line


@pytest.mark.parametrize(("cite", "expected"), [
    ("fifty-moves", "'fifty-moves' is not a cite (DOCUMENT:ARTICLE"),
    ("nobody:1.1", "unknown article 'nobody:1.1'"),
])
def test_a_malformed_or_foreign_cite_is_exit_1(cite: str, expected: str) -> None:
    result = CliRunner().invoke(main, ["rules", "trace", cite])
    assert result.exit_code == 1 and expected in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_recited_entry_in_an_overriding_spec_is_found(tmp_path: Path) -> None:
    copy = tmp_path / "spec"
    shutil.copytree(spec_dir(), copy)
    ruleset = copy / "rulesets" / "fide-2023.yaml"
    text = ruleset.read_text(encoding="utf-8")
    assert text.count("cite: fide-2023:9.6.2") == 2  # termination.precedence and move_rule.automatic
    head, _, tail = text.partition("move_rule:")
    ruleset.write_text(head + "move_rule:" + tail.replace("cite: fide-2023:9.6.2", "cite: fide-2023:9.3", 1),
                       encoding="utf-8")
    env = {**os.environ, "ARBITER_SPEC_DIR": str(copy)}
    result = arbiter("rules", "trace", "fide-2023:9.3", "--json", env=env)
    assert result.returncode == 0, result.stderr
    entries = {e["path"]: e for e in json.loads(result.stdout)["entries"]}
    assert entries["move_rule.automatic"]["value"]["plies"] == 150
    assert entries["move_rule.automatic"]["line"] == _line_of(ruleset, "move_rule:", "automatic:", "cite: fide-2023:9.3")
