"""Build steps that pyproject.toml cannot state: the compiled helpmate search, and the
spec/ tables shipped inside the wheel as ``reference_impl/_spec``."""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

SPEC_SUFFIXES = {".yaml", ".json", ".txt", ".md"}


class BuildPyWithSpec(build_py):
    """Copy spec/ into the built package, where reference_impl.rules.paths looks for it."""

    def run(self) -> None:
        super().run()
        source = Path(__file__).resolve().parent / "spec"
        target = Path(self.build_lib) / "reference_impl" / "_spec"
        for path in source.rglob("*"):
            if path.is_file() and path.suffix in SPEC_SUFFIXES:
                destination = target / path.relative_to(source)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, destination)


setup(
    ext_modules=[
        Extension(
            "reference_impl.unwinnability._native",
            sources=["reference_impl/unwinnability/_native.c"],
            extra_compile_args=["-O2"],
        )
    ],
    cmdclass={"build_py": BuildPyWithSpec},
)
