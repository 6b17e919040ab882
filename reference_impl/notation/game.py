"""Replay a PGN game's main line on a board, and convert move lists between notations.

This is where text meets the board: :func:`replay` reads every main-line move of a
:class:`~.pgn.PgnGame` (lenient SAN by default, as real files need) and stops at the
first move that cannot be read, recording a :class:`~.errors.PgnError` that names the
game, the move number and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TYPE_CHECKING

from . import fastsan
from .api import from_notation, read_notation, to_notation
from .errors import NotationError, PgnError, clip
from .pgn import PgnGame
from .san import read_san

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move
    from reference_impl.rules.files import Ruleset

DEFAULT_RULES = "fide-2023"
CHESS960_RULES = "fide-2023-chess960"
#: Start positions kept for :func:`start_board` (most games share one).
START_POSITIONS = 64

_STARTS: dict[tuple[int, str | None], Board] = {}


@dataclass
class Replay:
    """The start position, the moves read, their leniencies, and the first error if any."""

    start: Board
    moves: list[Move] = field(default_factory=list)
    leniencies: list[list[str]] = field(default_factory=list)
    error: PgnError | None = None


def rules_for(game: PgnGame, rules: Ruleset | str | None = None) -> Ruleset:
    """The ruleset to replay ``game`` under: ``rules`` if given, else by its Variant tag."""
    from reference_impl import load_ruleset

    if rules is None:
        return load_ruleset(CHESS960_RULES if game.chess960 else DEFAULT_RULES)
    return load_ruleset(rules) if isinstance(rules, str) else rules


def start_board(game: PgnGame, rules: Ruleset | str | None = None) -> Board:
    """The game's starting position (FEN tag or the ruleset's array), a fresh copy of one
    kept per position (building the initial array costs a hundred copies)."""
    from reference_impl import Board, FenError

    ruleset = rules_for(game, rules)
    key = (id(ruleset), game.fen)
    kept = _STARTS.get(key)
    if kept is None or kept.rules is not ruleset:
        try:
            kept = Board.from_fen(game.fen, ruleset) if game.fen else Board(ruleset)
        except FenError as error:
            raise PgnError(game.index, f"FEN tag: {error.reason}", line=game.line) from None
        if len(_STARTS) >= START_POSITIONS:
            _STARTS.clear()
        _STARTS[key] = kept
    return kept.copy(stack=False)


def replay(game: PgnGame, rules: Ruleset | str | None = None, *, lenient: bool = True, notation: str = "san") -> Replay:
    """Read the main line; on the first unreadable move record the error and stop.

    ``notation`` ``"san"`` reads SAN, lenient unless ``lenient`` is false; any other
    notation id is read as that id says (``san:tg:lenient``, ``uci``, ...)."""
    board = start_board(game, rules)
    result = Replay(start=board.copy())
    for ply, pgn_move in enumerate(game.moves):
        try:
            fast = fastsan.read(board, pgn_move.text, True) if notation == "san" else None
            if fast is not None:  # canonical SAN, as most files write it
                move, used = fast[0], []
            elif notation == "san":
                parsed = read_san(board, pgn_move.text, lenient=lenient, push=True)
                move, used = parsed.move, parsed.leniencies
            else:
                parsed = read_notation(board, pgn_move.text, notation, push=True)
                move, used = parsed.move, parsed.leniencies
        except NotationError as error:
            label = f"{game.move_label(ply)} {clip(pgn_move.text)}"
            result.error = PgnError(game.index, f"{error.category} move: {error.reason}", move=label, line=pgn_move.line)
            break
        result.moves.append(move)
        result.leniencies.append(used)
    return result


def convert_moves(board: Board, texts: list[str], source: str, target: str) -> list[str]:
    """Read ``texts`` in ``source`` from ``board`` on, write each in ``target``.

    Raises :class:`NotationError` naming the 1-based index of the first bad move.
    """
    board = board.copy()
    out = []
    for index, text in enumerate(texts, 1):
        try:
            move = from_notation(board, text, source)
        except NotationError as error:
            raise NotationError(text, error.category, f"move {index}: {error.reason}") from None
        out.append(to_notation(board, move, target))
        board.push(move)
    return out
