"""Misbehaving adapters, hostile protocol lines and typos in fixtures, through the real CLI.

Each test drives ``arbiter`` as a subprocess and asserts the exit status, one clear error
line (or one answer line per request for ``serve``), no traceback, and that every result
already judged is kept. The subprocess timeout only guards the suite against a hang; no
assertion depends on time (the one cut-off tested is of an adapter that waits forever).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from cli_run import ROOT, arbiter, one_error

from conformance.adapters.base import MAX_PERFT_DEPTH
from conformance.harness import compare as compare_module
from conformance.harness.session import MODULE_TIMEOUT, Config, plan

LONE = "8/8/8/8/8/8/8/K6k w - - 0 1"
HUGE = "9" * 5000
#: Answer lines that break the bounded JSON reader: (name, raw text, words of the reason).
GARBAGE = [
    ("nested", "[" * 100_000 + "]" * 100_000, "nested deeper than 64"),
    ("surrogate", '{"id": "{id}", "result": {"nodes": "\\ud800"}}', "lone surrogate"),
    ("huge-number", '{"id": "{id}", "result": {"nodes": ' + HUGE + "}}", "5,000 digits"),
]

#: The same, as answers to ``start``.
START_GARBAGE = [
    ("nested", "[" * 100_000 + "]" * 100_000, "nested deeper than 64"),
    ("surrogate", '{"ok": true, "protocol": 1, "implementation": {"name": "\\ud800"}}', "lone surrogate"),
    ("huge-number", '{"ok": true, "protocol": ' + HUGE + "}", "5,000 digits"),
]

#: A protocol v1 program: ``--start FILE`` answers start with the line in FILE; a run whose input has
#: ``raw`` is answered with that line (``{id}`` replaced), others with ``input.answer``.
HOSTILE = textwrap.dedent('''
    import json, sys
    start = open(sys.argv[sys.argv.index("--start") + 1]).read() if "--start" in sys.argv else None
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            out = start or json.dumps({"ok": True, "protocol": 1, "implementation": {"name": "hostile"},
                                       "capabilities": ["perft", "legal_moves"], "rulesets": ["*"]})
        elif message["cmd"] == "stop":
            break
        elif "raw" in message["input"]:
            out = message["input"]["raw"].replace("{id}", message["id"])
        else:
            out = json.dumps({"id": message["id"], "result": {"nodes": message["input"]["answer"]}})
        sys.stdout.write(out + "\\n")
        sys.stdout.flush()
''')


def fixture(ident: str, data: dict[str, Any], nodes: Any, kind: str = "perft", **extra: Any) -> str:
    line = {"id": ident, "kind": kind, "rulesets": ["fide-2023"], "input": data, "expect": {"nodes": nodes}}
    line.update(extra)
    return json.dumps(line)


def hostile(tmp_path: Path, *options: str) -> str:
    script = tmp_path / "hostile.py"
    script.write_text(HOSTILE)
    return "cmd:" + shlex.join([sys.executable, str(script), *options])


def results(report: Path) -> dict[str, dict[str, Any]]:
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "footer"
    return {r["id"]: r for r in lines if r["type"] == "result"}


# -- 1. adapter answers, serve messages and report files through the bounded reader -------

@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("name, raw, reason", GARBAGE, ids=[g[0] for g in GARBAGE])
def test_garbage_answer_errors_its_fixture_and_keeps_the_others(tmp_path: Path, name: str, raw: str,
                                                                reason: str) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join([fixture("f.1", {"fen": LONE, "depth": 1, "answer": 3}, 3),
                                 fixture("f.2", {"fen": LONE, "depth": 1, "raw": raw}, 3),
                                 fixture("f.3", {"fen": LONE, "depth": 1, "answer": 3}, 3)]) + "\n")
    report = tmp_path / "r.jsonl"
    run = arbiter("run", "-a", hostile(tmp_path), "-f", str(corpus), "-o", str(report), "-q", "--no-progress")
    assert "Traceback" not in run.stderr and run.returncode == 1, run.stderr[-2000:]
    found = results(report)
    assert [found[i]["status"] for i in ("f.1", "f.2", "f.3")] == ["passed", "errored", "passed"]
    assert reason in found["f.2"]["message"] and len(found["f.2"]["message"]) < 400


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("name, raw, reason", START_GARBAGE, ids=[g[0] for g in START_GARBAGE])
def test_garbage_answer_to_start_is_exit_3(tmp_path: Path, name: str, raw: str, reason: str) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(fixture("f.1", {"fen": LONE, "depth": 1, "answer": 3}, 3) + "\n")
    report = tmp_path / "r.jsonl"
    (tmp_path / "start.txt").write_text(raw)
    run = arbiter("run", "-a", hostile(tmp_path, "--start", str(tmp_path / "start.txt")), "-f", str(corpus),
                  "-o", str(report), "--no-progress")
    line = one_error(run, 3)
    assert "did not start" in line and reason in line
    assert not report.exists()


def serve_lines(requests: list[bytes], *args: str, env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    run = arbiter("serve", *args, stdin=b"".join(r + b"\n" for r in requests), env=env)
    assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert all(len(line) < 1 << 20 for line in lines)
    return [json.loads(line) for line in lines]


def run_request(ident: str, data: dict[str, Any], kind: str = "perft") -> bytes:
    return json.dumps({"cmd": "run", "id": ident, "kind": kind, "ruleset": "fide-2023", "input": data}).encode()


def test_serve_answers_every_bad_line_and_keeps_serving() -> None:
    bad = [b"[" * 100_000 + b"]" * 100_000, b'{"cmd": "start", "protocol": "\\udc00"}',
           b'{"cmd": "start", "protocol": ' + HUGE.encode() + b"}", b"x" * (2 << 20), b"\xff\xfe"]
    answers = serve_lines([*bad, b'{"cmd": "start", "protocol": 1}',
                           run_request("perft20", {"fen": LONE, "depth": 20}),
                           run_request("ok", {"fen": LONE, "depth": 1}), b'{"cmd": "stop"}'])
    assert len(answers) == len(bad) + 4
    reasons = [a["error"] for a in answers[: len(bad)]]
    assert all(a["ok"] is False for a in answers[: len(bad)])
    for words, reason in zip(["nested deeper than 64", "lone surrogate", "5,000 digits", "longer than 1,048,576",
                              "not UTF-8"], reasons):
        assert words in reason and len(reason) < 400
    assert answers[len(bad)]["ok"] is True
    deep = answers[len(bad) + 1]
    assert deep["id"] == "perft20" and f"out of range 0..{MAX_PERFT_DEPTH}" in deep["errored"]
    assert answers[len(bad) + 2] == {"id": "ok", "result": {"nodes": 3}}


def test_serve_never_writes_a_line_over_the_limit(tmp_path: Path) -> None:
    (tmp_path / "bigmod.py").write_text(textwrap.dedent('''
        from conformance.adapters.base import Adapter, StartInfo
        class Big(Adapter):
            def start(self):
                return StartInfo("big", "1", ["perft"], ["*"])
            def run(self, kind, ruleset, input):
                return {"nodes": "x" * (2 << 20)} if input["size"] == "big" else {"nodes": "\\ud800"}
    '''))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    answers = serve_lines([b'{"cmd": "start", "protocol": 1}', run_request("a", {"size": "big"}),
                           run_request("b", {"size": "surrogate"}), b'{"cmd": "stop"}'],
                          "-a", "module:bigmod:Big", env=env)
    assert answers[1]["id"] == "a" and "over the protocol's 1,048,576-byte line limit" in answers[1]["errored"]
    assert answers[2]["id"] == "b" and "not JSON text" in answers[2]["errored"]
    assert answers[3] == {"ok": True}


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("name, raw, reason", GARBAGE, ids=[g[0] for g in GARBAGE])
@pytest.mark.parametrize("command", [["run", "merge", "-q", "-o"], ["report", "render", "-q", "--junit"]])
def test_report_with_a_hostile_line_is_one_file_line_error(tmp_path: Path, command: list[str], name: str,
                                                           raw: str, reason: str) -> None:
    report = tmp_path / "r.jsonl"
    header = {"type": "header", "protocol_version": 1, "adapter": {"name": "x", "version": "1"}}
    report.write_text(json.dumps(header) + "\n" + raw.replace("{id}", "f") + "\n")
    line = one_error(arbiter(*command, str(tmp_path / "out"), str(report)), 1)
    assert f"{report}:2: " in line and reason in line


# -- 2. linear judging ----------------------------------------------------------------------

class Counted(str):
    """A move whose hashing and comparisons are counted."""

    calls = 0

    def __hash__(self) -> int:
        Counted.calls += 1
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        Counted.calls += 1
        return str.__eq__(self, other)


def judged_calls(copies: int) -> int:
    Counted.calls = 0
    got = [Counted("e2e4") for _ in range(copies)] + [Counted("d2d4")]
    message = compare_module.compare("legal_moves", "fide-2023", {"moves": ["e2e4", "d2d4"]}, {"moves": got})
    assert message == "moves: listed more than once: e2e4"
    return Counted.calls


def test_duplicate_move_check_is_linear() -> None:
    """120,000 copies of a move: the work doubles when the copies double (it was quadratic)."""
    small, large = judged_calls(60_000), judged_calls(120_000)
    assert large <= 2.2 * small


# -- 3. unbounded work from data ------------------------------------------------------------

def test_perft_depth_20_in_a_fixture_is_an_error_on_that_fixture(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(fixture("f.d20", {"fen": LONE, "depth": 20}, 1) + "\n"
                      + fixture("f.ok", {"fen": LONE, "depth": 1}, 3) + "\n")
    report = tmp_path / "r.jsonl"
    run = arbiter("run", "-f", str(corpus), "-o", str(report), "-q", "--no-progress")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    found = results(report)
    assert found["f.ok"]["status"] == "passed" and found["f.d20"]["status"] == "errored"
    assert f"perft depth 20 is out of range 0..{MAX_PERFT_DEPTH}" in found["f.d20"]["message"]


HANGING = '''
import threading
from conformance.adapters.base import Adapter, StartInfo
class Hang(Adapter):
    def start(self):
        return StartInfo("hang", "1", ["perft"], ["*"])
    def run(self, kind, ruleset, input):
        if input.get("hang"):
            threading.Event().wait()  # never set: waits forever
        return {"nodes": 3}
'''


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_hanging_module_adapter_is_cut_off_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "hangmod.py").write_text(HANGING)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(fixture("f.1", {"fen": LONE, "depth": 1, "hang": True}, 3) + "\n"
                      + fixture("f.2", {"fen": LONE, "depth": 1}, 3) + "\n")
    report = tmp_path / "r.jsonl"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    run = subprocess.run([sys.executable, "-m", "conformance.cli", "run", "-a", "module:hangmod:Hang",
                          "-f", str(corpus), "-o", str(report), "-q", "--no-progress", "--timeout", "1"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr[-2000:]
    found = results(report)
    assert found["f.1"]["status"] == "errored" and "timed out" in found["f.1"]["message"]
    assert found["f.2"]["status"] == "passed"


def test_module_adapters_get_a_limit_by_default(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(fixture("f.1", {"fen": LONE, "depth": 1}, 3) + "\n")
    assert plan(Config(adapter="module:x:Y", fixtures=[str(corpus)])).options.timeout == MODULE_TIMEOUT
    assert plan(Config(adapter="module:x:Y", fixtures=[str(corpus)], timeout=3.0)).options.timeout == 3.0
    assert plan(Config(adapter="reference", fixtures=[str(corpus)])).options.timeout is None


# -- 4. typos that used to pass -------------------------------------------------------------

TYPOS = [
    ("kind", fixture("f.1", {"fen": LONE, "depth": 1}, 3, kind="perftt"), "unknown kind 'perftt'", []),
    ("martian", fixture("f.1", {"fen": LONE, "depth": 1}, 3, rulesets=["martian"]), "unknown ruleset 'martian'", []),
    ("martian-validated", fixture("f.1", {"fen": LONE, "depth": 1}, 3, rulesets=["martian"]),
     "unknown ruleset 'martian'", ["--validate-fixtures"]),
    ("martian-by-ruleset", fixture("f.1", {"fen": LONE, "depth": 1}, 3, expect_by_ruleset={"martian": {}}),
     "unknown ruleset 'martian'", []),
    ("knots", json.dumps({"id": "f.1", "kind": "perft", "rulesets": ["fide-2023"],
                          "input": {"fen": LONE, "depth": 1}, "expect": {"knots": 20}}),
     "'expect' field 'knots' is not a perft result field", []),
]


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("name, line, reason, extra", TYPOS, ids=[t[0] for t in TYPOS])
def test_fixture_typos_are_bad_input(tmp_path: Path, name: str, line: str, reason: str, extra: list[str]) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(line + "\n")
    error = one_error(arbiter("run", "-f", str(corpus), "-o", "-", "--no-progress", *extra), 1)
    assert f"{corpus}:1: f.1: {reason}" in error


@pytest.mark.parametrize("option, reason", [
    (["--timeout", "nan"], "--timeout must be a number of seconds"),
    (["--timeout", "inf"], "--timeout must be a number of seconds"),
    (["--adapter", "cmd:'abc"], "No closing quotation"),
])
def test_option_typos_are_usage_errors(tmp_path: Path, option: list[str], reason: str) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(fixture("f.1", {"fen": LONE, "depth": 1}, 3) + "\n")
    error = one_error(arbiter("run", "-f", str(corpus), "-o", "-", "--no-progress", *option), 2)
    assert reason in error
