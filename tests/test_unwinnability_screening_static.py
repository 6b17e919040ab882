"""The screening's static answers (``arbiter unwinnable --batch --quick``) against the
static stage's specification, the interpreter's :mod:`reference_impl.unwinnability.static`
and :mod:`.mate`.

The compiled stage behind the screening fills floods a whole frontier at a time, keeps
each pawn's promotion floods for the walls of a call, leaves out a promotion choice whose
moves another choice has (read from the move tables), and reuses a pawn's unit when its
prey and block recur. Each of these must leave every answer as it was: on the positions
a game can reach among the labelled vectors, the Lichess sample and positions a few
random moves (captures preferred) away from them, for each colour, the screening proves
``cannot`` (stage ``static``) exactly where the interpreter's static stage proves it.
"""

from __future__ import annotations

import pytest
from test_unwinnability_static_native import CHESS960, RULES, _walks

from reference_impl import Board
from reference_impl.unwinnability import Verdict, batch
from reference_impl.unwinnability.search import static_proofs


def _compare(boards: list[Board]) -> int:
    """Assert the screening and the interpreter agree on every board with a legal move,
    for both colours; the number of proofs."""
    boards = [board for board in boards if board.legal_codes()]
    items = [(board, color) for board in boards for color in (0, 1)]
    answers = batch.screen(items)
    proofs = 0
    for (board, color), answer in zip(items, answers):
        expected = color in static_proofs(board, (color,))
        assert (answer.verdict is Verdict.CANNOT) == expected, (board.fen(), color)
        if expected:
            assert answer.stage == "static"
            proofs += 1
    return proofs


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("seed", range(3))
def test_screening_proves_what_the_interpreters_static_stage_proves(seed: int) -> None:
    assert _compare(_walks(RULES, 600, 50 + seed)) > 50  # the proofs are exercised, not only "no proof"


def test_screening_under_chess960_rules_proves_what_the_interpreter_proves() -> None:
    assert _compare(_walks(CHESS960, 200, 9)) > 0
