"""The wheel carries the rules: installed outside the checkout, the same spec loads.

Builds the wheel with pip (setuptools, the project's build backend, with the compiled
searches), unpacks it into an empty directory, and runs Python there from another
working directory with only the unpacked wheel on the path.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # Built from a copy without build artefacts: setuptools builds in the source tree, and
    # a stale build/lib would hide a package missing from pyproject's list.
    source = tmp_path_factory.mktemp("source") / "checkout"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".tox", ".venv", "build", "dist", "*.egg-info", "__pycache__", "*.so", ".pytest_cache"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)],
        cwd=source, check=True, capture_output=True, timeout=600,
    )
    (path,) = out.glob("chess_arbiter-*.whl")
    return path


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_wheel_ships_spec_schema_and_fixtures(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "reference_impl/_spec/rulesets/fide-2023.yaml" in names
    assert "reference_impl/_spec/rulesets/orthodox.yaml" in names
    assert any(n.startswith("reference_impl/_spec/schema/") for n in names)
    assert any(n.startswith("conformance/fixtures/") and n.endswith(".jsonl") for n in names)
    assert not any(n.startswith("spec/") for n in names)
    assert any(n.startswith("reference_impl/unwinnability/_native") for n in names)


def test_installed_wheel_loads_rules_outside_checkout(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = (
        "import reference_impl.rules as r, reference_impl as ri;"
        "print(r.spec_dir());"
        "b = ri.Board(ri.load_ruleset('chess960'));"
        "print(ri.perft(b, 2), r.load_ruleset('uscf').id);"
        "from reference_impl.unwinnability import native;"
        "print(native.perft(b, 2))"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {script}"],
        cwd=elsewhere, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    spec_path, numbers, compiled = result.stdout.strip().splitlines()
    assert spec_path.startswith(str(site)) and spec_path.endswith("_spec")
    assert numbers == "400 uscf-7"
    assert compiled == "400"


def test_wheel_ships_every_package_of_the_checkout(wheel: Path) -> None:
    # A package left out of pyproject's list works in an editable install (tox) and
    # breaks `pip install .`: every directory with an __init__.py must be in the wheel,
    # and every CLI command must import from the wheel alone.
    names = set(zipfile.ZipFile(wheel).namelist())
    for top in ("reference_impl", "conformance"):
        for init in sorted((ROOT / top).rglob("__init__.py")):
            assert str(init.relative_to(ROOT)) in names, init.parent
    site = wheel.parent / "site-cli"
    zipfile.ZipFile(wheel).extractall(site)
    script = "from conformance.cli import main; main(['--help'])"
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {script}"],
        cwd=wheel.parent, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "mutate" in result.stdout and "audit" in result.stdout and "matrix" in result.stdout
