"""``game`` fixtures for ``fide-2023-chess960``: the FIDE 2023 games that do not castle.

FIDE Guidelines II.1: after the random initial array, Chess960 "is played as in
regular chess"; only castling (II.3) differs. So every whole game of :mod:`.games`
judged under ``fide-2023`` has the same verdict under ``fide-2023-chess960`` when it
neither castles nor touches a king or rook (touch-move's castling rules, 4.4, meet
II.3's castling; python-chess replays the moves to see what a touch lands on), and without a FEN it starts from the ruleset's initial array, number
518, which is the standard one. Each case is taken with its ``fide-2023`` expectation
as written by hand in :mod:`.games`; the cases that castle or touch a king or rook are
left out. Touch-move's castling rules (4.4) get their own cases in Chess960 positions:
king beside its rook, or a castling that moves only the king or only the rook; their
verdicts come from the Laws' text, and python-chess says whether castling is legal.

Run: ``python -m conformance.tools.generate.chess960_games --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import chess

from .common import ORACLE, Fixture, OracleMismatch, checked_board, main
from .games import CASE_GROUPS, F23, ONGOING, REJECTED, Case, Expect, case_fixture, touch, verdicts
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


# --- touch-move and Chess960 castling -------------------------------------------------

Q_CASTLE = ("FIDE 2023 4.4.1: 'if a player having the move touches his/her king and a rook, he/she must "
            "castle on that side if it is legal to do so'")
Q_ROOK = ("FIDE 2023 4.4.2: 'if a player deliberately touches a rook and then his/her king he/she is not "
          "allowed to castle on that side on that move and the situation shall be governed by Article "
          "4.3.1'; 4.3.1: 'he/she must move the first piece touched that can be moved'")
Q_KING_ELSE = ("FIDE 2023 4.4.3: 'if a player, intending to castle, touches the king and then a rook, but "
               "castling with this rook is illegal, the player must make another legal move with his/her "
               "king (which may include castling with the other rook)'")
Q_II = ("Guidelines II.1: Chess960 'is played in the same way as regular chess', so Article 4 applies; "
        "II.3.2.5 recommends moving the king first, then the rook, then placing the king; II.3.2.7.2: "
        "'in some starting positions, the king or rook (but not both) do not move during castling'; "
        "python-chess (chess960) says whether castling with the touched rook is legal")
#: King b1 beside its rook a1: c-side castling (b1a1) takes the king one square to c1,
#: the square a plain king step also reaches, and the rook over it to d1 (II.3.2.6).
ADJACENT_FEN = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"
#: King g1, rook h1: g-side castling (g1h1) moves only the rook, to f1 (II.3.2.4).
KING_STAYS_FEN = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1"
#: King d1, rook f1: g-side castling (d1f1) moves only the king, over the rook to g1 (II.3.2.3).
ROOK_STAYS_FEN = "r2k1r2/pppppppp/8/8/8/8/PPPPPPPP/R2K1R2 w FAfa - 0 1"
#: As ADJACENT_FEN with a knight on d1, the rook's c-side destination and on the king's way
#: to g1: no castling on either side (II.3.2.7.4).
BLOCKED_FEN = "rk1n3r/pppppppp/8/8/8/8/PPPPPPPP/RK1N3R w HAha - 0 1"
T_CASTLE = ("fide-2023:4.4.1", "fide-2023:II.1")
T_ROOK = ("fide-2023:4.4.2", "fide-2023:4.3.1", "fide-2023:II.1")
T_KING_ELSE = ("fide-2023:4.4.3", "fide-2023:II.1", "fide-2023:II.3.2.7.4")
II_BOTH = ("fide-2023:II.3.2.1",)  #: double-move castling: king and rook both move
II_KING_STAYS = ("fide-2023:II.3.2.4", "fide-2023:II.3.2.7.2")
II_ROOK_STAYS = ("fide-2023:II.3.2.3", "fide-2023:II.3.2.7.2")

#: (name, description, FEN, squares touched in order, move, verdict, cites, quote, whether
#: castling with the touched rook is legal): the verdicts come from the quoted Laws.
TOUCHES: list[tuple[str, str, str, tuple[str, ...], str, Expect, tuple[str, ...], str, bool]] = [
    ("adjacent.castle", "King b1 beside rook a1: White touches the king, then the rook, and castles "
     "c-side (king to c1, rook to d1)", ADJACENT_FEN, ("b1", "a1"), "b1a1", ONGOING,
     T_CASTLE + II_BOTH, Q_CASTLE, True),
    ("adjacent.king-steps", "King b1 beside rook a1: White touches the king, then the rook, and steps "
     "the king to c1, its castling square, leaving the rook on a1", ADJACENT_FEN, ("b1", "a1"), "b1c1",
     REJECTED, T_CASTLE + II_BOTH, Q_CASTLE, True),
    ("adjacent.rook-first.castle", "King b1 beside rook a1: White touches the rook, then the king, and "
     "castles c-side", ADJACENT_FEN, ("a1", "b1"), "b1a1", REJECTED, T_ROOK + II_BOTH, Q_ROOK,
     True),
    ("adjacent.rook-first.king-steps", "King b1 beside rook a1: White touches the rook (which cannot move "
     "but by castling), then the king, and steps the king to c1", ADJACENT_FEN, ("a1", "b1"), "b1c1",
     ONGOING, T_ROOK + II_BOTH, Q_ROOK, True),
    ("king-stays.castle", "King g1, rook h1: White touches the king, then the rook, and castles g-side "
     "(only the rook moves, to f1)", KING_STAYS_FEN, ("g1", "h1"), "g1h1", ONGOING,
     T_CASTLE + II_KING_STAYS, Q_CASTLE, True),
    ("king-stays.king-steps", "King g1, rook h1: White touches the king, then the rook, and steps the "
     "king to f1", KING_STAYS_FEN, ("g1", "h1"), "g1f1", REJECTED, T_CASTLE + II_KING_STAYS,
     Q_CASTLE, True),
    ("king-stays.rook-first.castle", "King g1, rook h1: White touches the rook, then the king, and "
     "castles g-side (only the rook moves)", KING_STAYS_FEN, ("h1", "g1"), "g1h1", REJECTED,
     T_ROOK + II_KING_STAYS, Q_ROOK, True),
    ("king-stays.rook-first.king-steps", "King g1, rook h1: White touches the rook (which cannot move but "
     "by castling), then the king, and steps the king to f1", KING_STAYS_FEN, ("h1", "g1"), "g1f1",
     ONGOING, T_ROOK + II_KING_STAYS, Q_ROOK, True),
    ("rook-stays.castle", "King d1, rook f1: White touches the king, then the rook, and castles g-side "
     "(only the king moves, to g1)", ROOK_STAYS_FEN, ("d1", "f1"), "d1f1", ONGOING,
     T_CASTLE + II_ROOK_STAYS, Q_CASTLE, True),
    ("rook-stays.king-steps", "King d1, rook f1: White touches the king, then the rook, and steps the "
     "king to e1", ROOK_STAYS_FEN, ("d1", "f1"), "d1e1", REJECTED, T_CASTLE + II_ROOK_STAYS,
     Q_CASTLE, True),
    ("rook-stays.rook-first.castle", "King d1, rook f1: White touches the rook, then the king, and "
     "castles g-side (only the king moves)", ROOK_STAYS_FEN, ("f1", "d1"), "d1f1", REJECTED,
     T_ROOK + II_ROOK_STAYS, Q_ROOK, True),
    ("rook-stays.rook-first.rook-moves", "King d1, rook f1: White touches the rook, then the king, and "
     "moves the rook to g1", ROOK_STAYS_FEN, ("f1", "d1"), "f1g1", ONGOING, T_ROOK + II_ROOK_STAYS, Q_ROOK,
     True),
    ("blocked.king-steps", "King b1, rook a1, knight d1 on the rook's castling square: White touches "
     "the king, then the rook, and steps the king to c1", BLOCKED_FEN, ("b1", "a1"), "b1c1", ONGOING,
     T_KING_ELSE, Q_KING_ELSE, False),
    ("blocked.knight-moves", "King b1, rook a1, knight d1 on the rook's castling square: White touches "
     "the king, then the rook, and moves the knight", BLOCKED_FEN, ("b1", "a1"), "d1e3", REJECTED,
     T_KING_ELSE, Q_KING_ELSE, False),
    ("blocked.g-side.king-steps", "King b1, rooks a1 and h1, knight d1 on the king's way to g1: White "
     "touches the king, then the h1 rook, and steps the king to c1", BLOCKED_FEN, ("b1", "h1"), "b1c1",
     ONGOING, T_KING_ELSE, Q_KING_ELSE, False),
    ("blocked.g-side.rook-moves", "King b1, rooks a1 and h1, knight d1 on the king's way to g1: White "
     "touches the king, then the h1 rook, and moves the rook to g1", BLOCKED_FEN, ("b1", "h1"), "h1g1",
     REJECTED, T_KING_ELSE, Q_KING_ELSE, False),
]


def touch_cases() -> list[Case]:
    """Touch-move's castling rules (4.4) in Chess960 positions where king and rook stand
    side by side or one of them does not move when castling; python-chess (chess960)
    confirms castling with the touched rook is legal or not, and every move is legal."""
    out = []
    for name, description, fen, squares, move, expect, cites, quote, castles in TOUCHES:
        board = checked_board(fen, chess960=True)
        fid = f"chess960.touch.{name}"
        king, rook = sorted(map(chess.parse_square, squares),
                            key=lambda sq: board.piece_type_at(sq) != chess.KING)
        castling = chess.Move(king, rook)  # python-chess writes Chess960 castling king-takes-rook
        legal = castling in board.legal_moves and board.is_castling(castling)
        if legal != castles:
            raise OracleMismatch(f"{fid}: python-chess says castling with {squares} "
                                 f"is {'legal' if legal else 'illegal'} in {fen}")
        if chess.Move.from_uci(move) not in board.legal_moves:
            raise OracleMismatch(f"{fid}: python-chess finds {move} illegal in {fen}")
        verdict = "the move breaks the obligation, so it is rejected" if expect == REJECTED else \
            "the move meets the obligation and the game goes on"
        out.append(Case(fid, description, [touch(sq) for sq in squares] + [{"move": move}],
                        cites, ("touch-move", "castling", "chess960"), f"{quote}; {Q_II}; {verdict}",
                        default=expect, fen=fen, rulesets=(CHESS960,), method="laws+oracle", chess960=True))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """game fixtures: FIDE 2023's games without castling, under Chess960, and touch-move's
    castling rules in Chess960 positions; Chess960 castling where only the rook shields
    the king's path (legal_moves)."""
    del data
    return {"game-chess960.jsonl": [case_fixture(case) for case in chess960_cases() + touch_cases()],
            "legal_moves-chess960-castling.jsonl": shielded_fixtures()}


if __name__ == "__main__":
    sys.exit(main("chess960_games", build))
