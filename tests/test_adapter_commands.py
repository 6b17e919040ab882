"""The commands an adapter author meets first: `arbiter paths`, `run -o`, `--validate-protocol`,
`arbiter matrix` on a machine where the shipped implementations are not installed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli import main
from conformance.harness.fixtures import DEFAULT_DIR
from conformance.harness.protocol import SCHEMA_DIR

ONE = ["--id", "perft.suite.l001.d1"]


def test_paths_prints_the_installed_corpus_and_schema_folders() -> None:
    result = CliRunner().invoke(main, ["paths"])
    assert result.exit_code == 0, result.output
    assert f"corpus            {DEFAULT_DIR}" in result.output
    assert f"protocol schemas  {SCHEMA_DIR}" in result.output
    assert Path(SCHEMA_DIR, "run-answer.json").is_file()


def test_a_report_onto_a_directory_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    result = CliRunner().invoke(main, ["run", *ONE, "-o", str(folder)])
    assert result.exit_code == 2
    assert "is a directory" in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"] and not list(folder.iterdir())
    missing = CliRunner().invoke(main, ["run", *ONE, "-o", str(tmp_path / "no" / "r.jsonl")])
    assert missing.exit_code == 2 and "does not exist" in missing.output and not (tmp_path / "no").exists()


def test_validate_protocol_says_what_it_checked(tmp_path: Path) -> None:
    serve = f"cmd:{sys.executable} -m conformance.cli serve"
    args = ["run", "-a", serve, "--validate-protocol", *ONE, "-o", str(tmp_path / "r.jsonl")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    checked = r"the start answer and [1-9]\d* run answers checked against .*: none violated them"
    assert re.search(checked, result.output)
    reference = CliRunner().invoke(main, ["run", "--validate-protocol", *ONE, "-o", str(tmp_path / "s.jsonl")])
    assert "reference is not a protocol v1 program" in reference.output and "no message was checked" in reference.output


def test_matrix_says_what_is_not_installed_and_how(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_CACHE", str(tmp_path / "empty-cache"))
    out = tmp_path / "m"
    result = CliRunner().invoke(main, ["matrix", "-a", "python-chess", "-a", "kokopu", *ONE, "-o", str(out)])
    assert result.exit_code == 0, result.output
    notice = next(line for line in result.output.splitlines() if line.startswith("not installed:"))
    assert "kokopu" in notice and "arbiter matrix --install" in notice and "python-chess" not in notice
    assert "## Not run" in (out / "compliance.md").read_text()


def test_matrix_install_installs_what_is_missing_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.cli.commands import adapters as command

    installed: list[list[str]] = []
    monkeypatch.setenv("ARBITER_CACHE", str(tmp_path / "empty-cache"))
    def fake_install(libs: list, echo: bool = True) -> list[str]:
        installed.append([lib.name for lib in libs])
        return []

    monkeypatch.setattr(command, "install_all", fake_install)
    monkeypatch.setattr("conformance.cli.commands.matrix.install_all", command.install_all)
    result = CliRunner().invoke(main, ["matrix", "--install", "-a", "python-chess", "-a", "kokopu", "-a", "chessops",
                                       *ONE, "-o", str(tmp_path / "m")])
    assert result.exit_code == 0, result.output
    assert installed == [["kokopu", "chessops"]] and "not installed:" not in result.output
