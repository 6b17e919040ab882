"""The Board against python-chess on seeded random games: the same legal moves, the
same FEN after every move, the same check/checkmate/stalemate, and make/unmake that
restores the position exactly. Standard chess and Chess960 (king-takes-rook castling)."""

from __future__ import annotations

import random

import chess
import pytest

from reference_impl import Board, IllegalMoveError, Move, load_ruleset
from reference_impl.core import parse_square


def _random_game(seed: int, chess960: bool, plies: int = 120) -> None:
    rng = random.Random(seed)
    rules = load_ruleset("fide-2023-chess960" if chess960 else "fide-2023")
    if chess960:
        oracle = chess.Board.from_chess960_pos(rng.randrange(960))
        board = Board.from_fen(oracle.fen(), rules)
    else:
        oracle = chess.Board()
        board = Board(rules)
    oracle.chess960 = chess960
    for _ in range(plies):
        expected = sorted(oracle.uci(m) for m in oracle.legal_moves)
        assert sorted(board.uci(m) for m in board.legal_moves()) == expected, board.fen()
        assert board.legal_move_count() == len(expected)
        assert board.is_check() == oracle.is_check()
        assert board.is_checkmate() == oracle.is_checkmate()
        assert board.is_stalemate() == oracle.is_stalemate()
        if not expected:
            break
        choice = rng.choice(expected)
        before = board.fen(en_passant="fen")
        move = board.parse_uci(choice)
        capture, ep, castle = board.is_capture(move), board.is_en_passant(move), board.is_castling(move)
        oracle_move = chess.Move.from_uci(choice)
        assert capture == oracle.is_capture(oracle_move)
        assert ep == oracle.is_en_passant(oracle_move)
        assert castle == oracle.is_castling(oracle_move)
        assert board.gives_check(move) == oracle.gives_check(oracle_move)
        board.push(move)
        board.pop()
        assert board.fen(en_passant="fen") == before
        board.push(move)
        oracle.push(oracle_move)
        assert board.fen() == oracle.fen(), choice
        assert board.fen(castling="shredder", en_passant="fen") == oracle.fen(shredder=True, en_passant="fen")


@pytest.mark.parametrize("seed", range(25))
def test_random_games_match_python_chess(seed: int) -> None:
    _random_game(seed, chess960=False)


@pytest.mark.parametrize("seed", range(25))
def test_random_chess960_games_match_python_chess(seed: int) -> None:
    _random_game(1000 + seed, chess960=True)


def test_uci_castling_forms() -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    standard = Board.from_fen(fen, load_ruleset("fide-2023"))
    castle = standard.parse_uci("e1g1")
    assert castle == Move(parse_square("e1"), parse_square("h1"))
    assert standard.uci(castle) == "e1g1"
    assert standard.parse_uci("e1h1") == castle  # king-takes-rook also accepted
    chess960 = Board.from_fen(fen, load_ruleset("chess960"))
    assert chess960.uci(chess960.parse_uci("e1h1")) == "e1h1"
    assert chess960.uci(chess960.parse_uci("e1a1")) == "e1a1"


def test_chess960_hidden_checker_behind_castling_rook_fide_ii_3_2() -> None:
    # K c1, R b1, black queen a1. c-side castling leaves the king on c1 and moves the
    # rook to d1, uncovering the queen's attack on c1: illegal, although no square is
    # attacked before the move (attacks are judged with the castling rook lifted).
    rules = load_ruleset("chess960")
    board = Board.from_fen("7k/8/8/8/8/8/8/qRK5 w B - 0 1", rules)
    assert "c1b1" not in {board.uci(m) for m in board.legal_moves()}


def test_illegal_and_malformed_uci() -> None:
    board = Board(load_ruleset("fide-2023"))
    for text in ("e2e5", "e1g1", "a7a8q"):
        with pytest.raises(IllegalMoveError, match="illegal"):
            board.parse_uci(text)
    for text in ("e2", "z2z4", "e2e4x"):
        with pytest.raises(IllegalMoveError):
            board.parse_uci(text)


def test_position_key_ignores_en_passant_without_legal_capture() -> None:
    rules = load_ruleset("fide-2023")
    with_ep = Board.from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", rules)
    without = Board.from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", rules)
    assert with_ep.position_key() == without.position_key()
    capture = Board.from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", rules)
    assert capture.position_key() != Board.from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", rules).position_key()
