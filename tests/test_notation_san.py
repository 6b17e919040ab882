"""SAN export and import (PGN 8.2.3, FIDE Appendix C).

Expectations: python-chess 1.11.2 ``Board.san`` on seeded random games (standard and
Chess960), the PGN standard's text for the pinned-piece rule (8.2.3.4), and FIDE C.9-C.13
for the scoresheet forms the lenient reader must accept.
"""

from __future__ import annotations

import random

import chess
import pytest

from reference_impl import Board, load_ruleset
from reference_impl.notation.api import parse_san, to_san
from reference_impl.notation.errors import NotationError
from reference_impl.notation.san import LENIENCIES, read_san

FIDE = load_ruleset("fide-2023")
C960 = load_ruleset("chess960")


def _board(fen: str, rules: object = FIDE) -> Board:
    return Board.from_fen(fen, rules)


def _random_games(seed: int, games: int, chess960: bool):
    rng = random.Random(seed)
    for _ in range(games):
        pc = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        pc.chess960 = chess960
        board = _board(pc.fen(shredder=chess960), C960 if chess960 else FIDE)
        for _ in range(rng.randrange(20, 140)):
            legal = list(pc.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            yield pc, board, move
            pc.push(move)
            board.push(board.parse_uci(pc.peek().uci() if not chess960 else pc.uci(pc.peek(), chess960=True)))


@pytest.mark.parametrize("chess960", [False, True])
def test_pgn_8_2_3_san_matches_python_chess_on_random_games(chess960: bool) -> None:
    count = 0
    for pc, board, move in _random_games(11, 12, chess960):
        ours = board.parse_uci(pc.uci(move, chess960=chess960))
        expected = pc.san(move)
        assert to_san(board, ours) == expected, pc.fen()
        assert parse_san(board, expected) == ours
        count += 1
    assert count > 300


def test_pgn_8_2_3_4_pinned_knight_needs_no_disambiguation() -> None:
    board = _board("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1")  # Nc3 pinned by Bb4
    assert to_san(board, board.parse_uci("g1e2")) == "Ne2"


def test_pgn_8_2_3_4_file_then_rank_then_square() -> None:
    # Queens a4, h4, h1 (checked with python-chess 1.11.2 Board.san).
    board = _board("1k6/8/8/8/Q6Q/8/2K5/7Q w - - 0 1")
    expected = {"a4d4": "Qad4", "h4e4": "Qh4e4", "h1e4": "Q1e4", "h4h2": "Q4h2+", "h4g3": "Qg3+"}
    assert {u: to_san(board, board.parse_uci(u)) for u in expected} == expected
    assert parse_san(board, "Qh4e4") == board.parse_uci("h4e4")
    with pytest.raises(NotationError) as error:
        parse_san(board, "Qe4")
    assert error.value.category == "ambiguous"


def test_pgn_8_2_3_3_castling_promotion_and_check_marks() -> None:
    board = _board("r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1")
    assert to_san(board, board.parse_uci("e1g1")) == "O-O"
    assert to_san(board, board.parse_uci("e1c1")) == "O-O-O"
    assert to_san(board, board.parse_uci("b7a8q")) == "bxa8=Q+"
    assert to_san(board, board.parse_uci("b7b8n")) == "b8=N"


def test_chess960_castling_is_o_o_even_when_the_king_stays() -> None:
    board = _board("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", C960)  # king g1, rook h1
    castle = board.parse_uci("g1h1")
    assert board.is_castling(castle)
    assert to_san(board, castle) == "O-O"
    assert parse_san(board, "O-O") == castle


def test_strict_reading_rejects_non_canonical_forms_and_names_the_leniency() -> None:
    board = Board(FIDE)
    with pytest.raises(NotationError) as error:
        parse_san(board, "Ng1f3")
    assert error.value.category == "invalid"
    assert "long_algebraic" in str(error.value)
    assert parse_san(board, "Nf3!?") == board.parse_uci("g1f3")  # suffix annotations are fine


@pytest.mark.parametrize(
    "fen, text, uci, leniency",
    [
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1", "zero_castling"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1", "zero_castling"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6 e.p.", "e5d6", "en_passant_mark"),
        ("8/3P4/8/8/8/8/k7/4K3 w - - 0 1", "d8Q", "d7d8q", "missing_promotion_equals"),
        ("8/3P4/8/8/8/8/k7/4K3 w - - 0 1", "d8=q", "d7d8q", "lowercase_promotion"),
        ("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "Ra8++", "a1a8", "alternative_mate_mark"),
        ("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "Ra8×", "a1a8", "alternative_mate_mark"),
        ("4k3/8/3n4/8/8/8/8/3QK3 w - - 0 1", "Qd6", "d1d6", "missing_capture_mark"),
        ("4k3/8/3n4/8/8/8/8/3QK3 w - - 0 1", "Q:d6", "d1d6", "alternative_capture_mark"),
        ("4k3/8/3n4/8/8/8/8/3QK3 w - - 0 1", "Q×d6", "d1d6", "alternative_capture_mark"),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qxd6", "d1d6", "extra_capture_mark"),
        (chess.STARTING_FEN, "Ngf3", "g1f3", "superfluous_disambiguation"),
        (chess.STARTING_FEN, "e2-e4", "e2e4", "long_algebraic"),
        (chess.STARTING_FEN, "Ng1-f3", "g1f3", "long_algebraic"),
        (chess.STARTING_FEN, "e2—e4", "e2e4", "long_dash"),
        (chess.STARTING_FEN, "Pe4", "e2e4", "pawn_letter"),
        (chess.STARTING_FEN, "♘f3", "g1f3", "figurine"),
        (chess.STARTING_FEN, "o-o", None, "lowercase_castling"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra7", "a1a7", None),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8", "a1a8", "missing_check_mark"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra7+", "a1a7", "wrong_check_mark"),
    ],
)
def test_fide_appendix_c_forms_read_leniently_with_the_leniency_named(
    fen: str, text: str, uci: str | None, leniency: str | None
) -> None:
    board = _board(fen)
    if uci is None:  # o-o from the start: the form is read, but castling is illegal
        with pytest.raises(NotationError) as error:
            read_san(board, text, lenient=True)
        assert error.value.category == "illegal"
        return
    parsed = read_san(board, text, lenient=True)
    assert board.uci(parsed.move) == uci
    if leniency is None:
        assert parsed.leniencies == []
    else:
        assert leniency in parsed.leniencies
        assert leniency in LENIENCIES


def test_double_check_mark_is_its_own_leniency() -> None:
    board = _board("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1")
    move = board.parse_uci("e4f6")  # the knight checks and uncovers the rook: double check
    assert to_san(board, move) == "Nf6+"  # PGN 8.2.3.5: no separate double-check mark
    parsed = read_san(board, "Nf6++", lenient=True)
    assert parsed.move == move and parsed.leniencies == ["double_check_mark"]


@pytest.mark.parametrize(
    "fen, text, category",
    [
        (chess.STARTING_FEN, "Nf9", "invalid"),
        (chess.STARTING_FEN, "Zf3", "invalid"),
        (chess.STARTING_FEN, "Nd4", "illegal"),
        (chess.STARTING_FEN, "O-O", "illegal"),
        ("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1", "Ne2", "ambiguous"),
        ("8/3P4/8/8/8/8/k7/4K3 w - - 0 1", "d8", "illegal"),
        ("8/3P4/8/8/8/8/k7/4K3 w - - 0 1", "d8=K", "invalid"),
        (chess.STARTING_FEN, "", "invalid"),
    ],
)
def test_error_categories(fen: str, text: str, category: str) -> None:
    with pytest.raises(NotationError) as error:
        read_san(_board(fen), text, lenient=True)
    assert error.value.category == category


def test_fide_c3_localized_letters_read_and_written() -> None:
    board = Board(FIDE)
    knight = board.parse_uci("g1f3")
    assert to_san(board, knight, language="de") == "Sf3"
    assert to_san(board, knight, language="ru") == "Кf3"
    assert parse_san(board, "Sf3", language="de") == knight
    assert parse_san(board, "Аf3", language="tg") == knight
    # Dutch and Uzbek use O as a piece letter; castling must still read as castling
    castle_board = _board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert castle_board.is_castling(parse_san(castle_board, "O-O", language="nl"))
    promote = _board("8/3P4/8/8/8/8/k7/4K3 w - - 0 1")
    assert to_san(promote, promote.parse_uci("d7d8q"), language="de") == "d8=D"
    assert parse_san(promote, "d8=D+", language="de", lenient=True) == promote.parse_uci("d7d8q")


def test_fan_uses_the_movers_figurines() -> None:
    board = _board("4k3/8/8/8/8/8/8/4K1N1 b - - 0 1")
    assert to_san(board, board.parse_uci("e8d7"), figurine=True) == "♚d7"
    board = _board("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1")
    assert to_san(board, board.parse_uci("g1f3"), figurine=True) == "♘f3"
    assert parse_san(board, "♘f3", figurine=True) == board.parse_uci("g1f3")
