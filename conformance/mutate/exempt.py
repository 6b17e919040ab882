"""Mutants that are executed by the reference but cannot change any answer a fixture can ask.

``x-declarative`` in the schema marks keys the reference never executes. The keys here do
execute, yet some of their changes are equivalent: a search budget moved by one node,
a distinction that the reference's timing or the fixed initial array makes moot, a flag
shadowed by its twin in another table. Each row names the key, the mutations (``None``:
all of them), a condition on the unchanged resolved ruleset (``None``: always) and the
reason :command:`arbiter mutate` reports for it. The list is documented in docs/mutate.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from .mutants import Mutant, is_annotation

Data = Mapping[str, Any]

BUDGET = ("a search budget, not a rule: the Laws set no node limit, and one node more or less "
          "changes only a search that ends on exactly that node, which no position judged from "
          "the Laws can be built for")
ORTHODOX_PATHS = ("the castling king starts on the e-file and its rook in the corner, so the rook's "
                  "path covers the king's")
NOT_CLAIMED = ("the game protocol's illegal-move event is noticed and claimed (docs/protocol.md), "
               "so a rule for an unclaimed one has nothing to change there")
SHADOW_OFFER = ("an incorrect claim is a claim under neither rule and counts as an offer when "
                "either table says so; the other table says so")
SHADOW_TOUCH = ("a touch refuses any claim on that move when repetition.claim.touch_forfeits is "
                "true, as it is here, whichever rule is claimed")
SAME_IRREGULAR = ("without a time control there is no clock, so the speed decides only the "
                  "illegal-move regime, and this ruleset's three regimes are equal")
SAME_FAST = ("moves a time control between the rapid and blitz regimes, which are equal in this "
             "ruleset (penalty and illegal-move rules)")
BOTH_SEEN = ("a flag is seen when it falls (flag_fall.when: noticed) and the overstep ends the game "
             "then, so the game protocol never has both flags down; the rule is for flags nobody "
             "saw fall, which its events cannot state")
FLAG_ORDER = ("only the presence of dead_position is read: the other ends are settled by time "
              "(a game ended by checkmate, stalemate, resignation or agreement takes no flag, and "
              "a flag seen ends the game before anything later)")
FLAG_DEAD = ("the draw test already asks whether the opponent can checkmate, and a loss it gives "
             "rests on a mate found; the dead-position check after it runs only when that search "
             "ran out of budget")


@dataclasses.dataclass(frozen=True)
class Exemption:
    """``path`` (dotted) and its ``mutations`` (None: all) are equivalent when ``when``
    (a name in :data:`CONDITIONS`, None: always) holds of the unchanged ruleset."""

    path: str
    mutations: tuple[str, ...] | None
    when: str | None
    reason: str


EXEMPTIONS: tuple[Exemption, ...] = (
    Exemption("termination.dead_position.node_limit", None, None, BUDGET),
    Exemption("termination.dead_position.move_node_limit", None, None, BUDGET),
    Exemption("flag_fall.node_limit", None, None, BUDGET),
    Exemption("flag_fall.forced_win_node_limit", None, None, BUDGET),
    Exemption("flag_fall.if_undetermined", None, None,
              "read only when the helpmate search ran out of budget, and its other value makes "
              "the reference decline (a skip), which never kills"),
    Exemption("termination.dead_position.kind", ('"automatic" -> "as_of_last_move"',
                                                 '"as_of_last_move" -> "automatic"'), None,
              "the reference checks after every move, so a dead position ends the game at the "
              "move that produced it either way; the two differ only in when an arbiter notices"),
    Exemption("termination.precedence.order", ('swap "checkmate" and "stalemate"',), None,
              "no position is both: checkmate needs the king in check, stalemate needs it not"),
    Exemption("termination.precedence.order", ('swap "dead_position" and "fivefold_repetition"',), None,
              "a dead position ends the game the first time it stands, so it never stands a fifth time"),
    Exemption("termination.precedence.order", ('swap "fivefold_repetition" and "seventy_five_moves"',), None,
              "both are draws and the Laws rank neither (FIDE 9.6: 'one or both'); the order picks "
              "only the reason word, which no text decides"),
    Exemption("castling.must_be_empty.squares", ('drop "king_path"',), "orthodox", ORTHODOX_PATHS),
    Exemption("castling.must_not_be_attacked.rook_removed", None, "orthodox",
              "a corner rook never stands between an attacker and a square the king crosses"),
    Exemption("castling.must_not_be_attacked.squares", ('drop "king_to"',), None,
              "no move may leave the king attacked (FIDE 3.9), castling included"),
    Exemption("illegal_moves.standard.loss_requires_claim", None, None, NOT_CLAIMED),
    Exemption("illegal_moves.rapid.loss_requires_claim", None, None, NOT_CLAIMED),
    Exemption("illegal_moves.blitz.loss_requires_claim", None, None, NOT_CLAIMED),
    Exemption("repetition.claim.counts_as_draw_offer", None, "move_rule_offers", SHADOW_OFFER),
    Exemption("move_rule.claim.counts_as_draw_offer", None, "repetition_offers", SHADOW_OFFER),
    Exemption("move_rule.claim.touch_forfeits", None, "repetition_touch_forfeits", SHADOW_TOUCH),
    Exemption("scope.speed", None, "illegal_regimes_equal", SAME_IRREGULAR),
    Exemption("speed.bands[0].below", None, "rapid_blitz_equal", SAME_FAST),
    Exemption("speed.bands[0].inclusive", None, "rapid_blitz_equal", SAME_FAST),
    Exemption("speed.bands[0].regime", ('"blitz" -> "rapid"',), "rapid_blitz_equal", SAME_FAST),
    Exemption("speed.bands[1].regime", ('"rapid" -> "blitz"',), "rapid_blitz_equal", SAME_FAST),
    Exemption("speed.bands", ("drop-blitz",), "rapid_blitz_equal", SAME_FAST),
    Exemption("flag_fall.both_flags.last_period", None, "flags_noticed", BOTH_SEEN),
    Exemption("flag_fall.both_flags.other_period", None, "flags_noticed", BOTH_SEEN),
    Exemption("flag_fall.precedence", ("not-dead_position",), None, FLAG_ORDER),
    Exemption("flag_fall.precedence", ('drop "dead_position"',), "helpmate_draw_test", FLAG_DEAD),
)


def _get(data: Data, dotted_path: str) -> Any:
    node: Any = data
    for key in dotted_path.split("."):
        node = node.get(key) if isinstance(node, Mapping) else None
    return node


def _rules_only(entry: Any) -> Any:
    """An entry without its annotations (``cite``, ``note``, ...)."""
    if isinstance(entry, Mapping):
        return {k: _rules_only(v) for k, v in entry.items() if not is_annotation(k)}
    return entry


def _regimes_equal(data: Data, *names: str) -> bool:
    return len({repr(_rules_only(_get(data, f"illegal_moves.{n}"))) for n in names}) == 1


CONDITIONS: dict[str, Callable[[Data], bool]] = {
    "orthodox": lambda d: _get(d, "scope.variant") == "orthodox",
    "move_rule_offers": lambda d: _get(d, "move_rule.claim.counts_as_draw_offer") is True,
    "repetition_offers": lambda d: _get(d, "repetition.claim.counts_as_draw_offer") is True,
    "repetition_touch_forfeits": lambda d: _get(d, "repetition.claim.touch_forfeits") is True,
    "illegal_regimes_equal": lambda d: _regimes_equal(d, "standard", "rapid", "blitz"),
    "rapid_blitz_equal": lambda d: _regimes_equal(d, "rapid", "blitz")
    and _get(d, "clocks.penalty.rapid.seconds") == _get(d, "clocks.penalty.blitz.seconds"),
    "flags_noticed": lambda d: _get(d, "flag_fall.when") == "noticed",
    "helpmate_draw_test": lambda d: _get(d, "flag_fall.draw_test") == "opponent_cannot_checkmate",
}


def _matches(row: Exemption, mutant: Mutant) -> bool:
    if row.mutations is None:
        return True
    for wanted in row.mutations:
        if wanted == "drop-blitz":  # the band is a mapping: matched by its class, not its text
            if mutant.mutation.startswith("drop ") and '"class": "blitz"' in mutant.mutation:
                return True
        elif wanted == "not-dead_position":  # the order, or another item: membership unchanged
            if mutant.mutation not in ('drop "dead_position"', 'add "dead_position"'):
                return True
        elif mutant.mutation == wanted:
            return True
    return False


def mark(mutant: Mutant, data: Data) -> Mutant:
    """``mutant``, equivalent with the reason when a row of :data:`EXEMPTIONS` covers it."""
    if mutant.equivalent:
        return mutant
    for row in EXEMPTIONS:
        if row.path == mutant.where and _matches(row, mutant) and (row.when is None or CONDITIONS[row.when](data)):
            return dataclasses.replace(mutant, equivalent=f"{row.reason} (exempt: conformance/mutate/exempt.py)")
    return mutant
