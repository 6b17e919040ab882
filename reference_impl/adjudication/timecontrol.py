"""Time controls: parsing, the time for a number of moves, and the speed class.

The written form is the PGN ``TimeControl`` tag (PGN 9.6.1) with one extension for
delay clocks, which PGN cannot express:

==========================  ===================================================
``?`` / ``-``               unknown / no time control (parsed as ``None`` periods)
``300``                     sudden death: 300 s for all (remaining) moves
``40/5400``                 40 moves in 5400 s (a last field of this form repeats)
``5400+30``                 30 s increment after every move of the period
``5400d5`` / ``5400b5``     5 s simple (US) delay / Bronstein delay per move
``*180``                    sandclock: 180 s, time used flows to the opponent
``40/6000+30:20/3000+30:900+30``  periods in order, separated by ``:``
==========================  ===================================================

Times are held in integer milliseconds so that clock arithmetic is exact. The speed
class (FIDE A.1/B.1, US Chess 5C) is read from the ruleset's ``speed`` table; see
:func:`classify`.
"""

from __future__ import annotations

import re
from reference_impl.errors import GameEventError, quote
from reference_impl.records import record
from reference_impl.rules.model import Band, Speed
from reference_impl.text import NumberError, parse_int

#: One period: ``[moves/]seconds[(+|d|b)seconds]`` or ``*seconds``.
_PERIOD_RE = re.compile(
    r"^(?:(?P<moves>[1-9][0-9]*)/)?(?P<sand>\*)?(?P<base>[0-9]+(?:\.[0-9]{1,3})?)"
    r"(?:(?P<kind>[+db])(?P<extra>[0-9]+(?:\.[0-9]{1,3})?))?$"
)
_EXTRA_KINDS = {"+": "increment", "d": "simple", "b": "bronstein"}
#: Longest accepted control, per period (a week) - guards against absurd input.
_MAX_MS = 7 * 24 * 3600 * 1000


@record
class Period:
    """One period of a time control.

    ``moves`` is the number of moves to make in it, or ``None`` for all remaining
    moves (sudden death). ``delay_kind`` is ``"simple"``, ``"bronstein"`` or ``None``.
    """

    moves: int | None
    base_ms: int
    increment_ms: int = 0
    delay_ms: int = 0
    delay_kind: str | None = None
    sandclock: bool = False

    def text(self) -> str:
        """The period in the tag syntax."""
        out = f"{self.moves}/" if self.moves else ""
        out += ("*" if self.sandclock else "") + _seconds(self.base_ms)
        if self.increment_ms:
            out += "+" + _seconds(self.increment_ms)
        if self.delay_kind:
            out += ("d" if self.delay_kind == "simple" else "b") + _seconds(self.delay_ms)
        return out


@record
class TimeControl:
    """A parsed time control: periods in order. An empty tuple means none/unknown."""

    periods: tuple[Period, ...]

    @property
    def known(self) -> bool:
        return bool(self.periods)

    def period(self, index: int) -> Period:
        """Period ``index`` (0-based); a last period with a move count repeats."""
        return self.periods[min(index, len(self.periods) - 1)]

    def is_last_period(self, index: int) -> bool:
        """True when period ``index`` is the one in which all remaining moves are due."""
        return self.period(index).moves is None

    def period_start_move(self, index: int) -> int:
        """The move number (1-based) with which period ``index`` begins."""
        start = 1
        for i in range(index):
            moves = self.period(i).moves
            if moves is None:
                break
            start += moves
        return start

    def text(self) -> str:
        return ":".join(p.text() for p in self.periods) if self.periods else "-"


def _seconds(ms: int) -> str:
    return str(ms // 1000) if ms % 1000 == 0 else f"{ms / 1000:g}"


def _ms(text: str) -> int:
    whole, _, frac = text.partition(".")
    return parse_int(whole, "seconds") * 1000 + int((frac + "000")[:3])


def parse(text: str) -> TimeControl:
    """Parse a time control; raise :class:`GameEventError` naming the bad part."""
    spec = text.strip()
    if spec in ("?", "-", ""):
        return TimeControl(())
    periods: list[Period] = []
    fields = spec.split(":")
    for number, field in enumerate(fields, 1):
        where = f"malformed time control {quote(text)}"
        if len(fields) > 1:
            where += f": period {number} {quote(field)}"
        match = _PERIOD_RE.match(field.strip())
        if match is None:
            raise GameEventError(f"{where} is not [moves/]seconds[+increment|dDELAY|bDELAY] or *seconds")
        try:
            moves = parse_int(match["moves"], "move count") if match["moves"] else None
            base = _ms(match["base"])
            extra = _ms(match["extra"]) if match["extra"] else 0
        except NumberError as error:
            raise GameEventError(f"{where}: {error.reason}") from None
        if moves is None and number < len(fields):
            raise GameEventError(f"{where} has no move count but is not the last period")
        sand = bool(match["sand"])
        if sand and (moves or match["kind"] or len(fields) > 1):
            raise GameEventError(f"malformed time control {quote(text)}: a sandclock ('*seconds') stands alone")
        kind = _EXTRA_KINDS.get(match["kind"] or "")
        if base <= 0 or base > _MAX_MS or extra > _MAX_MS:
            raise GameEventError(f"{where} has an impossible time (must be more than 0 s and at most a week)")
        periods.append(
            Period(
                moves=moves,
                base_ms=base,
                increment_ms=extra if kind == "increment" else 0,
                delay_ms=extra if kind in ("simple", "bronstein") else 0,
                delay_kind=kind if kind in ("simple", "bronstein") else None,
                sandclock=sand,
            )
        )
    return TimeControl(tuple(periods))


def minutes_for(control: TimeControl, moves: int, counts: tuple[str, ...]) -> float:
    """Minutes a player has for the first ``moves`` moves.

    The base time of every period that begins by move ``moves``, plus, for each
    move, the per-move addition of its period named in ``counts`` (``increment``,
    ``delay``). FIDE A.1 counts the increment; US Chess 5C counts delay too.
    """
    total_ms = 0
    index = 0
    move = 1
    while move <= moves:
        period = control.period(index)
        total_ms += period.base_ms
        span = period.moves if period.moves is not None else moves - move + 1
        last = min(moves, move + span - 1)
        per_move = (period.increment_ms if "increment" in counts else 0) + (
            period.delay_ms if "delay" in counts else 0
        )
        total_ms += per_move * (last - move + 1)
        move = last + 1
        index += 1
    return total_ms / 60000


def speed_minutes(control: TimeControl, speed: Speed) -> float:
    """The minutes the ruleset's ``speed`` table counts for ``control`` (``moves_assumed``
    moves, with the per-move additions its ``counts`` names)."""
    return minutes_for(control, speed.moves_assumed, speed.counts)


def classify(control: TimeControl, speed: Speed) -> Band:
    """The speed band a time control falls in, per the ruleset's ``speed`` table.

    ``bands`` lists, in ascending order, ``{class, regime, below, inclusive, cite}``;
    the first band whose upper bound (``below`` minutes, inclusive or not) admits the
    control's minutes (:func:`speed_minutes`) wins; a band without ``below`` takes
    everything above.
    """
    if not control.known:
        raise GameEventError("cannot classify an unknown time control ('?' or '-')")
    minutes = speed_minutes(control, speed)
    for band in speed.bands:
        bound = band.below
        if bound is None or minutes < bound or (band.inclusive and minutes == bound):
            return band
    raise GameEventError(f"no speed band of the ruleset admits {minutes:g} minutes")
