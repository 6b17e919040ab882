"""Mutants that are executed by the reference but cannot change any answer a fixture can ask.

``x-declarative`` in the schema marks keys the reference never executes. The keys here do
execute, yet some of their changes are equivalent: a distinction that the reference's
timing or the fixed initial array makes moot, a flag shadowed by its twin in another
table, two speed regimes with the same tables. (Search budgets are no longer among them:
they are not rules and live in ``spec/limits.yaml``, which is not mutated.) Each row
names the key (``*`` for any one key, ``[*]`` for any index), the mutations (``None``: all
of them), a condition on the unchanged resolved ruleset and the mutant (``None``: always)
and the reason :command:`arbiter mutate` reports for it. The list is documented in
docs/mutate.md.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

from .mutants import Mutant, is_annotation

Data = Mapping[str, Any]

ORTHODOX_PATHS = ("the castling king starts on the e-file and its rook in the corner, so the rook's "
                  "path covers the king's")
NOT_CLAIMED = ("the game protocol's illegal-move event is noticed and claimed (docs/protocol.md), "
               "so a rule for an unclaimed one has nothing to change there")
SHADOW_OFFER = ("an incorrect claim is a claim under neither rule and counts as an offer when "
                "either table says so; the other table says so")
SHADOW_TOUCH = ("a touch refuses any claim on that move when repetition.claim.touch_forfeits is "
                "true, as it is here, whichever rule is claimed")
SAME_IRREGULAR = ("without a time control there is no clock, so the speed decides only the "
                  "illegal-move regime and whether the both-flags rule covers the game, and the one "
                  "it names here has the same rules as the one before (equal tables, or no table of "
                  "its own: the standard one applies; the same both-flags coverage)")
SAME_BAND = ("moves time controls between two neighbouring speed bands whose regimes have the "
             "same rules in this ruleset (illegal moves, penalty, both-flags coverage), and a "
             "band's name decides nothing else")
SAME_REGIME = ("the band's new regime has the same rules as its old one in this ruleset (equal "
               "illegal-move and penalty tables, or no table of its own: the standard ones apply; "
               "the same both-flags coverage)")
ROOK_BESIDE = ("the castling rook can shield a square the king crosses only along the first rank, from an "
               "attacker beyond it; the paths must be empty, so that attacker stands beyond the king's "
               "destination, and the rook lands on the destination's other side (king on c or g, rook on "
               "d or f): the attacker reaches the king after castling, which no move may allow (FIDE 3.9)")
NEVER_LOSES = ("this regime's illegal moves never lose (loses_at: null), and the key only "
               "qualifies that loss")
NOT_AUTOMATIC = ("the end dropped is not automatic here (a claim, or left to the director's "
                 "discretion), and the order ranks only the automatic ends")
FLAG_ORDER = ("only the presence of dead_position is read: the other ends are settled by time "
              "(a game ended by checkmate, stalemate, resignation or agreement takes no flag, and "
              "a flag seen ends the game before anything later)")
FLAG_DEAD = ("the draw test already asks whether the opponent can checkmate, and a loss it gives "
             "rests on a mate found; the dead-position check after it runs only when that search "
             "ran out of budget")


@dataclasses.dataclass(frozen=True)
class Exemption:
    """``path`` (dotted; ``*`` one key, ``[*]`` any index) and its ``mutations`` (None: all)
    are equivalent when ``when`` (a name in :data:`CONDITIONS`, None: always) holds of the
    unchanged ruleset and the mutant."""

    path: str
    mutations: tuple[str, ...] | None
    when: str | None
    reason: str


EXEMPTIONS: tuple[Exemption, ...] = (
    Exemption("flag_fall.if_undetermined", None, None,
              "read only when the helpmate search ran out of budget, and its other value makes "
              "the reference decline (a skip), which never kills"),
    Exemption("flag_fall.forced_win_unshown", ('"draw" -> "undetermined"',), None,
              "read only when the forced-win search (US Chess 14E2) ran out of budget, and "
              "'undetermined' makes the reference decline that ruling (a skip), which never kills"),
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
    Exemption("castling.must_not_be_attacked.rook_removed", None, "rook_lands_beside_king", ROOK_BESIDE),
    Exemption("castling.must_not_be_attacked.squares", ('drop "king_to"',), None,
              "no move may leave the king attacked (FIDE 3.9), castling included"),
    Exemption("illegal_moves.*.loss_requires_claim", None, None, NOT_CLAIMED),
    Exemption("repetition.claim.counts_as_draw_offer", None, "move_rule_offers", SHADOW_OFFER),
    Exemption("move_rule.claim.counts_as_draw_offer", None, "repetition_offers", SHADOW_OFFER),
    Exemption("move_rule.claim.touch_forfeits", None, "repetition_touch_forfeits", SHADOW_TOUCH),
    Exemption("scope.speed", None, "speed_same_illegal_rules", SAME_IRREGULAR),
    Exemption("speed.bands[*].below", None, "band_edge_same_regime", SAME_BAND),
    Exemption("speed.bands[*].inclusive", None, "band_edge_same_regime", SAME_BAND),
    Exemption("speed.bands[*].regime", None, "band_regime_same_rules", SAME_REGIME),
    Exemption("speed.bands", ("drop-band",), "dropped_band_same_regime", SAME_BAND),
    Exemption("illegal_moves.*.draw_if_opponent_cannot_checkmate", None, "never_loses", NEVER_LOSES),
    Exemption("illegal_moves.*.claimant_needs_mating_material", None, "never_loses", NEVER_LOSES),
    Exemption("illegal_moves.*.without_mating_material", None, "never_loses", NEVER_LOSES),
    Exemption("termination.precedence.order", ("drop-end",), "dropped_end_not_automatic", NOT_AUTOMATIC),
    Exemption("flag_fall.precedence", ("not-dead_position",), None, FLAG_ORDER),
    Exemption("flag_fall.precedence", ('drop "dead_position"',), "helpmate_draw_test", FLAG_DEAD),
)


def _get(data: Data, dotted_path: str) -> Any:
    node: Any = data
    for key in dotted_path.split("."):
        node = node.get(key) if isinstance(node, Mapping) else None
    return node


def _at(data: Data, path: tuple[Any, ...]) -> Any:
    """The value at a mutant's key path (keys and list indices)."""
    node: Any = data
    for key in path:
        if isinstance(key, int):
            node = node[key] if isinstance(node, list) and key < len(node) else None
        else:
            node = node.get(key) if isinstance(node, Mapping) else None
    return node


def _rules_only(entry: Any) -> Any:
    """An entry without its annotations (``cite``, ``note``, ...)."""
    if isinstance(entry, Mapping):
        return {k: _rules_only(v) for k, v in entry.items() if not is_annotation(k)}
    return entry


#: The regimes speed-keyed tables may name; any other speed means the standard one.
REGIMES = ("standard", "rapid", "blitz")
#: The table of each end the termination order ranks (as ``adjudication.game.end_entry``).
END_TABLES = {"checkmate": "termination.checkmate", "stalemate": "termination.stalemate",
              "dead_position": "termination.dead_position",
              "fivefold_repetition": "repetition.automatic", "seventy_five_moves": "move_rule.automatic"}


def _regime_rules(data: Data, name: Any, clocked: bool) -> str:
    """What regime ``name`` decides, as text: its illegal-move table and, with a clock, its
    penalty (a regime without a table of its own gets the standard one, as the reference),
    and whether the both-flags rule covers it (FIDE III.2.2)."""
    name = name if name in REGIMES else "standard"
    sections = ("illegal_moves", "clocks.penalty") if clocked else ("illegal_moves",)
    covered = _get(data, "flag_fall.both_flags.regimes")
    return repr([_rules_only(_get(data, f"{s}.{name}") or _get(data, f"{s}.standard")) for s in sections]
                + [covered is None or name in covered])


def _band_regimes(data: Data, first: int, second: int) -> bool:
    bands = _get(data, "speed.bands") or []
    if not 0 <= first < len(bands) or not 0 <= second < len(bands):
        return False
    return _regime_rules(data, bands[first].get("regime"), True) == _regime_rules(data, bands[second].get("regime"), True)


def _dropped(data: Data, mutant: Mutant) -> int | None:
    """The index of the item ``mutant`` drops from its list, or None."""
    before, after = _at(data, mutant.path), mutant.value
    if not mutant.mutation.startswith("drop ") or not isinstance(before, list) or not isinstance(after, list):
        return None
    return next((i for i, item in enumerate(after) if item != before[i]), len(after))


def _never_loses(data: Data, mutant: Mutant) -> bool:
    entry = _at(data, mutant.path[:-1]) or {}
    unsupervised = entry.get("without_supervision") or {}
    return entry.get("loses_at") is None and unsupervised.get("loses_at") is None


def _dropped_end_not_automatic(data: Data, mutant: Mutant) -> bool:
    index = _dropped(data, mutant)
    order = _at(data, mutant.path) or []
    if index is None or index >= len(order):
        return False
    table = _get(data, END_TABLES.get(order[index], ""))
    return isinstance(table, Mapping) and table.get("kind") in ("claim", "discretionary")


def _rook_lands_beside_king(data: Data) -> bool:
    """Every castling side puts the king on c or g and its rook beside it towards the centre."""
    sides = _get(data, "castling.sides") or {}
    return bool(sides) and all(
        (side.get("king_to"), side.get("rook_to")) in (("g", "f"), ("c", "d")) for side in sides.values()
        if isinstance(side, Mapping)) and _get(data, "board.files") in (None, 8)


def _data_only(test: Callable[[Data], bool]) -> Callable[[Data, Mutant], bool]:
    return lambda data, _: test(data)


CONDITIONS: dict[str, Callable[[Data, Mutant], bool]] = {
    "orthodox": _data_only(lambda d: _get(d, "scope.variant") == "orthodox"),
    "move_rule_offers": _data_only(lambda d: _get(d, "move_rule.claim.counts_as_draw_offer") is True),
    "repetition_offers": _data_only(lambda d: _get(d, "repetition.claim.counts_as_draw_offer") is True),
    "repetition_touch_forfeits": _data_only(lambda d: _get(d, "repetition.claim.touch_forfeits") is True),
    "speed_same_illegal_rules": lambda d, m: _regime_rules(d, _get(d, "scope.speed"), False)
    == _regime_rules(d, m.value, False),
    "band_edge_same_regime": lambda d, m: _band_regimes(d, int(m.path[2]), int(m.path[2]) + 1),
    "band_regime_same_rules": lambda d, m: _regime_rules(d, _at(d, m.path), True) == _regime_rules(d, m.value, True),
    "dropped_band_same_regime": lambda d, m: (i := _dropped(d, m)) is not None and _band_regimes(d, i, i + 1),
    "never_loses": _never_loses,
    "rook_lands_beside_king": _data_only(_rook_lands_beside_king),
    "dropped_end_not_automatic": _dropped_end_not_automatic,
    "helpmate_draw_test": _data_only(lambda d: _get(d, "flag_fall.draw_test") == "opponent_cannot_checkmate"),
}


def _path_pattern(path: str) -> re.Pattern[str]:
    """A row's path as a pattern: ``*`` stands for one key, ``[*]`` for any index."""
    text = re.escape(path).replace(r"\[\*\]", r"\[\d+\]").replace(r"\*", r"[^.\[]+")
    return re.compile(text + "$")


def _matches(row: Exemption, mutant: Mutant) -> bool:
    if row.mutations is None:
        return True
    for wanted in row.mutations:
        if wanted in ("drop-band", "drop-end"):  # any item dropped: the condition says which
            if mutant.mutation.startswith("drop "):
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
        if _path_pattern(row.path).match(mutant.where) and _matches(row, mutant) \
                and (row.when is None or CONDITIONS[row.when](data, mutant)):
            return dataclasses.replace(mutant, equivalent=f"{row.reason} (exempt: conformance/tools/mutate/exempt.py)")
    return mutant
