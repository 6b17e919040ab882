"""A schema check that passed is remembered by what it read (reference_impl.rules.checked):
skipped on the same bytes, run again when any of them changes, never remembered when it
fails, and run every time when the cache is off or cannot be written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reference_impl.errors import RulesetError
from reference_impl.rules import checked, loader
from reference_impl.rules.paths import spec_dir


class Counting:
    """A check that counts its runs and fails while ``fail`` is set."""

    def __init__(self) -> None:
        self.runs = 0
        self.fail = False

    def __call__(self) -> None:
        self.runs += 1
        if self.fail:
            raise RulesetError("wrong")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(checked.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(checked.SWITCH_ENV, raising=False)
    return tmp_path / "cache"


def test_a_pass_is_remembered_and_skipped_on_the_same_bytes(cache: Path, tmp_path: Path) -> None:
    document = tmp_path / "table.yaml"
    document.write_text("a: 1\n")
    check = Counting()
    checked.once("table", [document], check)
    checked.once("table", [document], check)
    assert check.runs == 1
    assert len(list((cache / "checked").iterdir())) == 1


def test_a_changed_document_is_checked_again(cache: Path, tmp_path: Path) -> None:
    document = tmp_path / "table.yaml"
    document.write_text("a: 1\n")
    check = Counting()
    checked.once("table", [document], check)
    document.write_text("a: 2\n")
    checked.once("table", [document], check)
    assert check.runs == 2


def test_a_changed_spec_directory_is_checked_again(cache: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "spec"
    shutil.copytree(spec_dir(), copy)
    monkeypatch.setenv("ARBITER_SPEC_DIR", str(copy))
    check = Counting()
    checked.once("table", [], check)
    checked.once("table", [], check)
    articles = sorted((copy / "articles").glob("*.yaml"))[0]
    articles.write_text(articles.read_text() + "\n# changed\n")
    checked._environment.cache_clear()  # a new process sees the change; this one reads it again
    checked.once("table", [], check)
    assert check.runs == 2


def test_a_failing_check_is_never_remembered(cache: Path, tmp_path: Path) -> None:
    check = Counting()
    check.fail = True
    for _ in range(2):
        with pytest.raises(RulesetError):
            checked.once("table", [], check)
    assert check.runs == 2
    assert not (cache / "checked").exists()


def test_switched_off_every_check_runs(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(checked.SWITCH_ENV, "0")
    check = Counting()
    checked.once("table", [], check)
    checked.once("table", [], check)
    assert check.runs == 2


def test_an_unwritable_cache_folder_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(checked.CACHE_ENV, str(blocker))
    check = Counting()
    checked.once("table", [], check)
    checked.once("table", [], check)
    assert check.runs == 2


def test_a_ruleset_file_made_invalid_after_a_pass_is_refused(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("id: mine\ntitle: Mine\nextends: fide-2023\n")
    assert loader.load_ruleset(path).id == "mine"
    path.write_text("id: mine\ntitle: Mine\nextends: fide-2023\nno_such_key: 1\n")
    loader.clear_cache()
    with pytest.raises(RulesetError, match="no_such_key"):
        loader.load_ruleset(path)
