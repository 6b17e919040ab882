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
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable

import chess

from reference_impl import BLACK, WHITE, Board, load_ruleset
from reference_impl.unwinnability import Verdict, analyse_both

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "unwinnability" / "labelled.txt"
CLASSES = ("--", "W-", "-B", "WB")

Answer = dict[int, Verdict]


def load(limit: int | None) -> list[tuple[str, str]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            label, fen = line.split(None, 1)
            fen = fen.strip()
            rows.append((label, fen + (" 0 1" if len(fen.split()) == 4 else "")))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node-limit", type=int, default=5000, help="search budget per colour")
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    args = parser.parse_args()
    rows = load(args.limit)
    counts = "  ".join(f"{c} {sum(1 for label, _ in rows if label == c)}" for c in CLASSES)
    print(f"{len(rows)} labelled positions ({counts}); share of (position, colour) questions decided:")
    measure("python-chess material", python_chess, rows)
    measure("reference static", reference(0), rows)
    measure(f"reference {args.node_limit} nodes", reference(args.node_limit), rows)


if __name__ == "__main__":
    main()
