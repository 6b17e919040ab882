"""JSON Schema (2020-12) validators for ruleset files, built from ``spec/schema/``.

Two validators share one schema: ``full`` for a resolved ruleset, and ``partial`` for
a file as written, which states only differences, so ``required`` and
``minProperties`` are not enforced there (and null values, which remove a key, are
stripped before it runs).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from reference_impl.errors import RulesetError

from .paths import spec_dir

#: Base URI under which every file of spec/schema/ is registered.
BASE_URI = "https://chess-arbiter.invalid/schema/"
ROOT_SCHEMA = "ruleset.schema.json"


def _skip(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    return iter(())


PartialValidator = validators.extend(  # type: ignore[no-untyped-call, unused-ignore]  # untyped in jsonschema's stubs
    Draft202012Validator, {"required": _skip, "minProperties": _skip}
)


@lru_cache(maxsize=4)
def registry(directory: Path) -> Registry:
    """Every schema file of ``directory``, registered under :data:`BASE_URI`."""
    resources = []
    for path in sorted(directory.glob("*.schema.json")):
        try:
            contents = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise RulesetError(f"{path}: unreadable schema: {error}") from None
        resource = Resource.from_contents(contents, default_specification=DRAFT202012)
        resources.append((BASE_URI + path.name, resource))
    found: Registry = Registry().with_resources(resources)
    return found


@lru_cache(maxsize=4)
def _validators(directory: Path) -> tuple[Draft202012Validator, Draft202012Validator]:
    schemas = registry(directory)
    try:
        root = schemas.contents(BASE_URI + ROOT_SCHEMA)
    except LookupError:
        raise RulesetError(f"{directory / ROOT_SCHEMA}: schema file missing") from None
    root = dict(root, **{"$id": BASE_URI + ROOT_SCHEMA})
    full = Draft202012Validator(root, registry=schemas)
    partial = PartialValidator(root, registry=schemas)
    return full, partial


def schema_errors(instance: Any, partial: bool) -> list[tuple[tuple[str | int, ...], str]]:
    """(key path, message) for every schema violation of ``instance``."""
    full_v, partial_v = _validators(spec_dir() / "schema")
    validator = partial_v if partial else full_v
    out: list[tuple[tuple[str | int, ...], str]] = []
    for error in sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
        if error.validator in ("oneOf", "anyOf") and error.context:
            error = best_match(error.context)
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            out.extend((path + (key,), f"unknown key {key!r}") for key in _extra_keys(error))
        else:
            out.append((path, _short(error)))
    return out


def _extra_keys(error: ValidationError) -> list[str]:
    schema = error.schema if isinstance(error.schema, dict) else {}
    known = schema.get("properties") or {}
    patterns = list((schema.get("patternProperties") or {}).keys())
    instance = error.instance if isinstance(error.instance, dict) else {}
    return [str(k) for k in instance if k not in known and not any(re.search(p, str(k)) for p in patterns)]


def _short(error: ValidationError) -> str:
    message = str(error.message)
    return message if len(message) <= 160 else message[:157] + "..."
