"""A chess clock as a pure value: increment, delay, periods, sandclock, penalties.

``Clock`` never changes in place; every operation returns a new clock. Times are
integer milliseconds. Colours are ``0`` (White) and ``1`` (Black).

* Increment (FIDE 6.3.1, US Chess 5B1b): added after each completed move.
* Simple delay (FIDE 6.3.2, US Chess 5B1a): the main time only runs once the delay
  has passed; unused delay is not banked. A move may take ``remaining + delay``.
* Bronstein delay: the clock runs from the first instant and, after the move, gives
  back the time used up to the delay. A move may take only ``remaining``; afterwards
  the remaining time is the same as under simple delay.
* Periods (FIDE 6.3.2, US Chess 5D): when a player completes the moves of a period,
  the next period's base time is added; saved time carries over (``carry_over``;
  without it the next period starts from its base time alone).
* Sandclock (PGN 9.6.1 ``*``): time used by one player is added to the other.

A flag falls when a move takes at least all the time the player has for it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reference_impl.errors import GameEventError

from .timecontrol import TimeControl


def _pair(values: tuple[int, int], color: int, value: int) -> tuple[int, int]:
    return (value, values[1]) if color == 0 else (values[0], value)


@dataclass(frozen=True)
class Clock:
    """Both players' remaining time, completed moves and current period."""

    control: TimeControl
    remaining_ms: tuple[int, int]
    moves: tuple[int, int] = (0, 0)
    period: tuple[int, int] = (0, 0)
    flagged: tuple[bool, bool] = (False, False)
    #: time saved in one period is kept in the next (FIDE 6.3.2, US Chess 5D)
    carry_over: bool = True

    @classmethod
    def start(cls, control: TimeControl, moves: tuple[int, int] = (0, 0), carry_over: bool = True) -> "Clock":
        """A clock at the start of ``control``; ``moves`` already made (a FEN start).

        Periods already completed by those moves have added their time.
        """
        if not control.known:
            raise GameEventError("cannot start a clock without a time control")
        clock = cls(control, (control.period(0).base_ms, control.period(0).base_ms), carry_over=carry_over)
        for color in (0, 1):
            for _ in range(moves[color]):
                clock = clock._count_move(color)
        return clock

    def available_ms(self, color: int) -> int:
        """The longest a move by ``color`` may take now without the flag falling."""
        period = self.control.period(self.period[color])
        extra = period.delay_ms if period.delay_kind == "simple" else 0
        return self.remaining_ms[color] + extra

    def spend(self, color: int, elapsed_ms: int) -> "Clock":
        """``color`` completes a move that took ``elapsed_ms``.

        If the move took all the time available, the returned clock has the flag of
        ``color`` down and its remaining time at zero; no increment is added.
        """
        if elapsed_ms < 0:
            raise GameEventError(f"negative time for a move: {elapsed_ms / 1000:g} s")
        period = self.control.period(self.period[color])
        if elapsed_ms >= self.available_ms(color):
            return replace(
                self,
                remaining_ms=_pair(self.remaining_ms, color, 0),
                flagged=_pair(self.flagged, color, True),  # type: ignore[arg-type]
            )
        if period.delay_kind == "simple":
            used = max(0, elapsed_ms - period.delay_ms)
        elif period.delay_kind == "bronstein":
            used = elapsed_ms - min(elapsed_ms, period.delay_ms)
        else:
            used = elapsed_ms
        remaining = self.remaining_ms[color] - used + period.increment_ms
        clock = replace(self, remaining_ms=_pair(self.remaining_ms, color, remaining))
        if period.sandclock:
            other = 1 - color
            clock = replace(
                clock,
                remaining_ms=_pair(clock.remaining_ms, other, clock.remaining_ms[other] + used),
            )
        return clock._count_move(color)

    def _count_move(self, color: int) -> "Clock":
        moves = self.moves[color] + 1
        index = self.period[color]
        clock = replace(self, moves=_pair(self.moves, color, moves))
        period = self.control.period(index)
        if period.moves is not None and moves == self.control.period_start_move(index + 1) - 1:
            nxt = self.control.period(index + 1)
            clock = replace(
                clock,
                period=_pair(clock.period, color, index + 1),
                remaining_ms=_pair(clock.remaining_ms, color, nxt.base_ms + (clock.remaining_ms[color] if self.carry_over else 0)),
            )
        return clock

    def add(self, color: int, ms: int) -> "Clock":
        """Give ``color`` extra time (a penalty on the opponent, FIDE 7.5.5, 9.5.3)."""
        return replace(self, remaining_ms=_pair(self.remaining_ms, color, self.remaining_ms[color] + ms))

    def set_remaining(self, color: int, ms: int) -> "Clock":
        """Record a clock reading (e.g. a PGN ``%clk`` comment); zero drops the flag."""
        if ms < 0:
            raise GameEventError(f"negative clock reading: {ms / 1000:g} s")
        return replace(
            self,
            remaining_ms=_pair(self.remaining_ms, color, ms),
            flagged=_pair(self.flagged, color, ms == 0),  # type: ignore[arg-type]
        )

    def in_last_period(self, color: int) -> bool:
        """True when ``color`` must make all remaining moves in the current period."""
        return self.control.is_last_period(self.period[color])
