"""Completed illegal moves per edition and speed: FIDE 2023 7.5.5 (+2 min, the second
loses, a draw if the opponent cannot mate), A.3 (rapid: +1 min), B.3 (blitz), FIDE
2014 (rapid/blitz: the first loses), US Chess 11D (+2 min every time), US Chess blitz
(the first loses on a claim, if the claimant has mating material).

Expectations are read from the articles as digested; the speed comes from the time
control (A.1/B.1, 5C) or, without one, from the ruleset's scope.
"""

from __future__ import annotations

from reference_impl.adjudication.game import Game
from reference_impl.rules import derive_ruleset



def test_fide_2023_7_5_5_first_illegal_move_two_minutes_second_loses() -> None:
    game = Game("fide-2023", time_control="5400+30")
    status = game.illegal_move()
    assert not status.finished and status.clock_ms == (5_400_000, 5_400_000 + 120_000)
    status = game.illegal_move()
    assert (status.result, status.reason, status.cite) == ("0-1", "illegal_move", "fide-2023:7.5.5")


def test_fide_2023_7_5_5_second_illegal_move_draws_if_the_opponent_cannot_mate() -> None:
    # White (K+Q) makes two illegal moves; Black has a lone king and cannot mate.
    game = Game("fide-2023", "8/8/4k3/8/8/3QK3/8/8 w - - 0 60")
    game.illegal_move()
    status = game.illegal_move()
    assert (status.result, status.reason) == ("1/2-1/2", "illegal_move")


def test_illegal_moves_are_counted_per_player() -> None:
    game = Game("fide-2023")
    game.illegal_move()          # White's first
    game.move("e2e4")
    game.illegal_move()          # Black's first
    assert not game.finished
    game.move("e7e5")
    assert game.illegal_move().result == "0-1"  # White's second


def test_fide_2023_a_3_rapid_one_minute_then_the_loss_of_7_5_5_through_a_4() -> None:
    game = Game("fide-2023", time_control="900+10")  # 25 minutes: rapid (A.1)
    assert game.regime == "rapid" and game.speed_class == "rapid"
    assert game.illegal_move().clock_ms == (900_000, 960_000)
    assert game.illegal_move().cite == "fide-2023:A.4"  # A.3 only sets the minute


def test_fide_2023_rapid_ruleset_without_time_control_uses_its_scope() -> None:
    game = Game("fide-2023-rapid")
    assert game.regime == "rapid"
    game.illegal_move()
    assert game.illegal_move().cite == "fide-2023:A.4"


def test_fide_2023_b_3_blitz_one_minute_then_loss() -> None:
    game = Game("fide-2023-blitz", time_control="180+2")
    assert game.illegal_move().clock_ms == (180_000, 240_000)
    assert game.illegal_move().cite == "fide-2023:B.2"  # supervised: the Competition Rules' 7.5.5


def test_b_2_full_supervision_reading_is_a_table_key_one_row_away() -> None:
    """FIDE 2023 B.2 under full supervision: the table encodes one minute (this_regime);
    the literal reading (competition_rules) gives the standard two minutes, and only
    where play is supervised."""
    literal = derive_ruleset("fide-2023-blitz", {"clocks": {"penalty": {"blitz": {"full_supervision": "competition_rules"}}}},
                             id="fide-2023-blitz-literal")
    assert Game("fide-2023-blitz", time_control="180+2").illegal_move().clock_ms == (180_000, 240_000)
    assert Game(literal, time_control="180+2").illegal_move().clock_ms == (180_000, 300_000)
    unsupervised = Game(literal, time_control="180+2", supervised=False)
    assert unsupervised.illegal_move().clock_ms == (180_000, 240_000)  # B.3: A.3's minute
    claim = Game(literal, time_control="180+2").claim_draw("white", claim="threefold_repetition")
    assert claim.penalty_ms == 120_000  # 9.5.3's two minutes


def test_a_clock_pressed_without_a_move_is_an_illegal_move_since_2017_only() -> None:
    """FIDE 7.5.3 (2018 7.5.3, from 1 July 2017) against 2014 6.2."""
    for ruleset in ("fide-2023", "fide-2018"):
        game = Game(ruleset)
        game.illegal_move(without_move=True)
        assert game.illegal_move(without_move=True).result == "0-1", ruleset
    game = Game("fide-2014", time_control="5400+30")
    for _ in range(3):
        status = game.illegal_move(without_move=True)
    assert status.result == "*" and status.clock_ms == (5_400_000, 5_400_000)
    assert game.illegal_move().clock_ms == (5_400_000, 5_520_000)  # a real one still counts


def test_fide_2023_45_plus_15_is_standard_so_two_minutes() -> None:
    game = Game("fide-2023", time_control="2700+15")
    assert game.regime == "standard"
    assert game.illegal_move().clock_ms == (2_700_000, 2_820_000)


def test_fide_2018_rapid_two_minutes_blitz_one() -> None:
    assert Game("fide-2018", time_control="900+10").illegal_move().clock_ms == (900_000, 1_020_000)
    assert Game("fide-2018", time_control="180+2").illegal_move().clock_ms == (180_000, 240_000)


def test_fide_2014_rapid_and_blitz_first_illegal_move_loses_without_supervision() -> None:
    # A.4 b / B.4: without adequate supervision the first completed illegal move loses.
    for control, cite in (("900+10", "fide-2014:A.4.b"), ("180+2", "fide-2014:B.4")):
        status = Game("fide-2014", time_control=control, supervised=False).illegal_move()
        assert (status.result, status.cite) == ("0-1", cite), control
    # A.3 / B.3: with adequate supervision the Competition Rules apply: the second loses.
    for control, cite in (("900+10", "fide-2014:A.3"), ("180+2", "fide-2014:B.3")):
        game = Game("fide-2014", time_control=control)
        assert not game.illegal_move().finished
        assert game.illegal_move().cite == cite
    # Standard play in 2014: the second one loses, like 2018, supervised or not.
    game = Game("fide-2014", time_control="5400+30", supervised=False)
    assert not game.illegal_move().finished
    assert game.illegal_move().cite == "fide-2014:7.5.b"


def test_uscf_7_11d_two_minutes_every_time_never_a_loss() -> None:
    game = Game("uscf-7", time_control="5400d5")
    for n in range(1, 4):
        status = game.illegal_move()
        assert not status.finished
        assert status.clock_ms == (5_400_000, 5_400_000 + n * 120_000)


def test_uscf_7_blitz_first_illegal_move_loses_on_a_claim() -> None:
    game = Game("uscf-7-blitz", time_control="300")
    status = game.illegal_move(claimed=True)
    assert (status.result, status.cite) == ("0-1", "uscf-7:blitz.illegal-move")


def test_uscf_7_blitz_unclaimed_illegal_move_has_no_effect() -> None:
    game = Game("uscf-7", time_control="300")  # 5 minutes: blitz by 5C
    assert game.regime == "blitz"
    status = game.illegal_move(claimed=False)
    assert not status.finished and status.clock_ms == (300_000, 300_000)


def test_uscf_7_blitz_claimant_without_mating_material_gets_a_draw() -> None:
    # White (K+Q) moves illegally; Black, a lone king, has no mating material (13C/14E1).
    game = Game("uscf-7-blitz", "8/8/4k3/8/8/3QK3/8/8 w - - 0 60")
    status = game.illegal_move(claimed=True)
    assert (status.result, status.reason) == ("1/2-1/2", "illegal_move")
