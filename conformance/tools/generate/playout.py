"""Seeded random playouts: the source of "random" positions and move sequences.

A playout starts from the standard array (or a Chess960 array chosen by the same
generator) and plays uniformly random legal moves. Python-chess lists legal moves in
a fixed order, so a seed always gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import chess


@dataclass(frozen=True)
class Sample:
    """A position reached by a playout: where it started, and the moves played."""

    key: str  # stable name, e.g. "s42-0017"
    start_fen: str
    chess960: bool
    moves: tuple[chess.Move, ...]

    def board(self) -> chess.Board:
        """The position after the moves (move stack kept, for repetition rules)."""
        board = chess.Board(self.start_fen, chess960=self.chess960)
        for move in self.moves:
            board.push(move)
        return board

    def start(self) -> chess.Board:
        """The starting position, no moves played."""
        return chess.Board(self.start_fen, chess960=self.chess960)


def playout(rng: random.Random, start: chess.Board, plies: int) -> list[chess.Move]:
    """Up to ``plies`` random legal moves from ``start`` (stops when no move is legal)."""
    board = start.copy(stack=False)
    moves: list[chess.Move] = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves


def random_samples(seed: int, count: int, max_plies: int,
                   chess960: bool = False) -> Iterator[Sample]:
    """``count`` positions, each from its own playout of 0..max_plies plies."""
    rng = random.Random(seed)
    for index in range(count):
        if chess960:
            start = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            start = chess.Board()
        moves = playout(rng, start, rng.randint(0, max_plies))
        yield Sample(f"s{seed}-{index:04d}", start.fen(), chess960, tuple(moves))


def find_samples(seed: int, want: int, wanted: Callable[[chess.Board], bool],
                 max_plies: int = 200, chess960: bool = False,
                 max_games: int = 20_000) -> list[Sample]:
    """The first ``want`` positions of seeded playouts for which ``wanted`` holds.

    Each game contributes at most one position, so the samples are varied.
    """
    rng = random.Random(seed)
    found: list[Sample] = []
    for game in range(max_games):
        if len(found) >= want:
            break
        start = (chess.Board.from_chess960_pos(rng.randrange(960)) if chess960
                 else chess.Board())
        board = start.copy()
        for _ in range(max_plies):
            if wanted(board):
                found.append(Sample(f"s{seed}-g{game:05d}", start.fen(), chess960,
                                    tuple(board.move_stack)))
                break
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
    return found
