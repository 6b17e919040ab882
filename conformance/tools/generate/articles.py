"""Fixtures for the move-layer articles no other fixture decides by itself.

Every article a rule table cites is cited by at least three fixtures (issue 23). The
other generators cite the articles that decide their positions (checks, pins, castling,
en passant, promotion), which leaves the plain moves of each piece, the board's edge,
pawn captures, castling blocked by a piece between king and rook, and the initial array.
Here: three ``legal_moves`` positions per piece and rule, each citing its article (the
2018, 2014 and US Chess articles are added by :func:`.common.fixture`), the moves from
python-chess; and three ``game`` fixtures played from the ruleset's initial array
(``fen: null``), whose mates only that array allows.

Run: ``python -m conformance.tools.generate.articles --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

from .common import ORACLE, STANDARD, STANDARD_AND_960, Fixture, OracleMismatch, checked_board, fixture, main

#: (name, article, what the article says, FENs): three positions each, White to move.
PIECES: list[tuple[str, str, str, list[str]]] = [
    ("king", "fide-2023:3.8.1", "3.8.1: the king moves 'to an adjoining square' (US Chess 8A1)",
     ["4k3/8/8/8/3K4/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/K7 w - - 0 1", "4k3/8/8/8/8/8/3PP3/3K4 w - - 0 1"]),
    ("queen", "fide-2023:3.4", "3.4: the queen moves 'to any square along the file, the rank or a "
     "diagonal on which it stands' (US Chess 8B)",
     ["4k3/8/8/8/3Q4/8/8/K7 w - - 0 1", "7k/8/8/8/8/2P5/1Q6/K7 w - - 0 1", "1k6/8/8/8/8/8/6K1/7Q w - - 0 1"]),
    ("rook", "fide-2023:3.3", "3.3: the rook moves 'to any square along the file or the rank on which it "
     "stands' (US Chess 8C)",
     ["4k3/8/8/8/3R4/8/8/K7 w - - 0 1", "7k/8/8/8/8/8/P7/R3K3 w - - 0 1", "6k1/8/8/3p4/8/3R4/8/K7 w - - 0 1"]),
    ("bishop", "fide-2023:3.2", "3.2: the bishop 'may move to any square along a diagonal on which it "
     "stands' (US Chess 8D)",
     ["4k3/8/8/8/3B4/8/8/K7 w - - 0 1", "6k1/8/8/8/8/8/8/B3K3 w - - 0 1", "6k1/8/1p6/8/3B4/4P3/8/K7 w - - 0 1"]),
    ("knight", "fide-2023:3.6", "3.6: the knight 'may move to one of the squares nearest to that on which "
     "it stands but not on the same rank, file or diagonal' (US Chess 8E)",
     ["4k3/8/8/8/3N4/8/8/K7 w - - 0 1", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", "4k3/8/8/8/8/1P6/2P5/N3K3 w - - 0 1"]),
    ("pawn-captures", "fide-2023:3.7.3", "3.7.3: 'the pawn may move to a square occupied by an opponent's "
     "piece diagonally in front of it on an adjacent file, capturing that piece' (3.7: the pawn; US Chess "
     "8F4)",
     ["4k3/8/8/3p1p2/4P3/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/p1p5/1P6/4K3 w - - 0 1",
      "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1"]),
]
#: A pawn on the last rank must become a piece (3.7.3.3; 2018 3.7.5.1; 2014 3.7 e; US 8F6).
PROMOTION: list[tuple[str, str]] = [
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "the pawn on b7 can only become a piece on b8"),
    ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "the pawn on b7 promotes on b8 or by taking on a8"),
    ("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1", "Black's pawn on g2 can only become a piece on g1"),
]
Q_PROMOTION = ("FIDE 2023 3.7.3.3: 'when a player, having the move, plays a pawn to the rank furthest from "
               "its starting position, he/she must exchange that pawn as part of the same move for a new "
               "queen, rook, bishop or knight of the same colour'; 2018 3.7.5.1 the same words (with 'he'); "
               "2014 3.7 e; US Chess 8F6: 'on reaching the last rank, a pawn must immediately be exchanged, "
               "as part of the same move, for the player's choice of a queen, a rook, a bishop, or a "
               "knight': no move leaves a pawn on its last rank")
#: Castling on either side (3.8.2; 2014 3.8 a; US Chess 8A2).
CASTLING: list[tuple[str, str]] = [
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "White may castle on either side"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "Black may castle on either side"),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "White may castle king-side"),
]
Q_CASTLING = ("FIDE 2023 3.8.2 (2018 alike): castling is 'a move of the king and either rook of the same "
              "colour along the player's first rank ... the king is transferred from its original square "
              "two squares towards the rook on its original square, then that rook is transferred to the "
              "square the king has just crossed'; 2014 3.8 a (ii); US Chess 8A2: 'the king is transferred "
              "from its original square two squares toward either rook on the same rank; then, that rook "
              "is transferred over the king to the square adjacent to the king'")
#: The board's edge stops riders and leapers: (FEN, the cornered piece's article, what).
BOARD: list[tuple[str, str, str]] = [
    ("4k3/8/8/8/8/8/8/R6K w - - 0 1", "fide-2023:3.3",
     "a rook in the corner: seven squares up the file, six along the rank"),
    ("7k/8/8/8/8/8/8/N3K3 w - - 0 1", "fide-2023:3.6", "a knight in the corner reaches two squares"),
    ("4k3/8/8/8/8/8/8/B3K3 w - - 0 1", "fide-2023:3.2", "a bishop in the corner has one diagonal"),
]
#: Castling prevented by a piece between king and rook (3.8.2.2.2), the rights kept.
BLOCKED: list[tuple[str, str]] = [
    ("r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1", "knights on b1 and g1: neither castling"),
    ("r3k2r/8/8/8/8/8/8/R2QKB1R w KQkq - 0 1", "queen on d1, bishop on f1: neither castling"),
    ("rn2k1nr/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "Black's knights on b8 and g8: neither castling"),
]
Q_BOARD = ("2.1: 'the chessboard is composed of an 8 x 8 grid of 64 equal squares' (US Chess 2B): a piece "
           "stops at the edge")
Q_BLOCKED = ("3.8.2.2.2: castling is prevented temporarily 'if there is any piece between the king and the "
             "rook with which castling is to be effected' (2014 3.8 b (2) b; US Chess 8A4 b)")
#: Games from the initial array (``fen: null``): (name, SAN, result, what).
GAMES: list[tuple[str, str, str, str]] = [
    ("fools-mate", "f3 e5 g4 Qh4#", "0-1", "Black mates on move 2"),
    ("scholars-mate", "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#", "1-0", "White mates on move 4"),
    ("queen-h5-mate", "e4 g5 d4 f6 Qh5#", "1-0", "White mates on move 3"),
]
Q_SETUP = ("2.3: the initial position of the pieces (2014 2.3, US Chess 3C; Chess960 without a start "
           "number: position 518, the same array); 5.1.1: 'the game is won by the player who has "
           "checkmated his/her opponent's king' (US Chess 13A): the mate needs the f-, g- and e-pawns "
           "and queens where the array puts them")


def _legal(fid: str, fen: str, description: str, cites: list[str], detail: str,
           rulesets: list[str]) -> Fixture:
    board = checked_board(fen)
    return fixture(fid, "legal_moves", description, rulesets, {"fen": fen},
                   expect={"moves": sorted(board.uci(m) for m in board.legal_moves)}, cites=cites,
                   tags={"hand-built", "piece-moves"}, method="laws+oracle",
                   detail=f"{detail}; {ORACLE} Board.legal_moves")


def legal_fixtures() -> list[Fixture]:
    """Three positions per piece, the board's edge and blocked castling."""
    out = []
    for name, cite, quote, fens in PIECES:
        for index, fen in enumerate(fens, 1):
            cites = [cite, "fide-2023:3.7"] if name == "pawn-captures" else [cite]
            out.append(_legal(f"legal.article.{name}.{index}", fen, f"the moves of the {name.split('-')[0]}"
                              f" (position {index})", cites, quote, STANDARD_AND_960))
    for index, (fen, piece, what) in enumerate(BOARD, 1):
        out.append(_legal(f"legal.article.board-edge.{index}", fen, what, ["fide-2023:2.1", piece], Q_BOARD,
                          STANDARD_AND_960))
    for index, (fen, what) in enumerate(PROMOTION, 1):
        out.append(_legal(f"legal.article.promotion.{index}", fen, what, ["fide-2023:3.7.3.3"], Q_PROMOTION,
                          STANDARD_AND_960))
    for index, (fen, what) in enumerate(CASTLING, 1):
        out.append(_legal(f"legal.article.castling-sides.{index}", fen, what,
                          ["fide-2023:3.8.2", "uci:moves"], Q_CASTLING, STANDARD))
    for index, (fen, what) in enumerate(BLOCKED, 1):
        board = chess.Board(fen)
        if any(board.is_castling(m) for m in board.legal_moves):
            raise OracleMismatch(f"legal.article.castling-blocked.{index}: a castling move is legal")
        out.append(_legal(f"legal.article.castling-blocked.{index}", fen, what,
                          ["fide-2023:3.8.2.2.2", "fide-2023:3.8.2", "uci:moves"], Q_BLOCKED, STANDARD))
    return out


def game_fixtures() -> list[Fixture]:
    """Mates from the initial array, which the input leaves to the ruleset (``fen: null``)."""
    out = []
    for name, san, result, what in GAMES:
        board = chess.Board()
        moves = []
        for text in san.split():
            move = board.parse_san(text)
            moves.append(move.uci())
            board.push(move)
        if not board.is_checkmate() or board.result() != result:
            raise OracleMismatch(f"game.initial-array.{name}: python-chess {board.result()}")
        out.append(fixture(
            f"game.initial-array.{name}", "game", f"from the ruleset's initial array: {what}",
            STANDARD_AND_960, {"fen": None, "time_control": None, "events": [{"move": m} for m in moves]},
            expect={"result": result, "reason": "checkmate"},
            cites=["fide-2023:2.3", "fide-2023:5.1.1"], tags={"hand-built", "checkmate"},
            method="laws+oracle", detail=f"{Q_SETUP}; {ORACLE} plays {san} from its starting position "
                                         "and reports checkmate"))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """legal_moves and game fixtures for the move-layer articles."""
    del data
    return {"legal_moves-articles.jsonl": legal_fixtures(), "game-articles.jsonl": game_fixtures()}


if __name__ == "__main__":
    sys.exit(main("articles", build))
