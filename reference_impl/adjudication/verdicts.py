"""Single rulings from the tables: flag fall, resignation, a losing illegal move.

The questions "can this side still checkmate?" and "does this side have a forced
win?" go to :mod:`reference_impl.unwinnability`; when its search hits the node limit,
the answer is ``"undetermined"``. The exceptions that turn a loss into a draw (FIDE 5.1.2, 6.9,
7.5.5) need a proof that the opponent cannot mate; when undetermined, the loss stands
and the ruling carries a note saying so.

A ruling is a :class:`Ruling`: the result from White's side (``"1-0"``, ``"0-1"``,
``"1/2-1/2"``, ``"*"`` for no ruling), a reason word and the article.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..rules.files import Ruleset
from ..rules.model import DeadPosition, DeadTest, FlagFall, IllegalRegime, Limits, MaterialRow, Model
from ..rules.reader import model_of
from .tables import need

if TYPE_CHECKING:
    from ..core.board import Board
    from ..unwinnability.forced_win import ForcedMate

#: A ruleset as the functions here take it: loaded, or its model.
Rules = Ruleset | Model

CAN, CANNOT, UNDETERMINED = "can", "cannot", "undetermined"
RESULTS = ("1-0", "0-1")  #: the result when colour 0 / colour 1 wins
DRAW, UNKNOWN = "1/2-1/2", "*"


@dataclass(frozen=True)
class Ruling:
    result: str
    reason: str
    cite: str
    note: str | None = None
    #: a loss backed by a found mate (so no dead-position check is needed)
    proven: bool = field(default=False, compare=False)
    #: the ruling rests on an analysis that stayed undetermined at its node limit
    undetermined: bool = field(default=False, compare=False)


def flag_fall_node_limit(rules: Rules) -> int:
    """The budget of the flag-fall question "can the opponent checkmate?" (the limits
    table's ``flag_fall.node_limit``)."""
    return model_of(rules).limits.flag_fall.node_limit


def dead_position_node_limit(rules: Rules) -> int:
    """The budget of an explicit dead-position question (``dead_position.node_limit``)."""
    return model_of(rules).limits.dead_position.node_limit


def forced_win_node_limit(rules: Rules) -> int:
    """The budget of US Chess 14E's forced-win question (``forced_win.node_limit``)."""
    return model_of(rules).limits.forced_win.node_limit


def move_rule_horizon(rules: Rules) -> int | None:
    """The fewest plies without a capture or pawn move after which a defender can have
    the game drawn: a move-rule entry the players may claim, or one that ends the game
    by itself (``kind: claim`` or ``automatic``; a ``discretionary`` one is the
    arbiter's to give, not the defender's to take). ``None`` when there is none."""
    table = model_of(rules).move_rule
    if table is None:
        return None
    entries = [e for e in (table.claim, table.automatic) if e is not None]
    counts = [entry.plies for entry in entries if entry.kind in ("claim", "automatic")]
    return min(counts) if counts else None


def win_for(color: int) -> str:
    return RESULTS[color]


def outcome(word: str, color: int) -> str:
    """The result from White's side when ``color`` gets ``word`` (``win``, ``draw``, ``loss``).

    The termination tables state each result for the player an end concerns: the player
    who gave mate, the player stalemated, the player who resigned, the flagged player.
    """
    if word == "win":
        return win_for(color)
    if word == "loss":
        return win_for(1 - color)
    if word == "draw":
        return DRAW
    raise ValueError(f"unknown result {word!r} (win, draw or loss)")


def can_checkmate(board: Board, color: int, node_limit: int) -> str:
    """``"can"``, ``"cannot"`` or ``"undetermined"``: may ``color`` ever mate (helpmate)?"""
    from .. import unwinnability  # imported here: it builds on the core, not on adjudication

    return unwinnability.can_checkmate(board, color, node_limit=node_limit).value


#: The two-sided reading of ``termination.dead_position.test`` (the schema's default).
TWO_SIDED: DeadTest = "neither_can_checkmate"


def is_dead(board: Board, node_limit: int, test: DeadTest = TWO_SIDED) -> str:
    """``"cannot"`` when the position is dead under ``test``, ``"can"`` when not:
    two-sided, neither side can ever mate; one-sided, some side cannot."""
    from .. import unwinnability

    if test == TWO_SIDED:
        return unwinnability.is_dead_position(board, node_limit=node_limit).value
    answers = [can_checkmate(board, color, node_limit) for color in (0, 1)]
    return CANNOT if CANNOT in answers else UNDETERMINED if UNDETERMINED in answers else CAN


def is_dead_cheap(board: Board, node_limit: int, test: DeadTest = TWO_SIDED) -> bool:
    """Dead, proven cheaply enough to ask after every move.

    The proofs without search come first (the static stage, and the material proof
    without pawns): a position is declared dead only with a proof for both sides, so
    where they prove neither side unable to mate, nothing more is asked, and ordinary
    positions end there. Where they prove one side, a short compiled helpmate search for
    the other comes next (a mate found, replayed, means not dead), then a search of
    ``node_limit`` moves. A position this misses is simply not declared dead. Under the
    one-sided ``test`` (US Chess 14D4 read literally) one side proven is enough.
    """
    from .. import unwinnability

    proven = unwinnability.proven_unable(board)
    if len(proven) == 2 or (proven and test != TWO_SIDED):
        return True
    if len(proven) == 1 and node_limit > 0:
        other = 1 - next(iter(proven))
        if unwinnability.mate_found_quickly(board, colors=(other,)):
            return False
        return can_checkmate(board, other, node_limit) == CANNOT
    return False


def dead_after_move(board: Board, entry: DeadPosition, limits: Limits) -> bool:
    """The check after every move that the ``termination.dead_position`` table ``entry``
    asks for: :func:`is_dead_cheap` under the entry's ``test``, with the ruleset's
    ``limits.dead_position.move_node_limit``."""
    return is_dead_cheap(board, limits.dead_position.move_node_limit, entry.test)


def forced_win(board: Board, color: int, rules: Rules) -> ForcedMate:
    """US Chess 14E "forced win": a forced mate for ``color`` at any distance that lands
    before the defender could have the game drawn by the move rule
    (:func:`move_rule_horizon`), within the limits table's budget. The answer is a
    :class:`~reference_impl.unwinnability.forced_win.ForcedMate` (``found`` ``None`` when
    not decided)."""
    from ..unwinnability.forced_win import forced_mate  # builds on the core, not on adjudication

    return forced_mate(board, color, None, forced_win_node_limit(rules), move_rule_plies=move_rule_horizon(rules))


def material(board: Board, color: int) -> dict[str, int]:
    """Piece name -> count for ``color`` (names from the ruleset's ``pieces``)."""
    counts = {name: board.pieces(name, color).bit_count() for name in board.model.pieces}
    return {name: n for name, n in counts.items() if n}


def _material_row(board: Board, flagged: int, rows: tuple[MaterialRow, ...]) -> MaterialRow | None:
    theirs = material(board, 1 - flagged)
    mine = material(board, flagged)
    for row in rows:
        wanted = {k: v for k, v in row.opponent_has.items() if v}
        if theirs == wanted and not any(mine.get(p) for p in row.player_has_none_of):
            return row
    return None


def _cite(value: str | None) -> str:
    return value or "?"


def flag_fall(rules: Rules, board: Board, flagged: int) -> Ruling:
    """The result when ``flagged``'s flag falls in ``board`` (FIDE 6.9, US Chess 14E).

    A loss that rests on no proof that the opponent can mate is checked once more
    against a dead position when ``precedence`` puts that first (FIDE 5.2.2, US 14D).
    """
    model = model_of(rules)
    entry = need(model, model.flag_fall, "flag_fall")
    dead_first = "dead_position" in entry.precedence
    ruling = _flag_fall(model, entry, board, flagged)
    dead = model.termination.dead_position if model.termination else None
    if ruling.reason == "timeout" and ruling.result != DRAW and not ruling.proven and dead is not None and dead_first:
        answer = is_dead(board, dead_position_node_limit(model), dead.test)
        if answer == CANNOT:
            return Ruling(DRAW, "dead_position", _cite(dead.cite))
        if answer == UNDETERMINED:
            return replace(ruling, undetermined=True)
    return ruling


def _flag_fall(model: Model, entry: FlagFall, board: Board, flagged: int) -> Ruling:
    cite = _cite(entry.cite)
    loss = Ruling(outcome(entry.result, flagged), "timeout", cite)
    if entry.draw_test == "opponent_cannot_checkmate":
        on_undetermined = entry.if_undetermined
        answer = can_checkmate(board, 1 - flagged, flag_fall_node_limit(model))
        if answer == CANNOT:
            return Ruling(DRAW, "timeout_vs_insufficient", cite)
        if answer == UNDETERMINED:
            if on_undetermined == "loss":
                return Ruling(loss.result, "timeout", cite, "helpmate search undetermined; the loss stands",
                              undetermined=True)
            return Ruling(UNKNOWN, "timeout", cite, "helpmate search undetermined", undetermined=True)
        return Ruling(loss.result, "timeout", cite, proven=True)
    row = _material_row(board, flagged, entry.material_draws)  # draw_test: material_table
    if row is None:
        return loss
    if row.unless_forced_win:
        won = forced_win(board, 1 - flagged, model)
        if won.found:
            return Ruling(loss.result, "timeout", row.cite,
                          f"forced win: mate in at most {won.plies} plies against any defence", proven=True)
        if won.found is None:
            why = (f"a forced mate of up to {won.plies} plies found, which the move rule could cut short"
                   if won.plies else f"no forced win decided within {won.nodes} nodes")
            # the table's reading of a win not shown within the budget: the draw
            # (decided, its note naming the bound) or a ruling the strict API declines
            unshown = need(model, entry.forced_win_unshown, "flag_fall.forced_win_unshown")
            return Ruling(DRAW, "timeout_vs_insufficient", row.cite, why, undetermined=unshown != "draw")
    return Ruling(DRAW, "timeout_vs_insufficient", row.cite)


def resignation(rules: Rules, board: Board, resigning: int) -> Ruling:
    """The result of ``resigning``'s resignation (FIDE 2023 5.1.2 vs FIDE 2018, US 13B)."""
    model = model_of(rules)
    termination = need(model, model.termination, "termination")
    entry = need(model, termination.resignation, "termination.resignation")
    cite = _cite(entry.cite)
    result = outcome(entry.result, resigning)
    if entry.draw_if_opponent_cannot_checkmate:
        answer = can_checkmate(board, 1 - resigning, dead_position_node_limit(model))
        if answer == CANNOT:
            return Ruling(DRAW, "resignation", cite, "the opponent cannot checkmate")
        if answer == UNDETERMINED:
            return Ruling(result, "resignation", cite, "whether the opponent can checkmate is undetermined")
    return Ruling(result, "resignation", cite)


def losing_illegal_move(rules: Rules, board: Board, mover: int, regime_entry: IllegalRegime) -> Ruling:
    """The ruling when ``mover``'s illegal move reaches ``loses_at``."""
    model = model_of(rules)
    cite = _cite(regime_entry.cite)
    if regime_entry.claimant_needs_mating_material:
        # The claimant's mating material is judged as for a win on time (US Chess 13C).
        if flag_fall(model, board, mover).result == DRAW:
            if regime_entry.without_mating_material == "draw":
                return Ruling(DRAW, "illegal_move", cite, "the claimant has no mating material")
            return Ruling(UNKNOWN, "illegal_move", cite, "no mating material: the claim fails")
    if regime_entry.draw_if_opponent_cannot_checkmate:
        if can_checkmate(board, 1 - mover, dead_position_node_limit(model)) == CANNOT:
            return Ruling(DRAW, "illegal_move", cite, "the opponent cannot checkmate")
    return Ruling(win_for(1 - mover), "illegal_move", cite)
