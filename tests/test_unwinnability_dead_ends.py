"""The static stage's dead ends against an independent exhaustive enumeration.

A dead end is a square whose entry by a king leaves the other side, whose only mobile
unit is its king, without a legal move (:mod:`reference_impl.unwinnability.static`).
Here: positions a few random moves from the labelled vectors where the dead ends
prove a side unable to mate that the analysis without them does not. Two independent
checks: the compiled helpmate search (which shares no code with the static stage and
only returns real mating lines) must find no mate for a side proven unable; and where
the whole reachable space is small, python-chess (its own move generator, positions
told apart by placement, turn, castling rights and legal e.p. square) enumerates every
reachable position, none of which may be a checkmate by that side.
"""

from __future__ import annotations

import chess
import pytest

from reference_impl import Board, load_ruleset
from reference_impl.unwinnability import native
from reference_impl.unwinnability.mate import cannot_mate
from reference_impl.unwinnability.search import placement_of, static_proofs
from reference_impl.unwinnability.static import analyse_static

pytestmark = pytest.mark.slow  # left out of `tox -e fast`

RULES = load_ruleset("fide-2023")
#: Enumerations larger than this are left out (most dead-end positions have 4 to 340).
ENUMERATION_CAP = 1_000
#: Measured with the seeds below: 94 proofs that only the dead ends make are checked by
#: enumeration, and all 140 by the helpmate search (which, with every square a king could
#: step to taken for a dead end, finds mates against some of the proofs made then).
MIN_CHECKED = 80
MIN_SEARCHED = 120
HELPMATE_LIMIT = 20_000


def _key(board: chess.Board) -> str:
    return " ".join(board.fen(en_passant="legal").split()[:4])


def _reachable_mates(fen: str, cap: int) -> set[bool] | None:
    """The colours (python-chess's) that checkmate in some position reachable from
    ``fen``, or None if more than ``cap`` positions are reachable."""
    root = chess.Board(fen)
    seen, stack, mates = {_key(root)}, [root.fen()], set()
    while stack:
        board = chess.Board(stack.pop())
        if board.is_checkmate():
            mates.add(not board.turn)
            continue
        for move in board.legal_moves:
            board.push(move)
            key = _key(board)
            if key not in seen:
                seen.add(key)
                if len(seen) > cap:
                    return None
                stack.append(board.fen())
            board.pop()
    return mates


def _dead_end_cases(seed: int, count: int) -> list[tuple[str, set[int]]]:
    """Positions near the labelled vectors with the colours only the dead ends prove."""
    from test_unwinnability_static_native import _walks

    cases = []
    for board in _walks(RULES, count, seed):
        if not board.legal_codes():
            continue
        placement = placement_of(board)
        plain = analyse_static(placement, dead_ends=False)
        only = {c for c in static_proofs(board, (0, 1)) if not cannot_mate(placement, plain, c)}
        if only:
            cases.append((board.fen(), only))
    return cases


def test_fide_2023_5_2_2_dead_end_proofs_hold_in_every_reachable_position() -> None:
    enumerated = searched = 0
    for seed in range(2):
        for fen, unable in _dead_end_cases(seed, 1200):
            board = Board.from_fen(fen, RULES)
            for color in unable:
                result = native.helpmate(board, color, HELPMATE_LIMIT)
                assert result.status != "mate", (fen, color, result.line)
                searched += 1
            mates = _reachable_mates(fen, ENUMERATION_CAP)
            if mates is None:
                continue
            for color in unable:
                assert (color == 0) not in mates, (fen, color)
                enumerated += 1
    assert searched >= MIN_SEARCHED
    assert enumerated >= MIN_CHECKED
