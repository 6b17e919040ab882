"""One recorded game against the Laws: the findings of ``arbiter audit``.

The record is replayed on the reference Board under the ruleset. What it checks, each
a finding kind of :data:`KINDS`:

* ``illegal_move``: a main-line move no legal move fits (the illegal-move table's
  ``completed_cite``);
* ``after_end``: moves recorded after the game ended by itself (checkmate, stalemate,
  dead position, fivefold repetition, 75 moves; the ruleset's ``termination.precedence``
  order and each entry's ``kind``, as :class:`~reference_impl.adjudication.game.Game`);
* ``automatic_end``: the record stops at such an end and its result contradicts it;
* ``flag_fall``: a time forfeit scored otherwise than the ruleset's ``flag_fall`` table
  rules (FIDE 6.9: a draw when the opponent cannot checkmate; US Chess 14E: the material
  table), with the unwinnability proof or the helpmate as evidence.

Kept lean for throughput: checkmate and stalemate are looked for only where the record
stops or a move fails (a legal move after them is impossible), and the dead-position
proof (:func:`~reference_impl.adjudication.verdicts.is_dead_cheap`, the check the Game
makes after every move) is asked where the record stops (not at a checkmate the ruleset
rules first: no position before a mate is dead); when that position is dead the replay
walks back to the first dead one. True deadness never ends once reached, so this
finds every dead position the cheap proof recognises at the record's end, and never
reports one it does not prove. Pure: a parsed game and a resolved ruleset in, a
:class:`GameAudit` out.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Hashable

from reference_impl import unwinnability
from reference_impl.adjudication import repetition as rep
from reference_impl.adjudication import verdicts
from reference_impl.adjudication.game import automatic_ends, end_entry, first_end
from reference_impl.adjudication.tables import optional, table
from reference_impl.core import Board
from reference_impl.errors import ArbiterError
from reference_impl.notation import fastsan
from reference_impl.notation.errors import NotationError, clip
from reference_impl.notation.pgn import PgnGame
from reference_impl.notation.san import read_san

#: Finding kinds, with what each means (the summary counts per kind).
KINDS: dict[str, str] = {
    "illegal_move": "a move in the record is not legal",
    "after_end": "moves recorded after the game ended by rule",
    "automatic_end": "the recorded result contradicts the end by rule where the record stops",
    "flag_fall": "a time forfeit scored against the flag-fall rule",
}
#: Tags that identify a game in a finding.
IDENTITY_TAGS = ("Site", "White", "Black", "Date")
#: Termination tag values (pgn:9.8.1, lower case) that record a flag fall.
FLAG_TERMINATIONS = frozenset({"time forfeit"})
#: Termination values whose result is no ruling on the board: results are not compared.
NOT_JUDGED = frozenset({"abandoned", "adjudication", "death", "emergency", "rules infraction", "unterminated"})
#: The automatic ends, in the order used when a table states none.
#: Start positions kept (a database starts most games from the same one), each copied per game.
START_POSITIONS = 64

_starts: dict[tuple[int, str | None], Board] = {}
_ends: "_Ends | None" = None


@dataclass(frozen=True)
class Finding:
    """A disagreement between a record and the Laws."""

    game: int
    tags: dict[str, str]
    rule: str
    cite: str
    recorded: str
    correct: str | None
    reason: str
    proof: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class GameAudit:
    """One game's findings; ``error`` says why a game could not be read (without its
    number: a partition numbers its games from 1, the caller knows the file's number)."""

    game: int
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    #: a flag fall whose ruling rests on a search left undetermined at its node limit
    undetermined: bool = False


@dataclass(frozen=True)
class _End:
    reason: str
    result: str
    cite: str
    ply: int


def identity(pgn: PgnGame) -> dict[str, str]:
    return {name: pgn.tags.get(name, "?") for name in IDENTITY_TAGS}


class _Ends:
    """The ruleset's automatic ends, examined in its precedence order."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.active = automatic_ends(rules)
        names = [n for n, _ in self.active]
        #: checkmate comes first where it and a dead position both hold
        self.mate_first = "checkmate" in names and (
            "dead_position" not in names or names.index("checkmate") < names.index("dead_position"))
        repetition = end_entry(rules, "fivefold_repetition") if "fivefold_repetition" in names else None
        move_rule = end_entry(rules, "seventy_five_moves") if "seventy_five_moves" in names else None
        #: the thresholds of the per-ply check (read once: larger than any game without the end)
        self.plies = int(move_rule["plies"]) if move_rule is not None else sys.maxsize
        self.occurrences = int(repetition["occurrences"]) if repetition is not None else sys.maxsize

    def cheap(self, board: Board, keys: list[Hashable], seen: Counter) -> bool:
        """Whether fivefold or 75 moves may hold now (the per-ply check)."""
        return board.halfmove_clock >= self.plies or seen[keys[-1]] >= self.occurrences

    def end(self, board: Board, keys: list[Hashable], ply: int, dead: bool | None = None,
            mate: bool | None = None) -> _End | None:
        """The end that holds at ``board`` (after ``ply`` plies), by precedence; ``dead``
        and ``mate`` are the dead-position and checkmate answers when already known."""
        ruling = first_end(self.active, board, keys,
                           lambda entry: dead if dead is not None else verdicts.dead_after_move(board, entry), mate)
        return None if ruling is None else _End(ruling.reason, ruling.result, ruling.cite, ply)

    def dead(self, board: Board) -> bool:
        entry = next((e for n, e in self.active if n == "dead_position"), None)
        return entry is not None and verdicts.dead_after_move(board, entry)


def audit_game(pgn: PgnGame, rules: Any) -> GameAudit:
    """The findings on one game (``rules``: a resolved ruleset)."""
    try:
        return _audit(pgn, rules)
    except ArbiterError as error:
        return GameAudit(pgn.index, error=str(error))


def _audit(pgn: PgnGame, rules: Any) -> GameAudit:
    if pgn.errors:
        first = pgn.errors[0]
        return GameAudit(pgn.index, error=f"move {first.move}: {first.reason}" if first.move else first.reason)
    board = _start(pgn.fen, rules)
    ends = _ends_of(rules)
    key_of = _key_of(board, rules)
    keys: list[Hashable] = [key_of()]
    seen: Counter = Counter(keys)
    stop, illegal = len(pgn.moves), None
    end = ends.end(board, keys, 0) if ends.cheap(board, keys, seen) or not board.has_legal_move() else None
    read_code, plies, occurrences = fastsan.read_code, ends.plies, ends.occurrences
    for ply, move in enumerate(pgn.moves):
        if end is not None:
            stop = ply
            break
        try:
            # Canonical SAN (most records), its marks unchecked: the lenient reader takes any
            if read_code(board, move.text, True, False) is None:
                read_san(board, move.text, lenient=True, push=True)
        except NotationError as error:
            if error.category != "illegal":
                return GameAudit(pgn.index, error=f"move {pgn.move_label(ply)} {clip(move.text)}: {error}")
            stop, illegal = ply, error
            break
        key = key_of()
        keys.append(key)
        seen[key] = count = seen.get(key, 0) + 1  # a key hashes its nested tuples anew each time
        if board.halfmove_clock >= plies or count >= occurrences:  # ends.cheap, inline
            end = ends.end(board, keys, ply + 1)
    judged = conclude(pgn, rules, board, keys, stop, illegal, end)
    assert judged is not None  # replayed: a dead stretch is walked back on the board
    return judged


def conclude(pgn: PgnGame, rules: Any, board: Board, keys: list[Hashable], stop: int,
             illegal: NotationError | None, end: _End | None, replayed: bool = True) -> GameAudit | None:
    """The judgement of a replayed record: ``board`` after its first ``stop`` moves
    (``keys``: the positions so far; ``illegal``: why move ``stop`` failed; ``end``: an
    automatic end the per-ply check found). ``None`` when ``replayed`` is false (``board``
    holds no moves) and the record ends in a dead position: finding where the dead
    stretch began needs the moves, and the caller replays the record."""
    recorded = pgn.tags.get("Result") or pgn.result or "*"
    termination = (pgn.tags.get("Termination") or "").strip().lower()
    ends = _ends_of(rules)
    flag: tuple[int, verdicts.Ruling] | None = None
    if end is None and ends.mate_first and board.is_checkmate():
        # No position before a checkmate is dead (the mate follows from it), and the
        # ruleset rules checkmate before a dead position: no proof to ask for.
        end = ends.end(board, keys, stop, dead=False, mate=True)
    elif end is None or end.reason in ("fivefold_repetition", "seventy_five_moves"):
        # Checkmate and stalemate can only stand where the record stops; a dead position
        # reached earlier is found by walking back from there. A flag fall is ruled
        # first: a loss the ruling backs with a found mate is no dead position, and the
        # dead-position probe is spared (the ruling is wanted below anyway).
        if end is None and illegal is None and termination in FLAG_TERMINATIONS:
            flag = _flag_ruling(rules, board, recorded)
        if not (flag is not None and flag[1].proven) and ends.dead(board):
            if not replayed:
                return None
            ply = _walk_back(board, ends, stop if end is None else end.ply)
            end = ends.end(board, keys[: ply + 1], ply, dead=True)
        elif end is None:
            end = ends.end(board, keys, stop, dead=False)
    return _judge(pgn, rules, board, end, stop, illegal, recorded, termination, flag)


def _ends_of(rules: Any) -> _Ends:
    """The :class:`_Ends` of ``rules``, built once per ruleset (the last one asked)."""
    global _ends
    if _ends is None or _ends.rules is not rules:
        _ends = _Ends(rules)
    return _ends


def _start(fen: str | None, rules: Any) -> Board:
    """A fresh board at ``fen`` (the ruleset's start without one), copied from one kept."""
    key = (id(rules), fen)
    kept = _starts.get(key)
    if kept is None or kept.rules is not rules:
        kept = Board.from_fen(fen, rules) if fen else Board(rules)
        if len(_starts) >= START_POSITIONS:
            _starts.clear()
        _starts[key] = kept
    return kept.copy(stack=False)


def _key_of(board: Board, rules: Any) -> Callable[[], Hashable]:
    """:func:`~reference_impl.adjudication.repetition.position_key` of ``board``, with the
    ruleset's ``repetition.same_position`` looked up once per game, not once per ply."""
    if (optional(rules, "repetition", "same_position", "en_passant") or "legal") == "legal":
        return board.position_key
    return lambda: rep.position_key(board, rules)


def _walk_back(board: Board, ends: _Ends, ply: int) -> int:
    """Pop ``board`` back to the first position of the dead stretch ending at ``ply``."""
    while ply > 0 and board.move_stack:
        move = board.pop()
        if not ends.dead(board):
            board.push(move)
            return ply
        ply -= 1
    return ply


def _judge(pgn: PgnGame, rules: Any, board: Board, end: _End | None, stop: int,
           illegal: NotationError | None, recorded: str, termination: str,
           flag: tuple[int, verdicts.Ruling] | None) -> GameAudit:
    def finding(rule: str, cite: str, correct: str | None, reason: str, proof: str | None = None) -> GameAudit:
        return GameAudit(pgn.index, [Finding(pgn.index, identity(pgn), rule, cite, recorded, correct, reason, proof)])

    if end is not None:
        at = pgn.move_label(end.ply - 1) if end.ply else "the start"
        after = len(pgn.moves) - end.ply
        if after:
            return finding("after_end", end.cite, end.result,
                           f"{after} move(s) recorded after the game ended by {end.reason} at {at}",
                           _end_proof(board, rules, end))
        if termination in NOT_JUDGED or recorded == "*" or recorded == end.result:
            return GameAudit(pgn.index)
        return finding("automatic_end", end.cite, end.result,
                       f"the game ended by {end.reason} at {at}; recorded {recorded}"
                       + (f" ({termination})" if termination else ""), _end_proof(board, rules, end))
    if illegal is not None:
        cite = str(optional(rules, "illegal_moves", "completed_cite") or table(rules, "illegal_moves", "cite"))
        return finding("illegal_move", cite, None,
                       f"move {pgn.move_label(stop)} {clip(pgn.moves[stop].text)} is not legal in {board.fen()}")
    if termination in FLAG_TERMINATIONS:
        return _flag_fall(pgn, rules, board, recorded, finding, flag or _flag_ruling(rules, board, recorded))
    return GameAudit(pgn.index)


def _flag_ruling(rules: Any, board: Board, recorded: str) -> tuple[int, verdicts.Ruling]:
    """(the flagged colour, the flag-fall ruling) where the record stops: the loser the
    result names, else the side to move."""
    flagged = {"1-0": 1, "0-1": 0}.get(recorded, board.turn)
    return flagged, verdicts.flag_fall(rules, board, flagged)


def _flag_fall(pgn: PgnGame, rules: Any, board: Board, recorded: str, finding: Any,
               flag: tuple[int, verdicts.Ruling]) -> GameAudit:
    flagged, ruling = flag
    if ruling.result in (recorded, verdicts.UNKNOWN):
        return GameAudit(pgn.index, undetermined=ruling.undetermined)
    side = ("White", "Black")[flagged]
    reason = f"{side}'s flag fell; {ruling.reason.replace('_', ' ')}" + (f" ({ruling.note})" if ruling.note else "")
    return finding("flag_fall", ruling.cite, ruling.result, reason, _flag_proof(board, rules, ruling, flagged))


def _flag_proof(board: Board, rules: Any, ruling: verdicts.Ruling, flagged: int) -> str | None:
    """The evidence for a flag-fall ruling: the unwinnability proof, or the helpmate."""
    if ruling.reason == "dead_position":
        return _dead_proof(board, rules)
    if table(rules, "flag_fall", "draw_test") == "opponent_cannot_checkmate":
        found = unwinnability.analyse(board, 1 - flagged, verdicts.flag_fall_node_limit(rules))
        if found.verdict is unwinnability.Verdict.CANNOT:
            return found.proof
        if found.verdict is unwinnability.Verdict.CAN:
            return "helpmate " + " ".join(found.line)
        return None
    theirs = verdicts.material(board, 1 - flagged)
    return "opponent's material: " + ", ".join(f"{n} {name}" for name, n in sorted(theirs.items()))


def _dead_proof(board: Board, rules: Any) -> str:
    found = unwinnability.analyse_both(board, verdicts.dead_position_node_limit(rules))
    return "; ".join(f"{('white', 'black')[c]}: {found[c].proof or found[c].verdict.value}" for c in (0, 1))


def _end_proof(board: Board, rules: Any, end: _End) -> str:
    if end.reason == "dead_position":
        return f"{board.fen()}: {_dead_proof(board, rules)}"
    return f"{board.fen()}: {end.reason.replace('_', ' ')}"
