"""The compiled unwinnability searches: the one build step pyproject.toml cannot yet
state stably (a C compiler is needed at install)."""

from pathlib import Path

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "reference_impl.unwinnability._native",
            sources=["reference_impl/unwinnability/_native.c"],
            # included by _native.c (one compilation unit): shipped in the sdist, and a
            # change to one rebuilds the module
            depends=sorted(str(p) for p in Path("reference_impl/unwinnability/csrc").glob("*.c")),
            extra_compile_args=["-O2"],
        )
    ]
)
