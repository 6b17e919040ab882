"""Per-kind comparison (conformance.harness.compare).

Positions are compared as FIDE 9.2.3 positions plus clocks: the castling dialect does
not matter, and an en passant square counts only where a legal en passant capture
exists (FIDE 2023 9.2.3 / 3.7.3.1). The FEN pairs below were checked by hand against
that article; the legal-capture facts agree with python-chess's has_legal_en_passant.
"""

from __future__ import annotations

import pytest

from conformance.harness.compare import compare

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
AFTER_E4_NO_EP = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
# Black pawn on d4 can take e3 en passant: the field matters here.
EP_LEGAL = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"
EP_LEGAL_DROPPED = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"


def test_legal_moves_compared_as_sets() -> None:
    assert compare("legal_moves", "fide-2023", {"moves": ["e2e4", "d2d4"]}, {"moves": ["d2d4", "e2e4"]}) is None


def test_legal_moves_difference_names_missing_and_extra() -> None:
    message = compare("legal_moves", "fide-2023", {"moves": ["e1g1", "a2a3"]}, {"moves": ["e1h1", "a2a3"]})
    assert message == "moves: missing e1g1; unexpected e1h1"


def test_legal_moves_listed_twice_is_a_difference() -> None:
    message = compare("legal_moves", "fide-2023", {"moves": ["a2a3"]}, {"moves": ["a2a3", "a2a3"]})
    assert message is not None and "more than once" in message


def test_perft_exact() -> None:
    assert compare("perft", "fide-2023", {"nodes": 20}, {"nodes": 20}) is None
    assert compare("perft", "fide-2023", {"nodes": 20}, {"nodes": 21}) == "nodes: expected 20, got 21"


def test_missing_field_is_a_difference() -> None:
    assert compare("perft", "fide-2023", {"nodes": 20}, {"count": 20}) == "result lacks the field 'nodes'"


def test_extra_fields_in_the_answer_are_ignored() -> None:
    assert compare("validate_fen", "fide-2023", {"valid": False}, {"valid": False, "reason": "two kings"}) is None


def test_boolean_is_not_an_integer() -> None:
    assert compare("dead_position", "fide-2023", {"dead": True}, {"dead": 1}) is not None


def test_fide_2023_9_2_3_en_passant_field_ignored_without_legal_capture() -> None:
    assert compare("apply_moves", "fide-2023", {"fen": AFTER_E4}, {"fen": AFTER_E4_NO_EP}) is None


def test_fide_2023_9_2_3_en_passant_field_counts_with_legal_capture() -> None:
    message = compare("apply_moves", "fide-2023", {"fen": EP_LEGAL}, {"fen": EP_LEGAL_DROPPED})
    assert message is not None and "different position" in message


def test_castling_dialects_are_the_same_position() -> None:
    shredder = START.replace("KQkq", "HAha")
    assert compare("apply_moves", "fide-2023", {"fen": START}, {"fen": shredder}) is None


def test_clocks_are_compared() -> None:
    later = START.replace(" 0 1", " 0 5")
    other = START.replace(" 0 1", " 3 5")
    message = compare("apply_moves", "fide-2023", {"fen": later}, {"fen": other})
    assert message is not None and "clocks" in message


def test_invalid_fen_in_answer_is_a_failure_not_a_crash() -> None:
    message = compare("apply_moves", "fide-2023", {"fen": START}, {"fen": "not a fen"})
    assert message is not None and "invalid FEN" in message


def test_game_end_claimable_is_a_set() -> None:
    expect = {"result": "*", "reason": None, "claimable": ["threefold_repetition", "fifty_moves"]}
    actual = {"result": "*", "reason": None, "claimable": ["fifty_moves", "threefold_repetition"]}
    assert compare("game_end", "fide-2023", expect, actual) is None
    actual["claimable"] = ["fifty_moves"]
    assert "missing threefold_repetition" in (compare("game_end", "fide-2023", expect, actual) or "")


def test_game_end_reason_compared() -> None:
    expect = {"result": "1/2-1/2", "reason": "seventy_five_moves", "claimable": []}
    actual = {"result": "1/2-1/2", "reason": "fivefold_repetition", "claimable": []}
    assert compare("game_end", "fide-2023", expect, actual) is not None


def test_result_that_is_not_an_object() -> None:
    assert compare("perft", "fide-2023", {"nodes": 1}, [1]) is not None


@pytest.mark.parametrize("kind", ["start_position", "apply_moves"])
def test_chess960_start_fen_any_dialect(kind: str) -> None:
    xfen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"
    shredder = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"
    assert compare(kind, "fide-2023-chess960", {"fen": xfen}, {"fen": shredder}) is None
