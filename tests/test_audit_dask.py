"""``arbiter audit --scheduler``: a real Dask cluster on the loopback interface gives the
same findings, in the same order, as the local run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli import main

from test_audit import CASES, CLEAN

distributed = pytest.importorskip("distributed")


def records(out: Path) -> list[dict]:
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    return [r for r in lines if r["type"] in ("finding", "error", "partition")]


def test_distributed_equals_local(tmp_path: Path) -> None:
    pgn = tmp_path / "db.pgn"
    pgn.write_text("".join(t for t, _ in CASES) * 2 + "".join(CLEAN) * 3)
    common = [str(pgn), "--rules", "fide", "--partition-bytes", "300", "--no-progress"]
    local = CliRunner().invoke(main, ["audit", *common, "-o", str(tmp_path / "local.jsonl")])
    assert local.exit_code == 0, local.output
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        remote = CliRunner().invoke(main, ["audit", *common, "-o", str(tmp_path / "dask.jsonl"),
                                           "--scheduler", cluster.scheduler_address])
    assert remote.exit_code == 0, remote.output
    expected = records(tmp_path / "local.jsonl")
    got = records(tmp_path / "dask.jsonl")
    for record in expected + got:
        record.pop("cpu", None)
    assert sum(r["type"] == "partition" for r in expected) > 5
    assert sum(r["type"] == "finding" for r in expected) == 2 * len(CASES)
    assert got == expected
    assert remote.stdout.splitlines()[:-1] == local.stdout.splitlines()[:-1]
