"""The one reader: a resolved ruleset's mapping into the typed :class:`~.model.Model`.

Generic over the model's classes: each field reads the YAML key of its name, converted
to its type (an entry to its class, a list to a tuple, a mapping of entries to a
read-only mapping). A key that is absent (or ``null``, which the ``extends`` merge has
already applied as a removal) takes what the schema says, found through the schema's
``$ref``, ``oneOf`` and ``allOf`` branches:

* ``default: VALUE`` - that value, read as if written;
* ``x-default-from: KEY`` - the value of the sibling ``KEY`` (a speed regime without a
  table of its own takes the ``standard`` one: the same entry, not a copy);
* neither - ``None`` for a field typed ``X | None`` ("no such rule", or "not stated"),
  and an error for any other (the schema requires it; a validated ruleset has it).

A key the schema marks ``x-merge-over-parent`` is read as the parent entry with the
key's own keys merged over it (``illegal_moves.*.without_supervision``). The search
budgets (``limits``) are the limits table (``spec/limits.yaml``) with the ruleset's own
``limits:`` merged over it. Nothing here knows a section by name except ``limits``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from reference_impl.errors import RulesetError

from .merge import merge
from .model import Entry, KeyPath, Limits, Model, Origin, Source
from .paths import spec_dir
from .yamlio import format_path

E = TypeVar("E", bound=Entry)

#: The schema file of a ruleset and of the search budgets.
ROOT_SCHEMA = "ruleset.schema.json"
LIMITS_SCHEMA = "limits.schema.json"
#: The sections of the move layer, digested into :attr:`Model.signature`.
MOVE_LAYER = ("board", "pieces", "pawn", "castling", "setup")
#: The sections that decide the moves of a position without castling rights.
MOVES_WITHOUT_CASTLING = ("board", "pieces", "pawn")
#: Schema keywords of this reader (JSON Schema ignores them).
DEFAULT_FROM = "x-default-from"
MERGE_OVER_PARENT = "x-merge-over-parent"

Node = tuple[Mapping[str, Any], str]  #: a subschema and the file it is in
Locate = Callable[[KeyPath], Source | None]

#: What :func:`keyword` returns for a keyword no node has.
MISSING = object()


# -- the schema ----------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _documents(directory: Path) -> Mapping[str, Any]:
    out: dict[str, Any] = {}
    for path in sorted(directory.glob("*.schema.json")):
        try:
            out[path.name] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise RulesetError(f"{path}: unreadable schema: {error}") from None
    return out


def documents() -> Mapping[str, Any]:
    """The schema files of the current spec directory, by file name."""
    return _documents(spec_dir() / "schema")


def _ref(ref: str, doc: str) -> Node:
    target, _, pointer = ref.partition("#")
    name = target.rsplit("/", 1)[-1] if target else doc
    node: Any = documents().get(name, {})
    for part in (p for p in pointer.split("/") if p):
        node = node.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(node, Mapping) else {}
    return node, name


#: :func:`expand`'s answers by the identity of the nodes asked (the schema documents are
#: read once and never changed; each answer holds its nodes, so no id is reused while
#: it is kept): a model reads every field's subschemas through the same few nodes.
_EXPANDED: dict[tuple[tuple[int, str], ...], tuple[list[Node], tuple[Node, ...]]] = {}
_EXPANDED_KEPT = 4096


def expand(nodes: list[Node]) -> list[Node]:
    """``nodes`` and every subschema that applies to the same instance (``$ref``,
    ``allOf``/``anyOf``/``oneOf``, ``then``/``else``), outermost first."""
    key = tuple((id(node), doc) for node, doc in nodes)
    hit = _EXPANDED.get(key)
    if hit is not None:
        return list(hit[1])
    out = _expand(nodes)
    if len(_EXPANDED) >= _EXPANDED_KEPT:
        _EXPANDED.clear()
    _EXPANDED[key] = (list(nodes), tuple(out))
    return out


def _expand(nodes: list[Node]) -> list[Node]:
    out: list[Node] = []
    stack = list(reversed(nodes))
    while stack:
        node, doc = stack.pop()
        if not isinstance(node, Mapping) or any(node is seen for seen, _ in out):
            continue
        out.append((node, doc))
        more: list[Node] = []
        if isinstance(node.get("$ref"), str):
            more.append(_ref(node["$ref"], doc))
        for keyword in ("allOf", "anyOf", "oneOf"):
            more += [(sub, doc) for sub in node.get(keyword) or []]
        more += [(node[k], doc) for k in ("then", "else") if k in node]
        stack.extend(reversed(more))
    return out


def children(nodes: list[Node], key: str | None) -> list[Node]:
    """The subschemas of property ``key`` (``None``: of an item or a mapping's value)."""
    out: list[Node] = []
    for node, doc in expand(nodes):
        if key is None:
            for keyword in ("items", "additionalProperties"):
                if isinstance(node.get(keyword), Mapping):
                    out.append((node[keyword], doc))
        elif key in (node.get("properties") or {}):
            out.append((node["properties"][key], doc))
    return out


def properties(nodes: list[Node]) -> set[str]:
    """Every property name the schema allows at ``nodes``."""
    return {key for node, _ in expand(nodes) for key in node.get("properties") or {}}


def required(nodes: list[Node]) -> set[str]:
    """The properties every instance at ``nodes`` must have: those ``required`` by a node,
    what it refers to and its ``allOf``, and those every ``oneOf``/``anyOf`` branch
    requires (an ``if``/``then`` requirement is conditional and left out)."""
    return set().union(*(_required(node, doc) for node, doc in nodes)) if nodes else set()


def _required(node: Any, doc: str) -> set[str]:
    if not isinstance(node, Mapping):
        return set()
    out = set(node.get("required") or [])
    if isinstance(node.get("$ref"), str):
        out |= _required(*_ref(node["$ref"], doc))
    for sub in node.get("allOf") or []:
        out |= _required(sub, doc)
    for keyword_ in ("oneOf", "anyOf"):
        branches = [_required(sub, doc) for sub in node.get(keyword_) or []]
        if branches:
            out |= set.intersection(*branches)
    return out


def keyword(nodes: list[Node], name: str) -> Any:
    """The first value of keyword ``name`` among ``nodes`` and what they refer to."""
    for node, _ in expand(nodes):
        if name in node:
            return node[name]
    return MISSING


def root_nodes() -> list[Node]:
    """The schema of a resolved ruleset."""
    return [(documents().get(ROOT_SCHEMA, {}), ROOT_SCHEMA)]


def limits_nodes() -> list[Node]:
    """The schema of the limits table in full (``#/$defs/table``: every budget stated)."""
    return [_ref(f"{LIMITS_SCHEMA}#/$defs/table", LIMITS_SCHEMA)]


def schema_default(pointer: str) -> Any:
    """The ``default`` of the schema node ``FILE#/json/pointer`` (an error if it has none)."""
    node, doc = _ref(pointer, ROOT_SCHEMA)
    value = keyword([(node, doc)], "default")
    if value is MISSING:
        raise RulesetError(f"{pointer}: the schema gives no default")
    return value


# -- the model's classes -------------------------------------------------------------------


_HINTS: dict[type, Mapping[str, Any]] = {}
_FIELDS: dict[type, tuple[dataclasses.Field[Any], ...]] = {}


def hints(cls: type) -> Mapping[str, Any]:
    """Field name -> type of a model class (read once per class)."""
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    return _HINTS[cls]


def rule_fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    """The fields of ``cls`` that are YAML keys (not ``origin``, not computed; once per class)."""
    if cls not in _FIELDS:
        _FIELDS[cls] = tuple(f for f in dataclasses.fields(cls) if f.name != "origin" and not f.metadata.get("computed"))
    return _FIELDS[cls]


def yaml_key(cls: type, name: str) -> str:
    """The YAML key of field ``name`` of ``cls``."""
    for f in rule_fields(cls):
        if f.name == name:
            return str(f.metadata.get("key", f.name))
    return name


def field_cite(entry: Entry, name: str) -> str | None:
    """The article field ``name`` of ``entry`` carries (see :meth:`Entry.cite_of`)."""
    cls = type(entry)
    names = {f.name for f in rule_fields(cls)}
    stem = yaml_key(cls, name)
    for f in rule_fields(cls):
        if f.name == f"{stem}_cite" or name in f.metadata.get("covers", ()):
            own = getattr(entry, f.name)
            if own is not None:
                return str(own)
    return str(entry.cite) if "cite" in names and getattr(entry, "cite") is not None else None  # type: ignore[attr-defined]


def optional_type(tp: Any) -> tuple[Any, bool]:
    """(the type without ``None``, whether ``None`` is allowed)."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        inner = args[0] if len(args) == 1 else Union[tuple(args)]
        return inner, len(args) < len(get_args(tp))
    return tp, False


#: Per entry class and schema nodes, what reading a field needs of the schema: (field
#: name, YAML key, the key's subschemas, whether it merges over its parent entry, its
#: ``x-default-from``, its ``default``) for every field, and every field's key. Kept by
#: the nodes' identity, as :func:`expand`'s answers (each plan holds its nodes).
_PLANS: dict[tuple[Any, ...], tuple[list[Node], tuple[tuple[Any, ...], ...], frozenset[str]]] = {}


def _plan(cls: type, nodes: list[Node]) -> tuple[tuple[tuple[Any, ...], ...], frozenset[str]]:
    key = (cls, *((id(node), doc) for node, doc in nodes))
    hit = _PLANS.get(key)
    if hit is None:
        plan = []
        for f in rule_fields(cls):
            name = str(f.metadata.get("key", f.name))
            sub = children(nodes, name)
            plan.append((f.name, name, sub, keyword(sub, MERGE_OVER_PARENT) is True, keyword(sub, DEFAULT_FROM),
                         keyword(sub, "default")))
        if len(_PLANS) >= _EXPANDED_KEPT:
            _PLANS.clear()
        hit = _PLANS[key] = (list(nodes), tuple(plan), frozenset(p[1] for p in plan))
    return hit[1], hit[2]


@lru_cache(maxsize=None)
def _shape(tp: Any) -> tuple[Any, bool, bool, Any, tuple[Any, ...]]:
    """(the type without ``None``, whether ``None`` is allowed, whether it is an entry
    class, its origin and arguments) of a field type, worked out once per type."""
    inner, nullable = optional_type(tp)
    return inner, nullable, isinstance(inner, type) and issubclass(inner, Entry), get_origin(inner), get_args(inner)


def entry_type(tp: Any) -> type[Entry] | None:
    """The entry class a field type holds (directly, optionally, in a tuple or mapping)."""
    inner, _ = optional_type(tp)
    origin = get_origin(inner)
    if origin is tuple and get_args(inner) and get_args(inner)[-1] is Ellipsis:
        inner = get_args(inner)[0]
    elif origin is Mapping:
        inner = get_args(inner)[1]
    return inner if isinstance(inner, type) and issubclass(inner, Entry) else None


# -- reading ---------------------------------------------------------------------------------


class _Reader:
    def __init__(self, name: str, locate: Locate) -> None:
        self.name = name
        self.locate = locate

    def fail(self, path: KeyPath, message: str) -> RulesetError:
        return RulesetError(f"ruleset {self.name}: {format_path(path)}: {message}")

    def entry(self, cls: type[E], raw: Any, path: KeyPath, nodes: list[Node], locate: Locate | None = None,
              given: Mapping[str, Any] | None = None) -> E:
        """``raw`` read as ``cls``; ``given`` holds values of fields read apart."""
        if not isinstance(raw, Mapping):
            raise self.fail(path, f"expected a mapping, not {type(raw).__name__}")
        locate = locate or self.locate
        types_ = hints(cls)
        values: dict[str, Any] = dict(given or {})
        built: dict[str, Any] = {}
        plan, known = _plan(cls, nodes)
        for name, key, sub, merges, source, default in plan:
            if name in values:
                continue
            value = raw.get(key)
            if merges and value is not None:
                parent = {k: v for k, v in raw.items() if k != key}
                over = merge(parent, value)
                inner, _ = optional_type(types_[name])
                here = path + (key,)

                def inherited(p: KeyPath, base: KeyPath = path, at: KeyPath = here, find: Locate = locate) -> Source | None:
                    return find(p) or find(base + p[len(at):])

                values[name] = built[key] = self.entry(inner, over, here, nodes, inherited)
                continue
            if value is None:
                if source is not MISSING:
                    if str(source) in built:
                        values[name] = built[key] = built[str(source)]
                        continue
                    raise self.fail(path + (key,), f"{DEFAULT_FROM}: {source!r} must be a field read before it")
                value = None if default is MISSING else default
            values[name] = built[key] = self.value(value, types_[name], path + (key,), sub, locate)
        unknown = sorted(str(k) for k in raw if str(k) not in known and not str(k).startswith("x-"))
        if unknown:
            raise self.fail(path, f"unknown key {unknown[0]!r} (the model has no such field)")
        return cls(origin=Origin(path, locate), **values)

    def value(self, raw: Any, tp: Any, path: KeyPath, nodes: list[Node], locate: Locate) -> Any:
        inner, nullable, entry, origin, args = _shape(tp)
        if raw is None:
            if nullable:
                return None
            raise self.fail(path, "required (the schema gives no default)")
        if entry:
            return self.entry(inner, raw, path, nodes, locate)
        if origin is tuple:
            if not isinstance(raw, (list, tuple)):
                raise self.fail(path, f"expected a list, not {type(raw).__name__}")
            items = children(nodes, None)
            if args and args[-1] is Ellipsis:
                return tuple(self.value(v, args[0], path + (i,), items, locate) for i, v in enumerate(raw))
            if len(raw) != len(args):
                raise self.fail(path, f"expected {len(args)} values, not {len(raw)}")
            return tuple(self.value(v, a, path + (i,), items, locate) for i, (v, a) in enumerate(zip(raw, args)))
        if origin is Mapping:
            if not isinstance(raw, Mapping):
                raise self.fail(path, f"expected a mapping, not {type(raw).__name__}")
            values = children(nodes, None)
            return types.MappingProxyType(
                {str(k): self.value(v, args[1], path + (str(k),), values, locate) for k, v in raw.items()})
        return self.scalar(raw, inner, path)

    def scalar(self, raw: Any, tp: Any, path: KeyPath) -> Any:
        if tp is str:  # the commonest, as the checks below take it
            if not isinstance(raw, str):
                raise self.fail(path, f"expected str, not {type(raw).__name__} {raw!r}")
            return raw
        if get_origin(tp) is Literal:
            if raw not in get_args(tp) or isinstance(raw, bool) != isinstance(get_args(tp)[0], bool):
                raise self.fail(path, f"{raw!r} is not one of {', '.join(map(repr, get_args(tp)))}")
            return raw
        if tp is object:
            return raw
        if tp is bool:
            ok = isinstance(raw, bool)
        elif tp is int:
            ok = isinstance(raw, int) and not isinstance(raw, bool)
        elif tp is float:
            ok = isinstance(raw, (int, float)) and not isinstance(raw, bool)
            raw = float(raw) if ok else raw
        elif tp is str:
            ok = isinstance(raw, str)
        else:
            raise TypeError(f"{format_path(path)}: the reader has no conversion for {tp!r}")
        if not ok:
            raise self.fail(path, f"expected {tp.__name__}, not {type(raw).__name__} {raw!r}")
        return raw


def read_entry(cls: type[E], data: Mapping[str, Any], nodes: list[Node], *, name: str = "?",
               path: KeyPath = (), locate: Locate | None = None) -> E:
    """``data`` read as ``cls`` under the schema ``nodes`` (the reader of every table)."""
    return _Reader(name, locate or _nowhere).entry(cls, data, path, nodes)


def _nowhere(path: KeyPath) -> Source | None:
    return None


def read_model(data: Mapping[str, Any], *, locate: Locate | None = None,
               limits: tuple[Mapping[str, Any], Locate] | None = None) -> Model:
    """The model of a resolved ruleset mapping ``data``. ``locate`` finds the file and line
    of a key path; ``limits`` is the limits table and its locator (read from the spec
    directory when not given)."""
    name = str(data.get("id", "?"))
    locate = locate or _nowhere
    table, table_locate = limits if limits is not None else limits_table()
    own = data.get("limits") or {}

    def budgets(path: KeyPath) -> Source | None:
        return locate(path) or table_locate(path[1:])

    reader = _Reader(name, locate)
    budgets_model = reader.entry(Limits, merge(table, own), ("limits",), limits_nodes(), budgets)
    rest = {k: v for k, v in data.items() if k != "limits"}
    return reader.entry(Model, rest, (), root_nodes(), given={
        "limits": budgets_model, "signature": signature(data),
        "signature_without_castling": signature(data, MOVES_WITHOUT_CASTLING)})


def read_section(data: Mapping[str, Any], name: str, *, locate: Locate | None = None) -> Any:
    """Field ``name`` of the model of ``data``, read alone exactly as :func:`read_model`
    reads it (for a caller that needs one section of many rulesets: the ``scope`` of
    every shipped ruleset, to choose among them). Only a field read from its own key
    alone can be: not ``limits`` (the limits table under it), nor one with an
    ``x-default-from`` or merged over its parent."""
    reader = _Reader(str(data.get("id", "?")), locate or _nowhere)
    plan, _ = _plan(Model, root_nodes())
    for field_name, key, sub, merges, source, default in plan:
        if field_name == name:
            if merges or source is not MISSING or field_name == "limits":
                raise ValueError(f"{name}: read with the other fields of the model, not alone")
            value = data.get(key)
            if value is None and default is not MISSING:
                value = default
            return reader.value(value, hints(Model)[field_name], (key,), sub, reader.locate)
    raise KeyError(name)


def limits_table() -> tuple[Mapping[str, Any], Locate]:
    """The limits table of the spec directory (schema-checked) and the lines of its keys."""
    from .limits import LIMITS_FILE, read_table

    data, lines = read_table(spec_dir())
    return data, lambda path: Source(LIMITS_FILE, lines.line(path)) if _has(data, path) else None


def _has(data: Any, path: KeyPath) -> bool:
    for step in path:
        if isinstance(data, Mapping) and step in data and data[step] is not None:
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
        else:
            return False
    return True


def locator(files: typing.Sequence[Any], overrides: Mapping[str, Any] | None = None,
            derived: str | None = None) -> Locate:
    """The source of a key path: the last file of the ``extends`` chain ``files`` that
    writes it (a derived ruleset's ``overrides`` first)."""
    root = spec_dir()

    def show(path: Path) -> str:
        try:
            return str(path.resolve().relative_to(root.resolve()))
        except ValueError:
            return str(path)

    def locate(path: KeyPath) -> Source | None:
        if overrides is not None and _has(overrides, path):
            return Source(f"(derived ruleset {derived})", 0)
        for raw in reversed(files):
            if _has(raw.data, path):
                return Source(show(raw.path), raw.lines.line(path))
        return None

    return locate


def signature(data: Mapping[str, Any], sections: tuple[str, ...] = MOVE_LAYER) -> str:
    """A digest of the move layer's rules (citations and notes left out)."""
    layer = {key: _without_annotations(data.get(key)) for key in sections}
    return hashlib.sha256(json.dumps(layer, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _without_annotations(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _without_annotations(v) for k, v in value.items() if k not in ("cite", "note")}
    if isinstance(value, list):
        return [_without_annotations(v) for v in value]
    return value


def model_of(rules: Any) -> Model:
    """The model of ``rules``: a :class:`~.files.Ruleset` (its cached model), a model, or
    an id, alias or path (loaded)."""
    if isinstance(rules, Model):
        return rules
    model = getattr(rules, "model", None)
    if isinstance(model, Model):
        return model
    if isinstance(rules, (str, Path)):
        from .loader import load_ruleset

        return load_ruleset(rules).model
    raise TypeError(f"not a ruleset: {type(rules).__name__}")
