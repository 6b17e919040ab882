"""The compiled unwinnability searches: the one build step pyproject.toml cannot yet
state stably (a C compiler is needed at install)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "reference_impl.unwinnability._native",
            sources=["reference_impl/unwinnability/_native.c"],
            extra_compile_args=["-O2"],
        )
    ]
)
