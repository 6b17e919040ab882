"""Scope pages: what each ruleset's tables encode, and what they leave out and why.

A page is made from two sources, so it cannot drift from either: the ruleset's resolved
tables (every entry with its value and article) and ``spec/scope/<document>.yaml``, the
list of the document's articles no table cites, each with a reason from :data:`REASONS`
and a note. :func:`page` renders one ruleset's page, :func:`index` the page that lists
them (``docs/scope.md``); ``arbiter rules scope`` writes them, and
``tests/test_scope_doc.py`` compares the committed pages with these.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from reference_impl.errors import RulesetError

from .articles import borrowing, registry
from .files import Ruleset
from .paths import spec_dir
from .yamlio import read_yaml

#: Why an article is out of the tables: reason -> meaning (the index page's legend).
REASONS: dict[str, str] = {
    "definition": "defines a word or states a principle; the entries that depend on it are cited to the "
                  "articles that decide something",
    "structural": "decided by how the interpreter executes the tables (a rider stops at the first occupied "
                  "square, a move may not leave the own king attacked), not by a value that could be changed",
    "parent": "the entry cites a more precise sub-article, or a heading whose sub-articles are cited",
    "covered elsewhere": "encoded under another citation (typically PGN's SAN standard, which the Appendix C "
                         "rules agree with)",
    "physical": "about hands, the board or the pieces as objects; the protocol sees completed moves, not "
                "how they were made",
    "equipment": "about the chessclock or other devices as objects, or setting them up",
    "recording": "about scoresheets; a game record is input here, not something a player keeps",
    "arbiter": "the arbiter's (director's) judgement or discretion; no fixed outcome follows from the facts "
               "a fixture can state",
    "conduct": "the behaviour of players and others; no move or time decides it",
    "event": "set by the regulations of an event or by the organiser, or about points and pairings",
    "later edition": "a rule a later edition introduced, which this edition does not have",
    "not yet": "could be a table entry and is not yet one; the note says what is missing",
}
#: A row's article is a registered cite when it looks like one (``document:article``).
CITE = re.compile(r"^[a-z0-9][a-z0-9-]*:[A-Za-z0-9][A-Za-z0-9._-]*$")
#: Characters of an entry's rule values shown on a page.
VALUE_WIDTH = 70


@dataclass(frozen=True)
class Row:
    """One article out of the tables: the cite (or a label for parts not in the registry)."""

    article: str
    subject: str
    reason: str
    note: str = ""

    @property
    def is_cite(self) -> bool:
        return bool(CITE.match(self.article))


@dataclass(frozen=True)
class Section:
    heading: str
    rows: tuple[Row, ...]
    before: str = ""
    after: str = ""


@dataclass(frozen=True)
class OutOfScope:
    """``spec/scope/<document>.yaml``."""

    document: str
    heading: str
    intro: str
    sections: tuple[Section, ...]

    def rows(self) -> Iterator[Row]:
        for section in self.sections:
            yield from section.rows


def _text(value: Any, where: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RulesetError(f"{where}: a string is required")
    return value.strip()


def out_of_scope(document: str) -> OutOfScope:
    """The out-of-scope list of ``document``; :class:`RulesetError` naming the file if malformed."""
    path = spec_dir() / "scope" / f"{document}.yaml"
    if not path.is_file():
        raise RulesetError(f"{path}: no scope list for document {document!r}")
    data, _ = read_yaml(path)
    if not isinstance(data, dict) or data.get("document") != document:
        raise RulesetError(f"{path}:1: document must be {document!r}")
    sections = []
    for index, raw in enumerate(data.get("sections") or []):
        where = f"{path}: sections[{index}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("heading"), str):
            raise RulesetError(f"{where}: needs a heading")
        rows = []
        for number, row in enumerate(raw.get("rows") or []):
            here = f"{where}.rows[{number}]"
            if not isinstance(row, dict) or set(row) - {"article", "subject", "reason", "note"}:
                raise RulesetError(f"{here}: keys are article, subject, reason, note")
            if row.get("reason") not in REASONS:
                raise RulesetError(f"{here}: reason {row.get('reason')!r} is not one of {', '.join(REASONS)}")
            rows.append(Row(_text(row.get("article"), here), _text(row.get("subject"), here),
                            str(row["reason"]), _text(row.get("note"), here)))
        sections.append(Section(raw["heading"], tuple(rows), _text(raw.get("before"), where),
                                _text(raw.get("after"), where)))
    return OutOfScope(document, _text(data.get("heading"), str(path)), _text(data.get("intro"), str(path)),
                      tuple(sections))


def document_of(rules: Ruleset) -> str:
    """The document a ruleset's ``scope`` cites: its own edition's text."""
    return str(rules.data["scope"]["cite"]).split(":")[0]


def entries(data: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any, str]]:
    """(entry, rule values, cite) for every ``cite`` and ``<key>_cite`` of a resolved table."""
    for key, value in data.items():
        key = str(key)
        if key == "cite":
            rules = {k: v for k, v in data.items() if not _annotation(str(k)) and not _has_cite(v)}
            yield ".".join(path), rules, str(value)
        elif key.endswith("_cite") and value is not None:
            name = key.removesuffix("_cite")
            yield ".".join(path + (name,)), data.get(name), str(value)
        elif isinstance(value, Mapping):
            yield from entries(value, path + (key,))
        elif isinstance(value, list):
            for index, row in enumerate(value):
                if isinstance(row, Mapping):
                    yield from entries(row, path + (f"{key}[{index}]",))


def _has_cite(value: Any) -> bool:
    """True for a mapping (or list of them) holding entries of its own."""
    if isinstance(value, Mapping):
        return any(str(k) == "cite" or str(k).endswith("_cite") or _has_cite(v) for k, v in value.items())
    return isinstance(value, list) and any(_has_cite(v) for v in value)


def _annotation(key: str) -> bool:
    return key in ("cite", "note") or key.endswith(("_cite", "_note"))


def _shown(value: Any) -> str:
    if isinstance(value, Mapping):
        text = "; ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()) or "(the rule exists)"
    else:
        text = json.dumps(value, ensure_ascii=False) if value is not None else ""
    if len(text) > VALUE_WIDTH:
        text = text[: VALUE_WIDTH - 1].rstrip() + "…"
    return text.replace("|", "\\|")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _article(article: str) -> str:
    return f"`{article}`" if CITE.match(article) else article


def page(rules: Ruleset) -> str:
    """The scope page of the complete ruleset ``rules`` (Markdown)."""
    document = document_of(rules)
    scope = out_of_scope(document)
    known = registry()
    unchanged = borrowing(document).unchanged
    lines = [f"# Scope of `{rules.id}`: {rules.title}", "",
             f"Generated by `arbiter rules scope --write docs/scope` from the resolved tables of `{rules.id}`",
             f"({' -> '.join(rules.chain)}) and `spec/scope/{document}.yaml`; edit those, not this page",
             "(`tests/test_scope_doc.py` compares the two). The reasons are explained in",
             "[the index](../scope.md).", "",
             "## What the tables encode", "",
             "Every entry of the resolved tables that cites an article, with its rule values.", ""]
    if unchanged:
        lines += [f"An article marked *(unchanged)* has the number and wording of the parent edition's, "
                  f"whose entry this table inherits with its cite (`spec/articles/{document}.yaml`).", ""]
    lines += ["| entry | values | article | title |", "|---|---|---|---|"]
    for entry, values, cite in entries(rules.data):
        title = known[cite].title if cite in known else "(not registered)"
        mark = " *(unchanged)*" if cite in unchanged else ""
        lines.append(f"| `{entry}` | {_shown(values)} | `{cite}`{mark} | {_cell(title)} |")
    lines += ["", f"## What the tables leave out: {scope.heading}", ""]
    if scope.intro:
        lines += [scope.intro, ""]
    for section in scope.sections:
        lines += [f"### {section.heading}", ""]
        if section.before:
            lines += [section.before, ""]
        if section.rows:
            lines += ["| article | subject | reason | note |", "|---|---|---|---|"]
            lines += [f"| {_article(r.article)} | {_cell(r.subject)} | {r.reason} | {_cell(r.note)} |"
                      for r in section.rows]
            lines.append("")
        if section.after:
            lines += [section.after, ""]
    return "\n".join(lines).rstrip() + "\n"


def index(rulesets: list[Ruleset]) -> str:
    """``docs/scope.md``: what the pages are, the reasons, and one link per ruleset."""
    lines = ["# Scope: what the tables encode, what they leave out, and why", "",
             "The rule tables (`spec/rulesets/*.yaml`, `spec/notation/*.yaml`) encode what can be decided",
             "from the moves, the clock times and the events of a game: how pieces move, what ends a game,",
             "claims, flags, illegal-move penalties, touch-move, clocks and notation. The Laws say much",
             "more. Each ruleset has a page, generated from its resolved tables (every entry with its",
             "article) and from `spec/scope/<document>.yaml`, the list of its document's articles that no",
             "table cites, each with a reason. An article of the registry (`spec/articles/`) is either",
             "cited by a table (`arbiter rules trace CITE` shows where), inherited unchanged from the",
             "parent edition, or listed with its reason; `tests/test_scope_doc.py` checks it, and that",
             "the committed pages are the generated ones (`arbiter rules scope --write docs/scope`).",
             "Parts of the Laws that are not in the registry are named by number without backquotes.", "",
             "| ruleset | title | document |", "|---|---|---|"]
    lines += [f"| [`{r.id}`](scope/{r.id}.md) | {r.title} | `{document_of(r)}` |" for r in rulesets]
    lines += ["", "## Reasons", "", "| reason | meaning |", "|---|---|"]
    lines += [f"| **{reason}** | {meaning} |" for reason, meaning in REASONS.items()]
    return "\n".join(lines) + "\n"
