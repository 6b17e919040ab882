"""The ``xboard:`` transport, against a scripted engine that python-chess judges and Debian's Phalanx.

Expectations: legal move sets and game ends come from python-chess (an independent move
generator); the transport must report exactly what the engine refused and announced.
The Phalanx test is skipped when the package is not installed, saying so.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import chess
import pytest

from conformance.implementations import resolve
from conformance.adapters.base import AdapterErrored, AdapterFault, AdapterStartError, Skip
from conformance.harness.transports.xboard import XboardAdapter, candidates, parse_features, read_announcement

FAKE = Path(__file__).parent / "adapters" / "xboard_fake.py"
START = chess.STARTING_FEN
#: castling both ways, an e.p. capture, promotions with and without capture, a pin
POSITIONS = (
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPP2PPP/RNBQKBNR b KQkq e3 0 3",
    "1r5k/P7/8/8/8/8/8/K7 w - - 0 1",
    "4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1",
)


def fake(*options: str) -> XboardAdapter:
    return XboardAdapter([sys.executable, str(FAKE), *options], timeout=10)


def legal(fen: str) -> set[str]:
    return {move.uci() for move in chess.Board(fen).legal_moves}


@pytest.mark.parametrize("options", [(), ("--usermove",)])
def test_legal_moves_are_the_moves_the_engine_does_not_refuse(options: tuple[str, ...]) -> None:
    adapter = fake(*options)
    info = adapter.start()
    try:
        assert (info.name, info.capabilities) == ("Fake XB 1.0", ["legal_moves", "game_end"])
        assert info.rulesets == ["fide-2023"]
        for fen in POSITIONS:
            moves = adapter.run("legal_moves", "fide-2023", {"fen": fen})["moves"]
            assert len(moves) == len(set(moves)) and set(moves) == legal(fen)
    finally:
        adapter.stop()


def test_candidates_cover_every_legal_move_and_no_square_of_the_movers_own() -> None:
    rng = random.Random(25)
    for _ in range(40):
        board = chess.Board()
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        offered = candidates(board.fen())
        assert legal(board.fen()) <= set(offered), board.fen()
        own = {chess.square_name(s) for s in chess.SquareSet(board.occupied_co[board.turn])}
        assert not {m[2:4] for m in offered} & own


@pytest.mark.parametrize("fen, moves, expect", [
    (START, ["f2f3", "e7e5", "g2g4", "d8h4"], {"result": "0-1", "reason": "checkmate", "claimable": []}),
    ("7k/8/5QK1/8/8/8/8/8 w - - 0 1", ["f6f7"], {"result": "1/2-1/2", "reason": "stalemate", "claimable": []}),
    ("7k/8/6K1/8/8/8/P7/5b2 b - - 0 1", ["f1b5"], {"result": "*", "reason": None, "claimable": []}),
    ("7k/8/6K1/8/8/8/8/5B2 w - - 0 1", ["f1b5"],
     {"result": "1/2-1/2", "reason": "dead_position", "claimable": []}),
    (START, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"],
     {"result": "*", "reason": None, "claimable": ["threefold_repetition"]}),
    ("7k/8/6K1/8/8/8/8/R7 w - - 99 80", ["a1a2"], {"result": "*", "reason": None, "claimable": ["fifty_moves"]}),
])
def test_game_end_is_the_engines_announcement_after_the_last_move(fen: str, moves: list[str], expect: dict) -> None:
    adapter = fake()
    adapter.start()
    try:
        assert adapter.run("game_end", "fide-2023", {"fen": fen, "moves": moves}) == expect
    finally:
        adapter.stop()


def test_a_draw_announced_without_a_rule_is_that_result_without_a_reason() -> None:
    adapter = fake("--drawn-game")
    adapter.start()
    try:
        answer = adapter.run("game_end", "fide-2023", {"fen": "7k/8/5QK1/8/8/8/8/8 w - - 0 1", "moves": ["f6f7"]})
        assert answer == {"result": "1/2-1/2", "reason": None, "claimable": []}
    finally:
        adapter.stop()


def test_a_game_without_moves_is_declined_for_nothing_would_be_announced() -> None:
    adapter = fake()
    adapter.start()
    try:
        with pytest.raises(Skip, match="announces a result after a move"):
            adapter.run("game_end", "fide-2023", {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "moves": []})
    finally:
        adapter.stop()


def test_an_engine_that_announces_nothing_lets_the_game_go_on() -> None:
    adapter = fake("--no-announce")
    adapter.start()
    try:
        answer = adapter.run("game_end", "fide-2023", {"fen": START, "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})
        assert answer == {"result": "*", "reason": None, "claimable": []}
    finally:
        adapter.stop()


def test_a_refused_game_move_is_an_error_naming_it_and_the_next_request_is_answered() -> None:
    adapter = fake()
    adapter.start()
    try:
        with pytest.raises(AdapterErrored, match=r"refused move 2 \(e2e5\): Illegal move: e2e5"):
            adapter.run("game_end", "fide-2023", {"fen": START, "moves": ["e2e4", "e2e5", "d7d5"]})
        assert adapter.run("legal_moves", "fide-2023", {"fen": POSITIONS[0]})["moves"]
    finally:
        adapter.stop()


def test_an_engine_that_dies_is_restarted_for_the_next_request() -> None:
    adapter = fake("--die-on-illegal")
    adapter.start()
    try:
        with pytest.raises(AdapterFault, match=r"engine exited \(exit status 1\)"):
            adapter.run("legal_moves", "fide-2023", {"fen": POSITIONS[0]})
        answer = adapter.run("game_end", "fide-2023", {"fen": START, "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})
        assert answer["reason"] == "checkmate" and adapter.restarts == 1
    finally:
        adapter.stop()


def test_an_engine_that_hangs_times_out() -> None:
    adapter = XboardAdapter([sys.executable, str(FAKE), "--hang-on", "e2e4"], timeout=0.5)
    adapter.start()
    try:
        with pytest.raises(AdapterFault, match="timed out"):
            adapter.run("game_end", "fide-2023", {"fen": START, "moves": ["e2e4"]})
    finally:
        adapter.stop()


def test_without_ping_replies_cannot_be_matched_so_it_does_not_start() -> None:
    with pytest.raises(AdapterStartError, match="no ping feature"):
        fake("--no-ping").start()


def test_without_setboard_only_the_initial_position_is_asked() -> None:
    adapter = fake("--no-setboard")
    adapter.start()
    try:
        with pytest.raises(Skip, match="no setboard"):
            adapter.run("legal_moves", "fide-2023", {"fen": POSITIONS[0]})
        assert set(adapter.run("legal_moves", "fide-2023", {"fen": START})["moves"]) == legal(START)
    finally:
        adapter.stop()


def test_a_protocol_1_engine_is_read_after_the_wait() -> None:
    adapter = fake("--protover1")  # no done=1: its features are taken after PROTOVER_1_WAIT
    adapter.start()
    try:
        assert adapter.features["ping"] == "1"
        assert set(adapter.run("legal_moves", "fide-2023", {"fen": POSITIONS[1]})["moves"]) == legal(POSITIONS[1])
    finally:
        adapter.stop()


def test_text_that_could_inject_commands_is_refused_before_sending() -> None:
    adapter = fake()
    adapter.start()
    try:
        with pytest.raises(ValueError, match="cannot be sent"):
            adapter.run("legal_moves", "fide-2023", {"fen": START + "\nquit"})
    finally:
        adapter.stop()


def test_features_and_announcements_are_read_as_cecp_writes_them() -> None:
    assert parse_features('feature ping=1 myname="GNU Chess 6" done=0') == {
        "ping": "1", "myname": "GNU Chess 6", "done": "0"}
    assert [read_announcement(c) for c in ("White mates", "Stalemate", "Insufficient material",
                                            "3-fold repetition", "50 move rule", "Drawn game", "Black checkmated")] == [
        "checkmate", "stalemate", "dead_position", "threefold_repetition", "fifty_moves", None, "checkmate"]


def test_the_spec_string_and_a_missing_engine() -> None:
    adapter = resolve(f"xboard:{sys.executable} {FAKE} --usermove")
    assert isinstance(adapter, XboardAdapter) and adapter.argv[-1] == "--usermove"
    with pytest.raises(AdapterStartError, match="cannot start XBoard engine"):
        resolve("xboard:/no/such/engine").start()


def test_phalanx_agrees_with_python_chess_where_no_en_passant_is_possible() -> None:
    from conformance.implementations.catalog import LIBRARIES, installed_version

    if installed_version(LIBRARIES["phalanx"]) is None:
        pytest.skip("phalanx (Debian package phalanx) is not installed: arbiter adapters install phalanx")
    adapter = resolve("phalanx")
    adapter.start()
    try:
        for fen in (POSITIONS[0], POSITIONS[2], POSITIONS[3], START):
            assert set(adapter.run("legal_moves", "fide-2023", {"fen": fen})["moves"]) == legal(fen)
        answer = adapter.run("game_end", "fide-2023", {"fen": START, "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})
        assert answer == {"result": "0-1", "reason": "checkmate", "claimable": []}
    finally:
        adapter.stop()
