"""Protocol v1 adapter for cozy-chess-py (the cozy-chess Rust crate), run as a program.

    python cozy_adapter.py

cozy-chess is a move generator: it has no SAN, no game history (so no repetition or
move-count rules) and no material test, so it declares the move-layer kinds only.
It reads Shredder-FEN or FEN by a flag: under Chess960 the castling field is
translated to Shredder-FEN, otherwise to FEN's letters. It writes castling king-takes-rook (``e1h1``), translated back to
the king's move (``e1g1``) outside Chess960. Stdlib and cozy_chess only.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from typing import Any

from _serve import Handler, serve, to_fen_letters, to_shredder

UCI = re.compile(r"([a-h][1-8])([a-h][1-8])([qrbn]?)")
CHESS960 = "fide-2023-chess960"
RULESETS = ["fide-2023", CHESS960]


def main() -> int:
    try:
        import cozy_chess as cc
    except ImportError as error:
        return serve("cozy-chess-py", "", None, RULESETS, [],
                     f"cozy_chess cannot be imported ({error}); run: arbiter adapters install cozy-chess")
    return serve("cozy-chess-py", metadata.version("cozy-chess-py"), handlers(cc), RULESETS, [])


def handlers(cc: Any) -> dict[str, Handler]:
    """One function per kind, each with cozy-chess's own API."""

    def board(fen: str, ruleset: str) -> Any:
        if ruleset == CHESS960:
            return cc.Board.from_fen(to_shredder(fen), True)
        return cc.Board.from_fen(to_fen_letters(fen), False)

    def is_castling(position: Any, move: Any) -> bool:
        return (position.piece_on(move.from_square) == cc.Piece.King
                and position.color_on(move.to_square) == position.side_to_move()
                and position.piece_on(move.to_square) == cc.Piece.Rook)

    def write(position: Any, move: Any, ruleset: str) -> str:
        text = str(move)
        if ruleset != CHESS960 and is_castling(position, move):
            target = "g" if text[2] > text[0] else "c"
            return text[:2] + target + text[3]
        return text

    def read(position: Any, text: str, ruleset: str) -> Any:
        """The legal cozy move ``text`` names, or None."""
        for move in position.generate_moves():
            if write(position, move, ruleset) == text:
                return move
        return None

    def perft_count(position: Any, depth: int) -> int:
        moves = position.generate_moves()
        if depth <= 1:
            return len(moves) if depth == 1 else 1
        total = 0
        for move in moves:
            child = position.__copy__()
            child.play_unchecked(move)
            total += perft_count(child, depth - 1)
        return total

    def legal_moves(r: str, d: dict[str, Any]) -> dict[str, Any]:
        position = board(d["fen"], r)
        return {"moves": [write(position, m, r) for m in position.generate_moves()]}

    def perft(r: str, d: dict[str, Any]) -> dict[str, Any]:
        return {"nodes": perft_count(board(d["fen"], r), int(d["depth"]))}

    def apply_moves(r: str, d: dict[str, Any]) -> dict[str, Any]:
        position = board(d["fen"], r)
        for text in d.get("moves") or ():
            if not UCI.fullmatch(text):
                return {"fen": None, "error": "invalid"}
            move = read(position, text, r)
            if move is None:
                return {"fen": None, "error": "illegal"}
            position.play(move)
        return {"fen": position.shredder_fen()}

    def validate_fen(r: str, d: dict[str, Any]) -> dict[str, Any]:
        try:
            board(d["fen"], r)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:
            return {"valid": False, "reason": str(error).splitlines()[0] if str(error) else type(error).__name__}
        return {"valid": True}

    def status(r: str, d: dict[str, Any]) -> dict[str, Any]:
        position = board(d["fen"], r)
        check = len(position.checkers()) > 0
        over = position.status() != cc.GameStatus.Ongoing
        return {"check": check, "checkmate": over and check, "stalemate": over and not check}

    def start_position(_: str, d: dict[str, Any]) -> dict[str, Any]:
        return {"fen": cc.Board.chess960_startpos(int(d["number"])).shredder_fen()}

    return {"legal_moves": legal_moves, "perft": perft, "apply_moves": apply_moves,
            "validate_fen": validate_fen, "status": status, "start_position": start_position}


if __name__ == "__main__":
    sys.exit(main())
