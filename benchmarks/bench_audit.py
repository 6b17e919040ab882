"""``arbiter audit`` throughput on real exports: games per CPU-second of the whole
process against python-chess and pgn-extract in the same run, 1 vs 2 workers, and the
distributed run's overhead per game.

The input is the real files of ``benchmarks/data`` (a Lichess database excerpt and a
chess.com archive, every move with its clock comment; see benchmarks/data/README), each
repeated ``--copies`` times, and their concatenation. Three programs read each file,
each as its own process, and the CPU time of that process (user + system, its children
included) is what counts:

* ``arbiter audit FILE --rules fide-2023 -j 1`` (the audit: every game read, replayed
  and judged);
* python-chess: ``chess.pgn.read_game`` for every game, then the final board
  (``game.end().board()``), as a script;
* ``pgn-extract -s -o /dev/null FILE`` (Debian's pgn-extract, which validates every move).

Each runs ``--rounds`` times, interleaved (a load change on the machine hits all), and
the best of each is compared. A run on a file of one game gives each program's fixed
cost (start-up, imports, tables), printed with the rates without it; the ratios are of
whole processes. For each real file two in-process lines follow: the audit's rate after
a warm-up and the shares of its CPU in the flag-fall rulings and the dead-position
checks at game ends (the unwinnability searches), and the rate of the rest; once with
the flag-fall questions asked of ``analyse`` one by one, once of the unwinnability batch
(the audit's way; the same rulings).
Then ``-j 2`` on the concatenation (CPU and wall clock, speed-up over ``-j 1``) and,
unless ``--no-dask``, a one-worker local Dask cluster on loopback. Run::

    python benchmarks/bench_audit.py [--copies N] [--rounds N] [--no-dask]

and read the ratio lines (games per CPU-second of the audit / of the other program).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
#: The real files, by the source they were exported from.
SOURCES = {"lichess": DATA / "lichess-2021-10-clk.pgn", "chess.com": DATA / "chesscom-clk.pgn"}
RULES = "fide-2023"
#: A run must take this many times its fixed cost before the rate without it is printed.
MARGIN = 1.5
#: Partition size of the -j 1 / -j 2 comparison (several partitions for two workers).
SCALING_PARTITION = 256 << 10
PGN_EXTRACT = ("pgn-extract", "/usr/games/pgn-extract")
#: The file whose run gives each program's fixed cost (start-up, imports, the tables
#: and searches made on first use).
ONE_GAME = b'[Event "t"]\n[Result "1-0"]\n[Termination "Time forfeit"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n'

PYTHON_CHESS = """
import sys, chess.pgn
games = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        game.end().board()
        games += 1
print(games)
"""


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(command: list[str]) -> tuple[float, float]:
    """(CPU seconds of the finished process and its children, wall seconds). The audit
    exits 1 when it has findings or unreadable games to report (the real files have both)."""
    cpu, wall = children_cpu(), time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command[0]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return children_cpu() - cpu, time.perf_counter() - wall


def commands(path: Path, out: Path) -> dict[str, list[str]]:
    arbiter = shutil.which("arbiter", path=str(Path(sys.executable).parent)) or "arbiter"
    extract = next((p for p in (shutil.which(n) for n in PGN_EXTRACT) if p), None)
    found = {
        "arbiter audit -j 1": [arbiter, "audit", str(path), "--rules", RULES, "-j", "1", "--no-progress",
                               "-o", str(out)],
        "python-chess": [sys.executable, "-c", PYTHON_CHESS, str(path)],
    }
    if extract:
        found["pgn-extract"] = [extract, "-s", "-o", "/dev/null", str(path)]
    return found


def best(path: Path, out: Path, rounds: int) -> dict[str, float]:
    """The least CPU seconds of each program over ``rounds`` interleaved rounds."""
    least: dict[str, float] = {}
    for _ in range(rounds):
        for name, command in commands(path, out).items():
            out.unlink(missing_ok=True)  # no resumed audit
            least[name] = min(least.get(name, float("inf")), timed(command)[0])
    return least


def games_in(path: Path) -> int:
    return sum(1 for line in path.read_bytes().splitlines() if line.startswith(b"[Event "))


def breakdown(path: Path, rounds: int, batched: bool) -> None:
    """In this process, after a warm-up: the audit's games per CPU-second and the shares
    of its CPU spent in the flag-fall rulings and the dead-position checks at game ends
    (timed by wrapping the two judge functions), against python-chess's in-process rate;
    ``batched``: the flag-fall questions asked of the unwinnability batch (the audit's
    way) or of ``analyse`` one by one (the same rulings)."""
    import io

    import chess.pgn

    from conformance.audit import fast, judge
    from reference_impl import unwinnability
    from conformance.audit.laws import cached_chooser

    rules, data = cached_chooser(RULES), path.read_bytes()
    judge.BATCHED_FLAG_FALLS = batched
    spent = {"flag": 0.0, "dead": 0.0}
    flag_ruling, dead = judge._flag_ruling, judge._Ends.dead

    def timed_flag(*args: object) -> object:
        began = time.process_time()
        try:
            return flag_ruling(*args)  # type: ignore[arg-type]
        finally:
            spent["flag"] += time.process_time() - began

    def timed_dead(self: object, board: object) -> bool:
        began = time.process_time()
        try:
            return dead(self, board)  # type: ignore[arg-type]
        finally:
            spent["dead"] += time.process_time() - began

    judge._flag_ruling, judge._Ends.dead = timed_flag, timed_dead  # type: ignore[assignment]
    try:
        list(fast.audit_text(data, rules))
        runs = []
        for _ in range(rounds):
            unwinnability.clear_cache()
            spent.update(flag=0.0, dead=0.0)
            began = time.process_time()
            games = sum(1 for _ in fast.audit_text(data, rules))
            runs.append((time.process_time() - began, spent["flag"], spent["dead"]))
    finally:
        judge._flag_ruling, judge._Ends.dead = flag_ruling, dead  # type: ignore[assignment]
        judge.BATCHED_FLAG_FALLS = True
    total, flag, dead_checks = min(runs)
    began, handle = time.process_time(), io.StringIO(data.decode("utf-8", "replace"))
    while (game := chess.pgn.read_game(handle)) is not None:
        game.end().board()
    reference = games / (time.process_time() - began)
    rest = total - flag - dead_checks
    how = "flag falls by the batch" if batched else "flag falls by analyse, one by one"
    print(f"  in this process ({how}): audit {games / total:,.0f} games per CPU-second ({games / total / reference:.1f}x "
          f"python-chess's {reference:,.0f}); flag-fall rulings {flag / total:.0%} of it, dead-position checks "
          f"{dead_checks / total:.0%}; the rest {games / rest:,.0f} games per CPU-second ({games / rest / reference:.1f}x)")


def audit_dask(path: Path) -> tuple[int, float, float]:
    """(games, task CPU seconds, wall seconds) on a one-worker local cluster on loopback."""
    from distributed import LocalCluster

    from conformance.audit.execute import audit_partition, connect, run_dask
    from conformance.audit.sources import partitions

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        client = connect(cluster.scheduler_address)
        client.submit(audit_partition, next(iter(partitions([path], 1 << 30))), RULES).result()  # warm up
        wall = time.perf_counter()
        results = list(run_dask(partitions([path], 64 << 10), RULES, client))
        elapsed = time.perf_counter() - wall
        client.close()
    return sum(r.games for r in results), sum(r.cpu for r in results), elapsed  # type: ignore[union-attr]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=1,
                        help="repeats of each file (a repeated flag-fall position is answered from the cache)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each program, interleaved")
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp), Path(tmp) / "findings.jsonl"
        files = {}
        for source, path in SOURCES.items():
            files[source] = folder / f"{source}.pgn"
            files[source].write_bytes(path.read_bytes() * args.copies)
        files["all"] = folder / "all.pgn"
        files["all"].write_bytes(b"".join(files[s].read_bytes() for s in SOURCES))
        one_game = folder / "one.pgn"
        one_game.write_bytes(ONE_GAME)
        fixed = best(one_game, out, args.rounds)
        print("fixed cost (one game lost on time): " + ", ".join(f"{n} {s:.2f} s" for n, s in fixed.items()))
        for source, path in files.items():
            games = games_in(path)
            cpu = best(path, out, args.rounds)
            rates = {name: games / seconds for name, seconds in cpu.items()}
            ours = rates["arbiter audit -j 1"]
            print(f"{source}: {games} games; games per CPU-second (whole process, best of {args.rounds}): "
                  + ", ".join(f"{name} {rate:,.0f}" for name, rate in rates.items()))
            print(f"  ratio arbiter audit -j 1 / python-chess: {ours / rates['python-chess']:.1f}"
                  + (f"; / pgn-extract: {ours / rates['pgn-extract']:.2f}" if "pgn-extract" in rates else ""))
            if all(seconds > MARGIN * fixed[name] for name, seconds in cpu.items() if name != "pgn-extract"):
                marginal = {name: games / max(seconds - fixed[name], 1e-9) for name, seconds in cpu.items()}
                print("  without the fixed cost: " + ", ".join(f"{name} {rate:,.0f}" for name, rate in marginal.items())
                      + f"; ratio to python-chess {marginal['arbiter audit -j 1'] / marginal['python-chess']:.1f}")
            else:
                print("  (too few games to take the fixed cost off: use --copies)")
            if source in SOURCES:
                for batched in (False, True):
                    breakdown(SOURCES[source], args.rounds, batched)
        path, games = files["all"], games_in(files["all"])
        one = commands(path, out)["arbiter audit -j 1"] + ["--partition-bytes", str(SCALING_PARTITION)]
        two = one[:one.index("-j")] + ["-j", "2"] + one[one.index("-j") + 2:]
        out.unlink(missing_ok=True)
        cpu1, wall1 = timed(one)
        out.unlink(missing_ok=True)
        cpu2, wall2 = timed(two)
        print(f"all, partitions of {SCALING_PARTITION >> 10} KiB: arbiter audit -j 1: {games / cpu1:,.0f} games "
              f"per CPU-second, {games / wall1:,.0f} games/s; "
              f"-j 2: {games / cpu2:,.0f} games per CPU-second, {games / wall2:,.0f} games/s, "
              f"speed-up {wall1 / wall2:.2f}x (wall)")
        if not args.no_dask:
            audited, task_cpu, wall = audit_dask(path)
            print(f"dask, 1 worker: {audited / wall:,.0f} games/s; overhead {(wall - task_cpu) / audited * 1e6:,.0f} "
                  f"us per game (wall minus task CPU)")


if __name__ == "__main__":
    main()
