"""``rules diff`` compares values, not citations: FIDE 2023 and 2018 have the same speed
bands (A.1, B.1) under different article numbers, and that is not a rule difference."""

from __future__ import annotations

import json

from click.testing import CliRunner

from conformance.cli import main as cli
from reference_impl.rules import load_ruleset
from reference_impl.rules.diff import annotation_diff, diff


def _keys(differences: list) -> set[str]:
    return {d.key for d in differences}


def test_citation_only_changes_are_not_value_differences() -> None:
    f23, f18 = load_ruleset("fide-2023").data, load_ruleset("fide-2018").data
    values = _keys(diff(f23, f18))
    # The Laws changed 5.1.2 (resignation) and the rapid penalty between 2018 and 2023.
    assert values == {"edition", "termination.resignation.draw_if_opponent_cannot_checkmate", "clocks.penalty.rapid.seconds"}
    cited = _keys(annotation_diff(f23, f18))
    assert {"speed.bands.0.cite", "speed.bands.1.cite", "pawn.en_passant.cite"} <= cited
    assert not any(key.startswith("speed.bands") for key in values)


def test_a_value_change_inside_a_list_row_is_still_a_difference() -> None:
    f23 = load_ruleset("fide-2023").data
    bands = [dict(row) for row in f23["speed"]["bands"]]
    bands[0]["below"] = 15
    changed = {**f23, "speed": {**f23["speed"], "bands": bands}}
    assert _keys(diff(f23, changed)) == {"speed.bands"}
    assert annotation_diff(f23, changed) == []


def test_cli_lists_citations_apart_only_on_request() -> None:
    runner = CliRunner()
    plain = runner.invoke(cli, ["rules", "diff", "fide-2023", "fide-2018"])
    assert plain.exit_code == 0
    assert "speed.bands" not in plain.stdout
    assert "citations or notes differ (--annotations lists them)" in plain.stderr
    full = runner.invoke(cli, ["rules", "diff", "fide-2023", "fide-2018", "--annotations"])
    head, _, cited = full.stdout.partition("# citations and notes only")
    assert "speed.bands.0.cite" in cited and "speed.bands" not in head
    lines = [json.loads(line) for line in runner.invoke(
        cli, ["rules", "diff", "fide-2023", "fide-2018", "--json", "--annotations"]).stdout.splitlines()]
    assert {line["path"] for line in lines if not line.get("annotation")} == _keys(
        diff(load_ruleset("fide-2023").data, load_ruleset("fide-2018").data))


def test_readings_the_laws_leave_open_are_listed_on_request_with_the_alternatives() -> None:
    """Issue 23: US Chess 14D4 and FIDE 2023 B.2 under full supervision are table keys;
    ``rules diff --readings`` shows each table's choice and the value one row away."""
    runner = CliRunner()
    plain = runner.invoke(cli, ["rules", "diff", "fide-2023", "uscf-7"])
    assert "readings the Laws leave open are encoded (--readings lists them" in plain.stderr
    text = runner.invoke(cli, ["rules", "diff", "fide-2023", "uscf-7", "--readings"]).stdout
    head, _, readings = text.partition("# readings the Laws leave open")
    assert "termination.dead_position.test  (US Chess 14D4" in readings
    assert '"player_cannot_be_checkmated"' in readings and "[uscf-7:14D4]" in readings
    assert "clocks.penalty.blitz.full_supervision" in readings and '"competition_rules"' in readings
    rows = [json.loads(line) for line in runner.invoke(
        cli, ["rules", "diff", "fide-2023", "uscf-7", "--json", "--readings"]).stdout.splitlines()]
    found = {row["path"]: row for row in rows if row.get("reading")}
    assert found["termination.dead_position.test"]["uscf-7"] == {
        "value": "neither_can_checkmate", "absent": False, "cite": "uscf-7:14D4"}
    assert found["termination.dead_position.test"]["alternatives"] == ["player_cannot_be_checkmated"]
    assert found["clocks.penalty.blitz.full_supervision"]["uscf-7"]["absent"] is True


def test_a_key_beside_its_own_cite_shows_that_cite() -> None:
    differences = {d.key: d for d in diff(load_ruleset("fide-2018").data, load_ruleset("fide-2014").data)}
    found = differences["illegal_moves.clock_press_without_move"]
    assert (found.cite_a, found.cite_b) == ("fide-2018:7.5.3", "fide-2014:6.2")
