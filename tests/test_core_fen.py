"""FEN reading and writing: three castling dialects, canonical output, strict rejection
with a reason for each kind of impossible input."""

from __future__ import annotations

import pytest

from reference_impl import Board, FenError, load_ruleset


@pytest.fixture(scope="module")
def fide():
    return load_ruleset("fide-2023")


@pytest.fixture(scope="module")
def chess960():
    return load_ruleset("chess960")


INVALID = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -  0", "expected 6 fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter 'X'"),
    ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7 squares"),
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "longer than 8"),
    ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two consecutive digits"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "Black has 0 kings"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "White has 2 kings"),
    ("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "pawn stands on its first or last rank"),
    ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn stands on its first or last rank"),
    ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "side not to move is in check"),
    ("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "no rook on that side"),
    ("4k3/8/8/8/8/8/8/3K3R w K - 0 1", "not on its initial square"),
    ("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", "not on an initial square"),
    ("4k3/8/8/8/8/8/4K3/7R w K - 0 1", "not on its first rank"),
    ("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "malformed"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 1", "no double step"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d5 0 1", "no double step"),
    ("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1", "no double step"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - z9 0 1", "not a square"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 10", "halfmove clock of 0"),
    ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "not a non-negative integer"),
    ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "not a non-negative integer"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "at least 1"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 30 10", "exceeds the 18 plies"),
]


@pytest.mark.parametrize("fen, reason", INVALID, ids=[r for _, r in INVALID])
def test_invalid_fen_rejected_with_reason(fide, fen: str, reason: str) -> None:
    with pytest.raises(FenError, match=reason):
        Board.from_fen(fen, fide)


def test_fen_en_passant_written_only_when_legal_by_default(fide) -> None:
    board = Board(fide)
    board.push_uci("e2e4")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert board.fen(en_passant="fen") == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    pinned = Board.from_fen("1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1", fide)
    assert not pinned.has_legal_en_passant()
    assert pinned.fen().split()[3] == "-"


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1",
    ],
)
def test_three_castling_dialects_read_the_same(fide, fen: str) -> None:
    board = Board.from_fen(fen, fide)
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert board.fen(castling="shredder").split()[2] == "HAha"


def test_xfen_inner_rook_gets_a_file_letter(chess960) -> None:
    # Two white rooks on the king side: the inner one (f1) needs its file letter.
    board = Board.from_fen("4k3/8/8/8/8/8/8/R3KR1R w FA - 0 1", chess960)
    assert board.fen().split()[2] == "FQ"
    assert board.fen(castling="shredder").split()[2] == "FA"
    assert Board.from_fen(board.fen(), chess960).fen(castling="shredder") == board.fen(castling="shredder")


def test_epd_without_clocks_reads_as_zero_and_one(fide) -> None:
    assert Board.from_fen("4k3/8/8/8/8/8/8/4K3 b - -", fide).fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"


def test_chess960_rights_need_king_between_rooks_only(fide, chess960) -> None:
    fen = "1rk1r3/8/8/8/8/8/8/1RK1R3 w KQkq - 0 1"
    with pytest.raises(FenError):
        Board.from_fen(fen, fide)
    assert Board.from_fen(fen, chess960).fen(castling="shredder").split()[2] == "EBeb"
