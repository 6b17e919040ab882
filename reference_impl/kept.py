"""Bounded caches: answers kept by key, the least recently used dropped first.

:class:`KeptAnswers` keeps answers by a key that says what they depend on (a move
layer's digest, a position's identity). :class:`KeptFor` keeps one value derived from
an object (a compiled table packed for C, a syntax built from a move layer) by that
object's identity, holding the object so that its identity cannot be reused; both drop
the oldest entries beyond their size, so that a long run over many rulesets (``arbiter
mutate``) does not grow them without end.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Answer = TypeVar("Answer")
Owner = TypeVar("Owner")
Value = TypeVar("Value")


class KeptAnswers(Generic[Answer]):
    """Answers kept by key, the least recently used dropped beyond ``size`` (the
    analyses' and the forced-win searches' caches)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, Answer] = OrderedDict()

    def get(self, key: Hashable) -> Answer | None:
        hit = self._entries.get(key)
        if hit is not None:
            self._entries.move_to_end(key)
        return hit

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def put(self, key: Hashable, answer: Answer) -> None:
        self._entries[key] = answer
        self._entries.move_to_end(key)
        self._trim()

    def resize(self, size: int) -> None:
        self.size = max(1, size)
        self._trim()

    def clear(self) -> None:
        self._entries.clear()

    def _trim(self) -> None:
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


class KeptFor(Generic[Owner, Value]):
    """One value per object, computed by ``make`` on first use, for the ``size`` objects
    used last (the object is held with its value, so its ``id`` stays its own)."""

    def __init__(self, size: int, make: Callable[[Owner], Value]) -> None:
        self._kept: KeptAnswers[tuple[Owner, Value]] = KeptAnswers(size)
        self._make = make

    def __call__(self, owner: Owner) -> Value:
        hit = self._kept.get(id(owner))
        if hit is not None and hit[0] is owner:
            return hit[1]
        value = self._make(owner)
        self._kept.put(id(owner), (owner, value))
        return value

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()
