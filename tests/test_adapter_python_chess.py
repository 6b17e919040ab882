"""The python-chess adapter answers each kind as python-chess's own API does.

Expectations: perft counts are the published Chessprogramming-wiki / python-chess
``tricky.perft`` numbers; Chess960 castling and game ends follow the FIDE text
(Guidelines II.3, 9.2, 9.6.2, 6.9) where python-chess agrees with it; where it does
not (6.9 with K+N v K+Q), the test pins python-chess's documented material rule, which
is what the adapter is meant to expose.
"""

from __future__ import annotations

import chess
import pytest

from conformance.adapters.base import Adapter
from conformance.implementations.python_chess import PythonChessAdapter

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
XFEN_960 = "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1"  # tricky.perft
CASTLE_960 = "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1"


@pytest.fixture(scope="module")
def adapter() -> Adapter:
    adapter = PythonChessAdapter()
    adapter.start()
    return adapter


def test_start_declares_name_version_kinds_and_rulesets() -> None:
    info = PythonChessAdapter().start()
    assert (info.name, info.version) == ("python-chess", chess.__version__)
    assert info.supports("perft", "fide-2023") and info.supports("game_end", "chess960")
    assert info.supports("timeout", "fide-2023-chess960")
    assert not info.supports("perft", "uscf-7")        # US Chess rules not claimed
    assert not info.supports("to_notation", "fide-2023")


@pytest.mark.parametrize("fen, depth, nodes", [
    (START, 3, 8902), (KIWIPETE, 1, 48), (KIWIPETE, 2, 2039),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 2812),
])
def test_fide_2023_3_perft_published_counts(adapter: Adapter, fen: str, depth: int,
                                            nodes: int) -> None:
    assert adapter.run("perft", "fide-2023", {"fen": fen, "depth": depth}) == {"nodes": nodes}


def test_chess960_flag_is_passed_for_xfen_castling(adapter: Adapter) -> None:
    # tricky.perft: 23 / 522 only when the X-FEN rights are read as Chess960
    assert adapter.run("perft", "fide-2023-chess960", {"fen": XFEN_960, "depth": 2}) \
        == {"nodes": 522}
    assert adapter.run("perft", "chess960", {"fen": XFEN_960, "depth": 1}) == {"nodes": 23}


def test_fide_2023_II_3_chess960_castle_is_king_takes_rook(adapter: Adapter) -> None:
    moves = set(adapter.run("legal_moves", "fide-2023-chess960", {"fen": CASTLE_960})["moves"])
    assert {"b1a1", "b1h1"} <= moves       # king b1 takes own rook: O-O-O and O-O
    assert "b1c1" in moves                  # the plain king step stays a distinct move


def test_standard_castle_is_king_two_squares(adapter: Adapter) -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    moves = set(adapter.run("legal_moves", "fide-2023", {"fen": fen})["moves"])
    assert {"e1g1", "e1c1"} <= moves and not {"e1h1", "e1a1"} & moves
    moves960 = set(adapter.run("legal_moves", "chess960", {"fen": fen})["moves"])
    assert {"e1h1", "e1a1"} <= moves960 and not {"e1g1", "e1c1"} & moves960


def test_apply_moves_writes_ep_square_only_if_legal(adapter: Adapter) -> None:
    assert adapter.run("apply_moves", "fide-2023", {"fen": START, "moves": ["e2e4"]}) == {
        "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}


@pytest.mark.parametrize("moves, error", [(["e2e5"], "illegal"), (["e2e4", "zz"], "invalid")])
def test_apply_moves_reports_bad_moves(adapter: Adapter, moves: list[str], error: str) -> None:
    assert adapter.run("apply_moves", "fide-2023", {"fen": START, "moves": moves}) == {
        "fen": None, "error": error}


@pytest.mark.parametrize("fen, valid", [
    (START, True),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", False),   # no black king
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", False),  # bad rights
    ("8/8/8 w - - 0 1", False),                                          # unparsable
])
def test_validate_fen(adapter: Adapter, fen: str, valid: bool) -> None:
    assert adapter.run("validate_fen", "fide-2023", {"fen": fen})["valid"] is valid


def test_validate_fen_names_python_chess_objection(adapter: Adapter) -> None:
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"
    assert adapter.run("validate_fen", "fide-2023", {"fen": fen}) == {
        "valid": False, "reason": "BAD_CASTLING_RIGHTS"}


@pytest.mark.parametrize("fen, expected", [
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
     {"check": True, "checkmate": True, "stalemate": False}),             # fool's mate
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
     {"check": False, "checkmate": False, "stalemate": True}),
])
def test_fide_2023_5_status(adapter: Adapter, fen: str, expected: dict) -> None:
    assert adapter.run("status", "fide-2023", {"fen": fen}) == expected


def test_san(adapter: Adapter) -> None:
    assert adapter.run("san", "fide-2023", {"fen": KIWIPETE, "move": "e2a6"}) == {"san": "Bxa6"}
    assert adapter.run("san", "fide-2023", {"fen": KIWIPETE, "move": "e1g1"}) == {"san": "O-O"}


@pytest.mark.parametrize("san, expected", [
    ("Nf3", {"move": "g1f3"}),
    ("e5", {"move": None, "error": "illegal"}),
    ("Pe4", {"move": None, "error": "invalid"}),
])
def test_parse_san_from_start(adapter: Adapter, san: str, expected: dict) -> None:
    assert adapter.run("parse_san", "fide-2023", {"fen": START, "san": san}) == expected


def test_parse_san_ambiguous(adapter: Adapter) -> None:
    fen = "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1"   # knights b1 and f1 both reach d2
    assert adapter.run("parse_san", "fide-2023", {"fen": fen, "san": "Nd2"}) == {
        "move": None, "error": "ambiguous"}


def test_fide_2023_9_6_2_mate_beats_75_moves(adapter: Adapter) -> None:
    fen = "7k/8/6K1/8/8/8/8/1Q6 w - - 149 150"
    assert adapter.run("game_end", "fide-2023", {"fen": fen, "moves": ["b1b8"]}) == {
        "result": "1-0", "reason": "checkmate", "claimable": []}
    assert adapter.run("game_end", "fide-2023", {"fen": fen, "moves": ["b1b7"]}) == {
        "result": "1/2-1/2", "reason": "seventy_five_moves", "claimable": []}


def test_fide_2023_9_2_threefold_is_claimable_not_automatic(adapter: Adapter) -> None:
    shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split()
    assert adapter.run("game_end", "fide-2023", {"fen": START, "moves": shuffle}) == {
        "result": "*", "reason": None, "claimable": ["threefold_repetition"]}


def test_fide_2023_9_3_fifty_moves_claimable(adapter: Adapter) -> None:
    fen = "8/7k/8/6R1/1r3B2/5K2/8/8 b - - 100 119"   # python-chess test.py, Timman-Lutz
    result = adapter.run("game_end", "fide-2023", {"fen": fen, "moves": []})
    assert result["result"] == "*" and "fifty_moves" in result["claimable"]


@pytest.mark.parametrize("fen, flagged, result", [
    ("8/8/8/4k3/8/8/3NK3/8 w - - 0 1", "black", "1/2-1/2"),   # K+N cannot mate: 6.9 draw
    ("8/8/8/4k3/8/8/3QK3/8 w - - 0 1", "black", "1-0"),
    ("8/8/8/4k3/8/8/3QK3/8 w - - 0 1", "white", "1/2-1/2"),   # lone king cannot mate
])
def test_fide_2023_6_9_timeout(adapter: Adapter, fen: str, flagged: str, result: str) -> None:
    assert adapter.run("timeout", "fide-2023", {"fen": fen, "flagged": flagged}) == {
        "result": result}


def test_timeout_python_chess_differs_from_6_9_with_kn_v_kq(adapter: Adapter) -> None:
    # FIDE 6.9: White can still mate (the black queen may block), so 1-0; python-chess's
    # material rule calls K+N against K+Q insufficient. The adapter exposes that.
    fen = "4k3/8/8/8/8/8/3q4/4K1N1 w - - 0 1"
    assert adapter.run("timeout", "fide-2023", {"fen": fen, "flagged": "black"}) == {
        "result": "1/2-1/2"}


@pytest.mark.parametrize("fen, dead", [
    ("8/8/8/4k3/8/8/3BK3/8 w - - 0 1", True),        # K+B v K
    ("7k/8/7K/2Bb4/8/8/8/8 b - - 0 1", False),       # opposite bishops: helpmate exists
])
def test_dead_position_is_material_rule(adapter: Adapter, fen: str, dead: bool) -> None:
    assert adapter.run("dead_position", "fide-2023", {"fen": fen}) == {"dead": dead}


@pytest.mark.parametrize("number, placement", [
    (518, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
    (0, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR"),
])
def test_start_position_scharnagl(adapter: Adapter, number: int, placement: str) -> None:
    fen = adapter.run("start_position", "chess960", {"number": number})["fen"]
    assert fen.split()[0] == placement


def test_bad_input_raises_so_the_fixture_errors(adapter: Adapter) -> None:
    with pytest.raises(ValueError):
        adapter.run("perft", "fide-2023", {"fen": "not a fen", "depth": 1})
    with pytest.raises(ValueError):
        adapter.run("start_position", "chess960", {"number": 960})
