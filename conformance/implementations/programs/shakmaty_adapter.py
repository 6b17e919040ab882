"""Protocol v1 adapter for shakmaty through shakmaty-python-binding, run as a program.

    python shakmaty_adapter.py

The binding exposes a small part of shakmaty: FEN in and out, legal moves as UCI,
playing a move, and a game result. It panics (a Rust panic, a BaseException in
Python) on a move it does not accept, so moves are looked up among the legal ones
first. It declares the move-layer kinds it can answer; standard chess only (the
binding has no Chess960 switch). Stdlib and shakmaty_python_binding only.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from typing import Any

from _serve import Handler, serve

UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
RULESETS = ["fide-2023"]


def main() -> int:
    try:
        from shakmaty_python_binding import MyChess, MyMove
    except ImportError as error:
        return serve("shakmaty", "", None, RULESETS, [],
                     f"shakmaty_python_binding cannot be imported ({error}); run: arbiter adapters install shakmaty")
    version = metadata.version("shakmaty-python-binding")
    return serve("shakmaty", version, handlers(MyChess, MyMove), RULESETS, [])


def handlers(MyChess: Any, MyMove: Any) -> dict[str, Handler]:
    """One function per kind, each with the binding's API."""

    def perft_count(position: Any, depth: int) -> int:
        moves = position.legal_moves()
        if depth <= 1:
            return len(moves) if depth == 1 else 1
        total = 0
        for move in moves:
            child = position.copy()
            child.play(move)
            total += perft_count(child, depth - 1)
        return total

    def legal_moves(_: str, d: dict[str, Any]) -> dict[str, Any]:
        return {"moves": [m.uci() for m in MyChess(d["fen"]).legal_moves()]}

    def perft(_: str, d: dict[str, Any]) -> dict[str, Any]:
        return {"nodes": perft_count(MyChess(d["fen"]), int(d["depth"]))}

    def apply_moves(_: str, d: dict[str, Any]) -> dict[str, Any]:
        position = MyChess(d["fen"])
        for text in d.get("moves") or ():
            if not UCI.fullmatch(text):
                return {"fen": None, "error": "invalid"}
            move = next((m for m in position.legal_moves() if m.uci() == text), None)
            if move is None:
                return {"fen": None, "error": "illegal"}
            position.play(move)
        return {"fen": position.fen()}

    def validate_fen(_: str, d: dict[str, Any]) -> dict[str, Any]:
        try:
            MyChess(d["fen"])
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:  # the binding panics on a FEN shakmaty refuses
            return {"valid": False, "reason": str(error).splitlines()[0] if str(error) else type(error).__name__}
        return {"valid": True}

    return {"legal_moves": legal_moves, "perft": perft, "apply_moves": apply_moves, "validate_fen": validate_fen}


if __name__ == "__main__":
    sys.exit(main())
