"""The reference adapter's optional ``helpmate`` field (protocol v1, not compared):
a line python-chess replays to the right side's checkmate."""

from __future__ import annotations

import chess
import pytest

from conformance.adapters import reference


def _mates(fen: str, line: list[str], winner: chess.Color) -> bool:
    board = chess.Board(fen)
    for uci in line:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, (uci, board.fen())
        board.push(move)
    return board.is_checkmate() and board.turn != winner


@pytest.mark.parametrize(
    ("fen", "flagged"),
    [
        ("k2r4/bq4p1/PR6/4p3/8/4PQ1P/2P2PP1/6K1 b - - 6 36", "black"),  # lichess Ci4ODTTK
        ("8/8/8/4k3/4p3/8/8/3NK3 b - - 0 1", "black"),  # K+N v K+P: the pawn must block (6.9)
    ],
)
def test_fide_2023_6_9_timeout_loss_carries_the_opponents_helpmate(fen: str, flagged: str) -> None:
    answer = reference.timeout("fide-2023", {"fen": fen, "flagged": flagged})
    winner = chess.WHITE if flagged == "black" else chess.BLACK
    assert answer["result"] == ("1-0" if winner == chess.WHITE else "0-1")
    assert _mates(fen, answer["helpmate"], winner)


def test_fide_2023_6_9_draw_carries_no_helpmate() -> None:
    answer = reference.timeout("fide-2023", {"fen": "8/8/8/8/8/8/4k3/K1N5 b - - 0 1", "flagged": "black"})
    assert answer == {"result": "1/2-1/2"}


def test_fide_2023_5_2_2_not_dead_carries_a_helpmate_dead_carries_none() -> None:
    alive = "8/8/4b3/4k3/8/8/8/2B1K3 w - - 0 1"  # opposite-coloured bishops: a mate in the corner
    answer = reference.dead_position("fide-2023", {"fen": alive})
    assert answer["dead"] is False
    assert _mates(alive, answer["helpmate"], chess.WHITE) or _mates(alive, answer["helpmate"], chess.BLACK)
    assert reference.dead_position("fide-2023", {"fen": "8/8/4b3/4k3/8/8/8/3BK3 w - - 0 1"}) == {"dead": True}
