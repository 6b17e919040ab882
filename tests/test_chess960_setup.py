"""Chess960 start arrays from the ruleset's setup table (FIDE Guidelines II.2) and
Scharnagl's numbering.

Independent expectations: python-chess's ``Board.from_chess960_pos`` for every number,
the spot values published with the numbering scheme (0 = BBQNNRKR, 518 = RNBQKBNR,
959 = RKRNNQBB), and the count 4 x 4 x 6 x 10 = 960 stated in Guidelines II.2.
"""

from __future__ import annotations

import chess
import pytest

from reference_impl.core.chess960 import (
    array_from_number,
    enumerate_arrays,
    number_from_array,
    number_range,
    start_fen,
)
from reference_impl.errors import ArbiterError, UsageError
from reference_impl.rules import derive_ruleset, load_ruleset

RULES = load_ruleset("chess960")


def test_fide_2023_II_2_constraints_give_exactly_960_distinct_arrays() -> None:
    arrays = enumerate_arrays(RULES)
    assert len(arrays) == len(set(arrays)) == 960


def test_enumeration_and_numbering_give_the_same_set() -> None:
    numbered = [array_from_number(n, RULES) for n in number_range(RULES)]
    assert len(set(numbered)) == 960
    assert set(numbered) == set(enumerate_arrays(RULES))


@pytest.mark.parametrize(("number", "array"), [
    (0, "BBQNNRKR"), (1, "BQNBNRKR"), (2, "BQNNRBKR"), (518, "RNBQKBNR"), (959, "RKRNNQBB"),
])
def test_scharnagl_spot_values(number: int, array: str) -> None:
    assert array_from_number(number, RULES) == array
    assert number_from_array(array, RULES) == number


def test_every_number_matches_python_chess() -> None:
    for number in range(960):
        board = chess.Board.from_chess960_pos(number)
        assert start_fen(number, RULES, castling="shredder") == board.fen(shredder=True), number
        assert start_fen(number, RULES) == board.fen(), number


def test_standard_number_is_the_orthodox_initial_position() -> None:
    standard = RULES.data["setup"]["numbering"]["standard"]
    assert start_fen(standard, RULES) == load_ruleset("fide-2023").data["setup"]["initial_fen"]


def test_every_array_meets_the_laws_constraints_checked_directly() -> None:
    """II.2.1 king between the rooks; II.2.2 bishops on opposite colours."""
    for array in enumerate_arrays(RULES):
        rooks = [i for i, c in enumerate(array) if c == "R"]
        bishops = [i for i, c in enumerate(array) if c == "B"]
        assert rooks[0] < array.index("K") < rooks[1]
        assert bishops[0] % 2 != bishops[1] % 2
        assert sorted(array) == sorted("RNBQKBNR")


@pytest.mark.parametrize("number", [-1, 960, 10**9, True, "518"])
def test_out_of_range_number_is_a_usage_error(number: object) -> None:
    with pytest.raises(UsageError, match="out of range 0..959"):
        array_from_number(number, RULES)  # type: ignore[arg-type]


@pytest.mark.parametrize("array", ["BRBQKNNR", "KRRQBNBN", "RNBQKBN"])
def test_not_a_start_array(array: str) -> None:
    """Bishops on one colour; king outside the rooks; seven squares."""
    with pytest.raises(UsageError, match="not a Chess960 start array"):
        number_from_array(array, RULES)


def test_ruleset_without_chess960_setup() -> None:
    with pytest.raises(ArbiterError, match="has no Chess960 setup"):
        start_fen(518, load_ruleset("fide-2023"))


def test_constraints_are_read_from_the_table() -> None:
    """Without the bishop rule: 8!/(2!2!2!) = 5040 arrangements, a third with the king
    between the rooks = 1680. Without both rules: all 5040."""
    no_bishops = derive_ruleset("chess960", {"setup": {"constraints": [
        {"rule": "between", "piece": "king", "outer": "rook", "cite": "fide-2023:II.2.1"}]}}, id="no-bishop-rule")
    assert len(enumerate_arrays(no_bishops)) == 1680
    free = derive_ruleset("chess960", {"setup": {"constraints": []}}, id="free-setup")
    assert len(enumerate_arrays(free)) == 5040


def test_numbering_is_read_from_the_table() -> None:
    """Reversing the bishop file order moves the light bishop of number 0 from b1 to h1."""
    steps = [dict(s) for s in RULES.data["setup"]["numbering"]["steps"]]
    steps[0]["files"] = ["h", "f", "d", "b"]
    changed = derive_ruleset("chess960", {"setup": {"numbering": {"steps": steps}}}, id="reordered")
    assert array_from_number(0, changed)[7] == "B"
    assert array_from_number(0, RULES)[1] == "B"


def test_start_positions_play_like_python_chess() -> None:
    """The Board accepts every tenth start FEN; legal move counts agree with python-chess."""
    from reference_impl.core import Board

    for number in range(0, 960, 10):
        fen = start_fen(number, RULES)
        ours = Board.from_fen(fen, RULES)
        theirs = chess.Board(fen, chess960=True)
        assert sorted(ours.uci(m) for m in ours.legal_moves()) == sorted(m.uci() for m in theirs.legal_moves), number


@pytest.mark.parametrize("rule", ["between", "opposite_colours"])
def test_numbering_must_number_exactly_the_arrays_the_constraints_allow(rule: str) -> None:
    base = load_ruleset("fide-2023-chess960")
    kept = [c for c in base.data["setup"]["constraints"] if c.get("rule") != rule]
    loose = derive_ruleset(base, {"setup": {"constraints": kept}}, id=base.id)
    with pytest.raises(ArbiterError, match="setup.constraints and setup.numbering disagree"):
        array_from_number(518, loose)
