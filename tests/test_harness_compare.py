"""Per-kind comparison (conformance.harness.compare).

Positions are compared as FIDE 9.2.3 positions plus clocks: the castling dialect does
not matter, and an en passant square counts only where a legal en passant capture
exists (FIDE 2023 9.2.3 / 3.7.3.1). The FEN pairs below were checked by hand against
that article; the legal-capture facts agree with python-chess's has_legal_en_passant.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import chess
import pytest

from conformance.harness.compare import compare
from conformance.harness.positions import BACK_RANK, read

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "conformance" / "fixtures"
HARNESS = ROOT / "conformance" / "harness"

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


# --- the harness reads FENs itself (conformance.harness.positions) -------------------

# White's b5 pawn could take c6 e.p., but that removes both pawns from the fifth rank and
# exposes the king on a5 to the rook on h5: no legal capture, so the field does not count.
PINNED_EP = "8/8/8/KPp4r/8/8/8/7k w - c6 0 2"
PINNED_EP_DROPPED = "8/8/8/KPp4r/8/8/8/7k w - - 0 2"
# Two rooks on the king side (Chess960): X-FEN ``K`` is the outermost (h1), not g1.
TWO_ROOKS_XFEN = "1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/1R2K1RR w K - 0 1"


def test_fide_2023_9_2_3_en_passant_field_ignored_when_the_capture_exposes_the_king() -> None:
    assert compare("apply_moves", "fide-2023", {"fen": PINNED_EP}, {"fen": PINNED_EP_DROPPED}) is None


def test_xfen_king_side_right_is_the_outermost_rook() -> None:
    outer, inner = TWO_ROOKS_XFEN.replace(" K ", " H "), TWO_ROOKS_XFEN.replace(" K ", " G ")
    assert compare("apply_moves", "fide-2023-chess960", {"fen": TWO_ROOKS_XFEN}, {"fen": outer}) is None
    message = compare("apply_moves", "fide-2023-chess960", {"fen": TWO_ROOKS_XFEN}, {"fen": inner})
    assert message is not None and "castling rights" in message


def test_a_different_position_names_what_differs() -> None:
    message = compare("apply_moves", "fide-2023", {"fen": START}, {"fen": START.replace(" w ", " b ")})
    assert message is not None and "side to move" in message and "placement" not in message


@pytest.mark.parametrize(
    "fen",
    [
        START.rsplit(" ", 2)[0],  # four fields
        START.replace("RNBQKBNR", "RNBQKBN"),  # a rank of seven squares
        START.replace(" KQkq ", " KQkqX "),  # not a castling letter
        START.replace(" KQkq ", " C "),  # no rook on c1
        START.replace(" - ", " e4 "),  # e.p. square on the wrong rank
        START.replace(" 0 1", " 0 0"),  # move number 0
    ],
)
def test_malformed_answer_fen_is_an_invalid_fen(fen: str) -> None:
    message = compare("apply_moves", "fide-2023", {"fen": START}, {"fen": fen})
    assert message is not None and "invalid FEN" in message


def _corpus_fens() -> list[str]:
    """Every input FEN of the legal_moves and perft-tricky fixtures with an e.p. field or castling."""
    found = []
    for name in ("legal_moves.jsonl", "perft-tricky.jsonl", "perft-special.jsonl", "perft-chess960.jsonl"):
        for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                fen = json.loads(line)["input"]["fen"]
                if fen.split()[3] != "-" or fen.split()[2] != "-":
                    found.append(fen)
    return found


def test_positions_agree_with_python_chess_on_the_corpus() -> None:
    """An independent oracle: e.p. relevance and castling rights as python-chess reads them."""
    fens = _corpus_fens()
    with_ep = [f for f in fens if f.split()[3] != "-"]
    assert len(with_ep) >= 20  # the sample exercises the e.p. rule
    relevant = 0
    for fen in fens:
        ours = read(fen).identity
        board = chess.Board(fen, chess960=True)
        relevant += ours.en_passant is not None
        assert (ours.en_passant is not None) == board.has_legal_en_passant(), fen
        if ours.en_passant is not None:
            assert ours.en_passant == board.ep_square, fen
        rooks = {(8 * BACK_RANK[colour] + file) for colour, file in ours.castling}
        assert rooks == set(chess.SquareSet(board.castling_rights)), fen
    assert 0 < relevant < len(with_ep)  # both outcomes occur


def test_the_judge_never_imports_the_reference_implementation() -> None:
    """compare and positions import nothing from reference_impl; no harness module imports
    the interpreter (its move layer, notation or adjudication), only shared helpers such
    as its error types and the rules package (the one reader of spec/)."""
    interpreter = ("reference_impl.core", "reference_impl.adjudication", "reference_impl.notation",
                   "reference_impl.unwinnability")
    for path in sorted(HARNESS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module + "." + a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.split(".")[0] != "reference_impl":
                    continue
                where = f"{path.name}:{node.lineno} imports {name}"
                assert path.name not in ("compare.py", "positions.py"), where
                assert name.count(".") >= 1 and not name.startswith(interpreter), where
                assert name.split(".")[1] not in ("Board", "perft", "divide"), where
