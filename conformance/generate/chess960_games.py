"""``game`` fixtures for ``fide-2023-chess960``: the FIDE 2023 games that do not castle.

FIDE Guidelines II.1: after the random initial array, Chess960 "is played as in
regular chess"; only castling (II.3) differs. So every whole game of :mod:`.games`
judged under ``fide-2023`` has the same verdict under ``fide-2023-chess960`` when it
neither castles nor touches a king or rook (touch-move's castling rules, 4.4, meet
II.3's castling; python-chess replays the moves to see what a touch lands on), and without a FEN it starts from the ruleset's initial array, number
518, which is the standard one. Each case is taken with its ``fide-2023`` expectation
as written by hand in :mod:`.games`; the cases that castle or touch a king or rook are
left out.

Run: ``python -m conformance.generate.chess960_games --data conformance/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import chess

from .common import ORACLE, Fixture, OracleMismatch, checked_board, main
from .games import CASE_GROUPS, F23, Case, case_fixture, verdicts
from .moves import legal_fixture

CHESS960 = "fide-2023-chess960"
#: Castling in either notation (king two files, or king takes own rook) from the initial squares.
CASTLING = {"e1g1", "e1c1", "e8g8", "e8c8", "e1h1", "e1a1", "e8h8", "e8a8"}
II_1 = ("FIDE 2023 Guidelines II.1: Chess960 is played as in regular chess after the random initial "
        "array; only castling differs (II.3), and this game neither castles nor touches a king or "
        "rook, so the fide-2023 verdict holds")


def castles_or_touches(case: Case) -> bool:
    """True if an event of ``case`` castles or touches a king or a rook (4.4, castling's
    touch rules); touches of other pieces (4.3) are the same in Chess960."""
    board: chess.Board | None = chess.Board(case.fen or chess.STARTING_FEN)
    for event in case.events:
        if event.get("move") in CASTLING:
            return True
        if "touch" in event:  # after a move the game rejects, any touch counts
            piece = board.piece_at(chess.parse_square(event["touch"])) if board else None
            if board is None or piece is not None and piece.piece_type in (chess.KING, chess.ROOK):
                return True
        if "move" in event and board is not None:
            try:
                board.push_uci(event["move"])
            except ValueError:
                board = None
    return False


def chess960_cases() -> list[Case]:
    """Every fide-2023 game that neither castles nor touches a king or rook, for Chess960."""
    out = []
    for group in CASE_GROUPS:
        for case in group():
            if F23 not in case.rulesets or castles_or_touches(case):
                continue
            out.append(dataclasses.replace(
                case, name=f"chess960.{case.name}", rulesets=(CHESS960,), default=verdicts(case)[F23],
                by=(), cites=case.cites + ("fide-2023:II.1",), tags=case.tags + ("chess960",),
                detail=f"{case.detail}; {II_1}"))
    return out


#: Chess960 castling where only the castling rook shields a square of the king's from an
#: attacker: II.3.2 judges the squares with the rook gone (python-chess: no castling).
SHIELDED: list[tuple[str, str, str]] = [
    ("rook-shields-king-path", "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1",
     "king d1, rook b1, Black's rook a1: with the rook gone, a1 attacks c1, where the king goes"),
    ("rook-shields-king-destination", "4k3/8/8/8/8/8/8/rRK5 w B - 0 1",
     "king c1, rook b1, Black's rook a1: with the rook gone, a1 attacks c1, where the king stays"),
    ("rook-shields-black", "Qr1k4/8/8/8/8/8/8/4K3 b b - 0 1",
     "king d8, rook b8, White's queen a8: with the rook gone, a8 attacks c8, where the king goes"),
]


def shielded_fixtures() -> list[Fixture]:
    """legal_moves under Chess960: no castling where only the castling rook shields the king."""
    out = []
    for name, fen, what in SHIELDED:
        board = checked_board(fen, chess960=True)
        if any(board.is_castling(m) for m in board.legal_moves):
            raise OracleMismatch(f"{name}: python-chess allows castling in {fen}")
        out += legal_fixture(f"legal.chess960.{name}", board, f"{what}: no castling",
                             {"castling", "chess960"}, method="oracle+laws",
                             detail=f"{ORACLE} Board.legal_moves; FIDE 2023 II.3.2: castling is illegal "
                                    "if a square the king crosses or reaches is attacked, judged with "
                                    "the castling rook already gone from its square", shredder=True)
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """game fixtures: FIDE 2023's games without castling, under Chess960; and Chess960
    castling where only the rook shields the king's path (legal_moves)."""
    del data
    return {"game-chess960.jsonl": [case_fixture(case) for case in chess960_cases()],
            "legal_moves-chess960-castling.jsonl": shielded_fixtures()}


if __name__ == "__main__":
    sys.exit(main("chess960_games", build))
