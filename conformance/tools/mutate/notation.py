"""Mutants of the notation tables (``spec/notation/*.yaml``), run against the notation fixtures.

The tables that a kind of the protocol executes (:data:`PROTOCOL_TABLES`: piece letters,
marks, ICCF, Uedemann, descriptive, look-alike characters) are changed as the rulesets
are (:mod:`.mutants`: a number +-1, a boolean flipped, an enumerated value swapped, a list
item dropped or added), and, since their words are their rules, each string of a mapping
of strings is swapped with the next one (``king: K`` and ``queen: Q`` trade letters). A
mutant is put in place of the table (:func:`reference_impl.notation.tables.substituted`,
which checks it against the notation schema: a mutant the schema refuses is invalid),
and killed by the first notation fixture (``to_notation``, ``from_notation``, ``san``,
``parse_san``) that the unchanged table passes and the mutant fails. The PGN tables
(``pgn``, ``results``, ``nags``) are read only by the PGN reader, which no kind of the
protocol runs: their mutants would survive any corpus, so they are not made.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reference_impl.notation.tables import NotationTableError, substituted, table
from reference_impl.rules import load_ruleset, spec_dir

from conformance.adapters.base import Adapter
from conformance.harness.runner import execute, judge
from conformance.harness.select import Case
from .mutants import Mutant, apply, generate, is_annotation, show
from .run import NOTICED, MutantAdapter, Result, cases_of
from .schema_view import KeyPath, SchemaView

#: The tables a kind of the protocol executes, in the order they are mutated.
PROTOCOL_TABLES = ("pieces", "marks", "iccf", "uedemann", "descriptive", "lookalikes")
#: The kinds that read and write notation.
NOTATION_KINDS = ("san", "parse_san", "to_notation", "from_notation")
#: The rulesets whose notation fixtures run (the standard and the Chess960 castling forms).
RULESETS = ("fide-2023", "fide-2023-chess960")
#: Keys of a table that describe it.
DESCRIPTIVE = frozenset({"table", "title", "cite", "note"})
ROOT = "notation.schema.json"


def schema_view(name: str) -> SchemaView:
    """The notation schema of table ``name`` (its own ``$defs`` entry and the common keys)."""
    directory = spec_dir() / "schema"
    documents = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.schema.json"))}
    root = f"notation-{name}"
    documents[root] = {"allOf": [{"$ref": f"{ROOT}#/$defs/{name}"},
                                 {"properties": documents[ROOT]["properties"]}]}
    return SchemaView(documents, root)


def _string_swaps(data: Any, path: KeyPath = ()) -> Iterator[tuple[KeyPath, str, str]]:
    """(path, old, new) for each string of a mapping of strings and the next one's value."""
    if isinstance(data, Mapping):
        items = [(k, v) for k, v in data.items() if not is_annotation(str(k)) and str(k) not in DESCRIPTIVE]
        strings = [(k, v) for k, v in items if isinstance(v, str)]
        if len(strings) == len(items) and len(strings) > 1:
            for (key, value), (_, after) in zip(strings, strings[1:] + strings[:1]):
                if value != after:
                    yield path + (str(key),), value, after
        for key, value in items:
            yield from _string_swaps(value, path + (str(key),))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _string_swaps(value, path + (index,))


#: Marks the writers write: the first of each of these lists (long algebraic's dash, when a
#: tradition has none, is the ``lan`` tradition's).
WRITTEN_MARKS = ("capture", "check", "mate", "move_dash")
#: The lists of a tradition this module can judge (marks a writer writes or a reader reads).
MARK_LISTS = ("capture", "check", "double_check", "mate", "en_passant", "move_dash")
#: The tradition whose capture, dash, double check and mate marks the descriptive reader takes.
DESCRIPTIVE_TRADITION = "english_descriptive"
UNION = ("no writer writes the mark, and every set of marks a reader takes is the same without it: "
         "the lenient reader's union of every tradition's check, double check and mate marks, its "
         "mate marks and its en passant marks, and the marks the descriptive reader strips")
PGN_ONLY = ("the NAG a suffix stands for: read by the PGN reader and writer only, which no kind "
            "of the protocol runs (from_notation reports the suffix itself)")


UNUSED_GROUP = ("no member of the dropped group is a character a printed move is read through: none is "
                "in a language's piece letter, a file letter, a tradition's capture mark or castling form "
                "(either case)")


def _read_characters() -> set[str]:
    """Every character a look-alike may stand for in a printed move (pieces.yaml, marks.yaml)."""
    chars = set("abcdefgh")
    for language in table("pieces")["languages"].values():
        chars.update("".join(language["letters"].values()))
    for row in table("marks")["traditions"].values():
        chars.update("".join(str(m) for m in row["capture"]))
        for form in row["castling"].values():
            chars.update(form + form.lower())
    return chars


def _dropped_unused(data: Mapping[str, Any], mutant: Mutant) -> str | None:
    """Why dropping look-alike groups changes no reading (:data:`UNUSED_GROUP`), or None."""
    if mutant.path != ("groups",) or not isinstance(mutant.value, list):
        return None
    kept = [list(g) for g in mutant.value]
    dropped = [g for g in data["groups"] if list(g) not in kept]
    if not dropped or len(kept) + len(dropped) != len(data["groups"]):
        return None
    return None if any(ch in _read_characters() for g in dropped for ch in g) else UNUSED_GROUP


def _read_sets(rows: Mapping[str, Mapping[str, Any]], descriptive: Mapping[str, Any]) -> list[set[str]]:
    """Every set of marks a reader takes from the traditions (san.py, descriptive.py)."""
    def union(*kinds: str) -> set[str]:
        return {str(m) for row in rows.values() for kind in kinds for m in row.get(kind, [])}
    own = rows.get(DESCRIPTIVE_TRADITION, {})
    trailers = [*descriptive.get("check", []), *descriptive.get("discovered_check", []),
                *descriptive.get("en_passant", []), *own.get("double_check", []), *own.get("mate", [])]
    return [union("mate", "double_check", "check"), union("mate"), union("en_passant"),
            {descriptive.get("capture_separator", ""), *own.get("capture", [])},
            {descriptive.get("move_separator", ""), *own.get("move_dash", [])},
            {m for m in union("mate", "double_check", "check") | set(trailers) if _stripped(m, trailers)}]


def _stripped(mark: str, trailers: Sequence[str]) -> bool:
    """Whether the descriptive reader strips ``mark`` after a move: it takes trailers off
    the end, longest first, again and again (``++`` is ``+`` twice)."""
    text, order = "P-K4 " + mark, sorted(set(trailers), key=len, reverse=True)
    changed = True
    while changed:
        changed = False
        for trailer in order:
            if trailer and text.endswith(trailer) and len(text) > len(trailer):
                text, changed = text[: -len(trailer)].rstrip(), True
    return text == "P-K4"


def _written(rows: Mapping[str, Mapping[str, Any]], tradition: str, kind: str) -> str | None:
    marks = list(rows[tradition].get(kind, []))
    if kind == "move_dash" and not marks:
        marks = list(rows.get("lan", {}).get("move_dash", []))
    return str(marks[0]) if marks else None


def equivalent(name: str, data: Mapping[str, Any], mutant: Mutant) -> str | None:
    """Why ``mutant`` cannot change an answer of a notation kind, or None."""
    path = mutant.path
    if name == "lookalikes":
        return _dropped_unused(data, mutant)
    if name == "marks" and path[:2] == ("suffix_annotations", "map"):
        return PGN_ONLY
    if name != "marks" or len(path) != 3 or path[0] != "traditions" or path[2] not in MARK_LISTS:
        return None
    rows = data["traditions"]
    changed = {**rows, str(path[1]): {**rows[str(path[1])], str(path[2]): list(mutant.value)}}
    descriptive = table("descriptive")
    if path[2] in WRITTEN_MARKS and _written(rows, str(path[1]), str(path[2])) != _written(changed, str(path[1]), str(path[2])):
        return None
    return UNION if _read_sets(rows, descriptive) == _read_sets(changed, descriptive) else None


def mutants_of(name: str) -> list[Mutant]:
    """Every mutant of notation table ``name`` (equivalent with the reason where the
    schema marks the key ``x-declarative`` or :func:`equivalent` shows it)."""
    data = table(name)
    view = schema_view(name)
    found = [m for m in generate({k: v for k, v in data.items() if k not in DESCRIPTIVE}, view)]
    cite = str(data.get("cite", ""))
    for path, old, new in _string_swaps(data):
        found.append(Mutant(path, new, f"{show(old)} -> {show(new)} (the next entry's)", path[:-1], cite,
                            view.declarative(path)))
    out = []
    for m in found:
        why = m.equivalent or equivalent(name, data, m)
        out.append(Mutant(m.path, m.value, m.mutation, m.entry, m.cite or cite, why))
    return out


@dataclass
class NotationJudge:
    """The notation fixtures of :data:`RULESETS` and the unchanged tables' verdict on each."""

    name: str
    cases: list[tuple[Adapter, Case]] = field(default_factory=list)
    timeout: float | None = None
    baseline: list[bool] = field(default_factory=list)

    @classmethod
    def build(cls, name: str, fixture_paths: Sequence[str] = (), timeout: float | None = None) -> NotationJudge:
        judge_ = cls(name, timeout=timeout)
        for ruleset in RULESETS:
            adapter = MutantAdapter(load_ruleset(ruleset))
            judge_.cases += [(adapter, case) for case in cases_of(ruleset, fixture_paths, NOTATION_KINDS)]
        rank = {kind: i for i, kind in enumerate(NOTATION_KINDS)}
        judge_.cases.sort(key=lambda pair: rank[pair[1].kind])
        judge_.baseline = [judge_.verdict(adapter, case) for adapter, case in judge_.cases]
        return judge_

    def verdict(self, adapter: Adapter, case: Case) -> bool:
        """Whether ``case`` passes."""
        return judge(case, execute(adapter, case, self.timeout), None)["status"] not in NOTICED

    def run(self, mutant: Mutant) -> Result:
        where = f"notation:{self.name}"
        if mutant.equivalent:
            return Result(where, mutant, "equivalent", detail=mutant.equivalent)
        data = apply(copy.deepcopy(table(self.name)), mutant)
        ran = 0
        try:
            with substituted(self.name, data):
                for (adapter, case), passes in zip(self.cases, self.baseline):
                    ran += 1
                    if passes and not self.verdict(adapter, case):
                        return Result(where, mutant, "killed", case.id, None, ran)
        except NotationTableError as error:
            return Result(where, mutant, "invalid", detail=str(error))
        return Result(where, mutant, "survived", fixtures=ran)


def run(name: str, mutants: Iterable[Mutant], emit: Callable[[Result], None], *,
        fixture_paths: Sequence[str] = (), timeout: float | None = None) -> None:
    """Judge every mutant of notation table ``name``; results go to ``emit`` in order."""
    judge_ = NotationJudge.build(name, fixture_paths, timeout)
    for mutant in mutants:
        emit(judge_.run(mutant))
