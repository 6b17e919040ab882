"""``apply_moves`` fixtures whose last move breaks one named rule of Article 3.

Random playouts (``moves.py``) only find moves that leave the king in check. These
hand-built sequences cover the other ways a well-formed UCI move can be illegal: an
en passant capture by a pinned pawn, castling out of, through or into check, a double
step that is blocked or not the pawn's first move, a promotion letter on a move that
is not a promotion, and a promotion move without its letter. Every move before the
last is legal and the last is not, both checked with python-chess; castling cases
also get a Chess960 twin with the king-takes-rook form (``e1h1``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import chess

from .common import (CHESS960, ORACLE, STANDARD, STANDARD_AND_960, Fixture, OracleMismatch,
                     checked_board, fixture)

#: Illegal categories: tag -> (articles that forbid the last move, what it breaks).
CATEGORIES: dict[str, tuple[tuple[str, ...], str]] = {
    "illegal-ep-pinned": (("fide-2023:3.7.3.1", "fide-2023:3.9.2", "fide-2023:3.10.2"),
                          "the en passant capture would expose the capturer's king"),
    "illegal-castling-out-of-check": (("fide-2023:3.8.2.2.1", "fide-2023:3.10.2"),
                                      "castling while the king is in check"),
    "illegal-castling-through-check": (("fide-2023:3.8.2.2.1", "fide-2023:3.10.2"),
                                       "castling across an attacked square"),
    "illegal-castling-into-check": (("fide-2023:3.8.2.2.1", "fide-2023:3.10.2"),
                                    "castling onto an attacked square"),
    "illegal-double-step": (("fide-2023:3.7.2", "fide-2023:3.10.2"),
                            "a double step that is blocked or not the pawn's first move"),
    "illegal-promotion-letter": (("fide-2023:3.7.3.3", "uci:moves", "fide-2023:3.10.2"),
                                 "a promotion letter on a move that promotes nothing"),
    "illegal-missing-promotion": (("fide-2023:3.7.3.3", "uci:moves", "fide-2023:3.10.2"),
                                  "a pawn reaches the last rank with no promotion letter"),
}
#: (category tag, name, FEN, UCI moves in standard notation, what happens).
CASES: list[tuple[str, str, str, str, str]] = [
    ("illegal-ep-pinned", "rank", "8/8/8/r2Pp2K/8/8/4k3/8 w - e6 0 2", "d5e6",
     "dxe6 e.p. takes both pawns off the fifth rank and opens it to the rook on a5"),
    ("illegal-ep-pinned", "diagonal", "8/8/2k5/8/3Pp3/8/6B1/4K3 b - d3 0 1", "e4d3",
     "the e4 pawn is pinned by the bishop on g2 against the king on c6"),
    ("illegal-ep-pinned", "rank-after-double-step", "8/8/8/8/k3p2R/8/3P4/4K3 w - - 0 1",
     "d2d4 e4d3", "after d2-d4, exd3 e.p. would open the fourth rank to the rook on h4"),
    ("illegal-ep-pinned", "diagonal-after-double-step", "4k3/3p2b1/8/4P3/8/2K5/8/8 b - - 0 1",
     "d7d5 e5d6", "after ...d7-d5, exd6 e.p. would open the g7-c3 diagonal to the bishop"),
    ("illegal-castling-out-of-check", "rook-king-side", "4k3/8/8/8/8/4r3/8/R3K2R w KQ - 0 1",
     "e1g1", "the rook on e3 checks the king: no king-side castling"),
    ("illegal-castling-out-of-check", "rook-queen-side", "4k3/8/8/8/8/4r3/8/R3K2R w KQ - 0 1",
     "e1c1", "the rook on e3 checks the king: no queen-side castling"),
    ("illegal-castling-out-of-check", "after-check", "3r2k1/8/8/8/8/8/8/R3K2R b KQ - 0 1",
     "d8e8 e1g1", "...Re8+ and White tries to castle out of the check"),
    ("illegal-castling-out-of-check", "knight-black", "r3k2r/8/3N4/8/8/8/8/4K3 b kq - 0 1",
     "e8c8", "the knight on d6 checks the king: Black may not castle"),
    ("illegal-castling-through-check", "f1", "4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1", "e1g1",
     "the king would cross f1, attacked by the rook on f3"),
    ("illegal-castling-through-check", "d1", "4k3/8/8/8/8/3r4/8/R3K2R w KQ - 0 1", "e1c1",
     "the king would cross d1, attacked by the rook on d3"),
    ("illegal-castling-through-check", "d8-black", "r3k2r/8/8/8/8/8/8/3RK3 b kq - 0 1",
     "e8c8", "the king would cross d8, attacked by the rook on d1"),
    ("illegal-castling-through-check", "f8-after-bishop", "r3k2r/8/8/8/8/8/8/R1B1K2R w KQkq - 0 1",
     "c1a3 e8g8", "Ba3 attacks f8, which the black king would cross"),
    ("illegal-castling-into-check", "g1", "4k3/8/8/8/8/6r1/8/R3K2R w KQ - 0 1", "e1g1",
     "the king would land on g1, attacked by the rook on g3"),
    ("illegal-castling-into-check", "c1", "4k3/8/8/8/8/2r5/8/R3K2R w KQ - 0 1", "e1c1",
     "the king would land on c1, attacked by the rook on c3"),
    ("illegal-castling-into-check", "g8-black", "r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1", "e8g8",
     "the king would land on g8, attacked by the rook on g1"),
    ("illegal-castling-into-check", "g8-after-knight", "r3k2r/8/8/5N2/8/8/8/R3K2R w KQkq - 0 1",
     "f5h6 e8g8", "Nh6 attacks g8, where the black king would land"),
    ("illegal-double-step", "passed-square-occupied", chess.STARTING_FEN, "g1f3 e7e5 f2f4",
     "f2-f4 would jump the knight on f3"),
    ("illegal-double-step", "destination-occupied", "4k3/8/8/8/3p4/8/3P4/4K3 w - - 0 1",
     "d2d4", "d4 is occupied by a black pawn"),
    ("illegal-double-step", "passed-square-occupied-black", "4k3/3p4/3B4/8/8/8/8/4K3 b - - 0 1",
     "d7d5", "d7-d5 would jump the bishop on d6"),
    ("illegal-double-step", "not-first-move", "4k3/8/8/8/8/3P4/8/4K3 w - - 0 1", "d3d5",
     "a pawn on d3 has moved already: one square only"),
    ("illegal-promotion-letter", "double-step", chess.STARTING_FEN, "e2e4q",
     "e2-e4 written with a promotion letter"),
    ("illegal-promotion-letter", "knight", chess.STARTING_FEN, "g1f3n",
     "a knight move written with a promotion letter"),
    ("illegal-promotion-letter", "seventh-rank", "4k3/8/P7/8/8/8/8/4K3 w - - 0 1", "a6a7q",
     "a pawn reaching the seventh rank does not promote"),
    ("illegal-promotion-letter", "black-second-rank", "4k3/8/8/8/8/p7/8/4K3 b - - 0 1",
     "a3a2q", "a black pawn reaching the second rank does not promote"),
    ("illegal-missing-promotion", "push", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8",
     "a7-a8 without the piece it becomes"),
    ("illegal-missing-promotion", "capture", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8",
     "axb8 without the piece it becomes"),
    ("illegal-missing-promotion", "black", "4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1", "a2a1",
     "a black pawn reaches a1 without the piece it becomes"),
    ("illegal-missing-promotion", "after-moves", "4k3/8/P7/8/8/8/8/4K3 w - - 0 1",
     "a6a7 e8d7 a7a8", "after a7 and ...Kd7, a7-a8 without the piece it becomes"),
]


def _attacked(board: chess.Board, square: chess.Square) -> bool:
    return board.is_attacked_by(not board.turn, square)


def _castling_path(board: chess.Board, move: chess.Move) -> list[chess.Square]:
    """The squares the king crosses and lands on in a standard e1g1-form castling."""
    step = 1 if move.to_square > move.from_square else -1
    return [move.from_square + step, move.to_square]


def _castle_allowed_but_for_attacks(board: chess.Board, move: chess.Move) -> bool:
    """The right is held and no piece stands between king and rook (3.8.2.2.2)."""
    rook = _castle_rook(board, move)
    return (_standard_castle(board, move) and bool(board.castling_rights & chess.BB_SQUARES[rook])
            and not chess.SquareSet(chess.between(move.from_square, rook)) & board.occupied)


def _pawn(board: chess.Board, move: chess.Move) -> bool:
    return board.piece_type_at(move.from_square) == chess.PAWN


def _last_rank(square: chess.Square) -> bool:
    return chess.square_rank(square) in (0, 7)


#: Per category, what must hold of the (standard-notation) last move, so that it is
#: illegal for the reason its category names and no other.
REASONS: dict[str, Callable[[chess.Board, chess.Move], bool]] = {
    "illegal-ep-pinned": lambda b, m: b.is_en_passant(m) and b.is_pseudo_legal(m)
    and not b.is_check(),
    "illegal-castling-out-of-check": lambda b, m: _castle_allowed_but_for_attacks(b, m)
    and b.is_check(),
    "illegal-castling-through-check": lambda b, m: _castle_allowed_but_for_attacks(b, m)
    and not b.is_check() and _attacked(b, _castling_path(b, m)[0])
    and not _attacked(b, _castling_path(b, m)[1]),
    "illegal-castling-into-check": lambda b, m: _castle_allowed_but_for_attacks(b, m)
    and not b.is_check() and not _attacked(b, _castling_path(b, m)[0])
    and _attacked(b, _castling_path(b, m)[1]),
    "illegal-double-step": lambda b, m: _pawn(b, m) and m.promotion is None
    and not b.is_check() and abs(
        chess.square_rank(m.to_square) - chess.square_rank(m.from_square)) == 2,
    "illegal-promotion-letter": lambda b, m: m.promotion is not None and not (
        _pawn(b, m) and _last_rank(m.to_square))
    and b.is_legal(chess.Move(m.from_square, m.to_square)),
    "illegal-missing-promotion": lambda b, m: _pawn(b, m) and _last_rank(m.to_square)
    and m.promotion is None and b.is_legal(chess.Move(m.from_square, m.to_square, chess.QUEEN)),
}


def _replay(tag: str, fen: str, moves: list[str], chess960: bool) -> list[str]:
    """The moves in the board's own UCI form; every move but the last must be legal, the
    last must not be and must break the rule its category names, else OracleMismatch."""
    board = checked_board(fen, chess960)
    out: list[str] = []
    for index, text in enumerate(moves):
        move = chess.Move.from_uci(text)
        last = index == len(moves) - 1
        if last and not chess960 and not REASONS[tag](board, move):
            raise OracleMismatch(f"apply.illegal: {text} in {board.fen()} is not a case "
                                 f"of {tag}")
        if chess960 and _standard_castle(board, move):
            move = chess.Move(move.from_square, _castle_rook(board, move))
        if board.is_legal(move) == last:
            raise OracleMismatch(f"apply.illegal: {text} after {out} in {fen}: "
                                 f"{ORACLE} is_legal={not last}")
        out.append(board.uci(move))
        if not last:
            board.push(move)
    return out


def _standard_castle(board: chess.Board, move: chess.Move) -> bool:
    """True if ``move`` is a king's two-square step along its back rank (e1g1 form)."""
    return (move.from_square == board.king(board.turn)
            and abs(chess.square_file(move.to_square) - chess.square_file(move.from_square)) == 2
            and chess.square_rank(move.to_square) == chess.square_rank(move.from_square))


def _castle_rook(board: chess.Board, move: chess.Move) -> chess.Square:
    """The corner rook's square on the side the king steps towards (king takes rook)."""
    rank = chess.square_rank(move.from_square)
    return chess.square(7 if move.to_square > move.from_square else 0, rank)


def illegal_fixtures() -> list[Fixture]:
    """Hand-built illegal sequences, several per category, with 960 twins for castling."""
    out: list[Fixture] = []
    for tag, name, fen, moves, what in CASES:
        cites, rule = CATEGORIES[tag]
        ucis = _replay(tag, fen, moves.split(), chess960=False)
        castling = tag.startswith("illegal-castling")
        tags = {tag, "illegal-sequence", "hand-built"} | ({"castling"} if castling else set())
        common: dict[str, Any] = {"expect": {"fen": None, "error": "illegal"}, "tags": tags, "method": "laws+oracle"}
        fid = f"apply.illegal.{tag.removeprefix('illegal-')}.{name}"
        description = f"{rule}: {what}"
        out.append(fixture(fid, "apply_moves", description,
                           STANDARD if castling else STANDARD_AND_960,
                           {"fen": fen, "moves": ucis},
                           cites=list(cites) + (["uci:moves"] if castling else []),
                           detail=f"built by hand from the article; {ORACLE} Board.is_legal "
                                  "is True for every move but the last, False for the last",
                           **common))
        if castling:
            out.append(fixture(fid + ".960", "apply_moves",
                               description + "; castling as king takes rook", CHESS960,
                               {"fen": fen, "moves": _replay(tag, fen, moves.split(), True)},
                               cites=list(cites) + ["uci:chess960"],
                               detail=f"built by hand from the article; {ORACLE} "
                                      "(chess960=True) Board.is_legal is True for every move "
                                      "but the last, False for the last",
                               **{**common, "tags": tags | {"chess960"}}))
    return out
