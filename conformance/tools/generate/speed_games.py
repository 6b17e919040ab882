"""``game`` fixtures in which the time control's speed class picks the illegal-move rule.

The speed class of a game with a time control comes from the control, not from the
ruleset's own speed: a standard control under a rapid or blitz ruleset is judged by the
standard rules. Under FIDE 7.5.5 (2014 7.5 b) the second completed illegal move of a
standard game loses, but is a draw when the opponent cannot checkmate by any series of
legal moves; one such game runs under every FIDE ruleset with a 90-minute control.

US Chess 7: the blitz band's edge (5C) and the blitz illegal-move rule.

Under US Chess a completed illegal move costs two minutes in every class but blitz
(11D, 1C2a); in blitz the first one loses on a claim when the claimant has mating
material, and is a draw when not (the blitz chapter, read through a summary). Which
rule applies follows the time control's class, 5C: minutes plus seconds of delay or
increment ("mm + ss": each second counts as a minute), blitz from 5 to 10 inclusive
(the primary time at least 3 minutes), quick above 10 and below 30, dual 30 to 65. So one White
illegal move after 1.e4 e5 shows the class of a control at the blitz edge: a loss
(``0-1``) for blitz, the game going on (``*``) for quick.

"Mating material" is read as for a win on time (13C with 14E's rows: a lone king,
king and one minor piece, king and two knights are insufficient; anything else is
sufficient): a lone king is none, a king and a pawn is some even where that pawn can
never take part in a mate (the position is labelled ``W-``: only White can mate).

The US Chess games name only ``uscf-7`` and ``uscf-7-blitz``: a time control decides the
class under both. Nothing here asks the reference implementation; python-chess checks
every FEN.

Run: ``python -m conformance.tools.generate.speed_games --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .common import Fixture, main
from .games import (ALL, F14, F18, F23, F23B, F23R, FIDE, FIDE_2017, ILL_RAPID, ILL_STD, INCORRECT, ONGOING,
                    Q_INCORRECT, Q_UNSUPERVISED, SPEED_CITES, US, USB, Case, case_fixture, claim, illegal, mv,
                    res, timed)

US_ONLY = (US, USB)
BLITZ_RULE = ("US Chess blitz: 'a completed illegal move loses on a claim (or capture of the king) "
              "before the opponent's next move, if the claimant has mating material', else a draw; "
              "US Chess 11D and 1C2a: in the other classes two minutes are added to the opponent's "
              "clock and the game goes on")
BANDS = ("US Chess 5C: the class is read from minutes + seconds (delay or increment seconds, each "
         "counted as a minute): blitz 5 to 10 inclusive, quick more than 10 and less than 30, dual 30 to 65, regular above")
LOSS = res("0-1", "illegal_moves")
#: (name, control, the sum in words, blitz?)
EDGE: list[tuple[str, str, str, bool]] = [
    ("ten-minutes", "600", "10 + 0 = 10: blitz (inclusive)", True),
    ("eleven-minutes", "660", "11 + 0 = 11: quick", False),
    ("five-plus-five", "300+5", "5 + 5 = 10: blitz (inclusive)", True),
    ("five-minutes-three-seconds-plus-five", "303+5",
     "5.05 + 5 = 10.05: more than 10, quick", False),
    ("ten-plus-five", "600+5", "10 + 5 = 15: the increment counts, quick", False),
    ("ten-delay-five", "600d5", "10 + 5 = 15: the delay counts, quick", False),
    ("forty-minutes", "2400", "40 + 0 = 40: dual (30 to 65), penalised as regular", False),
]
#: A lone king: no mating material. King and a pawn that never mates: mating material.
LONE_KING = "4k3/8/8/8/8/8/4P3/3QK3 w - - 0 40"
PAWN_NEVER_MATES = "8/8/8/7p/5k1K/7P/8/8 w - - 0 1"


def edge_cases() -> list[Case]:
    """One White illegal move under a control at the blitz band's edge."""
    return [Case(
        f"uscf.speed-edge.{name}", f"{control}: White completes an illegal move after 1.e4 e5; "
        "the class of the control decides", mv("e2e4", "e7e5") + [illegal("white", "e1e3")],
        ("uscf-7:5C", "uscf-7:11D", "uscf-7:1C2a", "uscf-7:blitz.illegal-move"),
        ("illegal-move", "speed-band"), f"{BANDS}; {control}: {words}; {BLITZ_RULE}; Black has "
        "every piece: mating material", default=LOSS if blitz else ONGOING, time_control=control,
        rulesets=US_ONLY) for name, control, words, blitz in EDGE]


def material_cases() -> list[Case]:
    """A blitz illegal move where the claimant's mating material decides."""
    return [
        Case("uscf.blitz-illegal.claimant-lone-king", "180+2: White completes an illegal move; "
             "Black has a lone king", [illegal("white", "e1e3")],
             ("uscf-7:5C", "uscf-7:blitz.illegal-move", "uscf-7:14E1"), ("illegal-move", "lone-king"),
             f"{BLITZ_RULE}; 3 + 2 = 5: blitz; a lone king is no mating material (14E1): a draw",
             default=res("1/2-1/2", "illegal_moves"), fen=LONE_KING, time_control="180+2",
             rulesets=US_ONLY),
        Case("uscf.blitz-illegal.claimant-pawn-never-mates", "180+2: White completes an illegal move; "
             "Black's king and pawn can never mate, but are mating material by 14E's rows",
             [illegal("white", None)],
             ("uscf-7:5C", "uscf-7:blitz.illegal-move", "uscf-7:14E"),
             ("illegal-move", "labelled"),
             f"{BLITZ_RULE}; 3 + 2 = 5: blitz; king and pawn are in no row of 14E, so Black has "
             "mating material and White's illegal move loses, though Black cannot checkmate by any "
             "series of legal moves (labelled W- in labelled.txt, Chess Unwinnability Analyzer test "
             "vectors): US Chess has no FIDE 7.5.5 draw for that", default=LOSS,
             fen=PAWN_NEVER_MATES, time_control="180+2", rulesets=US_ONLY),
    ]


SECOND_ILLEGAL = ("FIDE 7.5.5 (2018 7.5.5, 2014 7.5 b): 'for the second completed illegal move by the "
                  "same player the arbiter shall declare the game lost by this player. However, the game "
                  "is drawn if the position is such that the opponent cannot checkmate the player's king "
                  "by any series of legal moves'; A.1 (2023, 2018, 2014 alike): 90 + 60 x 0.5 = 120 "
                  "minutes is no rapid game, so the standard rule applies under every FIDE ruleset, the "
                  "rapid and blitz ones included; US Chess 11D: two minutes to the opponent each time, no "
                  "forfeit (5C: 90 + 30 = 120 minutes, regular)")


def standard_control_cases() -> list[Case]:
    """The standard rule for a second illegal move, under every ruleset, with a standard control."""
    return [Case(
        "illegal.second.standard-control.opponent-cannot-mate", "5400+30: White completes two "
        "illegal moves; Black has a lone king", [illegal("white", "e1e3"), illegal("white", None)],
        ("fide-2023:7.5.5", "fide-2018:7.5.5", "fide-2014:7.5.b", "fide-2023:A.1", "uscf-7:11D",
         "uscf-7:5C", "fide-2023:7.5.3"), ("illegal-move", "lone-king", "speed-band"),
        f"{SECOND_ILLEGAL}; Black has a lone king and cannot checkmate; the second is a clock pressed "
        "without a move, an illegal move since 2017 (7.5.3) but under the 2014 text improper clock "
        "handling (6.2), not counted, so the game goes on",
        by=((FIDE_2017, res("1/2-1/2", "illegal_moves")), ((F14, US, USB), ONGOING)),
        fen=LONE_KING, time_control="5400+30", rulesets=ALL)]


#: (name, control, the sum in words, blitz?, White's clock, Black's clock before the penalty) after
#: 1.e4 (10 s) e5 (20 s): the increment added after each move (6.3.1), a simple delay's seconds
#: not taken from the clock (6.3.2).
FIDE_EDGE: list[tuple[str, str, str, bool, int, int]] = [
    ("five-plus-five", "300+5", "5 + 60 x 5 s = 10 minutes: blitz", True, 295_000, 285_000),
    ("five-minutes-three-seconds-plus-five", "303+5", "5.05 + 60 x 5 s = 10.05 minutes: rapid",
     False, 298_000, 288_000),
    ("ten-plus-one", "600+1", "10 + 60 x 1 s = 11 minutes: rapid", False, 591_000, 581_000),
    ("six-delay-five", "360d5", "6 minutes; a delay is no increment, so not counted: blitz", True,
     355_000, 345_000),
]


def fide_blitz_edge_cases() -> list[Case]:
    """Incorrect claims whose penalty shows a FIDE control on either side of ten minutes."""
    cases = []
    for name, control, words, blitz, white, black in FIDE_EDGE:
        def add(seconds: int) -> Any:
            return res("*", None, white, black + seconds * 1000)

        clock = ("fide-2023:6.3.2", "fide-2014:6.3.b") if "d" in control else ("fide-2023:6.3.1", "fide-2014:6.3.a")
        cases.append(Case(
            f"claim.penalty.speed-edge.{name}", f"{control}: White's incorrect claim after 1.e4 (10 s) "
            "e5 (20 s); the penalty shows the speed class", timed(("e2e4", 10), ("e7e5", 20))
            + [claim("threefold_repetition", "white")],
            INCORRECT + SPEED_CITES + ("fide-2023:B.1", "fide-2023:B.3", "fide-2018:B.2", "fide-2014:B.2") + clock,
            ("incorrect-claim", "clocks", "speed-band", "draw-claim"),
            "FIDE B.1 (2023, 2018, 2014 alike): a blitz game is one where all the moves must be completed "
            "in a fixed time of 10 minutes or less, or the time allotted plus 60 times any increment is "
            f"10 minutes or less; A.1: rapid above that and below 60; {control}: {words}; " + Q_INCORRECT
            + "; clocks: the time of each move taken, the increment added after it (6.3.1), a simple "
            "delay's seconds not taken (6.3.2)",
            by=(((F23, F23R, F23B), add(60)), ((F18, F14), add(60 if blitz else 120))),
            time_control=control, rulesets=FIDE))
    return cases


def no_clock_cases() -> list[Case]:
    """Without a time control the ruleset's own speed picks the rule: standard here."""
    return [Case(
        "unsupervised.no-clock.first", "no time control, no adequate supervision: White's first "
        "completed illegal move under a ruleset for standard games", mv("e2e4", "e7e5")
        + [illegal("white", "e1e3")], ILL_STD + ("fide-2014:A.4.b",),
        ("illegal-move", "supervision", "protocol-addition"),
        Q_UNSUPERVISED + "; without a time control the game is of the ruleset's own speed, standard "
        "here, where Appendix A and B do not reach: 7.5.5 (2014 7.5 b) gives the opponent the penalty "
        "(no clock to show it) and the game goes on", default=ONGOING, rulesets=(F23, F18, F14),
        supervised=False)]


def unsupervised_edge_cases() -> list[Case]:
    """FIDE 2014 without supervision: the 60-minute edge decides whether the first illegal move loses."""
    cases = []
    for name, control, words, rapid in (
            ("sixty-minutes", "1800+30", "30 + 60 x 0.5 = 60 minutes: not less than 60, standard", False),
            ("fifty-nine-and-a-half", "1770+30", "29.5 + 60 x 0.5 = 59.5 minutes: rapid", True)):
        base = int(control.split("+")[0]) * 1000
        white = black = base - 5_000 + 30_000
        cases.append(Case(
            f"unsupervised.speed-edge.{name}", f"{control}, no adequate supervision: White's first "
            "completed illegal move; the speed class decides", timed(("e2e4", 5), ("e7e5", 5))
            + [illegal("white", "e1e3")], ILL_STD + ILL_RAPID + ("fide-2014:A.4.b", "fide-2014:A.1"),
            ("illegal-move", "clocks", "supervision", "speed-band", "protocol-addition"),
            Q_UNSUPERVISED + f"; 2014 A.1: rapid is more than 10 and less than 60 minutes (base plus 60 "
            f"increments); {control}: {words}", default=res("0-1", "illegal_moves", white, black)
            if rapid else res("*", None, white, black + 120_000), time_control=control,
            rulesets=(F14,), supervised=False))
    return cases


def build(data: Path) -> dict[str, list[Fixture]]:
    """game fixtures: the illegal-move rule and penalty a time control's speed class picks."""
    del data
    cases = edge_cases() + material_cases() + standard_control_cases() + fide_blitz_edge_cases() \
        + no_clock_cases() + unsupervised_edge_cases()
    return {"game-speed.jsonl": [case_fixture(case) for case in cases]}


if __name__ == "__main__":
    sys.exit(main("speed_games", build))
