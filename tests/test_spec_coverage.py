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
from conformance.adapters import reference as ref_adapter
from conformance.adapters.base import Skip
from conformance.harness import fixtures as fixture_io
from conformance.harness import rulesets as harness_rulesets
from reference_impl.adjudication.game import Game
from reference_impl.adjudication.record import adjudicate_text
from reference_impl.adjudication import game as game_module
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
DERIVED = (core_tables._CACHE, chess960._ENUM, chess960._NUMBERED, game_module._DEAD)

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
    for kept in DERIVED + (ref_adapter._PERFT, ref_adapter._BOARDS):
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
