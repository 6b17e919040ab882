"""The audit's own data tables (``data/*.yaml``): read by the project's one YAML reader and
checked against their JSON Schema, each failure one line naming the file and the place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reference_impl.errors import ArbiterError, RulesetError
from reference_impl.rules import checked
from reference_impl.rules.yamlio import read_yaml


def read_checked(path: Path, schema: Path, error: type[ArbiterError]) -> Any:
    """The data of the YAML file ``path``, valid against the schema file ``schema``;
    ``error`` (the table's own error class) with a one-line message otherwise."""
    try:
        data: Any = read_yaml(path)[0]
    except RulesetError as failure:
        raise error(str(failure)) from None

    def check() -> None:
        import jsonschema  # only when the table is checked (a pass is remembered)

        try:
            checker = jsonschema.Draft202012Validator(json.loads(schema.read_text(encoding="utf-8")))
        except (OSError, ValueError) as failure:
            raise error(f"{path}: {failure}") from None
        errors = sorted(checker.iter_errors(data), key=lambda e: list(e.path))
        if errors:
            where = "/".join(str(p) for p in errors[0].path) or "(top)"
            raise error(f"{path}: {where}: {errors[0].message}")

    checked.once(f"audit table {path}", [path, schema, Path(__file__)], check)
    return data
