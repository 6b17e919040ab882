"""The reference adapter's kept answers change no answer.

Perft counts are kept by move layer, position and depth (the corpus asks each position
under fide-2023 and fide-2023-chess960); games' dead-position checks after each move
are kept across games. Every count here is python-chess's (its ``chess960`` flag for
the Chess960 ruleset), asked in both ruleset orders and a second time from the cache.
"""

from __future__ import annotations

import chess
import pytest

from conformance.implementations import reference
from conformance.implementations.reference import ReferenceAdapter
from conformance.implementations.python_chess import oracle_perft
from reference_impl.adjudication import game as game_module
from reference_impl.adjudication.game import Game

#: Positions whose counts differ only through what the key must hold: castling rights,
#: an en passant capture that is legal (``f6``) against none, the depth.
POSITIONS = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 37 60",  # the clocks play no part
]
RULESETS = {"fide-2023": False, "fide-2023-chess960": True}


@pytest.mark.parametrize("order", [list(RULESETS), list(reversed(RULESETS))])
def test_kept_perft_counts_are_python_chess_counts_in_either_ruleset_order(order: list[str]) -> None:
    reference._PERFT.clear()
    adapter = ReferenceAdapter()
    adapter.start()
    for _ in range(2):  # the second round is answered from the kept counts
        for ruleset in order:
            for fen in POSITIONS:
                for depth in (1, 2, 3):
                    expected = oracle_perft(chess.Board(fen, chess960=RULESETS[ruleset]), depth)
                    answer = adapter.run("perft", ruleset, {"fen": fen, "depth": depth})
                    assert answer == {"nodes": expected}, (ruleset, fen, depth)


#: Moves to a dead position (K+B against K after the capture) and to a live one.
DEAD_GAME = ("4k3/8/8/8/8/8/3r4/4K1B1 w - - 0 1", ["e1f1", "e8e7", "f1e1", "e7e8", "e1d2"])
LIVE_GAME = ("4k3/8/8/8/8/8/3r4/4K1B1 w - - 0 1", ["e1f1", "e8e7", "f1e1"])


@pytest.mark.parametrize("fen, moves", [DEAD_GAME, LIVE_GAME])
def test_push_and_the_kept_dead_checks_give_moves_status(fen: str, moves: list[str]) -> None:
    """A game played with push (no status per move) under one ruleset after another,
    the dead checks kept, ends as the same game played fresh with move: python-chess
    says whether the end is insufficient material (dead here)."""
    expected_dead = chess.Board(fen)
    for uci in moves:
        expected_dead.push_uci(uci)
    for ruleset in ("fide-2023", "fide-2014", "uscf-7", "fide-2023"):
        game_module._DEAD.clear()
        fresh = Game(ruleset, fen)
        statuses = [fresh.move(uci) for uci in moves]
        kept = Game(ruleset, fen)
        for uci in moves:
            kept.push(uci)
        assert kept.status() == statuses[-1] == fresh.status()
        again = Game(ruleset, fen)  # every check from the kept answers now
        again.play(moves)
        assert again.status() == statuses[-1]
        if ruleset.startswith("fide"):
            assert (statuses[-1].reason == "dead_position") is expected_dead.is_insufficient_material()


def test_kept_boards_are_copies_and_a_bad_fen_is_refused_each_time() -> None:
    """apply_moves pushes on the board it is given: a kept board handed out itself would
    carry the moves into the next request. python-chess gives the FEN after the moves."""
    adapter = ReferenceAdapter()
    adapter.start()
    start = chess.STARTING_FEN
    played = chess.Board()
    for uci in ("e2e4", "e7e5"):
        played.push_uci(uci)
    for _ in range(2):
        assert adapter.run("apply_moves", "fide-2023", {"fen": start, "moves": ["e2e4", "e7e5"]}) \
            == {"fen": played.fen()}
        assert len(adapter.run("legal_moves", "fide-2023", {"fen": start})["moves"]) \
            == chess.Board().legal_moves.count()
    bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"  # five fields
    for _ in range(2):
        answer = adapter.run("validate_fen", "fide-2023", {"fen": bad})
        assert answer["valid"] is False and answer["reason"]
