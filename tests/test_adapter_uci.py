"""The ``uci:PATH`` adapter, against Debian's Stockfish and against scripted fake engines.

Expectations: perft counts are published (Chessprogramming wiki; python-chess
``tricky.perft`` for the Chess960 X-FEN line); legal move sets are compared with
python-chess, an independent move generator. Stockfish tests skip when it is absent.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import chess
import pytest

from conformance.adapters.base import AdapterStartError, Skip
from conformance.adapters.base import AdapterFault
from conformance.harness.transports.uci import UciAdapter, parse_divide, split_name

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _stockfish() -> str | None:
    found = shutil.which("stockfish")
    if found:
        return found
    debian = "/usr/games/stockfish"
    return debian if os.access(debian, os.X_OK) else None


STOCKFISH = _stockfish()
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="stockfish binary not found")


@pytest.fixture(scope="module")
def stockfish() -> UciAdapter:
    assert STOCKFISH is not None
    adapter = UciAdapter(STOCKFISH)
    adapter.start()
    yield adapter
    adapter.stop()


@pytest.mark.stockfish
@needs_stockfish
def test_start_reads_id_name(stockfish: UciAdapter) -> None:
    info = stockfish.info
    assert info is not None and info.name == "Stockfish" and info.version
    assert info.capabilities == ["legal_moves", "perft"]
    assert info.supports("perft", "fide-2023-chess960") and info.supports("perft", "uscf-7")


@pytest.mark.stockfish
@needs_stockfish
@pytest.mark.parametrize("ruleset, fen, depth, nodes", [
    ("fide-2023", START, 3, 8902),
    ("fide-2023", KIWIPETE, 2, 2039),
    ("uscf-7", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
    # tricky.perft X-FEN line: 23 / 522 / 12333 only with Chess960 castling
    ("fide-2023-chess960", "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", 3, 12333),
    # python-chess chess960.perft, position 1: Shredder-FEN rights
    ("chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 3, 12189),
])
def test_perft_published_counts(stockfish: UciAdapter, ruleset: str, fen: str, depth: int,
                                nodes: int) -> None:
    assert stockfish.run("perft", ruleset, {"fen": fen, "depth": depth}) == {"nodes": nodes}


@pytest.mark.stockfish
@needs_stockfish
@pytest.mark.parametrize("ruleset, fen", [
    ("fide-2023", START),
    ("fide-2023", KIWIPETE),
    ("fide-2023", "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1"),          # e.p. capture blocks the check
    ("fide-2023", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),      # promotions
    ("fide-2023", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),         # e1g1 / e1c1
    ("chess960", "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1"),             # b1a1 / b1h1
    ("chess960", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"),          # e8h8 / e8a8
])
def test_legal_moves_equal_python_chess(stockfish: UciAdapter, ruleset: str, fen: str) -> None:
    board = chess.Board(fen, chess960=ruleset == "chess960")
    expected = {board.uci(m) for m in board.legal_moves}
    moves = stockfish.run("legal_moves", ruleset, {"fen": fen})["moves"]
    assert len(moves) == len(set(moves))
    assert set(moves) == expected


@pytest.mark.stockfish
@needs_stockfish
def test_chess960_option_switches_back_and_forth(stockfish: UciAdapter) -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    assert "e1h1" in stockfish.run("legal_moves", "chess960", {"fen": fen})["moves"]
    assert "e1g1" in stockfish.run("legal_moves", "fide-2023", {"fen": fen})["moves"]
    assert "e1h1" in stockfish.run("legal_moves", "chess960", {"fen": fen})["moves"]


@pytest.mark.stockfish
@needs_stockfish
def test_engine_crash_is_errored_and_engine_restarts() -> None:
    assert STOCKFISH is not None
    adapter = UciAdapter(STOCKFISH)
    adapter.start()
    try:
        with pytest.raises(AdapterFault, match="exited|timed out"):
            adapter.run("perft", "fide-2023", {"fen": "8/8/8/8/8/8/8/8 w - - 0 1", "depth": 2})
        assert adapter.restarts == 1
        assert adapter.run("perft", "fide-2023", {"fen": START, "depth": 2}) == {"nodes": 400}
    finally:
        adapter.stop()


def test_unsupported_requests_skip_and_injection_is_refused() -> None:
    adapter = UciAdapter("unused")
    with pytest.raises(Skip):
        adapter.run("game_end", "fide-2023", {"fen": START, "moves": []})
    with pytest.raises(Skip):
        adapter.run("perft", "fide-2023", {"fen": START, "depth": 0})
    with pytest.raises(ValueError):
        adapter.run("perft", "fide-2023", {"fen": START + "\nquit", "depth": 1})


def test_parse_divide_and_split_name() -> None:
    divide, nodes = parse_divide(["info string x", "e2e4: 20", "a7a8q: 3", "", "Nodes searched: 23"])
    assert divide == [("e2e4", 20), ("a7a8q", 3)] and nodes == 23
    with pytest.raises(AdapterFault):
        parse_divide(["e2e4: 1"])
    assert split_name("Stockfish 15.1") == ("Stockfish", "15.1")
    assert split_name("Fairy-Stockfish 14.0.1 LB") == ("Fairy-Stockfish 14.0.1 LB", "")
    assert split_name("Ethereal") == ("Ethereal", "")


# --- scripted fake engines: crash, hang, garbage, not UCI at all -------------------------

FAKE = """#!{python}
import sys, time
mode = {mode!r}
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "uci":
        print("id name Fake 0.1"); print("option name UCI_Chess960 type check default false")
        print("uciok", flush=True)
    elif cmd == "isready":
        print("readyok", flush=True)
    elif cmd.startswith("go perft"):
        if mode == "hang":
            time.sleep(60)
        elif mode == "crash":
            sys.exit(3)
        elif mode == "garbage":
            print("e2e4: 1"); print("Nodes searched: 5", flush=True)
        else:
            print("e2e4: 1"); print("d2d4: 1"); print("Nodes searched: 2", flush=True)
    elif cmd == "quit":
        break
"""


def _fake(tmp_path: Path, mode: str) -> str:
    path = tmp_path / f"fake-{mode}"
    path.write_text(FAKE.format(python=sys.executable, mode=mode), encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def test_fake_engine_answers(tmp_path: Path) -> None:
    adapter = UciAdapter(_fake(tmp_path, "ok"))
    info = adapter.start()
    assert (info.name, info.version) == ("Fake", "0.1")
    assert adapter.run("legal_moves", "chess960", {"fen": START}) == {"moves": ["e2e4", "d2d4"]}
    adapter.stop()


@pytest.mark.parametrize("mode, message", [
    ("hang", "timed out"),
    ("crash", "engine exited \\(exit status 3\\)"),
    ("garbage", "listed 1 moves but counted 5"),
])
def test_misbehaving_engine_errors_then_recovers(tmp_path: Path, mode: str, message: str) -> None:
    adapter = UciAdapter(_fake(tmp_path, mode), timeout=0.5)
    adapter.start()
    try:
        with pytest.raises(AdapterFault, match=message):
            adapter.run("legal_moves", "fide-2023", {"fen": START})
        # the next request gets a fresh engine (which misbehaves again, the same way)
        with pytest.raises(AdapterFault, match=message):
            adapter.run("legal_moves", "fide-2023", {"fen": START})
    finally:
        adapter.stop()


def test_missing_or_non_uci_program_cannot_start(tmp_path: Path) -> None:
    with pytest.raises(AdapterStartError, match="cannot start UCI engine"):
        UciAdapter(str(tmp_path / "nope")).start()
    not_uci = tmp_path / "not-uci"
    not_uci.write_text(f"#!{sys.executable}\nprint('hello')\n", encoding="utf-8")
    not_uci.chmod(0o755)
    with pytest.raises(AdapterStartError, match="not a working UCI engine"):
        UciAdapter(str(not_uci)).start()


def test_late_output_from_an_earlier_request_is_discarded(tmp_path: Path) -> None:
    # this engine prints a stray "Nodes searched" line after every answer
    path = tmp_path / "fake-chatty"
    path.write_text(FAKE.format(python=sys.executable, mode="ok").replace(
        'print("Nodes searched: 2", flush=True)',
        'print("Nodes searched: 2"); print("Nodes searched: 99", flush=True)'),
        encoding="utf-8")
    path.chmod(0o755)
    adapter = UciAdapter(str(path))
    adapter.start()
    try:
        for _ in range(3):
            assert adapter.run("perft", "fide-2023", {"fen": START, "depth": 1}) == {"nodes": 2}
    finally:
        adapter.stop()


@pytest.mark.stockfish
@needs_stockfish
def test_repeated_moves_are_passed_on_not_hidden(stockfish: UciAdapter) -> None:
    # A Chess960 array read with UCI_Chess960 off: Stockfish 15.1 prints the castling
    # move b1c1 and the king step b1c1 alike. The adapter reports both, so the harness
    # can call the answer wrong instead of silently merging them.
    fen = "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1"
    moves = stockfish.run("legal_moves", "fide-2023", {"fen": fen})["moves"]
    board = chess.Board(fen, chess960=True)
    assert len(moves) == board.legal_moves.count()
    assert len(set(moves)) < len(moves)


# --- engines without go perft: MultiPV root moves ----------------------------------------

SEARCHER = """#!{python}
import sys
maximum = {maximum}
board = None
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "uci":
        print("id name Searcher 2.0"); print(f"option name MultiPV type spin default 1 min 1 max {{maximum}}")
        print("uciok", flush=True)
    elif cmd == "isready":
        print("readyok", flush=True)
    elif cmd.startswith("position"):
        import chess
        board = chess.Board() if cmd == "position startpos" else chess.Board(cmd[len("position fen "):])
    elif cmd.startswith("go"):  # go perft N is read as a search, as engines without perft do
        moves = [m.uci() for m in board.legal_moves]
        for rank, move in enumerate(moves, 1):
            print(f"info depth 1 multipv {{rank}} score cp 0 pv {{move}}")
        print(f"bestmove {{moves[0] if moves else '(none)'}}", flush=True)
    elif cmd == "quit":
        break
"""


def _searcher(tmp_path: Path, maximum: int) -> str:
    path = tmp_path / f"searcher-{maximum}"
    path.write_text(SEARCHER.format(python=sys.executable, maximum=maximum), encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def test_an_engine_without_perft_answers_legal_moves_from_multipv_lines(tmp_path: Path) -> None:
    adapter = UciAdapter(_searcher(tmp_path, 500))
    info = adapter.start()
    try:
        assert info.capabilities == ["legal_moves"] and not adapter.has_perft
        for fen in (START, KIWIPETE, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"):
            moves = adapter.run("legal_moves", "fide-2023", {"fen": fen})["moves"]
            assert sorted(moves) == sorted(m.uci() for m in chess.Board(fen).legal_moves)
        with pytest.raises(Skip, match="answers only legal_moves"):
            adapter.run("perft", "fide-2023", {"fen": START, "depth": 1})
    finally:
        adapter.stop()


def test_an_engine_with_neither_perft_nor_a_large_multipv_cannot_start(tmp_path: Path) -> None:
    with pytest.raises(AdapterStartError, match="neither go perft nor a MultiPV option of 218"):
        UciAdapter(_searcher(tmp_path, 10)).start()


def test_ethereal_lists_the_legal_moves_through_multipv() -> None:
    from conformance.implementations import resolve
    from conformance.implementations.catalog import LIBRARIES, installed_version

    if installed_version(LIBRARIES["ethereal"]) is None:
        pytest.skip("ethereal (Debian package ethereal-chess) is not installed: arbiter adapters install ethereal")
    adapter = resolve("ethereal")
    info = adapter.start()
    try:
        assert (info.name, info.capabilities) == ("Ethereal", ["legal_moves"])
        for fen in (START, KIWIPETE):
            moves = adapter.run("legal_moves", "fide-2023", {"fen": fen})["moves"]
            assert sorted(moves) == sorted(m.uci() for m in chess.Board(fen).legal_moves)
    finally:
        adapter.stop()
