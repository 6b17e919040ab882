"""``arbiter audit`` throughput on real exports: games per CPU-second of whole processes
against python-chess and pgn-extract in the same run, with and without each program's
start-up; ``adjudicate`` against ``audit``; in process, the share of the unwinnability
searches; ``-j 2`` against ``-j 1`` and the Dask path, CPU and wall clock, with the
machine's load.

The input is the real files of ``benchmarks/data`` (see its README): the Lichess
database excerpt (600 games, every move with its clock comment), a Lichess API export
(2,110 games, clocks), a chess.com archive (208 games, clocks), each repeated
``--copies`` times, and their concatenation. Each program reads each file as its own
process; the CPU time of that process (user + system, children included) counts:

* ``arbiter audit FILE --rules fide -j 1`` (every game read, replayed and judged under
  the Laws its tags choose), and ``arbiter adjudicate FILE`` (a verdict for every game:
  the table, and ``--json``);
* python-chess: ``chess.pgn.read_game`` for every game, then the final board
  (``game.end().board()``), as a script;
* ``pgn-extract -s -o /dev/null FILE`` (Debian's pgn-extract, which validates every move).

Each runs ``--rounds`` times, interleaved (a load change hits all), and the least CPU of
each is compared. Every program runs once before the rounds (Python writes its bytecode
caches, the audit remembers the schema checks of its tables; both are what an installed
program has), and a run on a one-game file gives each program's start-up, printed with
the rates without it. The in-process lines time the audit of each file after a warm-up,
with an empty unwinnability cache, and the share of its CPU spent in the compiled
unwinnability searches (flag falls, dead positions). Then ``-j 2`` against ``-j 1`` on
the concatenation at 256 KiB partitions, and unless ``--no-dask`` a local Dask cluster
of one and of two worker processes on loopback.

``--instructions`` counts instead the instructions each whole process executes
(Valgrind's cachegrind without its cache simulation, about fifty times slower than a run):
the same figure on every run whatever else the machine is doing, for the audit,
``adjudicate`` and python-chess on the one-game file and on each real file, with the
ratio to python-chess and the ratio without each program's start-up. CPU time is what the
target is stated in; the count shows what a loaded machine hides. Run::

    python benchmarks/bench_audit.py [--copies N] [--rounds N] [--no-dask] [--instructions]
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

DATA = Path(__file__).resolve().parent / "data"
#: The real files, by name; a ``.gz`` one is decompressed for every program alike.
SOURCES = {"lichess-db": DATA / "lichess-2021-10-clk.pgn", "lichess-api": DATA / "lichess-api-2110.pgn.gz",
           "chess.com": DATA / "chesscom-clk.pgn"}
RULES = "fide"
#: A run must take this many times its start-up before the rate without it is printed.
MARGIN = 1.5
#: Partition size of the -j 1 / -j 2 / Dask comparison (several partitions per worker).
SCALING_PARTITION = 256 << 10
PGN_EXTRACT = ("pgn-extract", "/usr/games/pgn-extract")
#: The one-game file whose run gives each program's start-up (imports, tables).
ONE_GAME = b'[Event "t"]\n[Result "1-0"]\n[Termination "Time forfeit"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n'
AUDIT, PYTHON_CHESS, EXTRACT = "arbiter audit -j 1", "python-chess", "pgn-extract"
ADJUDICATE, ADJUDICATE_JSON = "arbiter adjudicate", "arbiter adjudicate --json"

PYTHON_CHESS_SCRIPT = """
import sys, chess.pgn
games = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        game.end().board()
        games += 1
print(games)
"""


def environment() -> dict[str, str]:
    """This process's environment, bytecode caches allowed (as for an installed program)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(command: list[str]) -> tuple[float, float]:
    """(CPU seconds of the finished process and its children, wall seconds). The audit
    and adjudicate exit 1 when a game is unreadable (real files may hold one)."""
    cpu, wall = children_cpu(), time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment())
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command[0]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return children_cpu() - cpu, time.perf_counter() - wall


def commands(path: Path, out: Path) -> dict[str, list[str]]:
    arbiter = shutil.which("arbiter", path=str(Path(sys.executable).parent)) or "arbiter"
    extract = next((p for p in (shutil.which(n) for n in PGN_EXTRACT) if p), None)
    found = {
        AUDIT: [arbiter, "audit", str(path), "--rules", RULES, "-j", "1", "--no-progress", "-o", str(out)],
        ADJUDICATE: [arbiter, "adjudicate", str(path), "--rules", RULES],
        ADJUDICATE_JSON: [arbiter, "adjudicate", str(path), "--rules", RULES, "--json"],
        PYTHON_CHESS: [sys.executable, "-c", PYTHON_CHESS_SCRIPT, str(path)],
    }
    if extract:
        found[EXTRACT] = [extract, "-s", "-o", "/dev/null", str(path)]
    return found


def least_cpu(path: Path, out: Path, rounds: int) -> dict[str, float]:
    """The least CPU seconds of each program over ``rounds`` interleaved rounds."""
    least: dict[str, float] = {}
    for _ in range(rounds):
        for name, command in commands(path, out).items():
            out.unlink(missing_ok=True)  # no resumed audit
            least[name] = min(least.get(name, float("inf")), timed(command)[0])
    return least


def instructions(command: list[str]) -> int:
    """Instructions the whole process executes (cachegrind, no cache simulation)."""
    with tempfile.NamedTemporaryFile() as summary:
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                               f"--cachegrind-out-file={summary.name}", *command],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment())
        if done.returncode not in (0, 1):
            raise SystemExit(f"valgrind {command[0]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
        found = [line for line in Path(summary.name).read_text().splitlines() if line.startswith("summary:")]
    if not found:
        raise SystemExit(f"valgrind gave no instruction count for {command[0]}")
    return int(found[0].split()[1])


def count_instructions(files: dict[str, Path], one_game: Path, out: Path) -> None:
    """Print the instructions of each program on the one-game file and on each file."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian package valgrind)")
    names = (AUDIT, ADJUDICATE, PYTHON_CHESS)

    def counted(path: Path) -> dict[str, int]:
        found = {}
        for name in names:
            out.unlink(missing_ok=True)
            found[name] = instructions(commands(path, out)[name])
        return found

    counted(one_game)  # bytecode caches, remembered schema checks
    fixed = counted(one_game)
    print("instructions, start-up (a one-game file): " + ", ".join(f"{n} {c / 1e6:,.0f}M" for n, c in fixed.items()))
    for source, path in files.items():
        games, found = games_in(path), counted(path)
        ratio, marginal = (found[PYTHON_CHESS] / found[AUDIT],
                           (found[PYTHON_CHESS] - fixed[PYTHON_CHESS]) / (found[AUDIT] - fixed[AUDIT]))
        print(f"{source}: {games} games; instructions per game (whole process): "
              + ", ".join(f"{n} {c / games:,.0f}" for n, c in found.items())
              + f"; python-chess / {AUDIT}: {ratio:.1f}x whole process, {marginal:.1f}x without the start-up; "
              f"{ADJUDICATE} / {AUDIT}: {found[ADJUDICATE] / found[AUDIT]:.2f}")


def games_in(path: Path) -> int:
    return path.read_bytes().count(b"\n[Event ") + path.read_bytes().startswith(b"[Event ")


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} CPUs"


def in_process(path: Path, rounds: int) -> tuple[float, float, float]:
    """(audit games per CPU-second, python-chess's, the share of the audit's CPU in the
    compiled unwinnability searches) in this process, after a warm-up, each round with an
    empty unwinnability cache; the least CPU of ``rounds``."""
    import io

    import chess.pgn

    from conformance.tools.audit import fast
    from conformance.tools.audit.laws import cached_chooser
    from reference_impl import unwinnability
    from reference_impl.unwinnability import native

    choose, data = cached_chooser(RULES), path.read_bytes()
    spent = [0.0]
    searches = ("batch", "helpmate", "explore", "static_stage")
    originals = {name: getattr(native, name) for name in searches}

    def timed_search(function: Callable[..., object]) -> Callable[..., object]:
        def run(*args: object, **kwargs: object) -> object:
            began = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - began
        return run

    for name, function in originals.items():
        setattr(native, name, timed_search(function))
    try:
        games = sum(1 for _ in fast.audit_text(data, choose))
        audit, share = float("inf"), 0.0
        for _ in range(rounds):
            unwinnability.clear_cache()
            spent[0] = 0.0
            began = time.process_time()
            sum(1 for _ in fast.audit_text(data, choose))
            took = time.process_time() - began
            if took < audit:
                audit, share = took, spent[0] / took
    finally:
        for name, function in originals.items():
            setattr(native, name, function)
    reference = float("inf")
    for _ in range(rounds):
        began, handle = time.process_time(), io.StringIO(data.decode("utf-8", "replace"))
        while (game := chess.pgn.read_game(handle)) is not None:
            game.end().board()
        reference = min(reference, time.process_time() - began)
    return games / audit, games / reference, share


def audit_dask(path: Path, warm: Path, workers: int) -> tuple[int, float, float]:
    """(games, CPU seconds of the tasks, wall seconds) on a local cluster of ``workers``
    one-thread worker processes on loopback, each started on the one-game file ``warm``
    (its imports and tables; no answer of the file's searches kept)."""
    from distributed import LocalCluster

    from conformance.tools.audit.execute import audit_partition, connect, run_dask
    from conformance.tools.audit.sources import partitions

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        client = connect(cluster.scheduler_address)
        first = next(iter(partitions([warm], 1 << 30)))
        client.gather([client.submit(audit_partition, first, RULES, pure=False) for _ in range(workers)])
        wall = time.perf_counter()
        results = list(run_dask(partitions([path], SCALING_PARTITION), RULES, client))
        elapsed = time.perf_counter() - wall
        client.close()
    return sum(r.games for r in results), sum(r.cpu for r in results), elapsed  # type: ignore[union-attr]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=1, help="repeats of each file")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each program, interleaved")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--instructions", action="store_true",
                        help="count each process's instructions with valgrind instead of timing")
    args = parser.parse_args()
    print(f"{load()}; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp), Path(tmp) / "findings.jsonl"
        files: dict[str, Path] = {}
        for source, path in SOURCES.items():
            text = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
            files[source] = folder / f"{source}.pgn"
            files[source].write_bytes((text.rstrip(b"\n") + b"\n\n") * args.copies)
        files["all"] = folder / "all.pgn"
        files["all"].write_bytes(b"\n".join(files[s].read_bytes().rstrip(b"\n") + b"\n" for s in SOURCES))
        one_game = folder / "one.pgn"
        one_game.write_bytes(ONE_GAME)
        if args.instructions:
            count_instructions(files, one_game, out)
            return
        least_cpu(one_game, out, 1)  # bytecode caches, remembered schema checks
        fixed = least_cpu(one_game, out, max(args.rounds, 3))
        print("start-up (a one-game file): " + ", ".join(f"{n} {s:.3f} s" for n, s in fixed.items()))
        for source, path in files.items():
            games = games_in(path)
            cpu = least_cpu(path, out, args.rounds)
            rates = {name: games / seconds for name, seconds in cpu.items()}
            ours = rates[AUDIT]
            print(f"{source}: {games} games; games per CPU-second (whole process, least of {args.rounds}): "
                  + ", ".join(f"{name} {rate:,.0f}" for name, rate in rates.items()))
            print(f"  ratio {AUDIT} / python-chess: {ours / rates[PYTHON_CHESS]:.1f}"
                  + (f"; / pgn-extract: {ours / rates[EXTRACT]:.2f}" if EXTRACT in rates else "")
                  + f"; CPU of adjudicate / audit: {cpu[ADJUDICATE] / cpu[AUDIT]:.2f} (table), "
                  f"{cpu[ADJUDICATE_JSON] / cpu[AUDIT]:.2f} (--json)")
            if all(seconds > MARGIN * fixed[name] for name, seconds in cpu.items() if name != EXTRACT):
                marginal = {name: games / max(seconds - fixed[name], 1e-9) for name, seconds in cpu.items()}
                print("  without the start-up: " + ", ".join(f"{name} {rate:,.0f}" for name, rate in marginal.items())
                      + f"; ratio to python-chess {marginal[AUDIT] / marginal[PYTHON_CHESS]:.1f}"
                      + (f", to pgn-extract {marginal[AUDIT] / marginal[EXTRACT]:.2f}" if EXTRACT in marginal else ""))
            else:
                print("  (too few games to take the start-up off: use --copies)")
            if source in SOURCES:
                audit, reference, share = in_process(path, args.rounds)
                print(f"  in this process: audit {audit:,.0f} games per CPU-second, python-chess {reference:,.0f} "
                      f"({audit / reference:.1f}x); the unwinnability searches {share:.0%} of the audit's CPU, "
                      f"the rest {audit / (1 - share):,.0f} games per CPU-second ({audit / (1 - share) / reference:.1f}x)")
        path, games = files["all"], games_in(files["all"])
        one = commands(path, out)[AUDIT] + ["--partition-bytes", str(SCALING_PARTITION)]
        two = one[:one.index("-j")] + ["-j", "2"] + one[one.index("-j") + 2:]
        runs: dict[str, list[tuple[float, float]]] = {"-j 1": [], "-j 2": []}
        for _ in range(args.rounds):
            for name, command in (("-j 1", one), ("-j 2", two)):
                out.unlink(missing_ok=True)
                runs[name].append(timed(command))
        (cpu1, wall1), (cpu2, wall2) = min(runs["-j 1"], key=lambda r: r[1]), min(runs["-j 2"], key=lambda r: r[1])
        print(f"all, partitions of {SCALING_PARTITION >> 10} KiB ({load()}): -j 1 {games / wall1:,.0f} games/s "
              f"({games / cpu1:,.0f} per CPU-second); -j 2 {games / wall2:,.0f} games/s ({games / cpu2:,.0f} per "
              f"CPU-second); speed-up {wall1 / wall2:.2f}x (wall), CPU {cpu2 / cpu1:.2f}x of -j 1's")
        if not args.no_dask:
            for workers in (1, 2):
                audited, task_cpu, wall = audit_dask(path, one_game, workers)
                print(f"dask, {workers} worker(s) ({load()}): {audited:,} games, {audited / wall:,.0f} games/s (wall), "
                      f"tasks {audited / task_cpu:,.0f} games per CPU-second; overhead "
                      f"{(wall * workers - task_cpu) / audited * 1e6:,.0f} us per game (workers x wall - task CPU)")


if __name__ == "__main__":
    main()
