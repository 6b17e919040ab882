"""Expected-failure files: xfailed, xpassed, and version conditions (PEP 440)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.adapters.base import Adapter, StartInfo
from conformance.harness import xfail
from conformance.harness.runner import Options, run_cases
from conformance.harness.select import Selection, expand


class Constant(Adapter):
    """Answers every perft with 20 nodes; claims a version."""

    def __init__(self, version: str) -> None:
        self.version = version

    def start(self) -> StartInfo:
        return StartInfo("constant", self.version, ["perft"], ["*"])

    def run(self, kind: str, ruleset: str, input: dict) -> dict:
        return {"nodes": 20}


def fixture(ident: str, nodes: int) -> dict:
    return {"id": ident, "kind": "perft", "rulesets": ["fide-2023"],
            "input": {"fen": "x", "depth": 1}, "expect": {"nodes": nodes}}


# 20 is right for the first, wrong for the second (the fake answers 20 to everything).
CORPUS = [fixture("x.right", 20), fixture("x.wrong", 19)]


def statuses(entries: list[xfail.Entry], version: str = "1.11.2") -> dict[str, str]:
    adapter = Constant(version)
    found: list[dict] = []
    run_cases(adapter, adapter.start(), expand(CORPUS, Selection(), ()), Options(xfails=entries), found.append)
    return {r["id"]: r["status"] for r in found}


def test_listed_failure_is_xfailed_and_listed_pass_is_xpassed() -> None:
    entries = xfail.parse({"x.wrong": "known bug", "x.right": "thought broken"})
    assert statuses(entries) == {"x.right": "xpassed", "x.wrong": "xfailed"}


def test_without_entries() -> None:
    assert statuses([]) == {"x.right": "passed", "x.wrong": "failed"}


@pytest.mark.parametrize(
    "versions, version, expected",
    [
        (["<1.12"], "1.11.2", "xfailed"),
        (["<1.12"], "1.12.0", "failed"),
        ([">=1.10,<1.12"], "1.9", "failed"),
        (["==1.9.*", ">=2"], "2.1", "xfailed"),
    ],
)
def test_version_conditions(versions: list[str], version: str, expected: str) -> None:
    entries = xfail.parse({"x.wrong": {"reason": "fixed in 1.12", "versions": versions}})
    assert statuses(entries, version)["x.wrong"] == expected


def test_ruleset_condition() -> None:
    entries = xfail.parse({"x.*": {"reason": "uscf only", "rulesets": ["uscf-7"]}})
    assert statuses(entries) == {"x.right": "passed", "x.wrong": "failed"}


def test_glob_pattern() -> None:
    assert statuses(xfail.parse({"x.w*": "all of them"}))["x.wrong"] == "xfailed"


def test_versions_are_compared_as_pep_440_says() -> None:
    assert xfail.version_matches("1.11.2", "<1.12")
    assert not xfail.version_matches("1.12", "<1.12")
    assert xfail.version_matches("2.0", ">=1.12")
    assert xfail.version_matches("1.12.0rc1", ">=1.11")  # a pre-release is a version too
    assert not xfail.version_matches("1.12.0rc1", "<1.12")  # PEP 440: not below its own release
    assert not xfail.version_matches("unknown", "<1.12")  # an unversioned implementation matches nothing


def test_yaml_and_json_files(tmp_path: Path) -> None:
    yaml_file = tmp_path / "known.yaml"
    yaml_file.write_text("x.wrong:\n  reason: bug 12\n  versions: ['<2']\n")
    json_file = tmp_path / "known.json"
    json_file.write_text('{"x.wrong": "bug 12"}')
    assert xfail.load(yaml_file) == [xfail.Entry("x.wrong", "bug 12", ("<2",), ())]
    assert xfail.load(json_file) == [xfail.Entry("x.wrong", "bug 12")]


@pytest.mark.parametrize(
    "content, words",
    [
        ("- just a list\n", "must be a mapping"),
        ("x.wrong: {versions: ['<2']}\n", "needs a reason"),
        ("x.wrong: {reason: r, versions: ['~banana']}\n", "bad version specifier"),
        ("x.wrong: [unclosed\n", "not valid YAML"),
    ],
)
def test_malformed_files_are_one_clear_error(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content)
    with pytest.raises(xfail.XfailError, match=words) as caught:
        xfail.load(path)
    assert str(path) in str(caught.value)


def test_stale_entries_are_found() -> None:
    entries = xfail.parse({"x.wrong": "bug", "x.renamed.*": "old name", "x.*": "all"})
    assert xfail.stale(entries, ["x.right", "x.wrong"]) == ["x.renamed.*"]
