"""US Chess 14E applied by hand to a flag fall, for the ``timeout`` generators.

The rule as written (7th edition): the game is drawn even though a player's time has
run out when the opponent has insufficient material to win on time, and the rows say
what that is - 14E1 a lone king; 14E2 only king and bishop or king and knight, without
a forced win; 14E3 only king and two knights, the player has no pawns, and no forced
win. Any other material wins on time (13C). Checkmate (13A), stalemate (14A) and a dead
position (14D) come first. Blitz states no flag rule of its own, so ``uscf-7-blitz``
gets the same expectation.

"Forced win" has no bound in the text. It is decided here only by an argument that
owes nothing to the reference:

* the opponent cannot checkmate by any series of legal moves (the labels): no forced win;
* an exhaustive python-chess AND/OR search finds a forced mate: a forced win, a loss;
* that search finds none within :data:`FORCED_PLIES` plies, this oracle's horizon: a
  draw, tagged ``forced-win-bounded``, since the rule's forced win has no bound and a
  longer one is not excluded by the search (the reference searches without a depth
  bound; Stockfish finds no forced mate in any of the corpus's such positions either).

A verdict of ``None`` leaves the US Chess rulesets out; its ``why`` says what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

#: US Chess rulesets whose flag rule is 14E (blitz inherits it).
USCF_FLAG = ["uscf-7", "uscf-7-blitz"]
#: 14E rows as written: opponent's pieces besides the king (sorted), whether the flagged
#: player must have no pawns, whether a forced win overrides, the article.
ROWS: list[tuple[tuple[int, ...], bool, bool, str]] = [
    ((), False, False, "uscf-7:14E1"),
    ((chess.KNIGHT,), False, True, "uscf-7:14E2"),
    ((chess.BISHOP,), False, True, "uscf-7:14E2"),
    ((chess.KNIGHT, chess.KNIGHT), True, True, "uscf-7:14E3"),
]
#: The exhaustive search's horizon in plies (mate in five moves): the oracle's, not the rule's.
FORCED_PLIES = 9
#: Plies an exhaustive search may look ahead to show every line ends without a mate.
DEAD_PLIES = 4
DRAW = "1/2-1/2"


@dataclass(frozen=True)
class UsVerdict:
    """US Chess result (``None``: not decided), the articles, the reason in words, tags."""

    result: str | None
    cites: list[str]
    why: str
    tags: frozenset[str] = frozenset()


def others(board: chess.Board, color: chess.Color) -> tuple[int, ...]:
    """Piece types of ``color`` besides the king, sorted."""
    return tuple(sorted(p.piece_type for p in board.piece_map().values()
                        if p.color == color and p.piece_type != chess.KING))


def row_for(board: chess.Board, flagged: chess.Color) -> tuple[tuple[int, ...], bool, bool, str] | None:
    """The 14E row the opponent's material matches, or None."""
    material = others(board, not flagged)
    for row in ROWS:
        wanted, needs_no_pawns, _, _ = row
        if material == wanted and not (needs_no_pawns and board.pieces(chess.PAWN, flagged)):
            return row
    return None


def forced_mate(board: chess.Board, winner: chess.Color, plies: int) -> bool:
    """True if ``winner`` mates against every defence within ``plies`` plies (exhaustive)."""
    memo: dict[tuple[object, int], bool] = {}

    def wins(left: int) -> bool:
        if left <= 0:
            return False
        key = (board._transposition_key(), left)
        if key in memo:
            return memo[key]
        moves = list(board.legal_moves)
        if board.turn == winner:
            found = False
            for move in moves:
                board.push(move)
                found = board.is_checkmate() or (left >= 3 and wins(left - 1))
                board.pop()
                if found:
                    break
        else:
            found = bool(moves)  # stalemate is no win
            for move in moves:
                board.push(move)
                escaped = not wins(left - 1)
                board.pop()
                if escaped:
                    found = False
                    break
        memo[key] = found
        return found

    board = board.copy(stack=False)
    return wins(plies)


def dead_by_exhaustion(board: chess.Board, plies: int = DEAD_PLIES) -> bool:
    """True if every line ends within ``plies`` plies in stalemate or in material with
    which no one can mate, never in checkmate: a dead position (14D4), proven."""
    if board.is_checkmate():
        return False
    if board.is_stalemate() or board.is_insufficient_material():
        return True
    if plies == 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        ok = dead_by_exhaustion(board, plies - 1)
        board.pop()
        if not ok:
            return False
    return True


def uscf_flag(board: chess.Board, flagged: chess.Color, opponent_can_mate: bool,
              dead: bool | None) -> UsVerdict:
    """US Chess 13A/14A/14D/14E when ``flagged``'s flag falls; ``dead`` None if unknown."""
    loss = "0-1" if flagged == chess.WHITE else "1-0"
    if board.is_checkmate():
        return UsVerdict("1-0" if board.turn == chess.BLACK else "0-1", ["uscf-7:13A"],
                         "the position is checkmate (13A)")
    if board.is_stalemate():
        return UsVerdict(DRAW, ["uscf-7:14A"], "the position is stalemate (14A)")
    row = row_for(board, flagged)
    if dead is None and row is None and not opponent_can_mate:
        # only here does the answer turn on 14D4; where a row matches, both draw
        dead = dead_by_exhaustion(board.copy(stack=False)) or None
        proof = f"; every line ends within {DEAD_PLIES} plies without a checkmate"
    else:
        proof = ""
    if dead:
        return UsVerdict(DRAW, ["uscf-7:14D", "uscf-7:14D4"], f"the position is dead (14D4){proof}")
    if row is None:
        if not opponent_can_mate and dead is None:
            return UsVerdict(None, [], "no 14E row names the opponent's material, so the flag "
                             "loses unless the position is dead (14D4), which the data does "
                             f"not say and no line of {DEAD_PLIES} plies settles")
        return UsVerdict(loss, ["uscf-7:14E", "uscf-7:13C"], "no 14E row names the "
                         "opponent's material: the flag loses (13C)"
                         + ("" if opponent_can_mate else ", though the opponent cannot mate"))
    _, _, unless_forced, cite = row
    if not unless_forced:
        return UsVerdict(DRAW, ["uscf-7:14E", cite], f"the opponent has a lone king ({cite[7:]})")
    if not opponent_can_mate:
        return UsVerdict(DRAW, ["uscf-7:14E", cite], f"{cite[7:]}: the opponent cannot "
                         "checkmate by any series of legal moves, so has no forced win")
    if forced_mate(board, not flagged, FORCED_PLIES):
        return UsVerdict(loss, ["uscf-7:14E", cite], f"{cite[7:]} does not apply: the "
                         f"opponent forces mate within {FORCED_PLIES} plies (python-chess "
                         "exhaustive search)")
    return UsVerdict(DRAW, ["uscf-7:14E", cite], f"{cite[7:]}: no forced mate within "
                     f"{FORCED_PLIES} plies (python-chess exhaustive search, this oracle's "
                     "horizon; the rule's forced win has no bound, so a longer one is not "
                     "excluded)", frozenset({"forced-win-bounded"}))


def expectations(fide_rulesets: list[str], fide: str, us: UsVerdict
                 ) -> tuple[list[str], dict[str, str] | None, dict[str, dict[str, str]] | None]:
    """Rulesets, ``expect`` and ``expect_by_ruleset`` for one flag fall: one expectation
    when the rulebooks agree, one per ruleset when they differ, no US Chess if undecided."""
    if us.result is None:
        return list(fide_rulesets), {"result": fide}, None
    rulesets = list(fide_rulesets) + USCF_FLAG
    if us.result == fide:
        return rulesets, {"result": fide}, None
    return rulesets, None, ({r: {"result": fide} for r in fide_rulesets}
                            | {r: {"result": us.result} for r in USCF_FLAG})


def us_note(us: UsVerdict) -> str:
    """The US Chess part of a fixture's ``source.detail``."""
    if us.result is None:
        return f"US Chess omitted: {us.why}"
    return f"US Chess 14E applied by hand: {us.why}"
