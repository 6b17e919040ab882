"""Table keys that used to be written but never read now change behaviour:
castling rights lost, the board's size, the castling side names, delay kinds, the
carry-over of saved time, and the incorrect claim counted as a draw offer.

Each test changes one key with :func:`derive_ruleset` and checks the answer moves with it.
"""

from __future__ import annotations

import pytest

from reference_impl.adjudication.game import Game
from reference_impl.core import Board
from reference_impl.errors import GameEventError, RulesetError
from reference_impl.core.tables import compile_move_tables
from reference_impl.rules.reader import read_model
from reference_impl.rules import derive_ruleset, load_ruleset

ROOKS = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def _castles(board: Board) -> set[str]:
    return {board.uci(m) for m in board.legal_moves() if board.is_castling(m)}


def _after(rules: object, moves: list[str]) -> Board:
    board = Board.from_fen(ROOKS, load_ruleset(rules))
    for uci in moves:
        board.push(board.parse_uci(uci))
    return board


def test_fide_2023_3_8_2_1_rights_lost_by_each_listed_event() -> None:
    # A rook's round trip, a king's round trip, a rook captured: each loses a right.
    assert _castles(_after("fide-2023", ["h1h2", "a8a7", "h2h1", "a7a8"])) == {"e1c1"}
    assert _castles(_after("fide-2023", ["e1f1", "a8a7", "f1e1", "a7a8"])) == set()
    assert _after("fide-2023", ["a1a8"]).fen().split()[2] == "Kk"


def test_rights_lost_by_is_read_from_the_table() -> None:
    # Without rook_move, a rook that went and came back may castle again; without
    # king_move, nor does a king's round trip cost anything.
    no_rook = derive_ruleset("fide-2023", {"castling": {"rights_lost": {"by": ["king_move", "rook_captured"]}}}, id="rook-free")
    assert _castles(_after(no_rook, ["h1h2", "a8a7", "h2h1", "a7a8"])) == {"e1c1", "e1g1"}
    no_king = derive_ruleset("fide-2023", {"castling": {"rights_lost": {"by": ["rook_move", "rook_captured"]}}}, id="king-free")
    assert _castles(_after(no_king, ["e1f1", "a8a7", "f1e1", "a7a8"])) == {"e1c1", "e1g1"}
    no_capture = derive_ruleset("fide-2023", {"castling": {"rights_lost": {"by": ["king_move", "rook_move"]}}}, id="capture-free")
    with pytest.raises(RulesetError, match="rook_captured must be listed"):
        Board(no_capture)


def test_board_size_other_than_8_by_8_is_refused_with_its_article() -> None:
    # The schema pins 8 x 8; a mapping that bypasses validation is refused by the core.
    with pytest.raises(RulesetError, match="board.files"):
        derive_ruleset("fide-2023", {"board": {"files": 10}}, id="wide")
    wide = {**load_ruleset("fide-2023").data, "board": {"files": 10, "ranks": 8, "cite": "fide-2023:2.1"}}
    with pytest.raises(RulesetError, match=r"board: 10 files x 8 ranks; the reference plays only 8 x 8 \(fide-2023:2.1\)"):
        compile_move_tables(read_model(wide))


def test_castling_side_is_named_by_the_table_not_by_its_files() -> None:
    # King-side castling to the c file (an invented rule): the side key, not a
    # comparison of file letters, says which rook castles.
    odd = derive_ruleset("fide-2023", {"castling": {"sides": {
        "king_side": {"king_to": "c", "rook_to": "d"}, "queen_side": {"king_to": "g", "rook_to": "f"}}}}, id="odd-sides")
    board = Board.from_fen(ROOKS, odd)
    board.push(board.parse_uci("e1h1"))     # the king takes its h-rook: king-side
    assert board.fen().split()[0] == "r3k2r/8/8/8/8/8/8/R1KR4"


def test_fide_2023_6_3_2_delay_kinds_are_read_from_the_table() -> None:
    assert Game("fide-2023", time_control="300d5").clock is not None
    simple_only = derive_ruleset("fide-2023", {"clocks": {"delay": {"kinds": ["simple"]}}}, id="simple-only")
    assert Game(simple_only, time_control="300d5").clock is not None
    with pytest.raises(GameEventError, match=r"bronstein delay is not among this ruleset's delay kinds \(fide-2023:6.3.2\)"):
        Game(simple_only, time_control="300b5")


def test_fide_2023_6_3_2_saved_time_carries_over_unless_the_table_says_not() -> None:
    def after_first_control(rules: object) -> tuple[int, int]:
        game = Game(rules, time_control="1/60:30")
        game.move("e2e4", seconds=20)    # White saves 40 s of the first period
        return game.status().clock_ms or (0, 0)

    assert after_first_control("fide-2023")[0] == 70_000
    reset = derive_ruleset("fide-2023", {"clocks": {"periods": {"carry_over": False}}}, id="no-carry")
    assert after_first_control(reset)[0] == 30_000


def test_fide_2023_9_1_2_3_incorrect_claim_counts_as_offer_from_either_table() -> None:
    base = {"repetition": {"claim": {"counts_as_draw_offer": False}}}
    only_move_rule = derive_ruleset("fide-2023", base, id="move-rule-offers")
    game = Game(only_move_rule)
    game.claim_draw("white")
    assert game.status().offer_by == "white"
    neither = derive_ruleset("fide-2023", {**base, "move_rule": {"claim": {"counts_as_draw_offer": False}}}, id="no-offers")
    game = Game(neither)
    game.claim_draw("white")
    assert game.status().offer_by is None


def test_fide_2014_5_2_c_agreement_needs_no_move_but_2018_5_2_3_does() -> None:
    # 5.2 c (2014) has no minimum; the 2017 amendments added "both players have moved".
    game = Game("fide-2014")
    game.offer_draw("white")
    status = game.accept_draw("black")
    assert (status.result, status.reason, status.cite) == ("1/2-1/2", "agreement", "fide-2014:5.2.c")
    game = Game("fide-2018")
    game.offer_draw("white")
    with pytest.raises(GameEventError, match=r"both players must have made 1 move\(s\) first \(fide-2018:5.2.3\)"):
        game.accept_draw("black")


def test_node_limits_come_from_the_limits_table() -> None:
    import yaml

    from reference_impl.adjudication import verdicts
    from reference_impl.rules import spec_dir

    table = yaml.safe_load((spec_dir() / "limits.yaml").read_text(encoding="utf-8"))
    for rules in (load_ruleset("fide-2023"), load_ruleset("uscf-7")):
        assert verdicts.dead_position_node_limit(rules) == table["dead_position"]["node_limit"]
        assert verdicts.flag_fall_node_limit(rules) == table["flag_fall"]["node_limit"]
        assert verdicts.forced_win_node_limit(rules) == table["forced_win"]["node_limit"]
    # a ruleset's own limits: section overrides single entries, the others stay the table's
    smaller = derive_ruleset("fide-2023", {"limits": {"flag_fall": {"node_limit": 1234},
                                                      "dead_position": {"node_limit": 567}}}, id="small-budgets")
    assert (verdicts.flag_fall_node_limit(smaller), verdicts.dead_position_node_limit(smaller)) == (1234, 567)
    assert verdicts.forced_win_node_limit(smaller) == table["forced_win"]["node_limit"]
    # budgets are not Laws: the rule tables no longer accept them
    with pytest.raises(RulesetError, match="unknown key 'node_limit'"):
        derive_ruleset("fide-2023", {"flag_fall": {"node_limit": 1234}}, id="budget-in-the-laws")
    with pytest.raises(RulesetError, match="minimum"):
        derive_ruleset("fide-2023", {"limits": {"forced_win": {"node_limit": 0}}}, id="no-budget")


def test_uci_chess960_flag_follows_each_rulesets_castling_table() -> None:
    from conformance.harness.transports.uci import ruleset_flags
    from reference_impl.rules import list_rulesets

    flags = ruleset_flags()
    for ruleset in list_rulesets():
        # Independent of castling.uci: the Chess960 rulesets are those of that variant.
        expected = ruleset.model.scope.variant == "chess960"
        assert all(flags[name] is expected for name in (ruleset.id, *ruleset.aliases)), ruleset.id
    assert flags["chess960"] is True and flags["fide"] is False
