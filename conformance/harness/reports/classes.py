"""Failures grouped into classes, and the reasons results were not judged (pure).

Six thousand failures are usually a handful of bugs. Two groupings (``docs/reports.md``):

* **by cause** (the default): the failures of one kind whose messages, sharpened by
  :mod:`.causes`, have the same *signature* and whose expectations set the same scene,
  whatever articles their fixtures cite; and every errored result with the same crash
  signature, whatever its kind and wherever it was raised. One bug, one class. A result
  that shows several differences (a move list with an extra castling and a missing en
  passant capture) is filed under the one fewest results of the report show: the rarer
  symptom is the one that needs it as evidence.
* **by cite**: the failures of one kind, citing the same articles, with the same
  message signature (the view per article).

A signature is the message with FENs, moves, squares and numbers replaced by
placeholders (:data:`PLACEHOLDERS`), so ``nodes: expected 20, got 21`` and
``nodes: expected 97862, got 97863`` fall together; game results, ruleset ids and
articles are kept (``result: expected ½-½, got 1-0``). Skip reasons are grouped by
kind and signature (``by="reason"``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .causes import Cause, cause_of

#: What :func:`classify` groups by.
Grouping = Literal["cause", "cite", "reason"]
GROUPINGS: tuple[str, ...] = ("cause", "cite")
#: Text kept as it stands before the placeholders apply: game results (``1/2-1/2`` is
#: shown ``½-½``; quotes around a result go), ruleset ids and cited articles.
KEPT: tuple[re.Pattern[str], ...] = (
    re.compile(r"'(?:1-0|0-1|1/2-1/2|\*)'|(?<![\w/.-])(?:1-0|0-1|1/2-1/2)(?![\w/.-])"),
    re.compile(r"(?<![\w-])[a-z]+-\d+(?:-[a-z0-9]+)*(?::[0-9A-Za-z][\w.]*)?"),
)
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
#: stands for kept text while the placeholders apply (a private-use character)
_MARK = "\ue000"
#: longest signature kept
MAX_SIGNATURE = 200
#: example fixture ids kept per class
EXAMPLES = 3


def signature(message: object) -> str:
    """``message`` with its particulars replaced by placeholders (see module docstring)."""
    text = " ".join(str(message if message is not None else "").split())
    kept: list[str] = []

    def keep(found: re.Match[str]) -> str:
        kept.append(found.group(0).strip("'").replace("1/2-1/2", "\u00bd-\u00bd"))
        return f"{_MARK}{len(kept) - 1}{_MARK}"

    text = text.replace(_MARK, "")
    for pattern in KEPT:
        text = pattern.sub(keep, text)
    for pattern, placeholder in PLACEHOLDERS:
        text = _sub_outside_marks(pattern, placeholder, text)
    text = _RUN.sub(r"<\1>", text)
    text = re.sub(f"{_MARK}(\\d+){_MARK}", lambda m: kept[int(m.group(1))], text)
    return text if len(text) <= MAX_SIGNATURE else text[: MAX_SIGNATURE - 3] + "..."


def _sub_outside_marks(pattern: re.Pattern[str], placeholder: str, text: str) -> str:
    """``pattern.sub(placeholder, text)`` leaving the marks of kept text alone."""
    pieces = re.split(f"({_MARK}\\d+{_MARK})", text)
    return "".join(piece if piece.startswith(_MARK) else pattern.sub(placeholder, piece) for piece in pieces)


@dataclass
class FailureClass:
    """Results grouped by :func:`classify`: one kind (or, for a crash, every kind it
    occurred in), one signature and, by cause, one expectation scene."""

    kind: str  #: the kind, or the kinds of a crash joined with ", ", most results first
    cites: tuple[str, ...]  #: by cite: the cites; by cause: every cite met, most often first
    signature: str
    expected: str = ""  #: by cause: the scene the expectation sets (``reason: dead_position``)
    crash: bool = False  #: by cause: errored results, grouped across kinds
    by: str = "cause"  #: the grouping that formed the class (:data:`GROUPINGS` or ``reason``)
    statuses: dict[str, int] = field(default_factory=dict)  #: status -> results
    results: int = 0
    fixtures: set[str] = field(default_factory=set)
    examples: list[str] = field(default_factory=list)  #: up to :data:`EXAMPLES` fixture ids
    kinds: Counter[str] = field(default_factory=Counter)  #: kind -> results
    cited: Counter[str] = field(default_factory=Counter)  #: cite -> results
    sites: Counter[str] = field(default_factory=Counter)  #: by cause, a crash's innermost frames -> results
    members: list[Mapping[str, Any]] = field(default_factory=list, repr=False)  #: the results

    def add(self, result: Mapping[str, Any]) -> None:
        """Count one result of this class."""
        ident, status = str(result.get("id")), str(result.get("status"))
        self.results += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if ident not in self.fixtures and len(self.examples) < EXAMPLES:
            self.examples.append(ident)
        self.fixtures.add(ident)
        self.kinds[str(result.get("kind"))] += 1
        self.cited.update(_cites(result))
        self.members.append(result)

    def as_record(self) -> dict[str, Any]:
        """The class as plain JSON data."""
        return {"kind": self.kind, "kinds": dict(self.kinds.most_common()), "cites": list(self.cites),
                "signature": self.signature, "expected": self.expected, "crash": self.crash,
                "sites": dict(self.sites.most_common()),
                "statuses": dict(self.statuses), "results": self.results,
                "fixtures": len(self.fixtures), "examples": list(self.examples)}

    @property
    def title(self) -> str:
        """One line naming the class: signature and, by cause, the expectation's scene."""
        return f"{self.signature} (where {self.expected})" if self.expected else self.signature


def _cites(result: Mapping[str, Any]) -> tuple[str, ...]:
    cites = result.get("cites")
    return tuple(sorted(str(c) for c in cites)) if isinstance(cites, list) else ()


def _key(result: Mapping[str, Any], by: Grouping, cause: Cause | None, chosen: str) -> tuple[Any, ...]:
    kind = str(result.get("kind"))
    if by == "cite":
        return (kind, _cites(result), signature(result.get("message")), "", False)
    if by == "reason" or cause is None:
        return (kind, (), signature(result.get("message")), "", False)
    if cause.crash:
        return ("", (), chosen, "", True)
    return (kind, (), chosen, signature(cause.expected), False)


def _reading(cause: Cause) -> list[str]:
    """A cause's readings as signatures; in a crash's, a move, SAN or square is ``<arg>``
    (the argument a failing call was given, whatever its form)."""
    if cause.crash:
        return [re.sub(r"<(?:move|san|square)>", "<arg>", signature(cause.message))]
    return [signature(text) for text in cause.readings]


def classify(results: Iterable[Mapping[str, Any]], by: Grouping = "cause") -> list[FailureClass]:
    """The classes of ``results``, largest first (ties in order of first appearance).

    ``by``: ``cause`` (default), ``cite`` (kind x cites x signature) or ``reason``
    (kind x signature: the skip reasons).
    """
    if by not in ("cause", "cite", "reason"):
        raise ValueError(f"unknown grouping {by!r}; expected one of cause, cite, reason")
    listed = list(results)
    causes = [cause_of(r) if by == "cause" else None for r in listed]
    readings = [_reading(c) if c is not None else [""] for c in causes]
    seen = Counter((str(r.get("kind")), text) for r, texts in zip(listed, readings) for text in set(texts))
    found: dict[tuple[Any, ...], FailureClass] = {}
    for result, cause, texts in zip(listed, causes, readings):
        kind = str(result.get("kind"))
        chosen = min(texts, key=lambda text: (seen[(kind, text)], texts.index(text)))
        key = _key(result, by, cause, chosen)
        group = found.get(key)
        if group is None:
            group = found[key] = FailureClass(key[0], key[1], key[2], expected=key[3], crash=key[4], by=by)
        group.add(result)
        if cause is not None and cause.site:
            group.sites[cause.site] += 1
    for group in found.values():
        if by == "cause":
            group.kind = ", ".join(kind for kind, _ in group.kinds.most_common())
            group.cites = tuple(cite for cite, _ in group.cited.most_common())
    return sorted(found.values(), key=lambda c: -c.results)
