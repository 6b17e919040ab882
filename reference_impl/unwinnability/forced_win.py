"""US Chess 14E "forced win": can a side force checkmate against any defence?

US Chess 14E2 and 14E3 give a draw on time against K+B, K+N or K+N+N only when that
side "does not have a forced win", a phrase with no bound. :func:`forced_mate` answers
two questions:

* ``max_plies=None`` (the ruling's): a forced mate at any distance; the only bound is
  the node budget, and with ``move_rule_plies`` the mate must land before the defender
  could have the game drawn by the move rule;
* ``max_plies`` a number: the shortest forced mate within that many plies, for exact
  mate distances.

:func:`forced_mate` asks the compiled solver (``csrc/forced_win.c``, through
:func:`.native.forced_win`); this module's own searches are its specification
(:func:`specification`), and a differential test holds the two to the same verdicts.
The specification's searches:

* the bounded question: a depth-first AND/OR search with iterative deepening on the
  mate distance (:class:`_MateSearch`);
* the unbounded question: that search for a mate of at most :data:`SHORT_PLIES` plies,
  then a proof-number search (:class:`_ProofNumberSearch`).

The compiled solver makes the same two passes move for move, then, where the budget is
left and neither decided, solves the game on the fly: the winner's positions expanded
whole, the defender's by one chosen move at a time, "won" spread backwards; when
nothing is left to expand and the root is not won, the positions not won form a set
the defender never has to leave and in which no checkmate lies, a proof that no forced
mate exists at any distance (whatever the repetitions: a forced mate never needs one).

The bounded search is made fast by

* a transposition table of proven bounds: per position, the deepest bound proven to
  fail and the shallowest proven to mate, plus the move that proved it (the mating
  move, or the defender's refutation), tried first at the next iteration;
* the winner's moves ordered checks first, then by the fewest replies left to the
  defender (each move is made once to count them, which also finds mates in one);
  at the winner's last move only a mating move counts;
* the defender's replies ordered by the remembered refutation, then captures, then the
  king's moves to squares with the most room;
* the static unwinnability proof (compiled: :func:`.native.static_stage`) after every capture or
  promotion: a position in which the winner can never mate ends that line.

``True`` is a proof (a forced mate exists, within the bound if one is given), ``False``
is a proof (none, within the bound if one is given), ``None`` means not decided: the
node budget ran out first, or the mate found could run past the move rule.
"""

from __future__ import annotations

from collections.abc import Callable

from reference_impl.records import record

from ..core import codes
from ..core.board import Board
from ..core.squares import color_of
from . import native
from ..kept import KeptAnswers
from .search import Budget, BudgetExhausted, move_layer_key

#: Answers kept (US Chess rulesets that share a move layer ask the same question; the
#: search is the interpreter's, so asking twice costs).
_CACHE: KeptAnswers["ForcedMate"] = KeptAnswers(4096)

#: The unbounded question looks for a mate of at most ``SHORT_PLIES`` plies first, with
#: the bounded search and at most ``SHORT_SHARE`` of the budget.
SHORT_PLIES, SHORT_SHARE = 9, 0.25
#: The compiled solver's proof-number search gets at most this share of the budget (it
#: finds long forced mates in few moves); the game solved on the fly gets the rest.
PROOF_NUMBER_SHARE = 0.5

#: "No bound proven" markers of the transposition table.
_NEVER, _UNBOUNDED = -1, 1 << 30


@record
class ForcedMate:
    """The outcome of a forced-mate search.

    ``found`` is ``True``/``False`` (proofs) or ``None`` (budget spent); ``plies`` the
    shortest forced-mate distance when found; ``line`` one mating line in UCI (the
    winner's moves against one defence); ``nodes`` the moves made."""

    found: bool | None
    plies: int | None
    line: tuple[str, ...]
    nodes: int


class _MateSearch:
    """A bounded forced-mate search for ``winner`` on a private copy of the board."""

    def __init__(self, board: Board, winner: int, budget: Budget) -> None:
        self.board = board.copy(stack=False)
        self.winner = winner
        self.budget = budget
        self.failed: dict[tuple, int] = {}  # position -> deepest bound proven to fail
        self.solved: dict[tuple, int] = {}  # position -> shallowest bound proven to mate
        self.best: dict[tuple, int] = {}  # position -> the move that proved the last bound

    def wins(self, plies: int) -> bool:
        """Can the winner force mate within ``plies`` plies from the current position?"""
        key = self.board.position_key()
        if self.failed.get(key, _NEVER) >= plies:
            return False
        if self.solved.get(key, _UNBOUNDED) <= plies:
            return True
        if self.board.turn == self.winner:
            result = self._winner_node(key, plies)
        else:
            result = self._defender_node(key, plies)
        if result:
            self.solved[key] = min(plies, self.solved.get(key, _UNBOUNDED))
        else:
            self.failed[key] = max(plies, self.failed.get(key, _NEVER))
        return result

    def _can_still_mate(self) -> bool:
        """False when the static stage proves the winner can never mate from here."""
        return not native.static_stage(self.board, (self.winner,))

    def _winner_node(self, key: tuple, plies: int) -> bool:
        board = self.board
        if plies < 1:
            return False
        remembered = self.best.get(key)
        candidates: list[tuple[int, int, int]] = []
        for code in board.legal_codes():
            self.budget.spend()
            material = board.is_capture_code(code) or code >> 12 & 15
            board.push_code(code)
            check = board.is_check()
            if not check and plies < 3:  # the last move must mate, so it must check
                board.pop_code()
                continue
            replies = board.legal_move_count()
            if check and not replies:
                board.pop_code()
                self.best[key] = code
                return True
            if plies >= 3 and replies and (not material or self._can_still_mate()):
                first = 0 if code == remembered else 1
                candidates.append((first, (0 if check else 64) + replies, code))
            board.pop_code()
        candidates.sort()
        for _, _, code in candidates:
            self.budget.spend()
            board.push_code(code)
            try:
                if self.wins(plies - 1):
                    self.best[key] = code
                    return True
            finally:
                board.pop_code()
        return False

    def _defender_node(self, key: tuple, plies: int) -> bool:
        board = self.board
        moves = board.legal_codes()
        if not moves:
            return board.is_check()
        if plies < 2:
            return False
        remembered = self.best.get(key)
        king = board.king(board.turn)

        def order(code: int) -> tuple[int, int]:
            if code == remembered:
                return (0, 0)
            if board.is_capture_code(code) or code >> 12 & 15:
                return (1, 0)
            if code & 63 == king:
                return (2, -_room(board, codes.target(code)))
            return (3, 0)

        moves.sort(key=order)
        for code in moves:
            self.budget.spend()
            material = board.is_capture_code(code) or code >> 12 & 15
            board.push_code(code)
            try:
                if (material and not self._can_still_mate()) or not self.wins(plies - 1):
                    self.best[key] = code
                    return False
            finally:
                board.pop_code()
        return True

    def line(self, plies: int) -> list[int]:
        """The mating line the table remembers from the current position (codes)."""
        board = self.board
        played: list[int] = []
        while plies > 0 and board.legal_move_count():
            code = self.best.get(board.position_key())
            if board.turn != self.winner or code is None:
                code = self._surviving_reply(plies)
            if code is None:
                break
            board.push_code(code)
            played.append(code)
            plies -= 1
        for _ in played:
            board.pop_code()
        return played

    def _surviving_reply(self, plies: int) -> int | None:
        """A defender reply after which the table holds a mate within ``plies - 1``."""
        board = self.board
        for code in board.legal_codes():
            board.push_code(code)
            solved = self.solved.get(board.position_key(), _UNBOUNDED) <= plies - 1 or (
                board.is_check() and not board.legal_move_count()
            )
            board.pop_code()
            if solved:
                return code
        return None


#: Proof and disproof numbers at a solved node (``INFINITE`` stands for "cannot be reached").
INFINITE = 1 << 40


class _Node:
    """One node of the proof-number tree: the move that leads to it, its proof and
    disproof numbers, its children once expanded, and (when solved) whether its
    disproof holds from any path (``clean``) and the plies to mate of its proof."""

    __slots__ = ("code", "pn", "dn", "children", "clean", "distance")

    def __init__(self, code: int, pn: int, dn: int) -> None:
        self.code = code
        self.pn = pn
        self.dn = dn
        self.children: list[_Node] | None = None
        self.clean = True
        self.distance = 0


class _ProofNumberSearch:
    """Proof-number search for an unbounded forced mate by ``winner`` (Allis 1994).

    The tree is grown at the most-proving node: at the winner's turn the child with the
    smallest proof number, at the defender's the child with the smallest disproof
    number. A new node with the defender to move has its legal replies as its proof
    number (few replies, a quick mate), one with the winner to move starts at 1 and 1
    (its moves are generated only when it is expanded).

    A position already on the path from the root counts as an escape for the defender
    there. That changes no answer: a shortest forced mate never returns to a position
    (the distance to mate falls with every ply), so the winner never needs a
    repetition. Proofs hold from any path and are kept by position in ``proven`` (with
    the plies to mate of the strategy found, and the winner's move); a disproof is kept
    by position only when no repetition took part in it (``clean``).
    """

    def __init__(self, board: Board, winner: int, budget: Budget) -> None:
        self.board = board.copy(stack=False)
        self.winner = winner
        self.budget = budget
        self.proven: dict[tuple, tuple[int, int]] = {}  # position -> (plies to mate, winner's move or -1)
        self.refuted: set[tuple] = set()  # positions with a path-independent disproof
        self.path: set[tuple] = set()

    def run(self) -> _Node:
        """Grow the tree until the root is proven or disproven (or the budget ends).

        Each round descends to the most-proving node, expands it and updates the nodes
        above it from their children, but only as far up as the numbers change: where a
        node's numbers stay the same, the most-proving node is still below it, and the
        next descent starts there (the board and the path stay on it)."""
        board, winner = self.board, self.winner
        root = _Node(-1, 1, 1)
        self.path.add(board.position_key())
        self._expand(root)
        stack = [root]
        while root.pn and root.dn:
            node = stack[-1]
            while node.children is not None:
                pick = _by_proof if board.turn == winner else _by_disproof
                node = min(node.children, key=pick)
                self.budget.spend()
                board.push_code(node.code)
                self.path.add(board.position_key())
                stack.append(node)
            before = (node.pn, node.dn)
            self._expand(node)
            while len(stack) > 1 and ((node.pn, node.dn) != before or not node.pn or not node.dn):
                stack.pop()
                self.path.discard(board.position_key())
                board.pop_code()
                node = stack[-1]
                before = (node.pn, node.dn)
                self._update(node, board.turn == winner)
        return root

    def _expand(self, node: _Node) -> None:
        """Make every legal move of the position on the board into a child."""
        board, winner = self.board, self.winner
        winner_to_move = board.turn == winner
        children: list[_Node] = []
        moves = board.legal_codes()
        if not moves:  # only the winner's turn comes here unexplored: mated or stalemated
            node.pn, node.dn, node.children = INFINITE, 0, None
            self.refuted.add(board.position_key())
            return
        for code in moves:
            self.budget.spend()
            material = board.is_capture_code(code) or code >> 12 & 15
            board.push_code(code)
            try:
                children.append(self._leaf(code, bool(material)))
            finally:
                board.pop_code()
            last = children[-1]
            if winner_to_move and not last.pn or not winner_to_move and not last.dn:
                break  # a mate found / an escape found: the node is solved
        node.children = children
        self._update(node, winner_to_move)

    def _leaf(self, code: int, material: bool) -> _Node:
        """A new child for the position just reached by ``code``."""
        board = self.board
        key = board.position_key()
        known = self.proven.get(key)
        if known is not None:
            child = _Node(code, 0, INFINITE)
            child.distance = known[0]
            return child
        if key in self.refuted:
            return _Node(code, INFINITE, 0)
        if key in self.path:
            child = _Node(code, INFINITE, 0)
            child.clean = False
            return child
        if material and native.static_stage(board, (self.winner,)):
            self.refuted.add(key)
            return _Node(code, INFINITE, 0)  # the winner can never mate from here
        if board.turn == self.winner:
            return _Node(code, 1, 1)  # its moves are counted when it is expanded
        # counted by the compiled generator; "no reply" (mate or stalemate) is confirmed
        # by the interpreter before it becomes part of a proof
        replies = native.perft(board, 1) or board.legal_move_count()
        if not replies:
            if board.turn != self.winner and board.is_check():
                self.proven[key] = (0, -1)
                return _Node(code, 0, INFINITE)
            self.refuted.add(key)
            return _Node(code, INFINITE, 0)  # stalemate
        return _Node(code, replies, 1)

    def line(self) -> tuple[int, list[int]]:
        """The proven strategy's plies to mate from the root, and one line of it (codes):
        the winner's recorded moves against the replies that hold out longest."""
        board = self.board
        plies = self.proven[board.position_key()][0]
        played: list[int] = []
        while board.legal_move_count():
            if board.turn == self.winner:
                move = self.proven.get(board.position_key(), (0, -1))[1]
            else:
                move = max(board.legal_codes(), key=self._distance_after)
            if move < 0:
                break
            board.push_code(move)
            played.append(move)
        for _ in played:
            board.pop_code()
        return plies, played

    def _distance_after(self, code: int) -> int:
        self.board.push_code(code)
        try:
            return self.proven.get(self.board.position_key(), (-1, -1))[0]
        finally:
            self.board.pop_code()

    def _update(self, node: _Node, winner_to_move: bool) -> None:
        """The numbers of ``node`` from its children; a solved node is recorded by position
        (the caller's board stands on it) and forgets its children."""
        children = node.children
        assert children is not None
        if winner_to_move:
            node.pn = min(c.pn for c in children)
            node.dn = min(INFINITE, sum(c.dn for c in children))
        else:
            node.pn = min(INFINITE, sum(c.pn for c in children))
            node.dn = min(c.dn for c in children)
        if node.pn == 0:
            key = self.board.position_key()
            if winner_to_move:
                best = min((c for c in children if not c.pn), key=_by_distance)
                node.distance, move = best.distance + 1, best.code
            else:
                node.distance, move = 1 + max(c.distance for c in children), -1
            known = self.proven.get(key)
            if known is None or known[0] > node.distance:
                self.proven[key] = (node.distance, move)
            node.children = None
        elif node.dn == 0:
            if winner_to_move:
                node.clean = all(c.clean for c in children)
            else:
                node.clean = any(c.clean for c in children if not c.dn)
            if node.clean:
                self.refuted.add(self.board.position_key())
            node.children = None


def _by_proof(node: _Node) -> int:
    return node.pn


def _by_disproof(node: _Node) -> int:
    return node.dn


def _by_distance(node: _Node) -> int:
    return node.distance


def _room(board: Board, square: int) -> int:
    """Distance of ``square`` from the nearest edge: kings near the middle escape mates."""
    file, rank = square & 7, square >> 3
    return min(file, 7 - file, rank, 7 - rank)


def forced_mate(board: Board, color: int | str, max_plies: int | None, node_limit: int,
                move_rule_plies: int | None = None) -> ForcedMate:
    """A forced mate for ``color``, spending at most ``node_limit`` moves made (the compiled
    solver; answers are kept).

    With ``max_plies`` a number, the shortest mate within that many plies (iterative
    deepening; ``False`` proves there is none so short). With ``max_plies=None``, a mate
    at any distance (``False`` proves there is none at all), and ``plies`` is the length
    of the strategy found, not necessarily the shortest. A ``move_rule_plies`` count (the
    move rule's plies without a capture or pawn move) requires the mate to land before
    the defender could claim or reach that draw: a strategy found that could run past it
    is no proof (``found`` is ``None``)."""
    winner = _winner(color, max_plies)
    key = (move_layer_key(board), board.position_key(), board.halfmove_clock, winner, max_plies, node_limit,
           move_rule_plies)
    hit = _CACHE.get(key)
    if hit is None:
        hit = _within_move_rule(board, _solve(board, winner, max_plies, node_limit, _compiled), move_rule_plies)
        _CACHE.put(key, hit)
    return hit


def specification(board: Board, color: int | str, max_plies: int | None, node_limit: int,
                  move_rule_plies: int | None = None) -> ForcedMate:
    """:func:`forced_mate` answered by this module's searches (the interpreter's moves,
    nothing kept): the specification the compiled solver is held to."""
    winner = _winner(color, max_plies)
    return _within_move_rule(board, _solve(board, winner, max_plies, node_limit, _specified), move_rule_plies)


def clear_cache() -> None:
    """Forget every answer kept."""
    _CACHE.clear()


def _winner(color: int | str, max_plies: int | None) -> int:
    if max_plies is not None and max_plies < 0:
        raise ValueError(f"max_plies must be >= 0, not {max_plies}")
    return color_of(color)


def _within_move_rule(board: Board, hit: ForcedMate, move_rule_plies: int | None) -> ForcedMate:
    """``hit``, or no proof (``found`` ``None``) when its mate could land after the move rule's
    draw (``move_rule_plies`` plies without a capture or pawn move, counted from the board's)."""
    if hit.found and move_rule_plies is not None and board.halfmove_clock + (hit.plies or 0) > move_rule_plies:
        return ForcedMate(None, hit.plies, hit.line, hit.nodes)
    return hit


def _solve(board: Board, winner: int, max_plies: int | None, node_limit: int,
           search: Callable[[Board, int, int | None, int], ForcedMate]) -> ForcedMate:
    """The answers that need no search (the game already over, the static proof), then ``search``."""
    if not board.legal_move_count():
        mated = board.turn != winner and board.is_check()
        return ForcedMate(mated, 0 if mated else None, (), 0)
    if native.static_stage(board, (winner,)):
        return ForcedMate(False, None, (), 0)
    return search(board, winner, max_plies, node_limit)


def _compiled(board: Board, winner: int, max_plies: int | None, node_limit: int) -> ForcedMate:
    """The compiled solver; a mating line it proposes is replayed by the interpreter."""
    found = native.forced_win(board, winner, max_plies, node_limit, short_plies=SHORT_PLIES,
                              short_limit=int(node_limit * SHORT_SHARE),
                              pns_limit=int(node_limit * PROOF_NUMBER_SHARE))
    if found.status < 0:
        return ForcedMate(None, None, (), node_limit)
    if found.status == 0:
        return ForcedMate(False, None, (), found.nodes)
    line = native.verified_line(board, tuple(found.line), winner)
    return ForcedMate(True, found.plies, tuple(line), found.nodes)


def _specified(board: Board, winner: int, max_plies: int | None, node_limit: int) -> ForcedMate:
    """This module's searches: the bounded one, or the unbounded question's two passes."""
    if max_plies is None:
        return _unbounded(board, winner, node_limit)
    search = _MateSearch(board, winner, Budget(node_limit))
    try:
        for plies in range(1 if board.turn == winner else 2, max_plies + 1, 2):
            if search.wins(plies):
                line = _uci_line(board, search.line(plies))
                return ForcedMate(True, plies, line, search.budget.used)
    except BudgetExhausted:
        return ForcedMate(None, None, (), search.budget.limit)
    return ForcedMate(False, None, (), search.budget.used)


def _unbounded(board: Board, winner: int, node_limit: int) -> ForcedMate:
    """A short mate first (the bounded search, on a share of the budget: best-first
    search can wander down long forcing lines before it sees a mate in two), then the
    proof-number search on what is left."""
    short = _MateSearch(board, winner, Budget(int(node_limit * SHORT_SHARE)))
    try:
        for plies in range(1 if board.turn == winner else 2, SHORT_PLIES + 1, 2):
            if short.wins(plies):
                return ForcedMate(True, plies, _uci_line(board, short.line(plies)), short.budget.used)
    except BudgetExhausted:
        pass
    spent = short.budget.used
    search = _ProofNumberSearch(board, winner, Budget(node_limit - spent))
    try:
        root = search.run()
    except BudgetExhausted:
        return ForcedMate(None, None, (), node_limit)
    if root.dn == 0:
        return ForcedMate(False, None, (), spent + search.budget.used)
    plies, played = search.line()
    return ForcedMate(True, plies, _uci_line(board, played), spent + search.budget.used)


def _uci_line(board: Board, codes: list[int]) -> tuple[str, ...]:
    replay = board.copy(stack=False)
    out = []
    for code in codes:
        out.append(replay.uci(replay.move_of(code)))
        replay.push_code(code)
    return tuple(out)


def has_forced_win(board: Board, color: int | str, max_plies: int | None, node_limit: int) -> bool | None:
    """Forced checkmate for ``color`` against any defence (within ``max_plies`` plies, or
    at any distance for ``None``)?

    ``True``/``False`` are proofs; ``None`` means the search hit ``node_limit`` first.
    """
    return forced_mate(board, color, max_plies, node_limit).found


def forced_mate_distance(board: Board, color: int | str, max_plies: int | None, node_limit: int) -> int | None:
    """The shortest forced-mate distance in plies for ``color`` (up to ``max_plies``; for
    ``None``, the length of the strategy found, not necessarily the shortest), or
    ``None`` if there is none within the bound or the budget ran out."""
    return forced_mate(board, color, max_plies, node_limit).plies
