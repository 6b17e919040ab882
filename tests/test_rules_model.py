"""The typed rules model: its classes agree with the schema key for key, one reader fills
them with the schema's defaults, and the interpreter reads nothing else.

* every field is a schema property and every schema property a field (a new schema key
  is one field), enumerations agree, and a field that is never ``None`` is required by
  the schema or has a default there;
* every value written in a shipped ruleset is the model's value at the same key path;
* a default comes from the schema: changed there, the model changes;
* each field knows its file, line and article;
* no module of the interpreter outside ``reference_impl/rules`` touches a ruleset's raw
  mapping (``.data``), a YAML reader or the merge (an AST walk over every module).
"""

from __future__ import annotations

import ast
import json
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import pytest

from reference_impl.rules import clear_cache, derive_ruleset, list_rulesets, load_ruleset, spec_dir
from reference_impl.rules.diff import is_annotation
from reference_impl.rules.model import Entry, Limits, Model
from reference_impl.rules.reader import (
    DEFAULT_FROM, MERGE_OVER_PARENT, MISSING, Node, children, entry_type, expand, hints, keyword, limits_nodes,
    optional_type,
    properties, read_section, required, root_nodes, rule_fields, yaml_key,
)

ROOT = Path(__file__).resolve().parent.parent
INTERPRETER = ROOT / "reference_impl"
#: The rules package: the one reader and the tooling around the raw mappings.
READER = INTERPRETER / "rules"


def _classes() -> Iterator[tuple[type[Entry], list[Node], str]]:
    """Every model class reachable from :class:`Model`, with its schema nodes and path."""
    todo: list[tuple[type[Entry], list[Node], str]] = [(Model, root_nodes(), "")]
    seen: set[tuple[type, tuple[int, ...]]] = set()
    while todo:
        cls, nodes, where = todo.pop()
        if (cls, tuple(id(n) for n, _ in nodes)) in seen:
            continue
        seen.add((cls, tuple(id(n) for n, _ in nodes)))
        yield cls, nodes, where
        for f in rule_fields(cls):
            key = yaml_key(cls, f.name)
            inner = entry_type(hints(cls)[f.name])
            if inner is None:
                continue
            sub = children(nodes, key)
            if keyword(sub, MERGE_OVER_PARENT) is True:
                sub = nodes  # read as its parent entry, its own keys merged over it
            if cls is Model and key == "limits":
                sub = limits_nodes()
            origin = get_origin(optional_type(hints(cls)[f.name])[0])
            if origin is not None and origin is not Literal:  # rows of a tuple, values of a mapping
                sub = children(sub, None)
            todo.append((inner, sub, f"{where}.{key}".lstrip(".")))


CLASSES = list(_classes())


@pytest.mark.parametrize("cls, nodes, where", CLASSES, ids=[w or "(ruleset)" for _, _, w in CLASSES])
def test_every_field_is_a_schema_key_and_every_schema_key_a_field(cls: type[Entry], nodes: list[Node], where: str) -> None:
    assert nodes, f"{where}: no schema found"
    fields = {yaml_key(cls, f.name) for f in rule_fields(cls)}
    assert fields == properties(nodes), where


@pytest.mark.parametrize("cls, nodes, where", CLASSES, ids=[w or "(ruleset)" for _, _, w in CLASSES])
def test_a_field_never_none_is_required_or_has_a_schema_default(cls: type[Entry], nodes: list[Node], where: str) -> None:
    needed = required(nodes)
    for f in rule_fields(cls):
        key = yaml_key(cls, f.name)
        if cls is Model and key == "limits":
            continue  # the limits table states every budget (checked by its own schema)
        _, nullable = optional_type(hints(cls)[f.name])
        sub = children(nodes, key)
        default, source = keyword(sub, "default"), keyword(sub, DEFAULT_FROM)
        if not nullable:
            assert key in needed or default is not MISSING or source is not MISSING, \
                f"{where}.{key}: never None, but the schema neither requires it nor gives a default"
        if default is not MISSING:
            assert not nullable, f"{where}.{key}: the schema gives a default, so the model never holds None"


@pytest.mark.parametrize("cls, nodes, where", CLASSES, ids=[w or "(ruleset)" for _, _, w in CLASSES])
def test_literal_fields_allow_what_the_schema_enumerates(cls: type[Entry], nodes: list[Node], where: str) -> None:
    for f in rule_fields(cls):
        inner, _ = optional_type(hints(cls)[f.name])
        if get_origin(inner) is tuple:
            inner = get_args(inner)[0]
            sub = children(children(nodes, yaml_key(cls, f.name)), None)
        else:
            sub = children(nodes, yaml_key(cls, f.name))
        if get_origin(inner) is not Literal:
            continue
        values = set()
        for node, _ in expand(sub):
            values |= set(node.get("enum") or []) | ({node["const"]} if "const" in node else set())
        assert set(get_args(inner)) == values, f"{where}.{f.name}"


def _value_at(model: Any, path: tuple[str | int, ...]) -> Any:
    node = model
    for key in path:
        if isinstance(node, Entry):
            name = next(f.name for f in rule_fields(type(node)) if yaml_key(type(node), f.name) == key)
            node = getattr(node, name)
        elif isinstance(node, Mapping):
            node = node[key]
        else:
            node = node[key]
    return node


def _leaves(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    if isinstance(value, Mapping) and value:
        for key, child in value.items():
            yield from _leaves(child, path + (key,))
    elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        for index, child in enumerate(value):
            yield from _leaves(child, path + (index,))
    else:
        yield path, value


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("ruleset", [r.id for r in list_rulesets()] + ["orthodox"])
def test_every_value_written_is_the_models_value_at_its_key_path(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    checked = 0
    for path, value in _leaves(rules.data):
        if path[-1] == "without_supervision" or "without_supervision" in path:
            continue  # merged over its entry: checked below
        found = _plain(_value_at(rules.model, path))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            assert found == value and type(found) in (int, float), path
        else:
            assert found == value, path
        checked += 1
    assert checked > 40 or ruleset == "orthodox"


@pytest.mark.parametrize("ruleset", [r.id for r in list_rulesets()])
def test_a_scope_read_alone_is_the_models_scope(ruleset: str) -> None:
    """``Ruleset.scope`` before the model is read (the audit chooses by it) and after."""
    clear_cache()
    rules = load_ruleset(ruleset)
    alone = rules.scope
    assert "model" not in rules.__dict__
    assert alone == rules.model.scope and rules.scope is rules.model.scope
    assert alone.source_of("speed") == rules.model.scope.source_of("speed")
    assert alone.origin.path == ("scope",)


def test_a_field_read_from_another_cannot_be_read_alone() -> None:
    with pytest.raises(ValueError, match="not alone"):
        read_section(load_ruleset("fide-2023").data, "limits")


def test_without_supervision_is_its_entry_with_its_own_keys_over_it() -> None:
    rapid = load_ruleset("fide-2014").model.illegal_moves
    assert rapid is not None and rapid.rapid is not None
    unsupervised = rapid.rapid.without_supervision
    assert unsupervised is not None
    assert (rapid.rapid.loses_at, unsupervised.loses_at) == (2, 1)
    assert unsupervised.cite == "fide-2014:A.4.b"
    assert unsupervised.draw_if_opponent_cannot_checkmate is rapid.rapid.draw_if_opponent_cannot_checkmate is True


def test_a_regime_without_its_own_entry_is_the_standard_entry_itself() -> None:
    model = load_ruleset("uscf-7").model
    assert model.illegal_moves is not None
    assert model.illegal_moves.rapid is model.illegal_moves.standard
    assert model.clocks.penalty.rapid is model.clocks.penalty.standard
    assert model.illegal_moves.rapid is not None and model.illegal_moves.rapid.origin.path == ("illegal_moves", "standard")


def test_the_limits_are_the_table_with_the_rulesets_section_over_it() -> None:
    plain = load_ruleset("fide-2023").model.limits
    smaller = derive_ruleset("fide-2023", {"limits": {"flag_fall": {"node_limit": 1234}}}, id="smaller").model.limits
    assert isinstance(plain, Limits)
    assert smaller.flag_fall.node_limit == 1234 and smaller.forced_win == plain.forced_win
    assert str(plain.flag_fall.source_of("node_limit")).startswith("limits.yaml:")
    assert smaller.flag_fall.source_of("node_limit") is not None and smaller.flag_fall.source_of("node_limit").line == 0


@pytest.fixture()
def spec_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the spec directory, in force for the test."""
    copy = tmp_path / "spec"
    shutil.copytree(spec_dir(), copy)
    monkeypatch.setenv("ARBITER_SPEC_DIR", str(copy))
    clear_cache()
    yield copy
    monkeypatch.delenv("ARBITER_SPEC_DIR")
    clear_cache()


def test_a_default_comes_from_the_schema_not_from_code(spec_copy: Path) -> None:
    # The schema says what an absent flag_fall.if_undetermined means; change it there
    # and the model of a ruleset that does not state it follows.
    schema_file = spec_copy / "schema" / "adjudication.schema.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    entry = schema["$defs"]["flag_fall"]["properties"]["if_undetermined"]
    assert entry["default"] == "loss"
    before = derive_ruleset("fide-2023", {"flag_fall": {"if_undetermined": None}}, id="unstated").model
    assert before.flag_fall is not None and before.flag_fall.if_undetermined == "loss"
    entry["default"] = "unknown"
    schema_file.write_text(json.dumps(schema), encoding="utf-8")
    from reference_impl.rules import reader

    reader._documents.cache_clear()
    after = derive_ruleset("fide-2023", {"flag_fall": {"if_undetermined": None}}, id="unstated").model
    reader._documents.cache_clear()
    assert after.flag_fall is not None and after.flag_fall.if_undetermined == "unknown"


def _line_of(file: Path, text: str) -> int:
    return next(n for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_each_field_knows_its_file_line_and_article() -> None:
    model = load_ruleset("fide-2014").model
    assert model.flag_fall is not None
    when = model.flag_fall.source_of("when")
    assert when is not None and when.file == "rulesets/fide-2023.yaml"
    assert when.line == _line_of(spec_dir() / "rulesets/fide-2023.yaml", "  when: noticed")
    assert model.flag_fall.cite_of("when") == "fide-2014:6.8"  # its when_cite, from fide-2014
    assert model.flag_fall.cite_of("result") == "fide-2014:6.9"  # the entry's cite
    claim = model.repetition.claim
    assert claim is not None and claim.cite_of("touch_forfeits") == "fide-2014:9.4"  # touch_cite covers it
    consecutive = model.repetition.automatic
    assert consecutive is not None and str(consecutive.source_of("consecutive")).startswith("rulesets/fide-2014.yaml:")
    assert model.flag_fall.source_of("if_undetermined") is not None
    assert load_ruleset("uscf-7").model.flag_fall.source_of("if_undetermined") is None  # the schema's default


def test_a_key_the_model_lacks_is_refused_by_the_reader() -> None:
    from reference_impl.errors import RulesetError
    from reference_impl.rules.reader import read_model

    data = dict(load_ruleset("fide-2023").data)
    data["flag_fall"] = {**data["flag_fall"], "grace_seconds": 2}
    with pytest.raises(RulesetError, match="flag_fall: unknown key 'grace_seconds'"):
        read_model(data)


# -- the interpreter reads the model only ---------------------------------------------------

#: What only the rules package may touch: the raw mapping and its readers.
FORBIDDEN_ATTRIBUTES = {"data"}
FORBIDDEN_NAMES = {"read_yaml", "read_ruleset_file", "parse_yaml", "merge", "inherit", "resolve_chain",
                   "read_model", "read_entry", "read_table"}
#: The modules of the rules package the interpreter may import from.
ALLOWED_RULES_MODULES = {"reference_impl.rules", "reference_impl.rules.model", "reference_impl.rules.reader",
                         "reference_impl.rules.files", "reference_impl.rules.loader", "reference_impl.rules.paths"}
ALLOWED_RULES_NAMES = {"Ruleset", "Model", "model_of", "schema_default", "load_ruleset", "spec_dir",
                       "list_rulesets", "derive_ruleset", "RulesetError"}


#: The notation tables' own reader (YAML that is no ruleset), and what it may take from
#: the rules package: the safe loader (remembered on disk) and the memo of schema checks
#: that passed.
NOTATION_READER = INTERPRETER / "notation" / "tables.py"
NOTATION_READER_NAMES = {"read_plain", "PlainYamlError", "checked"}


def _interpreter_modules() -> list[Path]:
    return [p for p in sorted(INTERPRETER.rglob("*.py")) if READER not in p.parents]


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _absolute(node: ast.ImportFrom, path: Path) -> str:
    if not node.level:
        return node.module or ""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def raw_accesses(path: Path) -> list[str]:
    """The places in ``path`` that reach behind the model."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            found.append(f"{where}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, path)
            if module.startswith("reference_impl.rules"):
                names = {alias.name for alias in node.names}
                model_types = module == "reference_impl.rules.model"
                yaml_reader = path == NOTATION_READER and names <= NOTATION_READER_NAMES
                if not yaml_reader and (module not in ALLOWED_RULES_MODULES
                                        or not (model_types or names <= ALLOWED_RULES_NAMES)):
                    found.append(f"{where}: from {module} import {', '.join(sorted(names))}")
            elif module == "yaml" and path != NOTATION_READER:
                found.append(f"{where}: yaml")
        elif isinstance(node, ast.Import) and any(a.name == "yaml" for a in node.names) and path != NOTATION_READER:
            found.append(f"{where}: import yaml")
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            found.append(f"{where}: {node.id}")
    return found


def test_the_interpreter_reads_no_raw_ruleset_mapping() -> None:
    modules = _interpreter_modules()
    assert len(modules) > 40
    found = [hit for path in modules for hit in raw_accesses(path)]
    assert found == []


def test_the_walk_finds_a_raw_access(tmp_path: Path) -> None:
    sample = INTERPRETER / "adjudication" / "_sample_for_test.py"
    sample.write_text("from reference_impl.rules.merge import merge\n\n"
                      "def f(rules):\n    return rules.data['flag_fall']['when']\n", encoding="utf-8")
    try:
        found = raw_accesses(sample)
    finally:
        sample.unlink()
    assert [hit.split(": ", 1)[1] for hit in found] == ["from reference_impl.rules.merge import merge", ".data"]


def test_the_ruleset_is_no_mapping() -> None:
    rules = load_ruleset("fide-2023")
    assert not isinstance(rules, Mapping)
    with pytest.raises(TypeError):
        rules["flag_fall"]  # type: ignore[index]
