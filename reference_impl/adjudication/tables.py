"""The adjudication tables of a ruleset's model, looked up by speed regime.

Every function takes the ruleset's :class:`~reference_impl.rules.model.Model` and returns
typed entries; nothing here knows a federation. What a table lacks is the schema's to
say (its defaults, and ``x-default-from`` for a regime without an entry of its own), so
a table the question needs and the ruleset has not got is a :class:`RulesetError`
naming the key.
"""

from __future__ import annotations

from typing import TypeVar

from reference_impl.errors import RulesetError
from reference_impl.rules.model import Band, IllegalRegime, Model, Regime
from reference_impl.rules.reader import schema_default

from .timecontrol import TimeControl, classify

T = TypeVar("T")

#: The speed regimes, in the order the tables list them.
REGIMES: tuple[Regime, ...] = ("standard", "rapid", "blitz")


def need(model: Model, value: T | None, key: str) -> T:
    """``value``, or :class:`RulesetError` naming ``key`` when the ruleset has none."""
    if value is None:
        raise RulesetError(f"ruleset {model.id}: no adjudication entry {key}")
    return value


def default_regime() -> Regime:
    """The regime of a game whose speed nothing states (the schema's ``regime`` default)."""
    value = schema_default("adjudication.schema.json#/$defs/regime")
    return value if value in REGIMES else "standard"


def band(model: Model, control: TimeControl | None) -> Band | None:
    """The speed band of a known time control (FIDE A.1/B.1, US Chess 5C), if the
    ruleset has bands."""
    if control is None or not control.known or model.speed is None or not model.speed.bands:
        return None
    return classify(control, model.speed)


def regime(model: Model, control: TimeControl | None) -> Regime:
    """The regime (``standard``, ``rapid``, ``blitz``) for speed-keyed tables.

    A known time control decides through the ``speed`` bands; otherwise the ruleset's
    ``scope.speed`` (``any``: the default regime).
    """
    found = band(model, control)
    if found is not None:
        return found.regime
    speed = model.scope.speed
    return speed if speed != "any" else default_regime()


def penalty_ms(model: Model, regime_name: Regime, supervised: bool = True) -> int:
    """The time added to the opponent for an illegal move or incorrect claim.

    Under adequate supervision an entry whose ``full_supervision`` is
    ``competition_rules`` gives the standard regime's penalty instead (FIDE 2023 B.2 read
    literally); ``this_regime`` keeps its own."""
    penalty = model.clocks.penalty
    entry = {"standard": penalty.standard, "rapid": penalty.rapid, "blitz": penalty.blitz}[regime_name]
    if entry is not None and supervised and entry.full_supervision == "competition_rules":
        entry = penalty.standard or entry
    return entry.seconds * 1000 if entry is not None else 0


def clock_press_is_illegal_move(model: Model) -> bool:
    """Whether a clock pressed without a move counts as an illegal move
    (``illegal_moves.clock_press_without_move``: FIDE 7.5.3 since 2017; not under FIDE 2014)."""
    table = model.illegal_moves
    return table is None or table.clock_press_without_move == "illegal_move"


def illegal_regime(model: Model, regime_name: Regime, supervised: bool = True) -> IllegalRegime:
    """The ``illegal_moves`` entry for a regime; without adequate supervision, its
    ``without_supervision`` form (FIDE 2014 A.4 against A.3: the first illegal move
    loses instead of the second)."""
    table = need(model, model.illegal_moves, "illegal_moves")
    entries = {"standard": table.standard, "rapid": table.rapid, "blitz": table.blitz}
    entry = need(model, entries[regime_name], f"illegal_moves.{regime_name}")
    if not supervised and entry.without_supervision is not None:
        return entry.without_supervision
    return entry


def flag_noticed(model: Model) -> bool:
    """True when a fallen flag ends the game as soon as it is seen (``flag_fall.when:
    noticed``, FIDE 6.8); false when only a player's claim makes it a result
    (``claimed``, US Chess 13C1)."""
    return need(model, model.flag_fall, "flag_fall").when == "noticed"
