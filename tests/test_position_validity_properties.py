"""Position validity (FIDE 3.10.3) searched for relatives of the cases issue 23 found.

Properties, each over positions hypothesis draws:

* every position of a random legal game (standard and Chess960, the e.p. square written
  after every double step) is valid: a game reaches it;
* where a FEN implies its last move (an e.p. square: the double step), the position
  before that move is legal too: python-chess's ``is_valid()`` accepts it, and so does
  the reference;
* the reference and python-chess's ``status()`` agree where their definitions agree:
  whatever python-chess rejects the reference rejects. The reference rejects more, each
  kind listed in ``STRICTER`` with its article (see ``validate_fen`` in docs/fixtures.md).

The moves come from python-chess, the oracle; the reference is only asked about FENs.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reference_impl import Board, load_ruleset
from reference_impl.errors import FenError

pytestmark = pytest.mark.slow  # left out of `tox -e fast`

PROPERTY = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
STANDARD = load_ruleset("fide-2023")
CHESS960 = load_ruleset("fide-2023-chess960")
#: What the reference rejects and python-chess 1.11.2 accepts (the definitions differ),
#: each with the rule: the reason's words in the reference's message -> why.
STRICTER = {
    "beyond the initial array": "FIDE 2.3, 3.7.3.3: a piece beyond the initial array is a "
                                "promoted pawn, so it needs a missing pawn (python-chess: at most 16)",
    "no last move can have given": "FIDE 3.10.3: a check by a pawn that never moved, or by two "
                                   "pieces neither of which a move can have uncovered",
    "before the double step": "FIDE 3.10.3: the position before the double step an e.p. square "
                              "announces must be legal (python-chess un-makes only to check the "
                              "checkers of the side to move)",
    "mirrors White's": "FIDE II.2.3: Chess960 rights of both colours must fit one initial array",
    "cannot come from the double step": "FIDE 3.10.3: python-chess flags the same as IMPOSSIBLE_CHECK",
    "castling right": "FIDE 3.8.2.1 and the FEN's castling field: a right needs its king and rook "
                      "where they started; python-chess drops such a right while reading, often "
                      "without a status flag",
    "halfmove clock": "PGN 16.1.3.5: the clock counts plies since the last pawn move or capture; "
                      "python-chess does not check it",
}
PIECES = "PNBRQpnbrq"


def reference_verdict(fen: str, rules: object) -> str | None:
    """``None`` when the reference accepts ``fen``, else its reason."""
    try:
        Board.from_fen(fen, rules)
    except FenError as error:
        return error.reason
    return None


# --- every position of a random legal game is valid ---------------------------------


@PROPERTY
@given(st.integers(0, 2**32 - 1), st.integers(0, 959), st.booleans())
def test_every_position_of_a_random_game_is_valid(seed: int, number: int, chess960: bool) -> None:
    rng = random.Random(seed)
    board = chess.Board.from_chess960_pos(number) if chess960 else chess.Board()
    rules = CHESS960 if chess960 else STANDARD
    for _ in range(rng.randrange(1, 160)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        fen = board.fen(en_passant="fen", shredder=chess960 and rng.random() < 0.5)
        assert reference_verdict(fen, rules) is None, (fen, reference_verdict(fen, rules))


# --- un-making the double step an e.p. square announces -----------------------------


@st.composite
def positions_after_a_double_step(draw: st.DrawFn) -> str:
    """A FEN whose e.p. square says the side not to move just made a double step."""
    mover = draw(st.sampled_from([chess.WHITE, chess.BLACK]))
    file = draw(st.integers(0, 7))
    rank = 3 if mover == chess.WHITE else 4
    landing = chess.square(file, rank)
    passed = chess.square(file, rank - 1 if mover == chess.WHITE else rank + 1)
    origin = chess.square(file, rank - 2 if mover == chess.WHITE else rank + 2)
    board = chess.Board(None)
    board.set_piece_at(landing, chess.Piece(chess.PAWN, mover))
    free = [sq for sq in chess.SQUARES if sq not in (landing, passed, origin)]
    squares = draw(st.lists(st.sampled_from(free), min_size=2, max_size=9, unique=True))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2:]:
        symbol = draw(st.sampled_from(PIECES))
        if symbol in "Pp" and chess.square_rank(square) in (0, 7):
            continue
        board.set_piece_at(square, chess.Piece.from_symbol(symbol))
    board.turn = not mover
    return f"{board.board_fen()} {'w' if board.turn else 'b'} - {chess.square_name(passed)} 0 1"


def before_double_step(fen: str) -> chess.Board:
    """The position before the double step ``fen``'s e.p. square announces."""
    board = chess.Board(fen)
    mover = not board.turn
    passed = chess.parse_square(fen.split()[3])
    step = 8 if mover == chess.WHITE else -8
    landing, origin = passed + step, passed - step
    board.remove_piece_at(landing)
    board.set_piece_at(origin, chess.Piece(chess.PAWN, mover))
    board.turn = mover
    board.ep_square = None
    return board


@PROPERTY
@given(positions_after_a_double_step())
def test_unmaking_the_announced_double_step_gives_a_legal_position(fen: str) -> None:
    assume(reference_verdict(fen, STANDARD) is None)
    prior = before_double_step(fen)
    assert prior.is_valid(), (fen, prior.fen(), prior.status())
    assert reference_verdict(prior.fen(), STANDARD) is None, (fen, prior.fen())


@pytest.mark.parametrize("fen", [
    "8/8/8/5k2/4Pp2/8/2B5/4K3 b - e3 0 1",       # the bishop's check on f5 was there before e2-e4
    "8/8/8/7B/6Pp/8/4k2K/3r4 b - g3 0 1",        # the bishop's check on e2 was there before g2-g4
    "8/8/8/8/4P3/5k2/8/4K3 b - e3 0 1",          # the pawn on e2 gave check before it moved
])
def test_the_relatives_found_are_rejected_and_their_prior_position_is_illegal(fen: str) -> None:
    assert "before the double step" in str(reference_verdict(fen, STANDARD))
    assert not before_double_step(fen).is_valid()


# --- agreement with python-chess where the definitions agree -------------------------


@st.composite
def random_positions(draw: st.DrawFn) -> tuple[str, bool]:
    """Any placement with one king a side, a side to move, maybe rights and an e.p. square."""
    chess960 = draw(st.booleans())
    board = chess.Board(None, chess960=chess960)
    squares = draw(st.lists(st.sampled_from(chess.SQUARES), min_size=2, max_size=12, unique=True))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2:]:
        board.set_piece_at(square, chess.Piece.from_symbol(draw(st.sampled_from(PIECES + "RRrr"))))
    turn = draw(st.booleans())
    rights = "".join(c for c in "KQkq" if draw(st.booleans())) or "-"
    ep = "-"
    if draw(st.booleans()):
        ep = draw(st.sampled_from([f"{f}{'6' if turn else '3'}" for f in "abcdefgh"]))
    return f"{board.board_fen()} {'w' if turn else 'b'} {rights} {ep} 0 1", chess960


@PROPERTY
@given(random_positions())
def test_whatever_python_chess_rejects_the_reference_rejects(case: tuple[str, bool]) -> None:
    fen, chess960 = case
    try:
        oracle = chess.Board(fen, chess960=chess960)
    except ValueError:
        return  # a right python-chess cannot even read; the reference's reading is tested elsewhere
    ours = reference_verdict(fen, CHESS960 if chess960 else STANDARD)
    # python-chess drops castling rights that fit no king and rook and reports
    # BAD_CASTLING_RIGHTS; it reads an e.p. square no capture can use as absent.
    status = oracle.status() & ~chess.STATUS_VALID
    if status:
        assert ours is not None, (fen, chess960, status)
    elif ours is not None:
        assert any(words in ours for words in STRICTER), (fen, chess960, ours)


# --- Chess960 rights fit one initial array (Guidelines II.2.3) ------------------------

#: (king file, rook files) of every Chess960 initial array, from python-chess.
ARRAYS = {(chess.square_file(b.king(chess.WHITE)),
           frozenset(chess.square_file(s) for s in b.pieces(chess.ROOK, chess.WHITE)))
          for b in (chess.Board.from_chess960_pos(n) for n in range(960))}


@st.composite
def back_ranks_with_rights(draw: st.DrawFn) -> str:
    """Kings and rooks on their first ranks, with Shredder-FEN rights naming some rooks."""
    ranks, rights = [], ""
    for color in (chess.WHITE, chess.BLACK):
        files = draw(st.lists(st.integers(0, 7), min_size=2, max_size=4, unique=True))
        king, rooks = files[0], sorted(files[1:])
        row = ["."] * 8
        row[king] = "K"
        for f in rooks:
            row[f] = "R"
        named = [f for f in rooks if draw(st.booleans())]
        letters = "".join("ABCDEFGH"[f] for f in named)
        rights += letters if color == chess.WHITE else letters.lower()
        text = "".join(row) if color == chess.WHITE else "".join(row).lower()
        ranks.append(text)
    def fen_rank(row: str) -> str:
        out, empty = "", 0
        for c in row:
            if c == ".":
                empty += 1
                continue
            out += (str(empty) if empty else "") + c
            empty = 0
        return out + (str(empty) if empty else "")
    return f"{fen_rank(ranks[1])}/8/8/8/8/8/8/{fen_rank(ranks[0])} w {rights or '-'} - 0 1"


@PROPERTY
@given(back_ranks_with_rights())
def test_chess960_rights_the_reference_accepts_fit_one_initial_array(fen: str) -> None:
    assume(reference_verdict(fen, CHESS960) is None)
    board = chess.Board(fen, chess960=True)
    kept: dict[str, set[int]] = {"king": set(), "rooks": set()}
    for color in (chess.WHITE, chess.BLACK):
        rooks = {chess.square_file(s) for s in chess.SquareSet(board.castling_rights & board.occupied_co[color])}
        if rooks:
            kept["king"].add(chess.square_file(board.king(color)))
            kept["rooks"] |= rooks
    assume(kept["king"])
    assert len(kept["king"]) == 1, fen
    (king,) = kept["king"]
    assert any(k == king and kept["rooks"] <= rooks for k, rooks in ARRAYS), fen
