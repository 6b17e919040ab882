"""Harness throughput: fixtures per second in-process and through protocol v1.

Runs the same cheap fixtures from the shipped corpus (one ruleset, kinds whose answer
takes microseconds) four ways and prints fixtures/s for each:

* ``null in-process`` / ``null via cmd:`` -- an adapter that answers instantly, so the
  figure is the harness's own cost (selection, comparison, records) and, through
  ``cmd:``, the protocol's (JSON over pipes, requests pipelined 16 deep);
* ``reference in-process`` / ``reference via cmd:arbiter serve`` -- the real thing;
and then the reference against the python-chess adapter on the fixtures python-chess
declares, in-process, as a ratio.

Targets: >= 5,000 fixtures/s in-process, >= 2,000/s through the protocol,
for the cheap kinds. Run::

    python benchmarks/bench_harness.py [--limit 4000] [--validate-protocol]
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from itertools import zip_longest
from typing import Any

from conformance.implementations import resolve
from conformance.adapters.base import Adapter, StartInfo
from conformance.harness import fixtures, rulesets
from conformance.harness.runner import Options, run_cases
from conformance.harness.select import Case, Selection, expand

CHEAP_KINDS = ["legal_moves", "status", "validate_fen", "apply_moves", "start_position", "san", "to_notation"]
RULESET = "fide-2023"
NULL_SERVER = (
    "import json, sys\n"
    "out = sys.stdout\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    c = m['cmd']\n"
    "    if c == 'run': out.write('{\"id\":\"%s\",\"result\":{}}\\n' % m['id'])\n"
    "    elif c == 'start': out.write(json.dumps({'ok': True, 'protocol': 1, 'implementation':"
    " {'name': 'null', 'version': '0'}, 'capabilities': KINDS, 'rulesets': ['*']}) + '\\n')\n"
    "    else:\n        out.write('{\"ok\":true}\\n'); out.flush(); break\n"
    "    out.flush()\n"
)


class NullAdapter(Adapter):
    """Answers every request with an empty result at once (the harness's own cost)."""

    def start(self) -> StartInfo:
        return StartInfo("null", "0", list(CHEAP_KINDS), ["*"])

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        return {}


def cheap_cases(limit: int) -> list[Case]:
    """Up to ``limit`` cases, taken from every cheap kind in turn."""
    corpus = fixtures.load()
    selection = Selection(kind=list(CHEAP_KINDS), ruleset=[RULESET])
    by_kind: dict[str, list[Case]] = {}
    for case in expand(corpus.fixtures, selection, rulesets.orthodox_rulesets()):
        by_kind.setdefault(case.kind, []).append(case)
    mixed = [c for group in zip_longest(*by_kind.values()) for c in group if c is not None]
    return mixed[:limit]


def measure(adapter: Adapter, cases: list[Case]) -> tuple[float, dict[str, int]]:
    """Fixtures per second over ``cases``, and the status counts."""
    info = adapter.start()
    counts: dict[str, int] = {}

    def emit(record: dict[str, Any]) -> None:
        counts[record["status"]] = counts.get(record["status"], 0) + 1

    try:
        began = time.perf_counter()
        run_cases(adapter, info, cases, Options(), emit)
        elapsed = time.perf_counter() - began
    finally:
        adapter.stop()
    return len(cases) / elapsed, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=4000, help="fixtures per measurement")
    parser.add_argument("--validate-protocol", action="store_true", help="schema-check every message")
    args = parser.parse_args()
    cases = cheap_cases(args.limit)
    kinds = sorted({c.kind for c in cases})
    print(f"{len(cases)} fixtures under {RULESET}, kinds: {', '.join(kinds)}")
    null_cmd = "cmd:" + shlex.join([sys.executable, "-c", NULL_SERVER.replace("KINDS", repr(CHEAP_KINDS))])
    serve_cmd = "cmd:" + shlex.join([sys.executable, "-m", "conformance.cli", "serve"])
    runs = [
        ("null in-process", NullAdapter()),
        ("null via cmd:", resolve(null_cmd, validate_protocol=args.validate_protocol)),
        ("reference in-process", resolve("reference")),
        ("reference via cmd:arbiter serve", resolve(serve_cmd, validate_protocol=args.validate_protocol)),
    ]
    rates: dict[str, float] = {}
    for name, adapter in runs:
        rate, counts = measure(adapter, cases)
        rates[name] = rate
        shown = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"{name:34s} {rate:10,.0f} fixtures/s   ({shown})")
    print("reference per kind (in-process / via cmd:):")
    for kind in kinds:
        subset = [c for c in cases if c.kind == kind]
        local, _ = measure(resolve("reference"), subset)
        remote, _ = measure(resolve(serve_cmd), subset)
        print(f"  {kind:16s} {len(subset):5d} fixtures {local:10,.0f}/s {remote:10,.0f}/s")
    probe = resolve("python-chess")
    declared = probe.start()
    probe.stop()
    common = [c for c in cases if declared.supports(c.kind, c.ruleset)]
    reference_rate, _ = measure(resolve("reference"), common)
    python_chess_rate, counts = measure(resolve("python-chess"), common)
    print(f"on the {len(common)} fixtures python-chess declares: reference {reference_rate:,.0f}/s, "
          f"python-chess {python_chess_rate:,.0f}/s ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); "
          f"ratio {reference_rate / python_chess_rate:.2f}")
    print(f"target in-process  >= 5,000/s: {rates['reference in-process']:,.0f}")
    print(f"target via cmd:    >= 2,000/s: {rates['reference via cmd:arbiter serve']:,.0f}")
    print(f"protocol overhead per fixture: "
          f"{1e6 / rates['null via cmd:'] - 1e6 / rates['null in-process']:.0f} us")


if __name__ == "__main__":
    main()
