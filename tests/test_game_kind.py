"""The ``game`` kind: its input checks, its answers through serve, and its corpus coverage.

Every article the adjudication tables cite (claims, offers, resignation, flag fall,
illegal moves, touch-move, clocks) must be cited by at least three ``game`` fixtures,
those reached only through the additions to the pinned input (``supervised``,
``{"flags": "both"}``) included.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conformance.adapters.base import Skip
from conformance.implementations.python_chess import game as python_chess_game
from conformance.implementations.reference import game as reference_game
from conformance.cli import main
from conformance.harness.compare import compare
from conformance.harness.games import GameInputError, read_game
from conformance.harness.protocol import validate
from reference_impl.rules import list_rulesets, load_ruleset

FIXTURES = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"
MIN_FIXTURES = 3
#: The adjudication tables whose every cite a ``game`` fixture must carry.
SECTIONS = (("termination", "resignation"), ("termination", "agreement"), ("repetition", "claim"),
            ("move_rule", "claim"), ("flag_fall",), ("illegal_moves",), ("touch_move",), ("clocks",))
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _cites(node: Any, out: set[str]) -> None:
    if isinstance(node, dict) or hasattr(node, "items"):
        for key, value in node.items():
            if str(key).endswith("cite") and isinstance(value, str):
                out.add(value)
            else:
                _cites(value, out)
    elif isinstance(node, list):
        for value in node:
            _cites(value, out)


def table_cites() -> set[str]:
    found: set[str] = set()
    for ruleset in list_rulesets():
        rules = load_ruleset(ruleset.id)
        for path in SECTIONS:
            node: Any = rules.data
            for key in path:
                node = node.get(key) if hasattr(node, "get") else None
            if node is not None:
                _cites(node, found)
    return found


def game_fixtures() -> list[dict[str, Any]]:
    lines = (FIXTURES / "game.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_every_adjudication_cite_has_three_game_fixtures() -> None:
    counts = Counter(cite for f in game_fixtures() for cite in f["cites"])
    cites = table_cites()
    assert len(cites) > 80  # the tables were read, not an empty walk
    thin = sorted(c for c in cites if counts[c] < MIN_FIXTURES)
    assert thin == [], f"adjudication cites with fewer than {MIN_FIXTURES} game fixtures: {thin}"
    # the cites only the additions reach are among those the walk found
    assert {"fide-2023:III.3.1", "fide-2014:6.11", "fide-2014:A.4.b", "fide-2014:B.4"} <= cites


def test_rulesets_that_differ_share_one_fixture() -> None:
    split = [f for f in game_fixtures() if "expect_by_ruleset" in f]
    assert len(split) >= 30
    for fixture in split:
        assert len({json.dumps(v, sort_keys=True) for v in fixture["expect_by_ruleset"].values()}) > 1


GOOD = {"move": "e2e4"}


@pytest.mark.parametrize("event,words", [
    ({"move": "e2e4", "colour": "white"}, "unknown key 'colour'"),
    ({"move": "e2e4", "resign": "white"}, "exactly one of"),
    ({"bogus": 1}, "exactly one of"),
    ({"resign": "red"}, "not a colour"),
    ({"claim": "fifty_moves", "by": "White"}, "not a colour"),
    ({"move": "e2e9"}, "not a UCI move"),
    ({"claim": "fifty_moves", "by": "white", "intended_move": "Nf3"}, "not a UCI move"),
    ({"move": "e2e4", "seconds": -1}, "seconds"),
    ({"move": "e2e4", "seconds": math.inf}, "seconds"),
    ({"move": "e2e4", "seconds": math.nan}, "seconds"),
    ({"move": "e2e4", "seconds": True}, "seconds"),
    ({"touch": "i9", "by": "white"}, "not a square"),
    ({"illegal": None}, "needs 'by'"),
    ("e2e4", "must be an object"),
    ({"flags": "white"}, "flags 'white' is not 'both'"),
    ({"flags": None}, "is not 'both'"),
    ({"flags": "both", "by": "white"}, "unknown key 'by'"),
    ({"flags": "both", "flag": "white"}, "exactly one of"),
])
def test_a_malformed_event_names_its_index(event: Any, words: str) -> None:
    with pytest.raises(GameInputError) as caught:
        read_game({"fen": None, "time_control": None, "events": [GOOD, event]})
    assert str(caught.value).startswith("event 1: ") and words in str(caught.value)


@pytest.mark.parametrize("value", ["false", 0, 1, None, [True]])
def test_supervised_must_be_a_boolean(value: Any) -> None:
    with pytest.raises(GameInputError, match=r"^game input: supervised must be true or false"):
        read_game({"fen": None, "time_control": None, "events": [GOOD], "supervised": value})


def test_the_additions_are_optional_and_read() -> None:
    pinned = read_game({"fen": None, "time_control": None, "events": [GOOD]})
    assert pinned.supervised is True  # absent keeps the pinned meaning: supervised play
    given = read_game({"fen": None, "time_control": None, "events": [GOOD, {"flags": "both"}], "supervised": False})
    assert given.supervised is False and given.events[1].name == "flags"
    for data in ({"fen": None, "time_control": "300", "events": [GOOD, {"flags": "both"}]},
                 {"fen": None, "time_control": "300", "events": [GOOD], "supervised": False}):
        assert validate("game/input", data) is None


def test_serve_answers_a_malformed_event_errored_and_goes_on() -> None:
    def run(ident: str, events: list[Any]) -> dict[str, Any]:
        return {"cmd": "run", "id": ident, "kind": "game", "ruleset": "fide-2023",
                "input": {"fen": None, "time_control": "300+2", "events": events}}

    requests = [{"cmd": "start", "protocol": 1},
                run("bad", [GOOD, {"move": "e7e5", "seconds": -3}]),
                run("rejected", [GOOD, {"claim": "threefold_repetition", "by": "white"}]),
                run("good", [{"move": "e2e4", "seconds": 4}, {"resign": "black"}]),
                {"cmd": "stop"}]
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    result = CliRunner().invoke(main, ["serve"], input=lines)
    assert result.exit_code == 0, result.output
    start, bad, rejected, good, stop = [json.loads(line) for line in result.stdout.splitlines()]
    assert "game" in start["capabilities"]
    assert bad["id"] == "bad" and "event 1: seconds" in bad["errored"]
    assert rejected["result"]["error"] == "rejected" and "only the player to move" in rejected["result"]["detail"]
    assert good == {"id": "good", "result": {"result": "1-0", "reason": "resignation",
                                             "clock_ms": {"white": 298_000, "black": 300_000}}}
    for answer in (rejected, good):
        assert validate("run-answer", answer) is None
        assert validate("game/result", answer["result"]) is None
    assert stop == {"ok": True}


def test_compare_says_when_an_event_was_rejected_or_not() -> None:
    ongoing = {"result": "*", "reason": None}
    assert compare("game", "fide-2023", {"error": "rejected"}, {"error": "rejected", "detail": "x"}) is None
    assert "expected an event to be rejected" in compare("game", "fide-2023", {"error": "rejected"}, ongoing)
    message = compare("game", "fide-2023", ongoing, {"error": "rejected", "detail": "touch-move"})
    assert message is not None and "touch-move" in message
    clocks = {**ongoing, "clock_ms": {"white": 1000, "black": 2000}}
    assert compare("game", "fide-2023", clocks, {**clocks, "extra": 1}) is None
    assert "clock_ms" in compare("game", "fide-2023", clocks, {**ongoing, "clock_ms": {"white": 1000, "black": 0}})


SHUFFLE = [{"move": m} for m in ("g1f3", "g8f6", "f3g1", "f6g8") * 2]


def test_a_claim_names_its_rule() -> None:
    """The start position stands a third time: correct under 9.2, incorrect under 9.3."""
    rep = reference_game("fide-2023", {"fen": None, "time_control": None,
                                       "events": SHUFFLE + [{"claim": "threefold_repetition", "by": "white"}]})
    fifty = reference_game("fide-2023", {"fen": None, "time_control": None,
                                         "events": SHUFFLE + [{"claim": "fifty_moves", "by": "white"}]})
    assert rep == {"result": "1/2-1/2", "reason": "threefold_repetition"}
    assert fifty == {"result": "*", "reason": None}


def test_both_flags_down_under_us_chess_sudden_death_draw() -> None:
    events = [{"move": "e2e4", "seconds": 70}, {"move": "e7e5", "seconds": 70}, {"flag": "white"}]
    data = {"fen": None, "time_control": "60", "events": events}
    assert reference_game("uscf-7", data) == {"result": "1/2-1/2", "reason": "flag_fall",
                                              "clock_ms": {"white": 0, "black": 0}}
    assert reference_game("fide-2023", data)["error"] == "rejected"  # the first overstep was seen


def test_python_chess_answers_claims_and_declines_the_rest() -> None:
    claim = {"claim": "threefold_repetition", "by": "black", "intended_move": "f6g8"}
    data = {"fen": None, "time_control": None, "events": SHUFFLE[:7] + [claim]}
    assert python_chess_game("fide-2023", data) == {"result": "1/2-1/2", "reason": "threefold_repetition"}
    for events, control in (([GOOD], "300"), ([{"resign": "white"}], None),
                            ([{"touch": "g1", "by": "white"}], None), ([{"illegal": None, "by": "white"}], None),
                            ([GOOD, {"flags": "both"}], None)):
        with pytest.raises(Skip):
            python_chess_game("fide-2023", {"fen": START, "time_control": control, "events": events})
    late = {"fen": None, "time_control": None,
            "events": [{"move": m} for m in ("f2f3", "e7e5", "g2g4", "d8h4", "e2e4")]}
    assert python_chess_game("fide-2023", late)["error"] == "rejected"


def test_both_flags_unseen_continue_before_the_last_period_draw_in_it() -> None:
    """FIDE III.3.1 / 2014 6.11: the event overrides the first overstep FIDE 6.8 would see."""
    events = [GOOD, {"move": "e7e5"}, {"flags": "both"}]
    for ruleset, cite_words in (("fide-2023", "III.3.1"), ("fide-2014", "6.11")):
        first = reference_game(ruleset, {"fen": None, "time_control": "2/1800:1800", "events": events})
        assert first == {"result": "*", "reason": None, "clock_ms": {"white": 0, "black": 0}}, cite_words
        last = reference_game(ruleset, {"fen": None, "time_control": "1800", "events": events})
        assert last == {"result": "1/2-1/2", "reason": "flag_fall", "clock_ms": {"white": 0, "black": 0}}
    mated = [{"move": m} for m in ("f2f3", "e7e5", "g2g4", "d8h4")] + [{"flags": "both"}]
    answer = reference_game("fide-2023", {"fen": None, "time_control": "1800", "events": mated})
    assert answer["error"] == "rejected" and "both flags down: the game is over" in answer["detail"]


def test_supervision_decides_the_2014_rapid_illegal_move() -> None:
    data = {"fen": None, "time_control": "900+10", "events": [{"illegal": "e1e3", "by": "white"}]}
    assert reference_game("fide-2014", {**data, "supervised": False})["result"] == "0-1"  # A.4 b
    assert reference_game("fide-2014", {**data, "supervised": True})["result"] == "*"  # A.3
    assert reference_game("fide-2014", data)["result"] == "*"  # absent: supervised, as pinned
