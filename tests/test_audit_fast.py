"""The compiled audit path (conformance.tools.audit.fast) against the Python one.

The expectation is the Python path itself -- ``audit_record`` over ``iter_games`` of the
same bytes, the path ``arbiter audit`` took before -- under a family (the Laws chosen per
game by its tags) and single rulesets, on every game of every PGN file
the project ships (tests/data and benchmarks/data: real Lichess and chess.com exports
with clocks, seeded random games with variations) and on small games made here for the
constructs the scan reads or leaves to the Python reader. The final positions the scan
reaches are checked independently against python-chess's replay of the same files.
"""

from __future__ import annotations

import io
from array import array
from functools import partial
from pathlib import Path

import chess.pgn
import pytest

from conformance.tools.audit import fast
from conformance.tools.audit.execute import audit_partition
from conformance.tools.audit.judge import audit_record
from conformance.tools.audit.laws import Exact, cached_chooser
from conformance.tools.audit.sources import partitions
from reference_impl.notation.pgn import decode_lines, iter_games

ROOT = Path(__file__).resolve().parent.parent
PGN_FILES = sorted((ROOT / "tests" / "data").rglob("*.pgn")) + sorted((ROOT / "benchmarks" / "data").glob("*.pgn"))
#: ``--rules`` values: a family (edition by Date, regime by TimeControl), one edition, a family of one.
RULES = ["fide", "fide-2023", "uscf"]


@pytest.fixture(scope="module", params=RULES)
def rules(request: pytest.FixtureRequest) -> object:
    choose = cached_chooser(request.param)
    NAMES[id(choose)] = request.param
    return choose


#: The ``--rules`` value of each chooser the fixture made.
NAMES: dict[int, str] = {}


def python_path(data: bytes, rules: object, strict: bool = False) -> list:
    return [audit_record(pgn, rules)  # type: ignore[arg-type]
            for pgn in iter_games(decode_lines(fast._lines(data)), strict=strict)]


def fast_path(data: bytes, rules: object, strict: bool = False) -> list:
    """The compiled path's audits; the tags it hands with each game, and the repairs it
    counts, are the reader's."""
    read = partial(iter_games, strict=True) if strict else iter_games
    pairs = list(fast.audit_text(data, rules, read=read, strict=strict))  # type: ignore[arg-type]
    games = list(read(decode_lines(fast._lines(data))))
    assert [(pgn.tags, pgn.repairs) for pgn, _ in pairs] == [(pgn.tags, pgn.repairs) for pgn in games]
    return [audit for _, audit in pairs]


def scanned(data: bytes, rules: object) -> list | None:
    setup = fast._setup(rules)
    assert setup is not None
    return fast.native.scan_pgn(setup.start, setup.syntax, data)


def test_pgn_files_are_there() -> None:
    names = {p.name for p in PGN_FILES}
    assert {"games.pgn", "mixed.pgn", "lichess-2021-10-clk.pgn", "chesscom-clk.pgn", "random-300.pgn"} <= names


@pytest.mark.parametrize("path", PGN_FILES, ids=lambda p: p.name)
def test_same_audits_as_the_python_path(path: Path, rules: object) -> None:
    data = path.read_bytes()
    expected = python_path(data, rules)
    assert fast_path(data, rules) == expected
    assert len(expected) == data.count(b"[Event ") or path.name == "mixed.pgn"


@pytest.mark.parametrize("name", ["lichess-2021-10-clk.pgn", "random-300.pgn"])
def test_most_real_games_take_the_compiled_path(name: str, rules: object) -> None:
    games = scanned((ROOT / "benchmarks" / "data" / name).read_bytes(), rules)
    assert games is not None
    compiled = sum(1 for g in games if g[0])
    assert compiled >= 0.95 * len(games) and len(games) >= 300


@pytest.mark.parametrize("name", ["lichess-2021-10-clk.pgn", "random-300.pgn", "chesscom-clk.pgn"])
def test_final_positions_match_python_chess(name: str) -> None:
    """Every game the scan replays ends where python-chess's replay of it ends (FEN with
    the legal e.p. square and both move counters), and the moves it passes back are
    legal one after the other on the reference Board and lead there too."""
    rules = cached_chooser("fide-2023")
    data = (ROOT / "benchmarks" / "data" / name).read_bytes()
    setup = fast._setup(rules)
    games = scanned(data, rules)
    assert games is not None
    checked = 0
    for item in games:
        if not item[0]:
            continue
        game = chess.pgn.read_game(io.StringIO(data[item[1]:item[2]].decode("utf-8")))
        assert game is not None
        board = fast._Scanned.at(setup.start, *item[7:17])
        final = game.end().board()
        assert board.fen() == final.fen(), item[4].get("Site")
        replay = setup.start.copy(stack=False)
        assert all(replay.try_push_code(code) for code in array("i", item[17]))  # each legal
        assert replay.fen() == final.fen()
        assert item[6] == final.ply()
        assert board.is_checkmate() == final.is_checkmate() and board.is_stalemate() == final.is_stalemate()
        assert board.legal_move_count() == final.legal_moves.count()
        checked += 1
    assert checked >= 200


def tagged(moves: str, result: str = "*", **tags: str) -> str:
    head = {"Event": "t", "White": "W", "Black": "B", "Result": result, **tags}
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + f"\n{moves} {result}\n\n"


#: (game text, whether the scan replays it itself, per ruleset where they differ); the
#: Python path decides the others.
GAMES = [
    (tagged("1. e4 Nf6 2. e5 d5 3. exd6 exd6"), True),  # en passant
    (tagged("1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8=Q Nf6"), True),  # promotion
    (tagged("1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8=Q+"), True),  # a wrong mark: unchecked
    (tagged("1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8Q"), False),  # lenient promotion
    (tagged("1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8"), False),  # no promotion piece
    (tagged("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O"), True),  # castling
    (tagged("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6"), False),  # castling with zeros
    (tagged("1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O"), True),
    (tagged("1. e4!? e5?! (1... c5 $1 2. Nf3 (2. c3) d6) 2. Nf3 $14 {a comment} ; to the end\n"
            "Nc6!! 3. Bb5 a6??"), True),
    (tagged("1.e4 e5 2 . Nf3\tNc6 3...Bb5"), True),  # spacing of move numbers
    (tagged("1. e4 e5 2. Nf3 Nc6*"), False),  # a result stuck to the move
    (tagged("1. e4 e5 2. Ngf3"), False),  # over-disambiguated
    (tagged("1. Nc3 d5 2. Nf3 e5 3. Nd4 a6 4. Ncb5 axb5"), True),  # disambiguation by file
    (tagged("1. a4 d6 2. d3 b5 3. b3 e5 4. e3 c5 5. Nf3 d5 6. b4 Qh4 7. bxc5 Be7 8. g4 Bxg4 9. Nd4 Bd7 10. h3 Bf5 "
            "11. Ra3 bxa4 12. Nb5 g6 13. Rb3 Nh6 14. Be2 Qg4 15. Kf1 Bd6 16. hxg4 Kd7 17. N5c3"), True),  # by rank
    (tagged("1. Nf3 e5 2. Nd4 a6 3. Nc3 b6 4. Ndb5 h6 5. Ncd5 g6 6. N5c3"), False),  # rank where the file tells
    (tagged("1. e4 e5 2. Ke3", "1-0"), False),  # illegal
    (tagged("1. e4 -- 2. d4"), False),  # a null move
    (tagged("1. e4 ! e5"), False),  # a glyph
    (tagged("$1 1. e4"), False),  # a NAG before any move
    (tagged("1. e4 ( e5 ) e5 (  $2 c5)"), False),  # a NAG opening a variation
    (tagged("1. e4 e5", White='A \\"B\\"'), False),  # an escape in a tag value
    ('[Event "t"]\n[Event "u"]\n[Result "*"]\n\n1. e4 *\n\n', False),  # a tag twice
    (tagged("1. f3 e5 2. g4 Qh4#", "1-0", White="Müller", Black="Brontë"), True),  # mate, wrong result
    (tagged("1. f3 e5 2. g4 Qh4# 3. Kf2", "0-1"), False),  # a move after the mate
    (tagged("1. e4 {comment\n\n[Event \"x\"]} e5"), False),  # a comment running into tags
    (tagged("1. e4 e5", "1-0", Termination="Time forfeit"), True),
    (tagged("1. e4 e5", "1-0", Termination="won on time"), True),  # a Termination the reader reports: its error
    (tagged("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4", "1-0"),
     {"fide": False, "fide-2023": False, "uscf": True}),  # fivefold, then a move (US Chess: no automatic end)
    (tagged("1. e4 e5", SetUp="1", FEN="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), False),
    (tagged("1. e4 e5", Variant="Standard"), True),  # as every Lichess API export writes it
    (tagged("1. e4 e5", Variant="Chess960"), {"fide": False, "fide-2023": True, "uscf": True}),  # uscf: skipped
    (tagged("1. e4 e5", Variant="Antichess"), {"fide": True, "fide-2023": True, "uscf": True}),  # skipped
    (tagged("1. e4 e5 1:0", "1-0"), False),  # a printed result
    (tagged("1. e4 e5 ½-½", "1/2-1/2"), False),
    (tagged("1. e4 e5 (1... c5 (1... e6 2. d4) 2. Nf3) 2. Nf3"), True),  # nested variations
    (tagged("1. e4 e5 {ein Kommentar: Läufer} 2. Nf3"), True),  # non-ASCII inside a comment
    ("1. e4 e5 2. Nf3 *\n\n", True),  # no tags
    (tagged("1. e4 e5\n%an escape line\n2. Nf3"), False),
    (tagged("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 Bg4 7. dxe5 Qxd1 8. Rxd1 fxe5 9. Rd3 Bd6 "
            "10. Nbd2 Nf6 11. Nc4 Nd7 12. Nxd6+ cxd6 13. Rxd6 Bxf3 14. gxf3 Ke7 15. Rd1 Rhd8", "1/2-1/2"), True),
    # TimeControls as engine-match tools write them: repaired tags, read by the scan itself
    (tagged("1. e4 {+0.30/10 0.50s} e5 {-0.25/9 0.48s}", "1-0", TimeControl="10+0.1", Termination="time forfeit"),
     True),
    (tagged("1. d4 {book} d5 {book}", "1/2-1/2", TimeControl="1/move", Termination="adjudication"), True),
    (tagged("1. c4 c5", "*", TimeControl="inf"), True),
    (tagged("1. c4 c5", "*", TimeControl="40/60:10+0.5"), True),
    # what the reader repairs or ends on inside a variation, which the scan reads unreplayed
    (tagged("1. e4 e5 (1... Nc6*) 2. Nf3"), False),
    (tagged("1. e4 e5 (1... Nc6 e.p.) 2. Nf3"), False),
    (tagged("1. e4 e5 (1... Z0 2. d4) 2. Nf3"), False),
    (tagged("1. e4 e5 (1... Nc6 1-0) 2. Nf3"), False),
    (tagged("1. e4 e5 (1... Nc6 2. Bc4 O-O-O Bxf7+ e8=Q) 2. Nf3"), True),
    # the ending stated in the last comment (FICS, cutechess), read without a Termination tag
    (tagged("1. f3 e5 2. g4 {0.1s} Qh4# {0.0s, Black mates}", "0-1"), True),
    (tagged("1. e4 e5 2. Nf3 {Black forfeits on time} $4", "1-0"), True),
    (tagged("1. e4 e5 2. Nf3 {White forfeits on time} (2. d4 {a line}) {Black forfeits on time}", "1-0"), True),
    (tagged("1. e4 {Black forfeits on time} e5 2. Nf3", "1-0"), True),
    (tagged("{White forfeits on time}", "0-1"), True),
    (tagged("1. e4 e5 2. Nf3 ; Black forfeits on time\n", "1-0"), False),
    (tagged("1. e4 e5 2. Nf3 {Black forfeits on time – flag}", "1-0"), False),
    (tagged("1. e4 e5 2. Nf3 {Black forfeits\r\non time}", "1-0"), False),
]


@pytest.mark.parametrize("text,compiled", GAMES, ids=range(len(GAMES)))
def test_each_construct(text: str, compiled: bool | dict[str, bool], rules: object) -> None:
    data = text.encode("utf-8")
    expected = python_path(data, rules)
    assert fast_path(data, rules) == expected
    games = scanned(data, rules)
    assert games is not None and len(games) >= 1
    if isinstance(compiled, dict):
        compiled = compiled[NAMES[id(rules)]]
    took = games[0][0] == 1 and fast._judge_scanned(games[0], 1, fast._setup(rules), rules, data) is not None
    assert took == compiled, games[0][4:7] if not games[0][0] else "compiled"


def test_strict_reading_refuses_what_either_path_would_repair(rules: object) -> None:
    """``--strict-pgn``: a repaired tag the scan could read is the game's error, as the
    strict reader says; every other game as the Python path reads it strictly."""
    data = "".join(text for text, _ in GAMES).encode("utf-8")
    expected = python_path(data, rules, strict=True)
    assert fast_path(data, rules, strict=True) == expected
    refused = [a.error for a in expected if a.error and "not repaired under strict reading" in a.error]
    assert sum("time_control_dialect" in e for e in refused) == 4


def test_all_constructs_in_one_file_numbered_as_the_python_path(rules: object) -> None:
    data = "".join(text for text, _ in GAMES).encode("utf-8") + b"[Event \"tags only\"]\n"
    expected = python_path(data, rules)
    found = fast_path(data, rules)
    assert found == expected and [a.game for a in found] == list(range(1, len(expected) + 1))
    assert any(a.findings for a in found) and any(a.error for a in found)


@pytest.mark.parametrize("variant", ["crlf", "latin-1", "bom", "lone-cr", "bom-inside", "nbsp-line"])
def test_bytes_the_reader_decodes(variant: str, rules: object) -> None:
    """Line ends and encodings: the same audits whichever path reads them."""
    text = "".join(text for text, _ in GAMES[:10] + GAMES[20:23])
    data = text.encode("utf-8")
    if variant == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif variant == "latin-1":
        data = tagged("1. f3 e5 2. g4 Qh4#", "1-0", White="Jos\xe9").encode("latin-1") + data
    elif variant == "bom":
        data = b"\xef\xbb\xbf" + data
    elif variant == "lone-cr":
        data = data.replace(b"\n\n[", b"\n\r[", 1)
    elif variant == "bom-inside":
        data = data.replace(b"\n\n[", b"\n\n\xef\xbb\xbf[", 2)
    else:
        data = data.replace(b"\n\n[", b"\n\xc2\xa0\n[", 2)
    assert fast_path(data, rules) == python_path(data, rules)
    if variant in ("lone-cr", "bom-inside"):
        assert scanned(data, rules) is None  # the whole partition: the Python reader


def test_audit_partition_cuts_and_all(tmp_path: Path) -> None:
    """``audit_partition`` over small partitions of a real file keeps what the Python path
    finds, game for game."""
    rules = cached_chooser("fide-2023")
    path = tmp_path / "games.pgn"
    path.write_bytes((ROOT / "benchmarks" / "data" / "lichess-2021-10-clk.pgn").read_bytes()
                     + "".join(text for text, _ in GAMES).encode("utf-8"))
    kept, games = [], 0
    for part in partitions([path], 64 << 10):
        result = audit_partition(part, "fide-2023")
        games += result.games
        kept += [(result.number, a) for a in result.audits]
    expected = []
    for part in partitions([path], 64 << 10):
        data = path.read_bytes()[part.start:part.end]
        expected += [(part.number, a) for a in python_path(data, rules) if a.kept]
    assert kept == expected and games == len(python_path(path.read_bytes(), rules)) > 600 + len(GAMES) // 2


#: Characters the fuzz test writes into real games: every one the reader or the scan
#: treats specially, a few ordinary ones, and bytes that decode differently.
FUZZ_BYTES = [c.encode() for c in '{}()[];$%"!?+#=x0O-*./ 1\n\t\\abhKNQR'] + [
    b"\r", b"\r\n", b"\xa0", b"\xc3\xa9", b"\xef\xbb\xbf"]


def test_fuzzed_real_games(rules: object) -> None:
    """Real games with bytes inserted, deleted or replaced at random (seeded): whatever the
    damage, the same audits as the Python path, in chunks of several games."""
    import random

    rng = random.Random(22)
    text = (ROOT / "benchmarks" / "data" / "lichess-2021-10-clk.pgn").read_bytes()
    games = text.split(b"\n\n[")
    games = [games[0]] + [b"[" + g for g in games[1:]]
    compiled = 0
    for trial in range(60):
        chunk = bytearray(b"\n\n".join(rng.sample(games, 3)))
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(chunk))
            edit = rng.random()
            if edit < 0.4:
                chunk[at:at] = rng.choice(FUZZ_BYTES)
            elif edit < 0.7:
                del chunk[at:at + rng.randint(1, 3)]
            else:
                chunk[at:at + 1] = rng.choice(FUZZ_BYTES)
        data = bytes(chunk)
        assert fast_path(data, rules) == python_path(data, rules), (trial, data[:200])
        found = scanned(data, rules)
        compiled += 0 if found is None else sum(1 for g in found if g[0])
    assert compiled >= 60  # most damage leaves the other games of a chunk to the scan


@pytest.mark.parametrize("path", PGN_FILES, ids=lambda p: p.name)
def test_flag_falls_ruled_by_the_batch_as_by_analyse(path: Path, rules: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """The flag-fall question asked of the unwinnability batch (screening, compiled probe,
    then ``analyse`` where open) gives every game the audit -- ruling, finding, proof --
    that ``analyse`` alone gives (each run from an empty answer cache)."""
    from conformance.tools.audit import judge
    from reference_impl import unwinnability

    data = path.read_bytes()
    unwinnability.clear_cache()
    batched = fast_path(data, rules)
    monkeypatch.setattr(judge, "BATCHED_FLAG_FALLS", False)
    unwinnability.clear_cache()
    alone = fast_path(data, rules)
    unwinnability.clear_cache()
    assert batched == alone
    if path.name in ("lichess-2021-10-clk.pgn", "chesscom-clk.pgn"):
        assert sum(a.flag_fall for a in alone) >= 10  # time forfeits the batch ruled


def test_adjudicate_by_partitions_as_game_by_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``arbiter adjudicate`` reads a file by partitions through the compiled path: with
    partitions of 16 KiB its JSON lines (game numbers across the file, findings' numbers
    too) are those of the Python reader and judge game by game."""
    import json

    from click.testing import CliRunner

    from conformance.cli import main
    from conformance.cli.commands import adjudicate

    path = tmp_path / "games.pgn"
    path.write_bytes((ROOT / "benchmarks" / "data" / "chesscom-clk.pgn").read_bytes()
                     + "".join(text for text, _ in GAMES).encode("utf-8"))
    monkeypatch.setattr(adjudicate, "PARTITION_BYTES", 16 << 10)
    result = CliRunner().invoke(main, ["adjudicate", str(path), "--rules", "fide", "--json"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    choose = cached_chooser("fide")
    expected = [adjudicate.report(pgn, audit_record(pgn, choose)) for pgn in iter_games(decode_lines(fast._lines(path.read_bytes())))]
    assert rows == json.loads(json.dumps(expected)) and len(rows) > 200
    assert [r["game"] for r in rows] == list(range(1, len(rows) + 1))
    assert any(r["findings"] for r in rows[100:])  # numbered across partitions


def test_a_reader_that_repairs_gets_the_games_it_may_repair(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the reader repairs departures and counts them (``PgnGame.repairs``), a game in
    which one may stand is left to it: a NAG before a variation's first move, a null move
    in a variation; a plain game, variations included, stays with the scan, and so does
    a game whose only departure is a tag ``tag_repairs`` names: the scan repairs it and
    counts it, unless the reading is strict."""
    monkeypatch.setattr(fast, "LENIENT", True)
    monkeypatch.setattr(fast.pgn_module, "tag_repairs",
                        lambda tags: [("tc", "why", "TimeControl", "-")] if tags.get("TimeControl") == "10+0.05" else [],
                        raising=False)
    choose = cached_chooser("fide-2023")
    fast._setup_cache.clear()
    setup = fast._setup(choose)
    assert setup is not None

    def judged(text: str, strict: bool = False) -> tuple | None:
        data = text.encode()
        games = fast.native.scan_pgn(setup.start, setup.syntax, data)
        assert games is not None
        return fast._judge_scanned(games[0], 1, setup, choose, data, strict) if games[0][0] == 1 else None

    def taken(text: str, strict: bool = False) -> bool:
        return judged(text, strict) is not None

    assert taken(tagged("1. e4 e5 2. Nf3", "*", Termination="Normal"))
    assert taken(tagged("1. e4 e5 (1... c5 2. Nf3) 2. Nf3", "*", Termination="Normal"))
    assert not taken(tagged("1. e4 e5 ($1 1... c5 2. Nf3) 2. Nf3", "*", Termination="Normal"))
    assert not taken(tagged("1. e4 e5 (1... -- 2. Nf3) 2. Nf3", "*", Termination="Normal"))
    repaired = tagged("1. e4 e5 2. Nf3", "*", Termination="Normal", TimeControl="10+0.05")
    found = judged(repaired)
    assert found is not None and found[0].repairs == ("tc",) and found[0].tags["TimeControl"] == "-"
    assert not taken(repaired, strict=True)
    fast._setup_cache.clear()


def test_the_dead_check_screened_together_answers_as_the_check_itself() -> None:
    """Where the compiled screening settles the dead-position check for a whole chunk at
    once, its answer is the check's own (:func:`verdicts.is_dead_cheap`), on the final
    positions of every shipped file's games (among them at least 20 with eight units or
    fewer, where dead positions are)."""
    from conformance.tools.audit.judge import dead_by_screen, _ends_of
    from reference_impl.adjudication import verdicts

    rules = cached_chooser("fide-2023")
    setup = fast._setup(rules)
    assert setup is not None and isinstance(rules, Exact)
    boards = []
    for path in PGN_FILES:
        for item in scanned(path.read_bytes(), rules) or []:
            if item[0]:
                boards.append(fast._Scanned.at(setup.start, *item[7:17]))
    ends = _ends_of(rules.rules)
    sparse = [b for b in boards if bin(b.occupied).count("1") <= 8]
    answers = dead_by_screen(boards)
    settled = [(b, a) for b, a in zip(boards, answers) if a is not None]
    assert len(settled) >= 0.8 * len(boards) > 500 and len(sparse) >= 20
    assert all(verdicts.is_dead_cheap(b, ends.limits.dead_position.move_node_limit) == a for b, a in settled)
    assert any(a for _, a in settled) and any(not a for _, a in settled)
    # Under US Chess 14D4 read literally (one-sided), the same screening answers as the
    # check under that reading: a colour proven unable is enough.
    one_sided = ["player_cannot_be_checkmated"] * len(boards)
    literal = [(b, a) for b, a in zip(boards, dead_by_screen(boards, one_sided)) if a is not None]
    limit = ends.limits.dead_position.move_node_limit
    assert len(literal) >= 0.8 * len(boards)
    assert all(verdicts.is_dead_cheap(b, limit, "player_cannot_be_checkmated") == a for b, a in literal)
    assert sum(a for _, a in literal) > sum(a for _, a in settled)


def test_the_rulesets_of_a_family_are_checked_when_a_game_first_chooses_them() -> None:
    """The scan's setup reads one ruleset; another the family may pick is checked when a
    game first picks it: the same moves and thresholds serve it, and a ruleset whose
    75-move threshold is lower than the scan's (the scan would play past that end) takes
    the Python path."""
    from reference_impl.rules import derive_ruleset, load_ruleset

    setup = fast._build_setup(fast._candidates(cached_chooser("fide")))
    assert setup is not None and setup.checked == {}
    blitz, old = load_ruleset("fide-2023-blitz"), load_ruleset("fide-2014")
    assert setup.known(blitz) == (blitz, setup.known(blitz)[1]) and list(setup.checked) == [id(blitz)]
    assert setup.known(old) is not None
    lower = derive_ruleset("fide-2023", {"move_rule": {"automatic": {"plies": 120}}}, id="fide-2023-lower")
    assert fast._Setup(setup.start, setup.syntax, setup.plies, setup.occurrences,
                       {id(lower): lower}).known(lower) is None
    same = derive_ruleset("fide-2023", {"title": "the same moves and ends"}, id="fide-2023-same")
    assert fast._Setup(setup.start, setup.syntax, setup.plies, setup.occurrences,
                       {id(same): same}).known(same) is not None
    assert setup.known(same) is None  # not a ruleset the chooser may pick
