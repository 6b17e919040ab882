"""The batch interface (``arbiter unwinnable --batch``, reference_impl.unwinnability.batch).

Expectations come from elsewhere: the answers must be :func:`analyse`'s on the shipped
Lichess sample (real flag falls, with CHA 2.6.1's verdicts as labels), every mating line
must replay in python-chess, a FEN the compiled reader accepts must be one the
interpreter's validator accepts (fuzzed FENs), and the reader must place the same
position (the compiled probe from the FEN text and from the interpreter's board agree
move for move).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from conformance.cli import main as cli
from conformance.tools.generate.lichess_sample import parse
from reference_impl import Board, load_ruleset
from reference_impl.adjudication.verdicts import flag_fall_node_limit
from reference_impl.errors import FenError
from reference_impl import unwinnability
from reference_impl.unwinnability import Verdict, analyse, batch, native

from helpmate_oracle import mates

SAMPLE = Path(__file__).parent / "data" / "unwinnability" / "lichess-sample.txt"
ROWS = parse(SAMPLE.read_text(encoding="utf-8"), SAMPLE.name)
#: Fuzzed FENs per ruleset: enough to reach every branch of the compiled reader.
FUZZ_CASES = 4000
#: Nodes of the probe that compares the reader's position with the interpreter's.
COMPARE_PROBE = 300


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("fide-2023")


@pytest.fixture(scope="module")
def flag_limit(rules) -> int:
    return flag_fall_node_limit(rules)


@pytest.fixture(scope="module")
def full_answers(rules, flag_limit):
    template = Board(rules)
    lines = [(n, row.fen) for n, row in enumerate(ROWS, 1)]
    return list(batch.run_lines(template, lines, None, quick=False, node_limit=flag_limit))


def test_full_mode_equals_analyse_on_the_lichess_sample(rules, flag_limit, full_answers):
    """FIDE 6.9 on real flag falls: the batch gives analyse()'s verdict, line and node
    count for every row (the side asked is the one not to move, as in the file)."""
    assert len(full_answers) == len(ROWS)
    for row, answer in zip(ROWS, full_answers):
        assert isinstance(answer, batch.LineAnswer)
        board = Board.from_fen(row.fen, rules)
        assert answer.color == board.turn ^ 1 and ("white", "black")[answer.color] == row.side
        expected = analyse(board, answer.color, flag_limit)
        assert (answer.analysis.verdict, answer.analysis.line, answer.analysis.nodes) == \
            (expected.verdict, expected.line, expected.nodes), row.fen


def test_full_mode_decides_every_sample_row_as_cha_and_its_lines_replay(full_answers):
    """CHA's column labels each row; every ``can`` line must be a checkmate in python-chess."""
    for row, answer in zip(ROWS, full_answers):
        verdict = answer.analysis.verdict
        assert verdict is (Verdict.CAN if row.verdict == "winnable" else Verdict.CANNOT), row.fen
        if verdict is Verdict.CAN:
            assert mates(row.fen, answer.analysis.line, row.side), row.fen
        else:
            assert answer.analysis.proof


def test_quick_mode_finds_what_full_mode_proves_and_never_contradicts_it(rules, flag_limit, full_answers):
    template = Board(rules)
    lines = [(n, row.fen) for n, row in enumerate(ROWS, 1)]
    quick = list(batch.run_lines(template, lines, None, quick=True, node_limit=flag_limit))
    assert [a.number for a in quick] == [a.number for a in full_answers]
    unwinnable = 0
    for q, f in zip(quick, full_answers):
        if f.analysis.verdict is Verdict.CANNOT:
            unwinnable += 1
            assert q.analysis.verdict is Verdict.CANNOT and q.analysis.proof, q.fen
        assert q.analysis.verdict in (f.analysis.verdict, Verdict.UNDETERMINED), q.fen
    assert unwinnable >= 1  # the sample holds every unwinnable row of the source


def test_screen_and_analyse_many_answer_boards_with_either_colour(rules, flag_limit):
    """The API for callers holding boards: both colours asked, mixed in one list."""
    rows = ROWS[::10]
    items = [(Board.from_fen(row.fen, rules), color) for row in rows for color in (0, 1)]
    screened = batch.screen(items)
    full = batch.analyse_many(items, flag_limit, verify=True)
    for (board, color), s, f in zip(items, screened, full):
        expected = analyse(board, color, flag_limit)
        assert f.verdict is expected.verdict and f.line == expected.line, board.fen()
        assert s.verdict in (expected.verdict, Verdict.UNDETERMINED)


def test_analysis_after_the_batch_probe_is_analyse(rules, flag_limit):
    """Where the compiled probe finds no mate, analyse()'s answer without making that
    probe again: the same verdict, line, node count, stage and proof (every sample row
    the probe leaves open, and a flag fall of a real game, K+B against K+P, that takes
    the full schedule)."""
    fens = [row.fen for row in ROWS] + ["8/8/8/8/5K2/8/4Bpk1/8 b - - 3 64"]
    compared = 0
    for fen in fens:
        board = Board.from_fen(fen, rules)
        color = board.turn ^ 1
        (answer,), _, _ = batch._compiled(board, [board], color, False, flag_limit)
        if answer.verdict != batch._OPEN:
            continue
        unwinnability.clear_cache()
        expected = analyse(board, color, flag_limit)
        unwinnability.clear_cache()
        assert unwinnability.analyse_after_probe(board, color, flag_limit, answer.nodes) == expected, fen
        compared += 1
    assert compared >= 3


def test_mates_found_quickly_finds_what_the_short_search_finds_alone(rules):
    """The dead-position check's short helpmate search, many positions at once: the same
    search, so the same mates found as mate_found_quickly asked position by position,
    both colours, at its own budget and at one too small for most mates."""
    boards = [Board.from_fen(row.fen, rules) for row in ROWS]
    items = [(board, color) for board in boards if board.has_legal_move() for color in (0, 1)]
    for limit in (unwinnability.QUICK_PROBE_NODES, 60):
        together = batch.mates_found_quickly(items, limit)
        alone = [unwinnability.mate_found_quickly(board, limit, colors=(color,)) for board, color in items]
        assert together == alone
        assert 0 < sum(together) < len(items)  # mates found and not found were both compared


# --- the compiled FEN reader against the interpreter's validator ---------------------


def _mutations(rng: random.Random, fen: str) -> str:
    """A FEN changed the ways real input goes wrong: a character replaced, inserted or
    removed, a field swapped for another value, castling, en passant and clocks varied."""
    fields = fen.split()
    kind = rng.randrange(8) if len(fields) >= 6 else rng.randrange(3)
    if kind == 0:
        i = rng.randrange(len(fen))
        return fen[:i] + rng.choice("pnbrqkPNBRQK12345678/ -wKQkqa0x9\"\\é") + fen[i + 1:]
    if kind == 1:
        i = rng.randrange(len(fen))
        return fen[:i] + rng.choice("pnbrqkPNBRQK18/ ") + fen[i:]
    if kind == 2:
        i = rng.randrange(len(fen))
        return fen[:i] + fen[i + 1:] or fen
    if kind == 3:
        fields[2] = rng.choice(["-", "K", "Q", "k", "q", "KQ", "kq", "KQkq", "Kk", "QK", "kK", "KK", "A", "Hh",
                                "KQkqK", "Qq", ""])
    elif kind == 4:
        fields[3] = rng.choice(["-", "e3", "e6", "d6", "a3", "h6", "e4", "z9", "--"])
    elif kind == 5:
        fields[4] = rng.choice(["0", "00", "01", "5", "99", "150", "-1", "1a", "1234567890"])
        fields[5] = rng.choice(["1", "0", "01", "40", "9999999999", "x"])
    elif kind == 6:
        fields[1] = rng.choice(["w", "b", "W", "B", "-"])
    else:
        placement = list(fields[0])
        squares = [i for i, c in enumerate(placement) if c.isalpha()]
        if squares:
            placement[rng.choice(squares)] = rng.choice("KkQqRrBbNnPp")
        fields[0] = "".join(placement)
    extra = rng.choice(["", "", " trailing words", "\tgame7\twhite"])
    return " ".join(fields) + extra


def _fuzzed(seed: int, bases: list[str]) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(FUZZ_CASES):
        fen = rng.choice(bases)
        for _ in range(rng.choice((1, 1, 2, 3))):
            fen = _mutations(rng, fen) or fen
        out.append(fen)
    return out


CASTLING_BASES = [
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 20",
    "4k2r/8/8/8/4Q3/8/8/R3K3 b Qk - 3 30",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
    "8/8/8/3k4/8/8/2K5/1n6 w - - 0 50",  # White in check by a knight
    "8/8/8/8/3k4/4P3/8/4K3 b - - 0 50",  # Black in check by a pawn
]


@pytest.mark.parametrize("ruleset", ["fide-2023", "fide-2023-chess960"])
def test_fuzzed_fens_the_reader_accepts_the_interpreter_accepts_as_the_same_position(ruleset):
    """Whatever the compiled reader takes as plain (an answer, not None) the interpreter's
    validator accepts, and it is the same position: the same placement, side to move,
    castling rights and en passant square as the interpreter's board, and the compiled
    probe from the text and from that board make the same moves."""
    rules = load_ruleset(ruleset)
    template = Board(rules)
    fuzzed = _fuzzed(26, [row.fen for row in ROWS] + CASTLING_BASES)
    answers, stopped, _ = native.batch(template, fuzzed, None, probe=COMPARE_PROBE, full=True)
    assert stopped is None and len(answers) == len(fuzzed)
    accepted = plain = 0
    for text, answer in zip(fuzzed, answers):
        fen = " ".join(text.split()[:6])
        try:
            board = Board.from_fen(fen, rules)
        except FenError:
            assert answer is None, f"the compiled reader accepted {text!r}, which the interpreter rejects"
            continue
        accepted += 1
        if answer is None:
            continue
        plain += 1
        assert native.read_fen(template, text) == native._position(board), text
        (again,), _, _ = native.batch(template, [board], None, probe=COMPARE_PROBE, full=True)
        assert answer == again, text
    assert plain > accepted // 2  # the reader is not merely refusing everything


def test_the_reader_takes_the_common_fens_itself(rules):
    """Castling rights and a single check (a piece's or a pawn's) are read in C; an en
    passant square and a double check are left to the interpreter."""
    template = Board(rules)
    fens = CASTLING_BASES[:3] + CASTLING_BASES[4:] + [CASTLING_BASES[3], "k3r3/8/8/8/8/5n2/8/4K3 w - - 0 40"]
    for fen in fens:
        Board.from_fen(fen, rules)  # all valid
    answers, _, _ = native.batch(template, fens, None, probe=0, full=False)
    assert [a is not None for a in answers] == [True] * 5 + [False, False]


# --- the command -------------------------------------------------------------------


def _run(args: list[str], stdin: bytes) -> tuple[int, list[dict], list[str]]:
    result = CliRunner().invoke(cli, ["unwinnable", *args], input=stdin)
    out = [json.loads(line) for line in result.stdout.splitlines()]
    return result.exit_code, out, result.stderr.splitlines()


def test_bad_lines_are_errors_naming_the_line_and_the_others_still_run():
    good = ["8/8/8/8/8/8/8/K6k w - - 0 1", "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1 words after the fen"]
    stdin = (good[0] + "\n\n" + "7k/8/8/8/8/8/8/K6Q w - - 0 1\n").encode() + b"\xff\xfe\n" + \
        (good[1] + "\r\nnot a fen\n").encode()
    code, out, err = _run(["--batch", "-"], stdin)
    assert code == 1
    assert [o["input_line"] for o in out] == [1, 5]
    assert out[0]["verdict"] == "cannot" and out[0]["proof"] and out[0]["line_uci"] is None
    assert out[1]["fen"] == "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1" and out[1]["side"] == "black"
    assert out[1]["verdict"] == "can" and mates(out[1]["fen"], out[1]["line_uci"], "black")
    assert err[0] == "arbiter: line 2: empty line"
    assert err[1].startswith("arbiter: line 3: ") and "not to move is in check" in err[1]
    assert err[2].startswith("arbiter: line 4: not UTF-8")
    assert err[3].startswith("arbiter: line 6: ") and "expected 6 fields" in err[3]
    assert set(out[0]) == {"input_line", "fen", "side", "verdict", "line_uci", "proof", "nodes"}


def test_side_option_workers_and_verify_keep_the_answers_and_their_order():
    stdin = "".join(row.fen + "\n" for row in ROWS[:40]).encode()
    code, one, _ = _run(["--batch", "-", "--side", "white"], stdin)
    assert code == 0 and all(o["side"] == "white" for o in one)
    code, two, _ = _run(["--batch", "-", "--side", "white", "-j", "2", "--verify"], stdin)
    assert code == 0 and two == one
    code, quick, _ = _run(["--batch", "-", "--quick"], stdin)
    assert code == 0 and [o["input_line"] for o in quick] == list(range(1, 41))
    assert all(o["verdict"] in ("cannot", "undetermined") or o["line_uci"] == [] for o in quick)


def test_batch_json_text_from_c_equals_json_dumps():
    """The compiled call writes most output lines itself: the same text json.dumps gives."""
    rules = load_ruleset("fide-2023")
    template = Board(rules)
    lines = [(n, row.fen) for n, row in enumerate(ROWS[:60], 1)]
    for quick in (True, False):
        texts = "\n".join(batch.json_lines(template, lines, None, quick=quick, node_limit=20_000)).split("\n")
        answers = list(batch.run_lines(template, lines, None, quick=quick, node_limit=20_000))
        assert texts == [batch.answer_json(a) for a in answers]
        for text, answer in zip(texts, answers):
            found = answer.analysis
            expected = {"input_line": answer.number, "fen": answer.fen, "side": ("white", "black")[answer.color],
                        "verdict": found.verdict.value,
                        "line_uci": list(found.line) if found.verdict is Verdict.CAN else None,
                        "proof": found.proof or None, "nodes": found.nodes}
            assert text == json.dumps(expected)
