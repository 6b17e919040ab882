"""Frozen records: dataclasses whose methods are shared, not compiled per class.

``dataclass(frozen=True)`` writes the source of six methods for each class
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``)
and compiles it at import: about half a millisecond a class, which over the hundred-odd
value types of the tables and the model was a third of a short command's start-up.
:func:`record` makes the same class with one generic implementation of each method,
working from the field list it reads once per class. ``dataclasses.fields``,
``replace``, ``asdict`` and ``is_dataclass`` see an ordinary dataclass, and mypy treats it
as a frozen one (``dataclass_transform``).

The generic ``__init__`` costs about a microsecond more per instance than a compiled
one: the types made per move or per game keep ``@dataclass(frozen=True)``.
"""

import sys
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from typing import Any, NamedTuple, TypeVar, cast, overload

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pragma: no cover - Python 3.10
    from typing_extensions import dataclass_transform

T = TypeVar("T", bound=type)


class _Layout(NamedTuple):
    """What the shared methods need of a record class, read once from its fields."""

    positional: tuple[str, ...]  #: fields ``__init__`` takes by position, in order
    names: frozenset[str]  #: every field ``__init__`` takes
    required: frozenset[str]  #: those without a default
    defaults: tuple[tuple[str, Any], ...]  #: (field, default) of ``__init__``'s fields
    factories: tuple[tuple[str, Callable[[], Any]], ...]  #: (field, default factory)
    fixed: tuple[tuple[str, Any, Any], ...]  #: fields not in ``__init__``: (field, default, factory)
    compared: tuple[str, ...]  #: fields of ``==`` and ``hash``
    shown: tuple[str, ...]  #: fields of ``repr``


def _layout(cls: type, kw_only: bool) -> _Layout:
    known = fields(cast(Any, cls))
    taken = [f for f in known if f.init]
    defaults = tuple((f.name, f.default) for f in taken if f.default is not MISSING)
    factories = tuple((f.name, f.default_factory) for f in taken if f.default_factory is not MISSING)
    with_default = {name for name, _ in defaults} | {name for name, _ in factories}
    return _Layout(
        positional=() if kw_only else tuple(f.name for f in taken if not f.kw_only),
        names=frozenset(f.name for f in taken),
        required=frozenset(f.name for f in taken if f.name not in with_default),
        defaults=defaults,
        factories=factories,
        fixed=tuple((f.name, f.default, f.default_factory) for f in known
                    if not f.init and (f.default is not MISSING or f.default_factory is not MISSING)),
        compared=tuple(f.name for f in known if f.compare),
        shown=tuple(f.name for f in known if f.repr),
    )


def _init(self: Any, *args: Any, **values: Any) -> None:
    layout: _Layout = type(self).__record_layout__
    if args:
        if len(args) > len(layout.positional):
            raise TypeError(f"{type(self).__name__}() takes {len(layout.positional)} positional arguments "
                            f"but {len(args)} were given")
        given = dict(zip(layout.positional, args))
        twice = given.keys() & values.keys()
        if twice:
            raise TypeError(f"{type(self).__name__}() got multiple values for {', '.join(sorted(twice))}")
        values.update(given)
    if not layout.required <= values.keys() <= layout.names:
        absent, unknown = sorted(layout.required - values.keys()), sorted(values.keys() - layout.names)
        raise TypeError(f"{type(self).__name__}(): " + "; ".join(
            [f"missing argument(s) {', '.join(absent)}"] * bool(absent)
            + [f"unexpected keyword argument(s) {', '.join(unknown)}"] * bool(unknown)))
    own = self.__dict__
    for name, default in layout.defaults:
        own[name] = default
    for name, factory in layout.factories:
        if name not in values:
            own[name] = factory()
    for name, default, factory in layout.fixed:
        own[name] = default if factory is MISSING else factory()
    own.update(values)
    post_init = getattr(self, "__post_init__", None)
    if post_init is not None:
        post_init()


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return all(getattr(self, name) == getattr(other, name) for name in self.__record_layout__.compared)


def _hash(self: Any) -> int:
    return hash(tuple(getattr(self, name) for name in self.__record_layout__.compared))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_layout__.shown)
    return f"{self.__class__.__qualname__}({shown})"


def _setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


#: The shared methods, by name; a class's own definition of one is kept.
METHODS: dict[str, Any] = {"__init__": _init, "__eq__": _eq, "__hash__": _hash, "__repr__": _repr,
                           "__setattr__": _setattr, "__delattr__": _delattr}


@overload
def record(cls: T, /) -> T: ...


@overload
def record(*, kw_only: bool = False) -> Callable[[T], T]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: T | None = None, /, *, kw_only: bool = False) -> T | Callable[[T], T]:
    """``@record`` or ``@record(kw_only=True)``: ``cls`` as a frozen dataclass (see the
    module), equal field by field and hashable as ``dataclass(frozen=True)`` makes it."""

    def make(target: T) -> T:
        own = set(vars(target))
        if not target.__doc__:
            target.__doc__ = target.__name__  # dataclass would otherwise ask inspect.signature
        dataclass(init=False, repr=False, eq=False, kw_only=kw_only)(target)
        setattr(target, "__record_layout__", _layout(target, kw_only))
        for name, method in METHODS.items():
            if name not in own:
                setattr(target, name, method)
        if "__eq__" in own and vars(target).get("__hash__") is None:
            setattr(target, "__hash__", _hash)  # as dataclass does for a class of its own __eq__
        if target.__doc__ == target.__name__:
            target.__doc__ = f"{target.__name__}({', '.join(f.name for f in fields(cast(Any, target)))})"
        return target

    return make if cls is None else make(cls)
