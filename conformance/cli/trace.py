"""From an article to everything that implements it: ``arbiter rules trace CITE``.

Three lists, each found by reading, never by a hand-kept index:

* **entries** - every mapping of ``spec/rulesets/*.yaml`` and ``spec/notation/*.yaml``
  whose ``cite`` (the whole entry) or ``X_cite`` (its key ``X``; keys that contain ``X``
  when there is no ``X`` itself, e.g. ``touch_cite`` -> ``touch_forfeits``) names the
  article, with file, line, key path and value, and the built-in rulesets whose resolved
  table still carries it;
* **code** - the lines of ``reference_impl`` that read those keys: the tables are read
  by key name (``table(rules, "move_rule", "claim")``, ``entry["plies"]``), so a line
  with the quoted key, in a module that names the entry's section (or notation table),
  is a reading site;
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

import reference_impl
from reference_impl.errors import ArbiterError
from reference_impl.notation.tables import TABLE_NAMES, table
from reference_impl.rules import list_rulesets, spec_dir
from reference_impl.rules.articles import registry
from reference_impl.rules.diff import is_annotation, without_annotations
from reference_impl.rules.yamlio import read_yaml

#: Keys too general to locate a reading site by themselves.
GENERIC_KEYS = frozenset({"cite", "note", "title", "table", "id"})

Path_ = tuple[str | int, ...]


class TraceError(ArbiterError):
    """The cite is malformed or not in the article registry (exit 1, like an unknown ruleset)."""


@dataclass(frozen=True)
class Entry:
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
    """A line of the reference that reads one of an entry's keys."""

    file: str
    line: int
    text: str
    keys: tuple[str, ...]


@dataclass
class Trace:
    cite: str
    title: str
    entries: list[Entry] = field(default_factory=list)
    code: list[Site] = field(default_factory=list)
    fixtures: dict[str, list[str]] = field(default_factory=dict)  # kind -> ids

    def as_json(self) -> dict[str, Any]:
        return {
            "cite": self.cite,
            "title": self.title,
            "entries": [{"file": e.file, "line": e.line, "path": e.dotted, "keys": list(e.keys),
                         "value": e.value, "rulesets": list(e.rulesets)} for e in self.entries],
            "code": [{"file": s.file, "line": s.line, "keys": list(s.keys), "text": s.text} for s in self.code],
            "fixtures": {"count": sum(len(v) for v in self.fixtures.values()),
                         "per_kind": {k: len(v) for k, v in self.fixtures.items()},
                         "ids": {k: v for k, v in self.fixtures.items()}},
        }


def dotted(path: Path_) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(top)"


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
        yield f"rulesets/{file.name}", data, lambda path, key, nth, m=marks: m.line(path + (key,))
    for name in TABLE_NAMES:
        file = root / "notation" / f"{name}.yaml"
        text = file.read_text(encoding="utf-8").splitlines()
        yield f"notation/{file.name}", table(name), lambda path, key, nth, t=text: _text_line(t, key, nth)


def _text_line(text: list[str], key: str, nth: int) -> int:
    """The line of the ``nth`` ``key:`` annotation in ``text`` (notation tables have keys
    the line-marking reader refuses, such as NAG numbers)."""
    pattern = re.compile(r"(^|[\s{,])" + re.escape(key) + r":\s")
    found = [number for number, line in enumerate(text, 1) if pattern.search(line.split("#")[0])]
    return found[nth] if nth < len(found) else 1


def yaml_entries(cite: str) -> list[Entry]:
    """Every entry of the ruleset and notation tables whose cite is ``cite``."""
    entries: list[Entry] = []
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
                entries.append(Entry(file, line_of(path, key, seen[key] - 1),
                                     path + subjects if single else path, subjects, value, rulesets))
    return entries


# -- code ------------------------------------------------------------------------------


def _quoted(key: str) -> str:
    return r"""["']""" + re.escape(key) + r"""["']"""


def _sources() -> list[tuple[str, list[str]]]:
    package = Path(reference_impl.__file__).resolve().parent
    return [(str(p.relative_to(package.parent)), p.read_text(encoding="utf-8").splitlines())
            for p in sorted(package.rglob("*.py"))]


def _prose(line: str) -> bool:
    """A comment or a docstring line naming keys in ``literal`` quotes: not a read."""
    stripped = line.strip()
    return stripped.startswith("#") or "``" in stripped


@dataclass(frozen=True)
class _Search:
    """How to find the readers of one entry: the modules (``anchor``: they name its
    section, or call ``table("name")`` for a notation table), and in them the lines
    that fetch the entry (``accessor``: section and entry name on one line) or read
    one of its keys."""

    anchor: re.Pattern[str]
    accessor: re.Pattern[str] | None
    keys: dict[str, re.Pattern[str]]


def _search(entry: Entry) -> _Search:
    names = [str(p) for p in entry.path if isinstance(p, str)]
    keys = {k: re.compile(_quoted(k)) for k in sorted(set(entry.keys) - GENERIC_KEYS)}
    if entry.file.startswith("notation/"):
        name = Path(entry.file).stem
        return _Search(re.compile(r"table\(\s*" + _quoted(name)), None, keys)
    anchor = names[0] if names else ""
    accessor = re.compile(_quoted(anchor) + ".*" + _quoted(names[1])) if len(names) > 1 else re.compile(_quoted(anchor))
    return _Search(re.compile(_quoted(anchor)), accessor, keys)


def code_sites(entries: list[Entry]) -> list[Site]:
    """The lines of ``reference_impl`` that fetch ``entries`` or read their keys."""
    searches = [_search(e) for e in entries if e.path or e.file.startswith("notation/")]
    sites: dict[tuple[str, int], set[str]] = {}
    texts: dict[tuple[str, int], str] = {}
    for name, lines in _sources():
        whole = "\n".join(lines)
        for search in searches:
            if not search.anchor.search(whole):
                continue
            for number, line in enumerate(lines, 1):
                if _prose(line):
                    continue
                hit = {k for k, pattern in search.keys.items() if pattern.search(line)}
                if search.accessor is not None and search.accessor.search(line):
                    hit.add("(entry)")
                if hit:
                    sites.setdefault((name, number), set()).update(hit)
                    texts[(name, number)] = line.strip()
    return [Site(f, n, texts[(f, n)], tuple(sorted(sites[(f, n)]))) for f, n in sorted(sites)]


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
    """Everything that implements ``cite``: entries, reading code, fixtures."""
    title = check_cite(cite)
    entries = yaml_entries(cite)
    return Trace(cite, title, entries, code_sites(entries), fixtures_citing(cite, fixtures))
