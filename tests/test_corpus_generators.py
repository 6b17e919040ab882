"""The generators: deterministic, independent of the reference, and polite on bad input.

Determinism: the start-position generator is rerun into a temporary folder and
compared byte for byte with the committed file; a short run of the seeded FEN generator
must reproduce its committed lines exactly. Independence: no generator imports the
reference implementation (only its error classes). Bad input: a missing data
folder is one line on stderr and exit status 2, with no traceback.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.tools.generate import fen, start
from conformance.tools.generate.common import dumps, main

pytestmark = pytest.mark.slow  # left out of `tox -e fast`

ROOT = Path(__file__).resolve().parent.parent
GENERATE = ROOT / "conformance" / "tools" / "generate"
DATA = GENERATE / "data"
FIXTURES = ROOT / "conformance" / "fixtures"


def test_start_generator_reproduces_committed_file_byte_for_byte(tmp_path: Path) -> None:
    status = main("start", start.build, ["--data", str(DATA), "--out", str(tmp_path)])
    assert status == 0
    name = "start_position.jsonl"
    assert (tmp_path / name).read_bytes() == (FIXTURES / name).read_bytes()


def test_seeded_fen_generator_reproduces_its_committed_lines() -> None:
    # The first playouts of a seed are the same however many are drawn, so a short
    # run must reproduce the committed lines with the same ids exactly.
    lines = (FIXTURES / "validate_fen.jsonl").read_text(encoding="utf-8").splitlines()
    committed = {json.loads(line)["id"]: line for line in lines}
    fresh = fen.invalid_fixtures() + fen.valid_fixtures(standard=25, chess960=10)
    assert len(fresh) > 80
    for record in fresh:
        assert dumps(record) == committed[record["id"]]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(GENERATE.glob("*.py")), ids=lambda p: p.name)
def test_generators_do_not_import_the_reference(path: Path) -> None:
    reference = {n for n in _imports(path) if n.split(".")[0] == "reference_impl"}
    assert reference <= {"reference_impl.errors"}


def test_source_data_is_in_the_project_with_provenance() -> None:
    for name in ("tricky.perft", "special.perft", "chess960.perft", "random.perft",
                 "labelled.txt"):
        head = (DATA / name).read_text(encoding="utf-8")[:400]
        assert head.lstrip().startswith("#"), name
    assert (DATA / "perftsuite.epd").is_file()
    assert "perftsuite.epd" in (DATA / "README.md").read_text(encoding="utf-8")


def test_missing_data_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "conformance.tools.generate.start", "--data",
         str(tmp_path / "nowhere"), "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert "--data" in run.stderr


def test_missing_data_file_is_one_line_and_exit_1(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "conformance.tools.generate.unwinnable", "--data", str(tmp_path),
         "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 1
    assert "labelled.txt" in run.stderr and "Traceback" not in run.stderr
