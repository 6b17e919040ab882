"""Protocol v1 adapter for PyChess's rules core (Debian's ``pychess``), run headless.

    /usr/bin/python3 pychess_adapter.py

PyChess is a GTK program, but its rules live in plain Python modules that import no
GUI: ``pychess.Utils.lutils`` (the bitboard ``LBoard``, move generation, notation, draw
tests) and ``pychess.Utils.logic.getStatus`` (what the GUI calls after each move to
end a game). Debian installs them for its own ``python3``, which runs this program.
Stdlib and pychess only; what each kind maps to is in docs/adapters.md.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from _serve import Handler, Skip, serve, to_fen_letters

RULESETS = ["fide-2023"]  #: PyChess's normal chess: the current Laws' moves and its own draw rules
UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


def main() -> int:
    try:
        import pychess
        from pychess.Utils import logic
        from pychess.Utils.Board import Board
        from pychess.Utils.lutils import ldraw, lmove, lmovegen
    except ImportError as error:
        return serve("PyChess", "", None, RULESETS, [],
                     f"pychess cannot be imported by {sys.executable} ({error}); run: arbiter adapters install pychess")
    return serve("PyChess", str(pychess.VERSION), handlers(Board, logic, ldraw, lmove, lmovegen),
                 RULESETS, ["parse_san"])


def handlers(Board: Any, logic: Any, ldraw: Any, lmove: Any, lmovegen: Any) -> dict[str, Handler]:
    """One function per kind, each with PyChess's own calls."""
    from pychess.Utils import const

    def board(fen: str) -> Any:
        """PyChess's board; it reads FEN's KQkq, so the corner rooks' Shredder letters are rewritten."""
        return Board(setup=to_fen_letters(fen))

    def legal(lboard: Any) -> list[int]:
        """Legal moves as getStatus finds them: generated, then not leaving the king in check."""
        return [m for m in lmovegen.genAllMoves(lboard) if not lboard.willLeaveInCheck(m)]

    def uci(lboard: Any, move: int) -> str:
        return lmove.toAN(lboard, move, short=True, castleNotation=const.CASTLE_KK).lower()

    def find(lboard: Any, text: str) -> int | None:
        return next((m for m in legal(lboard) if uci(lboard, m) == text), None)

    def perft_count(lboard: Any, depth: int) -> int:
        moves = legal(lboard)
        if depth <= 1:
            return len(moves) if depth == 1 else 1
        total = 0
        for move in moves:
            lboard.applyMove(move)
            total += perft_count(lboard, depth - 1)
            lboard.popMove()
        return total

    def legal_moves(_: str, d: dict[str, Any]) -> dict[str, Any]:
        lboard = board(d["fen"]).board
        return {"moves": [uci(lboard, m) for m in legal(lboard)]}

    def perft(_: str, d: dict[str, Any]) -> dict[str, Any]:
        return {"nodes": perft_count(board(d["fen"]).board, int(d["depth"]))}

    def apply_moves(_: str, d: dict[str, Any]) -> dict[str, Any]:
        lboard = board(d["fen"]).board
        for text in d.get("moves") or ():
            if not UCI.fullmatch(text):
                return {"fen": None, "error": "invalid"}
            move = find(lboard, text)
            if move is None:
                return {"fen": None, "error": "illegal"}
            lboard.applyMove(move)
        return {"fen": lboard.asFen()}

    def validate_fen(_: str, d: dict[str, Any]) -> dict[str, Any]:
        try:
            board(d["fen"])
        except Exception as error:  # noqa: BLE001 -- applyFen's SyntaxError and what else it raises
            return {"valid": False, "reason": f"{type(error).__name__}: {error}".splitlines()[0]}
        return {"valid": True}

    def status(_: str, d: dict[str, Any]) -> dict[str, Any]:
        lboard = board(d["fen"]).board
        check, none = bool(lboard.isChecked()), not legal(lboard)
        return {"check": check, "checkmate": check and none, "stalemate": none and not check}

    def san(_: str, d: dict[str, Any]) -> dict[str, Any]:
        lboard = board(d["fen"]).board
        move = find(lboard, d["move"])
        if move is None:
            raise ValueError(f"{d['move']} is not among PyChess's legal moves")
        return {"san": lmove.toSAN(lboard, move)}

    def parse_san(_: str, d: dict[str, Any]) -> dict[str, Any]:
        lboard = board(d["fen"]).board
        try:
            move = lmove.parseSAN(lboard, d["san"])
        except lmove.ParsingError:
            return {"move": None}
        # parseSAN reads the text only; PyChess checks the move it names before playing it
        # (logic.validate: generated, and not leaving the king in check), as here.
        return {"move": uci(lboard, move)} if move in legal(lboard) else {"move": None}

    def game_end(_: str, d: dict[str, Any]) -> dict[str, Any]:
        game = board(d["fen"])
        for text in d.get("moves") or ():
            move = find(game.board, text)
            if move is None:
                raise ValueError(f"{text} is not among PyChess's legal moves")
            game.board.applyMove(move)
        state, reason = logic.getStatus(game)
        results = {const.WHITEWON: "1-0", const.BLACKWON: "0-1", const.DRAW: "1/2-1/2"}
        if state == const.RUNNING:
            return {"result": "*", "reason": None, "claimable": []}
        named = {const.WON_MATE: "checkmate", const.DRAW_STALEMATE: "stalemate",
                 const.DRAW_INSUFFICIENT: "dead_position"}
        # PyChess ends the game itself at a threefold repetition or after fifty moves
        # (DRAW_REPETITION, DRAW_50MOVES): a drawn result with no reason the protocol names.
        return {"result": results[state], "reason": named.get(reason), "claimable": []}

    def timeout(_: str, d: dict[str, Any]) -> dict[str, Any]:
        game = board(d["fen"])
        state, _reason = logic.getStatus(game)
        if state != const.RUNNING:  # the GUI ended this game before any flag could fall
            return {"result": {const.WHITEWON: "1-0", const.BLACKWON: "0-1"}.get(state, "1/2-1/2")}
        flagged = const.WHITE if d["flagged"] == "white" else const.BLACK
        if logic.playerHasMatingMaterial(game, 1 - flagged):
            return {"result": "0-1" if flagged == const.WHITE else "1-0"}
        return {"result": "1/2-1/2"}

    def dead_position(_: str, d: dict[str, Any]) -> dict[str, Any]:
        if ldraw.testMaterial(board(d["fen"]).board):
            return {"dead": True}
        raise Skip("material test only")

    return {"legal_moves": legal_moves, "perft": perft, "apply_moves": apply_moves, "validate_fen": validate_fen,
            "status": status, "san": san, "parse_san": parse_san, "game_end": game_end, "timeout": timeout,
            "dead_position": dead_position}


if __name__ == "__main__":
    sys.exit(main())
