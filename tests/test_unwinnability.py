"""Hand-built positions for the unwinnability analysis (FIDE 5.2.2 dead position, 6.9).

Expectations come from the Laws' text (a lone king, or a king and one minor piece
against a bare king, can never give checkmate; bishops all on one square colour cannot
either), from the labelled CHA vectors where a position is taken from them, and every
``CAN`` answer is checked independently: python-chess replays the returned line and
must find the loser checkmated.
"""

from __future__ import annotations

import chess
import pytest

from reference_impl import BLACK, WHITE, Board, load_ruleset
from reference_impl.unwinnability import (
    Analysis,
    Verdict,
    analyse,
    analyse_both,
    can_checkmate,
    is_dead_position,
)

from reference_impl.core.squares import parse_square, scan, square_name
from reference_impl.unwinnability.mate import mate_on_arrival
from reference_impl.unwinnability.search import placement_of, static_proofs
from reference_impl.unwinnability.static import analyse_static

RULES = load_ruleset("fide-2023")
LIMIT = 20_000
#: Helpmates with a single minor piece take a long walk to a corner (~40 plies).
MINOR_PIECE_LIMIT = 500_000


def board(fen: str) -> Board:
    return Board.from_fen(fen, RULES)


def assert_mating_line(fen: str, color: int, analysis: Analysis, chess960: bool = False) -> None:
    """python-chess must agree that the line is legal and ends with ``color`` mating."""
    assert analysis.verdict is Verdict.CAN
    reference = chess.Board(fen, chess960=chess960)
    for uci in analysis.line:
        move = chess.Move.from_uci(uci)
        assert move in reference.legal_moves, (uci, reference.fen())
        reference.push(move)
    assert reference.is_checkmate()
    assert reference.turn == (chess.BLACK if color == WHITE else chess.WHITE)


def test_fide_2023_5_2_2_bare_kings_dead() -> None:
    b = board("8/8/8/4k3/8/8/8/4K3 w - - 0 1")
    assert is_dead_position(b) is Verdict.CANNOT
    assert analyse(b, WHITE).stage == "static"


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/3NK3 w - - 0 1",  # K+N v K
        "8/8/8/4k3/8/8/8/2B1K3 b - - 0 1",  # K+B v K
        "7k/8/8/8/8/8/8/N6K w - - 0 1",  # knight in the corner
    ],
)
def test_fide_2023_5_2_2_king_and_minor_against_bare_king_dead(fen: str) -> None:
    assert is_dead_position(board(fen), node_limit=0) is Verdict.CANNOT


def test_fide_2023_5_2_2_bishops_on_one_colour_dead() -> None:
    # Both bishops on dark squares (c1 and d6): no mate is possible.
    b = board("8/8/3b4/4k3/8/8/8/2B1K3 w - - 0 1")
    assert is_dead_position(b, node_limit=0) is Verdict.CANNOT


def test_many_bishops_on_one_colour_dead() -> None:
    # From the labelled CHA vectors: nine white and nine black dark-squared bishops.
    b = board("3b1b1k/2b1b1b1/1b1b1b2/2b5/4KB2/4B1B1/3B1B1B/2B1B1B1 w - - 0 1")
    assert is_dead_position(b, node_limit=0) is Verdict.CANNOT


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4b3/4k3/8/8/8/2B1K3 w - - 0 1",  # opposite-coloured bishops (digest 5.8)
        "8/8/3n4/4k3/8/8/8/3NK3 w - - 0 1",  # K+N v K+N (digest 5.7)
    ],
)
def test_fide_2023_5_2_2_not_dead_with_helpmate(fen: str) -> None:
    b = board(fen)
    results = analyse_both(b, MINOR_PIECE_LIMIT)
    for color in (WHITE, BLACK):
        assert_mating_line(fen, color, results[color])


def test_fide_2023_6_9_knight_mates_king_with_own_pawn() -> None:
    # K+N v K+P: the pawn can block its own king, so the knight side can mate (6.9: if
    # the pawn side's flag falls, it loses), unlike K+N against a bare king.
    fen = "8/8/8/4k3/4p3/8/8/3NK3 w - - 0 1"
    result = analyse(board(fen), WHITE, MINOR_PIECE_LIMIT)
    assert_mating_line(fen, WHITE, result)


def test_fide_2023_6_9_same_coloured_bishops_mate_behind_a_promoted_knight() -> None:
    # Labelled CHA vector (line 718, "WB"): two light-squared bishops can only mate a
    # king in a light corner whose dark neighbour holds one of its own units, and White's
    # only unit to make one from is the e-pawn, which must promote to a knight (a queen
    # or rook would take or guard the mating square) and walk beside the corner.
    fen = "1k2b1b1/8/8/8/3KP3/8/8/8 w - - 0 1"
    result = analyse(board(fen), BLACK, 10_000_000)  # the rulesets' flag-fall limit
    assert_mating_line(fen, BLACK, result)
    assert any(move.endswith("n") for move in result.line)  # the under-promotion


def test_fide_2023_6_9_lone_king_cannot_mate_queen_and_rook() -> None:
    b = board("7k/8/8/8/8/8/8/RQ2K3 w - - 0 1")
    assert can_checkmate(b, BLACK, node_limit=0) is Verdict.CANNOT
    assert analyse(b, WHITE, LIMIT).verdict is Verdict.CAN


def test_locked_pawn_wall_with_bishops_dead() -> None:
    # First labelled CHA vector: pawns locked on b4-h5, bishops that cannot cross.
    b = board("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1")
    assert is_dead_position(b, node_limit=0) is Verdict.CANNOT


def test_bishops_frozen_inside_pawn_box_dead() -> None:
    # CHA vector: each bishop is walled in by its own pawns and guards them for ever.
    b = board("8/3k4/2p1p3/2PbP3/2pBp3/2P1P3/3K4/8 w - - 0 1")
    assert is_dead_position(b, node_limit=0) is Verdict.CANNOT


def test_fide_2023_5_2_2_king_steps_that_only_stalemate_are_dead_ends() -> None:
    # Labelled CHA vector (line 698, "--": dead). White's king can only shuttle h3-h4.
    # Black's king can take g2 or reach h2 only with White's king on h4, and g5 only
    # with it on h3: each time White is stalemated at once. No other unit can ever
    # help either side, so neither can mate; the static stage proves it without search
    # once those three squares are dead ends for Black's king.
    b = board("8/b7/1b5p/2b2p1P/3b1p1K/4bPp1/6P1/5kb1 b - - 0 1")
    analysis = analyse_static(placement_of(b))
    squares = {square_name(s) for s in scan(analysis.dead_ends[BLACK])}
    assert {"g2", "h2", "g5"} <= squares
    assert {square_name(s) for s in scan(analysis.king(WHITE).region)} == {"h3", "h4"}
    assert not analysis.king(BLACK).region & analysis.dead_ends[BLACK]
    assert is_dead_position(b, node_limit=0) is Verdict.CANNOT
    assert static_proofs(b, (WHITE, BLACK)) == {WHITE, BLACK}


def test_a_step_into_a_dead_end_that_uncovers_a_check_is_a_possible_mate() -> None:
    # White: Kc8, Rh8, pawns a6 a7 b6; Black: Ka8, with no move of its own. Kc7 or Kd7
    # opens the rook's line: mate. With every unit's region pinned to its square and
    # the dead ends marked by hand, c7 and d7 must count as a possible mate; b8 keeps
    # the line shut and must not.
    b = board("k1K4R/P7/PP6/8/8/8/8/8 w - - 0 1")
    placement = placement_of(b)
    analysis = analyse_static(placement)
    for unit in analysis.units:
        unit.region = 1 << unit.square
    analysis.dead_ends = [1 << parse_square("c7") | 1 << parse_square("d7"), 0]
    assert mate_on_arrival(placement, analysis, WHITE)
    analysis.dead_ends = [1 << parse_square("b8"), 0]
    assert not mate_on_arrival(placement, analysis, WHITE)


def test_complete_search_proves_what_static_cannot() -> None:
    # CHA vector labelled dead: Black's king can eat White's pawns, but every such line
    # ends in stalemate; only a search of every reachable position shows it.
    b = board("8/6k1/6p1/6P1/6PK/6P1/6PP/8 w - - 0 1")
    results = analyse_both(b, 200_000)
    assert {a.verdict for a in results.values()} == {Verdict.CANNOT}
    assert "explore" in {a.stage for a in results.values()}


def test_start_position_both_can_mate() -> None:
    fen = chess.STARTING_FEN
    results = analyse_both(board(fen), LIMIT)
    for color in (WHITE, BLACK):
        assert_mating_line(fen, color, results[color])


def test_chess960_ruleset_analysis_runs_on_its_tables() -> None:
    rules = load_ruleset("chess960")
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    b = Board.from_fen(fen, rules)
    assert_mating_line(fen, WHITE, analyse(b, WHITE, LIMIT), chess960=True)


def test_node_limit_zero_never_searches() -> None:
    b = board("8/8/3n4/4k3/8/8/8/3NK3 w - - 0 1")
    result = analyse(b, WHITE, node_limit=0)
    assert result.verdict is Verdict.UNDETERMINED and result.nodes == 0


def test_tiny_budget_is_undetermined_not_cannot() -> None:
    b = board("8/8/3n4/4k3/8/8/8/3NK3 w - - 0 1")
    assert can_checkmate(b, WHITE, node_limit=10) is Verdict.UNDETERMINED


def test_colour_names_accepted_and_bad_colour_rejected() -> None:
    b = board("8/8/8/4k3/8/8/8/4K3 w - - 0 1")
    assert can_checkmate(b, "white", node_limit=0) is Verdict.CANNOT
    with pytest.raises(ValueError):
        can_checkmate(b, "green")


def test_static_proof_follows_the_piece_table_not_piece_names() -> None:
    # A "knight" redefined as a (1,3) leaper never leaves its square colour, so two of
    # them on light squares are as helpless as same-coloured bishops; orthodox knights
    # on the same squares can mate (a helpmate exists), so no proof may be found.
    from reference_impl.rules.loader import derive_ruleset

    camels = derive_ruleset("fide-2023", {"pieces": {"knight": {"leaps": [[1, 3]]}}}, id="camel-knight")
    fen = "8/8/8/4k3/8/8/8/1N1NK3 w - - 0 1"
    assert is_dead_position(Board.from_fen(fen, camels), node_limit=0) is Verdict.CANNOT
    assert can_checkmate(board(fen), WHITE, node_limit=0) is Verdict.UNDETERMINED


def test_stalemate_and_checkmate_roots() -> None:
    # Stalemate: nobody can ever mate (no legal move exists); checkmate: already done.
    stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert is_dead_position(stalemate, LIMIT) is Verdict.CANNOT
    mate = board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    result = analyse(mate, WHITE, LIMIT)
    assert result.verdict is Verdict.CAN and result.line == ()


#: Dead positions (CHA vectors) whose exploration matters: the walk's budget and what it
#: may prune depend on which colours it serves.
ORDER_CASES = [
    "8/6k1/6p1/6P1/6PK/6P1/6PP/8 w - - 0 1",
    "k1q5/1Q6/K1P5/PP6/8/8/8/8 b - - 0 1",  # a shared walk once charged Black 634 moves, alone 631
    "8/8/8/1k3p1p/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1",
]


@pytest.mark.parametrize("fen", ORDER_CASES)
@pytest.mark.parametrize("limit", [20_000, 100_000])
def test_an_answer_does_not_depend_on_what_else_was_asked(fen: str, limit: int) -> None:
    # The same question, asked alone or with the other colour (the dead-position check,
    # either stop rule), gets the same analysis: a run's verdicts must not depend on the
    # order in which parallel workers happened to ask.
    from reference_impl import unwinnability

    alone = {}
    for color in (WHITE, BLACK):
        unwinnability.clear_cache()
        alone[color] = analyse(board(fen), color, limit)
    unwinnability.clear_cache()
    assert analyse_both(board(fen), limit) == alone
    unwinnability.clear_cache()
    both = analyse_both(board(fen), limit, stop_at_can=True)
    assert all(both[c] == alone[c] for c in both if both[c].stage != "stopped")


def test_quick_mate_gate_settles_only_positions_that_are_not_dead() -> None:
    from reference_impl.unwinnability import mate_found_quickly

    assert mate_found_quickly(board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))
    assert not mate_found_quickly(board("8/8/4k3/8/8/3K4/8/8 w - - 0 1"))  # bare kings: dead
    assert not mate_found_quickly(board("8/8/4k3/8/8/3K4/8/8 w - - 0 1"), 0)
    assert not mate_found_quickly(board("8/6k1/6p1/6P1/6PK/6P1/6PP/8 w - - 0 1"))  # dead (CHA)


def test_check_after_every_move_answers_the_same_with_and_without_the_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    # The gate only skips work: over positions of every label (dead ones included), the
    # per-move dead check gives the same answers when the gate never fires.
    from test_unwinnability_labelled import _positions

    from reference_impl import unwinnability
    from reference_impl.adjudication import verdicts

    positions = [board(fen) for _, fen in _positions()]
    positions = positions[::8]
    gated = [verdicts.is_dead_cheap(b, 2_000) for b in positions]
    unwinnability.clear_cache()
    monkeypatch.setattr(unwinnability, "mate_found_quickly", lambda *_args, **_kw: False)
    assert [verdicts.is_dead_cheap(b, 2_000) for b in positions] == gated
    assert any(gated) and not all(gated)


#: Five queens against a rook and a pawn: a second colour's question repeats the first's
#: walk (the walks run for both colours).
REPEATED_WALK = "7k/5Qr1/4QQQ1/4QQ2/8/8/P7/K7 w - - 0 1"


@pytest.mark.parametrize("fen", [REPEATED_WALK, *ORDER_CASES])
def test_a_second_colour_asked_repeats_no_compiled_search_and_answers_as_before(
        fen: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The compiled searches are kept by what they depend on: asking the other colour
    # afterwards (the other flag, the dead-position check) runs no probe or walk of the
    # first question again, and every answer is the one made without them kept.
    from reference_impl import unwinnability
    from reference_impl.unwinnability import native

    searches: list[tuple[object, ...]] = []
    helpmate, explore = native.helpmate, native.explore

    def counted_helpmate(position: Board, color: int, limit: int) -> native.NativeResult:
        searches.append(("helpmate", position.fen(), color, limit))
        return helpmate(position, color, limit)

    def counted_explore(position: Board, colors: set[int], limit: int, proof: object = None) -> native.NativeExploration:
        searches.append(("explore", position.fen(), tuple(sorted(colors)), limit))
        return explore(position, colors, limit, proof)  # type: ignore[arg-type]

    monkeypatch.setattr(native, "helpmate", counted_helpmate)
    monkeypatch.setattr(native, "explore", counted_explore)

    def both_in_turn() -> dict[int, Analysis]:
        unwinnability.clear_cache()
        searches.clear()
        return {color: analyse(board(fen), color, 100_000) for color in (WHITE, BLACK)}

    kept = both_in_turn()
    assert searches and len(searches) == len(set(searches))
    with monkeypatch.context() as unkept:
        for searches_kept in (unwinnability._HELPMATES, unwinnability._WALKS):
            unkept.setattr(searches_kept, "get", lambda key: None)
        assert both_in_turn() == kept
        if fen == REPEATED_WALK:
            assert len(searches) > len(set(searches))
