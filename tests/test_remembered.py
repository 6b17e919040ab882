"""What the start-up computes is remembered on disk (reference_impl.remembered): a YAML
file by its bytes (reference_impl.rules.yamlio), read again without parsing, with the
same data and lines; parsed again when the file changes or a record does not match its
digest; never recorded when the cache is off or the data is more than marshal writes;
the notation tables' plain reading alike; the rider tables by their directions."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import yaml

from reference_impl.core.tables import RiderGroup
from reference_impl.errors import RulesetError
from reference_impl.rules import checked, yamlio
from reference_impl.rules.paths import spec_dir

DOCUMENT = "id: t\nlist:\n  - a\n  - {b: 1, c: [2, 3]}\nnested:\n  key: value\n  shared: &s {x: 1}\n  again: *s\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(checked.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(checked.SWITCH_ENV, raising=False)
    return tmp_path / "cache" / "yaml"


def _forget() -> None:
    """This process's memory of the files read (the disk's is the subject)."""
    yamlio._PARSED.clear()
    yamlio._PLAIN.clear()


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The documents parsed from now on (by name)."""
    seen: list[str] = []
    parse = yamlio.parse_yaml

    def counted(text: str, name: str) -> tuple[Any, yamlio.LineMap]:
        seen.append(name)
        return parse(text, name)

    monkeypatch.setattr(yamlio, "parse_yaml", counted)
    return seen


def test_a_file_read_again_comes_from_the_record_with_the_same_data_and_lines(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text(DOCUMENT)
    parses = _parses(monkeypatch)
    data, lines = yamlio.read_yaml(path)
    _forget()
    again, lines_again = yamlio.read_yaml(path)
    assert parses == [str(path)]  # the second reading parsed nothing
    assert again == data == yaml.safe_load(DOCUMENT)
    assert lines_again == lines
    for key_path, line in [((), 1), (("list",), 2), (("list", 1, "c"), 4), (("nested", "again"), 8),
                           (("nested", "missing", "deeper"), 5)]:
        assert lines_again.line(key_path) == line
    assert len(list(cache.iterdir())) == 1


def test_a_changed_file_is_parsed_again(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text(DOCUMENT)
    parses = _parses(monkeypatch)
    yamlio.read_yaml(path)
    _forget()
    path.write_text(DOCUMENT.replace("value", "other"))
    assert yamlio.read_yaml(path)[0]["nested"]["key"] == "other"
    assert len(parses) == 2


def test_a_record_that_does_not_match_its_digest_is_passed_over(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text(DOCUMENT)
    expected = yamlio.read_yaml(path)
    (record,) = cache.iterdir()
    record.write_bytes(record.read_bytes().replace(b"value", b"VALUE"))  # the payload changed, not its digest
    _forget()
    parses = _parses(monkeypatch)
    assert yamlio.read_yaml(path) == expected
    assert parses == [str(path)]
    record.write_bytes(b"not a record")
    _forget()
    assert yamlio.read_yaml(path) == expected


def test_nothing_is_recorded_when_the_cache_is_off(cache: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(checked.SWITCH_ENV, "0")
    path = tmp_path / "doc.yaml"
    path.write_text(DOCUMENT)
    parses = _parses(monkeypatch)
    yamlio.read_yaml(path)
    _forget()
    yamlio.read_yaml(path)
    assert len(parses) == 2 and not cache.exists()


def test_data_marshal_cannot_write_is_read_and_not_recorded(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "dated.yaml"
    path.write_text("from: 2023-01-01\n")
    assert yamlio.read_yaml(path)[0] == {"from": dt.date(2023, 1, 1)}
    assert not cache.exists() or not list(cache.iterdir())


def test_errors_are_not_recorded(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("a: [1, 2\n")
    for _ in range(2):
        _forget()
        with pytest.raises(yamlio.YamlError, match="invalid YAML"):
            yamlio.read_yaml(path)
    assert not cache.exists() or not list(cache.iterdir())
    with pytest.raises(RulesetError, match="cannot read"):
        yamlio.read_yaml(tmp_path / "missing.yaml")


def test_the_plain_reading_of_every_notation_table_is_yaml_load_and_is_remembered(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = sorted((spec_dir() / "notation").glob("*.yaml"))
    assert len(tables) >= 9
    for path in tables:
        assert yamlio.read_plain(path) == yaml.load(path.read_text(encoding="utf-8"), Loader=yamlio.safe_loader())
    _forget()

    def no_parser(text: str) -> Any:
        raise AssertionError("parsed again")

    monkeypatch.setattr(yamlio, "_plain", no_parser)
    assert [yamlio.read_plain(p) for p in tables] == [yaml.safe_load(p.read_text(encoding="utf-8")) for p in tables]


def test_a_plain_reading_of_no_yaml_names_the_parser_problem(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("a: [1, 2\n")
    with pytest.raises(yamlio.PlainYamlError, match="expected ',' or ']'"):
        yamlio.read_plain(path)


@pytest.mark.parametrize("directions", [frozenset({(1, 0), (-1, 0)}), frozenset({(1, 1), (-1, -1), (1, -1), (-1, 1)}),
                                        frozenset({(1, 2), (2, 4)})])
def test_a_rider_group_from_its_record_is_the_one_computed(cache: Path, directions: frozenset[tuple[int, int]],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    computed = RiderGroup._tables(directions)
    first = RiderGroup.build(directions)

    def not_again(directions: frozenset[tuple[int, int]]) -> Any:
        raise AssertionError("computed again")

    monkeypatch.setattr(RiderGroup, "_tables", staticmethod(not_again))
    again = RiderGroup.build(directions)
    assert (first.masks, first.table) == (again.masks, again.table) == computed
    assert again.directions == directions
    assert len(list((cache.parent / "rider-groups").iterdir())) == 1
