"""The ``reference`` adapter: the reference interpreter, in-process (the default).

Each kind maps onto one function of ``reference_impl``, imported here: the adapter
declares every kind of protocol v1, and an interpreter module that does not import
stops the adapter instead of quietly turning its kinds into ``unsupported``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from reference_impl.adjudication import api as adjudication
from reference_impl.adjudication import verdicts
from reference_impl.adjudication.game import Game
from reference_impl.core import Board
from reference_impl.core.board import Move
from reference_impl.core import perft as count
from reference_impl.core.chess960 import start_fen
from reference_impl.errors import ArbiterError, GameEventError, IllegalMoveError, quote
from reference_impl.notation import api as notation
from reference_impl.rules import list_rulesets, load_ruleset
from reference_impl.rules.files import Ruleset
from reference_impl.unwinnability import Analysis, Verdict, analyse, analyse_both, native
from reference_impl.kept import KeptAnswers
from reference_impl.unwinnability.search import move_layer_key

from conformance.harness.games import Event, GameInputError, read_game, rejected
from conformance.adapters.base import MAX_PERFT_DEPTH, Adapter, Skip, StartInfo

Handler = Callable[[str, dict[str, Any]], dict[str, Any]]

#: parse_san / from_notation error categories the protocol knows.
ERROR_CATEGORIES = frozenset({"illegal", "ambiguous", "invalid"})
#: Most plies of a ``helpmate`` field: a UCI move takes at most 8 bytes of JSON (``"e7e8q",``),
#: so the field stays under 80 KiB, well within the protocol's 1 MiB answer line.
HELPMATE_MAX_PLIES = 10_000
#: Perft counts kept (see :func:`perft`).
PERFT_CACHE_SIZE = 4096
#: Plies a perft leaves to one call of the compiled move generator; above it the
#: interpreter makes the first moves and asks it per subtree (see :func:`_count`).
NATIVE_PERFT_DEPTH = 5

#: Perft counts already made, by move layer, position and depth: a count is a pure
#: function of the three (no draw rule applies, the clocks play no part), and the corpus
#: asks each position under every orthodox ruleset, which share one move layer.
_PERFT: KeptAnswers[int] = KeptAnswers(PERFT_CACHE_SIZE)


@lru_cache(maxsize=64)
def _rules(ruleset: str) -> Ruleset:
    return load_ruleset(ruleset)


def _board(ruleset: str, fen: str) -> Board:
    """A fresh board of ``fen`` under ``ruleset`` (a copy of the first reading of the
    text under the move layer: :meth:`Board.from_fen`)."""
    return Board.from_fen(fen, _rules(ruleset))


def legal_moves(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    return {"moves": uci_moves(board, board.legal_moves())}


def uci_moves(board: Board, moves: list[Move]) -> list[str]:
    """UCI strings of legal ``moves``, as ``board.uci`` writes them, without its per-call search.

    ``board.uci`` finds each move among the legal moves again (a generation per call);
    here castling -- the king taking its own rook -- is recognised from the pieces and
    written per the ruleset's castling table (``uci: king_takes_rook`` or the king's
    destination file), as ``Board.uci`` does.
    """
    castling = board.tables.castling
    if castling is None or castling.uci_king_takes_rook:
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
    depth = data["depth"]
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_PERFT_DEPTH:
        shown = str(depth) if isinstance(depth, int) and abs(depth) < 10**18 else quote(str(type(depth).__name__))
        raise ValueError(f"perft depth {shown} is out of range 0..{MAX_PERFT_DEPTH}")
    board = _board(ruleset, data["fen"])
    key = (move_layer_key(board), board.position_key(), depth)
    nodes = _PERFT.get(key)
    if nodes is None:
        nodes = _count(board, depth)
        _PERFT.put(key, nodes)
    return {"nodes": nodes}


def _count(board: Board, depth: int) -> int:
    """Perft by the compiled move generator, fed the ruleset's packed tables (its counts
    are checked against the interpreter's in the tests; a fiftieth of its time). Deeper
    than :data:`NATIVE_PERFT_DEPTH` the interpreter plays the first plies and asks it per
    subtree, so that a per-fixture timeout (a signal, handled between calls) still stops
    a deep count. A move layer the compiled tables cannot hold is counted by the
    interpreter."""
    try:
        native.pack_tables(board.tables)
    except ValueError:
        return count(board, depth)
    work = board.copy(stack=False)

    def walk(depth: int) -> int:
        if depth <= NATIVE_PERFT_DEPTH:
            return native.perft(work, depth)
        total = 0
        for code in work.legal_codes():
            work.push_code(code)
            total += walk(depth - 1)
            work.pop_code()
        return total

    return walk(depth)


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
    return {"fen": start_fen(int(data["number"]), _rules(ruleset))}


def san(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    return {"san": notation.to_san(board, board.parse_uci(data["move"]))}


def _move_or_error(board: Board, parse: Callable[[], Move]) -> dict[str, Any]:
    try:
        move = parse()
    except IllegalMoveError as error:
        category = getattr(error, "category", "invalid")
        return {"move": None, "error": category if category in ERROR_CATEGORIES else "invalid"}
    return {"move": board.uci(move)}


def parse_san(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    return _move_or_error(board, lambda: notation.parse_san(board, data["san"]))


def to_notation(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    return {"text": notation.to_notation(board, board.parse_uci(data["move"]), data["notation"])}


def from_notation(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    board = _board(ruleset, data["fen"])
    return _move_or_error(board, lambda: notation.from_notation(board, data["text"], data["notation"]))


def game_end(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    return dict(adjudication.game_end(_rules(ruleset), data["fen"], list(data["moves"])))


#: The Game's reason words that the ``game`` kind names otherwise.
GAME_REASONS = {"timeout": "flag_fall", "timeout_vs_insufficient": "flag_fall", "both_flags": "flag_fall",
                "illegal_move": "illegal_moves"}


def game(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """Play the events through :class:`Game`; an event the rules forbid is ``rejected``."""
    given = read_game(data)
    try:
        played = Game(_rules(ruleset), given.fen, given.time_control, supervised=given.supervised)
    except GameEventError as error:
        raise GameInputError(f"game input: {error}") from None
    for index, event in enumerate(given.events):
        try:
            _play(played, event)
        except GameEventError as error:
            return rejected(f"event {index}: {error}")
    state = played.status()
    if state.result == verdicts.UNKNOWN and state.finished:
        raise Skip(f"undetermined ruling ({state.reason}, {state.cite}): {state.note}")
    answer: dict[str, Any] = {"result": state.result,
                              "reason": GAME_REASONS.get(state.reason or "", state.reason) if state.finished else None}
    if state.clock_ms is not None:
        answer["clock_ms"] = {"white": state.clock_ms[0], "black": state.clock_ms[1]}
    return answer


def _play(played: Game, event: Event) -> None:
    """One checked event on the game; :class:`GameEventError` if the rules forbid it."""
    turn = ("white", "black")[played.board.turn]
    if event.name == "move":
        played.push(event.value, seconds=event.seconds)
    elif event.name == "claim":
        played.claim_draw(str(event.by), event.intended_move, claim=event.value)
    elif event.name == "offer":
        played.offer_draw(event.value)
    elif event.name == "accept":
        played.accept_draw(event.value)
    elif event.name == "resign":
        played.resign(event.value)
    elif event.name == "flag":
        played.flag(event.value)
    elif event.name == "flags":  # both down, order unknown: both clocks read 0, the period rules
        if played.clock is not None and not played.finished:
            for colour in ("white", "black"):
                played.set_clock(colour, 0)
        played.both_flags()
    elif event.by != turn:
        raise GameEventError(f"{event.name} by {event.by}: {turn} is to move")
    elif event.name == "touch":
        played.touch(event.value)
    else:  # a completed illegal move, noticed: the position is reinstated
        if not played.finished and event.value is not None and _is_legal(played, event.value):
            raise GameEventError(f"illegal move {event.value}: it is legal")
        played.illegal_move(without_move=event.value is None)


def _is_legal(played: Game, text: str) -> bool:
    try:
        return bool(played.board.is_legal(played.board.parse_uci(text)))
    except ArbiterError:
        return False


def _decided(name: str, *args: Any, **options: Any) -> dict[str, Any]:
    """Call an adjudication kind; an analysis undetermined at its node limit is a skip
    with the reason: the reference declines rather than guesses."""
    try:
        return dict(getattr(adjudication, name)(*args, **options))
    except adjudication.UndeterminedError as error:
        raise Skip(str(error)) from None


def _helpmate(analyses: list[Analysis]) -> dict[str, Any]:
    """The ``helpmate`` extra field: the first mating line among ``analyses`` (the same
    analyses the ruling used, answered from the analysis cache). A line longer than
    :data:`HELPMATE_MAX_PLIES` is cut there and marked with ``helpmate_truncated``, its
    full length in plies, so that the answer always fits in one protocol line."""
    for analysis in analyses:
        if analysis.verdict is Verdict.CAN and analysis.line:
            line = list(analysis.line)
            if len(line) <= HELPMATE_MAX_PLIES:
                return {"helpmate": line}
            return {"helpmate": line[:HELPMATE_MAX_PLIES], "helpmate_truncated": len(line)}
    return {}


def timeout(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    answer = _decided("timeout", _rules(ruleset), data["fen"], data["flagged"], strict=True)
    flagged = 0 if data["flagged"] == "white" else 1
    if answer.get("result") == ("0-1", "1-0")[flagged]:  # a loss: the opponent can mate
        limit = verdicts.flag_fall_node_limit(_rules(ruleset))
        answer.update(_helpmate([analyse(_board(ruleset, data["fen"]), 1 - flagged, limit)]))
    return answer


def dead_position(ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    answer = _decided("dead_position", _rules(ruleset), data["fen"])
    if answer.get("dead") is False:
        limit = verdicts.dead_position_node_limit(_rules(ruleset))
        found = analyse_both(_board(ruleset, data["fen"]), limit, stop_at_can=True)
        answer.update(_helpmate(list(found.values())))
    return answer


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
    "game": game,
}


def available_rulesets() -> list[str]:
    """Every complete ruleset id the rules package lists."""
    return [r.id for r in list_rulesets()]


class ReferenceAdapter(Adapter):
    """The reference interpreter, restricted to ``rulesets`` when given (ids, aliases or
    ruleset files; a file is declared by its id, and a request under that id reads it)."""

    spec = "reference"

    def __init__(self, rulesets: list[str] | None = None) -> None:
        self.only = rulesets
        self.kinds: list[str] = []
        self.names: dict[str, str] = {}  #: declared id -> the name given (a file's path)

    def start(self) -> StartInfo:
        """Declare every kind and the rulesets (all, or ``--rules``)."""
        from conformance import __version__

        self.kinds = list(HANDLERS)
        rulesets = available_rulesets()
        if self.only:
            self.names = {_rules(r).id: r for r in self.only}
            rulesets = list(self.names)
        return StartInfo("arbiter-reference", __version__, list(self.kinds), rulesets)

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        """Answer one request; interpreter errors mark the fixture errored."""
        return HANDLERS[kind](self.names.get(ruleset, ruleset), input)
