"""Cross-check of FIDE repetition and the 50/75-move rules against python-chess.

python-chess implements FIDE 9.2 (claim, with claim-ahead), 9.3, 9.6.1 (fivefold, not
consecutive) and 9.6.2 - so on random game prefixes the Game must agree with
``can_claim_threefold_repetition``, ``can_claim_fifty_moves``,
``is_fivefold_repetition`` and ``is_seventyfive_moves`` at every ply. The one known
difference is python-chess#1188: python-chess rejects a 50-move claim whose intended
move mates or stalemates, which FIDE 9.3.1 accepts; every mismatch must be that case.
The random walks are biased to undo recent moves so that positions repeat.
"""

from __future__ import annotations

import random

import chess
import pytest

from reference_impl.adjudication import repetition as rep
from reference_impl.adjudication.game import Game
from reference_impl.rules.loader import derive_ruleset
from reference_impl.rules.model import RepetitionAutomatic

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 20",
    "4k3/8/3q4/8/8/3Q4/8/4K3 w - - 90 80",
    "6k1/5p2/8/8/8/8/5P2/R5K1 w - - 95 60",
    "8/8/4k3/8/2r5/8/3R4/4K3 b - - 140 120",
    "8/5k2/8/3n4/8/2B5/8/4K3 w - - 145 150",
]

# The dead-position check is not under test here and costs time on every move.
RULES = derive_ruleset("fide-2023", {"termination": {"dead_position": None}}, id="fide-2023-no-dead")


def _automatic() -> RepetitionAutomatic:
    entry = RULES.model.repetition.automatic
    assert entry is not None
    return entry


def _pick(board: chess.Board, rng: random.Random) -> chess.Move:
    moves = list(board.legal_moves)
    if len(board.move_stack) >= 2 and rng.random() < 0.75:
        back = board.move_stack[-2]
        undo = chess.Move(back.to_square, back.from_square)
        if undo in moves:
            return undo
    quiet = [m for m in moves if not board.is_zeroing(m)]
    return rng.choice(quiet if quiet and rng.random() < 0.9 else moves)


def _walk(seed: int) -> tuple[int, list[str]]:
    rng = random.Random(seed)
    fen = STARTS[seed % len(STARTS)]
    board = chess.Board(fen)
    game = Game(RULES, fen)
    checked = 0
    mismatches: list[str] = []
    for _ in range(60):
        if board.is_game_over() or game.finished:
            break
        move = _pick(board, rng)
        board.push(move)
        game.move(move.uci())
        if game.finished or board.is_checkmate() or board.is_stalemate():
            assert game.status().reason == ("checkmate" if board.is_checkmate() else
                                            "stalemate" if board.is_stalemate() else
                                            "fivefold_repetition" if board.is_fivefold_repetition() else
                                            "seventy_five_moves"), board.fen()
            break
        checked += 1
        claims = {c.claim: c for c in game.claims()}
        ours_fivefold = rep.automatic_repetition(game._keys, _automatic())
        assert ours_fivefold == board.is_fivefold_repetition(), board.fen()
        assert (game.board.halfmove_clock >= 150) == board.is_seventyfive_moves(), board.fen()
        assert ("threefold_repetition" in claims) == board.can_claim_threefold_repetition(), board.fen()
        if ("fifty_moves" in claims) != board.can_claim_fifty_moves():
            mismatches.append(board.fen())
            claim = claims["fifty_moves"]
            assert not claim.now
            for uci in claim.moves:  # each intended move ends the game: python-chess#1188
                after = board.copy()
                after.push_uci(uci)
                assert after.is_checkmate() or after.is_stalemate(), (board.fen(), uci)
    return checked, mismatches


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("block", range(4))
def test_fide_2023_9_2_9_3_9_6_agree_with_python_chess_on_random_walks(block: int) -> None:
    total = 0
    for seed in range(block * 30, block * 30 + 30):
        checked, _ = _walk(seed)
        total += checked
    assert total > 500  # the walks really ran


def test_the_walks_reach_every_rule() -> None:
    # Make sure the comparison is not vacuous: over the seeds, each rule fires.
    seen = set()
    for seed in range(0, 120, 7):
        rng = random.Random(seed)
        fen = STARTS[seed % len(STARTS)]
        board = chess.Board(fen)
        for _ in range(60):
            if board.is_game_over():
                break
            board.push(_pick(board, rng))
            seen |= {name for name, hit in [
                ("threefold", board.can_claim_threefold_repetition()),
                ("fifty", board.can_claim_fifty_moves()),
                ("fivefold", board.is_fivefold_repetition()),
                ("seventyfive", board.is_seventyfive_moves()),
            ] if hit}
    assert seen == {"threefold", "fifty", "fivefold", "seventyfive"}
