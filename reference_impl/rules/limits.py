"""The search budgets: ``spec/limits.yaml``, apart from the Laws.

The Laws ask questions with no limit on the thinking ("can this side checkmate by any
series of legal moves?", FIDE 5.2.2 and 6.9, US Chess 14D; "does the opponent have a
forced win?", US Chess 14E2 and 14E3). The reference answers them with searches that
stop after a number of moves made; those numbers are not rules, so they live in their
own table with its own schema (``spec/schema/limits.schema.json``) and are read here
only, by :func:`limits_of`. A ruleset may override single entries in a ``limits:``
section of the same shape (the shipped ones do not).

>>> limits_of(load_ruleset("uscf-7")).forced_win_node_limit
150000
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from reference_impl.errors import RulesetError

from . import checked
from .paths import spec_dir
from .yamlio import format_path, read_yaml

#: The file of budgets, inside the spec directory.
LIMITS_FILE = "limits.yaml"
#: Its schema; ``#/$defs/table`` is the file in full, ``#`` a ruleset's overriding section.
LIMITS_SCHEMA = "limits.schema.json"
#: Field of :class:`Limits` -> its key path in the table.
FIELDS: dict[str, tuple[str, str]] = {
    "dead_position_node_limit": ("dead_position", "node_limit"),
    "move_node_limit": ("dead_position", "move_node_limit"),
    "flag_fall_node_limit": ("flag_fall", "node_limit"),
    "forced_win_node_limit": ("forced_win", "node_limit"),
}


@dataclass(frozen=True)
class Limits:
    """The budgets of one ruleset, in moves made (the keys of :data:`FIELDS`)."""

    #: ``dead_position.node_limit``: an explicit dead-position question (the
    #: ``dead_position`` kind, resignation and illegal moves under FIDE 5.1.2 / 7.5.5).
    dead_position_node_limit: int
    #: ``dead_position.move_node_limit``: the check after every move of a game.
    move_node_limit: int
    #: ``flag_fall.node_limit``: FIDE 6.9's helpmate search per flag fall.
    flag_fall_node_limit: int
    #: ``forced_win.node_limit``: US Chess 14E2/14E3's forced-win search per flag fall.
    forced_win_node_limit: int


@lru_cache(maxsize=4)
def _table(directory: Path) -> Mapping[str, Mapping[str, int]]:
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
    return data


def limits_of(rules: Mapping[str, Any]) -> Limits:
    """The budgets for ``rules``: ``spec/limits.yaml``, then the ruleset's ``limits:``
    section entry by entry (the ruleset schema validates that section)."""
    table = _table(spec_dir())
    own = rules.get("limits") or {}
    values = {}
    for name, (section, key) in FIELDS.items():
        value = (own.get(section) or {}).get(key)
        values[name] = int(table[section][key] if value is None else value)
    return Limits(**values)
