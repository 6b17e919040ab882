"""One recorded game against the Laws: the findings of ``arbiter audit``.

The record is replayed on the reference Board under the ruleset. What it checks, each
a finding kind of :data:`KINDS`:

* ``illegal_move``: a main-line move no legal move fits (the illegal-move table's
  ``completed_cite``), but the last move of a record that says an illegal move ended
  the game (an ending with ``last_move_illegal``: fastchess writes the move);
* ``after_end``: moves recorded after the game ended by itself (checkmate, stalemate,
  dead position, fivefold repetition, 75 moves; the ruleset's ``termination.precedence``
  order and each entry's ``kind``, as :class:`~reference_impl.adjudication.game.Game`);
* ``automatic_end``: the record stops at such an end and its result contradicts it;
* ``flag_fall``: a time forfeit scored otherwise than the ruleset's ``flag_fall`` table
  rules (FIDE 6.9: a draw when the opponent cannot checkmate; US Chess 14E: the material
  table), with the unwinnability proof or the helpmate as evidence. A flag is judged only
  where the record says the game ended in a time forfeit (its Termination tag or end
  comment, read through :mod:`.terminations`: ``X won on time`` is a flag fall of X's
  opponent); clock comments are evidence, not events (FIDE 6.8: a flag counts when it
  is seen or claimed, and play that went on stands).

What the record says ended the game decides what is compared (the termination table's
``judge``): a result an arbiter or a server decided (abandonment, adjudication, ...) is
not compared with the board, and an unknown phrase is a warning; the moves are audited
either way. :func:`audit_record` first chooses the Laws for the game
(:mod:`.laws`: edition by date, regime, Chess960) or skips a game of a variant they do
not cover; every finding names the ruleset and why, and the position judged.

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
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Hashable, Sequence

from reference_impl import unwinnability
from reference_impl.unwinnability import batch, native
from reference_impl.adjudication import repetition as rep
from reference_impl.adjudication import verdicts
from reference_impl.adjudication.game import automatic_ends, first_end
from reference_impl.adjudication.tables import need
from reference_impl.core import Board
from reference_impl.errors import ArbiterError
from reference_impl.notation import fastsan
from reference_impl.rules.model import DeadPosition, DeadTest
from reference_impl.notation.errors import NotationError, clip
from reference_impl.notation.pgn import PgnGame, tag_problems
from reference_impl.notation.san import read_san
from reference_impl.records import record

from .laws import Chooser, Choice, Skip
from .terminations import UNKNOWN_WARNING, Ending, read_ending

#: Finding kinds, with what each means (the summary counts per kind).
KINDS: dict[str, str] = {
    "illegal_move": "a move in the record is not legal",
    "after_end": "moves recorded after the game ended by rule",
    "automatic_end": "the recorded result contradicts the end by rule where the record stops",
    "flag_fall": "a time forfeit scored against the flag-fall rule",
    "resignation": "a resignation scored against the resignation rule",
}
#: A resignation is searched for "can the winner checkmate?" (where the ruleset's
#: resignation entry makes it a draw otherwise) only when the winner has none of these
#: pieces: with one of them a mate is possible in all but exceptional positions. A speed
#: screen, not a rule: it can only leave out a finding, never make one.
RESIGNATION_SCREEN = frozenset({"pawn", "rook", "queen"})
#: Tags the audit reads by its own tables (the reader's complaints about them do not stop it).
OWN_TAGS = ("Termination", "TimeControl")
#: Tags that identify a game in a finding.
IDENTITY_TAGS = ("Site", "White", "Black", "Date")
#: The ``judge`` of an ending whose record ends in a flag fall, and of one not compared.
FLAG, NOT_COMPARED = "flag_fall", "none"
#: The summary's reason for a game the reader or the replay could not read.
UNREADABLE = "unreadable"
#: Whether a flag-fall ruling asks the unwinnability batch first (:func:`_answer_by_batch`;
#: off, each asks :func:`~reference_impl.unwinnability.analyse` alone: the same rulings),
#: and the compiled path asks its games' questions together (``fast._ask_together``).
BATCHED_FLAG_FALLS = True
#: Start positions kept (a database starts most games from the same one), each copied per game.
START_POSITIONS = 64

_starts: dict[tuple[int, str | None], Board] = {}
_ends: "_Ends | None" = None


@record
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
    #: the ruleset judged under, and why it governs this game
    ruleset: str = ""
    ruleset_reason: str = ""
    #: the position judged (where the game ended, the move failed or the flag fell)
    fen: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Ruling:
    """What the Laws make of the game: the result (None: no legal game), the reason (an
    end by rule, ``flag_fall``, ``illegal_move``, or the recorded ending's event when the
    record stands), the article, and the ply at which it holds."""

    result: str | None
    reason: str
    cite: str | None
    ply: int
    #: False when the record's result is not compared (an ending judged ``none``)
    compared: bool = True


@dataclass
class GameAudit:
    """One game's findings; ``error`` says why a game could not be read and ``skipped``
    why it was not judged (both without its number: a partition numbers its games from
    1, the caller knows the file's number); ``kind`` is the summary's reason for either.
    Built once per game by the judge and labelled with the ruleset by :func:`audit_game`
    (not frozen: a database makes millions of them)."""

    game: int
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    #: a flag fall whose ruling rests on a search left undetermined at its node limit
    undetermined: bool = False
    #: the record ends in a time forfeit judged by the flag-fall rule (found or not)
    flag_fall: bool = False
    skipped: str | None = None
    kind: str | None = None
    #: the ruleset judged under ('' when skipped or unreadable), and why it governs the game
    ruleset: str = ""
    ruleset_reason: str = ""
    #: warnings for the summary's counts (an unknown Termination)
    warnings: tuple[str, ...] = ()
    ruling: Ruling | None = None

    @property
    def kept(self) -> bool:
        """Whether the game has something for the output (the rest are only counted)."""
        return bool(self.findings or self.error or self.undetermined or self.skipped)


@dataclass(frozen=True)
class _End:
    reason: str
    result: str
    cite: str
    ply: int


def identity(pgn: PgnGame) -> dict[str, str]:
    return {name: pgn.tags.get(name, "?") for name in IDENTITY_TAGS}


def site_host(site: str | None) -> str:
    """The server a ``Site`` tag names: the host of a URL or domain, lower case, without
    ``www.`` (``https://lichess.org/abc`` and ``lichess.org``: ``lichess.org``); any other
    value (a city, ``FICS freechess.org``) as it stands; ``?`` when there is none."""
    if not site:
        return "?"
    scheme = site.find("://")
    if scheme >= 0:  # a URL (most server exports): asked once per game, kept short
        host = site[scheme + 3:].split("/", 1)[0]
    else:
        text = site.strip()
        host = text.split("/", 1)[0]
        if not text or " " in host or "." not in host:
            return text or "?"
    host = host.split(":", 1)[0].lower()
    return host[4:] if host.startswith("www.") else host


class _Ends:
    """The ruleset's automatic ends, examined in its precedence order."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.model = model = rules.model
        self.active = automatic_ends(model)
        names = [n for n, _ in self.active]
        #: checkmate comes first where it and a dead position both hold
        self.mate_first = "checkmate" in names and (
            "dead_position" not in names or names.index("checkmate") < names.index("dead_position"))
        repetition = model.repetition.automatic if "fivefold_repetition" in names else None
        move_rule = model.move_rule.automatic if model.move_rule and "seventy_five_moves" in names else None
        #: the thresholds of the per-ply check (read once: larger than any game without the end)
        self.plies = move_rule.plies if move_rule is not None else sys.maxsize
        self.occurrences = repetition.occurrences if repetition is not None else sys.maxsize
        #: the dead-position entry (None: the ruleset has no such end), and the budgets of
        #: its check (the ruleset's, as the Game asks it)
        self.dead_entry: DeadPosition | None = next(
            (e for n, e in self.active if n == "dead_position" and isinstance(e, DeadPosition)), None)
        self.limits = model.limits

    @property
    def dead_test(self) -> DeadTest:
        """The reading of the dead-position end (``termination.dead_position.test``)."""
        return self.dead_entry.test if self.dead_entry is not None else verdicts.TWO_SIDED

    def cheap(self, board: Board, keys: list[Hashable], seen: Counter) -> bool:
        """Whether fivefold or 75 moves may hold now (the per-ply check)."""
        return board.halfmove_clock >= self.plies or seen[keys[-1]] >= self.occurrences

    def end(self, board: Board, keys: list[Hashable], ply: int, dead: bool | None = None,
            mate: bool | None = None) -> _End | None:
        """The end that holds at ``board`` (after ``ply`` plies), by precedence; ``dead``
        and ``mate`` are the dead-position and checkmate answers when already known."""
        ruling = first_end(self.active, board, keys,
                           lambda entry: dead if dead is not None else verdicts.dead_after_move(
                               board, entry, self.model.limits), mate)
        return None if ruling is None else _End(ruling.reason, ruling.result, ruling.cite, ply)

    def dead(self, board: Board) -> bool:
        """The dead-position check after every move (the Game's), where the ruleset has the
        end: settled by the compiled screening where it can be (:func:`dead_by_screen`)."""
        if self.dead_entry is None:
            return False
        settled = dead_by_screen([board], [self.dead_entry.test])[0] if BATCHED_FLAG_FALLS else None
        return verdicts.dead_after_move(board, self.dead_entry, self.limits) if settled is None else settled


def audit_record(pgn: PgnGame, chooser: Chooser) -> GameAudit:
    """The findings on one game under the Laws ``chooser`` picks for it (or its skip)."""
    choice = chooser.choose(pgn)
    if isinstance(choice, Skip):
        return GameAudit(pgn.index, skipped=choice.reason, kind=choice.kind)
    return audit_game(pgn, choice.rules, choice)


def audit_game(pgn: PgnGame, rules: Any, choice: Choice | None = None) -> GameAudit:
    """The findings on one game (``rules``: a resolved ruleset; ``choice``: why it governs
    the game, named in each finding)."""
    ending = read_ending(pgn)
    return labelled(pgn, rules, choice, ending, lambda: _audit(pgn, rules, ending))


def labelled(pgn: PgnGame, rules: Any, choice: Choice | None, ending: Ending,
             judged: Callable[[], GameAudit]) -> GameAudit:
    """The audit ``judged`` makes of ``pgn`` (read as ``ending``), labelled with the ruleset
    and why it governs the game, and its warnings; a rule that fails to read (an
    :class:`~reference_impl.errors.ArbiterError`) makes the game unreadable."""
    try:
        found = judged()
    except ArbiterError as error:
        return GameAudit(pgn.index, error=str(error), kind=UNREADABLE)
    if found.error is None:
        found.ruleset = ruleset = rules.id
        found.ruleset_reason = reason = choice.reason if choice is not None else f"{ruleset} given by --rules"
        if not ending.known:
            found.warnings = (UNKNOWN_WARNING,)
        if found.findings:
            found.findings = [replace(f, ruleset=ruleset, ruleset_reason=reason) for f in found.findings]
    return found


def _read_here(pgn: PgnGame) -> list[Any]:
    """The reader's errors but those about the tags the audit reads by its own tables (a
    server's Termination phrase, a TimeControl such as ``10+0.05``): its vocabulary is
    the termination table's, not only the standard's list."""
    own = {name: pgn.tags[name] for name in OWN_TAGS if name in pgn.tags}
    ignored = set(tag_problems(own)) if own else set()
    return [e for e in pgn.errors if e.move is not None or e.reason not in ignored]


def _audit(pgn: PgnGame, rules: Any, ending: Ending) -> GameAudit:
    errors = _read_here(pgn) if pgn.errors else pgn.errors
    if errors:
        first = errors[0]
        return GameAudit(pgn.index, error=f"move {first.move}: {first.reason}" if first.move else first.reason,
                         kind=UNREADABLE)
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
                return GameAudit(pgn.index, error=f"move {pgn.move_label(ply)} {clip(move.text)}: {error}",
                                 kind=UNREADABLE)
            stop, illegal = ply, error
            break
        key = key_of()
        keys.append(key)
        seen[key] = count = seen.get(key, 0) + 1  # a key hashes its nested tuples anew each time
        if board.halfmove_clock >= plies or count >= occurrences:  # ends.cheap, inline
            end = ends.end(board, keys, ply + 1)
    judged = conclude(pgn, rules, ending, board, keys, stop, illegal, end)
    assert judged is not None  # replayed: a dead stretch is walked back on the board
    return judged


def conclude(pgn: PgnGame, rules: Any, ending: Ending, board: Board, keys: list[Hashable], stop: int,
             illegal: NotationError | None, end: _End | None, replayed: bool = True,
             dead: bool | None = None) -> GameAudit | None:
    """The judgement of a replayed record (``ending``: what it says ended the game):
    ``board`` after its first ``stop`` moves
    (``keys``: the positions so far, or only the last where no repetition or move-rule
    end can hold at any ply, as in a game the compiled scan replayed; ``illegal``: why move ``stop`` failed; ``end``: an
    automatic end the per-ply check found; ``dead``: the dead-position check's answer
    at ``board`` when the caller already has it). ``None`` when ``replayed`` is false
    (``board`` holds no moves) and the record ends in a dead position: finding where
    the dead stretch began needs the moves, and the caller replays the record."""
    recorded = pgn.tags.get("Result") or pgn.result or "*"
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
        if end is None and illegal is None and ending.judge == FLAG:
            flag = _flag_ruling(rules, board, recorded, ending)
        if not (flag is not None and flag[1].proven) and (ends.dead(board) if dead is None else dead):
            if not replayed:
                return None
            ply = _walk_back(board, ends, stop if end is None else end.ply)
            end = ends.end(board, keys[: ply + 1], ply, dead=True)
        elif end is None:
            end = ends.end(board, keys, stop, dead=False)
    return _judge(pgn, rules, board, end, stop, illegal, recorded, ending, flag)


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
    model = rules.model
    if model.repetition.same_position.en_passant == "legal":
        return board.position_key
    return lambda: rep.position_key(board, model)


def _walk_back(board: Board, ends: _Ends, ply: int) -> int:
    """Pop ``board`` back to the first position of the dead stretch ending at ``ply``."""
    made = len(board.move_stack)
    while ply > 0 and made:
        move = board.pop()
        made -= 1
        if not ends.dead(board):
            board.push(move)
            return ply
        ply -= 1
    return ply


def _judge(pgn: PgnGame, rules: Any, board: Board, end: _End | None, stop: int,
           illegal: NotationError | None, recorded: str, ending: Ending,
           flag: tuple[int, verdicts.Ruling] | None) -> GameAudit:
    compared = ending.judge != NOT_COMPARED

    def finding(rule: str, cite: str, correct: str | None, reason: str, proof: str | None = None,
                ruling: Ruling | None = None) -> GameAudit:
        return GameAudit(pgn.index, [Finding(pgn.index, identity(pgn), rule, cite, recorded, correct, reason, proof,
                                             fen=board.fen())], ruling=ruling)

    termination = f" ({ending.phrase})" if ending.phrase else ""
    if end is not None:
        at = pgn.move_label(end.ply - 1) if end.ply else "the start"
        after = len(pgn.moves) - end.ply
        ruled = Ruling(end.result, end.reason, end.cite, end.ply, compared)
        if after:
            return finding("after_end", end.cite, end.result,
                           f"{after} move(s) recorded after the game ended by {end.reason} at {at}",
                           _end_proof(board, rules, end), ruled)
        if not compared or recorded == "*" or recorded == end.result:
            return GameAudit(pgn.index, ruling=ruled)
        return finding("automatic_end", end.cite, end.result,
                       f"the game ended by {end.reason} at {at}; recorded {recorded}{termination}",
                       _end_proof(board, rules, end), ruled)
    if illegal is not None:
        table = need(rules.model, rules.model.illegal_moves, "illegal_moves")
        cite = str(table.completed_cite or table.cite)
        if ending.last_move_illegal and stop == len(pgn.moves) - 1:
            # the record ends with the illegal move that, as it states, ended the game
            return GameAudit(pgn.index, ruling=Ruling(recorded, ending.event, cite, stop, compared=False))
        return finding("illegal_move", cite, None,
                       f"move {pgn.move_label(stop)} {clip(pgn.moves[stop].text)} is not legal in {board.fen()}",
                       ruling=Ruling(None, "illegal_move", cite, stop))
    if ending.judge == FLAG:
        return _flag_fall(pgn, rules, board, recorded, finding, flag or _flag_ruling(rules, board, recorded, ending),
                          stop)
    if compared and ending.decisive_is == "resignation" and recorded in ("1-0", "0-1"):
        return _resignation(pgn, rules, board, recorded, finding, stop)
    return GameAudit(pgn.index, ruling=Ruling(recorded, ending.event, None, stop, compared))


def _resignation(pgn: PgnGame, rules: Any, board: Board, recorded: str, finding: Any, stop: int) -> GameAudit:
    """A decisive result the board does not explain: a resignation of the loser, a draw
    where the ruleset says so and the winner cannot checkmate (FIDE 2023 5.1.2)."""
    model = rules.model
    entry = need(model, model.termination.resignation if model.termination else None, "termination.resignation")
    resigning = 1 if recorded == "1-0" else 0
    if not entry.draw_if_opponent_cannot_checkmate or RESIGNATION_SCREEN & verdicts.material(board, 1 - resigning).keys():
        return GameAudit(pgn.index, ruling=Ruling(recorded, "resignation", str(entry.cite), stop))
    ruling = verdicts.resignation(rules, board, resigning)
    ruled = Ruling(ruling.result, "resignation", ruling.cite, stop)
    if ruling.result == recorded:
        return GameAudit(pgn.index, ruling=ruled)
    side = ("White", "Black")[resigning]
    found = unwinnability.analyse(board, 1 - resigning, verdicts.dead_position_node_limit(rules))
    return finding("resignation", ruling.cite, ruling.result, f"{side} resigned; {ruling.note}", found.proof, ruled)


def flagged_side(board: Board, recorded: str, ending: Ending) -> int:
    """The colour whose flag fell where the record stops: the player the ending names,
    else the loser the result names, else the side to move."""
    return ending.loser if ending.loser is not None else {"1-0": 1, "0-1": 0}.get(recorded, board.turn)


def asks_can_checkmate(rules: Any) -> bool:
    """Whether the ruleset's flag-fall rule asks "can the opponent checkmate?" (FIDE 6.9)."""
    return need(rules.model, rules.model.flag_fall, "flag_fall").draw_test == "opponent_cannot_checkmate"


def _flag_ruling(rules: Any, board: Board, recorded: str, ending: Ending) -> tuple[int, verdicts.Ruling]:
    """(the flagged colour, the flag-fall ruling) where the record stops (:func:`flagged_side`)."""
    flagged = flagged_side(board, recorded, ending)
    if BATCHED_FLAG_FALLS and asks_can_checkmate(rules):
        _answer_by_batch(board, 1 - flagged, verdicts.flag_fall_node_limit(rules))
    return flagged, verdicts.flag_fall(rules, board, flagged)


def _answer_by_batch(board: Board, color: int, node_limit: int) -> None:
    """Ask "can ``color`` checkmate?" of the unwinnability batch (the compiled screening,
    then the compiled probe with its compiled line check, then :func:`~reference_impl.unwinnability.analyse`
    where both leave it open: the same verdict as :func:`~reference_impl.unwinnability.analyse`,
    and nothing it would find lost) and keep the answer where ``analyse`` looks first, so
    that the ruling the flag-fall table makes from it is today's, for less CPU. A line
    that goes into a finding is replayed by the interpreter (:func:`_flag_proof`)."""
    answer_by_batch([(board, color)], node_limit)


def answer_by_batch(questions: Sequence[tuple[Board, int]], node_limit: int) -> None:
    """:func:`_answer_by_batch` for many (board, colour) questions at once (one compiled
    call for each stage and colour instead of one per question): the same answers kept."""
    open_questions = [(b, c) for b, c in questions if unwinnability.known_answer(b, c, node_limit) is None]
    if open_questions:
        for (board, color), answer in zip(open_questions, batch.analyse_many(open_questions, node_limit)):
            # an open answer is not kept: analyse kept its own
            unwinnability.keep_answer(board, color, node_limit, answer)


def dead_by_screen(boards: Sequence[Board], tests: Sequence[DeadTest] | None = None) -> list[bool | None]:
    """The answer of the dead-position check at each board (:meth:`_Ends.dead`,
    :func:`~reference_impl.adjudication.verdicts.is_dead_cheap`) where the compiled
    screening alone settles it, asked for all of them at once; ``None`` where the check
    must be asked itself. The screening's ``CANNOT`` is the static stage's proof (or the
    Laws' when no move is left), exactly what the check asks first: proven for both
    colours, the position is dead; for neither, on a board with a pawn or a castling
    right (where the check's other proof, by material, does not apply), it is not;
    otherwise a mate the check's short helpmate search finds for a colour not proven
    settles it as the check would (not dead: the proofs are sound, so a colour with a
    mate is never proven unable), asked before the proof by material the check makes
    first; where none is found the check itself goes on. The short searches of every
    board with a legal move are made together (:func:`~reference_impl.unwinnability.batch.mates_found_quickly`:
    the same searches, their lines checked by the compiled generator).

    Under the one-sided reading of the table's ``test`` (``tests``, one per board; the
    two-sided where not given) a colour proven unable is enough for a dead position, and
    only the check itself decides where neither is proven by the screening.
    """
    if not boards:
        return []
    answers = batch.screen([(b, c) for b in boards for c in (0, 1)])
    out: list[bool | None] = []
    searched: list[tuple[int, Board, tuple[int, ...]]] = []  # the short helpmate searches, made together
    for index, board in enumerate(boards):
        proven = [a.verdict is unwinnability.Verdict.CANNOT for a in answers[2 * index: 2 * index + 2]]
        two_sided = tests is None or tests[index] == verdicts.TWO_SIDED
        if all(proven) or (any(proven) and not two_sided):
            out.append(True)
        elif not any(proven) and (board.castling_rights or _has_pawn(board)):
            out.append(False)
        elif not two_sided:
            out.append(None)
        else:
            unproven = tuple(c for c in (board.turn ^ 1, board.turn) if not proven[c])
            if board.has_legal_move():
                out.append(None)
                searched.append((index, board, unproven))
            else:
                out.append(False if unwinnability.mate_found_quickly(board, colors=unproven) else None)
    for turn in (0, 1):  # each colour in mate_found_quickly's order, the second only where the first found none
        asked = [(index, board, colors[turn]) for index, board, colors in searched
                 if len(colors) > turn and out[index] is None]
        found = batch.mates_found_quickly([(board, color) for _, board, color in asked])
        for (index, _, _), mate in zip(asked, found):
            if mate:
                out[index] = False
    return out


def _has_pawn(board: Board) -> bool:
    return any(board.bb[c][t.index] for c in (0, 1) for t in board.tables.types if t.is_pawn)


def _flag_fall(pgn: PgnGame, rules: Any, board: Board, recorded: str, finding: Any,
               flag: tuple[int, verdicts.Ruling], stop: int) -> GameAudit:
    flagged, ruling = flag
    ruled = Ruling(None if ruling.result == verdicts.UNKNOWN else ruling.result, FLAG, ruling.cite, stop)
    if ruling.result in (recorded, verdicts.UNKNOWN):
        return GameAudit(pgn.index, undetermined=ruling.undetermined, flag_fall=True, ruling=ruled)
    side = ("White", "Black")[flagged]
    reason = f"{side}'s flag fell; {ruling.reason.replace('_', ' ')}" + (f" ({ruling.note})" if ruling.note else "")
    found = finding("flag_fall", ruling.cite, ruling.result, reason, _flag_proof(board, rules, ruling, flagged), ruled)
    found.flag_fall = True
    return found


def _flag_proof(board: Board, rules: Any, ruling: verdicts.Ruling, flagged: int) -> str | None:
    """The evidence for a flag-fall ruling: the unwinnability proof, or the helpmate."""
    if ruling.reason == "dead_position":
        return _dead_proof(board, rules)
    if need(rules.model, rules.model.flag_fall, "flag_fall").draw_test == "opponent_cannot_checkmate":
        found = unwinnability.analyse(board, 1 - flagged, verdicts.flag_fall_node_limit(rules))
        if found.verdict is unwinnability.Verdict.CANNOT:
            return found.proof
        if found.verdict is unwinnability.Verdict.CAN:
            _replay_line(board, found.line, 1 - flagged)  # the interpreter checks the line reported
            return "helpmate " + " ".join(found.line)
        return None
    theirs = verdicts.material(board, 1 - flagged)
    return "opponent's material: " + ", ".join(f"{n} {name}" for name, n in sorted(theirs.items()))


def _replay_line(board: Board, line: tuple[str, ...], color: int) -> None:
    """``line`` (UCI) replayed on a copy of ``board`` by the interpreter: each move legal,
    the end ``color``'s checkmate (else :class:`~reference_impl.unwinnability.native.UnverifiedLine`)."""
    work = board.copy(stack=False)
    for text in line:
        work.push_uci(text)
    if not (work.turn != color and work.is_checkmate()):
        raise native.UnverifiedLine(f"the helpmate line does not end in mate: {work.fen()}")


def _dead_proof(board: Board, rules: Any) -> str:
    found = unwinnability.analyse_both(board, verdicts.dead_position_node_limit(rules))
    return "; ".join(f"{('white', 'black')[c]}: {found[c].proof or found[c].verdict.value}" for c in (0, 1))


def _end_proof(board: Board, rules: Any, end: _End) -> str:
    if end.reason == "dead_position":
        return f"{board.fen()}: {_dead_proof(board, rules)}"
    return f"{board.fen()}: {end.reason.replace('_', ' ')}"
