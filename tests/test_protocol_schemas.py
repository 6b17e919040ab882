"""The protocol v1 schemas: well-formed, and they accept and reject the right messages.

The example messages are those of docs/protocol.md.
"""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from conformance.adapters.base import KINDS
from conformance.harness.protocol import MESSAGES, SCHEMA_DIR, validate


@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.json")), ids=lambda p: p.name)
def test_schema_is_valid_2020_12(path) -> None:
    Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_one_schema_per_message_and_every_kind_described() -> None:
    assert {p.stem for p in SCHEMA_DIR.glob("*.json")} == set(MESSAGES) | {"kinds"}
    defs = json.loads((SCHEMA_DIR / "kinds.json").read_text())["$defs"]
    assert set(KINDS) <= set(defs)


GOOD = [
    ("start-request", {"cmd": "start", "protocol": 1}),
    ("start-answer", {"ok": True, "protocol": 1, "implementation": {"name": "x", "version": "1"},
                      "capabilities": ["perft"], "rulesets": ["*"]}),
    ("start-answer", {"ok": False, "error": "only protocol 2"}),
    ("run-request", {"cmd": "run", "id": "7", "kind": "perft", "ruleset": "fide-2023",
                     "input": {"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "depth": 3}}),
    ("run-answer", {"id": "7", "result": {"nodes": 9}}),
    ("run-answer", {"id": "7", "skipped": "too deep"}),
    ("run-answer", {"id": "7", "errored": "segfault"}),
    ("stop-request", {"cmd": "stop"}),
    ("stop-answer", {"ok": True}),
    ("game_end/result", {"result": "1/2-1/2", "reason": "seventy_five_moves", "claimable": []}),
    ("parse_san/result", {"move": None, "error": "ambiguous"}),
    ("legal_moves/result", {"moves": ["e1h1", "e7e8q"]}),
]
BAD = [
    ("start-request", {"cmd": "start", "protocol": 2}),
    ("start-answer", {"ok": True, "protocol": 1, "capabilities": []}),
    ("run-request", {"cmd": "run", "id": "7", "kind": "perft", "ruleset": "x", "input": {"fen": "x"}}),
    ("run-answer", {"id": "7"}),
    ("run-answer", {"id": "7", "result": {}, "errored": "both"}),
    ("run-answer", {"id": 7, "result": {}}),
    ("game_end/result", {"result": "draw", "reason": None, "claimable": []}),
    ("parse_san/result", {"move": None, "error": "weird"}),
    ("legal_moves/result", {"moves": ["O-O"]}),
]


@pytest.mark.parametrize("message, data", GOOD)
def test_valid_messages(message: str, data: dict) -> None:
    assert validate(message, data) is None


@pytest.mark.parametrize("message, data", BAD)
def test_invalid_messages(message: str, data: dict) -> None:
    assert validate(message, data) is not None


def test_validate_protocol_flag_rejects_a_bad_answer(tmp_path) -> None:
    """With validation on, an answer with both result and skipped is a protocol violation."""
    import sys

    from conformance.harness.transports.process import AdapterFault, ProcessAdapter

    script = tmp_path / "intid.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['cmd'] == 'start':\n"
        "        print(json.dumps({'ok': True, 'protocol': 1, 'implementation': {'name': 'i', 'version': '1'},"
        " 'capabilities': ['perft'], 'rulesets': ['*']}), flush=True)\n"
        "    elif m['cmd'] == 'run':\n"
        "        print(json.dumps({'id': m['id'], 'result': {'nodes': 1}, 'skipped': 'both'}), flush=True)\n"
    )
    adapter = ProcessAdapter([sys.executable, str(script)], validate=True)
    adapter.start()
    with pytest.raises(AdapterFault, match="violates the protocol schema"):
        adapter.run("perft", "fide-2023", {"fen": "x", "depth": 1})
    adapter.stop()
