"""A second answer that arrives after its request's result was taken is charged to its
fixture, never dropped: sequentially, with ``-j``, and at the end of the run.

The fake adapter (tests/adapters/fake.py) answers ``late_twice`` requests, waits, and
answers again before it reads anything else, so the second answer always arrives
before the answer to whatever the harness sends next (or to ``stop``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_adapter import fake_spec, perft_corpus

from conformance.cli import main
from conformance.harness import records
from conformance.harness.session import Config, execute, plan

def statuses(found: list[records.Record]) -> dict[str, str]:
    return {r["id"]: r["status"] for r in found if r["type"] == "result"}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_late_second_answer_is_charged_to_its_fixture(tmp_path: Path, jobs: int) -> None:
    """63 ends a 64-case block (and a -j 2 chunk of 16): its second answer comes in the next
    batch. 127 is the last case: its second answer comes while ``stop`` waits."""
    late = {63, 127}
    config = Config(adapter=fake_spec(), fixtures=[str(perft_corpus(tmp_path / "c.jsonl", 128, late))], jobs=jobs,
                    timeout=60.0)  # generous: no verdict here may depend on timing
    found = execute(config, plan(config), lambda record: None)
    status = statuses(found)
    assert sorted(i for i, s in status.items() if s != "passed") == ["f.063", "f.127"]
    for number in late:
        record = next(r for r in found if r.get("id") == f"f.{number:03d}")
        assert record["status"] == "errored" and record["message"].startswith("answered this request twice")
        assert record["actual"] is None
    assert found[-1]["counts"]["errored"] == 2 and found[-1]["counts"]["passed"] == 126
    assert records.exit_status(found) == 1


def test_a_run_whose_only_fault_is_a_late_duplicate_exits_1(tmp_path: Path) -> None:
    fixtures = perft_corpus(tmp_path / "c.jsonl", 3, {2})
    report = tmp_path / "report.jsonl"
    result = CliRunner().invoke(main, ["run", "-q", "--no-progress", "-a", fake_spec(), "-f", str(fixtures),
                                       "-o", str(report)])
    assert result.exit_code == 1
    written = [json.loads(line) for line in report.read_text().splitlines()]
    assert statuses(written) == {"f.000": "passed", "f.001": "passed", "f.002": "errored"}
    assert written[-1]["counts"]["errored"] == 1
