"""The reference adapter's perft: the compiled move generator, fed the ruleset's packed
tables, with the interpreter playing the first plies of a deep count and counting alone a
move layer the compiled tables cannot hold. Every count here is python-chess's (its
``chess960`` flag for the Chess960 ruleset); FIDE 2023 3 and Guidelines II for the moves."""

from __future__ import annotations

import chess
import pytest

from conformance.implementations import reference
from conformance.implementations.reference import ReferenceAdapter
from conformance.implementations.python_chess import oracle_perft
from reference_impl.unwinnability import native

#: Castling both ways, en passant, promotions and pins; a Chess960 array with its rights.
POSITIONS = {
    "fide-2023": ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                  "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                  "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"],
    "fide-2023-chess960": ["bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"],
}
CASES = [(ruleset, fen) for ruleset, fens in POSITIONS.items() for fen in fens]


def _expected(ruleset: str, fen: str, depth: int) -> int:
    return oracle_perft(chess.Board(fen, chess960=ruleset.endswith("chess960")), depth)


@pytest.fixture
def adapter() -> ReferenceAdapter:
    reference._PERFT.clear()
    started = ReferenceAdapter()
    started.start()
    return started


@pytest.mark.parametrize("ruleset, fen", CASES)
def test_fide_2023_3_the_interpreter_plays_the_first_plies_above_the_compiled_depth(
        adapter: ReferenceAdapter, monkeypatch: pytest.MonkeyPatch, ruleset: str, fen: str) -> None:
    monkeypatch.setattr(reference, "NATIVE_PERFT_DEPTH", 1)
    for depth in (0, 1, 2, 3):
        assert adapter.run("perft", ruleset, {"fen": fen, "depth": depth}) == {"nodes": _expected(ruleset, fen, depth)}


@pytest.mark.parametrize("ruleset, fen", CASES)
def test_fide_2023_3_a_move_layer_the_compiled_tables_cannot_hold_is_counted_by_the_interpreter(
        adapter: ReferenceAdapter, monkeypatch: pytest.MonkeyPatch, ruleset: str, fen: str) -> None:
    def too_large(tables: object) -> bytes:
        raise ValueError("move layer too large for the compiled search")

    def never(*args: object) -> int:
        raise AssertionError("the compiled perft was asked")

    monkeypatch.setattr(native, "pack_tables", too_large)
    monkeypatch.setattr(native, "perft", never)
    assert adapter.run("perft", ruleset, {"fen": fen, "depth": 2}) == {"nodes": _expected(ruleset, fen, 2)}
