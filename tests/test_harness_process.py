"""The cmd: adapter against a fake program that misbehaves on request (tests/adapters/fake.py).

Each misbehaviour must give its own fixture a clear ``errored`` verdict, the program
must be killed and restarted (``start`` replayed: the fake refuses runs before start),
and every other fixture must keep its correct result. The expectations follow from
the fake's documented behaviour: it answers ``nodes = input.answer``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fake_adapter import FAKE, fake_spec

from conformance.adapters.base import AdapterStartError
from conformance.harness.transports.process import AdapterFault, ProcessAdapter
from conformance.harness.select import Selection
from conformance.harness.runner import run_one
from conformance.harness.session import Config, execute, plan

HERE = Path(__file__).parent
FIXTURES = HERE / "data" / "harness" / "fake.jsonl"
HANG = "fake.03.hang"
#: seconds per answer for the corpus without the hang: no answer of the fake comes near it
#: however loaded the machine, so no verdict depends on timing
GENEROUS = 60.0


def fake_corpus(directory: Path, hang: bool) -> Path:
    """The fake corpus with only the hang fixture (``hang``) or all but it."""
    lines = [line for line in FIXTURES.read_text().splitlines() if (f'"{HANG}"' in line) == hang]
    path = directory / ("hang.jsonl" if hang else "fake.jsonl")
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module", params=["pipelined", "one-by-one"])
def fake_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The fake corpus but the hang through ``arbiter run``'s path (pipelined, run_many)
    or the pytest plugin's (one ``run`` call per fixture)."""
    corpus = fake_corpus(tmp_path_factory.mktemp("fake"), hang=False)
    config = Config(adapter=fake_spec(), fixtures=[str(corpus)], timeout=GENEROUS)
    the_plan = plan(config)
    if request.param == "pipelined":
        found = execute(config, the_plan, lambda record: None)
        assert found[0]["type"] == "header" and found[-1]["type"] == "footer"
    else:
        adapter = the_plan.recipe.build()
        info = adapter.start()
        found = []
        late: list = []
        for case in the_plan.cases:
            found.append(run_one(adapter, info, case, the_plan.options))
            late.extend((case.id, key) for key in adapter.take_late_duplicates())
        adapter.stop()
    results = {r["id"]: r for r in found if r["type"] == "result"}
    results["mode"] = request.param  # type: ignore[assignment]
    if request.param == "one-by-one":
        results["late"] = late  # type: ignore[assignment]
    return results


@pytest.mark.parametrize(
    "fixture_id, words",
    [
        ("fake.01.crash", ["exited without answering", "exit status 7", "crashing on purpose", "restarted"]),
        ("fake.05.garbage", ["not JSON", "Segmentation fault"]),
        ("fake.07.wrong-id", ["answered with id 'bogus'"]),
        ("fake.09.twice", ["answered this request twice"]),
        ("fake.13.flood", ["line limit"]),
        ("fake.17.error", ["adapter reported an error", "division by zero"]),
        ("fake.18.not-object", ["'result' is not an object"]),
    ],
)
def test_misbehaviour_gets_a_clear_errored_verdict(fake_run: dict, fixture_id: str, words: list[str]) -> None:
    record = fake_run[fixture_id]
    assert record["status"] == "errored"
    for word in words:
        assert word in record["message"]
    assert record["actual"] is None


def test_every_well_behaved_fixture_still_passes_after_restarts(fake_run: dict) -> None:
    good = [r for i, r in fake_run.items() if i.endswith(".good")]
    assert len(good) == 9
    assert all(r["status"] == "passed" and r["actual"] == {"nodes": 3} for r in good)


def test_run_completes_with_every_fixture_reported(fake_run: dict) -> None:
    lines = FIXTURES.read_text().splitlines()
    results = [r for r in fake_run.values() if isinstance(r, dict)]
    assert len(results) == len(lines) - 1 == 19


def test_late_second_answer(fake_run: dict) -> None:
    """Pipelined (``arbiter run``), the late duplicate is charged to its own request. One
    by one, it arrives while the next request is sent: the adapter notes it (for the
    runner to charge) and sends the next request again. The next fixture passes either way."""
    late = fake_run["fake.11.late-twice"]
    if fake_run["mode"] == "pipelined":
        assert late["status"] == "errored" and "twice" in late["message"]
    else:
        assert late["status"] == "passed"
        noticed_during, key = fake_run["late"][0]
        assert noticed_during == "fake.12.good" and len(fake_run["late"]) == 1
    assert fake_run["fake.12.good"]["status"] == "passed"


def test_stderr_flood_does_not_block_the_adapter(fake_run: dict) -> None:
    assert fake_run["fake.15.stderr-flood"]["status"] == "passed"


def test_skipped_answer_is_skipped_with_reason(fake_run: dict) -> None:
    assert fake_run["fake.16.skip"]["status"] == "skipped"
    assert fake_run["fake.16.skip"]["message"] == "not today"


def test_hang_is_cut_and_its_time_recorded(tmp_path: Path) -> None:
    """The fake sleeps 60 s on this request; the 1 s timeout cuts it, never sooner."""
    config = Config(adapter=fake_spec(), fixtures=[str(fake_corpus(tmp_path, hang=True))], timeout=1.0)
    found = execute(config, plan(config), lambda record: None)
    (hang,) = [r for r in found if r["type"] == "result"]
    assert hang["status"] == "errored" and hang["actual"] is None
    for word in ["no answer within 1 s", "timed out", "restarted"]:
        assert word in hang["message"]
    assert hang["duration_ms"] >= 1000


@pytest.mark.parametrize(
    "mode, words",
    [
        ("exit", "exit status 2"),
        ("protocol2", "speaks protocol 2"),
        ("garbage", "not JSON"),
        ("refuse", "licence expired"),
    ],
)
def test_start_failure_raises_adapter_start_error(mode: str, words: str) -> None:
    adapter = ProcessAdapter([sys.executable, str(FAKE), "--start", mode])
    with pytest.raises(AdapterStartError, match=words) as caught:
        adapter.start()
    assert caught.value.exit_code == 3


def test_start_hang_times_out() -> None:
    adapter = ProcessAdapter([sys.executable, str(FAKE), "--start", "hang"], start_timeout=0.5)
    with pytest.raises(AdapterStartError, match="timed out"):
        adapter.start()


def test_missing_program_is_a_start_error() -> None:
    with pytest.raises(AdapterStartError, match="cannot start"):
        ProcessAdapter(["/definitely/not/here"]).start()


def test_program_that_cannot_restart_marks_later_fixtures_errored(tmp_path: Path) -> None:
    marker = tmp_path / "started-once"
    script = tmp_path / "once.py"
    script.write_text(
        "import json, os, sys\n"
        f"marker = {str(marker)!r}\n"
        "if os.path.exists(marker):\n    sys.exit(1)\n"
        "open(marker, 'w').close()\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['cmd'] == 'start':\n"
        "        print(json.dumps({'ok': True, 'protocol': 1, 'implementation': {'name': 'once', 'version': '1'},"
        " 'capabilities': ['perft'], 'rulesets': ['*']}), flush=True)\n"
        "    else:\n        sys.exit(5)\n"
    )
    adapter = ProcessAdapter([sys.executable, str(script)], timeout=2)
    adapter.start()
    messages = []
    for _ in range(5):
        with pytest.raises(Exception) as caught:
            adapter.run("perft", "fide-2023", {"fen": "x", "depth": 1})
        messages.append(str(caught.value))
    adapter.stop()
    assert "exited without answering" in messages[0]
    assert all("could not be restarted" in m for m in messages[1:4])
    assert "adapter is down" in messages[4]


def test_stop_ends_the_program() -> None:
    adapter = ProcessAdapter([sys.executable, str(FAKE)])
    adapter.start()
    assert adapter._child is not None
    proc = adapter._child.proc
    adapter.stop()
    assert proc.poll() is not None


def test_unsupported_kind_is_never_sent(tmp_path: Path) -> None:
    fixture = tmp_path / "f.jsonl"
    fixture.write_text(
        '{"id": "u.legal", "kind": "legal_moves", "rulesets": ["fide-2023"], '
        '"input": {"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "act": "crash"}, "expect": {"moves": []}}\n'
    )
    config = Config(adapter=fake_spec(), fixtures=[str(fixture)], selection=Selection())
    found = execute(config, plan(config), lambda record: None)
    result = found[1]
    assert result["status"] == "unsupported"
    assert "legal_moves" in result["message"]


def test_pipelined_big_requests_and_answers_do_not_deadlock(tmp_path: Path) -> None:
    """30 requests of 100 kB and answers of 200 kB: far more than a pipe holds both ways."""
    adapter = ProcessAdapter([sys.executable, str(FAKE)], timeout=20)
    adapter.start()
    padding = "x" * 100_000
    requests = [("perft", "fide-2023", {"answer": i, "act": "big", "pad": padding}) for i in range(30)]
    answers = adapter.run_many(requests)
    adapter.stop()
    assert [value["nodes"] for value, _ in answers] == list(range(30))
    assert all(len(value["pad"]) == 200_000 for value, _ in answers)


def test_answers_written_before_an_exit_are_read_before_blaming_a_request() -> None:
    """The program answers request 0 after closing its stdin, then exits. The harness is
    still writing (100 kB requests fill the pipe), so its next write fails before it has
    read that answer: request 0 keeps its answer, request 1 (never read) is the one
    errored, and the message is the same whichever of the two the harness noticed first."""
    adapter = ProcessAdapter([sys.executable, str(FAKE)], timeout=20)
    adapter.start()
    padding = "x" * 100_000
    requests = [("perft", "fide-2023", {"answer": i, "pad": padding}) for i in range(16)]
    requests[0][2]["act"] = "answer_and_exit"
    answers = adapter.run_many(requests)
    adapter.stop()
    assert answers[0][0] == {"nodes": 0}
    fault = answers[1][0]
    assert isinstance(fault, AdapterFault)
    assert str(fault).startswith("exited without answering (exit status 9)")
    assert [value["nodes"] for value, _ in answers[2:]] == list(range(2, 16))
    assert adapter.restarts == 1
