"""Run each implementation of the matrix over one fixture selection (the shell side).

An implementation that cannot start (runtime or package missing, refused, crashed at
start) becomes a skipped row with the one-line reason; the others still run.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable

from conformance.adapters.base import AdapterStartError
from conformance.implementations.catalog import LIBRARIES
from conformance.harness.select import Selection
from conformance.harness.session import Config, execute, plan
from .model import Row, row, skipped_row

#: The implementations ``arbiter matrix`` runs by default, in order: python-chess and
#: every shipped implementation (libraries, engines, PGN tools, a GUI's rules core).
DEFAULT_ADAPTERS: tuple[str, ...] = ("python-chess", *LIBRARIES)


def default_adapters() -> list[str]:
    """python-chess and every shipped implementation (those not installed become rows not run)."""
    return list(DEFAULT_ADAPTERS)


def software(spec: str) -> str:
    """The kind of software behind a spec: library, engine, pgn-tool, gui ("" if unknown)."""
    if spec in LIBRARIES:
        return LIBRARIES[spec].software
    if spec == "python-chess":
        return "library"
    if spec.startswith(("uci:", "xboard:")):
        return "engine"
    return ""


def run_one(spec: str, selection: Selection, fixtures: list[str], jobs: int,
            timeout: float | None) -> Row:
    """One implementation's row; a start failure is a skipped row with its reason."""
    config = Config(spec, list(fixtures), copy.deepcopy(selection), [], timeout, jobs=jobs, argv=["matrix", spec])
    began = time.monotonic()
    try:
        the_plan = plan(config)
        records = execute(config, the_plan, lambda record: None)
    except AdapterStartError as error:
        out = skipped_row(spec, str(error))
    else:
        out = row(spec, records, time.monotonic() - began)
    out.software = software(spec)
    return out


def run_all(specs: list[str], selection: Selection, fixtures: list[str], jobs: int,
            timeout: float | None, done: Callable[[Row], None] | None = None) -> list[Row]:
    """Every implementation's row, in order; ``done`` is told of each as it finishes."""
    rows = []
    for spec in specs:
        result = run_one(spec, selection, fixtures, jobs, timeout)
        rows.append(result)
        if done is not None:
            done(result)
    return rows
