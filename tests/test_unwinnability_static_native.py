"""The compiled static stage against its specification, the interpreter's.

``csrc/static_stage.c`` (compiled into ``_native``) carries a port of
:mod:`reference_impl.unwinnability.static` and :mod:`.mate` (frozen units, regions, dead
ends, the conditions of a mate square), because the exhaustive walk asks it after every
capture and pawn move. Every ``CANNOT`` it gives is a
proof only if it answers exactly what the Python stage answers: on the labelled
positions, the Lichess sample and positions a few random moves (captures preferred)
away from them, both must prove the same colours.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from conformance.tools.generate.lichess_sample import parse
from reference_impl import Board, load_ruleset
from reference_impl.errors import FenError
from reference_impl.unwinnability import native
from reference_impl.unwinnability.search import static_proofs

DATA = Path(__file__).parent / "data" / "unwinnability"
RULES = load_ruleset("fide-2023")
CHESS960 = load_ruleset("fide-2023-chess960")


def _fens() -> list[str]:
    """The labelled positions a game can reach and the Lichess sample's, read by their own
    tests' and generator's readers."""
    from test_unwinnability_labelled import _positions

    sample = DATA / "lichess-sample.txt"
    return [fen for _, fen in _positions()] + [row.fen for row in parse(sample.read_text(), sample.name)]


def _walks(rules, count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    boards = []
    fens = _fens()
    for fen in rng.sample(fens, min(count, len(fens))):
        board = Board.from_fen(fen, rules)
        for _ in range(rng.randrange(0, 10)):
            moves = board.legal_codes()
            if not moves:
                break
            captures = [m for m in moves if board.is_capture_code(m)]
            board.push_code(rng.choice(captures if captures and rng.random() < 0.6 else moves))
        boards.append(board)
    return boards


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("seed", range(4))
def test_compiled_static_stage_proves_what_the_interpreters_proves(seed: int) -> None:
    boards = _walks(RULES, 400, seed)
    proofs = 0
    for board in boards:
        expected = static_proofs(board, (0, 1))
        assert native.static_stage(board, (0, 1)) == expected, board.fen()
        proofs += len(expected)
    assert proofs > 50  # the sample exercises the proofs, not only "no proof"


#: Castling rights keep the king and rook mobile; a legal e.p. capture is prey.
CASTLING_AND_EN_PASSANT = [
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "4k3/8/8/2pP4/2P5/8/8/4K3 w - c6 0 2",
    "4k3/8/8/3pP3/3P4/8/8/4K3 w - d6 0 2",
    "8/8/8/2k5/3pP3/3P4/8/4K3 b - e3 0 1",
    "4k3/1p1p1p1p/1P1P1P1P/8/8/1p1p1p1p/1P1P1P1P/4K3 w - - 0 1",
]
#: Kings' steps that stalemate the other side (dead ends), including positions where
#: such a step might uncover a check, so the analysis without dead ends decides.
DEAD_ENDS = [
    "8/b7/1b5p/2b2p1P/3b1p1K/4bPp1/6P1/5kb1 b - - 0 1",
    "8/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 b - - 0 1",
    "1b1k1b2/bKp1p1pB/1pP1P1P1/1P4P1/p7/P7/8/8 b - - 7 5",
    "Bb2kb2/b1p1p1p1/KpP1P1P1/1P4P1/p7/P7/8/8 w - - 2 3",
    "k1b5/1p1pK3/1P1P4/8/8/8/8/8 w - - 6 4",
    "8/1p6/1Pp5/k1P5/p1P5/P1K1B3/8/4B3 b - - 1 1",
]


@pytest.mark.parametrize("fen", CASTLING_AND_EN_PASSANT + DEAD_ENDS)
def test_compiled_static_stage_on_chosen_positions(fen: str) -> None:
    board = Board.from_fen(fen, RULES)
    assert native.static_stage(board, (0, 1)) == static_proofs(board, (0, 1))


def test_compiled_static_stage_under_chess960_rules() -> None:
    for board in _walks(CHESS960, 150, 7):
        assert native.static_stage(board, (0, 1)) == static_proofs(board, (0, 1)), board.fen()


# --- the screening's shortcut (st_open): it may skip the static stage only where the
# --- static stage would not prove the colour unable to mate


def _random_board(rng: random.Random) -> Board | None:
    """Kings, up to eight pawns and three pieces a side on random squares, then a few
    random moves: blocked and passed pawns, promotions, pieces shut in."""
    units = ["K", "k"]
    for case in (str.upper, str.lower):
        units += [case("p")] * rng.randrange(0, 9)
        units += [case(rng.choice("qrbnbn")) for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))]
    squares = rng.sample(range(64), len(units))
    rows = [["1"] * 8 for _ in range(8)]
    for unit, square in zip(units, squares):
        if unit in "Pp" and square // 8 in (0, 7):
            return None
        rows[7 - square // 8][square % 8] = unit
    placement = re.sub("1+", lambda run: str(len(run.group())), "/".join("".join(row) for row in rows))
    try:
        board = Board.from_fen(f"{placement} {rng.choice('wb')} - - 0 1", RULES)
    except FenError:
        return None
    for _ in range(rng.randrange(0, 6)):
        moves = board.legal_codes()
        if not moves:
            break
        board.push_code(rng.choice(moves))
    return board


def _shortcut_agrees(boards: list[Board]) -> int:
    """Asserts that no colour the shortcut calls open is one the specification proves;
    returns how many colours it called open."""
    opened = 0
    for board in boards:
        open_ = native.static_open(board, (0, 1))
        assert not open_ & static_proofs(board, (0, 1)), board.fen()
        opened += len(open_)
    return opened


def test_the_screening_shortcut_never_skips_a_proof_on_the_lichess_sample() -> None:
    sample = DATA / "lichess-sample.txt"
    boards = [Board.from_fen(row.fen, RULES) for row in parse(sample.read_text(), sample.name)]
    assert _shortcut_agrees(boards) > 1.5 * len(boards)  # nearly every question of real games


@pytest.mark.parametrize("fen", CASTLING_AND_EN_PASSANT + DEAD_ENDS)
def test_the_screening_shortcut_on_chosen_positions(fen: str) -> None:
    _shortcut_agrees([Board.from_fen(fen, RULES)])


@pytest.mark.slow  # about 15 s: left out of `tox -e fast`
@pytest.mark.parametrize("seed", range(4))
def test_the_screening_shortcut_never_skips_a_proof(seed: int) -> None:
    boards = _walks(RULES, 400, seed)
    rng = random.Random(seed)
    while len(boards) < 1600:
        board = _random_board(rng)
        if board is not None:
            boards.append(board)
    opened = _shortcut_agrees(boards)
    assert opened > len(boards)  # it applies to most questions, the proofs exercised beside it
    assert sum(len(static_proofs(b, (0, 1))) for b in boards[400:]) > 50
