"""Schema checks that passed, remembered across processes by everything they read.

Checking the shipped tables against their JSON Schemas costs a short command more than
its work (importing ``jsonschema`` alone takes about 0.1 s of CPU). :func:`once` runs a
check unless one that read the same bytes passed before: the check is keyed by a digest
of its name, the files it names, every file of the spec directory (rulesets, articles,
schemas, tables: what a ruleset's validation consults), the source of the code that
checks (``reference_impl/rules/*.py`` and the caller's module) and the installed
``jsonschema``. A change to any of them is a new digest, and the check runs again. Only
passes are recorded: a failing check raises every time.

The record is one small file per check name under ``checked/`` in the cache folder
(``$ARBITER_CACHE``, else ``$XDG_CACHE_HOME/arbiter``, else ``~/.cache/arbiter``);
``ARBITER_CHECK_CACHE=0`` turns it off. A cache folder that cannot be read or written
is passed over: the check runs.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, Iterable

from .. import remembered
from .paths import spec_dir

#: Environment variables: the cache folder (shared with the adapters' installs and the
#: start-up's remembered results), and the switch (``0``: always check).
CACHE_ENV, SWITCH_ENV = remembered.CACHE_ENV, remembered.SWITCH_ENV
#: The code of the rules package (the validators and the readers they use).
_RULES_CODE = Path(__file__).resolve().parent


def cache_folder() -> Path:
    """``checked/`` of the cache folder (:func:`~reference_impl.remembered.cache_root`)."""
    return remembered.cache_root() / "checked"


def _add(digest: "hashlib._Hash", path: Path) -> None:
    digest.update(str(path).encode("utf-8", "surrogateescape") + b"\0")
    try:
        digest.update(path.read_bytes())
    except OSError as error:  # a missing file is part of what was read
        digest.update(f"unreadable: {error.errno}".encode())
    digest.update(b"\0")


@lru_cache(maxsize=8)
def _environment(spec: Path) -> bytes:
    """The digest of what every check shares: the spec directory's files, the rules
    package's code and the installed jsonschema (its location and its validators'
    size and time: an upgrade rewrites them)."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(p for p in spec.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        _add(digest, path)
    for path in sorted(_RULES_CODE.glob("*.py")):
        _add(digest, path)
    found = find_spec("jsonschema")
    origin = Path(found.origin) if found is not None and found.origin else None
    if origin is not None:
        stat = (origin.parent / "validators.py").stat()
        digest.update(f"{origin}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.digest()


def _key(name: str, files: Iterable[Path]) -> str:
    digest = hashlib.sha256(_environment(spec_dir()))
    digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
    for path in files:
        _add(digest, Path(path).resolve())
    return digest.hexdigest()


def _record(name: str) -> Path:
    return cache_folder() / hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def once(name: str, files: Iterable[Path], check: Callable[[], object]) -> None:
    """Run ``check`` (which raises when what it checks is wrong) unless a check of the same
    ``name`` passed over the same bytes: those of ``files`` (the documents checked, the
    caller's code and schemas outside the spec directory) and of the shared environment."""
    if os.environ.get(SWITCH_ENV, "1") == "0":
        check()
        return
    key = _key(name, files)
    record = _record(name)
    try:
        if record.read_text(encoding="ascii") == key:
            return
    except (OSError, ValueError):
        pass
    check()
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        partial = record.with_name(f"{record.name}.{os.getpid()}")
        partial.write_text(key, encoding="ascii")
        os.replace(partial, record)
    except OSError:
        pass
