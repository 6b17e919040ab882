"""Failures grouped into classes, and the reasons results were not judged (pure).

Six thousand failures are usually a handful of bugs. A class is the failures of one
kind, citing the same articles, whose messages have the same *signature*: the message
with FENs, moves, squares and numbers replaced by placeholders (:data:`PLACEHOLDERS`),
so ``nodes: expected 20, got 21`` and ``nodes: expected 97862, got 97863`` fall together.
Skip reasons are grouped the same way, per kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: (pattern, placeholder), applied in this order; the first ones are the most specific
PLACEHOLDERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"[pnbrqkPNBRQK1-8]{1,8}(?:/[pnbrqkPNBRQK1-8]{1,8}){7}(?: [wb](?: [^\s'\",]+){0,4})?"), "<fen>"),
    (re.compile(r"(?<![\w-])[a-h][1-8][a-h][1-8][qrbnQRBN]?(?![\w-])"), "<move>"),
    (re.compile(r"(?<![\w-])(?:O-O(?:-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h]x[a-h][1-8](?:=?[QRBN])?"
                r"|[a-h][1-8]=?[QRBN])[+#]?(?![\w-])"), "<san>"),
    (re.compile(r"(?<![\w-])[a-h][1-8](?![\w-])"), "<square>"),
    (re.compile(r"(?<![\w<])\d+(?:\.\d+)?"), "<n>"),
)
#: a run of one placeholder (a list, perhaps cut with "... (N in all)") becomes one
_RUN = re.compile(r"<(\w+)>(?:, <\1>)*(?:, \.\.\. \(<n> in all\))?")
#: longest signature kept
MAX_SIGNATURE = 200
#: example fixture ids kept per class
EXAMPLES = 3


def signature(message: object) -> str:
    """``message`` with its particulars replaced by placeholders (see module docstring)."""
    text = " ".join(str(message if message is not None else "").split())
    for pattern, placeholder in PLACEHOLDERS:
        text = pattern.sub(placeholder, text)
    text = _RUN.sub(r"<\1>", text)
    return text if len(text) <= MAX_SIGNATURE else text[: MAX_SIGNATURE - 3] + "..."


@dataclass
class FailureClass:
    """Results of one kind, citing the same articles, with the same message signature."""

    kind: str
    cites: tuple[str, ...]
    signature: str
    statuses: dict[str, int] = field(default_factory=dict)  #: status -> results
    results: int = 0
    fixtures: set[str] = field(default_factory=set)
    examples: list[str] = field(default_factory=list)  #: up to :data:`EXAMPLES` fixture ids

    def add(self, result: Mapping[str, Any]) -> None:
        """Count one result of this class."""
        ident, status = str(result.get("id")), str(result.get("status"))
        self.results += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if ident not in self.fixtures and len(self.examples) < EXAMPLES:
            self.examples.append(ident)
        self.fixtures.add(ident)

    def as_record(self) -> dict[str, Any]:
        """The class as plain JSON data."""
        return {"kind": self.kind, "cites": list(self.cites), "signature": self.signature,
                "statuses": dict(self.statuses), "results": self.results,
                "fixtures": len(self.fixtures), "examples": list(self.examples)}


def _cites(result: Mapping[str, Any]) -> tuple[str, ...]:
    cites = result.get("cites")
    return tuple(sorted(str(c) for c in cites)) if isinstance(cites, list) else ()


def classify(results: Iterable[Mapping[str, Any]], with_cites: bool = True) -> list[FailureClass]:
    """The classes of ``results``, largest first (ties in order of first appearance).

    ``with_cites=False`` groups by kind and signature only (the skip reasons).
    """
    found: dict[tuple[str, tuple[str, ...], str], FailureClass] = {}
    for result in results:
        kind, cites = str(result.get("kind")), _cites(result) if with_cites else ()
        key = (kind, cites, signature(result.get("message")))
        group = found.get(key)
        if group is None:
            group = found[key] = FailureClass(kind, cites, key[2])
        group.add(result)
    return sorted(found.values(), key=lambda c: -c.results)

