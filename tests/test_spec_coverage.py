"""Every leaf of every shipped ruleset is read by the reference, or the schema marks it
``x-declarative`` with a reason ("every key is read or removed").

Each built-in ruleset's model is read afresh while :class:`spec_coverage.ModelReads`
records every field read; then a sample of every fixture file runs through the
reference adapter's handlers in-process, and a scripted game per ruleset sends every
event the Game API knows (clocks, claims, touches, illegal moves, flags, offers).
A leaf that nothing read and the schema does not declare is reported by path.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import spec_coverage as cov
from conformance.implementations import reference as ref_adapter
from conformance.adapters.base import Skip
from conformance.harness import fixtures as fixture_io
from conformance.harness import rulesets as harness_rulesets
from reference_impl.adjudication.game import Game
from reference_impl.adjudication.record import adjudicate_text
from reference_impl.adjudication import game as game_module
from reference_impl.core import board as core_board
from reference_impl.core import chess960
from reference_impl.core import tables as core_tables
from reference_impl.errors import ArbiterError
from reference_impl.rules import clear_cache, list_rulesets, load_ruleset

#: Fixtures taken from each file, spread over it (every n-th line).
PER_FILE = 8
#: Deepest perft run here: reads do not depend on depth.
PERFT_DEPTH = 2
#: Caches of what the model's reads produce (compiled tables, arrays, answers): emptied so
#: that the run below reads the model again.
DERIVED = (core_tables._CACHE, core_board._READ, chess960._ENUM, chess960._NUMBERED, game_module._DEAD)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
REPEAT = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]
#: Flag falls (and illegal moves) with each kind of remaining material: a helpmate
#: exists, a forced win, K+N+N against a pawnless king (US Chess 14E3).
FLAG_POSITIONS = (
    ("8/8/4k3/8/2n5/3NK3/8/8 w - - 0 60", "white"),
    ("k7/p1K5/1p6/8/8/8/4B3/8 w - - 0 60", "black"),
    ("8/8/4k3/8/8/2NNK3/8/8 b - - 0 60", "black"),
)
PGN = """[Event "coverage"]
[White "a"]
[Black "b"]
[Result "0-1"]
[TimeControl "180+2"]
[Termination "time forfeit"]

1. e4 {[%clk 0:02:59]} e5 {[%clk 0:02:58]} 2. Nf3 {[%clk 0:00:00]} 0-1

[Event "coverage"]
[White "a"]
[Black "b"]
[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 1/2-1/2
"""


@dataclasses.dataclass(frozen=True)
class Recording:
    """Per complete ruleset id: its resolved data (unwrapped) and the paths read."""

    data: dict[str, Any]
    reads: dict[str, frozenset[cov.Path_]]


def _clear_caches() -> None:
    """Forget every ruleset and what was derived from one, so the run below reads anew."""
    clear_cache()
    for cached in (ref_adapter._rules, harness_rulesets.concrete_rulesets, harness_rulesets.orthodox_rulesets):
        cached.cache_clear()
    for kept in DERIVED + (ref_adapter._PERFT,):
        kept.clear()


@pytest.fixture(scope="module")
def recording() -> Iterator[Recording]:
    """Run the reference over every built-in ruleset, recording the model fields it reads."""
    _clear_caches()
    log: set[cov.Path_] = set()
    data = {ruleset.id: ruleset.data for ruleset in list_rulesets()}
    try:
        with cov.ModelReads(log):
            _run_fixtures()
            for ident in data:
                _play(ident)
        recorded = Recording(data, {ident: frozenset(log) for ident in data})
    finally:
        _clear_caches()
    yield recorded


def _sample() -> Iterator[dict[str, Any]]:
    for path in sorted(fixture_io.DEFAULT_DIR.glob("*.jsonl")):
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        step = max(1, len(lines) // PER_FILE)
        for line in lines[::step][:PER_FILE]:
            yield json.loads(line)


def _run_fixtures() -> None:
    for fixture in _sample():
        kind = fixture["kind"]
        handler = ref_adapter.HANDLERS.get(kind)
        if handler is None:
            continue
        data = dict(fixture["input"])
        if kind == "perft":
            data["depth"] = min(int(data["depth"]), PERFT_DEPTH)
        ids = fixture["rulesets"]
        for ruleset in harness_rulesets.orthodox_rulesets() if ids == ["*"] else ids:
            try:
                handler(ruleset, data)
            except (Skip, ArbiterError):
                pass  # a declined or refused input read the tables all the same


def _events(game: Game, calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> None:
    for name, args, options in calls:
        try:
            getattr(game, name)(*args, **options)
        except ArbiterError:
            pass
        if game.finished:
            return


def _play(rules: str) -> None:
    """Every Game event under ``rules``, each in a game of its own."""
    scripts: list[tuple[str | None, list[tuple[str, tuple[Any, ...], dict[str, Any]]]]] = [
        ("180+2", [("move", ("e2e4",), {"seconds": 3}), ("move", ("e7e5",), {"seconds": 400})]),
        ("40/5400:1800d5", [("move", ("e2e4",), {"seconds": 10}), ("both_flags", (), {})]),
        ("300d5", [("move", ("e2e4",), {"seconds": 4}), ("move", ("e7e5",), {"seconds": 12})]),
        ("1800", [("move", ("e2e4",), {"seconds": 10}), ("both_flags", (), {})]),
        ("40/5400:1800", [("move", ("e2e4",), {"seconds": 10})]),
        (None, [("play", (REPEAT,), {}), ("claim_draw", ("black",), {"intended_move": "f6g8"})]),
        (None, [("play", (REPEAT,), {}), ("touch", ("f6",), {}), ("claim_draw", ("black",), {})]),
        (None, [("claim_draw", ("white",), {"intended_move": "e2e4"})]),
        (None, [("offer_draw", ("white",), {}), ("accept_draw", ("black",), {})]),
        (None, [("touch", ("e1", "h1"), {}), ("touch", ("e8",), {}), ("move", ("e2e4",), {})]),
        (None, [("resign", ("white",), {})]),
        (None, [("flag", ("white",), {})]),
    ]
    for control in ("5400", "900+10", "180"):  # one game per speed regime
        for claimed in (True, False):
            illegal = ("illegal_move", (), {"claimed": claimed})
            scripts.append((control, [illegal, illegal, illegal]))
        _events(Game(rules, START, time_control=control, supervised=False), [("illegal_move", (), {})] * 3)
        scripts.append((control, [("claim_draw", ("white",), {"intended_move": "e2e4"})]))
    for control, calls in scripts:
        game = Game(rules, START, time_control=control)
        assert control is None or game.speed_class is not None  # the band's class
        _events(game, calls)
    for final in ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 60", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 60"):
        Game(rules, final)  # stalemate, checkmate: ends found at the start
    _events(Game(rules, "7k/8/6K1/8/8/8/8/1Q6 w - - 99 150"), [("claim_draw", ("white",), {})])
    _events(Game(rules, "7k/8/6K1/8/8/8/8/1Q6 w - - 150 150"), [("director_draw", (), {})])
    _events(Game(rules, "6k1/8/8/8/8/8/8/R3K2R w KQ - 0 1"), [("touch", ("h1",), {}), ("move", ("e1g1",), {})])
    for position, colour in FLAG_POSITIONS:
        _events(Game(rules, position), [("flag", (colour,), {})])
        _events(Game(rules, position), [("illegal_move", (), {}), ("illegal_move", (), {})])
    list(adjudicate_text(PGN, rules))
    if load_ruleset(rules).data["setup"]["kind"] == "chess960":
        chess960.enumerate_arrays(rules)
        chess960.start_fen(0, rules)


def unread(recording: Recording) -> dict[str, list[str]]:
    """Per ruleset, the leaves neither read (under any ruleset) nor declared, dotted.

    A path counts as read when some ruleset's evaluation read it: whether a key is
    consulted may depend on another's value (no penalty is looked up where
    ``loses_at`` is null), and such a key is still executed where it matters."""
    reads = frozenset().union(*recording.reads.values())
    out: dict[str, list[str]] = {}
    for ident, data in recording.data.items():
        missing = sorted({cov.dotted(p) for p in cov.leaf_paths(data) if p not in reads and cov.declared(p) is None})
        if missing:
            out[ident] = missing
    return out


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_every_leaf_of_every_ruleset_is_read_or_declared(recording: Recording) -> None:
    assert unread(recording) == {}


def test_an_unread_leaf_is_reported(recording: Recording) -> None:
    # Forget that one rule leaf was read: the check names exactly that path.
    path = ("termination", "stalemate", "result")
    assert any(path in reads for reads in recording.reads.values())
    reads = {ident: paths - {path} for ident, paths in recording.reads.items()}
    assert unread(Recording(recording.data, reads)) == {ident: ["termination.stalemate.result"] for ident in reads}


def test_a_new_key_nobody_reads_is_reported(recording: Recording) -> None:
    # A leaf the reference never asks for (a path outside every table it reads).
    base = recording.data["uscf-7"]
    data = {**base, "flag_fall": {**base["flag_fall"], "grace_seconds": 2}}
    found = unread(Recording({"uscf-7": data}, recording.reads))
    assert found == {"uscf-7": ["flag_fall.grace_seconds"]}


def test_the_recorder_records_reads_not_key_tests() -> None:
    log: set[cov.Path_] = set()
    view = cov.Recorder({"a": {"b": 1, "c": [1, 2]}, "rows": [{"x": 1}, {"x": 2, "y": 3}]}, log)
    assert "a" in view and list(view["a"]) == ["b", "c"]
    assert log == set()
    assert view["a"].get("c") == [1, 2]
    assert [row.get("y") for row in view["rows"]] == [None, 3]
    assert log == {("a", "c"), ("rows", "[]", "y")}


def test_the_declarative_marks_have_reasons_and_match_the_docs() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "rulesets.md").read_text(encoding="utf-8")
    seen = set()
    for ruleset in list_rulesets():
        for path in cov.leaf_paths(ruleset.data):
            reason = cov.declared(path)
            if reason is not None:
                assert len(reason) > 20, (path, reason)
                seen.add(cov.dotted(path))
    assert seen, "no key is declared"
    section = docs[docs.index("## Declarative keys"):]
    for key in seen:
        assert f"`{key}`" in section, f"{key} is declarative but not listed in docs/rulesets.md"


# -- the notation tables ------------------------------------------------------------------

#: Fixtures taken from each notation fixture file (every n-th line), for breadth.
NOTATION_PER_FILE = 120
NOTATION_KINDS = ("to_notation", "from_notation", "san", "parse_san")
NOTATION_PGN = """[Event "coverage"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "a"]
[Black "b"]
[Result "½-½"]
[Variant "chess960"]

1. e4!? {a comment} e5?! $14 2. Nf3!! Nc6?? 3. Bb5! a6? 4. Ba4 Nf6 (4... b5 5. Bb3) 5. O-O 1/2
"""


@dataclasses.dataclass(frozen=True)
class TableRecording:
    data: dict[str, Any]
    reads: dict[str, frozenset[cov.Path_]]


@pytest.fixture(scope="module")
def notation_recording() -> Iterator[TableRecording]:
    """Run the notation fixtures, a PGN round trip and the printed-text reader with every
    notation table behind a :class:`spec_coverage.Recorder`."""
    from contextlib import ExitStack

    from reference_impl.notation import tables as notation_tables
    from reference_impl.notation.game import replay
    from reference_impl.notation.pgn import read_games, tag_problems, write_game
    from reference_impl.notation.printed import read_printed
    from reference_impl.notation.nags import nag_glyph, nag_meaning
    from reference_impl.notation.results import format_score, parse_score, result_points

    data = {name: notation_tables.table(name) for name in notation_tables.TABLE_NAMES}
    logs: dict[str, set[cov.Path_]] = {name: set() for name in data}
    with ExitStack() as stack:
        for name, table in data.items():
            stack.enter_context(notation_tables.substituted(name, cov.Recorder(table, logs[name]), check=False))
        for fixture in _notation_sample():
            handler = ref_adapter.HANDLERS[fixture["kind"]]
            try:
                handler(fixture["rulesets"][0] if fixture["rulesets"] != ["*"] else "fide-2023", dict(fixture["input"]))
            except (Skip, ArbiterError):
                pass
        _round_trips()
        for game in read_games(NOTATION_PGN):
            replay(game)
            write_game(game)
            tag_problems({**game.tags, "SetUp": "1", "Termination": "normal"})
        for marker in notation_tables.result_markers():
            result_points(marker)
        for nag in range(256):
            nag_meaning(nag), nag_glyph(nag)
        from reference_impl.core import Board

        read_printed(Board(load_ruleset("fide-2023")), "1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 1–0", "san:ru:lenient")
        result_points("½-½"), parse_score(format_score(parse_score("+3 −1 =4")))
    yield TableRecording(data, {name: frozenset(log) for name, log in logs.items()})


#: Positions whose moves every notation writes and reads back: promotions (with and
#: without a capture), both castlings, an en passant capture, checks; and Chess960's.
ROUND_TRIPS = (
    ("fide-2023", "r3k2r/pPpp1ppp/8/3Pp3/8/8/P1PP1PPP/R3K2R w KQkq e6 0 2"),
    ("fide-2023", "r3k2r/p1pp1ppp/8/8/3pP3/8/PpPP1PPP/R3K2R b KQkq e3 0 2"),
    ("fide-2023-chess960", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"),
)


def _round_trips() -> None:
    from reference_impl.core import Board
    from reference_impl.notation.api import from_notation, notation_ids, to_notation
    from reference_impl.notation.san import language_tradition, traditions
    from reference_impl.notation.tables import languages

    for ruleset, fen in ROUND_TRIPS:
        board = Board.from_fen(fen, load_ruleset(ruleset))
        for notation in notation_ids():
            for move in board.legal_moves():
                try:
                    from_notation(board, to_notation(board, move, notation), notation)
                except ArbiterError:
                    pass
    for code in languages():
        language_tradition(code)
    for tradition in traditions():  # long algebraic in every tradition's marks
        for ruleset, fen in ROUND_TRIPS[:1]:
            board = Board.from_fen(fen, load_ruleset(ruleset))
            for move in board.legal_moves():
                from_notation(board, to_notation(board, move, f"lan:{tradition}"), f"lan:{tradition}")
    start = Board(load_ruleset("fide-2023"))
    for text in ("Ng1-f3", "e2—e4", "Ng1f3"):  # the long forms the lenient reader knows
        from_notation(start, text, "san:lenient")
    # ICCF's older promotion form names the new piece by an original square (import only)
    for fen, code, squares in ((ROUND_TRIPS[0][1], "2728", (41, 11, 81, 31, 61, 21, 71)),
                               (ROUND_TRIPS[1][1], "2221", (48, 18, 88, 38, 68, 28, 78))):
        board = Board.from_fen(fen, load_ruleset("fide-2023"))
        for square in squares:
            from_notation(board, f"{code} ({square})", "iccf")


def _notation_sample() -> Iterator[dict[str, Any]]:
    paths = sorted(fixture_io.DEFAULT_DIR.glob("notation-*.jsonl")) + [fixture_io.DEFAULT_DIR / f"{k}.jsonl"
                                                                      for k in ("san", "parse_san")]
    for path in paths:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        step = max(1, len(lines) // NOTATION_PER_FILE)
        for line in lines[::step]:
            fixture = json.loads(line)
            if fixture["kind"] in NOTATION_KINDS:
                yield fixture


def notation_unread(recording: TableRecording) -> dict[str, list[str]]:
    """Per notation table, the leaves nothing read and the schema does not declare."""
    out: dict[str, list[str]] = {}
    for name, data in recording.data.items():
        missing = sorted({cov.dotted(p) for p in cov.leaf_paths(data)
                          if p not in recording.reads[name] and p[0] not in ("table", "title")
                          and cov.notation_declared(name, p) is None})
        if missing:
            out[name] = missing
    return out


def test_every_leaf_of_every_notation_table_is_read_or_declared(notation_recording: TableRecording) -> None:
    found = notation_unread(notation_recording)
    assert found == {}, json.dumps(found, indent=1)


def test_an_unread_notation_leaf_is_reported(notation_recording: TableRecording) -> None:
    path = ("descriptive", "piece_aliases", "S")
    reads = dict(notation_recording.reads)
    assert path[1:] in reads["descriptive"]  # the S alias is read now that the grammar comes from the table
    reads["descriptive"] = reads["descriptive"] - {path[1:]}
    assert notation_unread(TableRecording(notation_recording.data, reads)) == {"descriptive": ["piece_aliases.S"]}
