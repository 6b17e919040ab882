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
    ("4k3/8/8/8/8/8/8/4K3 w - -", "expected 6 fields, found 4"),
    ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "Black has 9 pawns, at most 8"),
    ("4k3/pppppppp/8/8/8/Q7/QQQQQQQQ/QQQQKQQQ w - - 0 1", "White has 15 pieces beyond"),
    ("4k3/8/8/8/8/8/PPPPPPPP/NNN1K3 w - - 0 1", "1 pieces beyond the initial array but only 0"),
    ("4kk2/8/8/8/8/8/8/4K3 w - - 0 1", "Black has 2 kings"),
    ("8/8/8/7k/3Pp3/8/8/4K2Q b - d3 0 1", "cannot come from the double step"),
    ("1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1", "cannot come from the double step"),
    ("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", "from both sides of the king"),
    ("5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1", "from both sides of the king"),
    ("8/8/8/8/8/4k3/3P4/4K3 b - - 0 1", "no last move can have given the check by the pawn"),
    ("8/8/8/4k3/3P4/5N2/8/4K3 b - - 0 1", "check by both"),
    ("4k3/8/8/8/1b6/8/4r3/3rK3 w - - 0 1", "by 3 pieces, at most 2"),
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
    pinned = Board.from_fen("8/8/8/r2Pp2K/8/8/4k3/8 w - e6 0 2", fide)  # dxe6 opens the rank
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


#: Positions a game reaches whose checks need the less common last moves.
REACHABLE = [
    "8/8/8/6k1/3Pp3/8/8/2B1K3 b - d3 0 1",  # d2-d4 uncovered the bishop
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  # the double-stepped pawn checks
    "8/4R3/2BP4/8/4k3/8/8/4K3 b - - 0 2",  # exd6 e.p. uncovered rook and bishop
    "3R4/3k3R/8/8/8/8/8/4K3 b - - 0 1",  # exd8=R uncovered the rook on h7
    "4k3/8/8/1B6/8/8/8/4QK2 b - - 0 1",  # Be2-b5 uncovered the queen
    "4k3/2N5/8/8/8/8/8/4RK2 b - - 0 1",  # Ne6-c7 uncovered the rook
    "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",  # ...d3-d2 check
    "4k3/8/8/8/8/8/PPPPPPP1/NNN1K3 w - - 0 60",  # the third knight is a promoted pawn
    "QQQQk3/8/8/8/8/8/8/4K3 b - - 0 80",
]


@pytest.mark.parametrize("fen", REACHABLE)
def test_reachable_positions_are_accepted(fide, fen: str) -> None:
    assert Board.from_fen(fen, fide).fen(en_passant="fen") == fen


def test_chess960_rights_need_king_between_rooks_only(fide, chess960) -> None:
    fen = "1rk1r3/8/8/8/8/8/8/1RK1R3 w KQkq - 0 1"
    with pytest.raises(FenError):
        Board.from_fen(fen, fide)
    assert Board.from_fen(fen, chess960).fen(castling="shredder").split()[2] == "EBeb"


def test_a_text_read_under_one_move_layer_is_read_anew_under_another(fide, chess960) -> None:
    """The kept readings are keyed by the move layer: Chess960's reading (valid, kept)
    is not the standard array's (FIDE 3.8.2.1: the rights need the initial squares)."""
    fen = "1rk1r3/8/8/8/8/8/8/1RK1R3 w KQkq - 0 1"
    for _ in range(2):
        assert Board.from_fen(fen, chess960).fen(castling="shredder").split()[2] == "EBeb"
        with pytest.raises(FenError, match="not on its initial square|no rook|initial"):
            Board.from_fen(fen, fide)


def test_a_kept_reading_is_handed_out_as_a_fresh_board_of_the_ruleset_asked() -> None:
    """Two rulesets sharing a move layer (FIDE 2018 and 2023) share the reading, each
    board still playing under its own ruleset; a board changed by its user leaves the next
    reading as the text says."""
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    first = Board.from_fen(fen, load_ruleset("fide-2023"))
    first.push(first.parse_uci("e1g1"))
    again = Board.from_fen(fen, load_ruleset("fide-2018"))
    assert again.rules.id == "fide-2018" and again.model is load_ruleset("fide-2018").model
    assert again.fen() == fen and len(again.legal_moves()) == 26


def test_a_fen_that_does_not_read_raises_each_time(fide) -> None:
    for _ in range(2):
        with pytest.raises(FenError, match="Black has 0 kings"):
            Board.from_fen("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", fide)
