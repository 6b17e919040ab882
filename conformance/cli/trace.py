"""From an article to everything that implements it: ``arbiter rules trace CITE``.

Each list is found by reading, never by a hand-kept index or a word search:

* **entries** - every mapping of ``spec/rulesets/*.yaml`` and ``spec/notation/*.yaml``
  whose ``cite`` (the whole entry) or ``X_cite`` (its key ``X``) names the article, with
  file, line, key path and value, and the built-in rulesets whose resolved table still
  carries it;
* **fields** - the fields of the rules model (:mod:`reference_impl.rules.model`) that
  carry the article once resolved (:meth:`~reference_impl.rules.model.Entry.cite_of`),
  each with the file and line that wrote it, and for each:

  - the Python lines that read it: attribute accesses on the model's types, found by an
    AST walk with the types the code declares (:mod:`.trace_python`), with the functions
    a read that guards code calls (two calls deep);
  - for a field of the move layer, what it compiles to and the C lines that use it:
    found by changing the field and comparing the compiled and packed tables
    (:mod:`.trace_c`);

* **code** - the Python reads of all fields, one row per line (the notation tables'
  keys read through ``table("NAME")`` among them);
* **fixtures** - the fixtures whose ``cites`` name the article, counted per kind.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reference_impl.errors import ArbiterError
from reference_impl.notation.tables import TABLE_NAMES, table
from reference_impl.rules import list_rulesets, spec_dir
from reference_impl.rules.articles import registry
from reference_impl.rules.diff import is_annotation, without_annotations
from reference_impl.rules.model import Entry, Source
from reference_impl.rules.reader import hints, rule_fields, yaml_key
from reference_impl.rules.yamlio import LineMap, read_yaml
from reference_impl.rules.yamlio import format_path as dotted

from . import trace_c, trace_python

Path_ = tuple[str | int, ...]


class TraceError(ArbiterError):
    """The cite is malformed or not in the article registry (exit 1, like an unknown ruleset)."""


@dataclass(frozen=True)
class YamlEntry:
    """One YAML entry citing the article."""

    file: str            # relative to the spec directory: rulesets/fide-2023.yaml
    line: int
    path: Path_          # key path inside the file; list rows by index
    keys: tuple[str, ...]  # the rule keys the cite covers
    value: Any           # the entry's value, annotations left out
    rulesets: tuple[str, ...] = ()  # built-in rulesets whose resolved table carries it

    @property
    def dotted(self) -> str:
        return dotted(self.path)

    @property
    def anchor(self) -> str:
        """The name a reading module must mention: the section, or the notation table."""
        return str(self.path[0]) if self.file.startswith("rulesets/") and self.path else Path(self.file).stem


@dataclass(frozen=True)
class Site:
    """A line of Python that reads one or more of the traced fields (``keys``: their paths)."""

    file: str
    line: int
    text: str
    keys: tuple[str, ...]


@dataclass
class Field:
    """A field of the rules model that carries the article, with what reads it."""

    path: Path_                      # key path in the resolved ruleset, rows by index
    owner: str                       # the model class whose field it is
    name: str                        # the field
    value: Any
    source: Source | None            # the file and line that wrote it (None: the schema's default)
    rulesets: tuple[str, ...]
    reads: list[trace_python.Read] = field(default_factory=list)
    reached: dict[int, list[trace_python.Reached]] = field(default_factory=dict)  # read index -> calls
    compiled: trace_c.Compiled | None = None

    @property
    def dotted(self) -> str:
        return dotted(self.path)

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.dotted, "model": f"{self.owner}.{self.name}", "value": _jsonable(self.value),
            "source": None if self.source is None else {"file": self.source.file, "line": self.source.line},
            "rulesets": list(self.rulesets),
            "reads": [{"file": r.file, "line": r.line, "text": r.text,
                       "reaches": [{"function": c.name, "file": c.file, "line": c.line, "depth": c.depth}
                                   for c in self.reached.get(index, [])]}
                      for index, r in enumerate(self.reads)],
            "compiled": None if self.compiled is None else self.compiled.as_json(),
        }


@dataclass
class Trace:
    cite: str
    title: str
    entries: list[YamlEntry] = field(default_factory=list)
    code: list[Site] = field(default_factory=list)
    fixtures: dict[str, list[str]] = field(default_factory=dict)  # kind -> ids
    fields: list[Field] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "cite": self.cite,
            "title": self.title,
            "entries": [{"file": e.file, "line": e.line, "path": e.dotted, "keys": list(e.keys),
                         "value": e.value, "rulesets": list(e.rulesets)} for e in self.entries],
            "fields": [f.as_json() for f in self.fields],
            "code": [{"file": s.file, "line": s.line, "keys": list(s.keys), "text": s.text} for s in self.code],
            "fixtures": {"count": sum(len(v) for v in self.fixtures.values()),
                         "per_kind": {k: len(v) for k, v in self.fixtures.items()},
                         "ids": {k: v for k, v in self.fixtures.items()}},
        }


def check_cite(cite: str) -> str:
    """``cite`` if the registry knows it; else :class:`TraceError` with the nearest ones."""
    known = registry()
    if cite in known:
        return known[cite].title
    if ":" not in cite:
        raise TraceError(f"{cite!r} is not a cite (DOCUMENT:ARTICLE, e.g. fide-2023:9.3)")
    near = difflib.get_close_matches(cite, list(known), n=3, cutoff=0.8)
    hint = f" (did you mean {', '.join(near)}?)" if near else " (arbiter rules articles lists them)"
    raise TraceError(f"unknown article {cite!r}{hint}")


# -- entries ---------------------------------------------------------------------------


def _subjects(node: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """The rule keys an annotation ``key`` (``cite`` or ``X_cite``) covers in ``node``."""
    rules = [str(k) for k in node if not is_annotation(str(k))]
    if key == "cite":
        return tuple(rules)
    stem = key[: -len("_cite")]
    if stem in rules:
        return (stem,)
    return tuple(k for k in rules if stem in k) or tuple(rules)


def _walk(node: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Mapping[str, Any]]]:
    if isinstance(node, Mapping):
        yield path, node
        for key, child in node.items():
            yield from _walk(child, path + (str(key),))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _walk(child, path + (index,))


def _cites(node: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for key, value in node.items():
        if str(key) == "cite" or str(key).endswith("_cite"):
            for cite in value if isinstance(value, list) else [value]:
                yield str(key), str(cite)


def _node(data: Any, path: Path_) -> Any:
    for step in path:
        if isinstance(step, int) and isinstance(data, list) and step < len(data):
            data = data[step]
        elif isinstance(step, str) and isinstance(data, Mapping) and step in data:
            data = data[step]
        else:
            return None
    return data


def _carried_by(file_id: str, path: Path_, key: str, cite: str) -> tuple[str, ...]:
    """The built-in rulesets that inherit from ``file_id`` and still cite ``cite`` at
    ``path``/``key`` once resolved (a child may override the entry or its cite)."""
    out = []
    for rules in list_rulesets():
        node = _node(rules.data, path)
        if file_id in rules.chain and isinstance(node, Mapping) and (key, cite) in set(_cites(node)):
            out.append(rules.id)
    return tuple(out)


def _documents() -> Iterator[tuple[str, Any, Callable[[Path_, str, int], int]]]:
    """(file relative to the spec, data, line of the n-th ``key: cite`` at a path) per table
    file, each read by its own reader: rulesets by the ruleset YAML reader (with line
    marks), notation tables by :func:`reference_impl.notation.tables.table`."""
    root = spec_dir()
    for file in sorted((root / "rulesets").glob("*.yaml")):
        data, marks = read_yaml(file)
        yield f"rulesets/{file.name}", data, _yaml_line(marks)
    for name in TABLE_NAMES:
        file = root / "notation" / f"{name}.yaml"
        text = file.read_text(encoding="utf-8").splitlines()
        yield f"notation/{file.name}", table(name), _annotation_line(text)


def _yaml_line(marks: LineMap) -> Callable[[Path_, str, int], int]:
    return lambda path, key, nth: marks.line(path + (key,))


def _annotation_line(text: list[str]) -> Callable[[Path_, str, int], int]:
    return lambda path, key, nth: _text_line(text, key, nth)


def _text_line(text: list[str], key: str, nth: int) -> int:
    """The line of the ``nth`` ``key:`` annotation in ``text`` (notation tables have keys
    the line-marking reader refuses, such as NAG numbers)."""
    pattern = re.compile(r"(^|[\s{,])" + re.escape(key) + r":\s")
    found = [number for number, line in enumerate(text, 1) if pattern.search(line.split("#")[0])]
    return found[nth] if nth < len(found) else 1


def yaml_entries(cite: str) -> list[YamlEntry]:
    """Every entry of the ruleset and notation tables whose cite is ``cite``."""
    entries: list[YamlEntry] = []
    for file, data, line_of in _documents():
        seen: Counter[str] = Counter()
        for path, node in _walk(data):
            for key, found in _cites(node):
                seen[key] += 1
                if found != cite:
                    continue
                subjects = _subjects(node, key)
                single = key != "cite" and len(subjects) == 1
                value = without_annotations(node[subjects[0]] if single else dict(node))
                builtin = file.startswith("rulesets/")
                rulesets = _carried_by(Path(file).stem, path, key, cite) if builtin else ()
                entries.append(YamlEntry(file, line_of(path, key, seen[key] - 1),
                                     path + subjects if single else path, subjects, value, rulesets))
    return entries


# -- the model's fields ----------------------------------------------------------------------


def _jsonable(value: Any) -> Any:
    if isinstance(value, Entry):
        return {yaml_key(type(value), f.name): _jsonable(getattr(value, f.name)) for f in rule_fields(type(value))
                if not is_annotation(yaml_key(type(value), f.name))}
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def _leaves(entry: Entry, path: Path_) -> Iterator[tuple[Entry, str, Path_, Any]]:
    """(entry, field, key path, value) of every rule field under ``entry``: a field holding
    entries is walked into, except an entry with no rule of its own (``pawn.en_passant``:
    its presence is the rule), which is a leaf cited by its own ``cite``."""
    for f in rule_fields(type(entry)):
        key = yaml_key(type(entry), f.name)
        if is_annotation(key):
            continue
        value = getattr(entry, f.name)
        here = path + (key,)
        children: list[tuple[Path_, Any]] = []
        if isinstance(value, Entry):
            children = [(here, value)]
        elif isinstance(value, tuple) and value and all(isinstance(v, Entry) for v in value):
            children = [(here + (i,), v) for i, v in enumerate(value)]
        elif isinstance(value, Mapping) and value and all(isinstance(v, Entry) for v in value.values()):
            children = [(here + (str(k),), v) for k, v in value.items()]
        if not children:
            yield entry, f.name, here, value
        for child_path, child in children:
            if any(not is_annotation(yaml_key(type(child), g.name)) for g in rule_fields(type(child))):
                yield from _leaves(child, child_path)
            else:
                yield entry, f.name, here, child


def _cite_of(entry: Entry, name: str, value: Any) -> str | None:
    if isinstance(value, Entry):  # an entry whose presence is the rule: its own cite
        return getattr(value, "cite", None)
    return entry.cite_of(name)


def model_fields(cite: str) -> list[Field]:
    """The fields of the built-in rulesets' models that carry ``cite``, one per key path."""
    found: dict[Path_, Field] = {}
    for rules in list_rulesets():
        model = rules.model
        seen: set[Path_] = set()
        for entry, name, path, value in _leaves(model, ()):
            if path in seen or _cite_of(entry, name, value) != cite:
                continue
            seen.add(path)
            if path in found:
                found[path].rulesets += (rules.id,)
                continue
            found[path] = Field(path, type(entry).__name__, name, value, entry.source_of(name), (rules.id,))
    return [found[p] for p in sorted(found, key=lambda p: tuple(map(str, p)))]


def _row_path(path: Path_) -> tuple[str, ...]:
    return tuple(str(step) for step in path)


def trace_fields(fields: list[Field]) -> None:
    """Fill in each field's reads, what they reach, and (move layer) its compiled form."""
    from reference_impl.rules import load_ruleset
    from reference_impl.rules import model as model_module

    for item in fields:
        owner = getattr(model_module, item.owner)
        item.reads = trace_python.reads_of(owner, item.name, _row_path(item.path))
        item.reached = {index: trace_python.reached(read) for index, read in enumerate(item.reads)}
        if list(trace_c.move_layer_paths(item.path)):
            item.compiled = trace_c.compiled(load_ruleset(item.rulesets[0]), item.path)


def code_sites(fields: list[Field], notation: list[YamlEntry]) -> list[Site]:
    """One row per Python line that reads a traced field or a traced notation entry."""
    keys: dict[tuple[str, int], set[str]] = {}
    texts: dict[tuple[str, int], str] = {}
    for item in fields:
        for read in item.reads:
            keys.setdefault((read.file, read.line), set()).add(item.dotted)
            texts[(read.file, read.line)] = read.text
    for entry in notation:
        name = Path(entry.file).stem
        for read in trace_python.table_reads(name, tuple(str(p) for p in entry.path)):
            keys.setdefault((read.file, read.line), set()).add(f"{name}:{entry.dotted}")
            texts[(read.file, read.line)] = read.text
    return [Site(f, n, texts[(f, n)], tuple(sorted(keys[(f, n)]))) for f, n in sorted(keys)]


# -- fixtures --------------------------------------------------------------------------


def fixtures_citing(cite: str, fixtures: list[Mapping[str, Any]]) -> dict[str, list[str]]:
    """kind -> ids of the fixtures whose ``cites`` include ``cite``, kinds by count."""
    found: dict[str, list[str]] = {}
    for fixture in fixtures:
        if cite in (fixture.get("cites") or []):
            found.setdefault(str(fixture.get("kind")), []).append(str(fixture.get("id")))
    counts = Counter({k: len(v) for k, v in found.items()})
    return {k: sorted(found[k]) for k, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))}


def trace(cite: str, fixtures: list[Mapping[str, Any]]) -> Trace:
    """Everything that implements ``cite``: entries, model fields and what reads them,
    fixtures."""
    title = check_cite(cite)
    entries = yaml_entries(cite)
    fields = model_fields(cite)
    trace_fields(fields)
    notation = [e for e in entries if e.file.startswith("notation/")]
    return Trace(cite, title, entries, code_sites(fields, notation), fixtures_citing(cite, fixtures), fields)
