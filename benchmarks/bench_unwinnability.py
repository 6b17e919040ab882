"""Unwinnability: how much of the labelled CHA set is decided, and how fast.

For every labelled position (``tests/data/unwinnability/labelled.txt``) and each colour
the question is "can this colour ever checkmate?". Three methods run on the same
positions in one process:

* ``reference static`` -- :func:`analyse_both` with ``node_limit=0`` (static stage only);
* ``reference N nodes`` -- the full analysis with a node budget per colour;
* ``python-chess material`` -- ``Board.has_insufficient_material(color)``, python-chess's
  per-colour material rule, read as ``CANNOT`` when it says insufficient (it never
  claims a side *can* mate).

Printed per label class: the share of (position, colour) questions decided correctly
(``CAN`` where the label says the side can mate, ``CANNOT`` where it cannot), the share
of dead positions proven dead on both sides, any unsound answer (there must be none),
and positions per second. Run::

    python benchmarks/bench_unwinnability.py [--node-limit 5000] [--limit N]

``--lichess FILE`` runs a lichess-timeouts file instead (final positions of games lost
on time, CHA's verdict for the side not to move; the shipped sample is
``tests/data/unwinnability/lichess-sample.txt``): the flag-fall question of FIDE 6.9
for every row at the node limit of the ruleset's ``flag_fall`` table, printing the share
decided, wrong verdicts against CHA, positions per CPU-second (``time.process_time``,
FEN parsing included), and in the same run python-chess's ``has_insufficient_material``
on the same rows (it can only say "cannot", from material) with the ratio. Every mating
line found is replayed with python-chess afterwards, outside the timing.

``--nodes`` measures the search core's speed on at most 301 evenly spaced rows of
``--lichess FILE`` (default the shipped sample), in one run: moves made per CPU-second by the compiled helpmate
search against python-chess making and unmaking every move of a legal-move perft, and
the compiled perft's leaves per CPU-second against python-chess's perft. Targets:
the whole file 100 % decided, 0 wrong, >= 500 positions per CPU-second::

    python benchmarks/bench_unwinnability.py --lichess FILE [--nodes] [--limit N]

``--against-cha`` runs the Chess Unwinnability Analyzer (``--cha PATH``, or the
``ARBITER_CHA`` environment variable) and ``arbiter unwinnable --batch`` on the same
positions (``--lichess FILE``, or ``ARBITER_LICHESS_TIMEOUTS``: a lichess-timeouts file,
its first column), each as a subprocess, full and quick mode, and prints positions per
CPU-second of each (the children's CPU time from ``resource.getrusage``, minus the same
command's CPU on a one-position input: start-up aside), the ratios, how many each
decided, our verdicts CHA's column contradicts, and, outside the timing, every ``can``
line replayed by python-chess. Neither the peer nor the file ships with the project; a
missing one is a one-line error. The quick modes answer the file ``--copies`` times over
in one input (default 10; both programs the same input): a screening pass over 15,000
positions costs less CPU than the start-up's run-to-run spread::

    python benchmarks/bench_unwinnability.py --against-cha --lichess FILE --cha PATH [-j N] [--repeat 5] [--copies 10]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Callable

import chess
from conformance.implementations.python_chess import oracle_perft as python_chess_perft  # the same python-chess perft both benchmarks use

from conformance.tools.generate.lichess_sample import Row, parse
from reference_impl import BLACK, WHITE, Board, load_ruleset
from reference_impl.adjudication.verdicts import flag_fall_node_limit
from reference_impl.errors import ArbiterError, FenError
from reference_impl.unwinnability import Analysis, Verdict, analyse, analyse_both, native

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "unwinnability" / "labelled.txt"
SAMPLE = ROOT / "tests" / "data" / "unwinnability" / "lichess-sample.txt"
CLASSES = ("--", "W-", "-B", "WB")
#: Node limit of the labelled run when --node-limit is not given.
LABELLED_NODE_LIMIT = 5000
#: Ruleset whose flag-fall table gives the lichess run's node limit.
RULESET = "fide-2023"
#: Perft depths of the --nodes run: python-chess's (slow), the compiled core's.
PY_DEPTH, NATIVE_DEPTH = 2, 4
#: Most positions the --nodes run takes from a file (evenly spaced): perft is costly.
NODE_POSITIONS = 301

Answer = dict[int, Verdict]


def load(limit: int | None) -> list[tuple[str, str]]:
    """The labelled positions a game can reach (the reference refuses the others: more
    promoted pieces than missing pawns, FIDE 3.10.3); how many were left out is printed."""
    rules = load_ruleset("fide-2023")
    rows, refused = [], 0
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            label, fen = line.split(None, 1)
            fen = fen.strip()
            fen += " 0 1" if len(fen.split()) == 4 else ""
            try:
                Board.from_fen(fen, rules)
            except FenError:
                refused += 1
                continue
            rows.append((label, fen))
    print(f"{len(rows)} labelled positions a game can reach ({refused} refused as unreachable)")
    return rows[:limit] if limit else rows


def reference(node_limit: int) -> Callable[[str], Answer]:
    rules = load_ruleset("fide-2023")

    def run(fen: str) -> Answer:
        results = analyse_both(Board.from_fen(fen, rules), node_limit)
        return {color: a.verdict for color, a in results.items()}

    return run


def python_chess(fen: str) -> Answer:
    board = chess.Board(fen)
    return {
        color: Verdict.CANNOT if board.has_insufficient_material(theirs) else Verdict.UNDETERMINED
        for color, theirs in ((WHITE, chess.WHITE), (BLACK, chess.BLACK))
    }


def measure(name: str, method: Callable[[str], Answer], rows: list[tuple[str, str]]) -> None:
    correct = {c: 0 for c in CLASSES}
    asked = {c: 0 for c in CLASSES}
    dead_both = unsound = 0
    start = time.perf_counter()
    for label, fen in rows:
        answer = method(fen)
        for color, mark in ((WHITE, label[0]), (BLACK, label[1])):
            expected = Verdict.CAN if mark != "-" else Verdict.CANNOT
            asked[label] += 1
            correct[label] += answer[color] is expected
            unsound += answer[color] is not expected and answer[color] is not Verdict.UNDETERMINED
        dead_both += label == "--" and all(v is Verdict.CANNOT for v in answer.values())
    elapsed = time.perf_counter() - start
    shares = "  ".join(f"{c} {correct[c] / asked[c]:6.1%}" if asked[c] else f"{c}   n/a " for c in CLASSES)
    dead = sum(1 for label, _ in rows if label == "--")
    print(
        f"{name:<24} {shares}  dead both {dead_both}/{dead} ({dead_both / max(dead, 1):.1%})"
        f"  unsound {unsound}  {len(rows) / elapsed:8.1f} positions/s"
    )


# --- lichess-timeouts: FIDE 6.9 on real flag falls ------------------------------------


def load_lichess(path: Path, limit: int | None) -> list[Row]:
    rows = parse(path.read_text(encoding="utf-8"), path.name)
    return rows[:limit] if limit else rows


def _wrong(row: Row, verdict: Verdict) -> bool:
    """A verdict CHA contradicts (undetermined is not wrong, only undecided)."""
    return verdict is (Verdict.CANNOT if row.verdict == "winnable" else Verdict.CAN)


def _replays(row: Row, line: tuple[str, ...]) -> bool:
    board = chess.Board(row.fen)
    try:
        for uci in line:
            board.push_uci(uci)
    except ValueError:
        return False
    return board.is_checkmate() and chess.COLOR_NAMES[board.turn] != row.side


def bench_lichess(rows: list[Row], node_limit: int | None) -> None:
    rules = load_ruleset(RULESET)
    limit = node_limit if node_limit is not None else flag_fall_node_limit(rules)
    unwinnable = sum(row.verdict == "unwinnable" for row in rows)
    print(f"{len(rows):,} flag falls ({len(rows) - unwinnable:,} winnable, {unwinnable:,} unwinnable "
          f"per CHA); {RULESET} flag-fall node limit {limit:,}")
    began = time.process_time()
    answers: list[Analysis] = [analyse(Board.from_fen(row.fen, rules), row.side, limit) for row in rows]
    ours = time.process_time() - began
    began = time.process_time()
    material = [chess.Board(row.fen).has_insufficient_material(chess.COLOR_NAMES.index(row.side))
                for row in rows]
    theirs = time.process_time() - began
    n = len(rows)
    decided = sum(a.verdict is not Verdict.UNDETERMINED for a in answers)
    wrong = sum(_wrong(row, a.verdict) for row, a in zip(rows, answers))
    stages = Counter(a.stage if a.verdict is not Verdict.UNDETERMINED else "undetermined" for a in answers)
    nodes = sum(a.nodes for a in answers)
    said = [Verdict.CANNOT if m else Verdict.UNDETERMINED for m in material]
    py_decided = sum(v is Verdict.CANNOT for v in said)
    py_wrong = sum(_wrong(row, v) for row, v in zip(rows, said))
    ours_rate, theirs_rate = n / max(ours, 1e-9), n / max(theirs, 1e-9)
    print(f"{'reference analyse':<24} decided {decided / n:7.2%} ({decided:,})  undetermined {n - decided:,}"
          f"  wrong {wrong}  {ours:8.2f} s CPU  {ours_rate:10,.1f} positions/CPU-s  nodes {nodes:,}")
    print(f"{'':<24} by stage: " + ", ".join(f"{k} {v:,}" for k, v in stages.most_common()))
    print(f"{'python-chess material':<24} decided {py_decided / n:7.2%} ({py_decided:,})  (can only say cannot)"
          f"  wrong {py_wrong}  {theirs:8.2f} s CPU  {theirs_rate:10,.1f} positions/CPU-s")
    print(f"ratio: the reference takes {theirs_rate / ours_rate:,.1f}x python-chess's CPU per position"
          f" ({ours_rate / theirs_rate:.4f}x its rate) and decides {decided:,} to its {py_decided:,}")
    lines = [(row, a.line) for row, a in zip(rows, answers) if a.verdict is Verdict.CAN]
    bad = [row.game for row, line in lines if not _replays(row, line)]
    print(f"mating lines replayed by python-chess: {len(lines):,}, not ending in the asked side's mate: "
          f"{len(bad)}" + (f" (e.g. {', '.join(bad[:5])})" if bad else ""))


# --- against CHA: both programs as subprocesses, in the same run ---------------------

#: Environment variables naming the peer's binary and the Lichess file when the options do not.
CHA_VARIABLE, LICHESS_VARIABLE = "ARBITER_CHA", "ARBITER_LICHESS_TIMEOUTS"
#: Times the quick modes answer the file over in one run, by default.
QUICK_COPIES = 10
#: Where the ``arbiter`` entry point of this environment is.
ARBITER = [sys.executable, "-c", "from conformance.cli import main; main()"]


def _child_cpu(command: list[str], stdin_path: Path) -> tuple[float, bytes]:
    """CPU seconds (user + system) of ``command`` fed ``stdin_path``, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin_path, "rb") as feed:
        done = subprocess.run(command, stdin=feed, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0,):
        raise SystemExit(f"bench_unwinnability: {' '.join(command[:3])} exited {done.returncode}: "
                         f"{done.stderr.decode(errors='replace')[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def _net_cpu(command: list[str], feed: Path, one: Path, repeat: int) -> tuple[float, bytes]:
    """CPU of ``command`` on ``feed`` minus its CPU on the one-position ``one``, each the
    median of ``repeat`` runs (the start-up's CPU varies from run to run by more than a
    screening pass costs)."""
    start_up = statistics.median(_child_cpu(command, one)[0] for _ in range(repeat))
    runs = [_child_cpu(command, feed) for _ in range(repeat)]
    total = statistics.median(cpu for cpu, _ in runs)
    return max(total - start_up, 1e-9), runs[0][1]


#: The first word of CHA's answer lines (its banner and closing line are not answers).
CHA_VERDICTS = ("winnable", "unwinnable", "undetermined")


def _cha_verdicts(output: bytes) -> list[str]:
    """CHA's answers in its output order: per input position in full mode, only the
    unwinnable ones in quick mode (the rest it calls "probably winnable")."""
    words = (line.split(maxsplit=1)[0] for line in output.decode().splitlines() if line.strip())
    return [word for word in words if word in CHA_VERDICTS]


def _given(option: Path | None, variable: str, what: str, flag: str) -> Path:
    """The file ``option`` names, else the environment ``variable``'s; a one-line exit
    when neither does or it is no file."""
    text = str(option) if option is not None else os.environ.get(variable)
    if not text:
        raise SystemExit(f"bench_unwinnability: --against-cha needs {what}: {flag} PATH or {variable}")
    path = Path(text).expanduser()
    if not path.is_file():
        raise SystemExit(f"bench_unwinnability: {what}: no such file: {path}")
    return path.resolve()


def bench_against_cha(path: Path, cha: Path, jobs: int, repeat: int, copies: int) -> None:
    rows = load_lichess(path, None)
    fens = [row.fen for row in rows]
    n = len(fens)
    with tempfile.TemporaryDirectory() as scratch:
        feed, many, one = Path(scratch) / "fens.txt", Path(scratch) / "copies.txt", Path(scratch) / "one.txt"
        feed.write_text("".join(f + "\n" for f in fens))
        many.write_text("".join(f + "\n" for f in fens) * copies)
        one.write_text(fens[0] + "\n")
        ours = [*ARBITER, "unwinnable", "--batch", "-", "-j", str(jobs)]
        runs = {
            "CHA full": _net_cpu([str(cha)], feed, one, 1),
            "CHA quick": _net_cpu([str(cha), "-quick"], many, one, repeat),
            "ours full": _net_cpu(ours, feed, one, 1),
            "ours quick": _net_cpu([*ours, "--quick"], many, one, repeat),
        }
    answered = {name: n * (copies if "quick" in name else 1) for name in runs}
    rate = {name: answered[name] / cpu for name, (cpu, _) in runs.items()}
    cha_full = _cha_verdicts(runs["CHA full"][1])
    if len(cha_full) != n:
        raise SystemExit(f"bench_unwinnability: CHA answered {len(cha_full)} of {n} positions")
    cha_quick_unwinnable = _cha_verdicts(runs["CHA quick"][1]).count("unwinnable") // copies
    answers = {name: [json.loads(line) for line in runs[name][1].decode().splitlines()]
               for name in ("ours full", "ours quick")}
    answers["ours quick"] = answers["ours quick"][:n]  # the first copy's (the others are the same questions)
    print(f"{n:,} positions from {path.name}; CPU time per program with its start-up on one position subtracted "
          f"(quick modes: the file {copies} times over in one run, medians of {repeat} runs)")
    for name in runs:
        cpu = runs[name][0] / (copies if "quick" in name else 1)  # per pass over the file
        if name == "CHA full":
            decided = sum(v in ("winnable", "unwinnable") for v in cha_full)
            found = f"decided {decided:,}, unwinnable {sum(v == 'unwinnable' for v in cha_full):,}"
        elif name == "CHA quick":
            found = f"unwinnable {cha_quick_unwinnable:,} (the rest 'probably winnable')"
        else:
            got = answers[name]
            decided = sum(a["verdict"] != "undetermined" for a in got)
            found = (f"decided {decided:,}, cannot {sum(a['verdict'] == 'cannot' for a in got):,}, "
                     f"can {sum(a['verdict'] == 'can' for a in got):,}")
        print(f"{name:<11} {cpu:8.3f} s CPU  {rate[name]:12,.0f} positions/CPU-s  {found}")
    print(f"ratio full:  ours {rate['ours full'] / rate['CHA full']:.2f}x CHA's rate (target >= 2)")
    print(f"ratio quick: ours {rate['ours quick'] / rate['CHA quick']:.2f}x CHA's rate (target >= 1)")
    for name in ("ours full", "ours quick"):
        wrong = sum(1 for a, row in zip(answers[name], rows)
                    if (a["verdict"], row.verdict) in (("can", "unwinnable"), ("cannot", "winnable")))
        differ = sum(1 for a, theirs in zip(answers[name], cha_full)
                     if (a["verdict"], theirs) in (("can", "unwinnable"), ("cannot", "winnable")))
        print(f"{name}: answers {len(answers[name]):,} of {n:,}, wrong against the file's CHA column: {wrong}, "
              f"against this run's CHA full: {differ}")
    full_cannot = {a["input_line"] for a in answers["ours full"] if a["verdict"] == "cannot"}
    quick_cannot = {a["input_line"] for a in answers["ours quick"] if a["verdict"] == "cannot"}
    print(f"unwinnable found by full mode: {len(full_cannot)}, of them by quick mode: {len(full_cannot & quick_cannot)}")
    bad = 0
    lines = 0
    for name in ("ours full", "ours quick"):
        for a in answers[name]:
            if a["verdict"] != "can":
                continue
            lines += 1
            board = chess.Board(a["fen"])
            try:
                for uci in a["line_uci"]:
                    board.push_uci(uci)
                ok = board.is_checkmate() and chess.COLOR_NAMES[board.turn] != a["side"]
            except ValueError:
                ok = False
            bad += not ok
    print(f"can lines replayed by python-chess: {lines:,}, not ending in the asked side's mate: {bad}")


# --- nodes per second: the compiled core against python-chess ------------------------


def _py_moves_made(board: chess.Board, depth: int) -> int:
    """Moves pushed by a full legal-move perft (every ply made and unmade)."""
    made = 0
    for move in board.legal_moves:
        board.push(move)
        made += 1
        if depth > 1:
            made += _py_moves_made(board, depth - 1)
        board.pop()
    return made


def _rate(work: Callable[[], int]) -> tuple[int, float]:
    began = time.process_time()
    count = work()
    return count, count / max(time.process_time() - began, 1e-9)


def bench_nodes(rows: list[Row], node_limit: int | None) -> None:
    rows = rows[:: -(-len(rows) // NODE_POSITIONS)]
    rules = load_ruleset(RULESET)
    limit = node_limit if node_limit is not None else flag_fall_node_limit(rules)
    boards = [Board.from_fen(row.fen, rules) for row in rows]
    winners = [WHITE if row.side == "white" else BLACK for row in rows]
    ours = [chess.Board(row.fen) for row in rows]
    print(f"nodes per CPU-second on {len(rows):,} positions (helpmate node limit {limit:,})")
    native.perft(boards[0], 1)  # pack the tables once, outside the timing
    search, search_rate = _rate(lambda: sum(native.helpmate(b, w, limit).nodes for b, w in zip(boards, winners)))
    made, made_rate = _rate(lambda: sum(_py_moves_made(b, PY_DEPTH) for b in ours))
    print(f"{'compiled helpmate search':<34} {search:>14,} moves made  {search_rate:14,.0f} /CPU-s")
    print(f"{f'python-chess push/pop, depth {PY_DEPTH}':<34} {made:>14,} moves made  {made_rate:14,.0f} /CPU-s"
          f"   ratio {search_rate / made_rate:,.1f}x")
    leaves, leaves_rate = _rate(lambda: sum(native.perft(b, NATIVE_DEPTH) for b in boards))
    py_leaves, py_rate = _rate(lambda: sum(python_chess_perft(b, PY_DEPTH + 1) for b in ours))
    print(f"{f'compiled perft, depth {NATIVE_DEPTH}':<34} {leaves:>14,} leaves      {leaves_rate:14,.0f} /CPU-s")
    print(f"{f'python-chess perft, depth {PY_DEPTH + 1}':<34} {py_leaves:>14,} leaves      {py_rate:14,.0f} /CPU-s"
          f"   ratio {leaves_rate / py_rate:,.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node-limit", type=int, default=None,
                        help=f"search budget per colour (labelled: {LABELLED_NODE_LIMIT}; lichess: the "
                        f"{RULESET} flag-fall table's)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    parser.add_argument("--lichess", type=Path, default=None, metavar="FILE",
                        help="run a lichess-timeouts file (flag falls with CHA's verdicts) [--against-cha: default "
                        f"${LICHESS_VARIABLE}]")
    parser.add_argument("--nodes", action="store_true",
                        help="nodes per CPU-second of the compiled core against python-chess, on the "
                        "--lichess rows (default: the shipped sample)")
    parser.add_argument("--against-cha", action="store_true",
                        help="CHA and arbiter unwinnable --batch as subprocesses on the same positions, "
                        "full and quick (--lichess FILE, --cha PATH)")
    parser.add_argument("--cha", type=Path, default=None, help=f"--against-cha: CHA's binary [default: ${CHA_VARIABLE}]")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="--against-cha: our worker processes")
    parser.add_argument("--repeat", type=int, default=5,
                        help="--against-cha: runs of each quick mode (and of its start-up) whose median counts")
    parser.add_argument("--copies", type=int, default=QUICK_COPIES,
                        help="--against-cha: times the quick modes answer the file over in one run")
    args = parser.parse_args()
    if args.against_cha:
        if args.copies < 1 or args.repeat < 1:
            parser.error("--copies and --repeat must be at least 1")
        cha = _given(args.cha, CHA_VARIABLE, "CHA's binary", "--cha")
        lichess = _given(args.lichess, LICHESS_VARIABLE, "a lichess-timeouts file", "--lichess")
        try:
            bench_against_cha(lichess, cha, args.jobs, args.repeat, args.copies)
        except ArbiterError as error:
            raise SystemExit(f"bench_unwinnability: {error}") from None
        return
    if args.lichess is not None or args.nodes:
        path = args.lichess or SAMPLE
        if not path.is_file():
            parser.error(f"--lichess: no such file: {path}")
        try:
            rows = load_lichess(path, args.limit)
        except ArbiterError as error:
            raise SystemExit(f"bench_unwinnability: {error}") from None
        if args.lichess is not None:
            bench_lichess(rows, args.node_limit)
        if args.nodes:
            bench_nodes(rows, args.node_limit)
        return
    node_limit = LABELLED_NODE_LIMIT if args.node_limit is None else args.node_limit
    rows = load(args.limit)
    counts = "  ".join(f"{c} {sum(1 for label, _ in rows if label == c)}" for c in CLASSES)
    print(f"{len(rows)} labelled positions ({counts}); share of (position, colour) questions decided:")
    measure("python-chess material", python_chess, rows)
    measure("reference static", reference(0), rows)
    measure(f"reference {node_limit} nodes", reference(node_limit), rows)


if __name__ == "__main__":
    main()
