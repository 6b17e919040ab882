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
from typing import Any, Mapping

from ..rules.limits import Limits, limits_of
from .tables import optional, table

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


def flag_fall_node_limit(rules: Mapping[str, Any]) -> int:
    """The budget of the flag-fall question "can the opponent checkmate?" (the limits
    table's ``flag_fall.node_limit``)."""
    return limits_of(rules).flag_fall_node_limit


def dead_position_node_limit(rules: Mapping[str, Any]) -> int:
    """The budget of an explicit dead-position question (``dead_position.node_limit``)."""
    return limits_of(rules).dead_position_node_limit


def forced_win_node_limit(rules: Mapping[str, Any]) -> int:
    """The budget of US Chess 14E's forced-win question (``forced_win.node_limit``)."""
    return limits_of(rules).forced_win_node_limit


def move_rule_horizon(rules: Mapping[str, Any]) -> int | None:
    """The fewest plies without a capture or pawn move after which a defender can have
    the game drawn: a move-rule entry the players may claim, or one that ends the game
    by itself (``kind: claim`` or ``automatic``; a ``discretionary`` one is the
    arbiter's to give, not the defender's to take). ``None`` when there is none."""
    entries = optional(rules, "move_rule") or {}
    counts = [int(entry["plies"]) for entry in entries.values()
              if isinstance(entry, Mapping) and entry.get("kind") in ("claim", "automatic") and entry.get("plies")]
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


def _module() -> Any:
    from .. import unwinnability  # imported here: it builds on the core, not on adjudication

    return unwinnability


def _tri(verdict: Any) -> str:
    if verdict is True:
        return CANNOT
    if verdict is False:
        return CAN
    name = str(getattr(verdict, "name", verdict)).lower()
    return name if name in (CAN, CANNOT) else UNDETERMINED


def can_checkmate(board: Any, color: int, node_limit: int) -> str:
    """``"can"``, ``"cannot"`` or ``"undetermined"``: may ``color`` ever mate (helpmate)?"""
    return _tri(_module().can_checkmate(board, color, node_limit=node_limit))


#: The readings of ``termination.dead_position.test``, the schema's default first: neither
#: player can checkmate (FIDE 5.2.2; US Chess 14D two-sided), or one player can no longer
#: be checkmated (US Chess 14D4 read literally).
DEAD_TESTS = ("neither_can_checkmate", "player_cannot_be_checkmated")


def dead_test(entry: Mapping[str, Any] | None) -> str:
    """The reading the ``termination.dead_position`` table ``entry`` encodes."""
    return str((entry or {}).get("test") or DEAD_TESTS[0])


def is_dead(board: Any, node_limit: int, test: str = DEAD_TESTS[0]) -> str:
    """``"cannot"`` when the position is dead under ``test``, ``"can"`` when not:
    two-sided, neither side can ever mate; one-sided, some side cannot."""
    if test == DEAD_TESTS[0]:
        return _tri(_module().is_dead_position(board, node_limit=node_limit))
    answers = [can_checkmate(board, color, node_limit) for color in (0, 1)]
    return CANNOT if CANNOT in answers else UNDETERMINED if UNDETERMINED in answers else CAN


def is_dead_cheap(board: Any, node_limit: int, test: str = DEAD_TESTS[0]) -> bool:
    """Dead, proven cheaply enough to ask after every move.

    The proofs without search come first (the static stage, and the material proof
    without pawns): a position is declared dead only with a proof for both sides, so
    where they prove neither side unable to mate, nothing more is asked, and ordinary
    positions end there. Where they prove one side, a short compiled helpmate search for
    the other comes next (a mate found, replayed, means not dead), then a search of
    ``node_limit`` moves. A position this misses is simply not declared dead. Under the
    one-sided ``test`` (US Chess 14D4 read literally) one side proven is enough.
    """
    unwinnability = _module()
    proven = unwinnability.proven_unable(board)
    if len(proven) == 2 or (proven and test != DEAD_TESTS[0]):
        return True
    if len(proven) == 1 and node_limit > 0:
        other = 1 - next(iter(proven))
        if unwinnability.mate_found_quickly(board, colors=(other,)):
            return False
        return can_checkmate(board, other, node_limit) == CANNOT
    return False


def dead_after_move(board: Any, entry: Mapping[str, Any], limits: Limits | None = None) -> bool:
    """The check after every move that the ``termination.dead_position`` table ``entry``
    asks for: :func:`is_dead_cheap` under the entry's ``test``, with the
    ``move_node_limit`` of ``limits`` (the ruleset's, from :func:`limits_of`; the limits
    table's own when not given)."""
    return is_dead_cheap(board, (limits or limits_of({})).move_node_limit, dead_test(entry))


def forced_win(board: Any, color: int, rules: Mapping[str, Any]) -> Any:
    """US Chess 14E "forced win": a forced mate for ``color`` at any distance that lands
    before the defender could have the game drawn by the move rule
    (:func:`move_rule_horizon`), within the limits table's budget. The answer is a
    :class:`~reference_impl.unwinnability.forced_win.ForcedMate` (``found`` ``None`` when
    not decided)."""
    return _module().forced_win.forced_mate(board, color, None, forced_win_node_limit(rules),
                                            move_rule_plies=move_rule_horizon(rules))


def material(board: Any, color: int) -> dict[str, int]:
    """Piece name -> count for ``color`` (names from the ruleset's ``pieces``)."""
    names = board.rules["pieces"].keys()
    counts = {name: board.pieces(name, color).bit_count() for name in names}
    return {name: n for name, n in counts.items() if n}


def _material_row(board: Any, flagged: int, rows: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    theirs = material(board, 1 - flagged)
    mine = material(board, flagged)
    for row in rows:
        wanted = {k: int(v) for k, v in row["opponent_has"].items() if v}
        if theirs == wanted and not any(mine.get(p) for p in row.get("player_has_none_of") or ()):
            return row
    return None


def flag_fall(rules: Mapping[str, Any], board: Any, flagged: int) -> Ruling:
    """The result when ``flagged``'s flag falls in ``board`` (FIDE 6.9, US Chess 14E).

    A loss that rests on no proof that the opponent can mate is checked once more
    against a dead position when ``precedence`` puts that first (FIDE 5.2.2, US 14D).
    """
    dead_first = "dead_position" in (table(rules, "flag_fall").get("precedence") or ())
    ruling = _flag_fall(rules, board, flagged)
    dead = optional(rules, "termination", "dead_position")
    if ruling.reason == "timeout" and ruling.result != DRAW and not ruling.proven and dead is not None and dead_first:
        answer = is_dead(board, dead_position_node_limit(rules), dead_test(dead))
        if answer == CANNOT:
            return Ruling(DRAW, "dead_position", dead["cite"])
        if answer == UNDETERMINED:
            return replace(ruling, undetermined=True)
    return ruling


def _flag_fall(rules: Mapping[str, Any], board: Any, flagged: int) -> Ruling:
    entry = table(rules, "flag_fall")
    loss = Ruling(outcome(str(entry["result"]), flagged), "timeout", entry["cite"])
    test = entry["draw_test"]
    if test == "opponent_cannot_checkmate":
        on_undetermined = entry.get("if_undetermined", "loss")
        answer = can_checkmate(board, 1 - flagged, flag_fall_node_limit(rules))
        if answer == CANNOT:
            return Ruling(DRAW, "timeout_vs_insufficient", entry["cite"])
        if answer == UNDETERMINED:
            if on_undetermined == "loss":
                return Ruling(
                    loss.result, "timeout", entry["cite"], "helpmate search undetermined; the loss stands",
                    undetermined=True,
                )
            return Ruling(UNKNOWN, "timeout", entry["cite"], "helpmate search undetermined", undetermined=True)
        return Ruling(loss.result, "timeout", entry["cite"], proven=True)
    if test == "material_table":
        row = _material_row(board, flagged, list(entry.get("material_draws") or ()))
        if row is None:
            return loss
        if row.get("unless_forced_win"):
            won = forced_win(board, 1 - flagged, rules)
            if won.found:
                return Ruling(loss.result, "timeout", row["cite"],
                              f"forced win: mate in at most {won.plies} plies against any defence", proven=True)
            if won.found is None:
                why = (f"a forced mate of up to {won.plies} plies found, which the move rule could cut short"
                       if won.plies else f"no forced win decided within {won.nodes} nodes")
                # the table's reading of a win not shown within the budget: the draw
                # (decided, its note naming the bound) or a ruling the strict API declines
                unshown = table(rules, "flag_fall", "forced_win_unshown")
                return Ruling(DRAW, "timeout_vs_insufficient", row["cite"], why, undetermined=unshown != "draw")
        return Ruling(DRAW, "timeout_vs_insufficient", row["cite"])
    raise ValueError(f"unknown flag_fall.draw_test {test!r}")


def resignation(rules: Mapping[str, Any], board: Any, resigning: int) -> Ruling:
    """The result of ``resigning``'s resignation (FIDE 2023 5.1.2 vs FIDE 2018, US 13B)."""
    entry = table(rules, "termination", "resignation")
    result = outcome(str(entry["result"]), resigning)
    if entry.get("draw_if_opponent_cannot_checkmate"):
        limit = dead_position_node_limit(rules)
        answer = can_checkmate(board, 1 - resigning, limit)
        if answer == CANNOT:
            return Ruling(DRAW, "resignation", entry["cite"], "the opponent cannot checkmate")
        if answer == UNDETERMINED:
            return Ruling(result, "resignation", entry["cite"],
                          "whether the opponent can checkmate is undetermined")
    return Ruling(result, "resignation", entry["cite"])


def losing_illegal_move(
    rules: Mapping[str, Any], board: Any, mover: int, regime_entry: Mapping[str, Any]
) -> Ruling:
    """The ruling when ``mover``'s illegal move reaches ``loses_at``."""
    cite = str(regime_entry["cite"])
    if regime_entry.get("claimant_needs_mating_material"):
        # The claimant's mating material is judged as for a win on time (US Chess 13C).
        if flag_fall(rules, board, mover).result == DRAW:
            if regime_entry.get("without_mating_material") == "draw":
                return Ruling(DRAW, "illegal_move", cite, "the claimant has no mating material")
            return Ruling(UNKNOWN, "illegal_move", cite, "no mating material: the claim fails")
    if regime_entry.get("draw_if_opponent_cannot_checkmate"):
        limit = dead_position_node_limit(rules)
        if can_checkmate(board, 1 - mover, limit) == CANNOT:
            return Ruling(DRAW, "illegal_move", cite, "the opponent cannot checkmate")
    return Ruling(win_for(1 - mover), "illegal_move", cite)
