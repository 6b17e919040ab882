"""The reference adapter's optional ``helpmate`` field (protocol v1, not compared):
a line python-chess replays to the right side's checkmate."""

from __future__ import annotations

import json

import chess
import pytest

from conformance.implementations import reference
from conformance.harness import server
from reference_impl.unwinnability import Analysis, Verdict

from helpmate_oracle import mates


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
    assert mates(fen, answer["helpmate"], winner)


def test_fide_2023_6_9_draw_carries_no_helpmate() -> None:
    answer = reference.timeout("fide-2023", {"fen": "8/8/8/8/8/8/4k3/K1N5 b - - 0 1", "flagged": "black"})
    assert answer == {"result": "1/2-1/2"}


def test_fide_2023_5_2_2_not_dead_carries_a_helpmate_dead_carries_none() -> None:
    alive = "8/8/4b3/4k3/8/8/8/2B1K3 w - - 0 1"  # opposite-coloured bishops: a mate in the corner
    answer = reference.dead_position("fide-2023", {"fen": alive})
    assert answer["dead"] is False
    assert mates(alive, answer["helpmate"], chess.WHITE) or mates(alive, answer["helpmate"], chess.BLACK)
    assert reference.dead_position("fide-2023", {"fen": "8/8/4b3/4k3/8/8/8/3BK3 w - - 0 1"}) == {"dead": True}


def test_a_line_too_long_for_one_protocol_line_is_cut_and_marked_not_errored() -> None:
    # a walk once reported a 202,582-ply line for k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 b;
    # as JSON that is about 1.8 MB, over the 1 MiB answer line, which ``encode`` would turn
    # into ``errored``: the field is cut to HELPMATE_MAX_PLIES and says how long it was
    plies = 202_582
    line = tuple(("c1b2", "b2c1")[i % 2] for i in range(plies))
    field = reference._helpmate([Analysis(Verdict.CAN, line, 0, "explore")])
    assert field["helpmate_truncated"] == plies
    assert field["helpmate"] == list(line[: reference.HELPMATE_MAX_PLIES])
    encoded = server.encode({"id": "1", "result": {"result": "1-0", **field}})
    assert len(encoded) <= server.LINE_LIMIT
    assert json.loads(encoded)["result"]["helpmate_truncated"] == plies


def test_a_line_within_the_bound_is_given_whole_without_marker() -> None:
    line = ("e2e4",) * reference.HELPMATE_MAX_PLIES
    assert reference._helpmate([Analysis(Verdict.CAN, line, 0, "helpmate")]) == {"helpmate": list(line)}
