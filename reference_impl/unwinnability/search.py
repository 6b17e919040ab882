"""The interpreter's searches for the unwinnability analysis.

* :func:`explore` walks the *whole* space of positions reachable from the root (a
  transposition set keyed by the Laws' position identity makes it finite) and records
  every checkmate it meets. Finishing without a mate by a colour proves that colour can
  never mate: a proof, because every legal move of every visited position was followed.
  A subtree is skipped only when the static stage proves, at its root, that none of the
  colours still in question can mate there, which is itself a proof about every position
  below it. No draw rule cuts a line short: the Laws' question is "any series of legal
  moves" (FIDE 5.2.2, 6.9). Each move made counts as one node of a :class:`Budget`.
* :func:`static_proofs` runs the static stage (:mod:`.static`, :mod:`.mate`).

The helpmate search itself is compiled (:mod:`.native`); its lines are replayed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..core import codes
from ..core.board import Board
from ..core.squares import square_name
from ..core.squares import BLACK, WHITE
from .mate import cannot_mate
from .static import Placement, analyse_static


class BudgetExhausted(Exception):
    """The node budget ran out."""


@dataclass
class Budget:
    """Nodes (moves made) allowed and used."""

    limit: int
    used: int = 0

    def spend(self) -> None:
        if self.used >= self.limit:
            raise BudgetExhausted
        self.used += 1


def placement_of(board: Board) -> Placement:
    """The static stage's view of ``board``."""
    tables = board.tables
    pieces = {}
    for color in (WHITE, BLACK):
        for type_index, bb in enumerate(board.bb[color]):
            if bb:
                pieces[(type_index, color)] = bb
    ep = board.ep_square if board.ep_square >= 0 and board.has_legal_en_passant() else None
    return Placement(tables, pieces, ep, board.castling_rights)


def move_layer_key(board: Board) -> str:
    """The move layer as far as this position can tell, for keeping answers: rulesets
    that differ only in castling (Chess960 and standard) play the same game once no
    castling right is left."""
    tables = board.tables
    if board.castling_rights:
        return tables.signature
    return tables.signature_without_castling


def static_proofs(board: Board, colors: Iterable[int]) -> set[int]:
    """The colours among ``colors`` that the static stage proves can never mate."""
    placement = placement_of(board)
    analysis = analyse_static(placement)
    return {c for c in colors if cannot_mate(placement, analysis, c)}


def code_uci(board: Board, code: int) -> str:
    """The UCI text of the packed move ``code`` (castling per the ruleset's ``castling.uci``),
    without looking the move up again."""
    origin, target = codes.origin(code), codes.target(code)
    castling = board.tables.castling
    if codes.is_castling(code) and castling is not None and not castling.uci_king_takes_rook:
        side = next(s for s in castling.sides if s.king_side == (target > origin))
        target = (origin & ~7) + side.king_to_file
    promoted = codes.promotion_type(code)
    letter = board.tables.types[promoted].letter.lower() if promoted is not None else ""
    return square_name(origin) + square_name(target) + letter


def line_to_uci(board: Board, line: list[int]) -> list[str]:
    """UCI strings of a line of packed moves played from ``board`` (left unchanged)."""
    replay = board.copy(stack=False)
    out = []
    for code in line:
        out.append(code_uci(replay, code))
        replay.push_code(code)
    return out


@dataclass
class Exploration:
    """What :func:`explore` found: a mating line per colour, and whether it finished."""

    complete: bool
    mates: dict[int, list[int]] = field(default_factory=dict)
    nodes: int = 0


def explore(board: Board, colors: set[int], budget: Budget) -> Exploration:
    """Visit every position reachable from ``board`` until each of ``colors`` has mated
    once, the space is exhausted (``complete``), or the budget runs out."""
    open_colors = set(colors)
    result = Exploration(complete=False)
    seen: set[tuple] = set()
    path: list[int] = []
    stack: list[tuple[list[int], int]] = []
    work = board.copy(stack=False)

    def enter(zeroing: bool) -> list[int]:
        key = work.position_key()
        if key in seen:
            return []
        seen.add(key)
        moves = work.legal_codes()
        if not moves:
            if work.is_check():
                winner = work.turn ^ 1
                if winner in open_colors:
                    result.mates[winner] = list(path)
                    open_colors.discard(winner)
            return []
        if zeroing and static_proofs(work, open_colors) == open_colors:
            return []
        return moves

    try:
        stack.append((enter(False), 0))  # the caller ran the static stage on the root
        while stack and open_colors:
            moves, index = stack[-1]
            if index == len(moves):
                stack.pop()
                if path:
                    path.pop()
                    work.pop_code()
                continue
            stack[-1] = (moves, index + 1)
            code = moves[index]
            zeroing = work.is_zeroing_code(code)
            budget.spend()
            work.push_code(code)
            path.append(code)
            stack.append((enter(zeroing), 0))
        result.complete = not stack or not open_colors
    except BudgetExhausted:
        result.complete = False
    result.nodes = len(seen)
    return result
