"""The reference adapter declares everything protocol v1 defines, unconditionally.

A kind that vanished from the declaration when its interpreter module failed to import
used to turn into ``unsupported`` results and a green run; now the declaration is the
protocol schema's list of kinds, and every built-in ruleset.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from conformance.implementations.reference import ReferenceAdapter
from conformance.harness.protocol import SCHEMA_DIR
from reference_impl.rules import list_rulesets

ADAPTER_SOURCE = (Path(__file__).resolve().parent.parent / "conformance" / "implementations"
                  / "reference.py")


def schema_kinds() -> set[str]:
    """The kinds of conformance/schema/protocol/kinds.json: definitions with input and result."""
    defs = json.loads((SCHEMA_DIR / "kinds.json").read_text(encoding="utf-8"))["$defs"]
    return {name for name, body in defs.items() if {"input", "result"} <= set(body)}


def test_the_schema_defines_the_kinds() -> None:
    kinds = schema_kinds()
    assert {"perft", "timeout", "dead_position", "from_notation"} <= kinds
    assert "fen" not in kinds  # a shared definition, not a kind


def test_reference_declares_every_kind_of_the_protocol_schema() -> None:
    adapter = ReferenceAdapter()
    info = adapter.start()
    try:
        assert set(info.capabilities) == schema_kinds()
    finally:
        adapter.stop()


def test_reference_declares_every_built_in_ruleset() -> None:
    info = ReferenceAdapter().start()
    assert set(info.rulesets) == {r.id for r in list_rulesets()}
    assert {"fide-2023", "uscf-7", "fide-2023-chess960"} <= set(info.rulesets)


def test_reference_adapter_has_no_import_fallback() -> None:
    """No ``except ImportError`` (or broader) around an import: a broken module must show."""
    tree = ast.parse(ADAPTER_SOURCE.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            guards_import = any(isinstance(n, (ast.Import, ast.ImportFrom)) for s in node.body for n in ast.walk(s))
            assert not guards_import, f"line {node.lineno}: an import inside try"
