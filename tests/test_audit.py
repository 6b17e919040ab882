"""``arbiter audit``: the findings on small games, partitions and compression, resuming,
bad input. The distributed run is in test_audit_dask.py."""

from __future__ import annotations

import bz2
import gzip
import json
from pathlib import Path

import pytest
import zstandard
from click.testing import CliRunner

from conformance.tools.audit.judge import audit_game
from conformance.tools.audit.lichess import read_rows, timeout_games
from conformance.tools.audit.sources import compressed_partitions, partitions
from conformance.cli import main
from reference_impl import load_ruleset
from reference_impl.notation.pgn import read_games

from cli_run import arbiter, one_error

LICHESS = Path(__file__).parent / "data" / "unwinnability" / "lichess-sample.txt"
REAL_LICHESS = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "lichess-2021-10-clk.pgn"


def game(moves: str, result: str, fen: str | None = None, termination: str | None = None, **tags: str) -> str:
    head = {"Event": "t", "Site": tags.get("Site", "?"), "Date": "2024.01.02", "White": tags.get("White", "W"),
            "Black": tags.get("Black", "B"), "Result": result}
    if termination:
        head["Termination"] = termination
    if fen:
        head.update(SetUp="1", FEN=fen)
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + f"\n{moves} {result}\n\n"


FOOLS_MATE = "1. f3 e5 2. g4 Qh4#"
#: Games with one finding each (rule, cite, correct result), then games without.
CASES = [
    (game("", "0-1", "8/8/8/4k3/8/8/8/4K2Q w - - 0 50", "Time forfeit"),
     ("flag_fall", "fide-2023:6.9", "1/2-1/2")),
    (game("", "1/2-1/2", "8/8/8/4k3/8/8/8/4K2Q b - - 0 50", "Time forfeit"),
     ("flag_fall", "fide-2023:6.9", "1-0")),
    (game(FOOLS_MATE + " 3. Kf2", "1-0"), ("after_end", "fide-2023:5.1.1", "0-1")),
    (game(FOOLS_MATE, "1/2-1/2"), ("automatic_end", "fide-2023:5.1.1", "0-1")),
    (game("1. e4 e5 2. Ke3", "1-0"), ("illegal_move", "fide-2023:7.5.1", None)),
    (game("", "1-0", "8/8/8/4k3/8/8/8/4KB2 w - - 0 50"), ("automatic_end", "fide-2023:5.2.2", "1/2-1/2")),
    # a dead position reached in play, and moves after it
    (game("1. Kxb2 Kd4 2. Kc2", "1/2-1/2", "8/8/8/4k3/8/8/1r6/K7 w - - 0 50"),
     ("after_end", "fide-2023:5.2.2", "1/2-1/2")),
    # the 150th ply without capture or pawn move, then a move; a fivefold repetition
    (game("80. Ra2 Kd5", "1-0", "8/8/8/4k3/8/8/8/R3K3 w - - 149 80"), ("after_end", "fide-2023:9.6.2", "1/2-1/2")),
    (game("1. Nf3 Nf6 2. Ng1 Ng8 " * 4, "1-0"), ("automatic_end", "fide-2023:9.6.1", "1/2-1/2")),
]
CLEAN = [
    game(FOOLS_MATE, "0-1"),
    game("1. e4 e5", "1-0", termination="Time forfeit"),
    game("", "1-0", "8/8/8/4k3/8/8/8/4K2Q b - - 0 50", "Time forfeit"),
    game("1. e4 e5", "1/2-1/2"),
]


def audits(text: str, rules: str = "fide-2023") -> list:
    ruleset = load_ruleset(rules)
    return [audit_game(pgn, ruleset) for pgn in read_games(text)]


@pytest.mark.parametrize("text,expected", CASES)
def test_each_kind_of_finding(text: str, expected: tuple) -> None:
    (found,) = audits(text)
    assert found.error is None
    assert [(f.rule, f.cite, f.correct) for f in found.findings] == [expected]


def test_correct_records_have_no_finding() -> None:
    assert [a.findings for a in audits("".join(CLEAN))] == [[]] * len(CLEAN)


def test_flag_fall_proofs() -> None:
    draw, loss = (audits(CASES[i][0])[0].findings[0] for i in (0, 1))
    assert draw.proof and draw.proof.startswith("static:")  # Black's lone king cannot mate
    assert loss.proof and loss.proof.startswith("helpmate ")
    assert loss.tags == {"Site": "?", "White": "W", "Black": "B", "Date": "2024.01.02"}


def test_us_chess_material_table() -> None:
    """14E: a lone king cannot win on time; the proof names the material."""
    (found,) = audits(CASES[0][0], "uscf-7")
    (finding,) = found.findings
    assert (finding.rule, finding.correct) == ("flag_fall", "1/2-1/2")
    assert finding.cite.startswith("uscf-7:14E") and "king" in (finding.proof or "")


def test_lichess_timeouts_draws_are_exactly_the_unwinnable_rows() -> None:
    rows = read_rows(LICHESS)
    found = audits(timeout_games(rows))
    flagged = {rows[a.game - 1].game for a in found if a.findings}
    assert all(a.error is None for a in found)
    assert flagged == {r.game for r in rows if r.verdict == "unwinnable"}
    assert all(f.correct == "1/2-1/2" for a in found for f in a.findings)


# --- files, partitions, the command -------------------------------------------------


def write_db(path: Path) -> str:
    text = "".join(t for t, _ in CASES) + "".join(CLEAN) * 3
    path.write_text(text)
    return text


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["audit", *args, "--no-progress"])
    assert "Traceback" not in (result.stderr or ""), result.stderr
    return result.exit_code, result.stdout, result.stderr


def findings(out: Path) -> list[dict]:
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return [{k: v for k, v in r.items() if k != "file"} for r in records if r["type"] in ("finding", "error")]


def test_partitions_hold_exactly_the_games(tmp_path: Path) -> None:
    pgn = tmp_path / "db.pgn"
    text = write_db(pgn)
    parts = list(partitions([pgn], 300))
    assert len(parts) > 5
    assert b"".join(pgn.read_bytes()[p.start:p.end] for p in parts) == text.encode()
    assert all(pgn.read_bytes()[p.start:p.start + 1] == b"[" for p in parts)


def test_small_partitions_and_compression_give_the_same_findings(tmp_path: Path) -> None:
    pgn = tmp_path / "db.pgn"
    text = write_db(pgn).encode()
    (tmp_path / "db.pgn.gz").write_bytes(gzip.compress(text))
    (tmp_path / "db.pgn.bz2").write_bytes(bz2.compress(text))
    (tmp_path / "db.pgn.zst").write_bytes(zstandard.ZstdCompressor().compress(text))
    code, stdout, _ = run(str(pgn), "--rules", "fide", "-o", str(tmp_path / "whole.jsonl"))
    assert code == 0 and sum(line.startswith(f"{pgn} game ") for line in stdout.splitlines()) == len(CASES)
    expected = findings(tmp_path / "whole.jsonl")
    assert [r["game"] for r in expected] == list(range(1, len(CASES) + 1))
    for name in ("db.pgn", "db.pgn.gz", "db.pgn.bz2", "db.pgn.zst"):
        out = tmp_path / f"{name}.jsonl"
        code, _, _ = run(str(tmp_path / name), "--rules", "fide", "-o", str(out), "--partition-bytes", "250")
        assert code == 0 and findings(out) == expected, name


def test_local_processes_give_the_same_findings(tmp_path: Path) -> None:
    pgn = tmp_path / "db.pgn"
    write_db(pgn)
    run(str(pgn), "--rules", "fide", "-o", str(tmp_path / "one.jsonl"), "--partition-bytes", "400")
    code, _, _ = run(str(pgn), "--rules", "fide", "-o", str(tmp_path / "two.jsonl"), "--partition-bytes", "400", "-j", "2")
    assert code == 0 and findings(tmp_path / "two.jsonl") == findings(tmp_path / "one.jsonl")


def test_resume_after_interruption(tmp_path: Path) -> None:
    """Cut the output after its second partition and inside a line, as a kill leaves it;
    the finished partitions are kept as written (a mark shows they are not redone)."""
    pgn, out = tmp_path / "db.pgn", tmp_path / "out.jsonl"
    write_db(pgn)
    args = (str(pgn), "--rules", "fide", "-o", str(out), "--partition-bytes", "300")
    run(*args)
    complete = findings(out)
    lines = out.read_text().splitlines(keepends=True)
    second = [i for i, line in enumerate(lines) if '"type": "partition"' in line][1]
    kept = lines[: second + 1]
    first_finding = next(i for i, line in enumerate(kept) if '"type": "finding"' in line)
    kept[first_finding] = kept[first_finding].replace('"reason": "', '"reason": "MARK ')
    out.write_text("".join(kept) + lines[second + 1][:20])
    code, stdout, _ = run(*args)
    assert code == 0
    resumed = findings(out)
    assert "MARK " in resumed[0]["reason"] and "MARK" not in stdout
    resumed[0]["reason"] = resumed[0]["reason"].replace("MARK ", "")
    assert resumed == complete
    summary = json.loads(out.read_text().splitlines()[-1])
    assert summary["type"] == "summary" and summary["games"] == len(CASES) + 3 * len(CLEAN)


def test_output_of_another_audit_is_not_overwritten(tmp_path: Path) -> None:
    pgn, out = tmp_path / "db.pgn", tmp_path / "out.jsonl"
    write_db(pgn)
    run(str(pgn), "--rules", "fide", "-o", str(out))
    before = out.read_text()
    line = one_error(arbiter("audit", str(pgn), "--rules", "uscf-7", "-o", str(out)))
    assert str(out) in line and "another audit" in line
    assert out.read_text() == before


def test_broken_game_is_reported_with_its_index_and_skipped(tmp_path: Path) -> None:
    pgn = tmp_path / "db.pgn"
    pgn.write_text(CASES[0][0] + game("1. e4 Zz9", "1-0") + CASES[2][0])
    code, stdout, stderr = run(str(pgn), "--rules", "fide")
    assert code == 1
    assert "game 2: move 1... Zz9" in stderr
    assert f"{pgn} game 1 " in stdout and f"{pgn} game 3 " in stdout


def test_truncated_gzip_keeps_the_games_before_the_damage(tmp_path: Path) -> None:
    text = "".join(game(FOOLS_MATE, "1/2-1/2", White=f"P{i}") for i in range(400)).encode()
    data = gzip.compress(text)
    damaged = tmp_path / "cut.pgn.gz"
    damaged.write_bytes(data[: len(data) // 2])
    items = list(compressed_partitions(damaged, 1000))
    assert type(items[-1]).__name__ == "Damage" and all(type(i).__name__ == "Partition" for i in items[:-1])
    code, stdout, stderr = run(str(damaged), "--rules", "fide")
    assert code == 1 and "damaged after" in stderr and str(damaged) in stderr
    numbers = [int(line.split()[2]) for line in stdout.splitlines() if line.startswith(f"{damaged} game ")]
    assert numbers and numbers == list(range(1, len(numbers) + 1))  # every game before the damage
    assert 0 < len(numbers) < 400


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_missing_file_and_unreachable_scheduler(tmp_path: Path) -> None:
    line = one_error(arbiter("audit", str(tmp_path / "none.pgn"), "--rules", "fide"))
    assert "none.pgn" in line and "no such file" in line
    pgn = tmp_path / "db.pgn"
    pgn.write_text(CLEAN[0])
    import socket

    with socket.socket() as sock:  # a port nothing listens on: bound, never listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        line = one_error(arbiter("audit", str(pgn), "--rules", "fide", "--scheduler", f"tcp://127.0.0.1:{port}",
                                 "--connect-timeout", "2"), code=3)
    assert "scheduler" in line and str(port) in line


# --- bad input: damage in every compression, the summary of what was not judged ----------

def _compressed(kind: str, text: bytes) -> bytes:
    if kind == "gz":
        return gzip.compress(text)
    if kind == "bz2":
        return bz2.compress(text, 1)  # blocks of 100 kB: the text before the damage holds whole ones
    return zstandard.ZstdCompressor().compress(text)


@pytest.mark.parametrize("kind", ["gz", "bz2", "zst"])
@pytest.mark.parametrize("damage", ["cut", "corrupt"])
def test_damaged_compressed_file_keeps_the_games_before_the_damage(kind: str, damage: str, tmp_path: Path) -> None:
    """A real database, compressed, cut short or with bytes garbled in the middle: the
    damage is one line naming the file, the games before it are audited (each game the
    file holds up to the last kilobyte before the damage) and numbered from 1, the exit
    status is 1, and no traceback."""
    text = REAL_LICHESS.read_bytes()
    data = bytearray(_compressed(kind, text))
    if damage == "cut":
        data = data[: len(data) // 2]
    else:
        middle = len(data) // 2
        data[middle:middle + 64] = bytes(255 - b for b in data[middle:middle + 64])
    path = tmp_path / f"db.pgn.{kind}"
    path.write_bytes(bytes(data))
    code, stdout, stderr = run(str(path), "--rules", "fide", "--partition-bytes", "4096")
    assert code == 1 and "Traceback" not in stderr + stdout
    damaged = [line for line in stderr.splitlines() if "damaged after" in line]
    assert len(damaged) == 1 and str(path) in damaged[0]
    summary = stdout.splitlines()[-1]
    games, unreadable = int(summary.split()[0].replace(",", "")), int(summary.split("; ")[1].split()[0])
    assert "1 damaged file(s)" in summary and games - unreadable > 150
    if damage == "cut":  # garbled deflate may decode into garbage first: unreadable games, each reported
        assert unreadable == 0 and games < 600


def test_summary_lists_every_game_not_judged_with_file_number_and_reason(tmp_path: Path) -> None:
    """Unreadable and skipped games of two files: each a line under its reason with the
    file and the game's number within it, each reason counted, the others judged."""
    def variant(name: str) -> str:
        return f'[Event "t"]\n[Variant "{name}"]\n[Result "*"]\n\n1. e4 e5 *\n\n'

    first, second = tmp_path / "a.pgn", tmp_path / "b.pgn"
    first.write_text(game(FOOLS_MATE, "0-1") + game("1. e4 Zz9", "1-0") + variant("Atomic") + game("1. e4 Zz9", "1-0"))
    second.write_text(variant("Horde") + game("1. e4 e5 2. Qh5 Nc6 3. Qxf7#", "1-0") + game("1. d4 Qq9", "0-1"))
    code, stdout, stderr = run(str(first), str(second), "--rules", "fide")
    assert code == 1 and "Traceback" not in stdout + stderr
    lines = stdout.splitlines()
    unreadable = next(i for i, line in enumerate(lines) if line.startswith("unreadable: "))
    assert lines[unreadable].endswith(": 3 game(s)")
    where = [line.strip().split(": ")[:2] for line in lines[unreadable + 1: unreadable + 4]]
    assert where == [[str(first), "game 2"], [str(first), "game 4"], [str(second), "game 3"]]
    assert all("invalid move" in line for line in lines[unreadable + 1: unreadable + 4])
    skipped = next(i for i, line in enumerate(lines) if line.startswith("skipped: "))
    assert lines[skipped] == "skipped: not chess under these Laws: 2 game(s)"
    where = [line.strip().split(": ")[:2] for line in lines[skipped + 1: skipped + 3]]
    assert where == [[str(first), "game 3"], [str(second), "game 1"]]
    assert "7 game(s)" in lines[-1] and "3 unreadable, 2 skipped" in lines[-1]


@pytest.mark.slow  # two whole audits of a few thousand real games
def test_memory_stays_flat_as_the_file_grows(tmp_path: Path) -> None:
    """The audit streams its partitions: the peak memory of an audit of a real file eight
    times over is that of the file once, give or take the partition held (not the games)."""
    import subprocess
    import sys

    once, eight = tmp_path / "once.pgn", tmp_path / "eight.pgn"
    once.write_bytes(REAL_LICHESS.read_bytes())
    eight.write_bytes((REAL_LICHESS.read_bytes().rstrip(b"\n") + b"\n\n") * 8)
    peaks = []
    for path in (once, eight):
        script = ("import resource, sys; from conformance.cli import main\n"
                  "try:\n    main()\nexcept SystemExit:\n    pass\n"
                  "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        done = subprocess.run([sys.executable, "-c", script, "audit", str(path), "--rules", "fide", "--no-progress",
                               "--partition-bytes", str(1 << 20)], capture_output=True, text=True)
        peaks.append(int(done.stdout.splitlines()[-1]))  # KiB
    assert peaks[1] - peaks[0] < 24 * 1024, peaks
    assert eight.stat().st_size > 8 * 1024 * 1024
