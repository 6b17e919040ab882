"""Perft speed: the reference interpreter against python-chess, same positions, one run.

Both count leaf nodes the same way: legal moves are generated down to the last ply,
where only their number is taken (python-chess: ``board.legal_moves.count()``; the
reference: a population count of the target sets). Run::

    python benchmarks/bench_perft.py [--repeat N]

and read the ratio line (reference nodes/s divided by python-chess nodes/s).
"""

from __future__ import annotations

import argparse
import time

import chess

from conformance.implementations.python_chess import oracle_perft
from reference_impl import Board, load_ruleset, perft

#: (name, FEN, depth, Chess960?) — the classic perft positions plus two Chess960 ones.
POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, False),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, False),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, False),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, False),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, False),
    ("pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, False),
    ("960-a", "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9", 3, True),
    ("960-b", "rbbqn1kr/pp2p1pp/6n1/2pp1p2/2P4P/P7/BP1PPPP1/R1BQNNKR w HAha - 0 9", 3, True),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per position (best time counts)")
    args = parser.parse_args()
    standard, chess960 = load_ruleset("fide-2023"), load_ruleset("fide-2023-chess960")
    totals = {"reference": [0, 0.0], "python-chess": [0, 0.0]}
    print(f"{'position':10} {'depth':>5} {'nodes':>10} {'reference n/s':>14} {'python-chess n/s':>17} {'ratio':>6}")
    for name, fen, depth, is960 in POSITIONS:
        ref_board = Board.from_fen(fen, chess960 if is960 else standard)
        best_ref = best_pc = float("inf")
        for _ in range(args.repeat):
            started = time.perf_counter()
            ref_nodes = perft(ref_board, depth)
            best_ref = min(best_ref, time.perf_counter() - started)
            pc_board = chess.Board(fen, chess960=is960)
            started = time.perf_counter()
            pc_nodes = oracle_perft(pc_board, depth)
            best_pc = min(best_pc, time.perf_counter() - started)
        if ref_nodes != pc_nodes:
            raise SystemExit(f"{name}: node counts differ: reference {ref_nodes}, python-chess {pc_nodes}")
        totals["reference"][0] += ref_nodes
        totals["reference"][1] += best_ref
        totals["python-chess"][0] += pc_nodes
        totals["python-chess"][1] += best_pc
        print(
            f"{name:10} {depth:>5} {ref_nodes:>10} {ref_nodes / best_ref:>14,.0f} "
            f"{pc_nodes / best_pc:>17,.0f} {best_pc / best_ref:>6.2f}"
        )
    ref_rate = totals["reference"][0] / totals["reference"][1]
    pc_rate = totals["python-chess"][0] / totals["python-chess"][1]
    print(f"{'total':10} {'':>5} {totals['reference'][0]:>10} {ref_rate:>14,.0f} {pc_rate:>17,.0f} {ref_rate / pc_rate:>6.2f}")
    print(f"ratio reference / python-chess {chess.__version__}: {ref_rate / pc_rate:.2f}x")


if __name__ == "__main__":
    main()
