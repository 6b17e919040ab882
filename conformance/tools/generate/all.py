"""Run every fixture generator: ``python -m conformance.tools.generate.all --data DIR --out DIR``.

The order is fixed and each generator is deterministic, so two runs give identical
files. The perft generator takes longest (every count is recomputed).
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import (articles, chess960_games, fen, forced_win, game_end, games, lichess, moves, perft, san,
               speed_games, start, unwinnable, uscf_discretionary)
from .common import Fixture, main

GENERATORS = (perft, moves, fen, san, start, unwinnable, forced_win, lichess, game_end, games,
              speed_games, uscf_discretionary, chess960_games, articles)


def build(data: Path) -> dict[str, list[Fixture]]:
    """Every generator's fixtures, file by file."""
    outputs: dict[str, list[Fixture]] = {}
    for module in GENERATORS:
        outputs.update(module.build(data))
    return outputs


if __name__ == "__main__":
    sys.exit(main("all", build))
