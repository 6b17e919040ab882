"""``game`` fixtures for US Chess 7: the blitz band's edge (5C) and the blitz illegal-move rule.

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

Only ``uscf-7`` and ``uscf-7-blitz`` are named: a time control decides the class under
both. Nothing here asks the reference implementation; python-chess checks every FEN.

Run: ``python -m conformance.generate.uscf_games --data conformance/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .common import Fixture, main
from .games import ONGOING, US, USB, Case, case_fixture, illegal, mv, res

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


def build(data: Path) -> dict[str, list[Fixture]]:
    """game fixtures: US Chess 5C's blitz edge and the blitz illegal-move rule."""
    del data
    return {"game-uscf.jsonl": [case_fixture(case) for case in edge_cases() + material_cases()]}


if __name__ == "__main__":
    sys.exit(main("uscf_games", build))
