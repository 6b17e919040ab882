"""``arbiter convert``: exit codes, one-line errors, broken games skipped, others converted.

Expected texts: ICCF and Uedemann from their tables (e2-e4 = 5254 = gego), SAN from the
PGN standard.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from conformance.cli import main

MIXED = Path(__file__).parent / "data" / "notation" / "mixed.pgn"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["convert", *args])
    return result.exit_code, result.stdout, result.stderr


def test_move_list_between_notations() -> None:
    code, out, err = _run("--from", "san", "--to", "uedemann", "e4", "e5", "Nf3")
    assert (code, out.strip(), err) == (0, "gego seso kahi", "")
    code, out, _ = _run("--from", "iccf", "--to", "san", "5254 5755")
    assert (code, out.strip()) == (0, "e4 e5")


def test_move_list_from_a_fen_to_descriptive() -> None:
    fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"
    code, out, _ = _run("--to", "descriptive", "--fen", fen, "exd5", "Qxd5")
    assert (code, out.strip()) == (0, "PxP QxP")


def test_bad_move_names_its_number_and_exits_1() -> None:
    code, out, err = _run("--to", "lan", "e4", "e5", "Ke3")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "move 3" in err and "illegal" in err


def test_pgn_file_to_iccf_converts_the_good_games_and_reports_the_bad_one() -> None:
    code, out, err = _run(str(MIXED), "--to", "iccf")
    assert code == 1
    assert out.count("# game") == 4  # game 2 has an unreadable move
    assert "1. 5254 5755 2. 7163 2836" in out
    assert "game 2" in err and "move 6. Nf9" in err
    assert "Traceback" not in err


def test_pgn_to_pgn_normalises_castling_and_suffixes() -> None:
    code, out, _ = _run(str(MIXED), "--to", "pgn")
    assert code == 1  # game 2 still broken
    assert "5. O-O Be7" in out and "0-0" not in out and "a6 $5" in out


def test_usage_errors_exit_2() -> None:
    code, _, err = _run("--to", "klingon", "e4")
    assert code == 2 and "not a notation" in err
    code, _, err = _run("--to", "san")
    assert code == 2


def test_latin_1_pgn_files_are_read(tmp_path: Path) -> None:
    path = tmp_path / "old.pgn"
    path.write_bytes('[Event "Café"]\n[White "Müller"]\n\n1. e4 e5 *\n'.encode("latin-1"))
    code, out, err = _run(str(path), "--to", "uci")
    assert (code, err) == (0, "")
    assert "Müller" in out and "1. e2e4 e7e5 *" in out


def test_missing_file_is_one_line() -> None:
    code, _, err = _run("no-such-file.pgn", "--to", "san")
    assert code == 2 and err.count("\n") == 1 and "no-such-file.pgn" in err


def test_move_list_to_pgn_from_a_position() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    code, out, _ = _run("--from", "iccf", "--to", "pgn", "--fen", fen, "5847", "5254")
    assert code == 0
    assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]' in out and '[SetUp "1"]' in out
    assert out.rstrip().endswith("40... Kd7 41. e4 *")
