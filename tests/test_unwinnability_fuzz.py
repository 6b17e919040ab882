"""Differential soundness check: the static proof against the helpmate search.

Positions near the labelled ones (1 to 12 random legal moves away, captures preferred,
so material and pawn structures change) and positions from capture-heavy random games.
Wherever the static stage (the compiled one the searches use, and the interpreter's it
is ported from) claims a side can never mate, the compiled helpmate search
(which shares no code with that proof and only returns real mating lines) must find no
mate; any line it finds is also replayed by python-chess.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess

from reference_impl import Board, FenError, load_ruleset
from reference_impl.unwinnability import native
from reference_impl.unwinnability.search import line_to_uci, static_proofs

import pytest

pytestmark = pytest.mark.slow  # left out of `tox -e fast`

DATA = Path(__file__).parent / "data" / "unwinnability" / "labelled.txt"
RULES = load_ruleset("fide-2023")
HELPMATE_LIMIT = 20_000


def _random_walk(board: Board, rng: random.Random, plies: int) -> Board:
    for _ in range(plies):
        moves = board.legal_codes()
        if not moves:
            break
        captures = [m for m in moves if board.is_capture_code(m)]
        board.push_code(rng.choice(captures if captures and rng.random() < 0.6 else moves))
    return board


def _counterexamples(board: Board) -> tuple[list[str], int]:
    """Contradicted static proofs in ``board``, and how many proofs were checked."""
    found = []
    proofs = static_proofs(board, (0, 1)) | native.static_stage(board, (0, 1))
    for color in proofs:
        search = native.helpmate(board, color, HELPMATE_LIMIT)
        line = list(search.line) if search.status == "mate" else None
        if line is not None:
            uci = line_to_uci(board, line)
            reference = chess.Board(board.fen())
            for move in uci:
                reference.push_uci(move)
            found.append(f"{board.fen()} colour {color}: {' '.join(uci)} (mate: {reference.is_checkmate()})")
    return found, len(proofs)


def _legal(fen: str) -> bool:
    try:
        Board.from_fen(fen, RULES)
    except FenError:
        return False
    return True


def test_static_cannot_never_contradicted_near_labelled_positions() -> None:
    rng = random.Random(2023)
    rows = [line.split(None, 1)[1].strip() for line in DATA.read_text().splitlines() if line and not line.startswith("#")]
    rows = [fen + (" 0 1" if len(fen.split()) == 4 else "") for fen in rows]
    rows = [fen for fen in rows if _legal(fen)]  # unreachable material is refused (3.10.3)
    problems, checked = [], 0
    for _ in range(150):
        fen = rng.choice(rows)
        found, proofs = _counterexamples(_random_walk(Board.from_fen(fen, RULES), rng, rng.randint(1, 12)))
        problems += found
        checked += proofs
    assert problems == []
    assert checked >= 100  # measured: 118 static proofs put to the test


def test_static_cannot_never_contradicted_in_random_games() -> None:
    rng = random.Random(5)
    problems, checked = [], 0
    for _ in range(120):
        found, proofs = _counterexamples(_random_walk(Board(RULES), rng, rng.randint(20, 160)))
        problems += found
        checked += proofs
    assert problems == []
    assert checked >= 50  # measured: 57
