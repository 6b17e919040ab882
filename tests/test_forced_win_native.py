"""The compiled forced-win solver against its specification, the interpreter's searches.

US Chess 14E2's ruling asks :func:`~reference_impl.unwinnability.forced_win.forced_mate`,
which runs ``csrc/forced_win.c``; :func:`~reference_impl.unwinnability.forced_win.specification`
answers the same question with :mod:`reference_impl.unwinnability.forced_win`'s own
searches. Their node counts differ (two move generators, and the compiled solver goes on
where the specification stops), their verdicts may not: on positions drawn near known
forced mates and around kings boxed in by their own pawns, and on every position the
corpus asks 14E2 about, whatever both decide they decide alike, and whatever the
specification decides the compiled solver decides too, on a larger budget. The bounded
question has a unique answer (the shortest mate), so there the two must give the same
distance as well.
"""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from conformance.harness.fixtures import load
from reference_impl import Board, load_ruleset
from reference_impl.adjudication import verdicts
from reference_impl.errors import FenError
from reference_impl.rules.limits import limits_of
from reference_impl.unwinnability import forced_win
from reference_impl.unwinnability.forced_win import ForcedMate, specification
from test_forced_win import DATA, LONGER, MATES, REPORTED

USCF = load_ruleset("uscf-7")
#: The ruling's budget (spec/limits.yaml).
NODE_LIMIT = limits_of(USCF).forced_win.node_limit
#: The specification's budget and the compiled solver's in the edit loop's tests.
SPEC_NODES, COMPILED_NODES = 3_000, 50_000
#: The budget the interpreter's ruling had before the compiled solver (the slow test).
OLD_RULING_NODES = 150_000
#: Forced mates to walk from (the flagged side's opponent wins): the data file's, the
#: short mates of the tests, the longer ones and the reported flag fall.
STARTS = ([(fen, 0 if flagged == "black" else 1) for fen, flagged, moves, *_ in DATA if moves is not None]
          + [(fen, 0) for fen, _ in MATES] + [(fen, 0) for fen in LONGER] + [(REPORTED, 0)])


def _compiled(board: Board, winner: int, max_plies: int | None, node_limit: int) -> ForcedMate:
    """The compiled solver, not kept (the cache would answer a second budget from the first)."""
    forced_win.clear_cache()
    return forced_win.forced_mate(board, winner, max_plies, node_limit)


def _walked(rng: random.Random) -> tuple[Board, int]:
    """A known forced mate, then up to seven random legal moves of either side."""
    fen, winner = rng.choice(STARTS)
    board = Board.from_fen(fen, USCF)
    for _ in range(rng.randrange(0, 8)):
        codes = board.legal_codes()
        if not codes:
            break
        board.push_code(rng.choice(codes))
    return Board.from_fen(board.fen(), USCF), winner


def _boxed(rng: random.Random) -> tuple[Board, int]:
    """A king in or next to a corner among its own units (pawns, a minor piece or a rook)
    against king and knight, bishop or two knights close by."""

    def near(square: int, spread: int) -> int:
        file = min(7, max(0, square % 8 + rng.randint(-spread, spread)))
        rank = min(7, max(0, square // 8 + rng.randint(-spread, spread)))
        return rank * 8 + file

    while True:
        winner = rng.randrange(2)
        king = rng.choice((0, 7)) + 8 * rng.choice((0, 7))
        if rng.random() < 0.3:
            king += 1 if king % 8 == 0 else -1
        placed = {king: ("k", 1 - winner)}
        for unit in rng.choice(("p", "pp", "ppp", "pp", "p", "n", "b", "pn", "pb", "r")):
            square = near(king, 1) if rng.random() < 0.8 else rng.randrange(64)
            if square not in placed and not (unit == "p" and square // 8 in (0, 7)):
                placed[square] = (unit, 1 - winner)
        for unit in "k" + rng.choice(("n", "b", "nn", "b", "n")):
            square = near(king, 2) if rng.random() < 0.8 else rng.randrange(64)
            if square not in placed:
                placed[square] = (unit, winner)
        board = chess.Board(None)
        for square, (unit, colour) in placed.items():
            board.set_piece_at(square, chess.Piece.from_symbol(unit.upper() if colour == 0 else unit))
        board.turn = chess.WHITE if (winner == 1) == (rng.random() < 0.7) else chess.BLACK
        if not board.is_valid():
            continue
        try:
            position = Board.from_fen(board.fen(), USCF)
        except FenError:  # python-chess accepts a few checks no last move can have given
            continue
        if position.legal_move_count():
            return position, winner


def _positions(count: int, seed: int) -> list[tuple[Board, int]]:
    rng = random.Random(seed)
    return [(_walked if index % 2 else _boxed)(rng) for index in range(count)]


def _assert_line_mates(board: Board, found: ForcedMate, winner: int) -> None:
    replay = chess.Board(board.fen())
    for uci in found.line:
        move = chess.Move.from_uci(uci)
        assert move in replay.legal_moves, (board.fen(), found.line, uci)
        replay.push(move)
    assert replay.is_checkmate() and replay.turn != (chess.WHITE if winner == 0 else chess.BLACK)


def _agree(positions: list[tuple[Board, int]], spec_nodes: int, compiled_nodes: int,
           max_plies: int | None = None) -> dict[Any, int]:
    """Asserts the two agree on ``positions``; returns how often each verdict pair came."""
    tally: dict[Any, int] = {}
    for board, winner in positions:
        expected = specification(board, winner, max_plies, spec_nodes)
        found = _compiled(board, winner, max_plies, compiled_nodes)
        tally[expected.found, found.found] = tally.get((expected.found, found.found), 0) + 1
        where = (board.fen(), winner, expected, found)
        if expected.found is not None:
            assert found.found is expected.found, where
        if max_plies is not None and expected.found:
            assert found.plies == expected.plies, where  # the shortest mate: one answer
        if found.found:
            _assert_line_mates(board, found, winner)
        assert found.nodes <= compiled_nodes, where
    return tally


def test_the_compiled_solver_decides_as_the_specification_on_generated_positions() -> None:
    tally = _agree(_positions(80, 1402), SPEC_NODES, COMPILED_NODES)
    # both verdicts occur often enough for the comparison to mean something
    assert tally.get((True, True), 0) >= 10 and tally.get((False, False), 0) >= 20, tally


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("seed", range(3))
def test_the_compiled_solver_decides_as_the_specification_on_more_positions(seed: int) -> None:
    tally = _agree(_positions(150, seed), SPEC_NODES * 5, COMPILED_NODES * 4)
    assert tally.get((True, True), 0) >= 20 and tally.get((False, False), 0) >= 40, tally


def test_the_bounded_question_has_one_answer_in_both() -> None:
    # The shortest forced mate within seven plies, or none: the same verdict and distance.
    tally = _agree(_positions(60, 7), SPEC_NODES * 5, COMPILED_NODES, max_plies=7)
    assert tally.get((True, True), 0) >= 5 and tally.get((False, False), 0) >= 30, tally


def _corpus_questions() -> list[tuple[str, int]]:
    """Every (position, winner) the reference asks 14E2's forced-win question about when it
    answers the corpus's flag falls under US Chess (the timeout fixtures whose flagged
    player's opponent could match a 14E row, and the game fixtures with a flag), recorded
    from the ruling itself (answered "not decided" there: the question is what is kept)."""
    from conformance.implementations import reference

    asked: list[tuple[str, int]] = []
    solve = forced_win.forced_mate

    def recorded(board: Board, color: int | str, *args: Any, **options: Any) -> ForcedMate:
        asked.append((board.fen(), int(color)))
        return ForcedMate(None, None, (), 0)  # only the question is wanted here

    uscf = ("uscf-7", "uscf-7-blitz")
    forced_win.forced_mate = recorded  # type: ignore[assignment]
    try:
        for fixture in load().fixtures:
            rulesets = [r for r in uscf if r in fixture["rulesets"] or "*" in fixture["rulesets"]]
            data = fixture["input"]
            if fixture["kind"] == "timeout" and rulesets and _minor_opponent(data["fen"], data["flagged"]):
                for ruleset in rulesets:
                    reference.timeout(ruleset, data)
            elif fixture["kind"] == "game" and rulesets and any("flag" in e for e in data["events"]):
                for ruleset in rulesets:
                    reference.game(ruleset, data)
    finally:
        forced_win.forced_mate = solve  # type: ignore[assignment]
    return sorted(set(asked))


def _minor_opponent(fen: str, flagged: str) -> bool:
    """Has the flagged player's opponent its king and one minor piece, or two knights?"""
    board = chess.Board(fen)
    opponent = chess.BLACK if flagged == "white" else chess.WHITE
    others = sorted(p.piece_type for p in board.piece_map().values() if p.color == opponent and p.piece_type != chess.KING)
    return others in ([chess.KNIGHT], [chess.BISHOP], [chess.KNIGHT, chess.KNIGHT])


@pytest.fixture(scope="module")
def corpus_questions() -> list[tuple[str, int]]:
    questions = _corpus_questions()
    assert len(questions) >= 50  # the corpus's 14E2 and 14E3 flag falls, both colours
    return questions


def test_the_compiled_solver_decides_every_corpus_question_as_the_specification(
        corpus_questions: list[tuple[str, int]]) -> None:
    positions = [(Board.from_fen(fen, USCF), winner) for fen, winner in corpus_questions]
    tally = _agree(positions, SPEC_NODES, COMPILED_NODES)
    assert tally.get((True, True), 0) >= 3 and tally.get((False, False), 0) >= 15, tally


@pytest.mark.slow  # about two minutes of the interpreter's search
def test_what_the_interpreters_ruling_decided_the_compiled_ruling_decides_alike(
        corpus_questions: list[tuple[str, int]]) -> None:
    # The ruling's budget before the compiled solver (150,000 of the interpreter's moves)
    # against the ruling's budget now.
    positions = [(Board.from_fen(fen, USCF), winner) for fen, winner in corpus_questions]
    tally = _agree(positions, OLD_RULING_NODES, NODE_LIMIT)
    decided_before = sum(n for (expected, _), n in tally.items() if expected is not None)
    decided_now = sum(n for (_, found), n in tally.items() if found is not None)
    assert decided_now > decided_before, tally


def test_the_ruling_asks_the_compiled_solver_and_keeps_its_answers() -> None:
    board = Board.from_fen(REPORTED, USCF)
    forced_win.clear_cache()
    first = verdicts.forced_win(board, 0, USCF)
    assert first.found is True and first.nodes <= NODE_LIMIT
    assert verdicts.forced_win(board, 0, USCF) is first
