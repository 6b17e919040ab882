"""The compiled path of ``arbiter audit``: a partition's bytes to judged games, with no
Python per move in the common case.

The compiled scan (``scan_pgn`` in ``reference_impl/unwinnability/csrc/pgnscan.c``)
cuts the bytes into the pieces :func:`~reference_impl.notation.pgn.split_games` makes,
reads each the way :func:`~reference_impl.notation.pgn.iter_games` does within a subset
it is sure of (pair-form tags; move numbers, canonical SAN, comments, NAGs and
variations; the result), and replays the main line on the compiled board over the
ruleset's packed tables. What it hands back per game is the tags, the number of plies
and the final position as numbers; :func:`~.judge.conclude` judges it on a reference
Board built from those numbers (checkmate, stalemate, dead position, flag fall), as for
a game replayed move by move. Everything else goes to the Python path for that game
alone: a piece the scan is unsure of (an escape line, a glyph, a lenient spelling, a
move no legal move fits, a game in which fivefold repetition or the 75-move rule may
hold), a game whose tags set up a position or a variant (:data:`PYTHON_TAGS`) or
whose Result tag differs from its result. A game ending in a dead position is judged
on a Board that makes the scan's moves (finding where the dead stretch began needs
them). So :func:`audit_text` gives the same :class:`~.judge.GameAudit`
for every game as :func:`~.judge.audit_game` over ``iter_games`` of the same bytes
(``tests/test_audit_fast.py`` checks it on every PGN file the project ships).

The letters and marks the scan reads come from the notation tables (``pieces.yaml``,
``marks.yaml``, ``nags.yaml``, ``results.yaml``) and the thresholds from the ruleset's
automatic ends, packed once per ruleset.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Iterator

from reference_impl.core import Board
from reference_impl.notation import fastsan
from reference_impl.notation.errors import PgnError
from reference_impl.notation.pgn import PgnGame, PgnMove, decode_lines, iter_games, tag_problems
from reference_impl.notation.tables import table
from reference_impl.unwinnability import native

from . import judge
from .judge import GameAudit

#: Tags after which the Python path reads the game: they set up the start position or
#: name a variant (the scan replays from the ruleset's initial position only).
PYTHON_TAGS = ("FEN", "SetUp", "Variant")
#: Longest suffix annotation the scan compares (``SCAN_MAXMARK`` in pgnscan.c).
MAX_MARK = 8
#: Largest threshold the scan takes (a ruleset without the end gives ``sys.maxsize``).
MAX_THRESHOLD = (1 << 62) - 1
#: Placeholder move of a game the scan replayed: only the number of moves is read.
_SCANNED = PgnMove("", 0)


@dataclass(frozen=True)
class _Setup:
    """What the scan is given for one ruleset."""

    rules: Any
    start: Board
    syntax: tuple[Any, ...]


_setup_cache: dict[int, tuple[Any, _Setup | None]] = {}


def _setup(rules: Any) -> _Setup | None:
    """The scan's inputs for ``rules`` (``None``: the scan cannot read for it; every game
    then takes the Python path), built once per ruleset."""
    hit = _setup_cache.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    found = _build_setup(rules)
    _setup_cache.clear()
    _setup_cache[id(rules)] = (rules, found)
    return found


def _build_setup(rules: Any) -> _Setup | None:
    start = judge._start(None, rules)
    ends = judge._ends_of(rules)
    keys: list[Hashable] = [start.position_key()]
    if ends.end(start, keys, 0) is not None:
        return None  # the initial position already ends the game: the Python path says so
    syntax = fastsan.syntax(start.tables)
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
    if any(len(s) > MAX_MARK for s in fastsan.SUFFIXES):
        return None
    # printed results the reader takes for a termination marker (pgn._result_aliases);
    # the scan leaves every non-ASCII byte outside comments to the Python reader
    aliases = {k for k in table("results").get("aliases", {}) if k != "="}
    ascii_aliases = tuple(a.encode() for a in sorted(aliases) if a.isascii())
    packed = (
        bytes(letters),
        king_side.encode(),
        queen_side.encode(),
        row["capture"][0].encode(),
        row["promotion_separator"].encode(),
        syntax.check.encode(),
        syntax.mate.encode(),
        tuple(s.encode() for s in fastsan.SUFFIXES),
        ascii_aliases,
        int(table("nags")["max"]),
        min(ends.plies, MAX_THRESHOLD),
        min(ends.occurrences, MAX_THRESHOLD),
    )
    return _Setup(rules, start, packed)


def _lines(data: bytes) -> list[bytes]:
    """The lines of ``data`` as a plain partition streams them (each ending after ``\n``)."""
    lines = data.split(b"\n")
    last = lines.pop()
    return [line + b"\n" for line in lines] + ([last] if last else [])


def audit_text(data: bytes | str, rules: Any,
               lines: Callable[[], Iterable[bytes]] | None = None) -> Iterator[GameAudit]:
    """Every game of ``data`` (a partition's bytes, or text, read as its UTF-8 bytes)
    judged under ``rules`` (a resolved ruleset), numbered from 1: the same audits as
    :func:`~.judge.audit_game` over :func:`~reference_impl.notation.pgn.iter_games` of
    ``decode_lines(lines())`` (``lines``: how the partition splits into lines, by default
    after each ``\\n``; asked only where the whole partition goes to the reader)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    setup = _setup(rules)
    scanned = None if setup is None else native.scan_pgn(setup.start, setup.syntax, raw)
    if scanned is None:
        for pgn in iter_games(decode_lines(lines() if lines is not None else _lines(raw))):
            yield judge.audit_game(pgn, rules)
        return
    assert setup is not None
    index = 1
    for item in scanned:
        if item[0]:
            found = _judge_scanned(item, index, setup)
            if found is not None:
                index += 1
                yield found
                continue
        for pgn in _read_piece(raw[item[1]:item[2]], index, item[3]):
            index += 1
            yield judge.audit_game(pgn, rules)



def _judge_scanned(item: tuple[Any, ...], index: int, setup: _Setup) -> GameAudit | None:
    """The audit of a game the scan replayed, or ``None`` when the Python path must
    decide it."""
    _, _, _, line, tags, result, plies = item[:7]
    if tags.get("Result", result) != result or any(name in tags for name in PYTHON_TAGS):
        return None
    problems = tag_problems(tags)
    if problems:
        # The reader reports these when the game is complete; the scan read the rest
        # without a problem, so the first of them is the game's first error.
        return GameAudit(index, error=problems[0])
    pgn = PgnGame(index, line, tags, [_SCANNED] * plies, result=result)
    board = _Scanned.at(setup.start, *item[7:17])
    found = judge.conclude(pgn, setup.rules, board, [board.position_key()], plies, None, None, replayed=False)
    if found is not None:
        return found
    # A dead position where the record stops: judged on a Board that holds the moves (the
    # scan's, made without reading them again), with the position keys of every ply.
    board = judge._start(None, setup.rules)
    key_of = judge._key_of(board, setup.rules)
    keys: list[Hashable] = [key_of()]
    for code in array("i", item[17]):
        board.push_code(code)
        keys.append(key_of())
    return judge.conclude(pgn, setup.rules, board, keys, plies, None, None)


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


def _read_piece(data: bytes, index: int, first_line: int) -> list[PgnGame]:
    """The games of one piece by the Python reader, numbered as in the whole partition
    (game ``index`` on, lines from ``first_line``)."""
    games = list(iter_games(decode_lines(_lines(data))))
    shift = first_line - 1
    for number, game in enumerate(games, index):
        game.index = number
        game.line += shift
        game.errors = [PgnError(number, e.reason, move=e.move, line=None if e.line is None else e.line + shift)
                       for e in game.errors]
    return games
