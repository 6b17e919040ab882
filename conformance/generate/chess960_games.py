"""``game`` fixtures for ``fide-2023-chess960``: the FIDE 2023 games that do not castle.

FIDE Guidelines II.1: after the random initial array, Chess960 "is played as in
regular chess"; only castling (II.3) differs. So every whole game of :mod:`.games`
judged under ``fide-2023`` has the same verdict under ``fide-2023-chess960`` when it
neither castles nor touches a king or rook (touch-move's castling rules, 4.4, meet
II.3's castling), and without a FEN it starts from the ruleset's initial array, number
518, which is the standard one. Each case is taken with its ``fide-2023`` expectation
as written by hand in :mod:`.games`; the cases that castle or touch are left out.

Run: ``python -m conformance.generate.chess960_games --data conformance/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from .common import Fixture, main
from .games import CASE_GROUPS, F23, Case, case_fixture, verdicts

CHESS960 = "fide-2023-chess960"
#: Castling in either notation (king two files, or king takes own rook) from the initial squares.
CASTLING = {"e1g1", "e1c1", "e8g8", "e8c8", "e1h1", "e1a1", "e8h8", "e8a8"}
II_1 = ("FIDE 2023 Guidelines II.1: Chess960 is played as in regular chess after the random initial "
        "array; only castling differs (II.3), and this game neither castles nor touches, so the "
        "fide-2023 verdict holds")


def castles_or_touches(case: Case) -> bool:
    """True if any event of ``case`` is a touch or a castling move."""
    return any("touch" in event or event.get("move") in CASTLING for event in case.events)


def chess960_cases() -> list[Case]:
    """Every fide-2023 game that neither castles nor touches, for fide-2023-chess960."""
    out = []
    for group in CASE_GROUPS:
        for case in group():
            if F23 not in case.rulesets or castles_or_touches(case):
                continue
            out.append(dataclasses.replace(
                case, name=f"chess960.{case.name}", rulesets=(CHESS960,), default=verdicts(case)[F23],
                by=(), cites=case.cites + ("fide-2023:II.1",), tags=case.tags + ("chess960",),
                detail=f"{case.detail}; {II_1}"))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """game fixtures: FIDE 2023's games without castling, under Chess960."""
    del data
    return {"game-chess960.jsonl": [case_fixture(case) for case in chess960_cases()]}


if __name__ == "__main__":
    sys.exit(main("chess960_games", build))
