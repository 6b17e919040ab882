"""PGN reading and writing as text (pgn:8): tags, movetext, comments, variations, NAGs.

:func:`iter_games` reads lines as they come, cuts them into games (a tag line after
movetext starts the next game, outside brace comments) and tokenizes each game alone, so
memory follows the largest game, not the file; :func:`read_games` does the same for a
string. Moves stay as the strings written (SAN or whatever the file holds), with their
suffix annotations turned into NAGs (pgn:8.2.3.8). Every malformed construct becomes a
:class:`~reference_impl.notation.errors.PgnError` in ``game.errors`` naming the game,
the line, the move and the reason (at most :data:`MAX_ERRORS` per game); a broken game
never stops the games after it. Tokenizing is linear in the text, unclosed ``{`` too.
:func:`write_game` produces export format: the seven tag roster first, in order, then the
other tags in ASCII order, movetext wrapped below 80 characters (pgn:4.3, pgn:8.1.1).

Departures from the standard that real exports make and that lose nothing (a ``*`` stuck
to the last move, a NAG opening a variation, ``10+0.05`` as a TimeControl, a FEN tag with
fullmove number 0, ...) are repaired and named in ``game.repairs`` (the kinds of
:data:`REPAIRS`); read with ``strict=True`` each is an error naming its kind instead.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from reference_impl.errors import quote
from reference_impl.text import NumberError, parse_int

from .errors import PgnError, clip
from .nags import glyph_to_nag, suffix_to_nag
from .tables import derived, result_markers, suffix_annotations, table

#: Errors kept per game; the rest are counted in one closing error.
MAX_ERRORS = 20
#: The departures from the standard the reader repairs, each counted once per game in
#: :attr:`PgnGame.repairs`, with what it accepts and what the game is read as. Read with
#: ``strict=True`` each is an error naming its kind instead.
REPAIRS: dict[str, str] = {
    "result_on_move": "a termination marker written onto the last move (Nc6*, Qh4#0-1): the move, then the marker",
    "nag_before_move": "a NAG before the first move of a variation or of the game (ChessBase: ($1 2. d4)): "
                       "given to that move",
    "printed_result": "a printed result (½-½, 1/2, 1:0, 1–0; results.yaml aliases) as the termination marker "
                      "or in the Result tag: read as the PGN marker",
    "missing_result": "movetext that ends without a termination marker: the Result tag's result is taken "
                      "(only where the game text is complete: another game follows or the text ends a line)",
    "time_control_dialect": "a TimeControl as engine-match tools write it: fractional seconds (10+0.05), an "
                            "increment on a moves/seconds period (40/60+0.6), seconds per move (0.5/move), "
                            "'inf' (read as '-')",
    "fen_missing_clocks": "a FEN tag without the halfmove clock and fullmove number (EPD style): 0 and 1 supplied",
    "fen_fullmove_zero": "a FEN tag with fullmove number 0: read as 1",
    "fen_en_passant_clock": "a FEN tag with an en passant square and a non-zero halfmove clock: the square is "
                            "dropped where no pawn stands ready to capture there, else the clock read as 0 "
                            "(the double step reset it)",
    "en_passant_token": "an e.p. mark written as a token of its own after the move (exd6 e.p.): dropped",
    "check_mark_token": "a check or mate mark written apart from its move (Qxf7 #): joined to it",
    "comment_after_result": "a comment after the termination marker (1-0 {time}), before the next game: given to "
                            "the game's last move",
    "ellipsis_number": "a move number written with the ellipsis character (12… Nf6, 12…Nf6)",
    "null_move_in_variation": "a null move (--, Z0, 0000) in a variation, as analysis writes it: kept as written "
                              "(in the main line a null move stays an error: the game cannot be judged)",
    "tag_inner_quotes": "a tag value with unescaped double quotes ([Event \"The \"Big\" Open\"]): the text "
                        "between the first and the last quote",
    "byte_order_mark": "a byte-order mark inside the stream (files joined after export): dropped",
}
#: Null moves as programs write them, with who writes them (pgn:8.2.3 has none).
NULL_MOVES = {"0000": "UCI notation", "--": "as ChessBase and Scid write it", "Z0": "another null-move spelling"}
#: Tokens that look like a move number but are a null move in another notation.
_NULL_MOVE_RE = re.compile(r"0+")
_ELLIPSIS = "\u2026"
_NUMBER_RE = re.compile(r"\d+\.*")
_TAG_ESCAPE_RE = re.compile(r"\\(.)")

_TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<escape>(?m:^%[^\n]*))
  | (?P<tag>\[[ \t]*(?P<tname>[A-Za-z0-9_+#=:-]+)[ \t]*"(?P<tval>[^"\\\n]*(?:\\.[^"\\\n]*)*)"[ \t]*\])
  | (?P<badtag>\[[^\]\n]*\]?)
  | (?P<linecomment>;[^\n]*)
  | (?P<nag>\$\d+)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[\s()\[\]{};]|$))
  | (?P<number>\d+(?:[ \t]*\.)+|\d+(?=\s))
  | (?P<bom>\ufeff)
  | (?P<symbol>[^\s{}()\[\];$"]+)
  | (?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)
#: A whole tag pair, as the tokenizer reads it (used to cut a stream into games).
_TAG_RE = re.compile(r'\[[ \t]*[A-Za-z0-9_+#=:-]+[ \t]*"[^"\\\n]*(?:\\.[^"\\\n]*)*"[ \t]*\]|\[[^\]\n]*\]?')
_SCAN_RE = re.compile(r"[{;\[]")
#: A tag pair whose value holds unescaped quotes: the value runs to the last quote.
_LOOSE_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z0-9_+#=:-]+)[ \t]*"(.*)"[ \t]*\]')
#: The byte-order mark (U+FEFF).
BOM = "\ufeff"


@dataclass
class PgnMove:
    """One move of a line, as written, with what annotates it."""

    text: str
    line: int
    nags: list[int] = field(default_factory=list)
    comments_before: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    variations: list[list["PgnMove"]] = field(default_factory=list)
    suffix: str | None = None


@dataclass
class PgnGame:
    """One game: tags in file order, the main line, the result, the errors found and the
    repairs made (kinds of :data:`REPAIRS`, each once, in the order met; a repaired tag
    holds the standard form: the Result tag ``1/2-1/2`` for ``½-½``, the FEN as read)."""

    index: int
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[PgnMove] = field(default_factory=list)
    comment: list[str] = field(default_factory=list)
    result: str | None = None
    errors: list[PgnError] = field(default_factory=list)
    repairs: tuple[str, ...] = ()

    @property
    def fen(self) -> str | None:
        """The starting FEN from the SetUp/FEN tags (pgn:9.7), or ``None`` for the array."""
        fen = self.tags.get("FEN")
        if fen is None or self.tags.get("SetUp", "1") == "0":
            return None
        return fen.strip()

    @property
    def chess960(self) -> bool:
        """Whether the Variant tag names Chess960."""
        names = {v.lower() for v in table("pgn")["supplemental"]["Variant"]["chess960"]}
        return self.tags.get("Variant", "").strip().lower() in names

    def san(self) -> list[str]:
        """The main-line move texts."""
        return [m.text for m in self.moves]

    def move_label(self, ply: int) -> str:
        """``"12."`` or ``"12..."`` for the main-line ply (0-based), from the start FEN."""
        fullmove, black = start_number(self.fen)
        ply += 1 if black else 0
        return f"{fullmove + ply // 2}{'...' if ply % 2 else '.'}"


def start_number(fen: str | None) -> tuple[int, bool]:
    """(fullmove number, Black to move) of a FEN for numbering moves; 1 when unreadable."""
    if not fen:
        return 1, False
    fields = fen.split()
    black = len(fields) > 1 and fields[1] == "b"
    try:
        fullmove = max(1, parse_int(fields[5], "fullmove number")) if len(fields) > 5 else 1
    except NumberError:
        fullmove = 1
    return fullmove, black


class _Reader:
    """Turns the tokens of one piece of text into games (numbered and lined from offsets)."""

    def __init__(self, text: str, first_index: int = 1, first_line: int = 1, strict: bool = False) -> None:
        self.text = text
        self.strict = strict
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.first_index, self.first_line = first_index, first_line
        self.games: list[PgnGame] = []
        self.game: PgnGame | None = None
        self.stack: list[list[PgnMove]] = []
        self.pending: list[str] = []
        self.in_movetext = False
        self.dropped = 0  # errors of the current game beyond MAX_ERRORS
        self.prefix_nags: list[int] = []  # NAGs met before the first move of the current line

    def line_of(self, pos: int) -> int:
        return bisect_right(self.newlines, pos) + self.first_line

    def start(self, pos: int) -> PgnGame:
        game = PgnGame(index=len(self.games) + self.first_index, line=self.line_of(pos))
        self.games.append(game)
        self.game, self.stack, self.pending, self.in_movetext = game, [game.moves], [], False
        self.dropped, self.prefix_nags = 0, []
        return game

    def current(self, pos: int) -> PgnGame:
        return self.game if self.game is not None else self.start(pos)

    def error(self, pos: int, reason: str, move: str | None = None, game: PgnGame | None = None) -> None:
        game = game or self.current(pos)
        if len(game.errors) >= MAX_ERRORS:
            self.dropped += 1
            return
        if move is None and game.moves:
            last = len(game.moves) - 1
            move = f"after {game.move_label(last)} {clip(game.moves[last].text)}"
        game.errors.append(PgnError(game.index, reason, move=move, line=self.line_of(pos)))

    def repair(self, pos: int, kind: str, what: str, move: str | None = None, game: PgnGame | None = None) -> None:
        """Count the repair ``kind`` (of :data:`REPAIRS`) on ``game`` (the current one by
        default); under strict reading an error saying ``what`` departs instead."""
        assert kind in REPAIRS, kind
        if self.strict:
            self.error(pos, f"{what} (not repaired under strict reading: {kind})", move, game)
            return
        game = game or self.current(pos)
        if kind not in game.repairs:
            game.repairs += (kind,)

    def unplaced_nags(self, pos: int) -> None:
        """NAGs before a move that never came: an error, as without the repair."""
        if self.prefix_nags:
            self.error(pos, f"NAG {quote(f'${self.prefix_nags[0]}')} before any move")
            self.prefix_nags = []

    def finish(self, pos: int, result: str | None, complete: bool = False) -> None:
        """Close the current game at ``pos`` with the marker ``result``; ``complete``: the
        next game's tags follow (the text is no truncated record)."""
        game = self.game
        if game is None:
            return
        self.unplaced_nags(pos)
        if len(self.stack) > 1:
            self.error(pos, f"{len(self.stack) - 1} variation(s) not closed with ')'")
        if self.pending:
            target = game.moves[-1].comments if game.moves else game.comment
            target.extend(self.pending)
        for kind, what, name, value in tag_repairs(game.tags):
            if self.strict:
                game.errors.append(PgnError(game.index, f"{what} (not repaired under strict reading: {kind})",
                                            line=game.line))
            elif kind not in game.repairs:
                game.repairs += (kind,)
            if value is not None:
                game.tags[name] = value
        for reason in tag_problems(game.tags):
            game.errors.append(PgnError(game.index, reason, line=game.line))
        tag = game.tags.get("Result")
        if result is None and tag in result_markers() and (complete or self.text.endswith("\n")):
            self.repair(pos, "missing_result", f"movetext ends without a result; the Result tag has {tag}")
            result = tag
        game.result = result
        if result is None:
            self.error(pos, "movetext ends without a result (1-0, 0-1, 1/2-1/2 or *)")
        elif tag in result_markers() and tag != result:
            self.error(pos, f"termination marker {result} differs from the Result tag {quote(game.tags['Result'])}")
        if self.dropped:
            game.errors.append(PgnError(game.index, f"{self.dropped} more problem(s) not listed", line=game.line))
        self.game = None

    def last_move(self) -> PgnMove | None:
        line = self.stack[-1]
        return line[-1] if line else None

    def run(self) -> list[PgnGame]:
        text = self.text
        last_close = text.rfind("}")  # a '{' after it is never closed: no search needed
        pos, end = 0, len(text)
        while pos < end:
            if text[pos] == "{":
                close = text.find("}", pos + 1) if pos < last_close else -1
                self.comment(pos, text[pos + 1 : close] if close >= 0 else None)
                pos = close + 1 if close >= 0 else pos + 1
                continue
            m = _TOKEN_RE.match(text, pos)
            assert m is not None  # the last alternative matches any character
            kind, pos = m.lastgroup, m.end()
            if kind != "ws":
                self.token(kind, m)
        if self.game is not None:
            self.finish(len(text), None)
        return self.games

    def token(self, kind: str | None, m: re.Match[str]) -> None:
        pos = m.start()
        if kind == "escape":  # escape lines: pgn:6
            return
        if kind == "tag":
            if self.in_movetext:
                self.finish(pos, None, complete=True)
            game = self.current(pos)
            name, value = m.group("tname"), m.group("tval")
            if "\\" in value:
                value = _TAG_ESCAPE_RE.sub(r"\1", value)
            if name in game.tags:
                self.error(pos, f"tag {quote(name)} given twice")
            game.tags[name] = value
        elif kind == "badtag":
            loose = _LOOSE_TAG_RE.fullmatch(m.group())
            if loose is None:
                self.error(pos, f"malformed tag pair {quote(m.group())}")
                return
            if self.in_movetext:
                self.finish(pos, None, complete=True)
            game = self.current(pos)
            self.repair(pos, "tag_inner_quotes", f"tag pair {quote(m.group())} has unescaped quotes")
            if loose.group(1) in game.tags:
                self.error(pos, f"tag {quote(loose.group(1))} given twice")
            game.tags[loose.group(1)] = loose.group(2)
        elif kind == "linecomment":
            if not self.after_result(pos, m.group()[1:].strip()):
                self.current(pos)
                self.pending.append(m.group()[1:].strip())
        elif kind == "symbol" and m.group() in _result_aliases():
            marker = _result_aliases()[m.group()]
            self.current(pos)
            self.repair(pos, "printed_result", f"termination marker {m.group()!r} is not PGN; read as {marker}")
            self.result(pos, marker)
        elif kind == "result":
            self.current(pos)
            self.result(pos, m.group())
        elif kind == "bom":
            self.repair(pos, "byte_order_mark", "a byte-order mark inside the text")
        else:
            self.current(pos)
            self.in_movetext = True
            self.movetext(kind, m, pos)

    def result(self, pos: int, marker: str) -> None:
        """The termination marker ``marker`` at ``pos`` ends the game."""
        if len(self.stack) > 1:
            self.error(pos, f"result {marker} inside a variation; variations closed here")
            del self.stack[1:]
        self.finish(pos, marker)

    def comment(self, pos: int, body: str | None) -> None:
        """A brace comment starting at ``pos``; ``body`` is ``None`` when never closed."""
        if body is None:
            self.error(pos, "comment '{' is never closed")
            return
        if "\n\n[" in body:
            self.error(pos, "comment '{' runs into the next game's tags")
        if self.game is not None or not self.after_result(pos, body.strip()):
            self.current(pos)
            self.pending.append(body.strip())

    def after_result(self, pos: int, text: str) -> bool:
        """Give a comment after a game's marker, before the next game's tags, to that
        game's last move (repair ``comment_after_result``); whether it was one."""
        closed = self.games[-1] if self.game is None and self.games else None
        if closed is None or not self.in_movetext:
            return False
        self.repair(pos, "comment_after_result", "a comment after the termination marker", game=closed)
        (closed.moves[-1].comments if closed.moves else closed.comment).append(text)
        return True

    def movetext(self, kind: str | None, m: re.Match[str], pos: int) -> None:
        token = m.group()
        last = self.last_move()
        if kind == "number":
            if _NULL_MOVE_RE.fullmatch(token):
                self.null_move(token, pos, last)
            return
        if kind == "nag":
            try:
                value = parse_int(token[1:], "NAG", max_digits=3)
                if value > table("nags")["max"]:
                    raise NumberError("above the maximum")
            except NumberError:
                self.error(pos, f"NAG {quote(token)} out of range $0..$255", move=clip(last.text) if last else None)
                return
            if last is None:
                where = "a variation" if len(self.stack) > 1 else "the game"
                self.repair(pos, "nag_before_move", f"NAG {quote(token)} before the first move of {where}")
                self.prefix_nags.append(value)
                return
            last.nags.append(value)
        elif kind == "open":
            if self.prefix_nags:
                self.unplaced_nags(pos)
            if last is None:
                self.error(pos, "variation '(' before any move")
            elif self.pending:
                last.comments.extend(self.pending)
                self.pending = []
            variation: list[PgnMove] = []
            if last is not None:
                last.variations.append(variation)
            self.stack.append(variation)
        elif kind == "close":
            if self.prefix_nags:
                self.unplaced_nags(pos)
            if len(self.stack) == 1:
                self.error(pos, "')' without an open variation")
            else:
                if self.pending:
                    target = self.stack[-1][-1].comments if self.stack[-1] else []
                    target.extend(self.pending)
                    self.pending = []
                self.stack.pop()
        elif kind == "symbol":
            if token[0].isalpha() and token[-1] not in "*." and "-" not in token and "/" not in token and token != "Z0":
                self.add_move(token, pos, last)  # a move, as most symbols are: no repair can apply
            else:
                self.symbol(token, pos, last)
        else:
            self.error(pos, f"unexpected character {quote(token)}")

    def symbol(self, token: str, pos: int, last: PgnMove | None) -> None:
        """A symbol token that may be no move: a glyph, a null move, a move number, a
        marker written onto a move, an e.p. mark; a move else."""
        end = token[-1]
        if end in "*012" and token.endswith(result_markers()) and self.result_on_move(token, pos, last):
            return
        if not token[0].isalpha():  # a glyph, a null move or a move number; a move else
            glyphs = glyph_to_nag()
            if token in glyphs and not token[0].isalnum():
                if last is None:
                    self.error(pos, f"annotation {quote(token)} before any move")
                else:
                    last.nags.append(glyphs[token])
                return
            if _NULL_MOVE_RE.fullmatch(token) or token in NULL_MOVES:
                self.null_move(token, pos, last)
                return
            if last is not None and token in _check_marks():
                self.repair(pos, "check_mark_token", f"check or mate mark {quote(token)} apart from its move",
                            move=clip(last.text))
                last.text += token
                return
            if _NUMBER_RE.fullmatch(token):
                return
            number = _ELLIPSIS_NUMBER_RE.match(token)
            if number is not None:
                self.repair(pos, "ellipsis_number", f"move number {quote(number.group())} written with '…'")
                if number.end() < len(token):
                    self.symbol(token[number.end():], pos, last)
                return
        elif end == "." and token in _en_passant_marks():
            if last is None:
                self.error(pos, f"en passant mark {quote(token)} before any move")
            else:
                self.repair(pos, "en_passant_token", f"en passant mark {quote(token)} apart from its move",
                            move=clip(last.text))
            return
        elif token == "Z0":
            self.null_move(token, pos, last)
            return
        self.add_move(token, pos, last)

    def result_on_move(self, token: str, pos: int, last: PgnMove | None) -> bool:
        """Read ``Nc6*`` as the move ``Nc6`` and the marker ``*``; whether ``token`` was one."""
        for marker in result_markers():
            head = token[: -len(marker)]
            if token.endswith(marker) and head and head[-1] in _MOVE_ENDS:
                self.repair(pos, "result_on_move", f"termination marker {marker} written onto the move {quote(token)}")
                self.symbol(head, pos, last)
                self.result(pos, marker)
                return True
        return False

    def null_move(self, token: str, pos: int, last: PgnMove | None) -> None:
        """A null move: kept as written in a variation, an error in the main line."""
        how = NULL_MOVES.get(token, NULL_MOVES["0000"])
        if len(self.stack) == 1:
            self.error(pos, f"{token!r} is a null move ({how}), not a PGN move")
            return
        self.repair(pos, "null_move_in_variation", f"null move {token!r} ({how}) in a variation")
        self.add_move(token, pos, last)

    def add_move(self, token: str, pos: int, last: PgnMove | None) -> None:
        """The move ``token`` (with its suffix annotation) at the end of the current line."""
        suffix = next((s for s in suffix_annotations() if token.endswith(s) and len(token) > len(s)), None)
        text = token[: -len(suffix)] if suffix else token
        move = PgnMove(text=text, line=self.line_of(pos), suffix=suffix)
        if self.prefix_nags:
            move.nags += self.prefix_nags
            self.prefix_nags = []
        if suffix:
            move.nags.append(suffix_to_nag()[suffix])
        if self.pending:
            if last is not None:
                last.comments.extend(self.pending)
            elif self.stack[-1] is self.game.moves:  # type: ignore[union-attr]
                self.game.comment.extend(self.pending)  # type: ignore[union-attr]
            else:
                move.comments_before.extend(self.pending)
            self.pending = []
        self.stack[-1].append(move)


#: What may end a move written onto a termination marker (Nc6*, Qh4#0-1, e8=Q*, O-O*).
_MOVE_ENDS = frozenset("12345678+#QRBNqrbnO0)!?")
#: A move number written with the ellipsis character, alone or before its move.
_ELLIPSIS_NUMBER_RE = re.compile(r"\d*\.*" + _ELLIPSIS + r"+")


@derived
def _check_marks() -> frozenset[str]:
    """The check and mate marks of every tradition that are no letters (marks.yaml)."""
    rows = table("marks")["traditions"].values()
    return frozenset(mark for row in rows for kind in ("check", "double_check", "mate") for mark in row.get(kind, [])
                     if not mark[0].isalpha())


@derived
def _en_passant_marks() -> frozenset[str]:
    """The e.p. marks of every tradition (marks.yaml)."""
    return frozenset(mark for row in table("marks")["traditions"].values() for mark in row.get("en_passant", []))


_TIME_CONTROL_FIELD = re.compile(r"\?|-|\d+/\d+|\d+(?:\+\d+)?|\*\d+")
#: TimeControl fields as cutechess and fastchess write them (10+0.05, 40/60+0.6, 0.5/move, inf).
_TIME_CONTROL_DIALECT = re.compile(r"inf|\d+(?:\.\d+)?/move|(?:\d+/)?\d+(?:\.\d+)?(?:\+\d+(?:\.\d+)?)?")


@derived
def _tag_values(name: str) -> frozenset[str]:
    """The values the ``supplemental`` table allows for the tag ``name``."""
    return frozenset(table("pgn")["supplemental"][name]["values"])


def tag_problems(tags: dict[str, str]) -> list[str]:
    """What is wrong with the tags the standard constrains (pgn:8.1.1.7, 9.6.1, 9.7, 9.8.1),
    apart from the departures :func:`tag_repairs` repairs."""
    problems = []
    if "Result" in tags and tags["Result"] not in result_markers() and tags["Result"] not in _result_aliases():
        problems.append(f"Result tag {quote(tags['Result'])} is not 1-0, 0-1, 1/2-1/2 or *")
    setup = tags.get("SetUp")
    if setup is not None and setup not in _tag_values("SetUp"):
        problems.append(f"SetUp tag {quote(setup)} is not 0 or 1")
    if setup == "1" and "FEN" not in tags:
        problems.append("SetUp tag 1 without a FEN tag")
    termination = tags.get("Termination")
    if termination is not None and termination.lower() not in _tag_values("Termination"):
        supplemental = table("pgn")["supplemental"]
        problems.append(f"Termination tag {quote(termination)} is not one of: {', '.join(supplemental['Termination']['values'])}")
    control = tags.get("TimeControl")
    if control is not None and not all(_TIME_CONTROL_FIELD.fullmatch(f) or _TIME_CONTROL_DIALECT.fullmatch(f)
                                       for f in control.split(":")):
        problems.append(f"TimeControl tag {quote(control)} is malformed (pgn:9.6.1: 40/7200:3600, 300+5, *180, ?, -)")
    return problems


#: One repair of a tag: (kind of :data:`REPAIRS`, what departs, tag, standard value or
#: ``None`` when the value is kept as written).
TagRepair = tuple[str, str, str, str | None]


def tag_repairs(tags: dict[str, str]) -> list[TagRepair]:
    """The departures of ``tags`` that :data:`REPAIRS` repairs (Result, TimeControl, FEN)."""
    out: list[TagRepair] = []
    result = tags.get("Result")
    if result is not None and result not in result_markers() and result in _result_aliases():
        marker = _result_aliases()[result]
        out.append(("printed_result", f"Result tag {quote(result)} is not PGN; read as {marker}", "Result", marker))
    control = tags.get("TimeControl")
    if control is not None:
        fields = control.split(":")
        if not all(_TIME_CONTROL_FIELD.fullmatch(f) for f in fields) and all(
                _TIME_CONTROL_FIELD.fullmatch(f) or _TIME_CONTROL_DIALECT.fullmatch(f) for f in fields):
            out.append(("time_control_dialect", f"TimeControl tag {quote(control)} is not in pgn:9.6.1 form",
                        "TimeControl", "-" if control == "inf" else None))
    fen = tags.get("FEN")
    if fen is not None and tags.get("SetUp", "1") != "0":
        fixed, kinds = repair_fen(fen)
        for kind, what in kinds:
            out.append((kind, f"FEN tag {quote(fen)}: {what}", "FEN", fixed))
    return out


def repair_fen(fen: str) -> tuple[str, list[tuple[str, str]]]:
    """``fen`` with the FEN departures of :data:`REPAIRS` repaired, and (kind, what) for
    each; every other problem is left for the FEN reader (:mod:`..core.fen`) to name."""
    fields = fen.split()
    kinds: list[tuple[str, str]] = []
    if len(fields) in (4, 5):
        missing = "the fullmove number" if len(fields) == 5 else "the halfmove clock and the fullmove number"
        kinds.append(("fen_missing_clocks", f"{missing} missing"))
        fields += ["0", "1"][len(fields) - 4:]
    if len(fields) != 6:
        return fen, kinds
    if fields[5] == "0":
        kinds.append(("fen_fullmove_zero", "fullmove number 0"))
        fields[5] = "1"
    if fields[3] != "-" and fields[4].isdigit() and int(fields[4]) != 0:
        kinds.append(("fen_en_passant_clock", f"en passant square {fields[3]} with halfmove clock {fields[4]}"))
        if _can_take_en_passant(fields[0], fields[1], fields[3]):
            fields[4] = "0"
        else:
            fields[3] = "-"
    return (" ".join(fields), kinds) if kinds else (fen, kinds)


def _can_take_en_passant(placement: str, turn: str, square: str) -> bool:
    """Whether a pawn of the side to move stands beside the pawn that passed ``square``
    (text only: a wrong square or placement is left for the FEN reader)."""
    if len(square) != 2 or square[0] not in "abcdefgh" or turn not in "wb":
        return False
    rows = placement.split("/")
    index = 3 if turn == "w" else 4  # the rank of the pawn that moved, from the top: 5th or 4th
    if len(rows) != 8:
        return False
    row = "".join("." * int(ch) if ch.isdigit() else ch for ch in rows[index])
    file = "abcdefgh".index(square[0])
    pawn = "P" if turn == "w" else "p"
    return any(0 <= f < len(row) and row[f] == pawn for f in (file - 1, file + 1))


@derived
def _result_aliases() -> dict[str, str]:
    """Printed results (``½-½``, ``1–0``) that files use in place of the PGN marker."""
    aliases = {**table("results").get("aliases", {}), **table("results").get("marker_aliases", {})}
    return {k: v for k, v in aliases.items() if k != "="}  # a lone '=' is the $10 glyph


def read_games(text: str, strict: bool = False) -> Iterator[PgnGame]:
    """Every game in ``text``, in order, each with its own ``errors`` (possibly empty);
    ``strict``: the departures of :data:`REPAIRS` are errors, not repairs."""
    yield from iter_games(text.splitlines(keepends=True), strict)


def decode_lines(raw: Iterable[bytes]) -> Iterator[str]:
    """Lines of bytes as text: UTF-8 (a leading byte-order mark dropped), a line that is not
    UTF-8 read as ISO 8859-1, the PGN standard's own character set (pgn:4.1)."""
    first = True
    for line in raw:
        if first and line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]
        first = False
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError:
            yield line.decode("latin-1")


def iter_games(lines: Iterable[str], strict: bool = False) -> Iterator[PgnGame]:
    """Every game of a stream of lines, each yielded as soon as its text is complete;
    ``strict``: the departures of :data:`REPAIRS` are errors, not repairs."""
    index = 1
    for first_line, text in split_games(lines):
        plain = _plain_game(text, index, first_line)
        games = [plain] if plain is not None else _Reader(text, index, first_line, strict).run()
        index += len(games)
        yield from games


#: Tag pairs each alone on its line, in export form (no escapes, single spaces).
_PLAIN_TAGS_RE = re.compile(r'(?m)^\[([A-Za-z0-9_+#=:-]+) "([^"\\\n]*)"\]$')
#: Movetext of moves and move numbers, then the result: no comment, variation, NAG,
#: suffix annotation, escape or tab, as most of a database is.
_PLAIN_MOVETEXT_RE = re.compile(r"[ \n]*(?:(?:[0-9]+\.+|[A-Za-z][A-Za-z0-9=+#-]*)[ \n]+)*(1-0|0-1|1/2-1/2|\*)[ \n]*")
_PLAIN_MOVE_RE = re.compile(r"[A-Za-z][A-Za-z0-9=+#-]*")


@derived
def _plain_aliases() -> frozenset[str]:
    """Printed results a plain move token could spell (none in the table today)."""
    return frozenset(a for a in _result_aliases() if _PLAIN_MOVE_RE.fullmatch(a))


def _plain_game(text: str, index: int, first_line: int) -> PgnGame | None:
    """The one game of ``text`` when it is plain: export-form tags, then moves and move
    numbers ending in the result, nothing the tags or the result get wrong. ``None``
    otherwise, and :class:`_Reader` reads it; both give the same game (the common case
    read without tokenizing).
    """
    lines = text.split("\n")
    body = 0
    for line in lines:
        if not line.startswith("["):
            break
        body += 1
    start = sum(len(line) + 1 for line in lines[:body])
    pairs = _PLAIN_TAGS_RE.findall(text, 0, start)
    tags = dict(pairs)
    if not body or len(pairs) != body or len(tags) != body:
        return None  # a tag line not in export form, or a tag given twice
    m = _PLAIN_MOVETEXT_RE.fullmatch(text, start)
    if m is None:
        return None
    result = m.group(1)
    if tags.get("Result", result) != result or tag_problems(tags) or tag_repairs(tags):
        return None
    moves: list[PgnMove] = []
    for number, line in enumerate(lines[body:], first_line + body):
        if line:
            # letters, not digits or '*'; the lists given (faster than the default factories)
            moves += [PgnMove(token, number, [], [], [], []) for token in line.split() if token[0] > "9"]
    aliases = _plain_aliases()
    if aliases and any(move.text in aliases for move in moves):
        return None
    return PgnGame(index, first_line, tags, moves, result=result)


def split_games(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each piece of a PGN stream that holds one game.

    A line that begins with ``[`` starts a new piece once the current one has movetext,
    unless a brace comment is still open (then only after a blank line: a comment never
    closed does not swallow the games after it). ``\r\n`` becomes ``\n``; a byte-order
    mark opening the stream is dropped, one opening a later line (files joined) is left
    for the reader to repair (``byte_order_mark``) and may start the next piece.
    """
    piece: list[str] = []
    start = number = 1
    movetext = in_comment = blank = False
    for number, line in enumerate(lines, 1):
        if line.endswith("\r\n"):
            line = line[:-2] + "\n"
        scan = line
        if line[:1] == BOM:
            if number == 1:
                line = line[1:]
            scan = line.lstrip(BOM)
        stripped = scan.lstrip()
        if stripped.startswith("[") and movetext and (blank or not in_comment):
            yield start, "".join(piece)
            piece, start, movetext, in_comment = [], number, False, False
        piece.append(line)
        blank = not stripped
        in_comment, has_moves = _scan_line(scan, in_comment)
        movetext = movetext or has_moves
    if piece:
        yield start, "".join(piece)


def _scan_line(line: str, in_comment: bool) -> tuple[bool, bool]:
    """(brace comment open at the end of ``line``, ``line`` has movetext outside comments)."""
    if not in_comment and line.startswith("%"):  # an escape line (pgn:6)
        return False, False
    if not in_comment and line.startswith("["):  # most often one tag pair alone: no search
        end_of_tag = _TAG_RE.match(line).end()  # type: ignore[union-attr]
        if not line[end_of_tag:].strip():
            return False, False
    movetext, pos, end = False, 0, len(line)
    while pos < end:
        if in_comment:
            close = line.find("}", pos)
            if close < 0:
                return True, movetext
            in_comment, pos = False, close + 1
            continue
        found = _SCAN_RE.search(line, pos)
        stop = found.start() if found else end
        movetext = movetext or bool(line[pos:stop].strip())
        if found is None:
            break
        char = found.group()
        if char == ";":
            break
        if char == "{":
            in_comment, pos = True, stop + 1
        else:
            pos = _TAG_RE.match(line, stop).end()  # type: ignore[union-attr]
    return in_comment, movetext


# --- writing ----------------------------------------------------------------------------


@derived
def _roster() -> tuple[tuple[str, str], ...]:
    return tuple((row["tag"], row["default"]) for row in table("pgn")["seven_tag_roster"])


def max_line_length() -> int:
    return int(table("pgn")["export"]["max_line_length"])


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tag_lines(tags: dict[str, str], result: str | None = None) -> list[str]:
    """Export tag pairs: the seven tag roster in order (defaults filled), then the rest in ASCII order."""
    roster = _roster()
    names = {name for name, _ in roster}
    lines = []
    for name, default in roster:
        value = tags.get(name, default)
        if name == "Result" and result is not None:
            value = result
        lines.append(f"[{name} {_quote(value)}]")
    lines += [f"[{name} {_quote(tags[name])}]" for name in sorted(k for k in tags if k not in names)]
    return lines


def _comment(text: str) -> str:
    """A brace comment on one logical line ('}' cannot be escaped inside a PGN comment)."""
    return "{" + " ".join(text.replace("}", ")").split()) + "}"


def _line_tokens(moves: list[PgnMove], fullmove: int, black: bool, first: bool = True) -> list[str]:
    out: list[str] = []
    need_number = True
    for move in moves:
        out += [_comment(c) for c in move.comments_before]
        if not black:
            out.append(f"{fullmove}.")
        elif need_number:
            out.append(f"{fullmove}...")
        out.append(move.text)
        out += [f"${n}" for n in move.nags]
        out += [_comment(c) for c in move.comments]
        need_number = bool(move.comments or move.variations)
        for variation in move.variations:
            out.append("(" + " ".join(_line_tokens(variation, fullmove, black)) + ")")
        if black:
            fullmove += 1
        black = not black
    return out


def _wrap(tokens: list[str], width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for token in " ".join(tokens).split(" "):
        if current and len(current) + 1 + len(token) > width:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    if current:
        lines.append(current)
    return lines


def write_game(game: PgnGame, width: int | None = None) -> str:
    """The game in export format (tags, blank line, wrapped movetext, blank line)."""
    width = width or max_line_length()
    result = game.result or game.tags.get("Result", "*")
    fullmove, black = start_number(game.fen)
    tokens = [_comment(c) for c in game.comment]
    tokens += _line_tokens(game.moves, fullmove, black)
    tokens.append(result)
    return "\n".join(tag_lines(game.tags, result)) + "\n\n" + "\n".join(_wrap(tokens, width)) + "\n"


def game_from_moves(moves: list[str], tags: dict[str, str] | None = None, result: str = "*") -> PgnGame:
    """A game holding plain move texts (for writing)."""
    game = PgnGame(index=1, line=1, tags=dict(tags or {}), result=result)
    game.moves = [PgnMove(text=m, line=1) for m in moves]
    return game
