"""Lenient reading in every language, printed games, and writing in a marks tradition.

Expected moves come from python-chess on the English SAN of the same games; the printed
forms are those of a Tajik description of chess notation (Légal's mate) and of the issue.
"""

from __future__ import annotations

import chess
import pytest
from click.testing import CliRunner

from conformance.cli import main
from reference_impl import Board, load_ruleset
from reference_impl.notation.api import from_notation, is_notation, notation_ids, to_notation
from reference_impl.notation.errors import NotationError
from reference_impl.notation.printed import split_printed
from reference_impl.notation.san import read_san
from reference_impl.notation.tables import table

FIDE = load_ruleset("fide-2023")
LEGAL_TG = ("1. e4 e5, 2. Af3 Ac6, 3. Флс4 d6, 4. Ас3 Флg4, 5.О — O, Ad4? 6., А:e5! Фл: d1?? "
            "7. Фл: f7 + Ше7, 8. Ad5 ×.")
LEGAL_SAN = "e4 e5 Nf3 Nc6 Bc4 d6 Nc3 Bg4 O-O Nd4 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#"


def _uci(san_moves: str, fen: str = chess.STARTING_FEN) -> list[str]:
    board = chess.Board(fen)
    return [board.push_san(s).uci() for s in san_moves.split()]


def _convert(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["convert", *args])
    return result.exit_code, result.stdout, result.stderr


def test_legals_mate_printed_in_tajik_converts_to_uci() -> None:
    code, out, err = _convert("--from", "san:tg:lenient", "--to", "uci", LEGAL_TG)
    assert (code, err) == (0, "")
    assert out.split() == _uci(LEGAL_SAN)
    board = chess.Board()
    for uci in out.split():
        board.push_uci(uci)
    assert board.is_checkmate()


def test_a_printed_game_in_a_file_converts_and_glyphs_become_nags(tmp_path) -> None:
    path = tmp_path / "legal.txt"
    path.write_text(LEGAL_TG + "\n", encoding="utf-8")
    code, out, _ = _convert(str(path), "--from", "san:tg:lenient", "--to", "pgn")
    assert code == 0
    assert "5. O-O Nd4 $2 6. Nxe5 $1 Bxd1 $4" in out and "Nd5#" in out


def test_writing_in_the_russian_tradition() -> None:
    code, out, _ = _convert("--from", "san", "--to", "san:tg", "--marks", "russian", LEGAL_SAN)
    assert code == 0
    assert out.split() == ["e4", "e5", "Аf3", "Аc6", "Флc4", "d6", "Аc3", "Флg4", "0-0", "Аd4", "А:e5",
                           "Фл:d1", "Фл:f7+", "Шe7", "Аd5×"]
    code, out, _ = _convert("--from", "san", "--to", "lan:tg:russian", LEGAL_SAN)
    assert out.split()[:3] == ["e2—e4", "e7—e5", "Аg1—f3"] and "Аf3:e5" in out.split()


def test_a_tradition_reads_strictly_its_own_marks_only() -> None:
    board = Board.from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", FIDE)
    assert board.uci(from_notation(board, "А:e5", "san:tg:russian")) == "f3e5"
    with pytest.raises(NotationError) as error:
        from_notation(board, "Аxe5", "san:tg:russian")
    assert error.value.category == "invalid" and "А:e5" in error.value.reason


@pytest.mark.parametrize("language, fen, text, san, named", [
    ("tg", chess.STARTING_FEN, "Ag 1 — f3", "Nf3", {"spaces", "long_dash", "lookalike_letters", "long_algebraic"}),
    ("tg", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Pab 1", "Rb1", {"spaces", "lookalike_letters"}),
    ("tg", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "P1a2", "Ra2", {"lookalike_letters"}),
    ("tg", "4k3/8/8/8/8/8/6p1/4K3 b - - 0 1", "g2 — g1 Ф", "g1=Q+", {"spaces", "missing_promotion_equals"}),
    ("ru", "4k3/8/8/8/8/8/6p1/4K3 b - - 0 1", "g1С", "g1=B", {"missing_promotion_equals"}),
    ("ru", chess.STARTING_FEN, "Кg1—f3", "Nf3", {"long_dash", "long_algebraic"}),
    ("ru", "4k3/8/8/8/8/8/4K3/8 w - - 0 1", "Kpf3", "Kf3", {"lookalike_letters"}),
    ("uz", chess.STARTING_FEN, "Оf3", "Nf3", {"lookalike_letters"}),
    ("de", chess.STARTING_FEN, "Sg1:f3", "Nf3", {"alternative_capture_mark", "long_algebraic"}),
    ("de", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "О — О", "O-O", {"spaces", "long_dash", "lookalike_letters"}),
    ("en", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Кd2", "Kd2", {"lookalike_letters"}),
    ("hy", "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ձ: e2", "Ne2", {"spaces", "alternative_capture_mark"}),
])
def test_lenient_reading_names_every_leniency(language: str, fen: str, text: str, san: str, named: set[str]) -> None:
    board = Board.from_fen(fen, FIDE)
    parsed = read_san(board, text, lenient=True, language=language)
    assert board.uci(parsed.move) == _uci(san, fen)[0]
    assert named <= set(parsed.leniencies), parsed.leniencies
    notation = "san:lenient" if language == "en" else f"san:{language}:lenient"
    assert board.uci(from_notation(board, text, notation)) == _uci(san, fen)[0]


def test_double_check_with_spaces() -> None:
    fen = "4k3/8/8/8/4B3/8/8/4RK2 w - - 0 1"  # Bc6 uncovers the rook and checks: double check
    board = Board.from_fen(fen, FIDE)
    parsed = read_san(board, "Флc6 + +", lenient=True, language="tg")
    assert board.uci(parsed.move) == "e4c6" and "double_check_mark" in parsed.leniencies


def test_a_lookalike_letter_that_reads_as_two_legal_moves_is_an_error_naming_both() -> None:
    board = Board.from_fen("4k3/8/8/8/8/8/4K3/6N1 w - - 0 1", FIDE)
    with pytest.raises(NotationError) as error:
        read_san(board, "Kf3", lenient=True, language="ru")  # Latin K: Cyrillic К (knight) or English K (king)
    assert error.value.category == "ambiguous"
    assert "Кf3 = g1f3" in str(error.value) and "Крf3 = e2f3" in str(error.value)
    only_knight = Board.from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", FIDE)
    parsed = read_san(only_knight, "Kf3", lenient=True, language="ru")
    assert only_knight.uci(parsed.move) == "g1f3" and "lookalike_letters" in parsed.leniencies


def test_the_ambiguous_printed_move_is_one_line_exit_1() -> None:
    code, out, err = _convert("--from", "san:ru:lenient", "--fen", "4k3/8/8/8/8/8/4K3/6N1 w - - 0 1",
                              "--to", "uci", "1. Kf3")
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "ambiguous" in err and "move 1 (1. Kf3)" in err and "Traceback" not in err


def test_split_printed_numbers_commas_glyphs_results_and_scores() -> None:
    moves, result = split_printed(LEGAL_TG, "tg")
    assert [m.text for m in moves][8:13] == ["О—O", "Ad4", "А:e5", "Фл:d1", "Фл:f7+"]
    assert [m.glyphs for m in moves][9:12] == ["?", "!", "??"]
    assert moves[-1].text == "Ad5×" and result is None
    moves, result = split_printed("12…Nf6 13. Nxf6+ + gxf6?! 14. a4 ~ 14… Фл f8 — c5 = 2, — 1", "tg")
    assert [(m.text, m.glyphs) for m in moves] == [("Nf6", ""), ("Nxf6++", ""), ("gxf6", "?!"), ("a4", "~"),
                                                   ("Флf8—c5", "")]
    assert result == "= 2 — 1"
    moves, result = split_printed('[Event "x"]\n1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 $1 ½-½')
    assert [m.text for m in moves] == ["e4", "e5", "Nf3"] and result == "1/2-1/2"


def test_notation_ids_combine_language_tradition_and_leniency() -> None:
    assert {"san:tg:lenient", "san:tg:russian", "lan:tg:russian", "san:de:fide"} <= set(notation_ids())
    assert all(is_notation(n) for n in ("san:russian", "lan:ru", "san:ru:russian:lenient"))
    assert not any(is_notation(n) for n in ("san:xx", "san:lenient:tg", "lan:tg:lenient", "uci:tg"))
    board = Board(FIDE)
    assert to_notation(board, board.parse_uci("g1f3"), "san:ru:russian") == "Кf3"


def test_every_lookalike_group_has_one_latin_member() -> None:
    for group in table("lookalikes")["groups"]:
        assert sum(ch.isascii() for ch in group) == 1, group
