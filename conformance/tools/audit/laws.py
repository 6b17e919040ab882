"""The Laws that govern each recorded game: edition by date, regime by time control,
Chess960 by the tags, and the variants the Laws do not cover.

``--rules`` names either a family of ``data/laws.yaml`` (``fide``, ``uscf``) or one
ruleset (an id, alias or file). :func:`chooser` makes a :class:`Chooser`;
``chooser.choose(pgn)`` gives a :class:`Choice` (the resolved ruleset and why, in
words a finding carries) or a :class:`Skip` (a game of a variant the Laws do not
cover, never judged). For a family the choice is all data: the editions' dates of
effect and the tags that date a game (``data/laws.yaml``), each edition's rulesets by
their ``federation``, ``edition`` and ``scope`` fields, and the regime by the edition's
own ``speed`` table (FIDE A.1 / B.1, US Chess 5C). Choices are cached per distinct
(date, TimeControl, variant) so a database costs a dictionary look-up per game.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from reference_impl.adjudication.timecontrol import classify, parse, speed_minutes
from reference_impl.errors import ArbiterError, quote
from reference_impl.notation.pgn import PgnGame
from reference_impl.records import record
from reference_impl.rules.loader import list_rulesets, load_ruleset

from .datafile import read_checked

#: The table and its schema.
TABLE = Path(__file__).parent / "data" / "laws.yaml"
SCHEMA = Path(__file__).parent / "data" / "laws.schema.json"
#: The variant of games the Laws of Chess cover without Guidelines (``scope.variant``).
ORTHODOX = "orthodox"
CHESS960 = "chess960"
#: The regime of a game whose time control is unknown or not understood.
DEFAULT_SPEED = "standard"
#: The summary's reason for a game of a variant the Laws do not cover.
NOT_CHESS = "not chess under these Laws"
#: The summary's reason for a game of a variant the family ships no ruleset for.
NO_RULESET = "no ruleset of the family for the variant"
#: Distinct (date, TimeControl, variant) choices kept per chooser.
CACHE = 4096

_DATE_RE = re.compile(r"^\s*(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})\s*$")
_FOLD_RE = re.compile(r"[\s_-]+")


class LawsTableError(ArbiterError):
    """The laws table is unreadable, violates its schema or names no shipped ruleset."""


@record
class Choice:
    """The ruleset a game is judged under, and why (one sentence)."""

    rules: Any
    reason: str

    @property
    def id(self) -> str:
        return str(self.rules.id)


@record
class Skip:
    """A game not judged: ``kind`` for the summary's count, ``reason`` for its line."""

    kind: str
    reason: str


@record
class Edition:
    edition: str
    start: dt.date
    cite: str
    #: scope (variant, speed) -> ruleset id
    rulesets: dict[tuple[str, str], str]
    #: the edition's standard orthodox ruleset (its speed table classifies the game)
    main: str


@lru_cache(maxsize=None)
def table(path: Path = TABLE) -> dict[str, Any]:
    """The laws table, schema-checked."""
    table_data: dict[str, Any] = read_checked(path, SCHEMA, LawsTableError)
    return table_data


def fold(name: str) -> str:
    """A Variant value as compared: lower case, spaces, '-' and '_' removed."""
    return _FOLD_RE.sub("", name.strip().lower())


def _chess960_names() -> frozenset[str]:
    from reference_impl.notation.tables import table as notation_table

    return frozenset(fold(v) for v in notation_table("pgn")["supplemental"]["Variant"]["chess960"])


def _fen_chess960(fen: str | None) -> str | None:
    """Why a FEN is Chess960 (castling rights only Chess960 allows), or None."""
    if not fen:
        return None
    fields = fen.split()
    if len(fields) < 3 or fields[2] == "-":
        return None
    rights = fields[2]
    if any(c not in "KQkq" for c in rights):
        return f"FEN castling rights {quote(rights)} name rook files (Shredder-FEN)"
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        return None

    def king_file(rank: str, king: str) -> int | None:
        file = 0
        for c in rank:
            if c.isdigit():
                file += int(c)
            elif c == king:
                return file
            else:
                file += 1
        return None

    for side, rank, king in (("KQ", ranks[7], "K"), ("kq", ranks[0], "k")):
        if any(c in rights for c in side) and king_file(rank, king) not in (None, 4):
            return f"FEN castling rights {quote(rights)} with the king off the e-file"
    return None


class Variants:
    """The game's variant by its Variant, FEN and SetUp tags (and, without a Variant tag,
    by an Event tag that names a variant the Laws do not cover): (variant, why) or a Skip."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.chess960 = _chess960_names()
        self.orthodox = frozenset(fold(v) for v in data["orthodox"])
        self.not_chess = {fold(v["name"]): str(v["name"]) for v in data["not_chess"]}
        self.event_patterns = [re.compile(str(e["pattern"]), re.IGNORECASE) for e in data.get("event_variants", ())]
        self.events: dict[str, Skip | None] = {}

    def of(self, pgn: PgnGame) -> tuple[str, str] | Skip:
        written = pgn.tags.get("Variant", "").strip()
        name = fold(written)
        if name in self.chess960:
            return CHESS960, f"Variant {quote(written)}"
        if name in self.not_chess:
            return Skip(NOT_CHESS, f"Variant {quote(written)} ({self.not_chess[name]}): {NOT_CHESS}")
        if name and name not in self.orthodox:
            return Skip("unknown variant", f"Variant {quote(written)} is not known to be chess; not judged")
        if not written:
            skip = self.by_event(pgn.tags.get("Event"))
            if skip is not None:
                return skip
        why = _fen_chess960(pgn.fen)
        if why is not None:
            return CHESS960, why
        return ORTHODOX, ""

    def by_event(self, event: str | None) -> Skip | None:
        """The skip of a game whose Event names a variant of ``not_chess`` (by the table's
        ``event_variants``), else ``None``; cached per Event value."""
        if not event or not self.event_patterns:
            return None
        if event in self.events:
            return self.events[event]
        found = None
        for pattern in self.event_patterns:
            m = pattern.fullmatch(event.strip())
            if m is not None:
                name = fold(m.group("variant"))
                if name in self.not_chess:
                    found = Skip(NOT_CHESS, f"Event {quote(event)} ({self.not_chess[name]}): {NOT_CHESS}")
                break
        if len(self.events) >= CACHE:
            self.events.clear()
        self.events[event] = found
        return found


def game_date(pgn: PgnGame, tags: list[str]) -> tuple[dt.date | None, str]:
    """The earliest day the game's date tags allow, and the tag as written."""
    for name in tags:
        written = pgn.tags.get(name)
        m = _DATE_RE.match(written or "")
        if m is None or m[1].startswith("?"):
            continue
        year = int(m[1])
        month = 1 if m[2].startswith("?") else int(m[2])
        day = 1 if m[3].startswith("?") else int(m[3])
        try:
            return dt.date(year, month, day), f"{name} {written}"
        except ValueError:
            continue
    return None, ""


def _castling_fen(pgn: PgnGame) -> str | None:
    """The FEN tag when it grants a castling right (only then can it make a game Chess960)."""
    fen = pgn.tags.get("FEN")
    if fen is None or pgn.tags.get("SetUp", "1") == "0":
        return None
    fields = fen.split(None, 3)
    return fen if len(fields) >= 3 and fields[2] != "-" else None


class Exact:
    """One ruleset for every game (``--rules fide-2023``)."""

    def __init__(self, rules: Any, variants: Variants) -> None:
        self.rules = rules
        self.variants = variants
        self.choice = Choice(rules, f"{rules.id} given by --rules")
        self.cache: dict[tuple[str | None, str | None], Choice | Skip] = {}

    def choose(self, pgn: PgnGame) -> Choice | Skip:
        tags = pgn.tags
        if "Variant" not in tags and "FEN" not in tags:
            return self.variants.by_event(tags.get("Event")) or self.choice
        key = (tags.get("Variant"), _castling_fen(pgn) if "FEN" in tags else None)
        found = self.cache.get(key)
        if found is None:
            if len(self.cache) >= CACHE:
                self.cache.clear()
            variant = self.variants.of(pgn)
            found = self.cache[key] = variant if isinstance(variant, Skip) else self.choice
        return found


class Family:
    """A family of editions (``--rules fide``): edition by date, variant, regime."""

    def __init__(self, name: str, entry: dict[str, Any], tags: list[str], variants: Variants) -> None:
        self.name = name
        self.tags = tags
        self.variants = variants
        federation = str(entry["federation"])
        shipped = [r for r in list_rulesets() if r.data.get("federation") == federation]
        self.editions: list[Edition] = []
        for raw in entry["editions"]:
            members: dict[tuple[str, str], str] = {(r.scope.variant or ORTHODOX, r.scope.speed): r.id
                       for r in shipped if str(r.data.get("edition")) == str(raw["edition"])}
            main = members.get((ORTHODOX, DEFAULT_SPEED))
            if main is None:
                raise LawsTableError(f"{TABLE}: families/{name}: no standard {federation} ruleset of edition {raw['edition']}")
            self.editions.append(Edition(str(raw["edition"]), dt.date.fromisoformat(raw["in_force_from"]),
                                         str(raw["cite"]), members, main))
        self.editions.sort(key=lambda e: e.start)
        self.cache: dict[tuple[str | None, ...], Choice | Skip] = {}
        #: what a miss of ``cache`` (each new date, in a database) asks again otherwise:
        #: the regime per (edition, TimeControl), the rulesets by id
        self.speeds: dict[tuple[str, str], tuple[str, str]] = {}
        self.loaded: dict[str, Any] = {}

    def choose(self, pgn: PgnGame) -> Choice | Skip:
        tags = pgn.tags
        # the tags as written decide the choice: look them up before reading any of them
        key = (tags.get("Variant"), _castling_fen(pgn) if "FEN" in tags else None, tags.get("TimeControl"),
               *map(tags.get, self.tags))
        if "Variant" not in tags:
            skip = self.variants.by_event(tags.get("Event"))
            if skip is not None:
                return skip
        found = self.cache.get(key)
        if found is None:
            if len(self.cache) >= CACHE:
                self.cache.clear()
            found = self.cache[key] = self._decide(pgn)
        return found

    def _decide(self, pgn: PgnGame) -> Choice | Skip:
        variant = self.variants.of(pgn)
        if isinstance(variant, Skip):
            return variant
        kind, why = variant
        if kind != ORTHODOX and not any((kind, DEFAULT_SPEED) in e.rulesets for e in self.editions):
            return Skip(NO_RULESET, f"{kind} by {why}: no {kind} ruleset of the {self.name} family is shipped; not judged")
        date, dated = game_date(pgn, self.tags)
        return self._choose(date, dated, pgn.tags.get("TimeControl", "").strip(), variant)

    def _edition(self, date: dt.date | None, dated: str) -> tuple[Edition, str]:
        first, last = self.editions[0], self.editions[-1]
        if date is None:
            return last, f"no readable date: the {self.name} edition in force now ({last.edition}, from {last.start})"
        if date < first.start:
            return first, (f"{dated} is before the earliest shipped {self.name} edition ({first.edition}, in force "
                           f"from {first.start}): judged under it")
        edition = [e for e in self.editions if e.start <= date][-1]
        return edition, f"{dated}: edition {edition.edition} in force from {edition.start} ({edition.cite})"

    def _ruleset(self, ruleset_id: str) -> Any:
        found = self.loaded.get(ruleset_id)
        if found is None:
            found = self.loaded[ruleset_id] = load_ruleset(ruleset_id)
        return found

    def _speed(self, edition: Edition, control: str) -> tuple[str, str]:
        key = (edition.edition, control)
        found = self.speeds.get(key)
        if found is None:
            if len(self.speeds) >= CACHE:
                self.speeds.clear()
            found = self.speeds[key] = self._regime(edition, control)
        return found

    def _regime(self, edition: Edition, control: str) -> tuple[str, str]:
        if not control:
            return DEFAULT_SPEED, f"no TimeControl: {DEFAULT_SPEED}"
        try:
            parsed = parse(control)
            if not parsed.known:
                return DEFAULT_SPEED, f"TimeControl {quote(control)} unknown: {DEFAULT_SPEED}"
            speed = self._ruleset(edition.main).model.speed
            if speed is None:
                return DEFAULT_SPEED, f"no speed bands in {edition.main}: {DEFAULT_SPEED}"
            band = classify(parsed, speed)
        except ArbiterError:
            return DEFAULT_SPEED, f"TimeControl {quote(control)} not understood: {DEFAULT_SPEED}"
        return band.regime, (f"TimeControl {quote(control)}: {speed_minutes(parsed, speed):g} min, "
                             f"{band.class_} ({band.cite})")

    def _choose(self, date: dt.date | None, dated: str, control: str, variant: tuple[str, str]) -> Choice:
        edition, why_edition = self._edition(date, dated)
        speed, why_speed = self._speed(edition, control)
        kind, why_variant = variant
        reasons = [why_edition, why_speed] + ([f"Chess960 by {why_variant}"] if why_variant else [])
        ruleset = edition.rulesets.get((kind, speed))
        if ruleset is None and kind != ORTHODOX:
            ruleset = edition.rulesets.get((kind, DEFAULT_SPEED))
            if ruleset is None:
                # the variant's ruleset of the nearest edition that ships one (the board needs it)
                near = sorted((e for e in self.editions if (kind, DEFAULT_SPEED) in e.rulesets),
                              key=lambda e: abs((e.start - edition.start).days))
                if not near:
                    raise LawsTableError(f"no {kind} ruleset of the {self.name} family is shipped")
                ruleset = near[0].rulesets[(kind, DEFAULT_SPEED)]
                reasons.append(f"no {kind} ruleset of edition {edition.edition} shipped: {ruleset}")
            elif speed != DEFAULT_SPEED:
                reasons.append(f"no {speed} {kind} ruleset shipped: {ruleset}")
        elif ruleset is None:
            ruleset = edition.main
            reasons.append(f"no {speed} ruleset of edition {edition.edition} shipped: {ruleset}")
        return Choice(self._ruleset(ruleset), f"{ruleset}: " + "; ".join(reasons))


Chooser = Exact | Family


def chooser(rules: str) -> Chooser:
    """The chooser for ``--rules``: a family of the laws table, else one ruleset."""
    data = table()
    variants = Variants(data)
    family = data["families"].get(rules.strip().lower())
    if family is not None:
        return Family(rules.strip().lower(), family, list(data["date_tags"]), variants)
    return Exact(load_ruleset(rules), variants)


def cached_chooser(rules: str) -> Chooser:
    """:func:`chooser`, a family's once per process (a worker audits many partitions; the
    loader keeps the rulesets, a ruleset file is read again when it changes)."""
    family = table()["families"].get(rules.strip().lower())
    return _family(rules.strip().lower()) if family is not None else chooser(rules)


@lru_cache(maxsize=None)
def _family(name: str) -> Chooser:
    return chooser(name)
