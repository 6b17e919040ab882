"""Python's cycle collector paused while objects without cycles are made by the thousand."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off for the block (on again after, if it was): reading the
    corpus or a command's tables (rulesets, laws, notation), or making unwinnability
    answers by the thousand, makes many objects and no cycle, and each full collection
    on the way walks all those made so far (half the time of reading the shipped
    corpus; more than the answers themselves cost)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
