"""One Markdown draft per failure class, to paste into an implementation's issue tracker.

``drafts(records) -> list[Draft]`` is pure; ``write(drafts, folder)`` saves them. Each
draft names the rule (the cited articles with their titles from the citation registry,
``spec/articles/``), shows the class's smallest failing fixture (:func:`smallest`: fewest
moves, then fewest pieces) as a FEN and a text board with its move(s), what the Laws
give and what the implementation answered, the command that reproduces it, and how
many fixtures the class holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference_impl.errors import ArbiterError
from reference_impl.rules import articles

from . import ReportError
from .classes import FailureClass, Grouping
from .html import parse_placement, position_after
from .summary import Record, compact, describe_adapter, move_difference, summarize

#: Input fields that carry the move(s) a fixture plays, in the order shown.
MOVE_FIELDS: tuple[str, ...] = ("moves", "move", "san", "text", "events")
#: Cites listed per draft (the most frequent in the class first).
MAX_CITES = 5
#: Fixture ids listed per draft.
MAX_IDS = 20
#: Longest answer shown whole; longer ones are cut.
MAX_ANSWER = 600


@dataclass(frozen=True)
class Draft:
    """One class's draft: a file name and its Markdown text."""

    name: str
    title: str
    text: str


def size(result: Mapping[str, Any]) -> tuple[int, int, int]:
    """(moves, pieces, depth) of a result's input: the smaller the easier to read."""
    given = result.get("input")
    data: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    moves = sum(len(data[f]) if isinstance(data.get(f), list) else 1
                for f in MOVE_FIELDS if data.get(f) is not None)
    fen = data.get("fen")
    pieces = sum(c.isalpha() for c in fen.split()[0]) if isinstance(fen, str) and fen.strip() else 99
    depth = data.get("depth")
    return moves, pieces, depth if isinstance(depth, int) else 0


def smallest(group: FailureClass) -> Mapping[str, Any]:
    """The class's result with the fewest moves, then pieces, then perft depth, then the shortest id."""
    return min(group.members, key=lambda r: (*size(r), len(str(r.get("id"))), str(r.get("id"))))


def text_board(fen: str) -> str | None:
    """A FEN's placement as eight lines of letters (White upper case, ``.`` empty), rank 8 first."""
    board = parse_placement(fen)
    if board is None:
        return None
    lines = [f"{8 - index} " + " ".join(piece or "." for piece in rank) for index, rank in enumerate(board)]
    return "\n".join(lines + ["  a b c d e f g h"])


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe form of a class's signature."""
    words = re.sub(r"[^a-z0-9]+", "-", re.sub(r"<\w+>", "", text.lower())).strip("-")
    if len(words) > limit:  # cut at a word's end
        words = words[: limit + 1].rsplit("-", 1)[0] if "-" in words[:limit] else words[:limit]
    return words or "class"


def _cite_line(cite: str, count: int, total: int) -> str:
    document, _, number = cite.partition(":")
    try:
        entry = articles.registry().get(cite)
        title = articles.documents().get(document, "")
    except (ArbiterError, OSError):
        entry, title = None, ""
    where = f"{title}, article {number}" if title and number else (title or cite)
    text = f"- {where}" + (f": {entry.title}" if entry and entry.title else "") + f" (`{cite}`)"
    return text + (f", cited by {count} of the {total} results" if count != total else "")


def _answer(value: object) -> str:
    text = compact(value)
    return text if len(text) <= MAX_ANSWER else text[:MAX_ANSWER] + " ..."


def _moves_text(data: Mapping[str, Any]) -> list[str]:
    out = []
    for name in MOVE_FIELDS:
        value = data.get(name)
        if value is None:
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            out.append(f"- {name}: `{' '.join(value)}`" if value else f"- {name}: none")
        else:
            out.append(f"- {name}: `{_answer(value)}`")
    out += [f"- {key}: `{_answer(value)}`" for key, value in data.items() if key not in (*MOVE_FIELDS, "fen")]
    return out


def _answers(result: Mapping[str, Any], name: str) -> list[str]:
    difference = move_difference(result)
    expect = result.get("expect")
    if difference is not None and isinstance(expect, Mapping):
        missing, extra = difference
        moves = expect.get("moves")
        count = len(moves) if isinstance(moves, list) else 0
        return [f"**The Laws give** {count} legal move{'s' if count != 1 else ''}.",
                f"**{name} answered** {'without ' + ', '.join(f'`{m}`' for m in missing) if missing else 'all of them'}"
                + (f", and also {', '.join(f'`{m}`' for m in extra)}" if extra else "") + "."]
    return [f"**The Laws give:** `{_answer(result.get('expect'))}`",
            f"**{name} answered:** `{_answer(result.get('actual'))}`"
            + (" (no answer: it errored)" if result.get("status") == "errored" else "")]


def _quote(arg: str) -> str:
    return arg if re.fullmatch(r"[\w@%+=:,./-]+", arg) else "'" + arg.replace("'", "'\"'\"'") + "'"


def draft(group: FailureClass, header: Mapping[str, Any], number: int) -> Draft:
    """The Markdown draft of one class (``number`` orders the file names)."""
    given_adapter = header.get("adapter")
    adapter: Mapping[str, Any] = given_adapter if isinstance(given_adapter, Mapping) else {}
    name = str(adapter.get("name") or "the implementation")
    spec = str(adapter.get("spec") or adapter.get("name") or "SPEC")
    result = smallest(group)
    given = result.get("input")
    data: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    ident, ruleset = str(result.get("id")), str(result.get("ruleset"))
    fixtures = len(group.fixtures)
    who = " ".join(str(adapter.get(k)) for k in ("name", "version") if adapter.get(k)) or name
    kinds = [kind for kind, _ in group.kinds.most_common()]
    where = group.kind if len(kinds) <= 2 else f"{', '.join(kinds[:2])} and {len(kinds) - 2} more kinds"
    title = f"{who}, {where}: {group.title}"
    lines = [f"# {title}", "",
             f"{fixtures} fixture{'s' if fixtures != 1 else ''} ({group.results} result"
             f"{'s' if group.results != 1 else ''}) of Arbiter's conformance corpus, kind "
             f"{', '.join(f'`{k}`' for k in kinds)}, show this "
             + ("crash" if group.crash else "difference from the Laws of Chess") + ".", ""]
    if group.sites:
        lines += ["Raised in " + ", ".join(f"`{s}` ({n})" for s, n in group.sites.most_common()) + ".", ""]
    if group.cited:
        lines += ["## Rule" if not group.crash else "## Articles the fixtures test", ""]
        lines += [_cite_line(c, n, group.results) for c, n in group.cited.most_common(MAX_CITES)]
        if len(group.cited) > MAX_CITES:
            lines.append(f"- and {len(group.cited) - MAX_CITES} more")
        lines.append("")
    lines += [f"## Smallest case: `{ident}` ({ruleset})", ""]
    if result.get("description"):
        lines += [str(result["description"]), ""]
    fen = data.get("fen")
    if isinstance(fen, str):
        lines += [f"Position: `{fen}`", ""]
        board = text_board(fen)
        if board:
            lines += ["```", board, "```", ""]
    moves = _moves_text(data)
    if moves:
        lines += ["Input:", "", *moves, ""]
    played = data.get("moves")
    if isinstance(fen, str) and isinstance(played, list) and played:
        after = position_after(ruleset, fen, played)
        board = text_board(after) if after else None
        if after and board:
            lines += [f"After the {len(played)} move{'s' if len(played) != 1 else ''}: `{after}`", "",
                      "```", board, "```", ""]
    lines += _answers(result, name) + [""]
    if result.get("message"):
        lines += [f"Arbiter's message: `{result['message']}`", ""]
    lines += ["## Reproduce", "", "With Arbiter (the Laws of Chess as executable data and a conformance suite):", "",
              "```sh", f"arbiter run --adapter {_quote(spec)} --id {_quote(ident)} --ruleset {_quote(ruleset)}",
              "```", ""]
    ids = sorted(group.fixtures)
    lines += [f"## All {fixtures} fixture{'s' if fixtures != 1 else ''}", "",
              ", ".join(f"`{i}`" for i in ids[:MAX_IDS])
              + (f", and {fixtures - MAX_IDS} more" if fixtures > MAX_IDS else ""), ""]
    return Draft(f"{number:02d}-{slug(group.title)}.md", title, "\n".join(lines))


def drafts(records: Iterable[Record], by: Grouping = "cause") -> list[Draft]:
    """A draft per failure class of a report, largest class first."""
    summary = summarize(records)
    return [draft(group, summary.header, number)
            for number, group in enumerate(summary.classes_by(by), start=1)]


def index(found: list[Draft], header: Mapping[str, Any]) -> str:
    """``README.md`` of a findings folder: one line per draft."""
    lines = [f"# Findings for {describe_adapter(header)}", ""]
    lines += [f"{n}. [{d.title}]({d.name})" for n, d in enumerate(found, start=1)]
    return "\n".join(lines) + "\n"


def write(found: list[Draft], header: Mapping[str, Any], folder: str | Path) -> list[Path]:
    """Save each draft and an index into ``folder`` (created); ReportError if it cannot."""
    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for item in found:
            path = out / item.name
            path.write_text(item.text, encoding="utf-8")
            paths.append(path)
        (out / "README.md").write_text(index(found, header), encoding="utf-8")
    except OSError as error:
        raise ReportError(f"{folder}: cannot write findings ({error.strerror or error})") from None
    return paths

