"""The canonical-SAN fast path (reference_impl/notation/fastsan.py) against the full reader.

For seeded random python-chess games (standard and Chess960) and a few positions made
for ambiguity, pins, promotion and en passant, every move is written canonically and in
the spellings the lenient reader exists for (missing or wrong marks, superfluous
disambiguation, long algebraic, 0-0, Pe4, e8q, ...), plus moves that are illegal in the
position. ``read_san`` with the fast path must give what the full reader alone gives:
the same move, leniencies and annotation, or the same error category and message, and
leave the board in the same state. The canonical spellings (but en passant) must take
the fast path. The audit's replay (kept start positions) is checked at the end.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import chess
import pytest

from reference_impl import Board, load_ruleset
from reference_impl.notation import fastsan
from reference_impl.notation.errors import NotationError
from reference_impl.notation.san import read_san

FIDE = load_ruleset("fide-2023")
C960 = load_ruleset("chess960")
SUFFIXES = ("", "!", "?!")
#: Positions with two knights or rooks for one square, a pinned piece, a promotion with
#: capture choices, an en passant capture giving check, and castling both ways.
POSITIONS = (
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "1n2k1n1/P1P3P1/8/8/8/8/1p3p1p/R3K2R w KQ - 0 1",
    "4k3/8/8/2N1N3/8/2N1N3/8/R3K2R w KQ - 0 1",
    "3k4/8/8/3pP3/8/8/8/4K2B w - d6 0 1",
    "4k3/8/8/8/1b6/8/3N1N2/4K3 w - - 0 1",
    "R6R/8/8/1k6/8/8/8/R3K2R w - - 0 1",
    "8/2P5/8/8/8/8/6k1/4K2R w K - 0 1",
)


def _variants(pc: chess.Board, move: chess.Move, rng: random.Random) -> list[str]:
    """The canonical SAN of ``move`` and other spellings of it."""
    san = pc.san(move)
    core = san.rstrip("+#")
    mark = san[len(core):]
    piece = pc.piece_at(move.from_square)
    assert piece is not None
    capture = pc.is_capture(move)
    origin, target = chess.square_name(move.from_square), chess.square_name(move.to_square)
    letter = "" if piece.piece_type == chess.PAWN else piece.symbol().upper()
    promo = chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    out = [san, san + rng.choice(SUFFIXES[1:]), core, core + "+", core + "#", core + "++"]
    if pc.is_castling(move):
        out += [san.replace("O", "0"), san.lower()]
        return out
    rest = ("x" if capture else "") + target + (f"={promo}" if promo else "") + mark
    out += [
        letter + origin + ("x" if capture else "-") + target + (f"={promo}" if promo else "") + mark,
        letter + origin[0] + rest, letter + origin[1] + rest, letter + origin + rest,
        letter + target + (f"={promo}" if promo else "") + mark,  # no origin, no x
        letter + "x" + target + mark,
    ]
    if not letter:
        out += ["P" + san, core.replace("x", ":") + mark]
    if promo:
        out += [san.replace("=" + promo, promo), san.replace("=" + promo, "=" + promo.lower()),
                san.replace("=" + promo, ""), san.replace("=" + promo, "=K")]
    return out


def _illegal(pc: chess.Board, rng: random.Random) -> list[str]:
    """SAN-shaped texts that are no legal move here: moves of the other side."""
    other = pc.copy(stack=False)
    other.turn = not other.turn
    if other.is_check() or other.was_into_check():
        return []
    moves = list(other.legal_moves)
    return [other.san(m) for m in rng.sample(moves, min(2, len(moves)))]


def _full(board: Board, text: str, lenient: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The full reader's answer, without the fast path."""
    with monkeypatch.context() as patch:
        patch.setattr(fastsan, "read", lambda *args: None)
        return _outcome(board, text, lenient)


def _outcome(board: Board, text: str, lenient: bool) -> Any:
    try:
        parsed = read_san(board, text, lenient=lenient, push=True)
    except NotationError as error:
        return ("error", error.category, str(error), board.fen())
    answer = ("move", parsed.move, parsed.leniencies, parsed.annotation, board.fen())
    board.pop()
    return answer


def _positions(seed: int, games: int, chess960: bool) -> Iterator[tuple[chess.Board, Board]]:
    rng = random.Random(seed)
    for _ in range(games):
        pc = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        pc.chess960 = chess960
        rules = C960 if chess960 else FIDE
        for _ in range(rng.randrange(20, 120)):
            if pc.is_game_over():
                break
            yield pc, Board.from_fen(pc.fen(shredder=chess960), rules)
            pc.push(rng.choice(list(pc.legal_moves)))


def _check(pc: chess.Board, board: Board, rng: random.Random, monkeypatch: pytest.MonkeyPatch,
           sample: int) -> int:
    """Compare both readers on ``sample`` moves of this position; return how many
    canonical texts went fast."""
    legal = list(pc.legal_moves)
    moves = rng.sample(legal, min(sample, len(legal)))
    fast = 0
    for text in [t for m in moves for t in _variants(pc, m, rng)] + _illegal(pc, rng):
        for lenient in (True, False):
            before = board.fen()
            full = _full(board, text, lenient, monkeypatch)
            assert board.fen() == before
            assert _outcome(board, text, lenient) == full, (pc.fen(), text, lenient)
            assert board.fen() == before
    for m in moves:
        if not pc.is_en_passant(m):  # en passant is left to the full reader
            assert fastsan.read(board, pc.san(m), False) is not None, (pc.fen(), pc.san(m))
            fast += 1
    return fast


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("chess960", [False, True])
def test_random_games_read_the_same_with_and_without_the_fast_path(
        chess960: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    positions = fast = 0
    for pc, board in _positions(2025 + chess960, 2, chess960):
        positions += 1
        fast += _check(pc, board, rng, monkeypatch, sample=1)
    assert positions > 60 and fast >= positions - 2


@pytest.mark.parametrize("fen", POSITIONS)
def test_every_move_of_a_tricky_position_reads_the_same(fen: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pc = chess.Board(fen)
    _check(pc, Board.from_fen(fen, FIDE), random.Random(fen), monkeypatch, sample=20)


def test_the_fast_path_declines_what_is_not_canonical() -> None:
    board = Board(FIDE)
    for text in ("Ng1f3", "e2e4", "Pe4", "e4+", "Nf3 ", "0-0", "Nh3+", "e5", "Ke2"):
        assert fastsan.read(board, text, True) is None, text
    assert board.fen() == Board(FIDE).fen()
    move, suffix = fastsan.read(board, "Nf3!?", True)  # type: ignore[misc]
    assert (str(move), suffix) == ("g1f3", "!?")
    assert board.fen().split()[0] == "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R"


def test_the_audit_replays_each_game_from_a_fresh_copy_of_its_start_position() -> None:
    # The audit keeps one board per start position and replays a copy: a game played on
    # the copy must leave the next game's start untouched.
    from conformance.tools.audit.judge import _start, audit_game
    from reference_impl.notation.pgn import read_games

    text = ('[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
            '[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n')
    first, second = list(read_games(text))
    assert audit_game(first, FIDE).findings == []
    assert _start(None, FIDE).fen() == Board(FIDE).fen()
    found = audit_game(second, FIDE).findings
    assert [(f.rule, f.recorded, f.correct) for f in found] == [("automatic_end", "0-1", "1-0")]
