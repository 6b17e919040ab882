"""The compiled unwinnability searches: the one build step pyproject.toml cannot yet
state stably (a C compiler is needed at install)."""

import importlib.util
import sys
from pathlib import Path

from setuptools import Extension, setup

CSRC = Path("reference_impl/unwinnability/csrc")


def write_layout_header() -> None:
    """csrc/layout.h from layout.py (loaded alone: the package's dependencies may be
    absent at build time), written only when it changed."""
    spec = importlib.util.spec_from_file_location("_layout", "reference_impl/unwinnability/layout.py")
    assert spec and spec.loader
    layout = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # its dataclasses look it up
    spec.loader.exec_module(layout)
    path = CSRC / "layout.h"
    if not path.exists() or path.read_text(encoding="utf-8") != layout.header():
        path.write_text(layout.header(), encoding="utf-8")


write_layout_header()
setup(
    ext_modules=[
        Extension(
            "reference_impl.unwinnability._native",
            sources=["reference_impl/unwinnability/_native.c"],
            # included by _native.c (one compilation unit): shipped in the sdist, and a
            # change to one rebuilds the module
            depends=sorted(str(p) for p in [*CSRC.glob("*.c"), *CSRC.glob("*.h")]),
            extra_compile_args=["-O2"],
        )
    ]
)
