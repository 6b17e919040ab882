"""The corpus guards each rule with several independent fixtures, and they test what they cite.

A rule guarded by one fixture is one unlucky position away from passing a broken
implementation. Every rule below must have at least three fixtures with different
inputs; every article a kind cites must be cited by three of its fixtures. The
e.p.-repetition fixtures must fail an implementation that counts an e.p. right no legal
move can use (FIDE 9.2.3.1), and the illegal ``apply_moves`` sequences must each break
the rule they name, both checked here with python-chess, independently of the generators.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import chess
import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"
Fixture = dict[str, Any]
MIN_FIXTURES = 3
#: Illegal apply_moves categories beyond "king left in check" (tags of tags.txt).
ILLEGAL_CATEGORIES = ("illegal-ep-pinned", "illegal-castling-out-of-check",
                      "illegal-castling-through-check", "illegal-castling-into-check",
                      "illegal-double-step", "illegal-promotion-letter",
                      "illegal-missing-promotion")


@lru_cache(maxsize=1)
def corpus() -> tuple[Fixture, ...]:
    """Every fixture the corpus's own generators write (not the notation files)."""
    out: list[Fixture] = []
    for path in sorted(FIXTURES.glob("*.jsonl")):
        if not path.name.startswith("notation-"):
            out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                    if line.strip()]
    return tuple(out)


def fide(fixture: Fixture) -> dict[str, Any]:
    """The expectation under FIDE 2023 (or the only one)."""
    return fixture.get("expect") or fixture["expect_by_ruleset"]["fide-2023"]


def tagged(fixture: Fixture, *tags: str) -> bool:
    return set(tags) <= set(fixture["tags"])


#: Rules the issue found guarded by one or two fixtures: name -> (kind, which fixtures).
GUARDED: dict[str, tuple[str, Callable[[Fixture], bool]]] = {
    "fifty-move claim one ply early": ("game_end", lambda f: tagged(
        f, "fifty-moves", "one-ply-short") and fide(f)["claimable"] == []
        and fide(f)["result"] == "*"),
    "mate on the 150th ply beats the 75-move rule": ("game_end", lambda f: tagged(
        f, "seventy-five-moves", "mate-beats-move-rule") and fide(f)["reason"] == "checkmate"),
    "fivefold repetition ends the game": ("game_end", lambda f: tagged(
        f, "fivefold-repetition") and fide(f)["reason"] == "fivefold_repetition"),
    "four occurrences are only claimable": ("game_end", lambda f: tagged(
        f, "fivefold-repetition") and fide(f)["result"] == "*"
        and "threefold_repetition" in fide(f)["claimable"]),
    "pinned e.p. right does not make positions differ": ("game_end", lambda f: tagged(
        f, "repetition-en-passant", "pin")),
    "opponent in check in the FEN": ("validate_fen", lambda f: tagged(
        f, "fen-opposite-check") and f["expect"] == {"valid": False}),
    "SAN ignores a pinned rival": ("san", lambda f: tagged(f, "pinned-piece")),
    "SAN read back past a pinned rival": ("parse_san", lambda f: tagged(f, "pinned-piece")),
    "perft depth 0 is one leaf": ("perft", lambda f: f["input"]["depth"] == 0),
    **{f"apply_moves {tag}": ("apply_moves", lambda f, tag=tag: tagged(f, tag)
                              and f["expect"] == {"fen": None, "error": "illegal"})
       for tag in ILLEGAL_CATEGORIES},
}


def independent(fixtures: list[Fixture]) -> set[str]:
    """Distinct inputs among fixtures, a Chess960 ``.960`` twin counting with its original."""
    seen: dict[str, str] = {}
    for f in fixtures:
        seen.setdefault(f["id"].removesuffix(".960"), json.dumps(f["input"], sort_keys=True))
    return set(seen.values())


@pytest.mark.parametrize("rule", list(GUARDED))
def test_every_guarded_rule_has_three_independent_fixtures(rule: str) -> None:
    kind, wanted = GUARDED[rule]
    found = [f for f in corpus() if f["kind"] == kind and wanted(f)]
    assert len(independent(found)) >= MIN_FIXTURES, (rule, [f["id"] for f in found])


def test_every_cited_article_has_three_independent_fixtures_per_kind() -> None:
    by_article: dict[tuple[str, str], list[Fixture]] = defaultdict(list)
    for f in corpus():
        for cite in f["cites"]:
            by_article[(f["kind"], cite)].append(f)
    thin = sorted(key for key, found in by_article.items()
                  if len(independent(found)) < MIN_FIXTURES)
    assert not thin, f"(kind, article) cited by fewer than {MIN_FIXTURES} fixtures: {thin}"


# --- FIDE 9.2.3.1: a judge that gets e.p. identity wrong must fail ---------------------

#: How a repetition judge may read the e.p. right of a position: by the Laws (a legal
#: capture exists), by pseudo-legal capture (pins ignored), by the FEN field after every
#: double step, or not at all.
EP_MODES: dict[str, Callable[[chess.Board], chess.Square | None]] = {
    "laws": lambda b: b.ep_square if b.has_legal_en_passant() else None,
    "pseudo-legal": lambda b: b.ep_square if b.has_pseudo_legal_en_passant() else None,
    "fen-field": lambda b: b.ep_square,
    "ignored": lambda b: None,
}


def repetition_verdict(fen: str, moves: list[str], mode: str) -> dict[str, Any]:
    """Threefold (also by an intended move) and fivefold, with positions told apart as
    ``mode`` says; the game_end answer for sequences that end by no other rule."""
    ep = EP_MODES[mode]
    board = chess.Board(fen)

    def key() -> tuple[str, bool, int, chess.Square | None]:
        return board.board_fen(), board.turn, board.clean_castling_rights(), ep(board)

    seen = [key()]
    for text in moves:
        board.push_uci(text)
        seen.append(key())
    if seen.count(seen[-1]) >= 5:
        return {"result": "1/2-1/2", "reason": "fivefold_repetition", "claimable": []}
    claim = seen.count(seen[-1]) >= 3
    for move in board.legal_moves:
        board.push(move)
        claim = claim or seen.count(key()) >= 2
        board.pop()
    return {"result": "*", "reason": None,
            "claimable": ["threefold_repetition"] if claim else []}


def ep_repetition_fixtures() -> list[Fixture]:
    found = [f for f in corpus() if f["kind"] == "game_end"
             and "fide-2023:9.2.3.1" in f["cites"]]
    assert len(found) >= MIN_FIXTURES
    return found


def test_the_laws_judge_agrees_with_every_ep_repetition_fixture() -> None:
    for f in ep_repetition_fixtures():
        got = repetition_verdict(f["input"]["fen"], f["input"]["moves"], "laws")
        assert got == fide(f), f["id"]


@pytest.mark.parametrize("mode", ["pseudo-legal", "fen-field", "ignored"])
def test_each_wrong_ep_identity_fails_some_fixture(mode: str) -> None:
    failing = [f["id"] for f in ep_repetition_fixtures()
               if repetition_verdict(f["input"]["fen"], f["input"]["moves"], mode) != fide(f)]
    assert failing, f"no 9.2.3.1 fixture catches a judge reading e.p. by {mode}"


@pytest.mark.parametrize("mode", ["pseudo-legal", "fen-field"])
def test_pinned_ep_repetitions_fail_a_judge_counting_the_illegal_capture(mode: str) -> None:
    pinned = [f for f in corpus() if f["kind"] == "game_end"
              and tagged(f, "repetition-en-passant", "pin")]
    assert pinned
    for f in pinned:
        got = repetition_verdict(f["input"]["fen"], f["input"]["moves"], mode)
        assert got != fide(f), f"{f['id']} passes a judge reading e.p. by {mode}"


# --- apply_moves: each illegal sequence breaks the rule it names ------------------------

def test_illegal_sequences_are_legal_up_to_their_last_move() -> None:
    cases = [f for f in corpus() if f["kind"] == "apply_moves"
             and set(ILLEGAL_CATEGORIES) & set(f["tags"])]
    assert len(cases) >= MIN_FIXTURES * len(ILLEGAL_CATEGORIES)
    for f in cases:
        board = chess.Board(f["input"]["fen"], chess960="*" not in f["rulesets"])
        *played, last = f["input"]["moves"]
        for text in played:
            board.push_uci(text)
        assert not board.is_legal(chess.Move.from_uci(last)), f["id"]


def test_illegal_categories_name_their_reason() -> None:
    """Spot checks per category on the standard-notation fixtures, with python-chess."""
    for f in corpus():
        tags = set(ILLEGAL_CATEGORIES) & set(f["tags"])
        if f["kind"] != "apply_moves" or not tags or "*" not in f["rulesets"]:
            continue
        board = chess.Board(f["input"]["fen"])
        for text in f["input"]["moves"][:-1]:
            board.push_uci(text)
        move = chess.Move.from_uci(f["input"]["moves"][-1])
        (tag,) = tags
        if tag == "illegal-ep-pinned":
            assert board.is_en_passant(move) and board.is_pseudo_legal(move), f["id"]
        elif tag == "illegal-castling-out-of-check":
            assert board.is_check() and board.piece_type_at(move.from_square) == chess.KING
        elif tag in ("illegal-castling-through-check", "illegal-castling-into-check"):
            step = 1 if move.to_square > move.from_square else -1
            crossed, landing = move.from_square + step, move.to_square
            attacked = board.is_attacked_by(not board.turn, crossed if "through" in tag
                                            else landing)
            assert not board.is_check() and attacked, f["id"]
        elif tag == "illegal-double-step":
            assert board.piece_type_at(move.from_square) == chess.PAWN, f["id"]
            assert abs(move.to_square - move.from_square) == 16, f["id"]
        elif tag == "illegal-promotion-letter":
            assert move.promotion and board.is_legal(chess.Move(move.from_square,
                                                                move.to_square)), f["id"]
        else:
            assert not move.promotion and board.is_legal(
                chess.Move(move.from_square, move.to_square, chess.QUEEN)), f["id"]


# --- SAN: the pinned rival really is a rival ---------------------------------------------

def test_pinned_rival_fixtures_have_a_pinned_rival_and_no_disambiguation() -> None:
    for f in corpus():
        if f["kind"] != "san" or not tagged(f, "pinned-piece"):
            continue
        board = chess.Board(f["input"]["fen"])
        move = chess.Move.from_uci(f["input"]["move"])
        piece = board.piece_type_at(move.from_square)
        rivals = [m for m in board.pseudo_legal_moves if m.to_square == move.to_square
                  and m.from_square != move.from_square
                  and board.piece_type_at(m.from_square) == piece]
        assert rivals and not any(board.is_legal(m) for m in rivals), f["id"]
        assert re.fullmatch(r"[NBRQK]x?[a-h][1-8][+#]?", f["expect"]["san"]), f["id"]
