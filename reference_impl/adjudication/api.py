"""The adjudication kinds of the adapter protocol (v1): ``game_end``, ``timeout``,
``dead_position``. Each takes a resolved ruleset (or its id) and returns the result
object of the protocol; bad input raises an :class:`ArbiterError` subclass.

* ``game_end`` reports only what ends a game by itself: ``reason`` is one of the
  automatic ends or ``None``; the first end stands, and moves after it are only
  checked for legality; rules of kind ``discretionary`` (US Chess 14K) are never
  reported as ends. ``claimable`` lists the claims the player to move could make now
  or with an intended move (FIDE 9.2.1, 9.3.1); ``declarable``, present only under a
  ruleset with such rules, the draws the director may declare now (US Chess 14K).
* ``timeout`` answers FIDE 6.9 / US Chess 14E for the side whose flag fell; where the
  answer rests on a search left undetermined at its node limit it follows the table's
  ``if_undetermined``, or, with ``strict``, raises :class:`UndeterminedError`.
* ``dead_position`` is true when neither side can checkmate (FIDE 5.2.2); an
  undetermined search is an error, never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reference_impl.core import Board
from reference_impl.errors import ArbiterError, GameEventError
from reference_impl.rules.loader import load_ruleset
from reference_impl.rules.model import Model

from . import verdicts
from .game import AUTOMATIC, Game, Rules

CLAIMS = ("threefold_repetition", "fifty_moves")


class UndeterminedError(ArbiterError):
    """The analysis could not decide within the ruleset's node limit (no guess is made)."""
_COLOURS = {"white": 0, "black": 1}


def game_end(rules: Rules, fen: str, moves: Sequence[str]) -> dict[str, Any]:
    """``{"result", "reason", "claimable"}`` (and ``declarable`` where the ruleset has
    discretionary draws) after ``moves`` from ``fen``."""
    game = Game(rules, fen)
    moves = list(moves)
    for index, uci in enumerate(moves):
        if game.finished:
            _check_rest(game, moves[index:])
            break
        game.push(uci)
    status = game.status()
    if status.finished:
        reason = status.reason if status.reason in AUTOMATIC else None
        return {"result": status.result, "reason": reason, "claimable": []} | _declarable(game.model, ())
    claimable = [c.claim for c in status.claims]
    return {"result": "*", "reason": None, "claimable": [c for c in CLAIMS if c in claimable]} \
        | _declarable(game.model, status.discretionary)


def _declarable(model: Model, holding: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """``{"declarable": [...]}``, the discretionary draws ``holding`` now, under a ruleset
    that leaves a draw to the director (US Chess 14K: the fivefold repetition and the
    75-move rule of kind ``discretionary``); nothing under any other."""
    entries = (model.repetition.automatic, model.move_rule.automatic if model.move_rule else None)
    if not any(entry is not None and entry.kind == "discretionary" for entry in entries):
        return {}
    return {"declarable": [name for name, _ in holding]}


def _check_rest(game: Game, rest: list[str]) -> None:
    """Moves after an automatic end: the game is already decided (the end stands), but
    each must still be legal where it is played."""
    board = game.board.copy()
    for uci in rest:
        try:
            move = board.parse_uci(uci)
        except ArbiterError as error:
            raise GameEventError(f"move {uci} (after the game ended): {error}") from None
        if not board.is_legal(move):
            raise GameEventError(f"move {uci} (after the game ended) is not legal in {board.fen()}")
        board.push(move)


def timeout(rules: Rules, fen: str, flagged: str, *, strict: bool = False) -> dict[str, Any]:
    """``{"result"}`` when ``flagged`` (``"white"``/``"black"``) runs out of time.

    A ruling that rests on a search left undetermined follows the table's
    ``if_undetermined`` (as an arbiter must decide), or raises
    :class:`UndeterminedError` with ``strict``."""
    if flagged not in _COLOURS:
        raise GameEventError(f"timeout: flagged must be 'white' or 'black', not {flagged!r}")
    ruleset = load_ruleset(rules)
    game = Game(ruleset, fen)
    if game.finished:  # checkmate, stalemate or dead position come first (6.9)
        return {"result": game.status().result}
    ruling = verdicts.flag_fall(ruleset, game.board, _COLOURS[flagged])
    if strict and ruling.undetermined:
        raise UndeterminedError(f"timeout undetermined for {fen!r}: {ruling.note or 'dead-position check undetermined'}")
    return {"result": ruling.result}


def dead_position(rules: Rules, fen: str) -> dict[str, Any]:
    """``{"dead"}``: neither side can checkmate by any series of legal moves."""
    ruleset = load_ruleset(rules)
    board = Board.from_fen(fen, ruleset)
    limit = verdicts.dead_position_node_limit(ruleset)
    answer = verdicts.is_dead(board, limit)
    if answer == verdicts.UNDETERMINED:
        raise UndeterminedError(f"dead position undetermined for {fen!r} (node limit {limit})")
    return {"dead": answer == verdicts.CANNOT}
