"""Expected-failure files: known deviations of one implementation, kept outside the corpus.

A YAML (or JSON) mapping from fixture id -- or a glob such as ``san.promotion.*`` --
to either a reason, or ``{reason, versions, rulesets}``:

```yaml
perft.tricky.pos-7.d3: castling rights not cleared when a rook is captured (#123)
game-end.fide-2023.9-6-2.*:
  reason: no 75-move rule before 1.12
  versions: ["<1.12"]          # any of these version specifiers must match
  rulesets: [fide-2023]        # optional: only under these rulesets
```

An entry applies when the implementation's version matches one of ``versions``
(PEP 440 specifiers, e.g. ``>=1.10,<1.12``) and the ruleset is listed (when a list is
given). A listed fixture that fails or errors is ``xfailed``; one that passes is
``xpassed`` (an unexpected pass, which makes the run fail so the entry gets removed).
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from reference_impl.errors import ArbiterError
from reference_impl.rules.yamlio import YamlError, parse_yaml
from reference_impl.text import JsonError, loads_json, quote


class XfailError(ArbiterError):
    """An expected-failure file cannot be read or has a malformed entry."""


@dataclass(frozen=True)
class Entry:
    """One expected failure."""

    pattern: str
    reason: str
    versions: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()


def load(path: str | Path) -> list[Entry]:
    """Read an expected-failure file; errors name the file and the entry."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise XfailError(f"{path}: cannot read expected-failure file ({error.strerror})") from None
    except UnicodeDecodeError:
        raise XfailError(f"{path}: not UTF-8 text") from None
    try:
        data = loads_json(text) if path.suffix == ".json" else parse_yaml(text, str(path))[0]
    except JsonError as error:
        raise XfailError(f"{path}: not valid JSON: {error.reason}") from None
    except YamlError as error:  # malformed, or beyond the YAML limits
        raise XfailError(f"{path}:{error.line}: not valid YAML: {error.reason.removeprefix('invalid YAML: ')}") from None
    return parse(data or {}, str(path))


def parse(data: Any, where: str = "expected failures") -> list[Entry]:
    """Entries from an already-parsed mapping."""
    if not isinstance(data, dict):
        raise XfailError(f"{where}: must be a mapping from fixture id to reason")
    entries = []
    for pattern, value in data.items():
        if isinstance(value, str):
            entries.append(Entry(str(pattern), value))
            continue
        if not isinstance(value, dict) or not isinstance(value.get("reason"), str):
            raise XfailError(f"{where}: entry {quote(pattern)} needs a reason (a string, or a mapping with 'reason')")
        versions = value.get("versions", [])
        rulesets = value.get("rulesets", [])
        if isinstance(versions, str):
            versions = [versions]
        if not isinstance(versions, list) or not all(isinstance(v, str) for v in versions):
            raise XfailError(f"{where}: entry {quote(pattern)}: 'versions' must be a list of specifiers")
        for spec in versions:
            _check_spec(spec, f"{where}: entry {quote(pattern)}")
        if not isinstance(rulesets, list) or not all(isinstance(r, str) for r in rulesets):
            raise XfailError(f"{where}: entry {quote(pattern)}: 'rulesets' must be a list of ids")
        entries.append(Entry(str(pattern), value["reason"], tuple(versions), tuple(rulesets)))
    return entries


def lookup(entries: list[Entry], fixture_id: str, ruleset: str, version: str) -> str | None:
    """The reason a fixture is expected to fail here, or ``None``."""
    for entry in entries:
        if not fnmatchcase(fixture_id, entry.pattern):
            continue
        if entry.rulesets and ruleset not in entry.rulesets:
            continue
        if entry.versions and not any(version_matches(version, s) for s in entry.versions):
            continue
        return entry.reason
    return None


def version_matches(version: str, spec: str) -> bool:
    """Whether ``version`` satisfies a PEP 440 specifier set such as ``>=1.10,<1.12`` (a
    pre-release counts as its version); an implementation whose version PEP 440 cannot
    read (``unknown``) matches no condition."""
    try:
        return SpecifierSet(spec).contains(Version(version), prereleases=True)
    except (InvalidSpecifier, InvalidVersion):
        return False


def _check_spec(spec: str, where: str) -> None:
    try:
        SpecifierSet(spec)
    except InvalidSpecifier:
        raise XfailError(f"{where}: bad version specifier {quote(spec)}") from None


def stale(entries: list[Entry], fixture_ids: list[str]) -> list[str]:
    """Patterns that match no fixture id of the corpus (left over after a rename)."""
    return [e.pattern for e in entries if not any(fnmatchcase(i, e.pattern) for i in fixture_ids)]
