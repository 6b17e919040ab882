"""``arbiter audit`` throughput: games per CPU-second against python-chess, 1 vs 2 workers,
and the distributed run's overhead per game, all in one run on one file.

The file is built from the Lichess timeout sample the project ships (or a full
lichess-timeouts file with ``--lichess``): every 10th row a game lost on time (FEN,
``[Termination "Time forfeit"]``, the recorded loss), the other winnable rows played to
checkmate along their mating lines, so the games are decisive and about 10 % are lost on
time; the file is repeated ``--copies`` times. python-chess reads and replays the same
file (``chess.pgn.read_game``). The ruleset and the notation tables are read before
any clock starts (python-chess builds its tables on import); python-chess and the
``-j 1`` audit then run in ``--rounds`` interleaved rounds, every audit run with no
unwinnability answer kept from the one before, and the best of each is compared (the
machine's load changes between rounds, not within one). Run::

    python benchmarks/bench_audit.py [--lichess FILE] [--copies N] [--rounds N] [--no-dask]

and read the ratio line (audit games per CPU-second / python-chess games per CPU-second).
"""

from __future__ import annotations

import argparse
import io
import resource
import tempfile
import time
from pathlib import Path

import chess.pgn

from conformance.audit.execute import audit_partition, connect, run_dask, run_local
from conformance.audit.lichess import mixed_games, read_rows
from conformance.audit.sources import partitions
from reference_impl import unwinnability

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "unwinnability" / "lichess-sample.txt"
RULES = "fide-2023"
PARTITION = 64 << 10


def cpu_all() -> float:
    """CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def python_chess(text: str) -> tuple[int, float]:
    began, handle, games = time.process_time(), io.StringIO(text), 0
    while chess.pgn.read_game(handle) is not None:
        games += 1
    return games, time.process_time() - began


def warm_up(tmp: Path) -> None:
    """Read, validate and compile the ruleset and the notation tables before any clock
    starts, as python-chess builds its tables on import: one game not in the file."""
    path = tmp / "warm-up.pgn"
    path.write_text('[Result "*"]\n\n1. e4 e5 *\n')
    list(run_local(partitions([path], PARTITION), RULES, 1))


def audit(path: Path, jobs: int) -> tuple[int, float, float]:
    """(games, CPU seconds of all processes, wall seconds) of a local audit, starting
    with no unwinnability answer kept from an earlier run (each run searches afresh)."""
    unwinnability.clear_cache()
    cpu, wall = cpu_all(), time.perf_counter()
    games = sum(r.games for r in run_local(partitions([path], PARTITION), RULES, jobs))  # type: ignore[union-attr]
    return games, cpu_all() - cpu, time.perf_counter() - wall


def audit_dask(path: Path) -> tuple[int, float, float]:
    """(games, task CPU seconds, wall seconds) on a one-worker local cluster on loopback."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        client = connect(cluster.scheduler_address)
        client.submit(audit_partition, next(iter(partitions([path], 1 << 30))), RULES).result()  # warm up
        wall = time.perf_counter()
        results = list(run_dask(partitions([path], PARTITION), RULES, client))
        elapsed = time.perf_counter() - wall
        client.close()
    return sum(r.games for r in results), sum(r.cpu for r in results), elapsed  # type: ignore[union-attr]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lichess", type=Path, default=SAMPLE)
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--rounds", type=int, default=3, help="python-chess and -j 1 runs, interleaved")
    args = parser.parse_args()
    text = mixed_games(read_rows(args.lichess)) * args.copies
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pgn"
        path.write_text(text)
        warm_up(Path(tmp))
        rounds = []
        for _ in range(args.rounds):  # interleaved: a load change on the machine hits both
            rounds.append((python_chess(text), audit(path, 1)))
        (games, seconds), (audited, cpu1, wall1) = min(r[0] for r in rounds), min(r[1] for r in rounds)
        print(f"python-chess read_game: {games} games, {games / seconds:,.1f} games per CPU-second")
        print(f"audit -j 1: {audited} games, {audited / cpu1:,.1f} games per CPU-second, {audited / wall1:,.1f} games/s")
        print(f"ratio (audit / python-chess, games per CPU-second): {(audited / cpu1) / (games / seconds):.2f} "
              f"(best of {args.rounds} interleaved rounds each; per round: "
              + ", ".join(f"{(a[0] / a[1]) / (g[0] / g[1]):.2f}" for g, a in rounds) + ")")
        audited, cpu2, wall2 = audit(path, 2)
        print(f"audit -j 2: {audited / cpu2:,.1f} games per CPU-second, {audited / wall2:,.1f} games/s, "
              f"speed-up {wall1 / wall2:.2f}x over -j 1")
        if not args.no_dask:
            audited, task_cpu, wall = audit_dask(path)
            per_game = (wall - task_cpu) / audited * 1e6
            print(f"dask, 1 worker: {audited / wall:,.1f} games/s; overhead {per_game:,.0f} us per game "
                  f"(wall minus task CPU)")


if __name__ == "__main__":
    main()
