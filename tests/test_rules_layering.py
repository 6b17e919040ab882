"""The ruleset modules import in one direction: files <- validate <- loader.

:mod:`reference_impl.rules.files` reads and merges ruleset files, :mod:`.validate` checks
what it reads, :mod:`.loader` names, validates and caches. A module that imported one
above it (at the top or inside a function) would bring back the circle the loader and
the validator once had.
"""

from __future__ import annotations

import ast
from pathlib import Path

import reference_impl.rules as rules

ORDER = ["files", "validate", "loader"]


def _imported(module: str) -> set[str]:
    tree = ast.parse((Path(rules.__file__).parent / f"{module}.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level == 1:
                found.add(name.split(".")[0])
            elif name.startswith("reference_impl.rules."):
                found.add(name.split(".")[2])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("reference_impl.rules."):
                    found.add(alias.name.split(".")[2])
    return found


def test_each_ruleset_module_imports_only_those_below_it() -> None:
    for index, module in enumerate(ORDER):
        above = set(ORDER[index + 1 :])
        assert not _imported(module) & above, f"{module} imports {sorted(_imported(module) & above)}"


def test_each_public_name_is_defined_where_it_is_offered() -> None:
    # The loader offers its own functions only: the file-reading names live in .files
    # (no re-export to keep two ways of importing the same thing).
    from reference_impl.rules import files, loader

    assert loader.__all__ and all(getattr(loader, name).__module__ == loader.__name__ for name in loader.__all__)
    assert not {"Library", "chain_of", "resolve_chain"} & set(vars(loader))
    assert files.Ruleset.__module__ == files.__name__
