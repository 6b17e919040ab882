"""``arbiter adjudicate`` and the record adjudication behind it, on
tests/data/adjudication/games.pgn: seven hand-made games whose verdicts follow from
the articles named in each game's Event tag (one of them is deliberately broken).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from conformance.cli import main
from reference_impl.adjudication.record import adjudicate_text

PGN = Path(__file__).parent / "data" / "adjudication" / "games.pgn"


def verdicts(rules: str) -> dict[int, tuple[str | None, str | None, bool | None]]:
    return {r.game: (r.result, r.reason, r.agrees) for r in adjudicate_text(PGN.read_text(), rules)}


def test_fide_2023_verdicts_per_game() -> None:
    got = verdicts("fide-2023")
    assert got[1] == ("0-1", "checkmate", True)
    assert got[2] == ("1/2-1/2", "timeout_vs_insufficient", False)   # 6.9: "1-0, time forfeit" is wrong
    assert got[3] == ("0-1", "timeout", True)                         # 6.9: K+N can be mated
    assert got[4] == ("1/2-1/2", "fivefold_repetition", False)        # 9.6.1, then moves were played
    assert got[5] == (None, None, None)                               # broken game
    assert got[6] == ("1/2-1/2", "resignation", False)                # 5.1.2 (2023)
    assert got[7] == ("0-1", "checkmate", False)                      # the mate came first


def test_uscf_7_verdicts_differ_where_the_rules_do() -> None:
    got = verdicts("uscf-7")
    assert got[3] == ("1/2-1/2", "timeout_vs_insufficient", False)    # 14E2
    assert got[4] == ("1-0", "resignation", True)                     # 14K is discretionary
    assert got[6] == ("0-1", "resignation", True)                     # 13B: no exception
    assert verdicts("fide-2018")[6] == ("0-1", "resignation", True)


def test_report_names_the_move_where_the_rule_ended_the_game() -> None:
    reports = {r.game: r for r in adjudicate_text(PGN.read_text(), "fide-2023")}
    assert (reports[4].ended_at, reports[4].ply, reports[4].cite) == ("10...", 20, "fide-2023:9.6.1")
    assert "1 move(s) recorded after the game ended by rule at 10..." in (reports[4].flag or "")
    assert reports[5].error == (
        "game 5 (Broken - Game), move 2... Qxf3: illegal move 'Qxf3': no legal move fits in "
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    )


def test_cli_table_and_exit_status() -> None:
    # The command judges with the audit's judge: game 5's illegal move is a finding
    # (7.5.1), game 6's resignation against a lone king a draw (5.1.2, 2023).
    result = CliRunner().invoke(main, ["adjudicate", str(PGN), "--rules", "fide"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.stderr
    assert "fivefold_repetition" in result.stdout and "fide-2023:9.6.1" in result.stdout
    assert ("7 game(s): 7 adjudicated, 5 disagree with the record, 0 skipped (variants the Laws do not cover), "
            "0 could not be read") in result.stdout


def test_cli_unreadable_game_is_one_error_line(tmp_path: Path) -> None:
    pgn = tmp_path / "broken.pgn"
    pgn.write_text('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 Zz9 1-0\n\n'
                   '[White "C"]\n[Black "D"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    result = CliRunner().invoke(main, ["adjudicate", str(pgn)])
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"arbiter: {pgn}: game 1 (A - B): move 1... Zz9")
    assert "2 game(s): 1 adjudicated, 0 disagree with the record" in result.stdout


def test_cli_json_one_object_per_game() -> None:
    result = CliRunner().invoke(main, ["adjudicate", str(PGN), "--rules", "uscf-7", "--json"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["game"] for row in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert rows[2]["cite"] == "uscf-7:14E2" and rows[2]["result"] == "1/2-1/2"
    assert [f["rule"] for f in rows[4]["findings"]] == ["illegal_move"]
    assert rows[5]["agrees"] is True  # 13B: no exception for a resignation


def test_cli_bad_input_is_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["adjudicate", str(PGN), "--rules", "no-such-rules"])
    assert result.exit_code == 1 and result.stderr.startswith("arbiter: unknown ruleset 'no-such-rules'")
    result = runner.invoke(main, ["adjudicate", str(tmp_path / "missing.pgn")])
    assert result.exit_code == 1 and result.stderr.strip().endswith("missing.pgn: no such file")
    assert "Traceback" not in result.stderr


def test_clock_comments_and_time_control_are_read(tmp_path: Path) -> None:
    pgn = tmp_path / "clk.pgn"
    pgn.write_text('[White "A"]\n[Black "B"]\n[Result "0-1"]\n[TimeControl "300"]\n'
                   '[Termination "time forfeit"]\n\n1. e4 {[%clk 0:00:10]} e5 {[%clk 0:04:59]} 0-1\n')
    (report,) = adjudicate_text(pgn.read_text(), "fide-2023")
    assert (report.result, report.reason, report.agrees) == ("0-1", "timeout", True)
    pgn.write_text('[White "A"]\n[Black "B"]\n[Result "1-0"]\n[TimeControl "ninety"]\n\n1. e4 1-0\n')
    (report,) = adjudicate_text(pgn.read_text(), "fide-2023")
    assert report.result is None and "TimeControl tag 'ninety' is malformed" in (report.error or "")
