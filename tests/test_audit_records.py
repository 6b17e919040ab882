"""``arbiter audit`` on what servers and tools write: the termination vocabularies, the
Laws chosen per game, and ``adjudicate`` giving the audit's rulings.

The fixtures under tests/data/audit are small excerpts written by hand in the shape of
each source's exports (tags and Termination phrases as the sources write them). Every
expected ruling follows from the Laws' text: a lone king cannot checkmate (FIDE 6.9: a
flag fall against it is a draw), K+Q or K+R against a lone king can; the editions' dates
of effect are those their registries state (spec/articles/fide-*.yaml: 1 July 2014,
1 January 2018, 1 January 2023); the speed bands are FIDE A.1 / B.1 (blitz: 10 minutes
or less for 60 moves including increments; rapid: more than 10 and less than 60) and
US Chess 5C (blitz: 5 to 10 minutes, delay or increment counted).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.tools.audit.judge import audit_record
from conformance.tools.audit.laws import NO_RULESET, NOT_CHESS, Skip, chooser
from conformance.tools.audit.terminations import read_ending, vocabulary
from conformance.cli import main
from reference_impl.notation.pgn import read_games

DATA = Path(__file__).parent / "data" / "audit"
FILES = sorted(DATA.glob("*.pgn"))


def one(text: str):
    return next(read_games(text))


def tagged(moves: str = "1. e4 e5", result: str = "*", **tags: str):
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return one(f'{head}[Result "{result}"]\n\n{moves} {result}\n\n')


# --- termination vocabularies -------------------------------------------------------

@pytest.mark.parametrize("phrase, event, loser", [
    ("beta won on time", "time_forfeit", 0),          # chess.com: beta (Black) won, White flagged
    ("alpha won on time", "time_forfeit", 1),
    ("alpha won by resignation", "resignation", 1),
    ("beta won by checkmate", "checkmate", 0),
    ("alpha won - game abandoned", "abandonment", 1),
    ("Game drawn by timeout vs insufficient material", "time_forfeit", None),
    ("Game drawn by 50-move rule", "fifty_moves", None),
    ("Game drawn by agreement", "agreement", None),
    ("Time forfeit", "time_forfeit", None),             # Lichess / PGN 9.8.1
    ("Rules infraction", "rules_infraction", None),
    ("stalled connection", "disconnection", None),      # cutechess
    ("illegal move", "illegal_move", None),             # cutechess, fastchess
])
def test_termination_phrase_is_read_as_what_happened(phrase: str, event: str, loser: int | None) -> None:
    ending = read_ending(tagged(White="alpha", Black="beta", Termination=phrase))
    assert (ending.event, ending.loser, ending.known) == (event, loser, True)


def test_fics_end_comment_is_read_when_no_termination_tag() -> None:
    ending = read_ending(one('[White "x"]\n[Black "y"]\n\n1. e4 e5 {Black forfeits on time} 1-0\n'))
    assert (ending.event, ending.judge, ending.loser, ending.source) == ("time_forfeit", "flag_fall", 1, "fics")


def test_server_end_message_in_a_termination_tag_is_read() -> None:
    ending = read_ending(tagged(White="x", Black="y", Termination="x forfeits on time"))
    assert (ending.event, ending.loser) == ("time_forfeit", 0)


def test_unknown_termination_is_a_warning_and_the_result_is_not_compared() -> None:
    ending = read_ending(tagged(Termination="Game drawn by mutual boredom"))
    assert (ending.known, ending.judge) == (False, "none")


def test_every_source_documents_its_vocabulary() -> None:
    import yaml

    data = yaml.safe_load((Path(__file__).parents[1] / "conformance" / "tools" / "audit" / "data" / "terminations.yaml")
                          .read_text(encoding="utf-8"))
    assert {"pgn", "lichess", "chesscom", "fics", "icc", "chessbase", "cutechess", "fastchess"} <= set(data["sources"])
    assert all(entry["documented"] and entry["seen"] for entry in data["sources"].values())
    assert vocabulary().judges["time_forfeit"] == "flag_fall"


# --- the Laws chosen per game -------------------------------------------------------

@pytest.mark.parametrize("date, expected", [
    ("2014.06.30", "fide-2014"),   # before the earliest shipped edition: judged under it, said so
    ("2014.07.01", "fide-2014"),
    ("2017.12.31", "fide-2014"),
    ("2018.01.01", "fide-2018"),
    ("2022.12.31", "fide-2018"),
    ("2023.01.01", "fide-2023"),
    ("2023.??.??", "fide-2023"),
])
def test_edition_by_date_of_effect(date: str, expected: str) -> None:
    choice = chooser("fide").choose(tagged(Date=date, TimeControl="5400+30"))
    assert choice.id == expected
    if date == "2014.06.30":
        assert "before the earliest shipped fide edition" in choice.reason


@pytest.mark.parametrize("control, expected", [
    ("600", "fide-2023-blitz"),       # 10 minutes: blitz (B.1 "10 minutes or less")
    ("601", "fide-2023-rapid"),       # just over 10 minutes: rapid (A.1)
    ("300+5", "fide-2023-blitz"),     # 5 + 60 x 5 s = 10 minutes
    ("300+6", "fide-2023-rapid"),     # 11 minutes
    ("3539+1", "fide-2023-rapid"),    # 59.98 minutes: less than 60
    ("3540+1", "fide-2023"),          # 60 minutes: standard
    ("10+0.05", "fide-2023-blitz"),   # cutechess's fractional increment: 13 s
    ("?", "fide-2023"),
    ("inf", "fide-2023"),             # not understood: standard, said so
])
def test_regime_by_the_speed_bands_edges(control: str, expected: str) -> None:
    choice = chooser("fide").choose(tagged(Date="2024.01.01", TimeControl=control))
    assert choice.id == expected, choice.reason


def test_edition_without_a_rapid_ruleset_says_so() -> None:
    choice = chooser("fide").choose(tagged(Date="2019.05.05", TimeControl="900+10"))
    assert choice.id == "fide-2018" and "25 min, rapid" in choice.reason
    assert "no rapid ruleset of edition 2018 shipped" in choice.reason


def test_uscf_edition_either_side_of_its_date() -> None:
    before = chooser("uscf").choose(tagged(Date="2018.12.31", TimeControl="5400"))
    after = chooser("uscf").choose(tagged(Date="2019.01.01", TimeControl="5400"))
    assert before.id == after.id == "uscf-7"
    assert "before the earliest shipped uscf edition" in before.reason and "before" not in after.reason


@pytest.mark.parametrize("control, expected", [("600", "uscf-7-blitz"), ("601", "uscf-7"), ("300d5", "uscf-7-blitz")])
def test_uscf_family_by_5c(control: str, expected: str) -> None:
    assert chooser("uscf").choose(tagged(Date="2020.01.01", TimeControl=control)).id == expected


def test_chess960_by_variant_and_by_fen() -> None:
    by_tag = chooser("fide").choose(tagged(Date="2024.01.01", Variant="Chess960"))
    fen = "nrbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBNR w HBhb - 0 1"
    by_fen = chooser("fide").choose(tagged(Date="2024.01.01", SetUp="1", FEN=fen))
    assert by_tag.id == by_fen.id == "fide-2023-chess960"
    assert "Shredder-FEN" in by_fen.reason
    # X-FEN as chess.com writes it: KQkq with the king on d1 is only Chess960
    xfen = chooser("fide").choose(tagged(Date="2024.01.01", SetUp="1",
                                         FEN="rbbknnqr/pppppppp/8/8/8/8/PPPPPPPP/RBBKNNQR w KQkq - 0 1"))
    assert xfen.id == "fide-2023-chess960" and "king off the e-file" in xfen.reason
    # an orthodox position with the same rights stays orthodox
    plain = chooser("fide").choose(tagged(Date="2024.01.01", SetUp="1",
                                          FEN="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"))
    assert plain.id == "fide-2023"


@pytest.mark.parametrize("variant", ["Antichess", "Crazyhouse", "Horde", "Atomic", "King of the Hill",
                                     "Three-check", "Racing Kings", "3-check", "Giveaway", "Bughouse"])
def test_variants_the_laws_do_not_cover_are_skipped(variant: str) -> None:
    for rules in ("fide", "fide-2023"):
        skip = chooser(rules).choose(tagged(Variant=variant))
        assert isinstance(skip, Skip) and skip.kind == NOT_CHESS


def test_exact_id_keeps_one_ruleset() -> None:
    for date, control in (("2015.01.01", "600"), ("2024.01.01", "5400")):
        choice = chooser("fide-2023").choose(tagged(Date=date, TimeControl=control))
        assert choice.id == "fide-2023" and "given by --rules" in choice.reason


# --- the audit on the source excerpts --------------------------------------------------

def audit(tmp_path: Path, path: Path, rules: str = "fide") -> list[dict]:
    out = tmp_path / f"{path.name}.jsonl"
    result = CliRunner().invoke(main, ["audit", str(path), "--rules", rules, "--out", str(out)])
    assert "Traceback" not in result.output, result.output
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_chesscom_won_on_time_is_a_flag_fall_of_the_other_player(tmp_path: Path) -> None:
    records = audit(tmp_path, DATA / "chesscom.pgn")
    findings = [r for r in records if r["type"] == "finding"]
    # game 1: White flagged against Black's lone king (6.9 draw); game 2: Black flagged,
    # White's queen can mate (the loss stands); the rest agree or are not compared.
    assert [(f["game"], f["rule"], f["correct"]) for f in findings] == [(1, "flag_fall", "1/2-1/2")]
    assert findings[0]["ruleset"] == "fide-2023-blitz" and "TimeControl '180'" in findings[0]["ruleset_reason"]
    assert findings[0]["fen"] == "8/8/8/3k4/8/8/7Q/4K3 w - - 2 51"
    summary = records[-1]
    assert summary["errors"] == 0 and summary["warnings"] == {"unknown Termination": 1}


def test_lichess_variants_skipped_and_counted(tmp_path: Path) -> None:
    records = audit(tmp_path, DATA / "lichess.pgn")
    skipped = [(r["game"], r["kind"]) for r in records if r["type"] == "skipped"]
    assert skipped == [(1, NOT_CHESS), (2, NOT_CHESS), (3, NOT_CHESS)]
    findings = [(r["game"], r["rule"], r["ruleset"]) for r in records if r["type"] == "finding"]
    # game 5 (2022, Black flagged with White's rook on the board): loss stands; game 6
    # (2023, White flagged against a lone king): a draw
    assert findings == [(6, "flag_fall", "fide-2023-blitz")]
    summary = records[-1]
    assert summary["skipped"] == {NOT_CHESS: 3} and summary["errors"] == 0
    assert summary["rulesets"] == {"fide-2018": 1, "fide-2023-blitz": 1, "fide-2023-chess960": 1}


def test_summary_lists_every_skipped_game_by_reason() -> None:
    result = CliRunner().invoke(main, ["audit", str(DATA / "lichess.pgn"), "--rules", "fide"])
    assert f"skipped: {NOT_CHESS}: 3 game(s)" in result.stdout
    assert f"lichess.pgn: game 2: Variant 'Antichess'" in result.stdout


# --- one judge: adjudicate gives the audit's rulings -----------------------------------

def adjudicated(path: Path, rules: str = "fide") -> list[dict]:
    result = CliRunner().invoke(main, ["adjudicate", str(path), "--rules", rules, "--json"])
    assert "Traceback" not in result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_adjudicate_and_audit_give_the_same_rulings(tmp_path: Path, path: Path) -> None:
    packed = tmp_path / (path.name + ".gz")
    packed.write_bytes(gzip.compress(path.read_bytes()))
    from_audit = {(r["game"], r["rule"], r["correct"], r["ruleset"]) for r in audit(tmp_path, path)
                  if r["type"] == "finding"}
    for source in (path, packed):
        rows = adjudicated(source)
        from_adjudicate = {(f["game"], f["rule"], f["correct"], f["ruleset"]) for r in rows for f in r["findings"]}
        assert from_adjudicate == from_audit
        assert [r["game"] for r in rows] == list(range(1, len(rows) + 1))


def test_mid_game_zero_clock_of_a_daily_game_is_no_flag_fall() -> None:
    rows = adjudicated(DATA / "chesscom.pgn")
    daily = rows[6]
    assert daily["white"] == "alpha" and "1... e5 {[%clk 0:00:00]}" in (DATA / "chesscom.pgn").read_text()
    assert (daily["result"], daily["reason"], daily["agrees"], daily["findings"]) == ("1-0", "resignation", True, [])
    assert daily["ruleset"] == "fide-2023"  # 1/86400: a day per move, standard


def test_audit_record_judges_the_resignation_against_a_lone_king() -> None:
    pgn = tagged("60. Qd4", "0-1", White="Resigns", Black="LoneKing", SetUp="1",
                 FEN="8/8/4k3/8/8/3QK3/8/8 w - - 0 60", Date="2024.01.01")
    found = audit_record(pgn, chooser("fide"))
    assert [(f.rule, f.cite, f.correct) for f in found.findings] == [("resignation", "fide-2023:5.1.2", "1/2-1/2")]
    # FIDE 2018 has no such exception: the loss stands
    older = audit_record(tagged("60. Qd4", "0-1", SetUp="1", FEN="8/8/4k3/8/8/3QK3/8/8 w - - 0 60",
                                Date="2019.01.01"), chooser("fide"))
    assert older.findings == [] and older.ruleset == "fide-2018"


def test_a_family_without_the_variant_skips_its_games() -> None:
    """US Chess ships no Chess960 ruleset (data/laws.yaml, spec/rulesets): a Chess960 game
    under ``--rules uscf`` is skipped with that reason, not judged as orthodox chess and
    not an error that stops the run; under ``fide`` the same game is judged."""
    game = tagged("1. e4 e5", "*", Variant="Chess960", Date="2024.02.02")
    found = audit_record(game, chooser("uscf"))
    assert found.skipped is not None and found.kind == NO_RULESET and "chess960" in found.skipped
    assert found.findings == [] and found.error is None
    judged = audit_record(game, chooser("fide"))
    assert judged.skipped is None and "960" in judged.ruleset


# --- the reader's repairs and --strict-pgn ------------------------------------------------

def test_strict_pgn_reaches_the_reader_and_repairs_are_counted(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    """A reader that takes ``strict`` and reports ``repairs`` (as the lenient reader
    does) gets ``strict=True`` from --strict-pgn, and its repairs are counted per kind."""
    from conformance.tools.audit import execute, fast

    asked: list[bool] = []
    real = execute.iter_games

    def reader(lines, strict: bool = False):  # type: ignore[no-untyped-def]
        asked.append(strict)
        for pgn in real(lines):
            pgn.repairs = ("a result stuck to the last move",) if pgn.tags.get("Event") == "Live Chess" else ()
            yield pgn

    monkeypatch.setattr(execute, "iter_games", reader)
    # The compiled scan reads only the standard's own forms (a game it reads has nothing
    # to repair): the reader here claims repairs in ordinary games, so it reads them all.
    monkeypatch.setattr(fast, "_setup", lambda choose: None)
    for flags, wanted in (([], False), (["--strict-pgn"], True)):
        out = tmp_path / f"{wanted}.jsonl"
        result = CliRunner().invoke(main, ["audit", str(DATA / "chesscom.pgn"), "--rules", "fide", "--out", str(out),
                                           *flags])
        assert asked[-1] is wanted, result.output
        summary = json.loads(out.read_text().splitlines()[-1])
        assert summary["repairs"] == {"a result stuck to the last move": 8}  # 8 of the 9 games are Live Chess
        assert "repaired: a result stuck to the last move: 8 game(s)" in result.stdout


def test_adjudicate_keeps_the_games_before_a_damaged_gzip(tmp_path: Path) -> None:
    whole = gzip.compress((DATA / "chesscom.pgn").read_bytes())
    cut = tmp_path / "cut.pgn.gz"
    cut.write_bytes(whole[: len(whole) * 2 // 3])
    result = CliRunner().invoke(main, ["adjudicate", str(cut), "--json"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 1 and "damaged after" in result.stderr and "Traceback" not in result.output
    assert 1 <= len(rows) < 9 and rows[0]["findings"][0]["rule"] == "flag_fall"


def test_summary_counts_unreadable_games_by_reason_with_a_line_each(tmp_path: Path) -> None:
    pgn = tmp_path / "bad.pgn"
    pgn.write_text('[White "A"]\n[Result "1-0"]\n\n1. e4 Zz9 1-0\n\n[White "C"]\n[Result "1-0"]\n\n1. e4 e5 2. Xy1 1-0\n\n'
                   '[White "E"]\n[Result "*"]\n\n1. e4 {never *\n')
    result = CliRunner().invoke(main, ["audit", str(pgn), "--rules", "fide"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "unreadable: move <n>. <move>: invalid move '<token>': not a move in algebraic notation: 2 game(s)" in lines
    assert f"  {pgn}: game 2: move 2. Xy1: invalid move 'Xy1': not a move in algebraic notation" in lines
    assert any(line.startswith("unreadable: ") and "never closed: 1 game(s)" in line for line in lines)
