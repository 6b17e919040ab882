"""The ``python-chess`` adapter: the PyPI ``chess`` package, in-process.

Each kind is answered the way a python-chess user would answer it, with the package's
own API and defaults; where python-chess has no equivalent of a rule, the nearest API
is used so the report shows the difference. The mapping is documented in
``docs/adapters.md``.
"""

from __future__ import annotations

from typing import Any

import chess

from conformance.harness.games import GameInputError, read_game, rejected
from conformance.adapters.base import Adapter, Skip, StartInfo

#: The rulesets claimed, each with python-chess's ``chess960`` flag. python-chess
#: implements the FIDE Laws since 2018 (75 moves, fivefold repetition counted over the
#: whole game) and Chess960. FIDE 2014 is not claimed: its fivefold rule counts only
#: consecutive alternate moves (9.6.1), which python-chess does not implement, and
#: declaring a ruleset commits the adapter to every rule of it. Nor are US Chess rules.
RULESETS: dict[str, bool] = {
    "fide-2023": False,
    "fide-2023-rapid": False,
    "fide-2023-blitz": False,
    "fide-2018": False,
    "fide": False,
    "fide-2023-chess960": True,
    "chess960": True,
}
#: ``Outcome.termination`` -> protocol ``reason`` (INSUFFICIENT_MATERIAL is
#: python-chess's only dead-position test)
REASONS: dict[chess.Termination, str] = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "dead_position",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy_five_moves",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition",
}
#: parse errors -> protocol ``error`` (most specific first)
MOVE_ERRORS: tuple[tuple[type[ValueError], str], ...] = (
    (chess.AmbiguousMoveError, "ambiguous"),
    (chess.IllegalMoveError, "illegal"),
    (chess.InvalidMoveError, "invalid"),
)
COLOURS: dict[str, chess.Color] = {"white": chess.WHITE, "black": chess.BLACK}


def oracle_perft(board: chess.Board, depth: int) -> int:
    """python-chess's leaf count at exactly ``depth`` plies (no draw rule applies): the
    adapter's perft, and the generators' and benchmarks' oracle."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += oracle_perft(board, depth - 1)
        board.pop()
    return total


def _board(ruleset: str, fen: str) -> chess.Board:
    """``chess.Board(fen, chess960=...)``; python-chess's ValueError means errored."""
    return chess.Board(fen, chess960=RULESETS.get(ruleset, False))


def _error_name(error: ValueError) -> str:
    for cls, name in MOVE_ERRORS:
        if isinstance(error, cls):
            return name
    return "invalid"


def legal_moves(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``board.uci(m)`` for each of ``board.legal_moves``."""
    board = _board(ruleset, data["fen"])
    return {"moves": [board.uci(move) for move in board.legal_moves]}


def perft(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """Bulk-counted perft."""
    return {"nodes": oracle_perft(_board(ruleset, data["fen"]), int(data["depth"]))}


def apply_moves(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``push_uci`` each move, then ``board.fen()`` (en passant square only if legal)."""
    board = _board(ruleset, data["fen"])
    for move in data.get("moves") or ():
        try:
            board.push_uci(move)
        except ValueError as error:
            return {"fen": None, "error": _error_name(error)}
    return {"fen": board.fen()}


def validate_fen(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """Parses and ``is_valid()``; ``reason`` names python-chess's objection if any."""
    try:
        board = _board(ruleset, data["fen"])
    except ValueError as error:
        return {"valid": False, "reason": str(error)}
    status = board.status()
    if status == chess.STATUS_VALID:
        return {"valid": True}
    names = [flag.name for flag in chess.Status if flag and flag in status and flag.name]
    return {"valid": False, "reason": ", ".join(names)}


def status(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``is_check()``, ``is_checkmate()``, ``is_stalemate()``."""
    board = _board(ruleset, data["fen"])
    return {"check": board.is_check(), "checkmate": board.is_checkmate(),
            "stalemate": board.is_stalemate()}


def san(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``board.san(board.parse_uci(move))``."""
    board = _board(ruleset, data["fen"])
    return {"san": board.san(board.parse_uci(data["move"]))}


def parse_san(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``board.uci(board.parse_san(san))``; its exceptions become ``error``."""
    board = _board(ruleset, data["fen"])
    try:
        move = board.parse_san(data["san"])
    except ValueError as error:
        return {"move": None, "error": _error_name(error)}
    return {"move": board.uci(move)}


def game_end(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``outcome()`` after the moves; draw claims only while the game goes on."""
    board = _board(ruleset, data["fen"])
    for move in data.get("moves") or ():
        board.push_uci(move)
    outcome = board.outcome()
    if outcome is not None:
        return {"result": outcome.result(), "reason": REASONS.get(outcome.termination),
                "claimable": []}
    claimable = []
    if board.can_claim_threefold_repetition():
        claimable.append("threefold_repetition")
    if board.can_claim_fifty_moves():
        claimable.append("fifty_moves")
    return {"result": "*", "reason": None, "claimable": claimable}


#: ``game`` events python-chess has no API for: declined, not guessed.
GAME_DECLINED = ("illegal", "offer", "accept", "resign", "flag", "flags", "touch")


def game(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """Moves with ``push_uci`` and ``outcome()``; claims with ``is_repetition(3)`` and
    ``is_fifty_moves()``, after pushing the intended move if there is one. python-chess
    has no clock, offers, resignation, touch-move or illegal-move penalties: a game with
    a time control or such an event is declined (skipped). ``supervised`` changes only
    the illegal-move rules, so it needs nothing here."""
    given = read_game(data)
    if given.time_control is not None:
        raise Skip("python-chess has no clock: time controls are not modelled")
    declined = next((e.name for e in given.events if e.name in GAME_DECLINED or e.seconds is not None), None)
    if declined is not None:
        raise Skip(f"python-chess has no API for {'move times' if declined == 'move' else declined + ' events'}")
    try:
        board = _board(ruleset, given.fen) if given.fen is not None else chess.Board(chess960=RULESETS.get(ruleset, False))
    except ValueError as error:
        raise GameInputError(f"game input: fen: {error}") from None
    claimed: str | None = None
    for index, event in enumerate(given.events):
        if claimed is not None or board.outcome() is not None:
            return rejected(f"event {index}: the game is over")
        if event.name == "claim" and event.by != ("black", "white")[board.turn]:
            return rejected(f"event {index}: only the player to move may claim")
        text = event.intended_move if event.name == "claim" else event.value
        try:
            move = board.parse_uci(text) if text is not None else None
        except ValueError as error:
            return rejected(f"event {index}: {error}")
        if event.name == "claim":
            if move is not None:
                board.push(move)
            correct = board.is_repetition(3) if event.value == "threefold_repetition" else board.is_fifty_moves()
            if correct:
                claimed = event.value
                if move is not None:
                    board.pop()  # a correct claim's intended move is not played
        elif move is not None:
            board.push(move)
    if claimed is not None:
        return {"result": "1/2-1/2", "reason": claimed}
    outcome = board.outcome()
    if outcome is None:
        return {"result": "*", "reason": None}
    return {"result": outcome.result(), "reason": REASONS.get(outcome.termination)}


def timeout(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """Draw if the opponent ``has_insufficient_material``, else the opponent wins."""
    board = _board(ruleset, data["fen"])
    flagged = COLOURS[data["flagged"]]
    if board.has_insufficient_material(not flagged):
        return {"result": "1/2-1/2"}
    return {"result": "0-1" if flagged == chess.WHITE else "1-0"}


def dead_position(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``is_insufficient_material()``: python-chess's material-only test."""
    return {"dead": _board(ruleset, data["fen"]).is_insufficient_material()}


def start_position(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``Board.from_chess960_pos(number).fen()`` (X-FEN castling)."""
    number = int(data["number"])
    if not 0 <= number <= 959:
        raise ValueError(f"Chess960 position number {number} is not in 0..959")
    return {"fen": chess.Board.from_chess960_pos(number).fen()}


HANDLERS = {
    "legal_moves": legal_moves, "perft": perft, "apply_moves": apply_moves,
    "validate_fen": validate_fen, "status": status, "san": san, "parse_san": parse_san,
    "game_end": game_end, "timeout": timeout, "dead_position": dead_position,
    "start_position": start_position, "game": game,
}


class PythonChessAdapter(Adapter):
    """python-chess, in-process; one call of its API per request."""

    spec = "python-chess"

    def start(self) -> StartInfo:
        """Declare python-chess's version, the kinds in HANDLERS and the claimed rulesets."""
        return StartInfo(name="python-chess", version=chess.__version__,
                         capabilities=list(HANDLERS), rulesets=list(RULESETS))

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        """Answer one request; python-chess's exceptions mark the fixture errored."""
        return HANDLERS[kind](ruleset, input)
