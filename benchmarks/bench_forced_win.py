"""US Chess 14E2's forced win: the compiled solver against its specification, the interpreter's.

The questions are the ones the ruling asks: the positions of
``conformance/tools/generate/data/forced-win-mates.txt`` (forced mates of 5 to 12 moves by a
lone knight or bishop, Stockfish-verified, and positions without one), the US Chess flag
falls of the corpus whose opponent has king and knight, bishop or two knights
(``--corpus``), each for the flagged player's opponent. Both answer each question with the
same budget (``--nodes``, the interpreter's old ruling budget by default), in one
process, timed with ``time.process_time``; printed: per question the verdicts, moves made
and CPU of both, then the totals, the share each decided, moves per CPU-second and the
ratio of CPU. A verdict the two decide differently would be a bug and is reported (the
tests assert there is none). Run::

    python benchmarks/bench_forced_win.py [--nodes 150000] [--corpus] [--compiled-only]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reference_impl import Board, load_ruleset  # noqa: E402
from reference_impl.rules.limits import limits_of  # noqa: E402
from reference_impl.unwinnability import forced_win  # noqa: E402

MATES_FILE = ROOT / "conformance" / "tools" / "generate" / "data" / "forced-win-mates.txt"
#: The interpreter's ruling budget before the compiled solver.
OLD_BUDGET = 150_000


def data_questions() -> list[tuple[str, int]]:
    """(FEN, winner) per line of the data file: the flagged player is the side to move."""
    out = []
    for line in MATES_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            fen, flagged = line.split(";")[:2]
            out.append((fen, 1 if flagged == "white" else 0))
    return out


def corpus_questions() -> list[tuple[str, int]]:
    """(FEN, winner) of the corpus's US Chess timeout fixtures whose flagged player's
    opponent has king and knight, bishop or two knights (14E2, 14E3's material)."""
    from conformance.harness.fixtures import load

    seen: dict[tuple[str, int], None] = {}
    for fixture in load().fixtures:
        rulesets = fixture["rulesets"]
        if fixture["kind"] != "timeout" or not ("*" in rulesets or any(r.startswith("uscf") for r in rulesets)):
            continue
        fen, flagged = fixture["input"]["fen"], fixture["input"]["flagged"]
        board = chess.Board(fen)
        winner = chess.BLACK if flagged == "white" else chess.WHITE
        units = sorted(p.piece_type for p in board.piece_map().values() if p.color == winner and p.piece_type != chess.KING)
        if units in ([chess.KNIGHT], [chess.BISHOP], [chess.KNIGHT, chess.KNIGHT]):
            seen[fen, 0 if winner == chess.WHITE else 1] = None
    return list(seen)


def timed(ask, board: Board, winner: int, nodes: int) -> tuple[forced_win.ForcedMate, float]:
    forced_win.clear_cache()
    began = time.process_time()
    found = ask(board, winner, None, nodes)
    return found, time.process_time() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=OLD_BUDGET, help="moves made per question, for both")
    parser.add_argument("--corpus", action="store_true", help="also the corpus's 14E2 and 14E3 flag falls")
    parser.add_argument("--compiled-only", action="store_true",
                        help="the compiled solver alone (the specification takes minutes on the corpus)")
    args = parser.parse_args()
    rules = load_ruleset("uscf-7")
    questions = data_questions() + (corpus_questions() if args.corpus else [])
    totals = {"compiled": [0, 0.0, 0], "specification": [0, 0.0, 0]}  # moves, CPU s, decided
    mismatches = 0
    print(f"{len(questions)} questions, {args.nodes:,} moves each (the ruling's: "
          f"{limits_of(rules).forced_win.node_limit:,})")
    for fen, winner in questions:
        board = Board.from_fen(fen, rules)
        row = [fen, "white" if winner == 0 else "black"]
        answers = {}
        for name, ask in (("compiled", forced_win.forced_mate), ("specification", forced_win.specification)):
            if name == "specification" and args.compiled_only:
                continue
            found, seconds = timed(ask, board, winner, args.nodes)
            answers[name] = found.found
            totals[name][0] += found.nodes
            totals[name][1] += seconds
            totals[name][2] += found.found is not None
            row.append(f"{name} {found.found!s:5} {found.nodes:>9,} moves {seconds:7.3f} s")
        if None not in answers.values() and len(set(answers.values())) > 1:
            mismatches += 1
            row.append("MISMATCH")
        print("  ".join(row))
    for name, (moves, seconds, decided) in totals.items():
        if seconds:
            print(f"{name:14} decided {decided}/{len(questions)}, {moves:,} moves in {seconds:.2f} s of CPU, "
                  f"{moves / seconds:,.0f} moves per CPU-second")
    spec, compiled = totals["specification"][1], totals["compiled"][1]
    if spec and compiled:
        print(f"CPU: the compiled solver takes {compiled / spec:.3f} of the specification's ({spec / compiled:.0f}x faster); "
              f"moves per CPU-second {totals['compiled'][0] / compiled / (totals['specification'][0] / spec):.0f}x")
    print(f"verdicts decided differently: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
