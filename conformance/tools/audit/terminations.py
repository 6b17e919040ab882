"""What a record says ended the game: the Termination vocabularies of servers and tools.

The vocabularies are data (``data/terminations.yaml``, schema
``data/terminations.schema.json``): each source's phrases, each mapped to an event
(time forfeit, resignation, agreement, abandonment, adjudication, ...) and each event
to how the audit judges the record (``flag_fall``, ``board`` or ``none``).
:func:`read_ending` reads one game's Termination tag (or, for servers that write none,
a tag of their own such as ICC's ICCResult, or the comment after its last move) into an
:class:`Ending`: the event, the source whose phrase matched, and the flagged or
resigning player where the phrase names one (a chess.com ``X won on time`` is a flag
fall of X's opponent).
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path
from typing import Any

from reference_impl.errors import ArbiterError
from reference_impl.notation.pgn import PgnGame
from reference_impl.records import record

from .datafile import read_checked

#: The table and its schema.
TABLE = Path(__file__).parent / "data" / "terminations.yaml"
SCHEMA = Path(__file__).parent / "data" / "terminations.schema.json"
#: How an event is judged (``events.*.judge``).
JUDGES = ("flag_fall", "board", "none")
#: Where a source writes its phrase (``sources.*.where``), and the default.
WHERE_DEFAULT = "termination"
#: The event of a game whose record states no end at all (no Termination tag, no phrase).
UNSTATED = "normal"
#: Literal Termination tags (as written) whose Ending is kept.
ENDINGS = 256
#: The summary's name for a Termination no source lists.
UNKNOWN_WARNING = "unknown Termination"


class TerminationTableError(ArbiterError):
    """The termination table is unreadable, violates its schema or contradicts itself."""


@record
class Phrase:
    """One source's phrase: literal ``text`` or a whole-match ``pattern``."""

    source: str
    event: str
    text: str | None = None
    pattern: re.Pattern[str] | None = None


@record
class Ending:
    """What the record says ended the game."""

    #: the event (a key of the table's ``events``)
    event: str
    #: how it is judged: ``flag_fall``, ``board`` or ``none``
    judge: str
    #: the phrase as written ('' when the record states none)
    phrase: str = ""
    #: the source whose phrase matched (None: unstated or unknown)
    source: str | None = None
    #: the player the phrase names as losing (0 White, 1 Black), when it names one
    loser: int | None = None
    #: False when a phrase was written that no source lists
    known: bool = True
    #: what a decisive result of this ending is when the board does not explain it
    decisive_is: str | None = None
    #: the record may end with the illegal move that ended the game (no finding)
    last_move_illegal: bool = False


@record
class Vocabulary:
    """The whole table, indexed for reading: literal phrases by lower-case text, patterns
    in table order, per place (``termination`` or ``comment``)."""

    judges: dict[str, str]
    decisive: dict[str, str | None]
    #: events whose record may end with the illegal move that ended the game
    illegal_last: frozenset[str]
    literal: dict[str, dict[str, Phrase]]
    patterns: dict[str, tuple[Phrase, ...]]
    #: sources' own tags that hold their phrase (ICC's ICCResult), in table order
    tags: tuple[str, ...] = ()
    #: the Ending of each literal Termination tag as written (built once, shared)
    endings: dict[str, Ending] = field(default_factory=dict)

    def match(self, where: str, phrase: str) -> tuple[Phrase, re.Match[str] | None] | None:
        key = phrase.strip().lower()
        found = self.literal[where].get(key)
        if found is not None:
            return found, None
        for candidate in self.patterns[where]:
            assert candidate.pattern is not None
            m = candidate.pattern.fullmatch(phrase.strip())
            if m is not None:
                return candidate, m
        return None


_VOCABULARY: "Vocabulary | None" = None


def vocabulary(path: Path = TABLE) -> Vocabulary:
    """The termination table at ``path`` (the shipped one by default), read once."""
    global _VOCABULARY
    if path == TABLE:
        if _VOCABULARY is None:
            _VOCABULARY = _read(path)
        return _VOCABULARY
    return _read(path)


def _read(path: Path) -> Vocabulary:
    """The termination table at ``path``, validated (schema, events named, no phrase
    mapped to two events)."""
    data: Any = read_checked(path, SCHEMA, TerminationTableError)
    judges = {name: str(entry["judge"]) for name, entry in data["events"].items()}
    decisive = {name: entry.get("decisive_is") for name, entry in data["events"].items()}
    illegal_last = frozenset(name for name, entry in data["events"].items() if entry.get("last_move_illegal"))
    if UNSTATED not in judges:
        raise TerminationTableError(f"{path}: events: no {UNSTATED!r} event (a record that states no end)")
    literal: dict[str, dict[str, Phrase]] = {"termination": {}, "comment": {}}
    patterns: dict[str, list[Phrase]] = {"termination": [], "comment": []}
    tags: dict[str, None] = {}
    for source, entry in data["sources"].items():
        where = str(entry.get("where") or WHERE_DEFAULT)
        if entry.get("tag"):
            tags[str(entry["tag"])] = None
        for number, raw in enumerate(entry["phrases"]):
            at = f"{path}: sources/{source}/phrases/{number}"
            event = str(raw["event"])
            if event not in judges:
                raise TerminationTableError(f"{at}: unknown event {event!r}")
            if "text" in raw:
                key = str(raw["text"]).lower()
                kept = literal[where].get(key)
                if kept is not None and kept.event != event:
                    raise TerminationTableError(f"{at}: {raw['text']!r} is {kept.event} for {kept.source}, {event} here")
                if kept is None:
                    literal[where][key] = Phrase(source, event, text=str(raw["text"]))
            else:
                try:
                    compiled = re.compile(str(raw["pattern"]), re.IGNORECASE)
                except re.error as error:
                    raise TerminationTableError(f"{at}: pattern: {error}") from None
                unknown = set(compiled.groupindex) - {"winner", "loser"}
                if unknown:
                    raise TerminationTableError(f"{at}: pattern groups {sorted(unknown)} (only winner, loser)")
                patterns[where].append(Phrase(source, event, pattern=compiled))
    return Vocabulary(judges, decisive, illegal_last, literal, {k: tuple(v) for k, v in patterns.items()}, tuple(tags))


def _side(name: str, pgn: PgnGame) -> int | None:
    """0 or 1 for a player named by the White/Black tag or by the colour's name."""
    wanted = name.strip().lower()
    for side, colour in enumerate(("White", "Black")):
        if wanted == colour.lower() or wanted == pgn.tags.get(colour, "").strip().lower():
            return side
    return None


def _loser(found: re.Match[str] | None, pgn: PgnGame) -> int | None:
    if found is None:
        return None
    groups = found.groupdict()
    if groups.get("loser"):
        return _side(groups["loser"], pgn)
    if groups.get("winner"):
        side = _side(groups["winner"], pgn)
        return None if side is None else 1 - side
    return None


def _last_comment(pgn: PgnGame) -> str:
    comments = pgn.moves[-1].comments if pgn.moves else pgn.comment
    return comments[-1].strip() if comments else ""


def _ending(words: Vocabulary, phrase: Phrase, found: re.Match[str] | None, written: str, pgn: PgnGame) -> Ending:
    """The Ending of ``phrase`` (``found``: its pattern's match) as ``written`` in ``pgn``."""
    event = phrase.event
    return Ending(event, words.judges[event], written, phrase.source, _loser(found, pgn),
                  decisive_is=words.decisive[event], last_move_illegal=event in words.illegal_last)


def read_ending(pgn: PgnGame, table: Vocabulary | None = None) -> Ending:
    """The :class:`Ending` the record states: its Termination tag by the table (the
    phrases of every source), else a source's own result tag (ICC's ICCResult), else the
    comment after the last move, by the phrases of servers that write it there."""
    words = table or _VOCABULARY or vocabulary()
    written = pgn.tags.get("Termination")
    if written is not None:
        shared = words.endings.get(written)
        if shared is not None:
            return shared
    tag = (written or "").strip()
    if tag:
        # a server's end message is read wherever it is written (FICS's in a Termination tag)
        hit = words.match("termination", tag) or words.match("comment", tag)
        if hit is None:
            return Ending(UNSTATED, "none", tag, known=False)
        phrase, found = hit
        ending = _ending(words, phrase, found, tag, pgn)
        if found is None and written is not None and len(words.endings) < ENDINGS:
            words.endings[written] = ending  # a literal phrase names no player: the same for every game
        return ending
    for name in words.tags:
        own = pgn.tags.get(name, "").strip()
        if own:
            hit = words.match("comment", own)
            if hit is None:
                return Ending(UNSTATED, "none", own, known=False)
            phrase, found = hit
            return _ending(words, phrase, found, own, pgn)
    comment = _last_comment(pgn)
    hit = words.match("comment", comment) if comment else None
    if hit is None:
        return Ending(UNSTATED, words.judges[UNSTATED], decisive_is=words.decisive[UNSTATED])
    phrase, found = hit
    return _ending(words, phrase, found, comment, pgn)
