"""Read fixture files (JSON Lines) and check each line.

A bad line stops the run before anything is sent to an adapter: a corpus with a
broken fixture gives numbers nobody can trust. Every bad line is reported as
``FILE:LINE: reason``; :class:`FixtureError` carries them all (exit status 1).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from reference_impl.errors import ArbiterError, quote
from reference_impl.text import JsonError, loads_json

from conformance.adapters.base import KINDS
from .compare import FIELDS
from .rulesets import canonical, concrete_rulesets

#: The default corpus: ``conformance/fixtures/*.jsonl``.
DEFAULT_DIR = Path(__file__).resolve().parent.parent / "fixtures"
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "fixture.schema.json"
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
#: How many bad lines the error message shows before "and N more".
_SHOW_ERRORS = 5

Fixture = dict[str, Any]


class FixtureError(ArbiterError):
    """One or more fixture lines are malformed; ``problems`` lists ``file:line: reason``."""

    def __init__(self, problems: list[str]) -> None:
        shown = "; ".join(problems[:_SHOW_ERRORS])
        more = f" (and {len(problems) - _SHOW_ERRORS} more)" if len(problems) > _SHOW_ERRORS else ""
        super().__init__(f"bad fixture: {shown}{more}")
        self.problems = problems


@dataclass
class Corpus:
    """The fixtures read, in file order, with where each came from and a revision."""

    fixtures: list[Fixture] = field(default_factory=list)
    origins: dict[str, str] = field(default_factory=dict)  # id -> "file:line"
    revision: str = ""


def fixture_files(paths: Iterable[str | Path]) -> list[Path]:
    """Expand files and directories (``*.jsonl`` inside, sorted) into a file list."""
    files: list[Path] = []
    for entry in paths:
        path = Path(entry)
        if path.is_dir():
            files.extend(sorted(path.glob("*.jsonl")))
        elif path.is_file():
            files.append(path)
        else:
            raise FixtureError([f"{path}: no such file or directory"])
    return files


def load(paths: Iterable[str | Path] | None = None, validate: bool = False) -> Corpus:
    """Read every fixture under ``paths`` (default: the shipped corpus).

    ``validate`` also checks each line against ``fixture.schema.json`` when that
    schema exists (thorough but slow: about 1.7 ms a line); the structural checks of
    :func:`check` always run.
    """
    files = fixture_files(paths if paths else [DEFAULT_DIR])
    corpus = Corpus()
    problems: list[str] = []
    digest = hashlib.sha256()
    validator = _schema_validator() if validate else None
    for path in files:
        data = path.read_bytes()
        digest.update(path.name.encode() + b"\0" + data + b"\0")
        for number, raw in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
            if not raw.strip():
                continue
            where = f"{path}:{number}"
            fixture, problem = parse_line(raw, validator)
            if problem is None and fixture["id"] in corpus.origins:
                problem = f"duplicate id {fixture['id']!r} (first at {corpus.origins[fixture['id']]})"
            if problem is not None:
                problems.append(f"{where}: {problem}")
                continue
            corpus.origins[fixture["id"]] = where
            corpus.fixtures.append(fixture)
    if problems:
        raise FixtureError(problems)
    corpus.revision = "sha256:" + digest.hexdigest()[:16]
    return corpus


def parse_line(raw: str, validator: Any = None) -> tuple[Fixture, str | None]:
    """Parse one line; return the fixture and ``None``, or ``{}`` and the reason."""
    try:
        fixture = loads_json(raw)
    except JsonError as error:  # malformed, or beyond the limits on nesting and numbers
        return {}, error.reason
    problem = check(fixture)
    if problem is None and validator is not None:
        invalid = next(iter(validator.iter_errors(fixture)), None)
        if invalid is not None:
            path = "/".join(str(p) for p in invalid.absolute_path) or "(top)"
            problem = f"schema: at {path}: {invalid.message}"
    return (fixture, problem) if problem is None else ({}, problem)


def check(fixture: Any) -> str | None:
    """The structural checks the runner relies on; ``None`` if the fixture passes."""
    if not isinstance(fixture, dict):
        return "a fixture must be a JSON object"
    ident = fixture.get("id")
    if not isinstance(ident, str) or not ID_PATTERN.match(ident):
        return f"'id' must be dotted lower-case words, got {quote(ident)}"
    kind = fixture.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        return f"{ident}: unknown kind {quote(kind)} (protocol v1 kinds: {', '.join(KINDS)})"
    if not isinstance(fixture.get("input"), dict):
        return f"{ident}: 'input' must be an object"
    rulesets = fixture.get("rulesets")
    if not isinstance(rulesets, list) or not rulesets or not all(isinstance(r, str) for r in rulesets):
        return f"{ident}: 'rulesets' must be a non-empty list of ruleset ids"
    by_ruleset = fixture.get("expect_by_ruleset")
    if "expect" not in fixture and not isinstance(by_ruleset, dict):
        return f"{ident}: needs 'expect' or 'expect_by_ruleset'"
    if "expect" in fixture and not isinstance(fixture["expect"], dict):
        return f"{ident}: 'expect' must be an object"
    if by_ruleset is not None and not (
        isinstance(by_ruleset, dict) and all(isinstance(v, dict) for v in by_ruleset.values())
    ):
        return f"{ident}: 'expect_by_ruleset' must map ruleset ids to objects"
    unknown = next((r for r in [*rulesets, *(by_ruleset or {})] if not _known_ruleset(r)), None)
    if unknown is not None:
        return f"{ident}: unknown ruleset {quote(unknown)} (not in spec/; '*' means every orthodox ruleset)"
    for expected in [fixture.get("expect") or {}, *(by_ruleset or {}).values()]:
        stray = next((name for name in expected if name not in FIELDS[kind]), None)
        if stray is not None:
            return (f"{ident}: 'expect' field {quote(stray)} is not a {kind} result field "
                    f"({', '.join(FIELDS[kind])})")
    for name in ("cites", "tags"):
        value = fixture.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"{ident}: {name!r} must be a list of strings"
    return None


def _known_ruleset(ident: str) -> bool:
    """``"*"``, a built-in ruleset id, or an alias of one."""
    return ident == "*" or ident in concrete_rulesets() or canonical(ident) in concrete_rulesets()


def expectation(fixture: Fixture, ruleset: str) -> dict[str, Any] | None:
    """The expected result under ``ruleset``: ``expect_by_ruleset`` first, then ``expect``."""
    by_ruleset = fixture.get("expect_by_ruleset") or {}
    if ruleset in by_ruleset:
        return by_ruleset[ruleset]
    return fixture.get("expect")


@lru_cache(maxsize=1)
def _schema_validator() -> Any:
    if not SCHEMA_PATH.is_file():
        return None
    from jsonschema import Draft202012Validator

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return Draft202012Validator(schema)
