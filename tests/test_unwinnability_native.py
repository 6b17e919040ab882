"""The compiled search core plays by the same tables as the interpreter.

Its mating lines are replayed by the interpreter before anything reports them; these
tests check the move generator underneath against the public perft suites (published
counts, standard and Chess960), and against the interpreter move by move on positions
of every perft suite, so that a proposal is rarely wasted and an "exhausted" search
means what it says.
"""

from __future__ import annotations

from typing import Iterable

import pytest
from perft_data import PerftCase, perft_file, perftsuite

from reference_impl import Board, load_ruleset
from reference_impl.core import movegen
from reference_impl.unwinnability import native

STANDARD = "fide-2023"
CHESS960 = "fide-2023-chess960"
IMPOSSIBLE_RIGHTS = {"r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1"}
#: The largest published count checked here (the compiled generator is fast).
MAX_NODES = 2_000_000


def _ruleset_for(case: PerftCase) -> str:
    return CHESS960 if case.suite == "chess960.perft" or case.id.startswith("xfen") else STANDARD


def _mismatches(cases: Iterable[PerftCase]) -> tuple[int, list[str]]:
    ran, bad = 0, []
    for case in cases:
        if case.fen in IMPOSSIBLE_RIGHTS or case.nodes > MAX_NODES:
            continue
        board = Board.from_fen(case.fen, load_ruleset(_ruleset_for(case)))
        got = native.perft(board, case.depth)
        ran += 1
        if got != case.nodes:
            bad.append(f"{case.suite} {case.id} depth {case.depth}: expected {case.nodes}, got {got}")
    return ran, bad


@pytest.mark.parametrize(
    "suite", ["tricky.perft", pytest.param("random.perft", marks=pytest.mark.slow), "chess960.perft", "special.perft"]
)
def test_native_perft_matches_published_counts(suite: str) -> None:
    ran, bad = _mismatches(c for c in perft_file(suite) if c.depth <= 3 or suite == "special.perft")
    assert ran > 0
    assert not bad, "\n".join(bad)


def test_native_perft_matches_perftsuite() -> None:
    ran, bad = _mismatches(c for c in perftsuite() if c.depth <= 3)
    assert ran > 100
    assert not bad, "\n".join(bad)


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_native_legal_moves_equal_the_interpreters_move_for_move() -> None:
    """Same packed codes (flags included) in every position one ply from each suite's root."""
    checked = 0
    for suite in ("tricky.perft", "chess960.perft", "special.perft"):
        seen: set[str] = set()
        for case in perft_file(suite):
            if case.fen in IMPOSSIBLE_RIGHTS or case.fen in seen:
                continue
            seen.add(case.fen)
            root = Board.from_fen(case.fen, load_ruleset(_ruleset_for(case)))
            for code in [None] + movegen.legal_moves(root):
                board = root.copy(stack=False)
                if code is not None:
                    board._push(code)
                assert sorted(native.legal_codes(board)) == sorted(movegen.legal_moves(board)), board.fen()
                checked += 1
    assert checked > 1000


def test_packed_tables_follow_the_yaml_not_the_code(tmp_path) -> None:
    """The knight as a (1, 3) leaper in the tables: the compiled generator follows the YAML."""
    import yaml

    from reference_impl.core.perft import perft
    from reference_impl.rules.paths import spec_dir

    data = yaml.safe_load((spec_dir() / "rulesets" / "orthodox.yaml").read_text())
    assert data["pieces"]["knight"]["leaps"] == [[1, 2]]
    data["pieces"]["knight"]["leaps"] = [[1, 3]]
    data["id"] = "orthodox-long-knight"
    path = tmp_path / "long-knight.yaml"
    path.write_text(yaml.safe_dump(data))
    board = Board(load_ruleset(path))
    standard = Board(load_ruleset(STANDARD))
    assert native.perft(board, 3) == perft(board, 3)
    assert native.perft(board, 3) != native.perft(standard, 3) == 8902


@pytest.mark.parametrize("lost_by", [["king_move", "rook_captured"], ["rook_move", "rook_captured"]])
def test_packed_tables_follow_castling_rights_lost_by(lost_by: list[str]) -> None:
    """castling.rights_lost.by without the king's or the rook's moves: a round trip keeps
    the right, in the compiled generator as in the interpreter (FIDE 3.8.2.1 mutated)."""
    from reference_impl.core.perft import perft
    from reference_impl.rules import derive_ruleset

    rules = derive_ruleset(STANDARD, {"castling": {"rights_lost": {"by": lost_by}}}, id="rights-kept")
    fen = "k7/8/8/8/8/8/8/4K2R w K - 0 1"  # five plies: a round trip, then castling
    board = Board.from_fen(fen, rules)
    assert native.perft(board, 5) == perft(board, 5) != native.perft(Board.from_fen(fen, load_ruleset(STANDARD)), 5)


def test_native_exploration_visits_every_king_v_king_position() -> None:
    """K v K: the compiled walk (FIDE 9.2.3 identity) visits every position, each
    placement of two non-adjacent kings with either side to move (counted with
    python-chess's square distance), and meets no mate."""
    import chess

    placements = sum(1 for a in chess.SQUARES for b in chess.SQUARES if chess.square_distance(a, b) > 1)
    board = Board.from_fen("7k/8/8/8/8/8/8/K7 w - - 0 1", load_ruleset(STANDARD))
    theirs = native.explore(board, {0, 1}, 100_000, None)
    assert theirs.complete and not theirs.mates
    assert theirs.positions == 2 * placements == 7224


def test_native_exploration_proves_two_same_coloured_bishops_cannot_mate() -> None:
    """A blocked position whose pawns fall: what remains is K+2 dark bishops v K, which
    no series of legal moves mates (FIDE 5.2.2); the walk closes it, the compiled static
    stage pruning after captures and pawn moves."""
    board = Board.from_fen("8/8/k6p/5p1P/3b1p2/2b2PpK/6P1/8 w - - 0 1", load_ruleset(STANDARD))
    found = native.explore(board, {0, 1}, 2_000_000)
    assert found.complete and not found.mates
