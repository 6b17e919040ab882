"""Reading the adjudication tables of a resolved ruleset.

Every function takes the resolved ruleset (a mapping, or anything with ``get`` such
as :class:`reference_impl.rules.loader.Ruleset`) and returns plain values; nothing here
knows a federation. A missing table is a :class:`RulesetError` naming the key.
"""

from __future__ import annotations

from typing import Any, Mapping

from reference_impl.errors import RulesetError

from .timecontrol import TimeControl, classify

#: Regime used when neither a time control nor ``scope.speed`` says otherwise.
DEFAULT_REGIME = "standard"


def table(rules: Mapping[str, Any], *path: str) -> Any:
    """The entry at ``path`` (e.g. ``"repetition", "claim"``); error if absent."""
    node: Any = rules
    for depth, key in enumerate(path):
        if not hasattr(node, "get") or node.get(key) is None:
            name = getattr(rules, "id", None) or rules.get("id", "?")
            raise RulesetError(f"ruleset {name}: no adjudication entry {'.'.join(path[: depth + 1])}")
        node = node[key]
    return node


def optional(rules: Mapping[str, Any], *path: str) -> Any:
    """The entry at ``path``, or ``None`` when any key on the way is absent."""
    node: Any = rules
    for key in path:
        if not hasattr(node, "get") or node.get(key) is None:
            return None
        node = node[key]
    return node


def regime(rules: Mapping[str, Any], control: TimeControl | None) -> str:
    """The regime (``standard``, ``rapid``, ``blitz``) for speed-keyed tables.

    A known time control decides through the ``speed`` bands (FIDE A.1/B.1, US Chess
    5C); otherwise the ruleset's ``scope.speed``; otherwise ``standard``.
    """
    if control is not None and control.known and optional(rules, "speed", "bands"):
        return str(classify(control, table(rules, "speed"))["regime"])
    speed = optional(rules, "scope", "speed")
    return str(speed) if speed in ("standard", "rapid", "blitz") else DEFAULT_REGIME


#: ``clocks.penalty.<regime>.full_supervision``'s schema default: under full supervision
#: the regime's own penalty applies.
FULL_SUPERVISION_DEFAULT = "this_regime"
#: ``illegal_moves.clock_press_without_move``'s schema default (FIDE 7.5.3).
CLOCK_PRESS_DEFAULT = "illegal_move"


def penalty_ms(rules: Mapping[str, Any], regime_name: str, supervised: bool = True) -> int:
    """The time added to the opponent for an illegal move or incorrect claim.

    Under adequate supervision an entry whose ``full_supervision`` is
    ``competition_rules`` gives the standard regime's penalty instead (FIDE 2023 B.2 read
    literally); ``this_regime`` keeps its own."""
    entry = optional(rules, "clocks", "penalty", regime_name) or optional(
        rules, "clocks", "penalty", DEFAULT_REGIME
    )
    if entry and supervised and (entry.get("full_supervision") or FULL_SUPERVISION_DEFAULT) == "competition_rules":
        entry = optional(rules, "clocks", "penalty", DEFAULT_REGIME) or entry
    return int(entry["seconds"]) * 1000 if entry else 0


def clock_press_is_illegal_move(rules: Mapping[str, Any]) -> bool:
    """Whether a clock pressed without a move counts as an illegal move
    (``illegal_moves.clock_press_without_move``: FIDE 7.5.3 since 2017; not under FIDE 2014)."""
    value = optional(rules, "illegal_moves", "clock_press_without_move") or CLOCK_PRESS_DEFAULT
    return value == "illegal_move"


def illegal_regime(rules: Mapping[str, Any], regime_name: str, supervised: bool = True) -> Mapping[str, Any]:
    """The ``illegal_moves`` entry for a regime (falls back to ``standard``).

    Without adequate supervision the entry's ``without_supervision`` is merged over it
    (FIDE 2014 A.4 against A.3: the first illegal move loses instead of the second)."""
    entry = optional(rules, "illegal_moves", regime_name)
    if entry is None:
        entry = table(rules, "illegal_moves", DEFAULT_REGIME)
    unsupervised = None if supervised else entry.get("without_supervision")
    if not unsupervised:
        return entry
    return {**{k: entry[k] for k in entry if k != "without_supervision"}, **dict(unsupervised.items())}


def flag_noticed(rules: Mapping[str, Any]) -> bool:
    """True when a fallen flag ends the game as soon as it is seen (``flag_fall.when:
    noticed``, FIDE 6.8); false when only a player's claim makes it a result
    (``claimed``, US Chess 13C1)."""
    when = table(rules, "flag_fall", "when")
    if when not in ("noticed", "claimed"):
        raise RulesetError(f"ruleset {rules.get('id', '?')}: flag_fall.when must be noticed or claimed, not {when!r}")
    return when == "noticed"
