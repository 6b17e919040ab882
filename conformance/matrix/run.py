"""Run each implementation of the matrix over one fixture selection (the shell side).

An implementation that cannot start (runtime or library missing, refused, crashed at
start) becomes a skipped row with the one-line reason; the others still run.
"""

from __future__ import annotations

import copy
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from ..adapters.base import AdapterStartError
from ..adapters.implementations.catalog import LIBRARIES
from ..harness.select import Selection
from ..harness.session import Config, execute, plan
from .model import Row, row, skipped_row

#: The implementations ``arbiter matrix`` runs by default, in order (Stockfish is added
#: when a ``stockfish`` binary is found, see :func:`default_adapters`).
DEFAULT_ADAPTERS: tuple[str, ...] = ("python-chess", *LIBRARIES)
#: Where a UCI engine named stockfish is looked for besides PATH (Debian installs it here).
STOCKFISH_PLACES: tuple[str, ...] = ("/usr/games/stockfish",)


def default_adapters() -> list[str]:
    """python-chess, the shipped library adapters, and ``uci:stockfish`` (skipped if absent)."""
    found = shutil.which("stockfish") or next((p for p in STOCKFISH_PLACES if Path(p).is_file()), None)
    return [*DEFAULT_ADAPTERS, f"uci:{found}" if found else "uci:stockfish"]


def run_one(spec: str, selection: Selection, fixtures: list[str], jobs: int,
            timeout: float | None) -> Row:
    """One implementation's row; a start failure is a skipped row with its reason."""
    config = Config(spec, list(fixtures), copy.deepcopy(selection), [], timeout, jobs=jobs, argv=["matrix", spec])
    began = time.monotonic()
    try:
        the_plan = plan(config)
        records = execute(config, the_plan, lambda record: None)
    except AdapterStartError as error:
        return skipped_row(spec, str(error))
    return row(spec, records, time.monotonic() - began)


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
