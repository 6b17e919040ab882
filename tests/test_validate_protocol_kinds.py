"""``--validate-protocol`` checks every result against its kind's schema (kinds.json):
a result of the wrong shape is a protocol error (``errored``), not an ordinary failure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_adapter import fake_spec
from click.testing import CliRunner

from conformance.adapters.base import Adapter, AdapterFault, StartInfo
from conformance.cli import main
from conformance.harness.protocol import KindChecked



def _run(tmp_path: Path, *args: str) -> dict[str, dict[str, Any]]:
    fixture = tmp_path / "shapes.jsonl"
    lines = [{"id": "shape.string", "kind": "perft", "rulesets": ["fide-2023"],
              "input": {"fen": "x", "depth": 1, "answer": "48"}, "expect": {"nodes": 48}},
             {"id": "shape.wrong-number", "kind": "perft", "rulesets": ["fide-2023"],
              "input": {"fen": "x", "depth": 1, "answer": 47}, "expect": {"nodes": 48}},
             {"id": "shape.good", "kind": "perft", "rulesets": ["fide-2023"],
              "input": {"fen": "x", "depth": 1, "answer": 48}, "expect": {"nodes": 48}}]
    fixture.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = tmp_path / "report.jsonl"
    adapter = fake_spec()
    CliRunner().invoke(main, ["run", "-q", "--no-progress", "-o", str(report), "-f", str(fixture),
                              "-a", adapter, *args])
    found = [json.loads(line) for line in report.read_text().splitlines()]
    return {r["id"]: r for r in found if r["type"] == "result"}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_result_of_the_wrong_shape_is_a_protocol_error(tmp_path: Path, jobs: str) -> None:
    checked = _run(tmp_path, "--validate-protocol", "-j", jobs)
    assert checked["shape.string"]["status"] == "errored"
    assert "protocol error" in checked["shape.string"]["message"]
    assert "kinds.json" in checked["shape.string"]["message"]
    assert checked["shape.wrong-number"]["status"] == "failed"  # right shape, wrong value
    assert checked["shape.good"]["status"] == "passed"
    unchecked = _run(tmp_path, "-j", jobs)
    assert unchecked["shape.string"]["status"] == "failed"  # without the flag: compared as given


class _Shapeless(Adapter):
    """An in-process adapter answering perft with a string count."""

    spec = "shapeless"
    own_timeout = True

    def start(self) -> StartInfo:
        return StartInfo(name="shapeless", version="1", capabilities=("perft",), rulesets=("*",))

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        return {"nodes": input["answer"]}


def test_kind_checked_wraps_in_process_adapters_too() -> None:
    adapter = KindChecked(_Shapeless())
    assert adapter.spec == "shapeless" and adapter.own_timeout is True  # the rest is the adapter's
    assert adapter.run("perft", "fide-2023", {"answer": 20}) == {"nodes": 20}
    with pytest.raises(AdapterFault, match=r"perft result violates kinds\.json.*nodes"):
        adapter.run("perft", "fide-2023", {"answer": "20"})
    assert not hasattr(adapter, "run_many")  # only a pipelining adapter's wrapper pipelines
