"""The ``reference`` adapter: the reference interpreter, in-process (the default).

Each kind maps onto one module of ``reference_impl``. A kind is declared as a
capability only if its backing module imports, so the adapter works while parts of
the interpreter are still being written; the rest is reported ``unsupported``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from reference_impl.errors import ArbiterError, IllegalMoveError

from .base import Adapter, Skip, StartInfo

Handler = Callable[[str, dict[str, Any]], dict[str, Any]]

#: kind -> (module that must import, attribute that must exist there)
BACKING: dict[str, tuple[str, str]] = {
    "legal_moves": ("reference_impl.core", "Board"),
    "perft": ("reference_impl.core", "perft"),
    "apply_moves": ("reference_impl.core", "Board"),
    "validate_fen": ("reference_impl.core", "Board"),
    "status": ("reference_impl.core", "Board"),
    "start_position": ("reference_impl.core.chess960", "start_fen"),
    "san": ("reference_impl.notation.api", "to_san"),
    "parse_san": ("reference_impl.notation.api", "parse_san"),
    "to_notation": ("reference_impl.notation.api", "to_notation"),
    "from_notation": ("reference_impl.notation.api", "from_notation"),
    "game_end": ("reference_impl.adjudication.api", "game_end"),
    "timeout": ("reference_impl.adjudication.api", "timeout"),
    "dead_position": ("reference_impl.adjudication.api", "dead_position"),
}
#: Ruleset ids declared if ``reference_impl.rules`` cannot list them.
FALLBACK_RULESETS: tuple[str, ...] = ("fide-2023", "fide-2023-chess960", "uscf-7")
#: parse_san / from_notation error categories the protocol knows.
ERROR_CATEGORIES = frozenset({"illegal", "ambiguous", "invalid"})


@lru_cache(maxsize=64)
def _rules(ruleset: str) -> Any:
    from reference_impl.rules import load_ruleset

    return load_ruleset(ruleset)


def _board(ruleset: str, fen: str) -> Any:
    from reference_impl.core import Board

    return Board.from_fen(fen, _rules(ruleset))


def _api(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


def legal_moves(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    return {"moves": uci_moves(board, board.legal_moves())}


def uci_moves(board: Any, moves: list[Any]) -> list[str]:
    """UCI strings of legal ``moves``, as ``board.uci`` writes them, without its per-call search.

    ``board.uci`` finds each move among the legal moves again (a generation per call);
    here castling -- the king taking its own rook -- is recognised from the pieces and
    written per the ruleset's castling table (``uci: king_takes_rook`` or the king's
    destination file), as ``Board.uci`` does.
    """
    castling = getattr(getattr(board, "tables", None), "castling", None)
    if castling is None or getattr(castling, "uci_king_takes_rook", True):
        return [str(m) for m in moves]
    texts = []
    for move in moves:
        mover, target = board.piece_at(move.from_square), board.piece_at(move.to_square)
        if mover is not None and target is not None and mover.color == target.color:
            side = next(s for s in castling.sides if s.king_side == (move.to_square > move.from_square))
            texts.append(_square_name(move.from_square) + _square_name((move.from_square & ~7) + side.king_to_file))
        else:
            texts.append(str(move))
    return texts


def _square_name(square: int) -> str:
    return "abcdefgh"[square & 7] + str((square >> 3) + 1)


def perft(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    from reference_impl.core import perft as count

    return {"nodes": count(_board(ruleset, data["fen"]), int(data["depth"]))}


def apply_moves(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    for text in data["moves"]:
        try:
            board.push(board.parse_uci(text))
        except IllegalMoveError:
            return {"fen": None, "error": "illegal"}
    return {"fen": board.fen()}


def validate_fen(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    try:
        _board(ruleset, data["fen"])
    except ArbiterError as error:
        return {"valid": False, "reason": getattr(error, "reason", str(error))}
    return {"valid": True}


def status(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    return {"check": board.is_check(), "checkmate": board.is_checkmate(), "stalemate": board.is_stalemate()}


def start_position(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    start_fen = _api("reference_impl.core.chess960", "start_fen")
    return {"fen": start_fen(int(data["number"]), _rules(ruleset))}


def san(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    return {"san": _api("reference_impl.notation.api", "to_san")(board, board.parse_uci(data["move"]))}


def _move_or_error(board: Any, parse: Callable[[], Any]) -> dict[str, Any]:
    try:
        move = parse()
    except IllegalMoveError as error:
        category = getattr(error, "category", "invalid")
        return {"move": None, "error": category if category in ERROR_CATEGORIES else "invalid"}
    return {"move": board.uci(move)}


def parse_san(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    parse = _api("reference_impl.notation.api", "parse_san")
    return _move_or_error(board, lambda: parse(board, data["san"]))


def to_notation(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    write = _api("reference_impl.notation.api", "to_notation")
    return {"text": write(board, board.parse_uci(data["move"]), data["notation"])}


def from_notation(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    read = _api("reference_impl.notation.api", "from_notation")
    return _move_or_error(board, lambda: read(board, data["text"], data["notation"]))


def game_end(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    decide = _api("reference_impl.adjudication.api", "game_end")
    return dict(decide(_rules(ruleset), data["fen"], list(data["moves"])))


def _decided(name: str, *args: Any, **options: Any) -> dict[str, Any]:
    """Call an adjudication kind; an analysis undetermined at its node limit is a skip
    with the reason: the reference declines rather than guesses."""
    decide = _api("reference_impl.adjudication.api", name)
    undetermined = _api("reference_impl.adjudication.api", "UndeterminedError")
    try:
        return dict(decide(*args, **options))
    except undetermined as error:
        raise Skip(str(error)) from None


def timeout(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    return _decided("timeout", _rules(ruleset), data["fen"], data["flagged"], strict=True)


def dead_position(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    return _decided("dead_position", _rules(ruleset), data["fen"])


HANDLERS: dict[str, Handler] = {
    "legal_moves": legal_moves,
    "perft": perft,
    "apply_moves": apply_moves,
    "validate_fen": validate_fen,
    "status": status,
    "start_position": start_position,
    "san": san,
    "parse_san": parse_san,
    "to_notation": to_notation,
    "from_notation": from_notation,
    "game_end": game_end,
    "timeout": timeout,
    "dead_position": dead_position,
}


def available_kinds() -> list[str]:
    """The kinds whose backing module imports and has its entry point, in protocol order."""
    found = []
    for kind, (module, name) in BACKING.items():
        try:
            if hasattr(importlib.import_module(module), name):
                found.append(kind)
        except ImportError:
            continue
    return found


def available_rulesets() -> list[str]:
    """Every complete ruleset id the rules package lists."""
    try:
        from reference_impl.rules import list_rulesets

        return [r.id for r in list_rulesets()]
    except (ImportError, ArbiterError):
        return list(FALLBACK_RULESETS)


class ReferenceAdapter(Adapter):
    """The reference interpreter, restricted to ``rulesets`` when given."""

    spec = "reference"

    def __init__(self, rulesets: list[str] | None = None) -> None:
        self.only = rulesets
        self.kinds: list[str] = []

    def start(self) -> StartInfo:
        """Declare the kinds that import now and the rulesets (all, or ``--rules``)."""
        from conformance import __version__

        self.kinds = available_kinds()
        rulesets = available_rulesets()
        if self.only:
            rulesets = [_rules(r).id for r in self.only]
        return StartInfo("arbiter-reference", __version__, list(self.kinds), rulesets)

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        """Answer one request; interpreter errors mark the fixture errored."""
        return HANDLERS[kind](ruleset, input)
