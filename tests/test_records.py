"""``@record`` behaves as ``@dataclass(frozen=True)``: the same class made both ways
answers the same to construction, equality, hashing, repr, ``replace``/``asdict`` and
assignment, and refuses the same wrong calls."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, Callable

import pytest

from reference_impl.records import record


def both(body: Callable[[Callable[[type], type]], type]) -> tuple[type, type]:
    """The class ``body`` defines, made by ``@record`` and by ``@dataclass(frozen=True)``."""
    return body(record), body(dataclass(frozen=True))


def plain(decorate: Callable[[type], type]) -> type:
    class Plain:
        a: int
        b: str = "x"
        c: list[int] = field(default_factory=list)
        d: float = field(default=1.5, compare=False, repr=False)
        e: int = field(default=7, init=False)
    return decorate(Plain)


def keywords(decorate: Callable[[type], type]) -> type:
    class Keywords:
        a: int
        b: tuple[int, ...] = field(default=(), kw_only=True)
    return decorate(Keywords)


def posted(decorate: Callable[[type], type]) -> type:
    class Posted:
        a: int

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("negative")
    return decorate(Posted)


CALLS: list[tuple[Callable[[Callable[[type], type]], type], tuple[Any, ...], dict[str, Any]]] = [
    (plain, (1,), {}),
    (plain, (1, "y"), {"c": [2]}),
    (plain, (), {"a": 3, "d": 2.5}),
    (plain, (1, "y", [1], 2.0), {}),
    (keywords, (1,), {"b": (2, 3)}),
    (posted, (4,), {}),
]
BAD_CALLS: list[tuple[Callable[[Callable[[type], type]], type], tuple[Any, ...], dict[str, Any]]] = [
    (plain, (), {}),  # a required field missing
    (plain, (1,), {"a": 2}),  # a field given twice
    (plain, (1,), {"e": 2}),  # a field not taken by __init__
    (plain, (1, "y", [1], 2.0, 5), {}),  # too many positions
    (keywords, (1, (2,)), {}),  # a keyword-only field by position
    (plain, (1,), {"zz": 0}),
]


def fields_of(value: Any) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


@pytest.mark.parametrize(("body", "args", "kwargs"), CALLS)
def test_construction_equality_hash_and_repr_match_dataclass(body: Any, args: tuple, kwargs: dict) -> None:
    made, reference = both(body)
    ours, theirs = made(*copy.deepcopy(args), **copy.deepcopy(kwargs)), reference(*args, **kwargs)
    assert fields_of(ours) == fields_of(theirs)
    assert repr(ours) == repr(theirs)
    assert ours == made(*copy.deepcopy(args), **copy.deepcopy(kwargs))
    assert ours != theirs  # another class: not equal, as between two dataclasses
    if all(isinstance(v, (int, str, float, tuple)) for v in fields_of(ours).values()):
        assert hash(ours) == hash(theirs) == hash(made(*args, **kwargs))
    assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
    assert dataclasses.is_dataclass(ours) and [f.name for f in dataclasses.fields(made)] == [
        f.name for f in dataclasses.fields(reference)]


@pytest.mark.parametrize(("body", "args", "kwargs"), BAD_CALLS)
def test_the_calls_dataclass_refuses_are_refused(body: Any, args: tuple, kwargs: dict) -> None:
    made, reference = both(body)
    with pytest.raises(TypeError):
        reference(*args, **kwargs)
    with pytest.raises(TypeError):
        made(*args, **kwargs)


def test_post_init_runs() -> None:
    made, _ = both(posted)
    with pytest.raises(ValueError, match="negative"):
        made(-1)


def test_frozen_and_replace_and_copies() -> None:
    made, _ = both(plain)
    value = made(1, "y")
    with pytest.raises(FrozenInstanceError):
        value.a = 2
    with pytest.raises(FrozenInstanceError):
        del value.b
    changed = dataclasses.replace(value, a=5)
    assert (changed.a, changed.b, value.a) == (5, "y", 1)
    assert copy.deepcopy(value) == value and copy.copy(value) == value


def test_a_field_left_out_of_equality_is_left_out_of_it() -> None:
    made, _ = both(keywords)
    assert made(1) == made(1) and hash(made(1)) == hash(made(1)) and made(1) != made(2)
    plain_made, _ = both(plain)
    assert plain_made(1, d=2.0) == plain_made(1, d=3.0)


def test_a_default_factory_gives_each_instance_its_own_value() -> None:
    made, _ = both(plain)
    first, second = made(1), made(1)
    first.c.append(1)
    assert second.c == []


@record
class Pickled:
    a: int
    b: tuple[str, ...] = ()


def test_a_module_level_record_pickles() -> None:
    value = Pickled(1, ("x",))
    assert pickle.loads(pickle.dumps(value)) == value


def test_a_method_of_the_class_is_kept() -> None:
    @record
    class Shown:
        a: int

        def __repr__(self) -> str:
            return "shown"

    assert repr(Shown(1)) == "shown" and Shown(1) == Shown(1)


def test_a_subclass_takes_the_fields_of_both() -> None:
    @record
    class Base:
        a: int

    @record
    class Child(Base):
        b: int = 2

    assert Child(1) == Child(1, 2) and Child(1) != Base(1) and repr(Child(1)).endswith(".Child(a=1, b=2)")
