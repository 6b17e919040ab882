"""The audit's replay shortcuts give what the full readers give.

* ``fastsan.read_code(..., marks=False)`` (the audit reads moves without comparing check
  and mate marks): for every canonical SAN of seeded random python-chess games, written
  with its own mark, no mark, ``+`` and ``#``, the move made is the one the lenient
  reader makes, or the fast path declines. The canonical text always goes fast (but en
  passant).
* The plain-game path of the PGN reader: on plain games and on games with comments,
  variations, NAGs, escapes, bad tags or a wrong result, ``iter_games`` gives the same
  games as the tokenizer alone.
* A record whose marks are all wrong is audited like the same record spelled right.
"""

from __future__ import annotations

import random
from typing import Iterator

import chess
import pytest

from conformance.tools.audit.judge import audit_game
from reference_impl import Board, load_ruleset
from reference_impl.notation import fastsan, pgn
from reference_impl.notation.san import read_san

FIDE = load_ruleset("fide-2023")
C960 = load_ruleset("chess960")


def _positions(seed: int, games: int, chess960: bool) -> Iterator[tuple[chess.Board, Board]]:
    rng = random.Random(seed)
    for _ in range(games):
        pc = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        pc.chess960 = chess960
        rules = C960 if chess960 else FIDE
        while not pc.is_game_over() and pc.ply() < 160:
            yield pc, Board.from_fen(pc.fen(shredder=chess960), rules)
            moves = list(pc.legal_moves)
            captures = [m for m in moves if pc.is_capture(m)]  # reach endings: checks and mates
            pc.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("chess960", [False, True])
def test_a_move_read_without_its_marks_is_the_lenient_readers_move(chess960: bool) -> None:
    positions = marked = 0
    for pc, board in _positions(12 + chess960, 4, chess960):
        positions += 1
        for move in pc.legal_moves:
            san = pc.san(move)
            core = san.rstrip("+#")
            marked += core != san
            for text in dict.fromkeys((san, core, core + "+", core + "#")):
                fast, full = board.copy(), board.copy()
                found = fastsan.read_code(fast, text, True, marks=False)
                if text == san and not pc.is_en_passant(move):
                    assert found is not None, (pc.fen(), text)
                if found is None:
                    assert fast == board and len(fast.move_stack) == 0
                    continue
                parsed = read_san(full, text, lenient=True, push=True)
                assert board.code_of(parsed.move) == found[0], (pc.fen(), text)
                assert fast == full, (pc.fen(), text)
    assert positions > 200 and marked > 20


PLAIN = '[Event "e"]\n[Site "s"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
#: Variations of a plain game; each must read as the tokenizer reads it.
VARIANTS = [
    PLAIN,
    PLAIN.replace("2. Qh5", "2. Qh5 {a comment}"),
    PLAIN.replace("2. Qh5", "2. Qh5 (2. Nf3)"),
    PLAIN.replace("2. Qh5", "2. Qh5 $1"),
    PLAIN.replace("2. Qh5", "2. Qh5!?"),
    PLAIN.replace("2. Qh5", "2.Qh5"),
    PLAIN.replace("2. Qh5", "2. 0000"),
    PLAIN.replace("4. Qxf7# 1-0", "4. Qxf7# 0-1"),
    PLAIN.replace("4. Qxf7# 1-0", "4. Qxf7#"),
    PLAIN.replace("4. Qxf7# 1-0", "4. Qxf7# 1-0 5. Ke2"),
    PLAIN.replace("4. Qxf7# 1-0", "4. Qxf7# 1:0"),
    PLAIN.replace('[Site "s"]', '[Site "s"]\n[Site "t"]'),
    PLAIN.replace('[Site "s"]', '[Site  "s"]'),
    PLAIN.replace('[Site "s"]', '[Site "s\\"q"]'),
    PLAIN.replace('[Site "s"]', '[Termination "bored"]'),
    PLAIN.replace('[Site "s"]', '[SetUp "1"]'),
    PLAIN.replace("\n\n1.", "\n% escape\n1."),
    PLAIN.replace("\n\n1.", "\n\n; line comment\n1."),
    PLAIN.replace("\n\n1.", "\n\n1.\t"),
    PLAIN.replace("\n\n1.", "\n[Round \"1\"]\n\n1."),
    PLAIN.replace("\n\n1.", "\n\n\n1.").replace(" 3.", "\n3."),
    "\n" + PLAIN,
    PLAIN + PLAIN.replace("1-0", "*"),
]


@pytest.mark.parametrize("text", VARIANTS)
def test_the_plain_path_reads_a_game_as_the_tokenizer(text: str) -> None:
    index, tokenized = 1, []
    for first_line, piece in pgn.split_games(text.splitlines(keepends=True)):
        games = pgn._Reader(piece, index, first_line).run()
        plain = pgn._plain_game(piece, index, first_line)
        if plain is not None:
            assert [plain] == games
        tokenized += games
        index += len(games)
    # PgnError compares by identity: the games are compared as they print
    assert repr(list(pgn.iter_games(text.splitlines(keepends=True)))) == repr(tokenized)
    assert pgn._plain_game(PLAIN, 1, 1) is not None  # the plain game does take the path


def test_wrong_marks_do_not_change_the_findings() -> None:
    right = "1. f3 e5 2. g4 Qh4# 3. Kf2 1-0"
    wrong = "1. f3+ e5# 2. g4 Qh4+ 3. Kf2# 1-0"
    audits = [audit_game(next(pgn.read_games(f'[Result "1-0"]\n\n{text}\n')), FIDE) for text in (right, wrong)]
    assert audits[0].findings and audits[0] == audits[1]
