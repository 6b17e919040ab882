"""Where the spec lives: the wheel's ``reference_impl/_spec`` or a checkout's ``spec/``.

The wheel ships ``spec/`` as ``reference_impl/_spec`` (a ``package-dir`` mapping in
``pyproject.toml``); a checkout or an editable install uses the repository's ``spec/``
next to the package. ``ARBITER_SPEC_DIR`` overrides both: it names a complete spec
directory (a copy of ``spec/``), and everything read from the spec - rulesets, the
article registry, the schemas, the notation tables - comes from it. This module is the
only one that knows where the spec lives.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from reference_impl.errors import RulesetError

#: Environment variable naming a spec directory to use instead of the built-in one.
SPEC_ENV = "ARBITER_SPEC_DIR"

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # reference_impl/
_CANDIDATES = (_PACKAGE_DIR / "_spec", _PACKAGE_DIR.parent / "spec")


def _is_spec(path: Path) -> bool:
    return (path / "rulesets").is_dir()


@lru_cache(maxsize=None)
def _find(override: str | None) -> Path:
    if override:
        path = Path(override)
        if not _is_spec(path):
            raise RulesetError(f"{SPEC_ENV}={override}: no rulesets/ directory there")
        return path.resolve()
    for path in _CANDIDATES:
        if _is_spec(path):
            return path
    raise RulesetError(
        "spec directory not found (looked for " + ", ".join(str(p) for p in _CANDIDATES) + ")"
    )


def spec_dir() -> Path:
    """The spec directory (with ``rulesets/``, ``articles/``, ``schema/``)."""
    return _find(os.environ.get(SPEC_ENV) or None)
