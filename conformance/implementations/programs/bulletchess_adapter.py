"""Protocol v1 adapter for bulletchess, run as a program under Python >= 3.13.

    python3.13 bulletchess_adapter.py

bulletchess must be importable by that interpreter (``arbiter adapters install
bulletchess`` puts it in Arbiter's cache folder and the launcher sets PYTHONPATH). This
file imports nothing from Arbiter: it runs under another interpreter than the harness.
What each kind maps to is documented in docs/adapters.md.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from typing import Any

from _serve import Handler, Skip, serve, to_fen_letters

UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
RULESETS = ["fide-2023"]  #: bulletchess plays standard chess under the current Laws only


def main() -> int:
    try:
        import bulletchess as bc
        from bulletchess import utils
    except ImportError as error:
        return serve("bulletchess", "", None, RULESETS, [],
                     f"bulletchess cannot be imported ({error}); run: arbiter adapters install bulletchess")
    return serve("bulletchess", metadata.version("bulletchess"), handlers(bc, utils), RULESETS, ["parse_san"])


def handlers(bc: Any, utils: Any) -> dict[str, Handler]:
    """One function per kind, each with bulletchess's own API."""

    def board(fen: str) -> Any:
        return bc.Board.from_fen(to_fen_letters(fen))

    def legal(position: Any, text: str) -> Any:
        """The legal move ``text`` names, or None (bulletchess refuses some illegal UCI outright)."""
        try:
            move = bc.Move.from_uci(text) if UCI.fullmatch(text) else None
        except ValueError:
            return None
        return move if move is not None and move in position.legal_moves() else None

    def legal_moves(_: str, d: dict[str, Any]) -> dict[str, Any]:
        return {"moves": [m.uci() for m in board(d["fen"]).legal_moves()]}

    def perft(_: str, d: dict[str, Any]) -> dict[str, Any]:
        return {"nodes": utils.perft(board(d["fen"]), int(d["depth"]))}

    def apply_moves(_: str, d: dict[str, Any]) -> dict[str, Any]:
        position = board(d["fen"])
        for text in d.get("moves") or ():
            if not UCI.fullmatch(text):
                return {"fen": None, "error": "invalid"}
            move = legal(position, text)
            if move is None:
                return {"fen": None, "error": "illegal"}
            position.apply(move)
        return {"fen": position.fen()}

    def validate_fen(_: str, d: dict[str, Any]) -> dict[str, Any]:
        try:
            board(d["fen"])
        except Exception as error:  # bulletchess raises ValueError (and others) on a bad FEN
            return {"valid": False, "reason": str(error)}
        return {"valid": True}

    def status(_: str, d: dict[str, Any]) -> dict[str, Any]:
        position = board(d["fen"])
        return {"check": position in bc.CHECK, "checkmate": position in bc.CHECKMATE,
                "stalemate": position in bc.STALEMATE}

    def san(_: str, d: dict[str, Any]) -> dict[str, Any]:
        position = board(d["fen"])
        move = legal(position, d["move"])
        if move is None:
            raise ValueError(f"{d['move']} is not among bulletchess's legal moves")
        return {"san": move.san(position)}

    def parse_san(_: str, d: dict[str, Any]) -> dict[str, Any]:
        position = board(d["fen"])
        try:
            move = bc.Move.from_san(d["san"], position)
        except Exception:
            return {"move": None}
        return {"move": move.uci() if move is not None else None}

    def game_end(_: str, d: dict[str, Any]) -> dict[str, Any]:
        position = board(d["fen"])
        for text in d.get("moves") or ():
            move = legal(position, text)
            if move is None:
                raise ValueError(f"{text} is not legal to bulletchess")
            position.apply(move)
        if position in bc.CHECKMATE:
            return {"result": "0-1" if position.turn == bc.WHITE else "1-0", "reason": "checkmate", "claimable": []}
        for state, reason in ((bc.STALEMATE, "stalemate"), (bc.INSUFFICIENT_MATERIAL, "dead_position"),
                              (bc.FIVEFOLD_REPETITION, "fivefold_repetition"),
                              (bc.SEVENTY_FIVE_MOVE_TIMEOUT, "seventy_five_moves")):
            if position in state:
                return {"result": "1/2-1/2", "reason": reason, "claimable": []}
        claimable = [name for state, name in ((bc.THREEFOLD_REPETITION, "threefold_repetition"),
                                              (bc.FIFTY_MOVE_TIMEOUT, "fifty_moves")) if position in state]
        return {"result": "*", "reason": None, "claimable": claimable}

    def dead_position(_: str, d: dict[str, Any]) -> dict[str, Any]:
        if board(d["fen"]) in bc.INSUFFICIENT_MATERIAL:
            return {"dead": True}
        raise Skip("material test only")

    return {"legal_moves": legal_moves, "perft": perft, "apply_moves": apply_moves,
            "validate_fen": validate_fen, "status": status, "san": san, "parse_san": parse_san,
            "game_end": game_end, "dead_position": dead_position}


if __name__ == "__main__":
    sys.exit(main())
