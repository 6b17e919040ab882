"""What a failure says about its cause, read from one result record (pure).

A message names what differed (``moves: unexpected a6a4``); grouping by its signature
alone puts every extra move in one class and splits one crash by the articles its
fixtures cite. This module gives a result its *cause* (:func:`cause_of`):

* an ``errored`` result is a crash or a broken answer whatever the kind: its cause is
  the exception line (the last line of a Python traceback, the first of a JavaScript
  stack, a Rust panic), or else the whole message, with paths cut to file names
  (:func:`crash_signature`); the innermost frame is kept apart as the crash's *site*;
* a ``failed`` result keeps its kind, and its message is sharpened where the fixture
  shows more than the message: the moves a move list lacks or adds are named by what
  they are (:data:`MOVE_CATEGORIES`: castling, en passant, a pawn's double step...),
  one *reading* per kind of difference; a node count says whether it is too high or
  too low; a SAN answer says how it differs (a check mark missing, another
  disambiguation); a decisive result is named by who wins (``expected ½-½, got a
  win``), the colour being the fixture's. The fields of the expectation that set the scene
  (``reason: dead_position`` for a draw) are kept beside it (:func:`expectation_gist`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.harness.positions import BadFen, read

#: What a move is, tested in this order on the moving piece (see :func:`move_category`).
MOVE_CATEGORIES: tuple[str, ...] = (
    "move from an empty square",
    "castling",
    "king move",
    "en passant capture",
    "pawn double step",
    "pawn double step from beyond its initial rank",
    "promotion",
    "pawn move",
    "piece move",
)
#: The rank (0-7) a pawn of each colour double-steps from.
PAWN_START_RANK: dict[bool, int] = {True: 1, False: 6}
#: A SAN answer's parts: piece, disambiguation, capture, destination, promotion, suffix.
SAN = re.compile(r"^(?P<piece>[KQRBN]?)(?P<from>[a-h]?[1-8]?)(?P<capture>x?)(?P<to>[a-h][1-8])"
                 r"(?P<promotion>(?:=?[QRBN])?)(?P<suffix>[+#]?)$")
#: Castling in SAN (letter O or digit 0), with its suffix.
SAN_CASTLING = re.compile(r"^(?P<body>[O0]-[O0](?:-[O0])?)(?P<suffix>[+#]?)$")
#: A Python traceback's innermost frame: ``File "x.py", line 12, in name``.
PY_FRAME = re.compile(r'File "(?P<file>[^"]+)", line \d+, in (?P<name>[\w<>.]+)')
#: A JavaScript stack frame: ``at name (file:line:col)`` or ``at file:line:col``.
JS_FRAME = re.compile(r"\bat (?:(?P<name>[\w$.<>\[\] ]+?) \()?(?P<file>(?:file://)?[/\\\w.:-]+?):\d+:\d+\)?")
#: The line naming an exception or a panic.
EXCEPTION_LINE = re.compile(
    r"(?:^|(?<=[\s|:;]))(?P<line>(?:(?:[A-Z][\w.]*)?(?:Error|Exception|Exit|Interrupt|Fault)(?=:|\s|$)"
    r"|panicked at\b)[^|\n]*)")
#: A file path as stack traces print it: absolute (POSIX or Windows) with any line and
#: column, or relative with its line (``src/board.rs:12:5``; a FEN has no ``:line``).
PATH = re.compile(r"(?<![\w.@+-])(?:file://)?(?:[A-Za-z]:)?(?:[/\\][\w.@+-]+)+(?::\d+)*"
                  r"|(?<![\w/])[\w.@+-]+(?:[/\\][\w.@+-]+)+:\d+(?::\d+)?")
#: A set difference of words (``claimable: missing a, b; unexpected c``): one reading per word.
SET_DIFFERENCE = re.compile(r"(?P<field>claimable|declarable): (?P<parts>(?:missing|unexpected) [\w, ]+"
                            r"(?:; unexpected [\w, ]+)?)")
#: A decisive result in a message, quoted as the harness quotes it.
DECISIVE = re.compile(r"'(1-0|0-1)'")
#: The prefix the harness gives an error the adapter reported itself.
REPORTED = "adapter reported an error: "
#: What the harness appends to a fault after it restarted the adapter (not part of the crash).
RESTARTED = re.compile(r"; (?:adapter killed and restarted|engine killed, it restarts for the next fixture)$")
#: Expectation fields never shown as scene: positions, move lists, counts, clocks.
NOT_SCENE: frozenset[str] = frozenset({"fen", "moves", "nodes", "clock_ms", "helpmate", "move", "san",
                                       "text", "claimable", "declarable"})


@dataclass(frozen=True)
class Cause:
    """The part of a result that decides its class when grouping by cause."""

    crash: bool  #: an errored result: grouped across kinds
    readings: tuple[str, ...]  #: the message as a class may show it (several when it names several differences)
    expected: str = ""  #: the scene the expectation sets (:func:`expectation_gist`), or ""
    site: str = ""  #: a crash's innermost frame (function, file), or ""

    @property
    def message(self) -> str:
        """The first reading."""
        return self.readings[0]


def cause_of(result: Mapping[str, Any]) -> Cause:
    """The cause of one failed, errored or xpassed result (module docstring)."""
    message = str(result.get("message") or "")
    if result.get("status") == "errored":
        text, site = crash_signature(message)
        return Cause(True, (text,), "", site or "")
    return Cause(False, readings(result, message), expectation_gist(result.get("expect"), message))


def crash_signature(message: str) -> tuple[str, str | None]:
    """An errored result's message reduced to what one crash has in common everywhere,
    and the innermost frame it names (None if none).

    ``adapter reported an error: TypeError: x at f (/a/b.js:3:9)`` and the same error
    from another fixture and kind both give ``TypeError: x`` and the frame ``f``; a
    message without an exception line keeps its text, paths cut to their file name.
    """
    text = message[len(REPORTED):] if message.startswith(REPORTED) else message
    text = RESTARTED.sub("", text)
    exception = None
    for exception in EXCEPTION_LINE.finditer(text):
        pass  # the last one: a traceback names the exception last
    if exception is None:
        return _without_paths(text), None
    line = _without_paths(exception.group("line")).strip(" ;|")
    line = re.split(r"\s+at\s+(?=[\w$.<>\[\] ]+ \(|\S+:\d+:\d+)", line)[0].strip()
    return line, _innermost_frame(text)


def _innermost_frame(text: str) -> str | None:
    """The function where the exception was raised: a traceback's last frame, a stack's first."""
    python = PY_FRAME.findall(text)
    if python:
        file, name = python[-1]
        return f"{name}, {_basename(file)}"
    script = JS_FRAME.search(text)
    if script:
        return script.group("name") or _basename(script.group("file"))
    return None


def _without_paths(text: str) -> str:
    """``text`` with each file path cut to its file name and line numbers dropped."""
    return PATH.sub(lambda m: _basename(re.sub(r"(?::\d+)+$", "", m.group(0))), text)


def _basename(path: str) -> str:
    return re.split(r"[/\\]", path)[-1]


def expectation_gist(expect: object, message: str = "") -> str:
    """The expectation's fields that set the scene, as ``reason: dead_position``.

    Booleans, nulls and short words only (not positions, moves, counts or lists), and
    not the field the message is about (it shows that one already).
    """
    if not isinstance(expect, Mapping):
        return ""
    lacking = re.match(r"result lacks the field '(\w+)'", message)
    named = lacking.group(1) if lacking else message.split(":", 1)[0].strip()
    parts = []
    for key in sorted(expect):
        value = expect[key]
        if key == named or key in NOT_SCENE:
            continue
        if value is None or isinstance(value, bool):
            parts.append(f"{key}: {'null' if value is None else str(value).lower()}")
        elif isinstance(value, str) and re.fullmatch(r"[\w/.*-]{1,40}", value):
            parts.append(f"{key}: {value}")
    return ", ".join(parts)


def readings(result: Mapping[str, Any], message: str) -> tuple[str, ...]:
    """A failed result's message with what the fixture shows about the difference: one
    reading per difference when it shows several (``missing en passant capture``,
    ``unexpected pawn double step``), else one."""
    kind, expect, actual = result.get("kind"), result.get("expect"), result.get("actual")
    given = result.get("input")
    if not isinstance(expect, Mapping) or not isinstance(actual, Mapping):
        return (message,)
    if kind == "legal_moves" and message.startswith("moves: ") and isinstance(given, Mapping):
        described = _described_difference(given.get("fen"), expect.get("moves"), actual.get("moves"))
        return tuple(f"moves: {part}" for part in described) or (message,)
    if kind == "perft" and message.startswith("nodes: "):
        want, got = expect.get("nodes"), actual.get("nodes")
        if isinstance(want, int) and isinstance(got, int) and not isinstance(got, bool):
            return (f"nodes: {'too many' if got > want else 'too few'} ({message[len('nodes: '):]})",)
    if kind == "san" and message.startswith("san: "):
        how = san_difference(expect.get("san"), actual.get("san"))
        return (f"san: {how}",) if how else (message,)
    if DECISIVE.search(message):
        return (colour_neutral(message),)
    listed = SET_DIFFERENCE.fullmatch(message)
    if listed and "..." not in message:
        return tuple(f"{listed.group('field')}: {word} {item}"
                     for part in listed.group("parts").split("; ")
                     for word, items in [part.split(" ", 1)] for item in items.split(", "))
    return (message,)


def colour_neutral(message: str) -> str:
    """``message`` with decisive results named by who wins, not by colour: the first
    ``'1-0'`` or ``'0-1'`` becomes ``a win``, a later one ``a win`` again if it is the
    same result or ``the other side's win`` if not. Which colour wins is the fixture's
    (which side flagged or mated), not the cause's."""
    first: list[str] = []

    def name(found: re.Match[str]) -> str:
        if not first:
            first.append(found.group(1))
            return "a win"
        return "a win" if found.group(1) == first[0] else "the other side's win"

    return DECISIVE.sub(name, message)


def _described_difference(fen: object, want: object, got: object) -> list[str]:
    """``missing castling``, ``unexpected king move``, ... for two move lists (empty if unreadable)."""
    if not isinstance(fen, str) or not isinstance(want, list) or not isinstance(got, list):
        return []
    if len(set(map(str, got))) != len(got):
        return []  # a move listed twice: the message says so already
    try:
        grid = read(fen).identity.placement
    except BadFen:
        return []
    parts = []
    for word, moves in (("missing", set(map(str, want)) - set(map(str, got))),
                        ("unexpected", set(map(str, got)) - set(map(str, want)))):
        kinds = {move_category(grid, move) for move in moves}
        parts += [f"{word} {k}" for k in MOVE_CATEGORIES if k in kinds]
        parts += [f"{word} {k}" for k in sorted(kinds - set(MOVE_CATEGORIES))]
    return parts


def move_category(grid: Sequence[str | None], move: str) -> str:
    """What a UCI move is in a position (one of :data:`MOVE_CATEGORIES`, or ``not a UCI move``)."""
    found = re.fullmatch(r"([a-h])([1-8])([a-h])([1-8])([qrbn]?)", move)
    if found is None:
        return "not a UCI move"
    from_file, from_rank = ord(found.group(1)) - 97, int(found.group(2)) - 1
    to_file, to_rank = ord(found.group(3)) - 97, int(found.group(4)) - 1
    piece, target = grid[from_file + 8 * from_rank], grid[to_file + 8 * to_rank]
    if piece is None:
        return MOVE_CATEGORIES[0]
    white = piece.isupper()
    if piece in "Kk":
        own_rook = target == ("R" if white else "r")
        return "castling" if own_rook or (abs(to_file - from_file) == 2 and to_rank == from_rank) else "king move"
    if piece in "Pp":
        if to_file != from_file and target is None:
            return "en passant capture"
        if abs(to_rank - from_rank) == 2:
            return "pawn double step" if from_rank == PAWN_START_RANK[white] else MOVE_CATEGORIES[5]
        return "promotion" if found.group(5) or to_rank in (0, 7) else "pawn move"
    return "piece move"


def san_difference(want: object, got: object) -> str | None:
    """How a SAN answer differs from the expected one, in words, or None if unclear."""
    if not isinstance(want, str) or not isinstance(got, str):
        return None
    a, b = _san_parts(want), _san_parts(got)
    if a is None or b is None:
        return None
    if a["suffix"] != b["suffix"] and {k: v for k, v in a.items() if k != "suffix"} == \
            {k: v for k, v in b.items() if k != "suffix"}:
        mark = {"+": "check mark", "#": "checkmate mark"}
        if not b["suffix"]:
            return f"{mark[a['suffix']]} missing"
        if not a["suffix"]:
            return f"{mark[b['suffix']]} where none is due"
        return f"{mark[b['suffix']]} instead of {mark[a['suffix']]}"
    same_but = [k for k in a if a[k] != b[k]]
    if same_but == ["from"]:
        return "another disambiguation" if a["from"] and b["from"] else \
            ("disambiguation missing" if a["from"] else "disambiguation where none is needed")
    if same_but == ["castling"]:
        return "castling spelt otherwise"
    if same_but == ["promotion"]:
        return "promotion spelt otherwise"
    return None


def _san_parts(text: str) -> dict[str, str] | None:
    castling = SAN_CASTLING.fullmatch(text)
    if castling:
        return {"castling": castling.group("body"), "piece": "K", "from": "", "capture": "", "to": "",
                "promotion": "", "suffix": castling.group("suffix")}
    move = SAN.fullmatch(text)
    if move is None:
        return None
    return {"castling": "", **move.groupdict()}
