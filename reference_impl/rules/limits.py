"""The search budgets: ``spec/limits.yaml``, apart from the Laws.

The Laws ask questions with no limit on the thinking ("can this side checkmate by any
series of legal moves?", FIDE 5.2.2 and 6.9, US Chess 14D; "does the opponent have a
forced win?", US Chess 14E2 and 14E3). The reference answers them with searches that
stop after a number of moves made; those numbers are not rules, so they live in their
own table with its own schema (``spec/schema/limits.schema.json``) and are read here
only, by :func:`read_table`, into the model's ``limits`` (:class:`.model.Limits`). A ruleset may override single entries in a ``limits:``
section of the same shape (the shipped ones do not).

>>> limits_of(load_ruleset("uscf-7")).forced_win.node_limit
150000
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from reference_impl.errors import RulesetError

from . import checked
from .files import Ruleset
from .model import Limits, Model
from .yamlio import LineMap, format_path, read_yaml

#: The file of budgets, inside the spec directory.
LIMITS_FILE = "limits.yaml"
#: Its schema; ``#/$defs/table`` is the file in full, ``#`` a ruleset's overriding section.
LIMITS_SCHEMA = "limits.schema.json"


@lru_cache(maxsize=4)
def read_table(directory: Path) -> tuple[Mapping[str, Any], LineMap]:
    """The limits table of the spec ``directory``, checked against ``#/$defs/table``
    (every budget stated), with the line of each key."""
    path = directory / LIMITS_FILE
    if not path.is_file():
        raise RulesetError(f"{path}: the search budgets file is missing")
    data, lines = read_yaml(path)

    def check() -> None:
        from jsonschema import Draft202012Validator

        from .schema import BASE_URI, registry

        schema = Draft202012Validator({"$ref": f"{BASE_URI}{LIMITS_SCHEMA}#/$defs/table"},
                                      registry=registry(directory / "schema"))
        for error in schema.iter_errors(data):
            where = tuple(error.absolute_path)
            raise RulesetError(f"{path}:{lines.line(where)}: {format_path(where)}: {error.message}")

    checked.once(f"limits {path}", [path, directory / "schema" / LIMITS_SCHEMA], check)
    return data, lines


def limits_of(rules: Ruleset | Model) -> Limits:
    """The budgets for ``rules``: ``spec/limits.yaml``, then the ruleset's ``limits:``
    section entry by entry (read into the model by :mod:`.reader`)."""
    return (rules if isinstance(rules, Model) else rules.model).limits
