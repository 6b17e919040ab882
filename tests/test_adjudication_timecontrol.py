"""Time controls, speed classes and the clock (FIDE 6.3, A.1, B.1; US Chess 5B-5D).

Expectations are worked out by hand from the article texts: FIDE classifies by base
minutes + 60 x increment with strict bounds (blitz <= 10 < rapid < 60 <= standard);
US Chess by mm + ss (blitz 5-10, quick 10-30, dual 30-65, regular above 65).
"""

from __future__ import annotations

import pytest

from reference_impl.adjudication.clocks import Clock
from reference_impl.adjudication.timecontrol import classify, minutes_for, parse
from reference_impl.errors import ArbiterError, GameEventError
from reference_impl.rules.loader import load_ruleset


def speed_class(ruleset: str, control: str) -> str:
    speed = load_ruleset(ruleset).model.speed
    assert speed is not None
    return classify(parse(control), speed).class_


@pytest.mark.parametrize(
    "control, expected",
    [
        ("180+2", "blitz"),      # 3 + 2 = 5
        ("600", "blitz"),        # exactly 10: "10 minutes or less"
        ("300+5", "blitz"),      # 5 + 5 = 10
        ("601", "rapid"),        # just over 10
        ("900+10", "rapid"),     # 15 + 10 = 25
        ("600+5", "rapid"),      # 10 + 5 = 15
        ("3540", "rapid"),       # 59
        ("2700+15", "standard"), # 45 + 15 = 60: not rapid (strict "less than 60")
        ("3600", "standard"),
        ("40/6000+30:20/3000+30:900+30", "standard"),
    ],
)
def test_fide_2023_a_1_b_1_speed_bands(control: str, expected: str) -> None:
    assert speed_class("fide-2023", control) == expected


@pytest.mark.parametrize(
    "control, expected",
    [
        ("300", "blitz"),        # G/5 d0
        ("600", "blitz"),        # G/10: 10 is still blitz
        ("540d1", "blitz"),      # 9 + 1 = 10
        ("600d3", "quick"),      # G/10 d3 = 13
        ("1500d5", "dual"),      # G/25 d5 = 30: 30 is dual
        ("1740", "quick"),       # 29
        ("3600d5", "dual"),      # G/60 d5 = 65: 65 is dual
        ("3660d5", "regular"),   # 61 + 5 = 66
        ("5400+30", "regular"),
    ],
)
def test_uscf_7_5c_speed_bands_count_delay(control: str, expected: str) -> None:
    assert speed_class("uscf-7", control) == expected


def test_fide_counts_increment_but_not_delay() -> None:
    # 55 minutes with a 10 s delay: FIDE counts no delay (55 -> rapid); US Chess adds it.
    assert speed_class("fide-2023", "3300d10") == "rapid"
    assert speed_class("uscf-7", "3300d10") == "dual"


def test_multi_period_minutes_for_sixty_moves() -> None:
    control = parse("40/6000+30:20/3000+30:900+30")
    # 100 + 50 minutes of base time (period 2 starts at move 41) + 60 x 30 s.
    assert minutes_for(control, 60, ("increment",)) == 180
    assert control.period_start_move(2) == 61
    assert control.text() == "40/6000+30:20/3000+30:900+30"


@pytest.mark.parametrize(
    "text",
    ["40/", "abc", "300:40/60", "0", "*60+2", "40/60+", "90+30:40/600", "1e5", "-300", "9999999999"],
)
def test_malformed_time_control_names_the_text(text: str) -> None:
    with pytest.raises(GameEventError) as info:
        parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ArbiterError)


def test_unknown_and_none_time_controls() -> None:
    assert not parse("?").known and not parse("-").known


def test_increment_added_after_each_move_and_periods_add_time() -> None:
    clock = Clock.start(parse("40/6000+30:20/3000+30:900+30"))
    for _ in range(40):
        clock = clock.spend(0, 100_000)
    # 6000 - 40*100 + 40*30 = 3200 s, then the second period's 3000 s.
    assert clock.remaining_ms[0] == 6_200_000 and clock.period[0] == 1
    for _ in range(20):
        clock = clock.spend(0, 1_000)
    assert clock.remaining_ms[0] == 6_200_000 + 20 * 29_000 + 900_000
    assert clock.in_last_period(0) and not clock.in_last_period(1)


def test_repeating_last_period_adds_its_time_again() -> None:
    clock = Clock.start(parse("40/7200"))
    for _ in range(40):
        clock = clock.spend(1, 60_000)
    assert clock.remaining_ms[1] == 7_200_000 - 2_400_000 + 7_200_000
    assert not clock.in_last_period(1)


def test_simple_delay_gives_remaining_plus_delay_bronstein_only_remaining() -> None:
    simple, bronstein = Clock.start(parse("300d5")), Clock.start(parse("300b5"))
    assert simple.spend(0, 4_000).remaining_ms[0] == 300_000   # delay not used up: no charge
    assert bronstein.spend(0, 4_000).remaining_ms[0] == 300_000  # given back after the move
    assert not simple.spend(0, 304_999).flagged[0]
    assert simple.spend(0, 305_000).flagged[0]
    assert bronstein.spend(0, 300_000).flagged[0]
    assert bronstein.spend(0, 299_999).remaining_ms[0] == 5_001


def test_flag_falls_at_zero_and_no_increment_is_added() -> None:
    clock = Clock.start(parse("60+30")).spend(0, 60_000)
    assert clock.flagged == (True, False) and clock.remaining_ms[0] == 0


def test_sandclock_passes_time_used_to_the_opponent() -> None:
    clock = Clock.start(parse("*60")).spend(0, 10_000)
    assert clock.remaining_ms == (50_000, 70_000)


def test_start_from_a_position_counts_the_moves_already_made() -> None:
    clock = Clock.start(parse("40/6000:900"), moves=(40, 39))
    assert clock.period == (1, 0)
    assert clock.remaining_ms == (6_900_000, 6_000_000)


def test_penalty_and_clock_reading() -> None:
    clock = Clock.start(parse("300")).add(1, 120_000).set_remaining(0, 0)
    assert clock.remaining_ms == (0, 420_000) and clock.flagged == (True, False)
    with pytest.raises(GameEventError):
        clock.spend(0, -1)
