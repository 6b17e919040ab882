"""A ruleset file works wherever a ruleset id does (docs/rulesets.md): ``serve -r``,
``run --rules``, ``perft``, ``fen check``, ``unwinnable``, ``adjudicate``.

The file used changes one rule, promotion to a queen only, so every answer shows
whether the file's table was read: a pawn on a7 has 9 moves with its king under
fide-2023 (4 promotions, 5 king moves) and 6 under the file; three white bishops are a
legal position under fide-2023 (two promoted) and impossible under the file.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_run import arbiter, one_error

from conformance.harness import rulesets
from conformance.harness.select import Case, Selection, expand, narrow_star

PROMOTION = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
BISHOPS = "4k3/8/8/8/8/8/8/BBBK4 w - - 0 1"
QUEEN_ONLY = """\
id: {id}
title: Promotion to a queen only
extends: {extends}
pawn:
  promotion:
    to: [queen]
"""


def _file(tmp_path: Path, ident: str = "queen-only", extends: str = "fide-2023", name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(QUEEN_ONLY.format(id=ident, extends=extends))
    return path


def _fixture(ident: str, rulesets_: list[str], nodes: int, fen: str = PROMOTION, **extra: Any) -> dict[str, Any]:
    return {"id": ident, "kind": "perft", "rulesets": rulesets_, "input": {"fen": fen, "depth": 1},
            "expect": {"nodes": nodes}, "cites": ["fide-2023:3.7.3.3"], **extra}


#: perft fixtures: under fide-2023 (by name, by "*", with a by-ruleset expectation for
#: fide-2023-rapid), and under Chess960 only.
CORPUS = [
    _fixture("files.named", ["fide-2023"], 9),
    _fixture("files.star", ["*"], 9),
    _fixture("files.quiet", ["fide-2023"], 5, fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    _fixture("files.by-ruleset", ["fide-2023", "fide-2023-rapid"], 9, expect_by_ruleset={"fide-2023-rapid": {"nodes": 6}}),
    _fixture("files.chess960", ["fide-2023-chess960"], 9),
]


def _corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps(f) + "\n" for f in CORPUS))
    return path


def _results(report: Path) -> dict[tuple[str, str], dict[str, Any]]:
    found = [json.loads(line) for line in report.read_text().splitlines()]
    return {(r["id"], r["ruleset"]): r for r in found if r["type"] == "result"}


def _header(report: Path) -> dict[str, Any]:
    return json.loads(report.read_text().splitlines()[0])


# -- serve ------------------------------------------------------------------------------

def test_serve_answers_under_the_file_id_with_the_file_table(tmp_path: Path) -> None:
    path = _file(tmp_path)
    requests = [{"cmd": "start", "protocol": 1},
                {"cmd": "run", "id": "1", "kind": "perft", "ruleset": "queen-only",
                 "input": {"fen": PROMOTION, "depth": 1}},
                {"cmd": "run", "id": "2", "kind": "validate_fen", "ruleset": "queen-only", "input": {"fen": BISHOPS}},
                {"cmd": "run", "id": "3", "kind": "perft", "ruleset": "fide-2023",
                 "input": {"fen": PROMOTION, "depth": 1}},
                {"cmd": "stop"}]
    result = arbiter("serve", "-r", str(path), stdin="".join(json.dumps(r) + "\n" for r in requests))
    assert result.returncode == 0, result.stderr
    start, perft, valid, other, _ = [json.loads(line) for line in result.stdout.splitlines()]
    assert start["rulesets"] == ["queen-only"]
    assert perft == {"id": "1", "result": {"nodes": 6}}
    assert valid["result"]["valid"] is False
    assert "skipped" in other  # only the declared ruleset is played


def test_serve_with_a_relative_path_and_the_run_through_it(tmp_path: Path) -> None:
    _file(tmp_path)
    spec = "cmd:" + shlex.join([sys.executable, "-m", "conformance.cli", "serve", "-r", "mine.yaml"])
    report = tmp_path / "r.jsonl"
    result = arbiter("run", "-a", spec, "--rules", "mine.yaml", "-f", str(_corpus(tmp_path)),
                     "-o", str(report), "--no-progress", "-q", cwd=tmp_path)
    assert result.returncode == 1, result.stderr  # files.named fails: the file allows no rook
    found = _results(report)
    assert found[("files.named", "queen-only")]["status"] == "failed"
    assert found[("files.quiet", "queen-only")]["status"] == "passed"
    assert found[("files.by-ruleset", "queen-only")]["status"] == "failed"  # fide-2023's 9, not rapid's 6


# -- run --------------------------------------------------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_run_borrows_the_fixtures_of_the_nearest_builtin_ancestor(tmp_path: Path, jobs: str) -> None:
    path = _file(tmp_path)
    report = tmp_path / "r.jsonl"
    result = arbiter("run", "--rules", str(path), "-f", str(_corpus(tmp_path)), "-o", str(report),
                     "--no-progress", "-q", "-j", jobs)
    assert result.returncode == 1, result.stderr
    found = _results(report)
    assert set(found) == {("files.named", "queen-only"), ("files.star", "queen-only"),
                          ("files.quiet", "queen-only"), ("files.by-ruleset", "queen-only")}
    assert found[("files.named", "queen-only")]["message"] == "nodes: expected 9, got 6"
    assert found[("files.star", "queen-only")]["status"] == "failed"
    assert found[("files.quiet", "queen-only")]["status"] == "passed"
    header = _header(report)
    assert header["selection"]["ruleset"] == ["queen-only"]
    assert header["selection"]["ruleset_files"] == {"queen-only": str(path)}


def test_a_file_extending_a_variant_ruleset_borrows_only_its_fixtures(tmp_path: Path) -> None:
    path = _file(tmp_path, ident="queen-only-960", extends="fide-2023-chess960")
    report = tmp_path / "r.jsonl"
    result = arbiter("run", "--rules", str(path), "-f", str(_corpus(tmp_path)), "-o", str(report),
                     "--no-progress", "-q")
    assert result.returncode == 1, result.stderr
    assert set(_results(report)) == {("files.chess960", "queen-only-960")}  # "*" is orthodox only


def test_a_file_with_a_builtin_id_runs_that_ruleset_fixtures_with_its_own_table(tmp_path: Path) -> None:
    path = _file(tmp_path, ident="fide-2023-rapid", extends="fide-2023", name="rapid.yaml")
    report = tmp_path / "r.jsonl"
    result = arbiter("run", "--rules", str(path), "-f", str(_corpus(tmp_path)), "-o", str(report),
                     "--no-progress", "-q")
    assert result.returncode == 1, result.stderr
    found = _results(report)
    assert set(found) == {("files.by-ruleset", "fide-2023-rapid"), ("files.star", "fide-2023-rapid")}
    assert found[("files.by-ruleset", "fide-2023-rapid")]["status"] == "passed"  # rapid's own 6: the file's table
    assert found[("files.star", "fide-2023-rapid")]["message"] == "nodes: expected 9, got 6"


def test_run_with_a_file_and_its_parent_runs_both(tmp_path: Path) -> None:
    path = _file(tmp_path)
    report = tmp_path / "r.jsonl"
    arbiter("run", "--rules", str(path), "--rules", "fide", "-f", str(_corpus(tmp_path)), "-o", str(report),
            "--no-progress", "-q")
    found = _results(report)
    assert found[("files.named", "fide-2023")]["status"] == "passed"
    assert found[("files.named", "queen-only")]["status"] == "failed"


# -- the other commands -------------------------------------------------------------------

@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_perft_and_fen_check_read_the_file(tmp_path: Path) -> None:
    path = str(_file(tmp_path))
    perft = arbiter("perft", PROMOTION, "1", "--rules", path)
    assert perft.returncode == 0 and "Nodes searched: 6" in perft.stdout
    assert arbiter("fen", "check", BISHOPS).returncode == 0
    assert arbiter("fen", "check", BISHOPS, "--rules", path).returncode == 1


def test_unwinnable_reads_the_file(tmp_path: Path) -> None:
    unwinnable = arbiter("unwinnable", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--rules", str(_file(tmp_path)))
    assert unwinnable.returncode == 0, unwinnable.stderr[-500:]
    assert "(queen-only," in unwinnable.stdout


def test_adjudicate_reads_the_file(tmp_path: Path) -> None:
    path = str(_file(tmp_path))
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[Event "x"]\n[SetUp "1"]\n[FEN "k7/2P5/1K6/8/8/8/8/8 w - - 0 1"]\n[Result "*"]\n\n1. c8=R+ *\n')
    # c8=R is no move under the file (an illegal-move finding there), but it is under fide-2023
    assert "1 adjudicated, 0 disagree" in arbiter("adjudicate", str(pgn)).stdout
    mine = arbiter("adjudicate", str(pgn), "--rules", path, "--json").stdout
    assert [f["rule"] for f in json.loads(mine)["findings"]] == ["illegal_move"]


@pytest.mark.parametrize("command", [
    ["run", "-o", "-", "--rules"],
    ["serve", "-r"],
    ["perft", "startpos", "1", "--rules"],
    ["fen", "check", "startpos", "--rules"],
    ["unwinnable", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--rules"],
])
@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_a_missing_or_broken_file_is_one_line_exit_1(tmp_path: Path, command: list[str]) -> None:
    missing = one_error(arbiter(*command, str(tmp_path / "nonesuch.yaml"), stdin=""))
    assert "nonesuch.yaml: no such ruleset file" in missing
    broken = tmp_path / "broken.yaml"
    broken.write_text("id: [\n")
    assert f"{broken}:2: invalid YAML" in one_error(arbiter(*command, str(broken), stdin=""))


# -- the selection, pure --------------------------------------------------------------------

def test_target_of_a_file_an_id_and_an_unknown_id(tmp_path: Path) -> None:
    path = str(_file(tmp_path, extends="fide-2023-rapid"))
    assert rulesets.target(path) == rulesets.Target("queen-only", path, "fide-2023-rapid", False)
    assert rulesets.target("fide") == rulesets.Target("fide-2023", "fide-2023")
    assert rulesets.target("nonesuch") == rulesets.Target("nonesuch", "nonesuch")
    assert not rulesets.target("fide").is_file and rulesets.target(path).is_file


def test_expand_and_narrow_keep_borrowed_cases(tmp_path: Path) -> None:
    selection = Selection(ruleset=["queen-only"])
    cases = expand(CORPUS, selection, rulesets.orthodox_rulesets(), {"queen-only": "fide-2023"})
    by_id = {c.id: c for c in cases}
    assert set(by_id) == {"files.named", "files.star", "files.quiet", "files.by-ruleset"}
    assert by_id["files.named"] == Case(CORPUS[0], "queen-only", {"nodes": 9}, "fide-2023")
    # an adapter that does not play the file: the fixture's named ruleset makes it unsupported, not dropped
    kept = narrow_star(cases, ["fide-2023"], ["queen-only"])
    assert {c.id for c in kept} == {"files.named", "files.quiet", "files.by-ruleset"}
