"""Results (PGN 8.2.6) and the +W −L =D match-score form."""

from __future__ import annotations

import pytest

from reference_impl.notation.results import Score, format_score, parse_result, parse_score, result_points


@pytest.mark.parametrize("text, marker", [("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "1/2-1/2"),
                                          ("*", "*"), ("½-½", "1/2-1/2"), ("1–0", "1-0")])
def test_pgn_8_2_6_result_markers_and_printed_aliases(text: str, marker: str) -> None:
    assert parse_result(text) == marker


def test_result_points() -> None:
    assert result_points("1-0") == (1.0, 0.0)
    assert result_points("1/2-1/2") == (0.5, 0.5)
    assert result_points("*") is None


@pytest.mark.parametrize("bad", ["O-1", "2-0", "1/2", ""])
def test_bad_results_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_result(bad)


def test_match_score_round_trip_and_points() -> None:
    score = parse_score("+3 −1 =4")
    assert score == Score(3, 1, 4) and score.points == 5.0
    assert format_score(score) == "+3 −1 =4"
    assert parse_score("+3 -1 =4") == score  # hyphen for the minus sign
    assert parse_score("=4 +3") == Score(3, 0, 4)


@pytest.mark.parametrize("bad", ["3-1", "+3 +2", "+x", "+3 / =4"])
def test_bad_match_scores_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_score(bad)
