"""LAN, UCI, ICCF, Uedemann and descriptive notation, and the by-id API.

Expectations: the ICCF examples (e2-e4 = 5254, castling 5171/5131/5878/5838, f7-f8=R =
67682, the older "6768 (41)"), the issue's Uedemann table and the Gringmuth example
"gegoseso", python-chess 1.11.2 ``Board.lan``/``Board.uci`` on random games, and
descriptive records from the literature (P-K4, N-KB3, PxP).
"""

from __future__ import annotations

import random

import chess
import pytest

from reference_impl import Board, load_ruleset
from reference_impl.notation.api import from_notation, notation_ids, to_notation
from reference_impl.notation.errors import NotationError
from reference_impl.notation.game import convert_moves

FIDE = load_ruleset("fide-2023")
C960 = load_ruleset("chess960")
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def _board(fen: str = chess.STARTING_FEN, rules: object = FIDE) -> Board:
    return Board.from_fen(fen, rules)


def test_iccf_e2_e4_is_5254_and_castling_is_the_kings_move() -> None:
    assert to_notation(_board(), _board().parse_uci("e2e4"), "iccf") == "5254"
    board = _board(CASTLES)
    assert [to_notation(board, board.parse_uci(u), "iccf") for u in ("e1g1", "e1c1")] == ["5171", "5131"]
    board = _board(CASTLES.replace(" w ", " b "))
    assert [to_notation(board, board.parse_uci(u), "iccf") for u in ("e8g8", "e8c8")] == ["5878", "5838"]


def test_iccf_promotion_fifth_digit_and_older_parenthesised_form() -> None:
    board = _board("k7/5P2/8/8/8/8/8/4K3 w - - 0 1")
    assert to_notation(board, board.parse_uci("f7f8r"), "iccf") == "67682"
    assert board.uci(from_notation(board, "67681", "iccf")) == "f7f8q"
    assert board.uci(from_notation(board, "6768 (41)", "iccf")) == "f7f8q"
    assert board.uci(from_notation(board, "6768 (21)", "iccf")) == "f7f8n"
    with pytest.raises(NotationError) as error:
        from_notation(board, "6768", "iccf")
    assert error.value.category == "invalid"


def test_uedemann_gegoseso_is_e4_e5() -> None:
    assert convert_moves(_board(), ["e4", "e5"], "san", "uedemann") == ["gego", "seso"]
    assert convert_moves(_board(), ["gego", "seso", "kahi"], "uedemann", "san") == ["e4", "e5", "Nf3"]


def test_chess960_castling_that_a_plain_king_step_shares_is_written_king_to_rook() -> None:
    # Black: king d8, rook a8; O-O-O puts the king on c8, where a plain king step also goes.
    board = _board("r2kqr1b/p3pp1p/npp1bp2/3p2P1/5n1P/2P4B/PPNPPP2/R1BKQ1R1 b GAa - 3 14", C960)
    castle = board.parse_uci("d8a8")
    assert board.is_castling(castle)
    assert to_notation(board, castle, "iccf") == "4818"
    assert board.uci(from_notation(board, "4838", "iccf")) == "d8c8"  # the plain king step
    assert from_notation(board, "4818", "iccf") == castle


def test_uci_both_castling_forms() -> None:
    board = _board(CASTLES)
    castle = board.parse_uci("e1g1")
    assert to_notation(board, castle, "uci") == "e1g1"
    assert to_notation(board, castle, "uci:chess960") == "e1h1"
    assert from_notation(board, "e1h1", "uci") == castle
    c960 = _board("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", C960)
    assert to_notation(c960, c960.parse_uci("g1h1"), "uci") == "g1h1"


def test_lan_and_uci_match_python_chess_on_random_games() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(10):
        pc = chess.Board()
        board = _board()
        for _ in range(rng.randrange(20, 120)):
            legal = list(pc.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            ours = board.parse_uci(move.uci())
            assert to_notation(board, ours, "lan") == pc.lan(move)
            assert to_notation(board, ours, "uci") == pc.uci(move)
            assert from_notation(board, pc.lan(move), "lan") == ours
            pc.push(move)
            board.push(ours)
            checked += 1
    assert checked > 200


def test_every_notation_round_trips_on_random_positions() -> None:
    rng = random.Random(9)
    for game in range(6):
        c960 = game % 2 == 1
        pc = chess.Board.from_chess960_pos(rng.randrange(960)) if c960 else chess.Board()
        pc.chess960 = c960
        board = _board(pc.fen(shredder=c960), C960 if c960 else FIDE)
        for _ in range(rng.randrange(10, 60)):
            legal = list(pc.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            ours = board.parse_uci(pc.uci(move, chess960=c960))
            for notation in notation_ids():
                if notation == "uci:standard" and c960:
                    continue  # plain UCI cannot always name Chess960 castling
                text = to_notation(board, ours, notation)
                assert from_notation(board, text, notation) == ours, (notation, text, pc.fen())
            pc.push(move)
            board.push(ours)


@pytest.mark.parametrize(
    "fen, text, uci",
    [
        (chess.STARTING_FEN, "P-K4", "e2e4"),
        (chess.STARTING_FEN, "N-KB3", "g1f3"),
        (chess.STARTING_FEN, "KN-B3", "g1f3"),
        (chess.STARTING_FEN, "Kt-KB3", "g1f3"),
        (chess.STARTING_FEN, "P-Q4!", "d2d4"),
        ("rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3", "PxP", "e4d5"),
        ("rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3", "NxP", "f3e5"),
        ("rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3", "NxKP", "f3e5"),
        ("rnbqkbnr/ppp1pppp/8/8/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3", "P-K4", "e7e5"),  # Black's K4 is e5
        (CASTLES, "O-O", "e1g1"),
        (CASTLES, "O-O-O", "e1c1"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "P-R8(Q)ch", "a7a8q"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "P-QR8=N", "a7a8n"),
        ("4k3/8/8/3b4/8/4N3/8/4K3 w - - 0 1", "NxB", "e3d5"),
        ("4k3/8/8/4N3/1N6/3r4/8/4K3 w - - 0 1", "N(K5)xR", "e5d3"),
        ("4k3/8/8/4N3/1N6/3r4/8/4K3 w - - 0 1", "N(QN4)xR", "b4d3"),
        ("4k3/3r4/8/4N3/8/3r4/8/4K3 w - - 0 1", "NxR(Q7)", "e5d7"),
        ("4k3/3r4/8/4N3/8/3r4/8/4K3 w - - 0 1", "NxR(Q3)", "e5d3"),
    ],
)
def test_descriptive_reading(fen: str, text: str, uci: str) -> None:
    board = _board(fen)
    assert board.uci(from_notation(board, text, "descriptive")) == uci


def test_descriptive_ambiguity_is_resolved_against_legal_moves() -> None:
    board = _board()
    with pytest.raises(NotationError) as error:
        from_notation(board, "N-B3", "descriptive")
    assert error.value.category == "ambiguous"
    assert to_notation(board, board.parse_uci("b1c3"), "descriptive") == "N-QB3"
    assert to_notation(board, board.parse_uci("e2e4"), "descriptive") == "P-K4"


def test_unknown_notation_is_an_invalid_error() -> None:
    with pytest.raises(NotationError) as error:
        to_notation(_board(), _board().parse_uci("e2e4"), "klingon")
    assert error.value.category == "invalid"
    assert "unknown notation" in str(error.value)
