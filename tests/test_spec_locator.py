"""One way to find the spec: rulesets, articles and notation tables
all come from :func:`reference_impl.rules.paths.spec_dir`, which honours
``ARBITER_SPEC_DIR``; no other module builds a path to the spec or reads its YAML.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from cli_run import ROOT, arbiter, one_error
from reference_impl.notation import tables
from reference_impl.rules import spec_dir

#: The one module allowed to know where the spec lives.
LOCATOR = Path("reference_impl/rules/paths.py")
#: Fixture generators read tables given on their command line (``--data``), on purpose
#: without ``reference_impl``: their expectations must not come from the reader under test.
INDEPENDENT = ("conformance/tools/generate/",)
#: A path built to the spec: ``"_spec"``, ``/ "spec"``, or a file under ``spec/`` named
#: in code (docstrings and messages mention ``spec/`` in prose and are not matched).
SPEC_PATH = re.compile(r"""["']_spec["']|/\s*["']spec["']|["']spec/(rulesets|notation|articles|schema)""")
YAML_READ = re.compile(r"\byaml\.(safe_)?load\b|\bSafeLoader\b")


def _copy_spec(tmp_path: Path) -> Path:
    copy = tmp_path / "spec"
    shutil.copytree(spec_dir(), copy)
    return copy


def _env(spec: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_SPEC_DIR"}
    if spec is not None:
        env["ARBITER_SPEC_DIR"] = str(spec)
    return env


def test_a_changed_notation_table_in_arbiter_spec_dir_changes_conversion(tmp_path: Path) -> None:
    copy = _copy_spec(tmp_path)
    pieces = copy / "notation" / "pieces.yaml"
    text = pieces.read_text(encoding="utf-8")
    german = "letters: {king: K, queen: D, rook: T, bishop: L, knight: S, pawn: B}"
    assert german in text
    pieces.write_text(text.replace(german, german.replace("knight: S", "knight: J")), encoding="utf-8")

    built_in = arbiter("convert", "--to", "san:de", "Nf3", "Nc6", env=_env(None))
    changed = arbiter("convert", "--to", "san:de", "Nf3", "Nc6", env=_env(copy))
    assert built_in.returncode == 0 and changed.returncode == 0, changed.stderr
    assert built_in.stdout.split() == ["Sf3", "Sc6"]
    assert changed.stdout.split() == ["Jf3", "Jc6"]


def test_rulesets_and_notation_come_from_the_same_override(tmp_path: Path) -> None:
    # A spec copy whose knight leaps like a camel ([1, 3]) and is written "C" in English:
    # perft and SAN both see the copy, so neither reads a spec of its own.
    copy = _copy_spec(tmp_path)
    orthodox = copy / "rulesets" / "orthodox.yaml"
    rules_text = orthodox.read_text(encoding="utf-8")
    assert "leaps: [[1, 2]]" in rules_text
    orthodox.write_text(rules_text.replace("leaps: [[1, 2]]", "leaps: [[1, 3]]"), encoding="utf-8")
    pieces = copy / "notation" / "pieces.yaml"
    english = "letters: {king: K, queen: Q, rook: R, bishop: B, knight: N, pawn: P}"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace(english, english.replace("knight: N", "knight: C")),
                      encoding="utf-8")

    fen = "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1"
    built_in = arbiter("perft", fen, "1", env=_env(None))
    perft = arbiter("perft", fen, "1", env=_env(copy))
    assert perft.returncode == 0, perft.stderr
    # King: 5 moves. Knight on d4: 8 leaps; camel: c7 e7 c1 a5 a3 g5 g3 (e1 holds the king).
    assert built_in.stdout.split()[-1] == "13"
    assert perft.stdout.split()[-1] == "12"
    san = arbiter("convert", "--from", "uci", "--to", "san", "g1h4", env=_env(copy))
    assert san.returncode == 0, san.stderr
    assert san.stdout.split() == ["Ch4"]


def test_an_override_without_notation_tables_is_one_error(tmp_path: Path) -> None:
    copy = _copy_spec(tmp_path)
    shutil.rmtree(copy / "notation")
    result = arbiter("convert", "--to", "san:de", "Nf3", env=_env(copy))
    line = one_error(result, 1)
    assert "notation" in line and str(copy) in line


def test_notation_tables_follow_the_override_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy_spec(tmp_path)
    pieces = copy / "notation" / "pieces.yaml"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace("knight: S,", "knight: J,"), encoding="utf-8")
    assert tables.piece_letters("de")["knight"] == "S"
    monkeypatch.setenv("ARBITER_SPEC_DIR", str(copy))
    assert tables.spec_root() == copy.resolve()
    assert tables.piece_letters("de")["knight"] == "J"
    monkeypatch.delenv("ARBITER_SPEC_DIR")
    assert tables.piece_letters("de")["knight"] == "S"


def _sources() -> list[Path]:
    files = sorted((ROOT / "reference_impl").rglob("*.py")) + sorted((ROOT / "conformance").rglob("*.py"))
    return [f for f in files if not str(f.relative_to(ROOT)).startswith(INDEPENDENT)]


def test_no_module_but_the_locator_builds_a_path_to_the_spec() -> None:
    found = []
    for path in _sources():
        rel = path.relative_to(ROOT)
        if rel == LOCATOR:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SPEC_PATH.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert found == []
    assert SPEC_PATH.search((ROOT / LOCATOR).read_text(encoding="utf-8"))  # the pattern does match it


def test_the_harness_has_no_yaml_reader_of_its_own() -> None:
    readers = []
    for path in _sources():
        rel = str(path.relative_to(ROOT))
        if not rel.startswith("conformance/"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if YAML_READ.search(line):
                readers.append(f"{rel}:{number}: {line.strip()}")
    assert readers == []
