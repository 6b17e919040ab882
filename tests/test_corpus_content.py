"""Spot checks of the corpus's expectations against independent sources.

Each check re-derives an expectation without the generators: from the published
files kept in ``conformance/tools/generate/data``, from python-chess, from the labelled
unwinnability data, or from the Laws' text (article in the test name).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any

import chess
import pytest

from conformance.implementations.python_chess import oracle_perft

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "conformance" / "fixtures"
DATA = ROOT / "conformance" / "tools" / "generate" / "data"
FEN_REASONS = {"fen-field-count", "fen-piece-letter", "fen-rank-length", "fen-side",
               "fen-king-count", "fen-pawn-back-rank", "fen-opposite-check",
               "fen-castling-rights", "fen-en-passant", "fen-clock"}


@lru_cache(maxsize=None)
def load(name: str) -> dict[str, dict[str, Any]]:
    """Fixtures of one corpus file by id."""
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    return {f["id"]: f for f in map(json.loads, lines)}


def expect(fixture: dict[str, Any], ruleset: str) -> dict[str, Any]:
    assert ruleset in fixture["rulesets"] or "*" in fixture["rulesets"]
    return fixture.get("expect_by_ruleset", {}).get(ruleset) or fixture["expect"]


def sample(name: str, count: int, seed: int = 1) -> list[dict[str, Any]]:
    fixtures = sorted(load(name).values(), key=lambda f: f["id"])
    return random.Random(seed).sample(fixtures, min(count, len(fixtures)))


# --- perft: the published counts -------------------------------------------------------

def published_tricky() -> dict[tuple[str, int], int]:
    counts, name = {}, ""
    for line in (DATA / "tricky.perft").read_text(encoding="utf-8").splitlines():
        if line.startswith("id "):
            name = line[3:].strip()
        elif line.startswith("perft "):
            _, depth, nodes = line.split()
            counts[(name, int(depth))] = int(nodes)
    return counts


def test_cpw_position_3_depth_4_is_43238() -> None:
    fixture = load("perft-tricky.jsonl")["perft.tricky.pos-3.d4"]
    assert fixture["expect"] == {"nodes": 43238}
    assert fixture["input"]["fen"].startswith("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -")


def test_every_tricky_fixture_equals_the_published_oracle_perft() -> None:
    published = published_tricky()
    fixtures = load("perft-tricky.jsonl").values()
    assert len(fixtures) >= 40  # 18 retired: positions with an impossible check
    for fixture in fixtures:
        _, _, name, depth = fixture["id"].split(".", 3)
        assert fixture["expect"]["nodes"] == published[(name, int(depth[1:]))]


def test_perft_start_position_from_suite() -> None:
    suite = load("perft-suite.jsonl")
    assert suite["perft.suite.l001.d3"]["expect"] == {"nodes": 8902}


@pytest.mark.parametrize("name", ["perft-random.jsonl", "perft-suite.jsonl",
                                  "perft-chess960.jsonl", "perft-special.jsonl"])
def test_shallow_perft_recomputed_with_python_chess(name: str) -> None:
    shallow = [f for f in load(name).values() if f["input"]["depth"] <= 2]
    for fixture in random.Random(3).sample(shallow, min(40, len(shallow))):
        board = chess.Board(fixture["input"]["fen"], chess960="*" not in fixture["rulesets"])
        assert oracle_perft(board, fixture["input"]["depth"]) == fixture["expect"]["nodes"]


def _stockfish() -> str | None:
    """Stockfish on PATH, or where Debian's package puts it."""
    return shutil.which("stockfish", path=os.pathsep.join([os.environ.get("PATH", ""),
                                                           "/usr/games"]))


@pytest.mark.stockfish
@pytest.mark.skipif(_stockfish() is None, reason="stockfish binary not found")
def test_sampled_perft_agrees_with_stockfish_go_perft() -> None:
    fixtures = [f for n in ("perft-tricky.jsonl", "perft-random.jsonl", "perft-chess960.jsonl")
                for f in load(n).values() if f["expect"]["nodes"] <= 50_000]
    chosen = random.Random(5).sample(fixtures, 24)
    script = []
    for fixture in chosen:
        c960 = "true" if "*" not in fixture["rulesets"] else "false"
        script += [f"setoption name UCI_Chess960 value {c960}",
                   f"position fen {fixture['input']['fen']}",
                   f"go perft {fixture['input']['depth']}"]
    run = subprocess.run([str(_stockfish())], input="\n".join(script + ["quit"]) + "\n",
                         capture_output=True, text=True, timeout=120)
    counts = [int(line.split(":")[1]) for line in run.stdout.splitlines()
              if line.startswith("Nodes searched")]
    assert counts == [f["expect"]["nodes"] for f in chosen]


def test_perft_budget_fits_a_pure_python_minute() -> None:
    files = ("perft-tricky.jsonl", "perft-special.jsonl", "perft-suite.jsonl",
             "perft-random.jsonl", "perft-chess960.jsonl")
    nodes = [f["expect"]["nodes"] for n in files for f in load(n).values()]
    assert max(nodes) <= 500_000
    assert sum(nodes) <= 10_000_000
    assert sum(1 for n in nodes if n > 50_000) <= 300


def test_special_rule_positions_each_have_fixtures() -> None:
    names = [line[3:].strip() for line in
             (DATA / "special.perft").read_text(encoding="utf-8").splitlines()
             if line.startswith("id ")]
    ids = load("perft-special.jsonl")
    assert len(names) == 14
    for name in names:
        assert f"perft.special.{name}.d1" in ids


def test_corner_king_with_castling_rights_is_not_a_perft_fixture() -> None:
    # The king never stood between its rooks (Guidelines II.2.1): no legal game reaches it.
    assert not [i for i in load("perft-tricky.jsonl") if "asymmetrical" in i]


# --- legal_moves, status, san: python-chess ---------------------------------------------

def test_sampled_legal_moves_equal_python_chess() -> None:
    for fixture in sample("legal_moves.jsonl", 60):
        c960 = fixture["rulesets"] == ["fide-2023-chess960"]
        board = chess.Board(fixture["input"]["fen"], chess960=c960)
        assert sorted(board.uci(m) for m in board.legal_moves) == fixture["expect"]["moves"]


def test_fide_2023_3_7_3_1_en_passant_exposing_the_king_is_not_listed() -> None:
    moves = load("legal_moves.jsonl")["legal.special.ep-rank-pin"]["expect"]["moves"]
    assert "d5e6" not in moves and "d5d6" in moves


def test_fide_2023_3_8_2_2_1_castling_rook_may_be_attacked() -> None:
    moves = load("legal_moves.jsonl")["legal.special.castle-rook-attacked"]["expect"]["moves"]
    assert {"e1g1", "e1c1"} <= set(moves)


def test_fide_2023_ii_castling_is_king_takes_rook_under_chess960() -> None:
    fixtures = load("legal_moves.jsonl")
    assert "e1g1" in fixtures["legal.special.kiwipete"]["expect"]["moves"]
    assert "e1h1" in fixtures["legal.special.kiwipete.960"]["expect"]["moves"]
    assert fixtures["legal.special.kiwipete.960"]["rulesets"] == ["fide-2023-chess960"]
    assert fixtures["legal.special.kiwipete"]["rulesets"] == ["*"]


def test_fide_2023_ii_hidden_checker_behind_the_castling_rook() -> None:
    moves = load("legal_moves.jsonl")["legal.special960.hidden-checker"]["expect"]["moves"]
    assert "c1b1" not in moves


def test_sampled_status_equals_python_chess() -> None:
    for fixture in sample("status.jsonl", 80):
        board = chess.Board(fixture["input"]["fen"], chess960="*" not in fixture["rulesets"])
        assert fixture["expect"] == {"check": board.is_check(), "checkmate": board.is_checkmate(),
                                     "stalemate": board.is_stalemate()}


def test_pgn_8_2_3_4_pinned_piece_needs_no_disambiguation() -> None:
    assert load("san.jsonl")["san.special.pinned-knight"]["expect"] == {"san": "Ne2"}


def test_pgn_8_2_3_4_three_queens_need_the_full_square() -> None:
    assert load("san.jsonl")["san.special.three-queens-square"]["expect"] == {"san": "Qa4b3"}


def test_sampled_san_equals_python_chess() -> None:
    for fixture in sample("san.jsonl", 80):
        c960 = fixture["rulesets"] == ["fide-2023-chess960"]
        board = chess.Board(fixture["input"]["fen"], chess960=c960)
        move = board.parse_uci(fixture["input"]["move"])
        assert board.san(move) == fixture["expect"]["san"]


def test_parse_san_has_each_error_category() -> None:
    errors = {f["expect"].get("error") for f in load("parse_san.jsonl").values()}
    assert {"illegal", "ambiguous", "invalid"} <= errors


# --- validate_fen ---------------------------------------------------------------------

def test_one_invalid_fen_per_rejection_reason_at_least() -> None:
    reasons = {t for f in load("validate_fen.jsonl").values() if not f["expect"]["valid"]
               for t in f["tags"]}
    assert FEN_REASONS <= reasons


def test_pgn_16_1_3_4_ep_square_without_capturer_is_valid() -> None:
    fixture = load("validate_fen.jsonl")["fen.valid.ep-without-capturer"]
    assert fixture["expect"] == {"valid": True}


def test_sampled_invalid_fens_rejected_by_python_chess_unless_marked() -> None:
    for fixture in load("validate_fen.jsonl").values():
        if fixture["expect"]["valid"] or "python-chess-differs" in fixture["tags"]:
            continue
        c960 = fixture["rulesets"] == ["fide-2023-chess960"]
        try:
            board = chess.Board(fixture["input"]["fen"], chess960=c960)
        except ValueError:
            continue
        assert board.status() != chess.STATUS_VALID, fixture["id"]


# --- start_position: the numbering scheme ----------------------------------------------

@pytest.mark.parametrize("number,rank", [(518, "RNBQKBNR"), (0, "BBQNNRKR"), (1, "BQNBNRKR"),
                                         (2, "BQNNRBKR"), (959, "RKRNNQBB")])
def test_scharnagl_numbers(number: int, rank: str) -> None:
    fen = load("start_position.jsonl")[f"start.n{number:03d}"]["expect"]["fen"]
    assert fen.split()[0].split("/")[-1] == rank


def test_all_960_start_positions_distinct() -> None:
    fens = {f["expect"]["fen"] for f in load("start_position.jsonl").values()}
    assert len(fens) == 960


# --- dead_position and timeout: the labels and FIDE 6.9 ---------------------------------

def labels() -> dict[int, tuple[str, str]]:
    out = {}
    text = (DATA / "labelled.txt").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(text, 1):
        if line and not line.startswith("#"):
            label, fen = line.split(" ", 1)
            out[number] = (label, fen)
    return out


def test_fide_2023_5_2_2_dead_exactly_when_labelled_neither() -> None:
    table = labels()
    fixtures = [f for f in load("dead_position.jsonl").values() if ".labelled." in f["id"]]
    retired = (FIXTURES / "retired.txt").read_text(encoding="utf-8")
    kept = [n for n in table if f"dead.labelled.l{n:04d}\n" not in retired]
    assert len(fixtures) == len(kept) == len(table) - 23  # 23 unreachable positions retired
    for fixture in fixtures:
        label, _ = table[int(fixture["id"].rsplit(".l", 1)[1])]
        assert fixture["expect"]["dead"] == (label == "--")


def test_fide_2023_5_2_2_classic_material() -> None:
    fixtures = load("dead_position.jsonl")
    assert fixtures["dead.classic.kb-v-kb-same-colour"]["expect"]["dead"] is True
    assert fixtures["dead.classic.kb-v-kb-opposite-colour"]["expect"]["dead"] is False
    assert fixtures["dead.classic.knn-v-k"]["expect"]["dead"] is False


def test_fide_2023_6_9_flagger_loses_only_if_opponent_can_mate() -> None:
    table = labels()
    for fixture in load("timeout.jsonl").values():
        if ".labelled." not in fixture["id"]:
            continue
        label, fen = table[int(fixture["id"].split(".")[2][1:])]
        board = chess.Board(fen)
        if board.is_checkmate() or board.is_stalemate():
            continue
        white = fixture["input"]["flagged"] == "white"
        opponent_can_mate = label[1] == "B" if white else label[0] == "W"
        want = ("0-1" if white else "1-0") if opponent_can_mate else "1/2-1/2"
        assert expect(fixture, "fide-2023")["result"] == want, fixture["id"]


def test_uscf_7_14e1_lone_king_draws_and_only_decided_cases_list_uscf() -> None:
    for fixture in load("timeout.jsonl").values():
        if "uscf-7" not in fixture["rulesets"]:
            continue
        board = chess.Board(fixture["input"]["fen"])
        opponent = chess.BLACK if fixture["input"]["flagged"] == "white" else chess.WHITE
        if board.occupied_co[opponent] == board.kings & board.occupied_co[opponent]:
            assert expect(fixture, "uscf-7")["result"] == "1/2-1/2"


# --- game_end: the Laws per ruleset ----------------------------------------------------

def test_fide_2023_9_6_2_mate_beats_75_moves() -> None:
    fixture = load("game_end.jsonl")["game.mate-on-75th"]
    assert fixture["expect"] == {"result": "1-0", "reason": "checkmate", "claimable": []}


def test_fide_2023_9_6_2_seventy_five_automatic_but_uscf_14k_discretionary() -> None:
    fixture = load("game_end.jsonl")["game.seventy-five"]
    assert expect(fixture, "fide-2023")["reason"] == "seventy_five_moves"
    assert expect(fixture, "fide-2014")["reason"] == "seventy_five_moves"
    assert expect(fixture, "uscf-7") == {"result": "*", "reason": None,
                                         "claimable": ["fifty_moves"]}


def test_fide_2014_9_6_a_fivefold_needs_consecutive_alternate_moves() -> None:
    fixture = load("game_end.jsonl")["game.fivefold-not-consecutive"]
    assert expect(fixture, "fide-2018")["reason"] == "fivefold_repetition"
    assert expect(fixture, "fide-2014")["reason"] is None


def test_fide_2023_9_2_3_1_first_position_with_en_passant_differs() -> None:
    fixtures = load("game_end.jsonl")
    assert expect(fixtures["game.ep-first-position-differs"], "fide-2023")["claimable"] == []
    third = fixtures["game.ep-first-position-then-third"]
    assert expect(third, "fide-2023")["claimable"] == ["threefold_repetition"]


def test_fide_2023_9_2_3_2_castling_rights_lost_make_positions_differ() -> None:
    fixture = load("game_end.jsonl")["game.castling-rights-differ"]
    assert expect(fixture, "fide-2023")["claimable"] == []


def test_game_end_random_games_replay_legally() -> None:
    for fixture in [f for f in load("game_end.jsonl").values() if ".random." in f["id"]][:30]:
        board = chess.Board(fixture["input"]["fen"])
        for text in fixture["input"]["moves"]:
            board.push_uci(text)
        outcome = board.outcome()
        assert outcome is not None
        assert expect(fixture, "fide-2023")["result"] == outcome.result()


# --- the python-chess-differs tag is honest ----------------------------------------------

def test_timeout_tag_marks_exactly_where_python_chess_material_rule_differs() -> None:
    for fixture in load("timeout.jsonl").values():
        board = chess.Board(fixture["input"]["fen"])
        flagged = chess.WHITE if fixture["input"]["flagged"] == "white" else chess.BLACK
        loss = "0-1" if flagged == chess.WHITE else "1-0"
        nearest = "1/2-1/2" if board.has_insufficient_material(not flagged) else loss
        differs = expect(fixture, "fide-2023")["result"] != nearest
        assert ("python-chess-differs" in fixture["tags"]) == differs, fixture["id"]


def test_dead_position_tag_marks_exactly_where_python_chess_differs() -> None:
    for fixture in load("dead_position.jsonl").values():
        board = chess.Board(fixture["input"]["fen"])
        differs = board.is_insufficient_material() != fixture["expect"]["dead"]
        assert ("python-chess-differs" in fixture["tags"]) == differs, fixture["id"]
