"""The dynamic stages of the unwinnability analysis: searches over legal moves.

Two searches, both counting every move made as one node and giving up at a budget:

* :func:`explore` walks the *whole* space of positions reachable from the root (a
  transposition set makes it finite) and records every checkmate it meets. Finishing
  without a mate by a colour proves that colour can never mate: a proof, because every
  legal move of every visited position was followed. A subtree is skipped only when
  the static stage proves, at its root, that none of the colours still in question can
  mate there, which is itself a proof about every position below it. No draw rule cuts
  a line short: the Laws' question is "any series of legal moves" (FIDE 5.2.2, 6.9).
* :func:`helpmate` looks for a checkmate by one colour with both sides cooperating:
  iterative deepening with a transposition table, then a greedy best-first search. Move
  ordering is a heuristic (the mated king heads for the edge and the mating pieces,
  pawns promote, the mating side's pieces close in); it can only make a found line come
  sooner or later, never a wrong answer, because a found line is a real sequence of
  legal moves that ends in checkmate.

Both use the core's packed move ints (``movegen.legal_moves``, ``Board._push``/``_pop``)
for speed; the public ``Board.push`` looks each move up again.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Iterable

from ..core import movegen
from ..core.board import Board
from ..core.squares import BLACK, WHITE
from .mate import cannot_mate
from .static import Placement, analyse_static, piece_attacks

#: Deepest iteration of the iterative deepening, in plies (a small closed space would
#: otherwise be searched again and again).
MAX_DEEPENING = 41
#: Share of a helpmate budget spent on iterative deepening before the best-first search.
DEEPENING_SHARE = 0.3
#: Weight of a line's length against the heuristic in the best-first search.
BEST_FIRST_DEPTH_WEIGHT = 0.2
#: Weight of each free square of the loser's king in the best-first heuristic.
FREE_SQUARE_WEIGHT = 6


class BudgetExhausted(Exception):
    """The node budget ran out."""


@dataclass
class Budget:
    """Nodes (moves made) allowed and used."""

    limit: int
    used: int = 0

    def spend(self) -> None:
        self.used += 1
        if self.used > self.limit:
            raise BudgetExhausted


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


def static_proofs(board: Board, colors: Iterable[int]) -> set[int]:
    """The colours among ``colors`` that the static stage proves can never mate."""
    placement = placement_of(board)
    analysis = analyse_static(placement)
    return {c for c in colors if cannot_mate(placement, analysis, c)}


def line_to_uci(board: Board, codes: list[int]) -> list[str]:
    """UCI strings of a line of packed moves played from ``board`` (left unchanged)."""
    replay = board.copy(stack=False)
    out = []
    for code in codes:
        move = replay._to_move(code)
        out.append(replay.uci(move))
        replay._push(code)
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
        moves = movegen.legal_moves(work)
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
                    work._pop()
                continue
            stack[-1] = (moves, index + 1)
            code = moves[index]
            zeroing = code >> 16 != movegen.FLAG_CASTLE and (
                work.mailbox[code >> 6 & 63] >= 0 or work.mailbox[code & 63] & 15 == work.tables.pawn
            )
            budget.spend()
            work._push(code)
            path.append(code)
            stack.append((enter(zeroing), 0))
        result.complete = not stack or not open_colors
    except BudgetExhausted:
        result.complete = False
    result.nodes = len(seen)
    return result


def _distance(a: int, b: int) -> int:
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


#: King-step distance between two squares, looked up (the heuristic's hot loop).
_DISTANCE = [[_distance(a, b) for b in range(64)] for a in range(64)]


def _edge_distance(sq: int) -> int:
    f, r = sq & 7, sq >> 3
    return min(f, 7 - f, r, 7 - r)


def _corner_distance(sq: int) -> int:
    f, r = sq & 7, sq >> 3
    return max(min(f, 7 - f), min(r, 7 - r))


class _Helpmate:
    """Search state for :func:`helpmate`: the board, the winner, the budget."""

    def __init__(self, board: Board, winner: int, budget: Budget) -> None:
        self.board = board.copy(stack=False)
        self.winner = winner
        self.budget = budget
        self.line: list[int] = []
        tables = board.tables
        self.royal = tables.types[tables.royal]
        # Prefer promotions to the pieces that attack most (computed, not named).
        self.promotion_rank = {
            t + 1: bin(piece_attacks(tables.types[t], WHITE, 27, 0)).count("1") for t in tables.promotion_types
        }
        self.tt: dict[tuple, int] = {}
        promotion = _squares(tables.promotion_ranks[winner])
        self.promotion_distance = [min((_DISTANCE[sq][p] for p in promotion), default=0) for sq in range(64)]

    def _order(self, moves: list[int]) -> list[int]:
        board, winner = self.board, self.winner
        king_bb = board.bb[winner ^ 1][board.tables.royal]
        if not king_bb:
            return moves
        target = king_bb.bit_length() - 1
        royal = board.tables.royal
        mailbox = board.mailbox
        winner_moves = board.turn == winner

        def score(code: int) -> int:
            src, dst, promo = code & 63, code >> 6 & 63, code >> 12 & 15
            s = 20 + self.promotion_rank.get(promo, 0) if promo else 0
            captured = mailbox[dst] >= 0
            if winner_moves:
                s += (3 if captured else 0) - 2 * _DISTANCE[dst][target]
            elif mailbox[src] & 15 == royal:
                s -= 3 * _edge_distance(dst) + (6 if captured else 0)
            else:
                s -= _DISTANCE[dst][target] + (6 if captured else 0)
            return s

        return sorted(moves, key=score, reverse=True)

    def deepen(self, remaining: int) -> bool:
        """Depth-first search for a mate in exactly ``remaining`` plies (fills ``line``)."""
        board = self.board
        if remaining == 0:
            return board.turn != self.winner and board.is_checkmate()
        key = board.position_key()
        if self.tt.get(key, -1) >= remaining:
            return False
        for code in self._order(movegen.legal_moves(board)):
            self.budget.spend()
            board._push(code)
            self.line.append(code)
            if self.deepen(remaining - 1):
                return True
            self.line.pop()
            board._pop()
        self.tt[key] = remaining
        return False

    def distance_to_mate(self, board: Board) -> int:
        """Heuristic: how far ``board`` looks from a mate by the winner (smaller is closer).

        Counts the loser king's free squares, its distance from the edge and a corner,
        how far the winner's pieces (the king kept two squares away) and the loser's
        pieces (would-be blockers) are from it, and how far the winner's pawns must run.
        """
        tables = board.tables
        loser = self.winner ^ 1
        king_bb = board.bb[loser][tables.royal]
        if not king_bb:
            return 0
        target = king_bb.bit_length() - 1
        free = 0
        steps = piece_attacks(self.royal, loser, target, board.occupied) & ~board.occ_co[loser]
        while steps:
            bit = steps & -steps
            steps ^= bit
            if not movegen.attackers(board, self.winner, bit.bit_length() - 1, board.occupied):
                free += 1
        score = FREE_SQUARE_WEIGHT * free + 2 * _edge_distance(target) + _corner_distance(target)
        near = _DISTANCE[target]
        for type_index, bb in enumerate(board.bb[self.winner]):
            while bb:
                bit = bb & -bb
                bb ^= bit
                d = near[bit.bit_length() - 1]
                score += abs(d - 2) if type_index == tables.royal else d
        for type_index, bb in enumerate(board.bb[loser]):
            if type_index != tables.royal and type_index != tables.pawn:
                for sq in _squares(bb):
                    score += near[sq]
        if tables.pawn is not None:
            for sq in _squares(board.bb[self.winner][tables.pawn]):
                score += 2 * self.promotion_distance[sq]
        return score

    def best_first(self) -> bool:
        """Greedy best-first search on :meth:`distance_to_mate` (fills ``line``)."""
        root = self.board
        seen = {root.position_key()}
        counter = 0
        heap: list[tuple[float, int, Board, tuple[int, ...]]] = [(0.0, 0, root.copy(stack=False), ())]
        while heap:
            _, _, node, path = heapq.heappop(heap)
            for code in movegen.legal_moves(node):
                self.budget.spend()
                node._push(code)
                key = node.position_key()
                if key not in seen:
                    seen.add(key)
                    if node.turn != self.winner and node.is_checkmate():
                        self.line = list(path) + [code]
                        return True
                    counter += 1
                    priority = self.distance_to_mate(node) + BEST_FIRST_DEPTH_WEIGHT * (len(path) + 1)
                    heapq.heappush(heap, (priority, counter, node.copy(stack=False), path + (code,)))
                node._pop()
        return False


def _squares(bb: int) -> list[int]:
    out = []
    while bb:
        bit = bb & -bb
        bb ^= bit
        out.append(bit.bit_length() - 1)
    return out


def helpmate(board: Board, winner: int, budget: Budget) -> list[int] | None:
    """A line of packed moves after which ``winner`` has checkmated, or ``None``.

    Iterative deepening finds short mates exhaustively (up to ``DEEPENING_SHARE`` of the
    budget); a greedy best-first search then follows the heuristic to longer ones.
    Raises :class:`BudgetExhausted` if the budget runs out first.
    """
    if not movegen.legal_moves(board):
        return [] if board.turn != winner and board.is_check() else None
    state = _Helpmate(board, winner, budget)
    deepening_limit = budget.used + int((budget.limit - budget.used) * DEEPENING_SHARE)
    depth = 1 if board.turn == winner else 2
    saved = budget.limit
    budget.limit = deepening_limit
    try:
        while depth <= MAX_DEEPENING:
            if state.deepen(depth):
                return state.line
            depth += 2
    except BudgetExhausted:
        state.board = board.copy(stack=False)
        state.line = []
    budget.limit = saved
    if state.best_first():
        return state.line
    return None
