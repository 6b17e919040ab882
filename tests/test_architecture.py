"""The folders show the architecture, and the imports keep to it (docs/architecture.md).

Every ``import`` in the source, also those inside functions, is read from the syntax
tree: the reference imports nothing of the conformance suite; the harness and the adapter
contract import no implementation and no tool; the implementations import no tool; only
the command line (and the pytest plugin, a command line of its own) brings them together;
Dask is imported by one function of the audit, for ``--scheduler`` alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent

#: package -> packages it must never import (prefixes of dotted names)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "reference_impl": ("conformance",),
    "conformance.adapters": ("conformance.harness", "conformance.implementations", "conformance.tools",
                             "conformance.cli"),
    "conformance.harness": ("conformance.implementations", "conformance.tools", "conformance.cli"),
    "conformance.implementations": ("conformance.tools", "conformance.cli"),
    "conformance.tools": ("conformance.cli",),
}


def modules(package: str) -> Iterator[tuple[str, Path]]:
    folder = ROOT.joinpath(*package.split("."))
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def imports(name: str, path: Path) -> Iterator[tuple[str, int, bool]]:
    """(dotted module, line, at top level) for every import in the file."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno, id(node) in top
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target, node.lineno, id(node) in top
            for alias in node.names:  # ``from conformance import tools``
                yield f"{target}.{alias.name}", node.lineno, id(node) in top


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(package: str) -> None:
    found = [f"{path.relative_to(ROOT)}:{line} imports {target}"
             for name, path in modules(package) for target, line, _ in imports(name, path)
             if any(target == f or target.startswith(f + ".") for f in FORBIDDEN[package])]
    assert not found, found
    assert any(True for _ in modules(package)), f"{package}: no modules found"


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    # The walk finds imports inside functions and relative ones, as a violation would be written.
    path = tmp_path / "runner.py"
    path.write_text("def f():\n    from ..implementations import reference\n")
    found = [t for t, _, top in imports("conformance.harness.runner", path)]
    assert "conformance.implementations" in found


def test_dask_is_imported_only_by_the_audit_scheduler_and_only_when_asked() -> None:
    users = sorted({(str(path.relative_to(ROOT)), line, top)
             for package in ("reference_impl", "conformance") for name, path in modules(package)
             for target, line, top in imports(name, path)
             if target.split(".")[0] in ("dask", "distributed")})
    assert [(p, top) for p, _, top in users] == [("conformance/tools/audit/execute.py", False)], users


def test_audit_scheduler_without_dask_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from conformance.cli import main

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    game = tmp_path / "one.pgn"
    game.write_text('[Result "*"]\n\n1. e4 *\n')
    result = CliRunner().invoke(main, ["audit", "-r", "fide-2023", str(game), "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 3, result.output
    assert "pip install 'chess-arbiter[dask]'" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
