"""Laws of meaning, checked on generated inputs (hypothesis), not only on chosen examples.

* a FEN read and written again is the same FEN, and python-chess reads the same position;
* a move made and unmade leaves the board as it was, to the last bit;
* the compiled move generator counts the same perft as the interpreter;
* the ``extends`` merge: an empty override changes nothing, ``null`` removes, a list
  replaces whole, mappings merge key by key, merging is associative for overrides without
  ``null`` whose keys keep their shape (mapping or leaf), and a second application of the same override changes nothing more;
* the shards of a run, merged, are the whole run.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conformance.harness import jsonl
from conformance.harness.select import Selection
from conformance.harness.session import Config, execute, plan
from reference_impl.core import Board
from reference_impl.core.perft import perft
from reference_impl.rules import load_ruleset
from reference_impl.rules.merge import merge, strip_nulls
from reference_impl.unwinnability import native

STANDARD = load_ruleset("fide-2023")
CHESS960 = load_ruleset("fide-2023-chess960")
FIXTURES = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"


@st.composite
def positions(draw: st.DrawFn, chess960: bool = False) -> chess.Board:
    """A position reached by random legal moves from a start array (python-chess plays them)."""
    number = draw(st.integers(0, 959)) if chess960 else 518
    board = chess.Board.from_chess960_pos(number) if chess960 else chess.Board()
    board.chess960 = chess960
    for _ in range(draw(st.integers(0, 60))):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over(claim_draw=False):
            break
        board.push(draw(st.sampled_from(moves)))
    return board


def ours(board: chess.Board) -> Board:
    return Board.from_fen(board.fen(shredder=board.chess960), CHESS960 if board.chess960 else STANDARD)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(), positions(chess960=True)))
def test_a_fen_read_and_written_is_the_same_fen(board: chess.Board) -> None:
    mine = ours(board)
    fen = mine.fen(castling="shredder") if board.chess960 else mine.fen()
    again = Board.from_fen(fen, mine.rules)
    assert (again.fen(castling="shredder") if board.chess960 else again.fen()) == fen
    # the position python-chess reads from it is the one it played (e.p. only when legal)
    theirs = chess.Board(fen, chess960=board.chess960)
    assert theirs.board_fen() == board.board_fen() and theirs.turn == board.turn
    assert theirs.castling_rights == board.castling_rights


def _state(board: Board) -> tuple[Any, ...]:
    return (board.fen(), [row[:] for row in board.bb], board.occ_co[:], board.occupied, board.mailbox[:],
            board.turn, board.castling_rights, board.ep_square, board.halfmove_clock, board.fullmove_number,
            board.position_key(), len(board.move_stack))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(), positions(chess960=True)), st.data())
def test_a_move_made_and_unmade_leaves_the_board_as_it_was(board: chess.Board, data: st.DataObject) -> None:
    mine = ours(board)
    moves = mine.legal_moves()
    if not moves:
        return
    before = _state(mine)
    move = data.draw(st.sampled_from(moves))
    mine.push(move)
    assert mine.fen() != before[0]  # the move changed the position
    assert mine.pop() == move
    assert _state(mine) == before
    codes = mine.legal_codes()
    code = data.draw(st.sampled_from(codes))
    mine.push_code(code)
    assert mine.pop_code() == code
    assert _state(mine) == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(), positions(chess960=True)), st.integers(1, 3))
def test_the_compiled_perft_counts_what_the_interpreter_counts(board: chess.Board, depth: int) -> None:
    mine = ours(board)
    assert native.perft(mine, depth) == perft(mine, depth)


# -- the extends merge ------------------------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "c", "d"])
LEAVES = st.one_of(st.integers(-3, 3), st.booleans(), st.sampled_from(["x", "y"]),
                   st.lists(st.integers(0, 3), max_size=3))


def tables(nulls: bool) -> st.SearchStrategy[dict[str, Any]]:
    values = st.one_of(LEAVES, st.none()) if nulls else LEAVES
    return st.recursive(st.dictionaries(KEYS, values, max_size=4),
                        lambda inner: st.dictionaries(KEYS, st.one_of(values, inner), max_size=4), max_leaves=12)


@given(tables(nulls=False))
def test_an_empty_override_changes_nothing(table: dict[str, Any]) -> None:
    assert merge(table, {}) == table == merge({}, table)


@given(tables(nulls=False), tables(nulls=True))
def test_null_removes_lists_replace_and_mappings_merge_key_by_key(parent: dict[str, Any], child: dict[str, Any]) -> None:
    before = copy.deepcopy((parent, child))
    out = merge(parent, child)
    assert (parent, child) == before  # neither argument is changed
    for key, value in child.items():
        if value is None:
            assert key not in out
        elif isinstance(value, dict):
            base = parent.get(key)
            assert out[key] == merge(base if isinstance(base, dict) else {}, value)
        else:
            assert out[key] == value  # a list (or any leaf) replaces whole
    for key in parent.keys() - child.keys():
        assert out[key] == parent[key]


def _same_shapes(*tables_: dict[str, Any]) -> bool:
    """No key is a mapping in one table and a leaf in another (at any depth)."""
    for key in {k for t in tables_ for k in t}:
        values = [t[key] for t in tables_ if key in t]
        if len({isinstance(v, dict) for v in values}) > 1:
            return False
        if not _same_shapes(*(v for v in values if isinstance(v, dict))):
            return False
    return True


@given(tables(nulls=False), tables(nulls=False), tables(nulls=False))
def test_merging_overrides_of_the_same_shape_without_null_is_associative(
        a: dict[str, Any], b: dict[str, Any], c: dict[str, Any]) -> None:
    # (a mapping over a leaf replaces it, so a key that changes shape on the way is the
    # one case where composing the overrides first differs: the law does not claim it)
    assume(_same_shapes(a, b, c))
    assert merge(merge(a, b), c) == merge(a, merge(b, c))


@given(tables(nulls=False), tables(nulls=True))
def test_an_override_applied_twice_changes_nothing_more(parent: dict[str, Any], child: dict[str, Any]) -> None:
    once = merge(parent, child)
    assert merge(once, child) == once
    assert merge({}, child) == strip_nulls(child)


# -- sharding ------------------------------------------------------------------------------------


def _run(selection: Selection) -> list[dict[str, Any]]:
    config = Config(fixtures=[str(FIXTURES / "status.jsonl")], selection=selection)
    return execute(config, plan(config), lambda record: None)


@pytest.fixture(scope="module")
def whole() -> dict[tuple[str, str], tuple[str, str]]:
    return {(r["id"], r["ruleset"]): (r["status"], json.dumps(r.get("actual"), sort_keys=True))
            for r in _run(Selection(ruleset=["fide-2023"])) if r["type"] == "result"}


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 5))
def test_the_shards_of_a_run_merged_are_the_whole_run(whole: dict[tuple[str, str], tuple[str, str]], count: int) -> None:
    reports = [(f"shard {k}/{count}", _run(Selection(ruleset=["fide-2023"], shard=(k, count))))
               for k in range(1, count + 1)]
    merged = jsonl.merge(reports)
    found = {(r["id"], r["ruleset"]): (r["status"], json.dumps(r.get("actual"), sort_keys=True))
             for r in merged if r["type"] == "result"}
    assert found == whole and len(found) > 50
