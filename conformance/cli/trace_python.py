"""Which lines of Python read which field of the rules model, found by types, not by words.

An AST walk over the packages, with the types the code declares (``mypy`` checks them):
a parameter, variable or class attribute annotated with a model class (``entry:
FlagFall``, ``self.model: Model``), a function's or property's return annotation
(``model_of(...) -> Model``, a ``TypeVar`` passed through as by ``need(model, x, key)``),
and from there the model's own field types (:func:`reference_impl.rules.reader.hints`),
rows of a tuple and values of a mapping included. A *read* is an attribute access
``x.field`` whose ``x`` has a model class: it carries the key path where the chain shows
it (``model.flag_fall.when``) and only the class where the value came through an
annotation. The notation tables, which are mappings, are followed the same way from
``table("NAME")`` through constant keys.

A read that guards code (the test of an ``if``) *reaches* the functions called under it,
resolved through the module's imports to their definitions (two calls deep), so the
US Chess 14E2 row's ``unless_forced_win`` leads to the forced-win search.
"""

from __future__ import annotations

import ast
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Union

import reference_impl
from reference_impl.rules import model as model_module
from reference_impl.rules.model import Entry
from reference_impl.rules.reader import hints, optional_type, rule_fields, yaml_key

#: The packages searched, relative to the repository root.
PACKAGES = ("reference_impl", "conformance")
#: How many calls deep a guarded read is followed.
REACH_DEPTH = 2
#: Path step standing for any key of a mapping, or any row.
ANY = "*"
ROW = "[]"

Step = str
Path_ = tuple[Step, ...]


@dataclass(frozen=True)
class ModelType:
    """A model entry (``kind`` ``entry``), rows of them (``rows``: a tuple field), a
    mapping of them (``map``), the pairs of such a mapping (``items``) or a collection of
    entries the code built (``each``); ``path`` where known."""

    cls: type
    path: Path_ | None
    kind: str = "entry"


@dataclass(frozen=True)
class TableType:
    """A notation table, or a value inside one at ``path`` (``None``: not a mapping read by key)."""

    name: str
    path: Path_


@dataclass(frozen=True)
class ClassType:
    """An instance of a class of the packages (by qualified name)."""

    qualname: str


@dataclass(frozen=True)
class PairType:
    """A fixed tuple (``tuple[str, EndEntry]``): the types of its items (``rows``: a
    collection of such tuples)."""

    items: tuple[frozenset[Any], ...]
    rows: bool = False


Type = Union[ModelType, TableType, ClassType, PairType]
Types = frozenset[Type]
NONE: Types = frozenset()


@dataclass(frozen=True)
class Read:
    """One read of a model field (or a notation table key) on a line."""

    file: str
    line: int
    text: str
    cls: type | None       # the model class, or None for a notation table
    name: str              # the field (or the table's name)
    path: Path_ | None     # the key path, where the code shows it
    node: ast.AST = field(compare=False, repr=False)
    function: str = field(default="", compare=False)


@dataclass
class Module:
    name: str
    file: str
    tree: ast.Module
    lines: list[str]
    imports: dict[str, str] = field(default_factory=dict)   # local name -> qualified name
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    typevars: set[str] = field(default_factory=set)
    annotations: dict[str, ast.expr] = field(default_factory=dict)  # module-level annotated names
    aliases: dict[str, ast.expr] = field(default_factory=dict)  # module-level type aliases (X = Union[...])


_MEMBERS: dict[tuple[str, str], Types] = {}
_ENVIRONMENTS: dict[tuple[int, str | None], dict[str, Types]] = {}

MODEL_CLASSES = {name: cls for name, cls in vars(model_module).items()
                 if isinstance(cls, type) and issubclass(cls, Entry)}


@lru_cache(maxsize=1)
def unique_paths() -> dict[type, Path_]:
    """The key path of each model class that stands at one place only (the model's root at
    ``()``, ``FlagFall`` at ``flag_fall``); a class used at several (``ResultEntry``) has none."""
    places: dict[type, set[Path_]] = {}
    todo: list[tuple[type, Path_]] = [(model_module.Model, ())]
    while todo:
        cls, path = todo.pop()
        if path in places.setdefault(cls, set()) or len(path) > 8:
            continue
        places[cls].add(path)
        for f in rule_fields(cls):
            for found in _field_type(hints(cls)[f.name], path + (yaml_key(cls, f.name),)):
                if isinstance(found, ModelType) and found.path is not None:
                    step = {"rows": (ROW,), "map": (ANY,)}.get(found.kind, ())
                    todo.append((found.cls, found.path + step))
    return {cls: next(iter(paths)) for cls, paths in places.items() if len(paths) == 1}


def _root() -> Path:
    return Path(reference_impl.__file__).resolve().parent.parent


def _module_name(path: Path, root: Path) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


@lru_cache(maxsize=1)
def modules() -> dict[str, Module]:
    """Every module of :data:`PACKAGES`, parsed, with its imports and definitions."""
    root = _root()
    out: dict[str, Module] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            name = _module_name(path, root)
            mod = Module(name, str(path.relative_to(root)), ast.parse(text), text.splitlines())
            for node in ast.walk(mod.tree):
                if isinstance(node, ast.ImportFrom):
                    base = _absolute(node, name, path.name == "__init__.py")
                    for alias in node.names:
                        mod.imports[alias.asname or alias.name] = f"{base}.{alias.name}"
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        mod.imports[alias.asname or alias.name.split(".")[0]] = \
                            alias.name if alias.asname else alias.name.split(".")[0]
            for node in mod.tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    mod.functions[node.name] = node
                elif isinstance(node, ast.ClassDef):
                    mod.classes[node.name] = node
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    mod.annotations[node.target.id] = node.annotation
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                        and isinstance(node.value.func, ast.Name) and node.value.func.id == "TypeVar":
                    mod.typevars.update(t.id for t in node.targets if isinstance(t, ast.Name))
                elif isinstance(node, ast.Assign) and isinstance(node.value, (ast.Subscript, ast.BinOp)):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            mod.aliases[target.id] = node.value
            out[name] = mod
    return out


def _definition(qualname: str) -> tuple[Module, ast.AST] | None:
    """The module and node a qualified name defines (a function, a class, a module)."""
    found = modules()
    if qualname in found:
        return found[qualname], found[qualname].tree
    module, _, name = qualname.rpartition(".")
    seen = 0
    while module in found and seen < 5:
        mod = found[module]
        if name in mod.functions:
            return mod, mod.functions[name]
        if name in mod.classes:
            return mod, mod.classes[name]
        if name in mod.imports:  # a re-export: follow it
            module, _, name = mod.imports[name].rpartition(".")
            seen += 1
            continue
        return None
    return None


class Inference:
    """Types of expressions in one module's functions (flow-insensitive per function)."""

    def __init__(self, module: Module) -> None:
        self.module = module

    # -- names and annotations ------------------------------------------------------

    def qualify(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            if node.id in self.module.imports:
                return self.module.imports[node.id]
            if node.id in self.module.classes or node.id in self.module.functions:
                return f"{self.module.name}.{node.id}"
            return None
        if isinstance(node, ast.Attribute):
            base = self.qualify(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def named(self, qualname: str | None) -> Types:
        if qualname is None:
            return NONE
        name = qualname.rpartition(".")[2]
        if qualname.startswith("reference_impl.rules.model.") and name in MODEL_CLASSES:
            return frozenset({ModelType(MODEL_CLASSES[name], unique_paths().get(MODEL_CLASSES[name]))})
        found = _definition(qualname)
        if found is not None and isinstance(found[1], ast.ClassDef):
            return frozenset({ClassType(f"{found[0].name}.{found[1].name}")})
        return NONE

    def annotation(self, node: ast.expr | None) -> Types:
        if node is None:
            return NONE
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                return self.annotation(ast.parse(node.value, mode="eval").body)
            except SyntaxError:
                return NONE
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.annotation(node.left) | self.annotation(node.right)
        if isinstance(node, ast.Subscript):
            outer = str(self.qualify(node.value) or getattr(node.value, "id", "")).rpartition(".")[2]
            args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
            if outer in ("Optional", "Union"):
                return frozenset().union(*(self.annotation(a) for a in args))
            if outer == "tuple" and args and not (isinstance(args[-1], ast.Constant) and args[-1].value is Ellipsis):
                return frozenset({PairType(tuple(self.annotation(a) for a in args))})
            if outer in ("tuple", "list", "Sequence", "Iterable") and args:
                inner = self.annotation(args[0])
                pairs = frozenset(t for t in inner if isinstance(t, PairType))
                return _as(inner, "each") | frozenset(PairType(p.items, rows=True) for p in pairs)
            if outer in ("Mapping", "dict") and len(args) == 2:
                values = self.annotation(args[1])
                return frozenset(ModelType(t.cls, t.path[:-1] if t.path and t.path[-1] == ANY else None, "map")
                                 for t in values if isinstance(t, ModelType) and t.kind == "entry")
            return NONE
        if isinstance(node, ast.Name) and node.id in ("tuple", "list"):
            return NONE
        if isinstance(node, ast.Name) and node.id in self.module.aliases:
            return self.annotation(self.module.aliases[node.id])
        qualified = self.qualify(node)
        found = self.named(qualified)
        if not found and qualified:  # an alias imported from another module
            module, _, name = qualified.rpartition(".")
            other = modules().get(module)
            if other is not None and name in other.aliases:
                return Inference(other).annotation(other.aliases[name])
        return found

    # -- expressions ------------------------------------------------------------------

    def infer(self, node: ast.expr | None, env: dict[str, Types], cls: str | None) -> Types:
        if node is None:
            return NONE
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in self.module.annotations:
                return self.annotation(self.module.annotations[node.id])
            return NONE
        if isinstance(node, ast.Attribute):
            out: set[Type] = set()
            for base in self.infer(node.value, env, cls):
                out |= self.attribute(base, node.attr)
            if not out:  # a module's name: its global or class
                qualified = self.qualify(node)
                out |= self.named(qualified)
            return frozenset(out)
        if isinstance(node, ast.Call):
            return self.call(node, env, cls)
        if isinstance(node, ast.Subscript):
            out = set()
            for base in self.infer(node.value, env, cls):
                if isinstance(base, ModelType) and base.kind in ("rows", "map"):
                    key = node.slice.value if isinstance(node.slice, ast.Constant) else None
                    step = ROW if base.kind == "rows" else (str(key) if isinstance(key, str) else ANY)
                    out.add(ModelType(base.cls, base.path + (step,) if base.path is not None else None))
                elif isinstance(base, TableType):
                    key = node.slice.value if isinstance(node.slice, ast.Constant) else None
                    out.add(TableType(base.name, base.path + (str(key) if isinstance(key, (str, int)) else ANY,)))
            if isinstance(node.value, ast.Dict):  # {"a": x.a, "b": x.b}[name]
                for value in node.value.values:
                    out |= self.infer(value, env, cls)
            return frozenset(out)
        if isinstance(node, ast.IfExp):
            return self.infer(node.body, env, cls) | self.infer(node.orelse, env, cls)
        if isinstance(node, ast.BoolOp):
            return frozenset().union(*(self.infer(v, env, cls) for v in node.values))
        if isinstance(node, ast.NamedExpr):
            found = self.infer(node.value, env, cls)
            env[node.target.id] = env.get(node.target.id, NONE) | found
            return found
        if isinstance(node, (ast.Tuple, ast.List)):
            return _as(frozenset().union(*(self.infer(e, env, cls) for e in node.elts)), "each")
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return _as(self.infer(node.elt, env, cls), "each")
        return NONE

    def attribute(self, base: Type, name: str) -> Types:
        if isinstance(base, ModelType) and base.kind == "entry":
            types = hints(base.cls)
            if name not in types:
                return NONE
            key = yaml_key(base.cls, name)
            path = base.path + (key,) if base.path is not None else None
            return _field_type(types[name], path)
        if isinstance(base, ClassType):
            return self.member(base.qualname, name)
        return NONE

    def member(self, qualname: str, name: str) -> Types:
        """The type of attribute ``name`` of the class ``qualname`` (its annotation, a
        property's return, ``self.name`` annotated or assigned in a method)."""
        key = (qualname, name)
        if key not in _MEMBERS:
            _MEMBERS[key] = NONE  # while it is worked out: a cycle finds nothing
            _MEMBERS[key] = self._member(qualname, name)
        return _MEMBERS[key]

    def _member(self, qualname: str, name: str) -> Types:
        found = _definition(qualname)
        if found is None or not isinstance(found[1], ast.ClassDef):
            return NONE
        mod, node = found[0], found[1]
        inference = Inference(mod)
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.target.id == name:
                return inference.annotation(item.annotation)
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == name and item.decorator_list:
                return inference.annotation(item.returns)
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for stmt in ast.walk(item):
                    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Attribute) \
                            and stmt.target.attr == name and isinstance(stmt.target.value, ast.Name) \
                            and stmt.target.value.id == "self":
                        return inference.annotation(stmt.annotation)
        for item in node.body:  # plain ``self.name = value``: typed from the parameters alone
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                env = inference.parameters(item, f"{mod.name}.{node.name}")
                for stmt in ast.walk(item):
                    if isinstance(stmt, ast.Assign):
                        for assigned in stmt.targets:
                            if isinstance(assigned, ast.Attribute) and assigned.attr == name \
                                    and isinstance(assigned.value, ast.Name) and assigned.value.id == "self":
                                return inference.infer(stmt.value, env, f"{mod.name}.{node.name}")
        for base in node.bases:  # inherited
            qualified = inference.qualify(base)
            if qualified:
                found_type = self.member(qualified, name)
                if found_type:
                    return found_type
        return NONE

    def call(self, node: ast.Call, env: dict[str, Types], cls: str | None) -> Types:
        func = node.func
        if isinstance(func, ast.Attribute):
            out: set[Type] = set()
            for base in self.infer(func.value, env, cls):
                if isinstance(base, ModelType) and base.kind == "map":
                    if func.attr == "values":
                        out.add(ModelType(base.cls, base.path + (ANY,) if base.path is not None else None, "rows"))
                    elif func.attr == "items":
                        out.add(ModelType(base.cls, base.path, "items"))
                    elif func.attr == "get":
                        out.add(ModelType(base.cls, base.path + (ANY,) if base.path is not None else None))
                elif isinstance(base, TableType) and func.attr == "get" and node.args:
                    key = node.args[0].value if isinstance(node.args[0], ast.Constant) else ANY
                    out.add(TableType(base.name, base.path + (str(key),)))
                elif isinstance(base, TableType) and func.attr in ("values", "items"):
                    out.add(TableType(base.name, base.path + (ANY,)))
                elif isinstance(base, ClassType):
                    method = self.method(base.qualname, func.attr)
                    if method is not None:
                        out |= self.returns(method[0], method[1], node, env, cls)
            if out:
                return frozenset(out)
        qualified = self.qualify(func)
        if qualified is not None and qualified.endswith("notation.tables.table") and node.args \
                and isinstance(node.args[0], ast.Constant):
            return frozenset({TableType(str(node.args[0].value), ())})
        found = _definition(qualified) if qualified else None
        if found is None:
            return NONE
        mod, definition = found
        if isinstance(definition, ast.ClassDef):
            return self.named(qualified)
        if isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return self.returns(mod, definition, node, env, cls)
        return NONE

    def method(self, qualname: str, name: str) -> tuple[Module, ast.FunctionDef | ast.AsyncFunctionDef] | None:
        found = _definition(qualname)
        if found is None or not isinstance(found[1], ast.ClassDef):
            return None
        for item in found[1].body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == name:
                return found[0], item
        return None

    def returns(self, mod: Module, definition: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call,
                env: dict[str, Types], cls: str | None) -> Types:
        returned = definition.returns
        if isinstance(returned, ast.Name) and returned.id in mod.typevars:
            # a TypeVar passed through: the argument whose parameter mentions it
            params = definition.args.posonlyargs + definition.args.args
            offset = 1 if params and params[0].arg in ("self", "cls") and isinstance(call.func, ast.Attribute) else 0
            for index, param in enumerate(params[offset:]):
                if param.annotation is not None and any(isinstance(n, ast.Name) and n.id == returned.id
                                                        for n in ast.walk(param.annotation)):
                    if index < len(call.args):
                        return self.infer(call.args[index], env, cls)
            return NONE
        return Inference(mod).annotation(returned)

    # -- statements -------------------------------------------------------------------

    def environment(self, function: ast.AST, cls: str | None) -> dict[str, Types]:
        """Name -> types in ``function`` (parameters, assignments, loops, comprehensions)."""
        key = (id(function), cls)
        if key not in _ENVIRONMENTS:
            _ENVIRONMENTS[key] = {}  # while it is worked out
            _ENVIRONMENTS[key] = self._environment(function, cls)
        return dict(_ENVIRONMENTS[key])

    def parameters(self, function: ast.AST, cls: str | None) -> dict[str, Types]:
        """Name -> types of ``function``'s parameters (``self`` of its class)."""
        env: dict[str, Types] = {}
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for arg in function.args.posonlyargs + function.args.args + function.args.kwonlyargs:
                if arg.arg == "self" and cls is not None:
                    env["self"] = frozenset({ClassType(cls)})
                else:
                    env[arg.arg] = self.annotation(arg.annotation)
        return env

    def _environment(self, function: ast.AST, cls: str | None) -> dict[str, Types]:
        env = self.parameters(function, cls)
        for _ in range(3):  # until assignments that depend on later ones settle
            before = dict(env)
            for node in ast.walk(function):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not function:
                    for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                        if not isinstance(node, ast.Lambda) and arg.arg not in env:
                            env[arg.arg] = self.annotation(arg.annotation)
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    env[node.target.id] = env.get(node.target.id, NONE) | self.annotation(node.annotation) \
                        | self.infer(node.value, env, cls)
                elif isinstance(node, ast.Assign):
                    found = self.infer(node.value, env, cls)
                    for target in node.targets:
                        self.bind(target, found, env)
                elif isinstance(node, (ast.For, ast.comprehension)):
                    self.bind(node.target, _items(self.infer(node.iter, env, cls)), env)
                elif isinstance(node, ast.NamedExpr):
                    self.infer(node, env, cls)
            if env == before:
                break
        return env

    def bind(self, target: ast.expr, types: Types, env: dict[str, Types]) -> None:
        if isinstance(target, ast.Name):
            if types:
                env[target.id] = env.get(target.id, NONE) | types
        elif isinstance(target, (ast.Tuple, ast.List)):
            fixed = [t for t in types if isinstance(t, PairType) and len(t.items) == len(target.elts)]
            for pair in fixed:
                for element, item in zip(target.elts, pair.items):
                    self.bind(element, frozenset(item), env)
            pairs = [t for t in types if isinstance(t, ModelType) and t.kind == "items"]
            if pairs and len(target.elts) == 2:  # for key, entry in mapping.items()
                values = frozenset(ModelType(t.cls, t.path + (ANY,) if t.path is not None else None) for t in pairs)
                self.bind(target.elts[1], values, env)
            elif len(target.elts) and types:
                rows = _items(types)
                for element in target.elts:
                    self.bind(element, rows, env)


def _as(types: Types, kind: str) -> Types:
    return frozenset(ModelType(t.cls, t.path, kind) for t in types if isinstance(t, ModelType) and t.kind == "entry")


def _items(types: Types) -> Types:
    """What iterating over values of ``types`` yields."""
    out: set[Type] = set()
    for t in types:
        if isinstance(t, ModelType) and t.kind == "rows":
            out.add(ModelType(t.cls, t.path + (ROW,) if t.path is not None and t.path[-1:] != (ANY,) else t.path))
        elif isinstance(t, ModelType) and t.kind == "each":  # a literal's or a comprehension's elements
            out.add(ModelType(t.cls, t.path))
        elif isinstance(t, ModelType) and t.kind == "items":  # mapping.items(): (key, entry) pairs
            out.add(t)
        elif isinstance(t, TableType):
            out.add(TableType(t.name, t.path + (ANY,)))
        elif isinstance(t, PairType) and t.rows:  # rows of fixed tuples
            out.add(PairType(t.items))
    return frozenset(out)


def _field_type(tp: Any, path: Path_ | None) -> Types:
    inner, _ = optional_type(tp)
    origin = typing.get_origin(inner)
    args = typing.get_args(inner)
    if isinstance(inner, type) and issubclass(inner, Entry):
        return frozenset({ModelType(inner, path)})
    if origin is tuple and args and args[-1] is Ellipsis and isinstance(args[0], type) and issubclass(args[0], Entry):
        return frozenset({ModelType(args[0], path, "rows")})
    if origin is not None and args and isinstance(args[-1], type) and issubclass(args[-1], Entry) \
            and origin.__name__ == "Mapping":
        return frozenset({ModelType(args[-1], path, "map")})
    if isinstance(inner, type) and issubclass(inner, Entry):
        return frozenset({ModelType(inner, path)})
    return NONE


# -- reads -------------------------------------------------------------------------------------


def _scopes(module: Module) -> Iterator[tuple[ast.AST, str | None, str]]:
    """(scope, enclosing class, name) for the module and each function (methods included)."""
    yield module.tree, None, "<module>"
    for node in module.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node, None, node.name
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield item, f"{module.name}.{node.name}", f"{node.name}.{item.name}"


@lru_cache(maxsize=1)
def reads() -> tuple[Read, ...]:
    """Every read of a model field or a notation table key in :data:`PACKAGES`."""
    out: list[Read] = []
    for module in modules().values():
        inference = Inference(module)
        for scope, cls, name in _scopes(module):
            env = inference.environment(scope, cls) if scope is not module.tree else {}
            nodes = ast.walk(scope) if scope is not module.tree else _module_level(module.tree)
            for node in nodes:
                out.extend(_read_at(inference, module, node, env, cls, name))
    return tuple(sorted(set(out), key=lambda r: (r.file, r.line, r.name)))


def _module_level(tree: ast.Module) -> Iterator[ast.AST]:
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from ast.walk(node)


def _read_at(inference: Inference, module: Module, node: ast.AST, env: dict[str, Types],
             cls: str | None, function: str) -> Iterator[Read]:
    line = getattr(node, "lineno", 0)
    text = module.lines[line - 1].strip() if line else ""
    if isinstance(node, ast.Attribute):
        for base in inference.infer(node.value, env, cls):
            if isinstance(base, ModelType) and base.kind == "entry" and node.attr in hints(base.cls) \
                    and node.attr != "origin":
                key = yaml_key(base.cls, node.attr)
                path = base.path + (key,) if base.path is not None else None
                yield Read(module.file, line, text, base.cls, node.attr, path, node, function)
    elif isinstance(node, ast.Subscript):
        index = node.slice.value if isinstance(node.slice, ast.Constant) else None
        for base in inference.infer(node.value, env, cls):
            if isinstance(base, TableType):
                step = str(index) if isinstance(index, (str, int)) else ANY
                yield Read(module.file, line, text, None, base.name, base.path + (step,), node, function)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
        argument = node.args[0].value if isinstance(node.args[0], ast.Constant) else None
        for base in inference.infer(node.func.value, env, cls):
            if isinstance(base, TableType):
                yield Read(module.file, line, text, None, base.name, base.path + (str(argument) if argument else ANY,),
                           node, function)


def matches(read_path: Path_ | None, path: Path_) -> bool:
    """Whether a read at ``read_path`` (``None``: any) reads the field at ``path``."""
    if read_path is None:
        return True
    if len(read_path) != len(path):
        return False
    return all(a == b or ANY in (a, b) or (a == ROW and b.isdigit()) for a, b in zip(read_path, path))


def reads_of(cls: type, name: str, path: Path_) -> list[Read]:
    """The reads of field ``name`` of ``cls`` at the key ``path`` (rows by ``[]``)."""
    return [r for r in reads() if r.cls is cls and r.name == name and matches(r.path, path)]


def table_reads(table: str, path: Path_) -> list[Read]:
    """The reads of the notation table ``table`` at ``path``, above it (the whole entry)
    or below it (one of its keys)."""
    out = []
    for r in reads():
        if r.cls is None and r.name == table and r.path is not None:
            n = min(len(r.path), len(path))
            if n and matches(r.path[:n], path[:n]) and (len(r.path) == len(path) or r.path[n:].count(ANY) == 0):
                out.append(r)
    return out


# -- what a read reaches ------------------------------------------------------------------------


@dataclass(frozen=True)
class Reached:
    """A function a read leads to: its qualified name, file, line, depth (1: called under the read)."""

    name: str
    file: str
    line: int
    depth: int


def _guarded(read: Read, module: Module) -> list[ast.AST]:
    """What the read decides: the body of the ``if`` or ``while`` whose test it is part
    of, else the calls it is an argument of."""
    for node in ast.walk(module.tree):
        if isinstance(node, (ast.If, ast.While)) and any(n is read.node for n in ast.walk(node.test)):
            return list(node.body)
    return [node for node in ast.walk(module.tree)
            if isinstance(node, ast.Call) and node is not read.node
            and any(n is read.node for arg in node.args + [k.value for k in node.keywords] for n in ast.walk(arg))]


def _calls(inference: Inference, nodes: list[ast.AST], env: dict[str, Types], cls: str | None,
           only: bool = False) -> list[str]:
    """The functions called in ``nodes`` (``only``: the calls ``nodes`` are, not those inside)."""
    found: list[str] = []
    for root in nodes:
        for node in [root] if only else ast.walk(root):
            if not isinstance(node, ast.Call):
                continue
            qualified = inference.qualify(node.func)
            if qualified is None and isinstance(node.func, ast.Attribute):
                for base in inference.infer(node.func.value, env, cls):
                    if isinstance(base, ClassType) and inference.method(base.qualname, node.func.attr):
                        qualified = f"{base.qualname}.{node.func.attr}"
            if qualified and qualified not in found:
                found.append(qualified)
    return found


def _function(qualname: str) -> tuple[Module, ast.FunctionDef | ast.AsyncFunctionDef, str | None] | None:
    found = _definition(qualname)
    if found is not None and isinstance(found[1], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return found[0], found[1], None
    owner, _, name = qualname.rpartition(".")
    method = Inference(next(iter(modules().values()))).method(owner, name)
    if method is not None:
        return method[0], method[1], owner
    return None


def reached(read: Read) -> list[Reached]:
    """The functions of the packages called under ``read``, followed :data:`REACH_DEPTH` deep."""
    module = next(m for m in modules().values() if m.file == read.file)
    inference = Inference(module)
    scope = next((s for s, _, name in _scopes(module) if name == read.function), module.tree)
    cls = next((c for s, c, name in _scopes(module) if name == read.function), None)
    env = inference.environment(scope, cls) if scope is not module.tree else {}
    out: list[Reached] = []
    guarded = _guarded(read, module)
    frontier = _calls(inference, guarded, env, cls, only=all(isinstance(n, ast.Call) for n in guarded))
    seen: set[str] = set()
    for depth in range(1, REACH_DEPTH + 1):
        following: list[str] = []
        for qualname in frontier:
            if qualname in seen:
                continue
            seen.add(qualname)
            found = _function(qualname)
            if found is None:
                continue
            mod, definition, owner = found
            out.append(Reached(qualname, mod.file, definition.lineno, depth))
            inner = Inference(mod)
            following += _calls(inner, list(definition.body), inner.environment(definition, owner), owner)
        frontier = following
    return out
