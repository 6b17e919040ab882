"""``arbiter rules list/show/validate/diff``: output and exit codes.

Expected differences between FIDE 2023 and US Chess 7 come from the rule texts:
FIDE 2023 5.1.2 makes a resignation a draw when the opponent cannot checkmate, US Chess
13B has no such exception; FIDE 9.6.1 fivefold is automatic, US Chess 14K leaves it to
the director. The full list is recomputed here by a naive flattening of both tables.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from conformance.cli import main
from reference_impl.rules import load_ruleset


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["rules", *args])


def test_list_shows_ids_aliases_parents_titles() -> None:
    result = run("list")
    assert result.exit_code == 0
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()[1:]}
    assert rows["fide-2023"][1:3] == ["fide", "orthodox"]
    assert rows["fide-2023-chess960"][1:3] == ["chess960", "fide-2023"]
    assert rows["uscf-7"][1] == "uscf"
    assert "orthodox" not in rows
    assert "orthodox" in run("list", "--all").stdout


def test_show_chess960_has_the_resolved_castling() -> None:
    result = run("show", "chess960")
    assert result.exit_code == 0
    data = yaml.safe_load(result.stdout)
    castling = data["castling"]
    assert castling["rights_require"] == "king_between_rooks"
    assert castling["uci"] == "king_takes_rook"
    # inherited from the orthodox base, unchanged by Chess960 (Guidelines II.3.2.6)
    assert castling["sides"]["king_side"] == {"king_to": "g", "rook_to": "f", "cite": "fide-2023:II.3.2.6"}
    assert castling["must_not_be_attacked"]["rook_removed"] is True
    assert data["id"] == "fide-2023-chess960"


def test_show_json_equals_the_loaded_data() -> None:
    result = run("show", "uscf", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == load_ruleset("uscf-7").data


def test_show_unknown_id_is_one_line_exit_1() -> None:
    result = run("show", "fide-1999")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "unknown ruleset 'fide-1999'" in result.stderr
    assert "Traceback" not in result.output


def test_validate_builtins_exit_0() -> None:
    result = run("validate")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""


def test_validate_broken_file_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: B\nextends: fide-2023\ncastling:\n  uci: sideways\n", encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text("id: good\ntitle: G\nextends: fide-2023\n", encoding="utf-8")
    result = run("validate", str(good), str(bad))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{bad}:5: castling.uci: 'sideways' is not one of ['king_to_destination', 'king_takes_rook']"]
    assert run("validate", str(good)).exit_code == 0


def test_validate_missing_file_exit_1(tmp_path: Path) -> None:
    result = run("validate", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 1
    assert "nope.yaml: cannot read" in result.stdout


def _flatten(value: Any, path: tuple[str, ...] = ()) -> dict[str, Any]:
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, child in value.items():
            out.update(_flatten(child, path + (key,)))
        return out
    return {".".join(path): value}


def test_diff_fide_2023_uscf_7_lists_every_differing_entry() -> None:
    result = run("diff", "fide-2023", "uscf-7", "--json", "--annotations")
    assert result.exit_code == 0
    reported = {json.loads(line)["path"]: json.loads(line) for line in result.stdout.splitlines()}
    a = _flatten({k: v for k, v in load_ruleset("fide-2023").data.items()
                  if k not in ("id", "title", "aliases", "abstract", "extends")})
    b = _flatten({k: v for k, v in load_ruleset("uscf-7").data.items()
                  if k not in ("id", "title", "aliases", "abstract", "extends")})
    expected = {p for p in set(a) | set(b) if a.get(p, "<absent>") != b.get(p, "<absent>")}
    # Citations inside list rows (speed.bands.0.cite) are listed apart, as annotations.
    rows = {p for p, line in reported.items() if line.get("annotation") and any(s.isdigit() for s in p.split("."))}
    assert set(reported) - rows == expected
    assert "speed.bands.0.cite" in rows
    assert "pawn.en_passant.cite" in reported  # FIDE 3.7.3.1 vs US Chess 8F5
    assert reported["pawn.en_passant.cite"]["uscf-7"]["cite"] == "uscf-7:8F5"


def test_diff_text_names_rule_differences_with_cites() -> None:
    result = run("diff", "fide-2023", "uscf-7")
    assert result.exit_code == 0
    text = result.stdout
    resignation = [line for line in text.splitlines() if line.startswith("termination.resignation.")]
    assert resignation, "FIDE 2023 5.1.2 vs US Chess 13B must differ"
    assert "[fide-2023:5.1.2]" in text and "[uscf-7:13B]" in text
    assert "[uscf-7:14K" in text  # fivefold / 75 moves at the director's discretion
    assert "pawn.en_passant.cite" not in text  # annotations only with --annotations


def test_diff_identical_rulesets_is_empty() -> None:
    result = run("diff", "fide", "fide-2023")
    assert result.exit_code == 0
    assert result.stdout == ""


def test_diff_unknown_id_exit_1() -> None:
    result = run("diff", "fide", "nope")
    assert result.exit_code == 1
    assert "unknown ruleset 'nope'" in result.stderr


def test_articles_lists_cites_with_titles() -> None:
    result = run("articles", "fide-2023")
    assert result.exit_code == 0
    rows = dict(line.split("\t", 1) for line in result.stdout.splitlines())
    assert "fide-2023:3.8.2.2.1" in rows and "fide-2023:II.3.2.7.4" in rows
    assert all(cite.startswith("fide-2023:") for cite in rows)
    assert "uscf-7:14E2" in run("articles").stdout


def test_articles_unknown_document_is_a_usage_error() -> None:
    result = run("articles", "fide-1999")
    assert result.exit_code == 2
    assert "unknown document 'fide-1999'" in result.stderr
