"""``arbiter run`` end to end: exit codes, report format, -j, shards and merge, Ctrl-C.

Expectations in tests/data/harness/*.jsonl come from python-chess 1.11.2 (each line's
``source`` says so); ``wrong.jsonl`` holds one deliberately wrong expectation.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fake_adapter import await_line, fake_spec, stalling_corpus
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from conformance.harness.transports.process import WINDOW
from conformance.cli import main

HERE = Path(__file__).parent
DATA = HERE / "data" / "harness"
REPORT_SCHEMA = HERE.parent / "conformance" / "schema" / "report.schema.json"


def run(tmp_path: Path, *args: str) -> tuple[int, list[dict], str]:
    report = tmp_path / "report.jsonl"
    result = CliRunner().invoke(main, ["run", "-q", "--no-progress", "-o", str(report), *args])
    records = [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []
    return result.exit_code, records, result.output


def statuses(records: list[dict]) -> dict[tuple[str, str], str]:
    return {(r["id"], r["ruleset"]): r["status"] for r in records if r["type"] == "result"}


def test_all_met_exits_0_and_report_follows_its_schema(tmp_path: Path) -> None:
    code, records, _ = run(tmp_path, "-f", str(DATA / "reference.jsonl"))
    assert code == 0
    validator = Draft202012Validator(json.loads(REPORT_SCHEMA.read_text()))
    for record in records:
        validator.validate(record)
    header, footer = records[0], records[-1]
    assert header["type"] == "header" and header["protocol_version"] == 1
    assert header["adapter"]["spec"] == "reference" and header["corpus_revision"].startswith("sha256:")
    assert footer["type"] == "footer" and footer["interrupted"] is False
    assert footer["counts"]["passed"] == len(records) - 2


def test_failure_exits_1(tmp_path: Path) -> None:
    code, records, _ = run(tmp_path, "-f", str(DATA / "wrong.jsonl"), "--kind", "perft")
    assert code == 1
    assert statuses(records)[("w.perft.start.d1.wrong", "fide-2023")] == "failed"


def test_xfail_file_turns_failure_into_xfailed_exit_0(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    known.write_text("w.perft.start.d1.wrong: the expectation is wrong on purpose\n")
    code, records, _ = run(tmp_path, "-f", str(DATA / "wrong.jsonl"), "--kind", "perft", "--xfail", str(known))
    assert code == 0
    assert statuses(records)[("w.perft.start.d1.wrong", "fide-2023")] == "xfailed"


def test_stale_xfail_entry_is_warned_about(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    known.write_text("w.no.such.fixture: renamed long ago\n")
    code, _, output = run(tmp_path, "-f", str(DATA / "wrong.jsonl"), "--id", "*.right", "--xfail", str(known))
    assert code == 0
    assert "expected-failure entry 'w.no.such.fixture' matches no fixture" in output


def test_unexpected_pass_exits_1(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    known.write_text("w.perft.start.d1.right: {reason: believed broken, versions: ['>=0']}\n")
    code, records, _ = run(tmp_path, "-f", str(DATA / "wrong.jsonl"), "--id", "*.right", "--xfail", str(known))
    assert code == 1
    assert statuses(records) == {("w.perft.start.d1.right", "fide-2023"): "xpassed"}


@pytest.mark.parametrize(
    "args, words",
    [
        (["--shard", "5/3"], "--shard"),
        (["--adapter", "telepathy"], "unknown adapter"),
        (["--kind", "no_such_kind"], "no fixture matches"),
        (["-j", "0"], "-j must be at least 1"),
        (["-j", "many"], "-j expects a number or 'auto'"),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], words: str) -> None:
    code, _, output = run(tmp_path, "-f", str(DATA / "reference.jsonl"), *args)
    assert code == 2
    assert words in output and "Traceback" not in output


def test_adapter_that_cannot_start_exits_3(tmp_path: Path) -> None:
    code, _, output = run(tmp_path, "-f", str(DATA / "fake.jsonl"), "-a", fake_spec("--start", "exit"))
    assert code == 3
    assert "did not start" in output and "exit status 2" in output


def test_bad_fixture_line_exits_1_naming_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text((DATA / "wrong.jsonl").read_text() + "{oops\n")
    code, records, output = run(tmp_path, "-f", str(bad))
    assert code == 1
    assert f"{bad}:4: not JSON" in output
    assert records == []  # nothing ran


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_fail_fast_stops_at_first_failure(tmp_path: Path) -> None:
    code, records, _ = run(tmp_path, "-f", str(DATA / "fake.jsonl"), "-a", fake_spec(), "--timeout", "1", "-x")
    results = [r for r in records if r["type"] == "result"]
    assert code == 1
    assert [r["status"] for r in results] == ["passed", "errored"]
    assert records[-1]["fail_fast"] is True


def test_max_fail_stops_after_n(tmp_path: Path) -> None:
    code, records, _ = run(tmp_path, "-f", str(DATA / "fake.jsonl"), "-a", fake_spec(), "--timeout", "1",
                           "--max-fail", "3", "--id", "*.good", "--id", "*.garbage", "--id", "*.wrong-id",
                           "--id", "*.twice", "--id", "*.flood")
    bad = [r for r in records if r["type"] == "result" and r["status"] == "errored"]
    assert code == 1 and len(bad) == 3 and records[-1]["fail_fast"] is True


def _comparable(records: list[dict]) -> list[tuple]:
    return [(r["id"], r["ruleset"], r["status"], json.dumps(r["actual"], sort_keys=True))
            for r in records if r["type"] == "result"]


def test_parallel_workers_give_the_sequential_report(tmp_path: Path) -> None:
    args = ["-f", str(DATA / "reference.jsonl"), "-f", str(DATA / "wrong.jsonl")]
    code1, one, _ = run(tmp_path, *args)
    code3, three, _ = run(tmp_path, *args, "-j", "3")
    code_auto, auto, _ = run(tmp_path, *args, "-j", "auto")
    assert _comparable(auto) == _comparable(one) and code_auto == 1
    assert code1 == code3 == 1
    assert _comparable(one) == _comparable(three) and len(_comparable(one)) >= 10


def test_parallel_cmd_adapter_processes(tmp_path: Path) -> None:
    code, records, _ = run(tmp_path, "-f", str(DATA / "fake.jsonl"), "-a", fake_spec(), "--timeout", "1",
                           "-j", "2", "--id", "*.good", "--id", "*.crash")
    got = statuses(records)
    assert code == 1 and got.pop(("fake.01.crash", "fide-2023")) == "errored"
    assert set(got.values()) == {"passed"} and len(got) == 9


def test_shards_merge_back_into_the_whole(tmp_path: Path) -> None:
    args = ["-f", str(DATA / "reference.jsonl"), "-f", str(DATA / "wrong.jsonl")]
    _, whole, _ = run(tmp_path, *args)
    paths = []
    for k in (1, 2, 3):
        path = tmp_path / f"shard{k}.jsonl"
        CliRunner().invoke(main, ["run", "-q", "--no-progress", "-o", str(path), "--shard", f"{k}/3", *args])
        paths.append(str(path))
    shard_sets = [set(statuses([json.loads(x) for x in Path(p).read_text().splitlines()])) for p in paths]
    assert all(shard_sets) and sum(map(len, shard_sets)) == len(set.union(*shard_sets))
    merged_path = tmp_path / "merged.jsonl"
    result = CliRunner().invoke(main, ["run", "merge", "-q", "-o", str(merged_path), *paths])
    merged = [json.loads(line) for line in merged_path.read_text().splitlines()]
    assert result.exit_code == 1  # the wrong fixture is in one of the shards
    assert statuses(merged) == statuses(whole)
    assert merged[-1]["counts"] == whole[-1]["counts"]


def test_merge_refuses_overlapping_shards(tmp_path: Path) -> None:
    code, _, _ = run(tmp_path, "-f", str(DATA / "wrong.jsonl"))
    report = tmp_path / "report.jsonl"
    result = CliRunner().invoke(main, ["run", "merge", "-q", "-o", str(tmp_path / "m.jsonl"), str(report), str(report)])
    assert result.exit_code == 1 and "overlapping shards" in result.output


def test_module_adapter_spec(tmp_path: Path) -> None:
    code, records, _ = run(tmp_path, "-f", str(DATA / "reference.jsonl"), "-a",
                           "module:conformance.implementations.example:ExampleAdapter")
    got = statuses(records)
    assert code == 0
    assert got[("h.legal.kiwipete.960", "fide-2023-chess960")] == "passed"
    assert got[("h.apply.e4", "fide-2023")] == "unsupported"
    assert got[("h.perft.start.d1", "fide-2023")] == "passed"  # "*" runs once, fide-2023 first
    assert ("h.perft.start.d1", "uscf-7") not in got and ("h.perft.start.d1", "fide-2014") not in got


def test_junit_and_html_outputs(tmp_path: Path) -> None:
    junit, html = tmp_path / "r.xml", tmp_path / "r.html"
    code, _, _ = run(tmp_path, "-f", str(DATA / "wrong.jsonl"), "--junit", str(junit), "--html", str(html))
    assert code == 1
    assert "w.perft.start.d1.wrong" in junit.read_text()
    assert "w.perft.start.d1.wrong" in html.read_text()


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_writes_the_partial_report(tmp_path: Path, jobs: str) -> None:
    """Ctrl-C once fixture 150 has been reached (the fake says so through a named pipe)
    and while 151 hangs: no timing involved. The report holds an in-order prefix of the
    answered fixtures; sequentially at least all but the answers still in the pipe
    (with -j, chunks in flight in the workers are not waited for)."""
    fifo = tmp_path / "reached"
    os.mkfifo(fifo)
    fixture = stalling_corpus(tmp_path / "slow.jsonl", fifo)
    report = tmp_path / "partial.jsonl"
    command = [sys.executable, "-m", "conformance.cli", "run", "-q", "--no-progress", "-f", str(fixture),
               "-o", str(report), "-a", fake_spec(), "-j", jobs, "--timeout", "600"]
    # SIGINT at its default even if this test runs in the background, where it is ignored
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert await_line(fifo, proc) == "reached\n"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    records = [json.loads(line) for line in report.read_text().splitlines()]
    results = [r for r in records if r["type"] == "result"]
    assert proc.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
    assert records[-1]["type"] == "footer" and records[-1]["interrupted"] is True
    assert all(r["status"] == "passed" for r in results)
    assert [r["id"] for r in results] == [f"slow.{i:03d}" for i in range(len(results))]
    assert len(results) <= 151  # 151 hangs: it is never answered
    if jobs == "1":  # the harness had sent request 150, so it had read all but WINDOW - 1 answers
        assert len(results) >= 151 - WINDOW
    assert records[-1]["counts"]["passed"] == len(results)
    assert not (tmp_path / "partial.jsonl.partial").exists()


def test_a_skip_is_not_green_and_strict_makes_it_exit_1(tmp_path: Path) -> None:
    args = ["-f", str(DATA / "fake.jsonl"), "--id", "fake.00.good", "--id", "fake.16.skip", "-a", fake_spec()]
    report = tmp_path / "report.jsonl"
    lenient = CliRunner().invoke(main, ["run", "--no-progress", "-o", str(report), *args])
    assert lenient.exit_code == 0, lenient.output
    assert "all expectations met" not in lenient.output
    assert "1 result not judged (skipped)" in lenient.output and "not today" in lenient.output
    strict = CliRunner().invoke(main, ["run", "-q", "--no-progress", "--strict", "-o", str(report), *args])
    assert strict.exit_code == 1
    assert statuses([json.loads(x) for x in report.read_text().splitlines()]) == {
        ("fake.00.good", "fide-2023"): "passed", ("fake.16.skip", "fide-2023"): "skipped"}


def test_strict_run_without_skips_exits_0(tmp_path: Path) -> None:
    code, _, _ = run(tmp_path, "-f", str(DATA / "reference.jsonl"), "--strict")
    assert code == 0


def test_merge_of_an_incomplete_set_of_shards_warns(tmp_path: Path) -> None:
    args = ["-f", str(DATA / "reference.jsonl")]
    paths = []
    for k in (1, 3):
        path = tmp_path / f"shard{k}.jsonl"
        CliRunner().invoke(main, ["run", "-q", "--no-progress", "-o", str(path), "--shard", f"{k}/3", *args])
        paths.append(str(path))
    merged_path = tmp_path / "merged.jsonl"
    result = CliRunner().invoke(main, ["run", "merge", "-o", str(merged_path), *paths])
    assert result.exit_code == 0
    assert "shard(s) 2/3 missing" in result.output
    assert "all expectations met" not in result.output
    header = json.loads(merged_path.read_text().splitlines()[0])
    assert header["selection"]["missing_shards"] == ["2/3"]
    strict = CliRunner().invoke(main, ["run", "merge", "-q", "--strict", "-o", str(merged_path), *paths])
    assert strict.exit_code == 1
    rendered = CliRunner().invoke(main, ["report", "render", str(merged_path)])
    assert "2/3" in rendered.output and "all expectations met" not in rendered.output
