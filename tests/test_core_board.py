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


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
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


# -- the packed-move API against python-chess ---------------------------------------

from perft_data import perft_file, perftsuite  # noqa: E402

from reference_impl.core import codes  # noqa: E402


#: tricky.perft's castling right held by a king on h8, which both rulesets reject.
_IMPOSSIBLE_RIGHTS = "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1"


def _positions(cases) -> list[tuple[str, str]]:
    """(FEN, ruleset) of each distinct position, as the perft tests read the suites."""
    found = {}
    for case in cases:
        chess960 = case.suite == "chess960.perft" or case.id.startswith("xfen")
        if case.fen != _IMPOSSIBLE_RIGHTS:
            found[case.fen] = "fide-2023-chess960" if chess960 else "fide-2023"
    return list(found.items())


def _check_codes(board: Board, oracle: chess.Board) -> None:
    """Every packed-code helper for every legal move of ``board``, against ``oracle``
    (python-chess in Chess960 mode, so castling is king-takes-rook in both)."""
    by_uci = {m.uci(): m for m in oracle.legal_moves}
    found = {}
    for code in board.legal_codes():
        move = board.move_of(code)
        found[str(move)] = code
        expected = by_uci[str(move)]
        assert codes.origin(code) == expected.from_square == move.from_square
        assert codes.target(code) == expected.to_square == move.to_square
        promoted = codes.promotion_type(code)
        if expected.promotion is None:
            assert promoted is None
        else:
            assert board.tables.types[promoted].letter == chess.piece_symbol(expected.promotion).upper()
        assert codes.is_castling(code) == oracle.is_castling(expected)
        assert codes.is_en_passant(code) == oracle.is_en_passant(expected)
        double = oracle.piece_type_at(expected.from_square) == chess.PAWN and abs(expected.to_square - expected.from_square) == 16
        assert codes.flag(code) == (
            codes.FLAG_CASTLE if oracle.is_castling(expected)
            else codes.FLAG_EN_PASSANT if oracle.is_en_passant(expected)
            else codes.FLAG_DOUBLE if double
            else codes.FLAG_NORMAL
        )
        assert board.is_capture_code(code) == oracle.is_capture(expected)
        assert board.is_zeroing_code(code) == oracle.is_zeroing(expected)
        assert board.code_of(move) == code
        before = board.fen(castling="shredder", en_passant="fen")
        board.push_code(code)
        oracle.push(expected)
        assert board.fen(castling="shredder", en_passant="fen") == oracle.fen(shredder=True, en_passant="fen")
        oracle.pop()
        assert board.pop_code() == code
        assert board.fen(castling="shredder", en_passant="fen") == before
    assert set(found) == set(by_uci)


def _walk(fen: str, ruleset: str, depth: int) -> None:
    board = Board.from_fen(fen, load_ruleset(ruleset))
    oracle = chess.Board(fen, chess960=True)
    _check_codes(board, oracle)
    if depth > 1:
        for code in board.legal_codes():
            board.push_code(code)
            oracle.push(chess.Move.from_uci(str(board.move_of(code))))
            _check_codes(board, oracle)
            oracle.pop()
            board.pop_code()


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize(("fen", "ruleset"), _positions([*perft_file("special.perft"), *perft_file("tricky.perft")]))
def test_codes_match_python_chess_two_plies(fen: str, ruleset: str) -> None:
    # Castling (with checks, rights, X-FEN Chess960), en passant (legal and illegal),
    # promotions and underpromotions out of check: every helper at the root and after
    # every reply.
    _walk(fen, ruleset, 2)


def test_codes_match_python_chess_perftsuite() -> None:
    for fen, ruleset in _positions(perftsuite()):
        _walk(fen, ruleset, 1)


@pytest.mark.slow
def test_codes_match_python_chess_chess960() -> None:
    for fen, ruleset in _positions(perft_file("chess960.perft"))[:40]:
        _walk(fen, ruleset, 2)


def test_chess960_castling_onto_the_rook_square_is_not_a_capture() -> None:
    # Rook on f1 and king on g1: castling short leaves both on their squares' neighbours;
    # the code targets the own rook, which must not read as a capture or a zeroing move.
    board = Board.from_fen("4k3/8/8/8/8/8/8/5RK1 w F - 0 1", load_ruleset("fide-2023-chess960"))
    castle = board.code_of(board.parse_uci("g1f1"))
    assert codes.is_castling(castle)
    assert codes.target(castle) == parse_square("f1")
    assert not board.is_capture_code(castle) and not board.is_zeroing_code(castle)


def test_underpromotion_codes_name_the_promoted_type() -> None:
    board = Board.from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", load_ruleset("fide-2023"))
    letters = sorted(
        board.tables.types[codes.promotion_type(c)].letter
        for c in board.legal_codes(from_squares=1 << parse_square("b7"))
    )
    assert letters == ["B", "N", "Q", "R"]


def test_private_names_still_work() -> None:
    board = Board(load_ruleset("fide-2023"))
    code = board.legal_codes()[0]
    board._push(code)
    assert board._pop() == code
    assert board._to_move(code) == board.move_of(code)
    assert board.fen() == chess.STARTING_FEN


def _check_try_push(board: Board) -> None:
    """``try_push_code`` accepts exactly the legal codes among every code a unit of the
    side to move could be given (any target, flag and promotion), and leaves the board
    as it found it when it refuses one."""
    legal = set(board.legal_codes())
    tables = board.tables
    before = board.fen(castling="shredder", en_passant="fen")
    own = board.occ_co[board.turn]
    promotions = [0, *(t + 1 for t in tables.promotion_types), tables.royal + 1]
    accepted = set()
    for origin_sq in range(64):
        if not own >> origin_sq & 1:
            continue
        pawn = board.mailbox[origin_sq] & 15 == tables.pawn
        for target_sq in range(64):
            for flag_value in range(4):
                for promotion in promotions if pawn else promotions[:2]:
                    code = codes.encode(origin_sq, target_sq, promotion, flag_value)
                    if board.try_push_code(code):
                        accepted.add(code)
                        assert board.pop_code() == code
                    assert board.fen(castling="shredder", en_passant="fen") == before
    assert accepted == legal


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize(("fen", "ruleset"), _positions(perft_file("special.perft")))
def test_try_push_code_accepts_exactly_the_legal_codes(fen: str, ruleset: str) -> None:
    # Pins, checks, e.p. (legal and not), castling and promotions: at the root and after
    # every legal reply.
    board = Board.from_fen(fen, load_ruleset(ruleset))
    _check_try_push(board)
    for code in board.legal_codes()[:6]:
        board.push_code(code)
        _check_try_push(board)
        board.pop_code()
