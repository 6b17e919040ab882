"""Can a side checkmate by *any* series of legal moves? Dead positions and FIDE 6.9.

FIDE 5.2.2 calls a position dead when "neither player can checkmate the opponent's
king with any series of legal moves"; FIDE 6.9 (and 5.1.2, 7.5.5 in 2023) asks the
one-sided question for the opponent of a player whose flag fell. Both are helpmate
questions, not material counts. Three answers, never a guess:

* ``CANNOT`` is a proof: the static stage (frozen pawns and pieces, regions, the
  conditions of a mate square; :mod:`.static`, compiled in :mod:`.native`), the
  material proof for positions without pawns (:mod:`.material`: no mate exists with
  any part of the units) or a complete search of the reachable positions
  (:func:`.native.explore`, both proofs closing subtrees) found that no checkmate by
  that side is reachable.
* ``CAN`` comes with a witness: a line of legal moves (UCI) ending in that checkmate.
* ``UNDETERMINED``: neither was reached within ``node_limit`` moves made.

With ``node_limit=0`` only the static stage runs (cheap enough to call after every
move); it still never says ``CANNOT`` wrongly.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from ..core import movegen
from ..core.board import Board
from ..core.squares import BLACK, WHITE, color_of
from . import forced_win, native
from .forced_win import has_forced_win
from .material import NODE_LIMIT as MATERIAL_NODES, cannot_mate_by_material
from ..kept import KeptAnswers
from .search import move_layer_key

__all__ = [
    "DEFAULT_NODE_LIMIT",
    "PROOFS",
    "Analysis",
    "Verdict",
    "analyse",
    "analyse_after_probe",
    "analyse_both",
    "can_checkmate",
    "has_forced_win",  # US Chess 14E, from .forced_win: one import for the adjudicator
    "is_dead_position",
    "keep_answer",
    "known_answer",
    "mate_found_quickly",
    "proven_unable",
    "set_cache_size",
    "clear_cache",
]

#: Moves made (search nodes) per question before the answer is ``UNDETERMINED``; the
#: limits table states its own (``dead_position.node_limit``, ``flag_fall.node_limit`` in ``spec/limits.yaml``).
DEFAULT_NODE_LIMIT = 1_000_000
#: Nodes of the first compiled helpmate probe, before the static stage: real game
#: positions are settled here, in about a millisecond.
PROBE_NODES = 20_000
#: Nodes per side of :func:`mate_found_quickly`, the gate of the check after every move.
QUICK_PROBE_NODES = 2_000
#: Shares of the node budget, in the order they are spent after the static stage: a
#: tiny walk of the reachable space (QUICK_WALK_SHARE: on the labelled vectors 113 of
#: the 164 spaces the 50,000-move walk closes take under 5,000 moves), a helpmate trial
#: per colour asked (EARLY_HELPMATE_TRIAL of the first helpmate search's share: on the
#: 14,986 Lichess flag falls 8 of the 14 mates the probe misses are found here, each
#: within 40,000 moves; the 50,000-move walk that came first found 2 of them), a very
#: short walk (FIRST_WALK_SHARE: the other small reachable spaces, most of the walks'
#: proofs, close here), the trials of the helpmate search per colour asked (see
#: FIRST_HELPMATE_TRIALS), a short walk from the start (SECOND_WALK_SHARE), the rest of
#: the first helpmate search's share (FIRST_HELPMATE_SHARE: ordinary long mates turn up
#: here), then the walk again from the start with the bulk, then the helpmate search
#: with what is left if that is more than it had. Neither search's chances are guessed
#: from the position: each gets a cheap try before the other gets more, and the walk the
#: bulk. The helpmate trials come before the 500,000-node walk because the flag falls the
#: probe misses are mates they find (on the 14,986 Lichess flag falls 7.5 million nodes
#: in all with one trial instead of 11.7 million, 6.5 million with two; the labelled
#: vectors 86 million with one instead of 93, 101 million with two). Scheduling only; no
#: verdict rests on it.
QUICK_WALK_SHARE = 0.0005
EARLY_HELPMATE_TRIAL = 0.025
FIRST_WALK_SHARE = 0.005
SECOND_WALK_SHARE = 0.05
FIRST_HELPMATE_SHARE = 0.2
#: The first helpmate search is tried with these parts of its share, one after the other,
#: before the rest: the compiled search's iteration shares grow with its budget, and a
#: mate its small shares find is found sooner on a small budget (K+B against K+Q+P:
#: 175,528 moves on 200,000, 1,255,528 on 2,000,000); a mate its depth-first part finds
#: only past the first trial's needs the second (K+B against K+Q+2R+N+5P: 253,663 moves
#: on 500,000, not found on 200,000), before the 500,000-node walk.
FIRST_HELPMATE_TRIALS = (0.1, 0.25)
#: Partial positions the material proof may visit for each material a walk reaches (the
#: question's own material gets the proof's full budget).
WALK_MATERIAL_NODES = 600
#: A mating line longer than this (an exploration's path) is replaced by a helpmate
#: search's shorter one when the budget allows.
MAX_REPORTED_LINE = 400


class Verdict(enum.Enum):
    """The answer to "can this side checkmate?"."""

    CAN = "can"
    CANNOT = "cannot"
    UNDETERMINED = "undetermined"


@dataclass(frozen=True)
class Analysis:
    """A verdict with its evidence.

    ``line``: the mating line (UCI) for ``CAN``, replayed and checked by the interpreter.
    ``proof``: for ``CANNOT``, which argument decided (see :data:`PROOFS`).
    ``stage``: what decided: ``terminal``, ``static``, ``material``, ``explore``, ``helpmate``; ``none``
    when the budget ran out, ``stopped`` when the search ended early because another
    colour was already shown able to mate (``stop_at_can``).
    ``nodes``: moves made by the searches for this colour.
    """

    verdict: Verdict
    line: tuple[str, ...] = ()
    nodes: int = 0
    stage: str = "none"
    proof: str = ""


#: The arguments behind a ``CANNOT``, by stage.
PROOFS = {
    "terminal": "no legal moves: the game is over (checkmate or stalemate) and no further mate can come",
    "static": "static: every checkmate square fails a necessary condition, given the frozen units, "
    "the regions every other unit can reach and the kings' dead ends (steps that leave the other side no move)",
    "material": "material: without pawns no unit can ever be added, and no checkmate by this side exists "
    "with any part of the units on the board, each within the squares it can reach",
    "explore": "exhaustive: every position reachable from here was visited and none is this side's checkmate",
}


def _material_proofs(board: Board, colors: set[int], node_limit: int = MATERIAL_NODES) -> set[int]:
    """The colours among ``colors`` that :mod:`.material` proves can never mate (each new
    material with ``node_limit`` partial positions)."""
    return {color for color in colors if cannot_mate_by_material(board, color, node_limit)}


#: The material proofs of the positions a walk reaches: a walk meets many materials.
_walk_material_proofs = functools.partial(_material_proofs, node_limit=WALK_MATERIAL_NODES)


def _proofs(board: Board, colors: Sequence[int]) -> dict[int, str]:
    """The colours among ``colors`` proven never able to mate without a search, each with
    the stage that proved it: the static stage, then the material proof for the rest."""
    proven = dict.fromkeys(native.static_stage(board, colors), "static")
    proven.update(dict.fromkeys(_material_proofs(board, {c for c in colors if c not in proven}), "material"))
    return proven


#: Compiled searches already made, by everything they depend on: the move layer, the
#: position exactly as handed to them, the colour or colours and the budget. A second
#: question about a position (the other colour, the dead-position check after a flag
#: fall) repeats the probes and walks of the first (see :func:`_schedule`: they run for
#: both colours, so that no answer depends on the colour asked first).
SEARCHES_KEPT = 1024
_HELPMATES: KeptAnswers[tuple[tuple[str, ...] | None, int]] = KeptAnswers(SEARCHES_KEPT)
_WALKS: KeptAnswers[native.NativeExploration] = KeptAnswers(SEARCHES_KEPT)


def _search_key(board: Board, *asked: object) -> tuple[object, ...]:
    """The key of a compiled search of ``board``: its move layer, its position as the
    compiled searches receive it, and ``asked``."""
    return (board.tables.signature, tuple(board.mailbox), board.turn, board.castling_rights, board.ep_square, *asked)


def _native_helpmate(board: Board, color: int, limit: int) -> tuple[list[str] | None, int]:
    if limit <= 0:
        return None, 0
    key = _search_key(board, color, limit)
    kept = _HELPMATES.get(key)
    if kept is None:
        found = native.helpmate(board, color, limit)
        line = tuple(native.verified_line(board, found.line, color)) if found.status == "mate" else None
        kept = (line, found.nodes)
        _HELPMATES.put(key, kept)
    return (None if kept[0] is None else list(kept[0])), kept[1]


#: Answers already computed, per colour: the analysis is a pure function of the move
#: layer, the position (FIDE 9.2.3 identity), the colour asked and the budget, and the
#: same question comes back often (each flag, the dead-position check, each ruleset
#: sharing the move layer). An answer cut short because another colour was already
#: shown able to mate (stage ``stopped``) is not kept.
_MEMO: KeptAnswers[Analysis] = KeptAnswers(8192)


def set_cache_size(entries: int) -> None:
    """Keep at most ``entries`` answers (8,192 by default). A long-lived process that
    asks the same questions again after many others (``arbiter mutate`` runs every
    fixture once per mutant) keeps them all with a larger cache."""
    _MEMO.resize(entries)


def clear_cache() -> None:
    """Forget every answer (tests that compare fresh analyses use it), the forced-win
    searches' too."""
    _MEMO.clear()
    _HELPMATES.clear()
    _WALKS.clear()
    forced_win.clear_cache()


def _memo_base(board: Board, node_limit: int) -> tuple[object, ...]:
    """The kept answers' key without its colour (the colour asked is appended)."""
    return (move_layer_key(board), board.position_key(), node_limit)


def known_answer(board: Board, color: int, node_limit: int) -> Analysis | None:
    """The answer :func:`analyse` keeps for this question, if it keeps one (nothing is
    computed)."""
    return _MEMO.get(_memo_base(board, node_limit) + (color,))


def keep_answer(board: Board, color: int, node_limit: int, analysis: Analysis) -> None:
    """Keep ``analysis`` as :func:`analyse`'s answer to this question, for a caller that
    made the same answer another way (:func:`.batch.analyse_many`: the same verdict and
    line); an ``UNDETERMINED`` one is not kept."""
    if analysis.verdict is not Verdict.UNDETERMINED:
        _MEMO.put(_memo_base(board, node_limit) + (color,), analysis)


def _analyse(board: Board, colors: tuple[int, ...], node_limit: int, stop_at_can: bool,
             probed: dict[int, int] | None = None) -> dict[int, Analysis]:
    base = _memo_base(board, node_limit)
    known: dict[int, Analysis] = {}
    for color in colors:
        hit = _MEMO.get(base + (color,))
        if hit is not None:
            known[color] = hit
    settled = stop_at_can and any(a.verdict is Verdict.CAN for a in known.values())
    missing = tuple(c for c in colors if c not in known)
    if missing and not settled:
        for color, analysis in _schedule(board, missing, node_limit, stop_at_can, probed or {}).items():
            if color in missing:
                known[color] = analysis
                if analysis.stage != "stopped":
                    _MEMO.put(base + (color,), analysis)
            elif analysis.verdict is not Verdict.UNDETERMINED and base + (color,) not in _MEMO:
                # decided on the way by the stages shared by both colours: the same answer
                # asking that colour would give (see _schedule), kept for its question
                _MEMO.put(base + (color,), analysis)
    return {c: known[c] for c in colors if c in known}


def _terminal(board: Board, colors: tuple[int, ...]) -> dict[int, Analysis] | None:
    """The Laws' precedence: a position without legal moves is already decided (FIDE 5.1.1,
    5.2.1); the side that mated "can", every other answer is "cannot"."""
    if movegen.count_legal(board):
        return None
    mated = board.turn if board.is_check() else None
    results = {}
    for color in colors:
        if mated is not None and color != mated:
            results[color] = Analysis(Verdict.CAN, (), 0, "terminal")
        else:
            results[color] = Analysis(Verdict.CANNOT, (), 0, "terminal", PROOFS["terminal"])
    return results


def _schedule(board: Board, colors: tuple[int, ...], node_limit: int, stop_at_can: bool,
              probed: dict[int, int]) -> dict[int, Analysis]:
    """The schedule, per colour asked (``node_limit`` each): a short compiled helpmate
    probe (ordinary game positions end here); the static stage and the material proof;
    a tiny compiled exhaustive walk of the reachable space; a short compiled helpmate
    search (EARLY_HELPMATE_TRIAL); a very short walk; two more short helpmate searches
    (FIRST_HELPMATE_TRIALS); a short walk; the rest of that helpmate search's share; the
    walk again with the bulk; the helpmate search with what is left (see
    QUICK_WALK_SHARE). ``node_limit=0`` runs the static stage alone.

    Once a colour asked is still open after its probe, the probes, the static stage and
    the walks run for both colours, asked or not (one walk serves every colour still
    open, and each later walk's colours are those the walks before it left open, whatever
    the helpmate searches found; a colour already decided keeps its answer): a colour's
    answer must not depend on which other colour was asked with it, or first, or
    parallel workers asking in different orders would get different answers near the
    limit. Only the helpmate searches after the probe run for the colours asked alone.
    The result holds the colours asked and any other colour the shared stages decided.
    ``probed``: colours whose probe was already made (the compiled batch's, the same
    search) and found no mate, with the moves it made; it is not made again."""
    terminal = _terminal(board, colors)
    if terminal is not None:
        return terminal
    everyone = (WHITE, BLACK)
    results: dict[int, Analysis] = {}
    spent = {color: 0 for color in everyone}

    def settled() -> bool:
        return stop_at_can and any(a.verdict is Verdict.CAN for a in results.values())

    def answer() -> dict[int, Analysis]:
        return dict(results)  # the colours asked, and any other the shared stages decided

    if node_limit > 0:
        for color in (*colors, *(c for c in everyone if c not in colors)):
            if settled() or all(c in results for c in colors):
                break  # the colours asked are answered: the others' probes serve nothing
            if color in probed:
                spent[color] += probed[color]  # made already, without a mate
                continue
            _helpmate(board, color, min(PROBE_NODES, node_limit), results, spent)
    open_colors = [c for c in everyone if c not in results]
    if settled() or not any(c in open_colors for c in colors):
        return answer()
    for color, stage in _proofs(board, open_colors).items():
        results[color] = Analysis(Verdict.CANNOT, (), spent[color], stage, PROOFS[stage])
    pending = [c for c in open_colors if c not in results]
    if node_limit <= 0:
        for color in pending:
            results[color] = Analysis(Verdict.UNDETERMINED)
        return answer()
    asked = [c for c in colors if c in pending]
    if not asked:
        return answer()
    probe_spent = max(spent[c] for c in pending)
    first_helpmate = int(node_limit * FIRST_HELPMATE_SHARE)
    trials = (EARLY_HELPMATE_TRIAL, *FIRST_HELPMATE_TRIALS)
    trial_plan = sum(int(first_helpmate * share) for share in trials)  # at least the trials' budgets
    quick_walk = max(0, min(int(node_limit * QUICK_WALK_SHARE), node_limit - probe_spent - trial_plan))
    first_walk = max(0, min(int(node_limit * FIRST_WALK_SHARE), node_limit - probe_spent - trial_plan))
    second_walk = max(0, min(int(node_limit * SECOND_WALK_SHARE), node_limit - probe_spent - trial_plan - first_walk))
    bulk_walk = node_limit - probe_spent - first_walk - second_walk - first_helpmate
    # each walk serves the colours the walks before it left open, whatever the helpmate
    # searches found: its work must not depend on the colours asked (a colour already
    # decided keeps its answer)
    walk_open = list(pending)

    def walk(budget: int) -> bool:
        nonlocal walk_open
        walked: dict[int, Analysis] = {}
        closed = _walk(board, walk_open, budget, node_limit, _open(colors, results), walked, spent)
        for color, analysis in walked.items():
            results.setdefault(color, analysis)
        walk_open = [c for c in walk_open if c not in walked]
        return closed

    def unsettled() -> bool:
        return not settled() and any(c not in results for c in asked)

    if quick_walk > 0 and walk(quick_walk):
        return answer()
    share_of = {color: min(first_helpmate, node_limit - spent[color]) for color in asked}
    rest = dict(share_of)

    def trial(share: float) -> None:
        for color in asked:
            if color not in results and not settled():
                budget = int(share_of[color] * share)
                _helpmate(board, color, budget, results, spent)
                rest[color] -= budget

    trial(EARLY_HELPMATE_TRIAL)
    if unsettled() and first_walk > quick_walk and walk(first_walk):
        return answer()
    for share in FIRST_HELPMATE_TRIALS:
        trial(share)
    if unsettled() and (second_walk <= first_walk or not walk(second_walk)):
        for color in asked:
            if color not in results and not settled():
                _helpmate(board, color, rest[color], results, spent)
        if bulk_walk > second_walk and unsettled():
            walk(bulk_walk)
    for color in asked:
        if color in results:
            continue
        if settled():
            results[color] = Analysis(Verdict.UNDETERMINED, (), spent[color], "stopped")
            continue
        if node_limit - spent[color] > first_helpmate:
            _helpmate(board, color, node_limit - spent[color], results, spent)
        if color not in results:
            results[color] = Analysis(Verdict.UNDETERMINED, (), spent[color])
    return answer()


def _open(colors: tuple[int, ...], results: dict[int, Analysis]) -> tuple[int, ...]:
    """The colours asked that are still without an answer."""
    return tuple(c for c in colors if c not in results)


def _helpmate(board: Board, color: int, budget: int, results: dict[int, Analysis], spent: dict[int, int]) -> None:
    """The compiled helpmate search for ``color`` with ``budget`` nodes (charged to it); a
    mate found is recorded in ``results``."""
    line, used = _native_helpmate(board, color, budget)
    spent[color] += used
    if line is not None:
        results[color] = Analysis(Verdict.CAN, tuple(line), spent[color], "helpmate")


def _walk(
    board: Board, open_colors: list[int], budget: int, node_limit: int, asked: tuple[int, ...],
    results: dict[int, Analysis], spent: dict[int, int],
) -> bool:
    """The compiled exhaustive walk for ``open_colors`` within ``budget`` nodes (charged to
    each); records a mate met (a path longer than MAX_REPORTED_LINE is replaced by a
    helpmate search's line for a colour asked, within ``node_limit``), or the proof when
    the walk closes. True if it closed."""
    key = _search_key(board, frozenset(open_colors), budget)
    found = _WALKS.get(key)
    if found is None:
        found = native.explore(board, set(open_colors), budget, _walk_material_proofs)
        _WALKS.put(key, found)
    for color in open_colors:
        spent[color] += found.nodes
        if color in found.mates:
            path, line = found.mates[color], None
            if len(path) > MAX_REPORTED_LINE and color in asked:  # a walk's path: a shorter witness
                line, used = _native_helpmate(board, color, node_limit - spent[color])
                spent[color] += used
            if line is None:
                line = native.verified_line(board, path, color)
            results[color] = Analysis(Verdict.CAN, tuple(line), spent[color], "explore")
        elif found.complete:
            proof = f"{PROOFS['explore']} ({found.positions} positions)"
            results[color] = Analysis(Verdict.CANNOT, (), spent[color], "explore", proof)
    return found.complete


def proven_unable(board: Board) -> set[int]:
    """The colours shown never able to mate without any search: by the Laws' precedence
    when the game is over (no legal move), else by the static stage and, without pawns,
    the material proof. Cheap enough for the check after every move."""
    if not board.has_legal_move():
        return {c for c, a in (_terminal(board, (WHITE, BLACK)) or {}).items() if a.verdict is Verdict.CANNOT}
    return set(_proofs(board, (WHITE, BLACK)))


def mate_found_quickly(
    board: Board, node_limit: int = QUICK_PROBE_NODES, colors: tuple[int, ...] | None = None
) -> bool:
    """Does a short compiled helpmate search find a mate for one of ``colors`` (either
    side by default; its line replayed by the interpreter)? ``True`` settles that the
    position is not dead; ``False`` says nothing. In ordinary positions a mate turns up
    within a few hundred moves."""
    if node_limit <= 0:
        return False
    for color in colors if colors is not None else (board.turn ^ 1, board.turn):
        found = native.helpmate(board, color, node_limit)
        if found.status == "mate":
            native.verified_line(board, found.line, color, uci=False)  # the proof, not its text
            return True
    return False


def analyse_both(board: Board, node_limit: int = DEFAULT_NODE_LIMIT, *, stop_at_can: bool = False) -> dict[int, Analysis]:
    """Answer the question for both colours (each as if asked alone; the static stage is shared).

    With ``stop_at_can`` the work stops as soon as one colour is shown able to mate
    (enough to know the position is not dead); the other may stay ``UNDETERMINED``.
    """
    return _analyse(board, (WHITE, BLACK), node_limit, stop_at_can)


def analyse(board: Board, color: int | str, node_limit: int = DEFAULT_NODE_LIMIT) -> Analysis:
    """Can ``color`` checkmate the other king by any series of legal moves (a helpmate)?"""
    color = color_of(color)
    return _analyse(board, (color,), node_limit, False)[color]


def analyse_after_probe(board: Board, color: int, node_limit: int, probe_nodes: int) -> Analysis:
    """:func:`analyse`, for a position with a legal move whose first probe for ``color``
    (the compiled batch's: the same search with the same parameters) found no mate in
    ``probe_nodes`` moves: the same answer, without making that probe again."""
    return _analyse(board, (color,), node_limit, False, {color: probe_nodes})[color]


def can_checkmate(board: Board, color: int | str, node_limit: int = DEFAULT_NODE_LIMIT) -> Verdict:
    """``CAN`` / ``CANNOT`` / ``UNDETERMINED``: can ``color`` mate by any legal moves?"""
    return analyse(board, color, node_limit).verdict


def is_dead_position(board: Board, node_limit: int = DEFAULT_NODE_LIMIT) -> Verdict:
    """FIDE 5.2.2: ``CANNOT`` if the position is dead (neither side can ever mate),
    ``CAN`` if some side can, ``UNDETERMINED`` otherwise."""
    results = analyse_both(board, node_limit, stop_at_can=True)
    verdicts = {a.verdict for a in results.values()}
    if Verdict.CAN in verdicts:
        return Verdict.CAN
    if verdicts == {Verdict.CANNOT}:
        return Verdict.CANNOT
    return Verdict.UNDETERMINED
