"""The compiled path of ``arbiter audit``: a partition's bytes to judged games, with no
Python per move in the common case.

The compiled scan (``scan_pgn`` in ``reference_impl/unwinnability/csrc/pgnscan.c``)
cuts the bytes into the pieces :func:`~reference_impl.notation.pgn.split_games` makes,
reads each the way :func:`~reference_impl.notation.pgn.iter_games` does within a subset
it is sure of (pair-form tags; move numbers, canonical SAN, comments, NAGs and
variations; the result), and replays the main line on the compiled board over the
ruleset's packed tables. What it hands back per game is the tags, the number of plies,
the final position as numbers and where the comment after the last move is (FICS and
cutechess state the ending there); :func:`~.judge.conclude` judges it on a reference
Board built from those numbers (checkmate, stalemate, dead position, flag fall), as for
a game replayed move by move. Everything else goes to the Python path for that game
alone: a piece the scan is unsure of (an escape line, a glyph, a lenient spelling, a
move no legal move fits, a game in which fivefold repetition or the 75-move rule may
hold), a game whose tags set up a position (:data:`PYTHON_TAGS`) or
whose Result tag differs from its result, a game without a Termination tag whose
last comment the scan does not hand over (a semicolon comment, non-ASCII text), and a
game whose chosen ruleset is not one the scan replayed for. A game ending in a dead position is
judged on a Board that makes the scan's moves (finding where the dead stretch began
needs them).

The Laws are chosen per game as on the Python path (:mod:`.laws`): the scan is given
the move tables and per-ply thresholds of the chooser's first ruleset (it leaves a game
to the Python path wherever they may end it); another ruleset the chooser may pick is
checked when a game first picks it (the same moves and start, thresholds no lower), and
each scanned game is judged under the ruleset its tags choose, read through the
termination vocabularies, with the reader's tag complaints the audit reads past
(Termination, TimeControl) left out as :func:`~.judge.audit_game` does. So
:func:`audit_text` gives the same :class:`~.judge.GameAudit` for every game as
:func:`~.judge.audit_record` over ``iter_games`` of the same bytes
(``tests/test_audit_fast.py`` checks it on every PGN file the project ships, under a
family and single rulesets).

The letters and marks the scan reads come from the notation tables (``pieces.yaml``,
``marks.yaml``, ``nags.yaml``, ``results.yaml``) and the thresholds from the first
ruleset's automatic ends, packed once per chooser.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from reference_impl.core import Board
from reference_impl.notation import fastsan
from reference_impl.notation.errors import PgnError
from reference_impl.notation import pgn as pgn_module
from reference_impl.notation.pgn import PgnGame, PgnMove, decode_lines, iter_games, tag_problems
from reference_impl.notation.tables import suffix_annotations, table
from reference_impl.rules.loader import load_ruleset
from reference_impl import unwinnability
from reference_impl.adjudication import verdicts
from reference_impl.records import record
from reference_impl.unwinnability import native

from . import judge
from .judge import GameAudit
from .laws import ORTHODOX, Choice, Chooser, Exact, Skip
from .terminations import Ending, read_ending

#: Tags after which the Python path reads the game: they set up the start position (the
#: scan replays from the ruleset's initial position only). A Variant tag is read by the
#: chooser: a game it gives a ruleset the scan did not replay for (Chess960) goes to the
#: Python path, one of a variant the Laws do not cover is skipped, a ``Standard`` one (as
#: every Lichess API export writes it) stays with the scan.
PYTHON_TAGS = ("FEN", "SetUp")
#: Longest suffix annotation the scan compares (``SCAN_MAXMARK`` in pgnscan.c).
MAX_MARK = 8
#: Largest threshold the scan takes (a ruleset without the end gives ``sys.maxsize``).
MAX_THRESHOLD = (1 << 62) - 1
#: Whether the reader repairs departures from the standard and names them per game
#: (``PgnGame.repairs``): then the scan repairs and counts a game's tags as it does
#: (:func:`_judge_scanned`; under ``--strict-pgn`` the reader refuses them); the scan
#: itself leaves every movetext it could repair to it.
LENIENT = "repairs" in getattr(PgnGame, "__dataclass_fields__", {})
#: Placeholder move of a game the scan replayed: only the number of moves is read.
_SCANNED = PgnMove("", 0)
#: Games the scan replayed that are judged together: the unwinnability questions their
#: judgements ask (flag falls, the dead-position check) go to the compiled batch in one
#: call per stage and colour for all of them, instead of one call each.
CHUNK = 512
#: The tags the reader's tag checks read (:func:`~reference_impl.notation.pgn.tag_repairs`,
#: :func:`~reference_impl.notation.pgn.tag_problems`): their answers are kept by the
#: values of these tags (a database repeats a few of each), at most :data:`TAG_ANSWERS`.
CHECKED_TAGS = ("Result", "SetUp", "FEN", "Termination", "TimeControl")
TAG_ANSWERS = 4096


class _Setup:
    """What the scan is given for one chooser: the packed syntax of the move tables of its
    first ruleset (the latest edition's standard one, or the one given) with that
    ruleset's per-ply thresholds, and the rulesets the chooser may pick for an orthodox
    game, each checked when a game first chooses it (:meth:`known`): one whose moves,
    start or syntax differ, or whose thresholds are lower than the scan's (the scan
    leaves a game to the Python path wherever the thresholds may end it, so they must be
    the lowest of every ruleset it serves), takes the Python path."""

    def __init__(self, first: Board, syntax: tuple[Any, ...], plies: int, occurrences: int,
                 candidates: dict[int, Any]) -> None:
        self.start, self.syntax = first, syntax
        self.plies, self.occurrences = plies, occurrences
        self.candidates = candidates
        self.packed = native.pack_tables(first.tables)
        self.moves = fastsan.syntax(first.tables)
        self.checked: dict[int, tuple[Any, Board] | None] = {}

    def known(self, rules: Any) -> tuple[Any, Board] | None:
        """``rules`` with its start position if the scan's games may be judged under it."""
        if self.candidates.get(id(rules)) is not rules:
            return None
        if id(rules) not in self.checked:
            self.checked[id(rules)] = self._check(rules)
        return self.checked[id(rules)]

    def _check(self, rules: Any) -> tuple[Any, Board] | None:
        start = judge._start(None, rules)
        if start.fen() != self.start.fen() or native.pack_tables(start.tables) != self.packed \
                or fastsan.syntax(start.tables) != self.moves:
            return None  # other move tables or start: its games take the Python path
        ends = judge._ends_of(rules)
        if ends.plies < self.plies or ends.occurrences < self.occurrences:
            return None  # an end the scan's thresholds would pass over
        if ends.end(start, [start.position_key()], 0) is not None:
            return None  # the initial position already ends the game: the Python path says so
        return rules, start


_setup_cache: dict[int, tuple[Chooser, _Setup | None]] = {}
_repairs: dict[tuple[str | None, ...], tuple[pgn_module.TagRepair, ...]] = {}
_tag_errors: dict[tuple[str | None, ...], str | None] = {}


def _setup(choose: Chooser) -> _Setup | None:
    """The scan's inputs for ``choose`` (``None``: the scan cannot read for it; every game
    then takes the Python path), built once per chooser."""
    hit = _setup_cache.get(id(choose))
    if hit is not None and hit[0] is choose:
        return hit[1]
    found = _build_setup(_candidates(choose))
    _setup_cache.clear()
    _setup_cache[id(choose)] = (choose, found)
    return found


def _candidates(choose: Chooser) -> list[Any]:
    """The rulesets ``choose`` may pick for a game of orthodox chess without a FEN tag
    (the scan leaves the others to the Python path), the scan's first ruleset first: the
    given one, or the standard ruleset of the family's latest edition, then every other
    orthodox member of its editions, in the family's order."""
    if isinstance(choose, Exact):
        return [choose.rules]
    ids = [choose.editions[-1].main] + [ruleset for edition in choose.editions
                                         for (variant, _), ruleset in edition.rulesets.items() if variant == ORTHODOX]
    return [load_ruleset(ruleset) for ruleset in dict.fromkeys(ids)]


def _build_setup(candidates: list[Any]) -> _Setup | None:
    first_rules = candidates[0]
    first = judge._start(None, first_rules)
    ends = judge._ends_of(first_rules)
    if ends.end(first, [first.position_key()], 0) is not None:
        return None  # the initial position already ends the game: the Python path says so
    syntax = fastsan.syntax(first.tables)
    letters = bytearray(b"\xff" * 256)
    for letter, index in syntax.types.items():
        if letter is None:
            continue
        if len(letter) != 1 or not letter.isascii() or not letter.isupper():
            return None  # the scan reads one upper-case ASCII letter per piece
        letters[ord(letter)] = index
    row = table("marks")["traditions"]["pgn"]
    king_side = next(form for form, side in syntax.castling.items() if side)
    queen_side = next(form for form, side in syntax.castling.items() if not side)
    if any(len(s) > MAX_MARK for s in suffix_annotations()):
        return None
    # printed results the reader takes for a termination marker (pgn._result_aliases);
    # the scan leaves every non-ASCII byte outside comments to the Python reader
    aliases = {k for k in table("results").get("aliases", {}) if k != "=" and not LENIENT}
    ascii_aliases = tuple(a.encode() for a in sorted(aliases) if a.isascii())
    plies, occurrences = min(ends.plies, MAX_THRESHOLD), min(ends.occurrences, MAX_THRESHOLD)
    values: tuple[Any, ...] = (
        bytes(letters),
        king_side.encode(),
        queen_side.encode(),
        row["capture"][0].encode(),
        row["promotion_separator"].encode(),
        syntax.check.encode(),
        syntax.mate.encode(),
        tuple(s.encode() for s in suffix_annotations()),
        ascii_aliases,
        int(table("nags")["max"]),
        plies,
        occurrences,
    )
    return _Setup(first, values, plies, occurrences, {id(rules): rules for rules in candidates})


def _lines(data: bytes) -> list[bytes]:
    """The lines of ``data`` as a plain partition streams them (each ending after ``\n``)."""
    lines = data.split(b"\n")
    last = lines.pop()
    return [line + b"\n" for line in lines] + ([last] if last else [])


def audit_text(data: bytes | str, choose: Chooser, lines: Callable[[], Iterable[bytes]] | None = None,
               read: Callable[[Iterable[str]], Iterable[PgnGame]] = iter_games,
               strict: bool = False) -> Iterator[tuple[PgnGame, GameAudit]]:
    """Every game of ``data`` (a partition's bytes, or text, read as its UTF-8 bytes) with
    its audit under the Laws ``choose`` picks for it, numbered from 1: the same audits as
    :func:`~.judge.audit_record` over ``read(decode_lines(lines()))`` (``read``: the
    reader, :func:`~reference_impl.notation.pgn.iter_games` or its strict form; ``lines``:
    how the partition splits into lines, by default after each ``\\n``; asked only where
    the whole partition goes to the reader; ``strict``: ``read`` refuses what the reader
    otherwise repairs). A game the scan replayed comes with a
    :class:`~reference_impl.notation.pgn.PgnGame` of its tags and result (its moves are
    placeholders: only their number is known); the scan reads only the standard's own
    forms of movetext, so such a game's repairs are those of its tags (a cutechess
    ``TimeControl``), made and counted as the reader makes them."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    setup = _setup(choose)
    scanned = None if setup is None else native.scan_pgn(setup.start, setup.syntax, raw)
    if scanned is None:
        for pgn in read(decode_lines(lines() if lines is not None else _lines(raw))):
            yield pgn, judge.audit_record(pgn, choose)
        return
    assert setup is not None
    index = 1
    for first in range(0, len(scanned), CHUNK):
        done: list[tuple[PgnGame, GameAudit] | _Prepared] = []
        for item in scanned[first:first + CHUNK]:
            if item[0]:
                found = _prepare(item, index, setup, choose, raw, strict)
                if found is not None:
                    index += 1
                    done.append(found)
                    continue
            for pgn in _read_piece(raw[item[1]:item[2]], index, item[3], read):
                index += 1
                done.append((pgn, judge.audit_record(pgn, choose)))
        _ask_together([entry for entry in done if isinstance(entry, _Prepared)])
        for entry in done:
            yield _judged(entry) if isinstance(entry, _Prepared) else entry


@dataclass
class _Prepared:
    """A game the scan replayed, read and ready to judge: its ruleset and start, what its
    record says ended it, and (once the chunk's questions are asked) its final board and
    the dead-position check's answer there when the screening settled it."""

    pgn: PgnGame
    rules: Any
    start: Board
    choice: Choice
    ending: Ending
    item: tuple[Any, ...]
    board: "_Scanned | None" = None
    dead: bool | None = None


def _judge_scanned(item: tuple[Any, ...], index: int, setup: _Setup, choose: Chooser,
                   raw: bytes, strict: bool = False) -> tuple[PgnGame, GameAudit] | None:
    """The audit of a game the scan replayed, or ``None`` when the Python path must
    decide it (:func:`_prepare`), judged alone."""
    found = _prepare(item, index, setup, choose, raw, strict)
    if isinstance(found, _Prepared):
        _ask_together([found])
        return _judged(found)
    return found


def _prepare(item: tuple[Any, ...], index: int, setup: _Setup, choose: Chooser,
             raw: bytes, strict: bool = False) -> tuple[PgnGame, GameAudit] | _Prepared | None:
    """A game the scan replayed, ready to judge (or its audit already: skipped, or its
    tags unreadable), or ``None`` when the Python path must decide it (a ruleset the scan
    did not replay for, an ending the record may state in a comment the scan does not
    hand over, a repair under ``strict`` reading)."""
    _, begin, finish, line, tags, result, plies = item[:7]
    repaired: tuple[str, ...] = ()
    if LENIENT:
        fixes = _tag_repairs(tags)
        if fixes:
            if strict:
                return None  # the reader names the departure as the game's error
            for kind, _, name, value in fixes:  # as the reader repairs them (PgnGame.repairs)
                if kind not in repaired:
                    repaired += (kind,)
                if value is not None:
                    tags[name] = value
    if tags.get("Result", result) != result or any(name in tags for name in PYTHON_TAGS):
        return None
    last = item[18] if len(item) > 18 else -2
    if last == -2 and "Termination" not in tags:
        return None  # the ending may be stated in a comment the scan does not hand over
    pgn = PgnGame(index, line, tags, [_SCANNED] * plies, result=result)
    if last >= 0:  # the last comment (read_ending reads the ending there without a Termination)
        comment = [raw[last:item[19]].decode("ascii").strip()]
        if plies:
            pgn.moves[-1] = PgnMove("", 0, comments=comment)
        else:
            pgn.comment = comment
    if repaired:
        pgn.repairs = repaired
    choice = choose.choose(pgn)
    if isinstance(choice, Skip):
        return pgn, GameAudit(index, skipped=choice.reason, kind=choice.kind)
    problem = _tag_error(tags)
    if problem is not None:
        # The reader reports these when the game is complete; the scan read the rest
        # without a problem, so the first of them is the game's first error.
        return pgn, GameAudit(index, error=problem, kind=judge.UNREADABLE)
    known = setup.known(choice.rules)
    if known is None:
        return None
    rules, start = known
    return _Prepared(pgn, rules, start, choice, read_ending(pgn), item)


def _ask_together(games: list[_Prepared]) -> None:
    """Set each game's final board, and ask the unwinnability questions their judgements
    will ask, for all of them at once: "can the opponent checkmate?" where the record ends
    in a flag fall under a ruleset that asks it (the answers kept where the ruling looks,
    :func:`~.judge.answer_by_batch`), then the screening of the dead-position check where
    no flag-fall ruling backed by a mate spares it (:func:`~.judge.dead_by_screen`)."""
    flags: dict[int, list[tuple[Board, int]]] = {}
    for game in games:
        game.board = board = _Scanned.at(game.start, *game.item[7:17])
        if not judge.BATCHED_FLAG_FALLS:
            continue  # each judgement asks its own questions (the same answers)
        if game.ending.judge == judge.FLAG and judge.asks_can_checkmate(game.rules) and not board.is_checkmate():
            recorded = game.pgn.tags.get("Result") or game.pgn.result or "*"
            color = 1 - judge.flagged_side(board, recorded, game.ending)
            flags.setdefault(verdicts.flag_fall_node_limit(game.rules), []).append((board, color))
    for node_limit, questions in flags.items():
        judge.answer_by_batch(questions, node_limit)
    screened = [game for game in games if judge.BATCHED_FLAG_FALLS and _dead_check_asked(game)]
    boards = [game.board for game in screened if game.board is not None]  # every game's, set above
    tests = [judge._ends_of(game.rules).dead_test for game in screened]
    for game, answer in zip(screened, judge.dead_by_screen(boards, tests)):
        game.dead = answer


def _dead_check_asked(game: _Prepared) -> bool:
    """Whether :func:`~.judge.conclude` asks the dead-position check where the game ends
    (not at a checkmate the ruleset rules first, nor after a flag-fall ruling a found mate
    backs), where the ruleset has the end."""
    board, ends = game.board, judge._ends_of(game.rules)
    assert board is not None
    if ends.dead_entry is None or (ends.mate_first and board.is_checkmate()):
        return False
    if game.ending.judge == judge.FLAG and judge.asks_can_checkmate(game.rules):
        recorded = game.pgn.tags.get("Result") or game.pgn.result or "*"
        color = 1 - judge.flagged_side(board, recorded, game.ending)
        known = unwinnability.known_answer(board, color, verdicts.flag_fall_node_limit(game.rules))
        return known is None or known.verdict is not unwinnability.Verdict.CAN
    return True


def _judged(game: _Prepared) -> tuple[PgnGame, GameAudit]:
    """The audit of a prepared game: judged on its final board (the dead-position check's
    answer there from the screening where it settled it)."""
    pgn, rules, ending, item = game.pgn, game.rules, game.ending, game.item
    plies = len(pgn.moves)

    def judged() -> GameAudit:
        board = game.board if game.board is not None else _Scanned.at(game.start, *item[7:17])
        found = judge.conclude(pgn, rules, ending, board, [board.position_key()], plies, None, None,
                               replayed=False, dead=game.dead)
        if found is not None:
            return found
        # A dead position where the record stops: judged on a Board that holds the moves
        # (the scan's, made without reading them again). No repetition or move-rule end
        # holds at any of its plies (the scan leaves such a game to the Python path), so,
        # as for the first judgement, the last position's key stands for the positions.
        played = judge._start(None, rules)
        for code in array("i", item[17]):
            played.push_code(code)
        # the first judgement found the record's end dead (the check asked there, or the screening)
        again = judge.conclude(pgn, rules, ending, played, [played.position_key()], plies, None, None, dead=True)
        assert again is not None  # replayed: a dead stretch is walked back on the board
        return again

    return pgn, judge.labelled(pgn, rules, game.choice, ending, judged)


def _tag_repairs(tags: dict[str, str]) -> tuple[pgn_module.TagRepair, ...]:
    """:func:`~reference_impl.notation.pgn.tag_repairs` of ``tags``, kept by :data:`CHECKED_TAGS`."""
    key = tuple(map(tags.get, CHECKED_TAGS))
    found = _repairs.get(key)
    if found is None:
        if len(_repairs) >= TAG_ANSWERS:
            _repairs.clear()
        found = _repairs[key] = tuple(pgn_module.tag_repairs(tags))
    return found


def _tag_error(tags: dict[str, str]) -> str | None:
    """The first problem the reader reports in ``tags`` that the audit does not read past
    (as :func:`~.judge.audit_game`: not those of the tags it reads by its own tables),
    kept by :data:`CHECKED_TAGS`."""
    key = tuple(map(tags.get, CHECKED_TAGS))
    if key not in _tag_errors:
        if len(_tag_errors) >= TAG_ANSWERS:
            _tag_errors.clear()
        _tag_errors[key] = _first_tag_error(tags)
    return _tag_errors[key]


def _first_tag_error(tags: dict[str, str]) -> str | None:
    problems = tag_problems(tags)
    if not problems:
        return None
    own = {name: tags[name] for name in judge.OWN_TAGS if name in tags}
    ignored = set(tag_problems(own)) if own else set()
    return next((problem for problem in problems if problem not in ignored), None)


class _Scanned(Board):
    """A reference Board at the final position of a game the scan replayed, which knows
    from the compiled board whether that position is check and how many legal moves it
    has (the compiled generator is checked against the interpreter's by perft); in any
    other position it asks the interpreter like any Board. Its copies are plain Boards."""

    _facts: tuple[tuple[int, ...], bool, int]

    @classmethod
    def at(cls, template: Board, bb: list[list[int]], occ: list[int], mailbox: list[int], turn: int,
           castling: int, ep: int, halfmove: int, fullmove: int, check: int, legal: int) -> "_Scanned":
        board = template.copy(stack=False)  # the ruleset and its tables; no moves
        board.__class__ = cls
        board.bb, board.occ_co, board.occupied, board.mailbox = bb, occ, occ[0] | occ[1], mailbox
        board.turn, board.castling_rights, board.ep_square = turn, castling, ep
        board.halfmove_clock, board.fullmove_number = halfmove, fullmove
        board._facts = (board._key(), bool(check), legal)  # type: ignore[attr-defined]
        return board  # type: ignore[return-value]

    def _known(self) -> tuple[bool, int] | None:
        key, check, legal = self._facts
        return (check, legal) if self._key() == key else None

    def is_check(self) -> bool:
        known = self._known()
        return super().is_check() if known is None else known[0]

    def legal_move_count(self) -> int:
        known = self._known()
        return super().legal_move_count() if known is None else known[1]

    def has_legal_move(self) -> bool:
        known = self._known()
        return super().has_legal_move() if known is None else known[1] > 0

    def is_checkmate(self) -> bool:
        known = self._known()
        return super().is_checkmate() if known is None else known[0] and not known[1]

    def is_stalemate(self) -> bool:
        known = self._known()
        return super().is_stalemate() if known is None else not known[0] and not known[1]


def _read_piece(data: bytes, index: int, first_line: int,
               read: Callable[[Iterable[str]], Iterable[PgnGame]] = iter_games) -> list[PgnGame]:
    """The games of one piece by the Python reader ``read``, numbered as in the whole
    partition (game ``index`` on, lines from ``first_line``)."""
    games = list(read(decode_lines(_lines(data))))
    shift = first_line - 1
    for number, game in enumerate(games, index):
        game.index = number
        game.line += shift
        game.errors = [PgnError(number, e.reason, move=e.move, line=None if e.line is None else e.line + shift)
                       for e in game.errors]
    return games
