"""US Chess 14E "forced win": can a side force checkmate against any defence?

US Chess 14E2 and 14E3 give a draw on time against K+B, K+N or K+N+N only when that
side "does not have a forced win". This module answers the bounded question: does
``color`` have a checkmate within ``max_plies`` plies against every defence? The
bound is a ruleset parameter (the adjudication tables state it and cite 14E); it is
taken here as an argument.

The search is a depth-first AND/OR search by iterative deepening on the mate distance:
at the winner's turns one move must work, at the defender's turns every move must
fail to escape. A transposition table keyed by the position remembers, per position,
the deepest bound proven to fail and the shallowest proven to succeed. Two cheap
proofs cut it short: the static unwinnability stage (a side that can never mate has
no forced win, checked at the root and after each capture by the defender), and the
winner's last move before the bound only matters if it mates.

``True`` is a proof (a forced mate exists within the bound), ``False`` is a proof
(none within the bound), ``None`` means the node budget ran out first.
"""

from __future__ import annotations

from ..core.board import Board
from ..core.squares import color_of
from .search import Budget, BudgetExhausted, static_proofs

#: Moves made before the search gives up and answers ``None``.
DEFAULT_NODE_LIMIT = 2_000_000


class _MateSearch:
    """A bounded forced-mate search for ``winner`` on a private copy of the board."""

    def __init__(self, board: Board, winner: int, budget: Budget) -> None:
        self.board = board.copy(stack=False)
        self.winner = winner
        self.budget = budget
        self.failed: dict[tuple, int] = {}  # position -> deepest bound proven to fail
        self.solved: dict[tuple, int] = {}  # position -> shallowest bound proven to mate

    def _winner_order(self, moves: list[int]) -> list[int]:
        """Checks first, then captures: the usual shape of a forced mate."""
        board = self.board

        def score(code: int) -> int:
            capture = board.is_capture_code(code)
            board.push_code(code)
            check = board.is_check()
            board.pop_code()
            return (2 if check else 0) + (1 if capture else 0)

        return sorted(moves, key=score, reverse=True)

    def wins(self, plies: int) -> bool:
        """Can the winner force mate within ``plies`` plies from the current position?"""
        board = self.board
        key = board.position_key()
        if self.failed.get(key, -1) >= plies:
            return False
        if self.solved.get(key, 1 << 30) <= plies:
            return True
        result = self._winner_node(plies) if board.turn == self.winner else self._defender_node(plies)
        if result:
            self.solved[key] = min(plies, self.solved.get(key, 1 << 30))
        else:
            self.failed[key] = max(plies, self.failed.get(key, -1))
        return result

    def _winner_node(self, plies: int) -> bool:
        board = self.board
        if plies < 1:
            return False
        for code in self._winner_order(board.legal_codes()):
            self.budget.spend()
            board.push_code(code)
            try:
                if board.is_checkmate():
                    return True
                if plies >= 3 and self.wins(plies - 1):
                    return True
            finally:
                board.pop_code()
        return False

    def _defender_node(self, plies: int) -> bool:
        board = self.board
        moves = board.legal_codes()
        if not moves:
            return board.is_check()
        if plies < 2:
            return False
        # Captures first: taking a mating piece is the quickest refutation.
        moves.sort(key=lambda code: not board.is_capture_code(code))
        for code in moves:
            capture = board.is_capture_code(code)
            self.budget.spend()
            board.push_code(code)
            try:
                if capture and static_proofs(board, (self.winner,)):
                    return False
                if not self.wins(plies - 1):
                    return False
            finally:
                board.pop_code()
        return True


def has_forced_win(board: Board, color: int | str, max_plies: int, node_limit: int = DEFAULT_NODE_LIMIT) -> bool | None:
    """Forced checkmate for ``color`` within ``max_plies`` plies against any defence?

    ``True``/``False`` are proofs; ``None`` means the search hit ``node_limit`` first.
    """
    winner = color_of(color)
    if max_plies < 0:
        raise ValueError(f"max_plies must be >= 0, not {max_plies}")
    if board.turn != winner and not board.legal_move_count() and board.is_check():
        return True  # already mated
    if static_proofs(board, (winner,)):
        return False
    try:
        return _shortest_mate(board, winner, max_plies, node_limit) is not None
    except BudgetExhausted:
        return None


def forced_mate_distance(board: Board, color: int | str, max_plies: int, node_limit: int = DEFAULT_NODE_LIMIT) -> int | None:
    """The shortest forced-mate distance in plies for ``color`` (up to ``max_plies``), or
    ``None`` if there is none within the bound or the budget ran out."""
    try:
        return _shortest_mate(board, color_of(color), max_plies, node_limit)
    except BudgetExhausted:
        return None


def _shortest_mate(board: Board, winner: int, max_plies: int, node_limit: int) -> int | None:
    """Iterative deepening over the winner's move counts; raises BudgetExhausted."""
    search = _MateSearch(board, winner, Budget(node_limit))
    first = 1 if board.turn == winner else 2
    for plies in range(first, max_plies + 1, 2):
        if search.wins(plies):
            return plies
    return None
