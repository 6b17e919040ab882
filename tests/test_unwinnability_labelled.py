"""The unwinnability analysis against the 905 labelled CHA positions.

``tests/data/unwinnability/labelled.txt`` (source in its header) labels each position
``WB`` (both sides can mate by some legal sequence), ``W-``, ``-B`` or ``--`` (dead,
FIDE 5.2.2). Soundness is absolute: a side labelled able to mate is never called
``CANNOT``. Every ``CAN`` line is replayed by python-chess, which must see that side
deliver checkmate. The floors record what the analysis decides at the CI node limit
(measured, then set a little lower), so a change that loses strength fails loudly.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import chess
import pytest

from reference_impl import BLACK, WHITE, Board, FenError, load_ruleset
from reference_impl.unwinnability import Analysis, Verdict, analyse_both

from helpmate_oracle import mates

pytestmark = pytest.mark.slow  # left out of `tox -e fast`

DATA = Path(__file__).parent / "data" / "unwinnability" / "labelled.txt"
#: Enough for the compiled searches to show their strength in about 10 s of CPU; the
#: rulesets' own limit (10,000,000) runs under ``--deep``.
CI_NODE_LIMIT = 50_000
DEEP_NODE_LIMIT = 10_000_000

#: Measured at CI_NODE_LIMIT: 378 of 396 reachable dead positions proven dead (95.5 %).
DEAD_FLOOR = 0.94
#: Measured: W- positions, Black proven unable to mate: 62 of 75 (82.7 %).
W_ONLY_BLACK_CANNOT_FLOOR = 0.82
#: Measured: -B positions, White proven unable to mate: 42 of 46 (91.3 %).
B_ONLY_WHITE_CANNOT_FLOOR = 0.91
#: Measured: a mating line found for White in 319 of 365 WB positions (87.4 %), for
#: Black in 313 (85.8 %).
WB_CAN_FLOOR = (0.84, 0.84)
#: Measured at DEEP_NODE_LIMIT: none of the 1,764 questions undetermined.
DEEP_UNDETERMINED_CEILING = 0


def _rows() -> list[tuple[str, str]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, fen = line.split(None, 1)
        fen = fen.strip()
        if len(fen.split()) == 4:
            fen += " 0 1"
        rows.append((label, fen))
    return rows


def _reachable(fen: str) -> bool:
    try:
        Board.from_fen(fen, load_ruleset("fide-2023"))
    except FenError:
        return False
    return True


def _positions() -> list[tuple[str, str]]:
    """The labelled positions a game can reach: the vectors also hold 23 that none can
    (more promoted pieces than missing pawns: FIDE 3.10.3), which the reference refuses."""
    return [(label, fen) for label, fen in _rows() if _reachable(fen)]


@lru_cache(maxsize=None)
def _results(limit: int) -> list[tuple[str, str, dict[int, Analysis]]]:
    rules = load_ruleset("fide-2023")
    return [(label, fen, analyse_both(Board.from_fen(fen, rules), limit)) for label, fen in _positions()]


def _violations(limit: int) -> list[str]:
    problems = []
    for label, fen, results in _results(limit):
        for color, mark in ((WHITE, label[0]), (BLACK, label[1])):
            analysis = results[color]
            if mark != "-" and analysis.verdict is Verdict.CANNOT:
                problems.append(f"unsound CANNOT for {'wb'[color]}: {label} {fen}")
            if analysis.verdict is Verdict.CAN and not mates(fen, analysis.line, chess.WHITE if color == WHITE else chess.BLACK):
                problems.append(f"bad mating line for {'wb'[color]}: {fen} {analysis.line}")
            if mark == "-" and analysis.verdict is Verdict.CAN:
                problems.append(f"CAN against the label for {'wb'[color]}: {label} {fen}")
    return problems


def _share(limit: int, label: str, color: int, verdict: Verdict) -> float:
    rows = [r for lab, _, r in _results(limit) if lab == label]
    return sum(r[color].verdict is verdict for r in rows) / len(rows)


def test_labelled_data_is_complete() -> None:
    labels = [label for label, _ in _rows()]
    assert len(labels) == 905
    assert {label: labels.count(label) for label in set(labels)} == {"WB": 372, "W-": 75, "-B": 48, "--": 410}
    reachable = [label for label, _ in _positions()]
    assert {label: reachable.count(label) for label in set(reachable)} == {"WB": 365, "W-": 75, "-B": 46, "--": 396}


def test_fide_2023_5_2_2_no_side_that_can_mate_is_called_unable() -> None:
    assert _violations(CI_NODE_LIMIT) == []


def test_fide_2023_5_2_2_dead_positions_decided_share() -> None:
    dead = [r for lab, _, r in _results(CI_NODE_LIMIT) if lab == "--"]
    decided = sum(all(a.verdict is Verdict.CANNOT for a in r.values()) for r in dead)
    assert decided / len(dead) >= DEAD_FLOOR


def test_fide_2023_6_9_one_sided_unwinnable_shares() -> None:
    assert _share(CI_NODE_LIMIT, "W-", BLACK, Verdict.CANNOT) >= W_ONLY_BLACK_CANNOT_FLOOR
    assert _share(CI_NODE_LIMIT, "-B", WHITE, Verdict.CANNOT) >= B_ONLY_WHITE_CANNOT_FLOOR


def test_winnable_positions_get_mating_lines() -> None:
    assert _share(CI_NODE_LIMIT, "WB", WHITE, Verdict.CAN) >= WB_CAN_FLOOR[0]
    assert _share(CI_NODE_LIMIT, "WB", BLACK, Verdict.CAN) >= WB_CAN_FLOOR[1]


@pytest.mark.deep
def test_deep_soundness_and_dead_share() -> None:
    assert _violations(DEEP_NODE_LIMIT) == []
    open_questions = sum(a.verdict is Verdict.UNDETERMINED for _, _, r in _results(DEEP_NODE_LIMIT) for a in r.values())
    assert open_questions <= DEEP_UNDETERMINED_CEILING
    dead = [r for lab, _, r in _results(DEEP_NODE_LIMIT) if lab == "--"]
    decided = sum(all(a.verdict is Verdict.CANNOT for a in r.values()) for r in dead)
    assert decided / len(dead) >= DEAD_FLOOR
