"""PGN reading speed: Arbiter's reader against python-chess's, same file, one run.

Both readers parse every game of ``benchmarks/data/random-300.pgn`` (300 seeded random
games with comments, NAGs and variations) down to legal moves: python-chess with
``chess.pgn.read_game`` (which parses each SAN move on a board), Arbiter with
``read_games`` plus ``replay`` (lenient SAN on the reference Board). Arbiter's text-only
stage (``read_games`` without replay) is printed too. Run::

    python benchmarks/bench_pgn.py [--repeat N] [--regenerate]

and read the ratio line (Arbiter games/s divided by python-chess games/s).
"""

from __future__ import annotations

import argparse
import io
import random
import time
from pathlib import Path

import chess
import chess.pgn

from reference_impl.notation.game import replay
from reference_impl.notation.pgn import read_games

DATA = Path(__file__).parent / "data" / "random-300.pgn"
SEED, GAMES = 2024, 300


def generate(path: Path = DATA, seed: int = SEED, games: int = GAMES) -> None:
    """Write ``games`` seeded random games (python-chess exporter) to ``path``."""
    rng = random.Random(seed)
    chunks = []
    for index in range(games):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers.update({"Event": "bench", "Round": str(index + 1), "White": "A", "Black": "B"})
        node = game
        for ply in range(rng.randrange(40, 160)):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            if ply % 17 == 5 and len(legal) > 1:  # a one-move variation
                node.add_variation(rng.choice([m for m in legal if m != move]))
            node = node.add_main_variation(move)
            if ply % 23 == 3:
                node.comment = "a comment"
            if ply % 19 == 7:
                node.nags.add(rng.choice([1, 2, 5, 6, 14]))
            board.push(move)
        outcome = board.outcome()
        game.headers["Result"] = outcome.result() if outcome else "*"
        chunks.append(str(game))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join(chunks) + "\n", encoding="utf-8")


def python_chess_read(text: str) -> int:
    stream, count = io.StringIO(text), 0
    while (game := chess.pgn.read_game(stream)) is not None:
        count += 1
        assert not game.errors
    return count


def arbiter_read(text: str, with_replay: bool) -> int:
    count = 0
    for game in read_games(text):
        count += 1
        if with_replay:
            assert replay(game).error is None
    return count


def best(fn, repeat: int) -> tuple[int, float]:
    times, count = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        count = fn()
        times.append(time.perf_counter() - started)
    return count, min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per reader (best time counts)")
    parser.add_argument("--regenerate", action="store_true", help="rewrite the data file first")
    args = parser.parse_args()
    if args.regenerate or not DATA.is_file():
        generate()
    text = DATA.read_text(encoding="utf-8")
    rows = {
        "python-chess read_game": best(lambda: python_chess_read(text), args.repeat),
        "arbiter read_games+replay": best(lambda: arbiter_read(text, True), args.repeat),
        "arbiter read_games (text only)": best(lambda: arbiter_read(text, False), args.repeat),
    }
    for name, (count, seconds) in rows.items():
        print(f"{name:32} {count:5d} games  {seconds:7.3f} s  {count / seconds:9.1f} games/s")
    base = rows["python-chess read_game"]
    for name in ("arbiter read_games+replay", "arbiter read_games (text only)"):
        count, seconds = rows[name]
        print(f"ratio {name} / python-chess: {(count / seconds) / (base[0] / base[1]):.2f}")


if __name__ == "__main__":
    main()
