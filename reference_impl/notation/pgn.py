"""PGN reading and writing as text (pgn:8): tags, movetext, comments, variations, NAGs.

:func:`read_games` splits a file into games and tokenizes each one. It does not need a
board: moves stay as the strings written (SAN or whatever the file holds), with their
suffix annotations turned into NAGs (pgn:8.2.3.8). Every malformed construct becomes a
:class:`~reference_impl.notation.errors.PgnError` in ``game.errors`` naming the game,
the line, the move and the reason; a broken game never stops the games after it.
:func:`write_game` produces export format: the seven tag roster first, in order, then the
other tags in ASCII order, movetext wrapped below 80 characters (pgn:4.3, pgn:8.1.1).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator

from .errors import PgnError
from .nags import glyph_to_nag, suffix_to_nag
from .tables import table

RESULT_TOKENS = ("1-0", "0-1", "1/2-1/2", "*")
_SUFFIX_RE = re.compile(r"(!!|\?\?|!\?|\?!|!|\?)$")

_TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<escape>(?m:^%[^\n]*))
  | (?P<tag>\[[ \t]*(?P<tname>[A-Za-z0-9_+#=:-]+)[ \t]*"(?P<tval>(?:[^"\\\n]|\\.)*)"[ \t]*\])
  | (?P<badtag>\[[^\]\n]*\]?)
  | (?P<comment>\{[^}]*\})
  | (?P<opencomment>\{)
  | (?P<linecomment>;[^\n]*)
  | (?P<nag>\$\d+)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[\s()\[\]{};]|$))
  | (?P<number>\d+(?:[ \t]*\.)+|\d+(?=\s))
  | (?P<symbol>[^\s{}()\[\];$"]+)
  | (?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)


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
    """One game: tags in file order, the main line, the result and the errors found."""

    index: int
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[PgnMove] = field(default_factory=list)
    comment: list[str] = field(default_factory=list)
    result: str | None = None
    errors: list[PgnError] = field(default_factory=list)

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
        fullmove, black = 1, False
        if self.fen:
            fields = self.fen.split()
            black = len(fields) > 1 and fields[1] == "b"
            if len(fields) > 5 and fields[5].isdigit():
                fullmove = max(1, int(fields[5]))
        ply += 1 if black else 0
        return f"{fullmove + ply // 2}{'...' if ply % 2 else '.'}"


class _Reader:
    """Turns the tokens of one file into games."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.games: list[PgnGame] = []
        self.game: PgnGame | None = None
        self.stack: list[list[PgnMove]] = []
        self.pending: list[str] = []
        self.in_movetext = False

    def line_of(self, pos: int) -> int:
        return bisect_right(self.newlines, pos) + 1

    def start(self, pos: int) -> PgnGame:
        game = PgnGame(index=len(self.games) + 1, line=self.line_of(pos))
        self.games.append(game)
        self.game, self.stack, self.pending, self.in_movetext = game, [game.moves], [], False
        return game

    def current(self, pos: int) -> PgnGame:
        return self.game if self.game is not None else self.start(pos)

    def error(self, pos: int, reason: str, move: str | None = None) -> None:
        game = self.current(pos)
        if move is None and game.moves:
            last = len(game.moves) - 1
            move = f"after {game.move_label(last)} {game.moves[last].text}"
        game.errors.append(PgnError(game.index, reason, move=move, line=self.line_of(pos)))

    def finish(self, pos: int, result: str | None) -> None:
        game = self.game
        if game is None:
            return
        if len(self.stack) > 1:
            self.error(pos, f"{len(self.stack) - 1} variation(s) not closed with ')'")
        if self.pending:
            target = game.moves[-1].comments if game.moves else game.comment
            target.extend(self.pending)
        for reason in tag_problems(game.tags):
            game.errors.append(PgnError(game.index, reason, line=game.line))
        game.result = result
        if result is None:
            self.error(pos, "movetext ends without a result (1-0, 0-1, 1/2-1/2 or *)")
        elif "Result" in game.tags and game.tags["Result"] != result:
            self.error(pos, f"termination marker {result} differs from the Result tag {game.tags['Result']}")
        self.game = None

    def last_move(self) -> PgnMove | None:
        line = self.stack[-1]
        return line[-1] if line else None

    def run(self) -> list[PgnGame]:
        text = self.text
        for m in _TOKEN_RE.finditer(text):
            kind, pos = m.lastgroup, m.start()
            if kind in ("ws", "escape"):  # escape lines: pgn:6
                continue
            if kind == "tag":
                if self.in_movetext:
                    self.finish(pos, None)
                game = self.current(pos)
                name, value = m.group("tname"), re.sub(r"\\(.)", r"\1", m.group("tval"))
                if name in game.tags:
                    self.error(pos, f"tag {name} given twice")
                game.tags[name] = value
            elif kind == "badtag":
                self.error(pos, f"malformed tag pair {m.group()!r}")
            elif kind in ("comment", "linecomment", "opencomment"):
                self.comment(m, pos)
            elif kind == "symbol" and m.group() in _result_aliases():
                marker = _result_aliases()[m.group()]
                self.current(pos)
                self.error(pos, f"termination marker {m.group()!r} is not PGN; read as {marker}")
                del self.stack[1:]
                self.finish(pos, marker)
            elif kind == "result":
                self.current(pos)
                if len(self.stack) > 1:
                    self.error(pos, f"result {m.group()} inside a variation; variations closed here")
                    del self.stack[1:]
                self.finish(pos, m.group())
            else:
                self.current(pos)
                self.in_movetext = True
                self.movetext(kind, m, pos)
        if self.game is not None:
            self.finish(len(text), None)
        return self.games

    def comment(self, m: re.Match[str], pos: int) -> None:
        kind = m.lastgroup
        if kind == "opencomment":
            self.error(pos, "comment '{' is never closed")
            return
        body = m.group()[1:-1] if kind == "comment" else m.group()[1:]
        if kind == "comment" and "\n\n[" in body:
            self.error(pos, "comment '{' runs into the next game's tags")
        self.current(pos)
        self.pending.append(body.strip())

    def movetext(self, kind: str | None, m: re.Match[str], pos: int) -> None:
        token = m.group()
        last = self.last_move()
        if kind == "number":
            return
        if kind == "nag":
            if last is None:
                self.error(pos, f"NAG {token} before any move")
                return
            try:
                value = int(token[1:])
                if value > table("nags")["max"]:
                    raise ValueError
            except ValueError:
                self.error(pos, f"NAG {token} out of range $0..$255", move=last.text)
                return
            last.nags.append(value)
        elif kind == "open":
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
            if len(self.stack) == 1:
                self.error(pos, "')' without an open variation")
            else:
                if self.pending:
                    target = self.stack[-1][-1].comments if self.stack[-1] else []
                    target.extend(self.pending)
                    self.pending = []
                self.stack.pop()
        elif kind == "symbol":
            self.symbol(token, pos, last)
        else:
            self.error(pos, f"unexpected character {token!r}")

    def symbol(self, token: str, pos: int, last: PgnMove | None) -> None:
        glyphs = glyph_to_nag()
        if token in glyphs and not token[0].isalnum():
            if last is None:
                self.error(pos, f"annotation {token!r} before any move")
            else:
                last.nags.append(glyphs[token])
            return
        if re.fullmatch(r"\d+\.*", token):
            return
        match = _SUFFIX_RE.search(token)
        suffix = match.group(1) if match and len(token) > len(match.group(1)) else None
        text = token[: -len(suffix)] if suffix else token
        move = PgnMove(text=text, line=self.line_of(pos), suffix=suffix)
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


_TIME_CONTROL_FIELD = re.compile(r"\?|-|\d+/\d+|\d+(?:\+\d+)?|\*\d+")


def tag_problems(tags: dict[str, str]) -> list[str]:
    """What is wrong with the tags the standard constrains (pgn:8.1.1.7, 9.6.1, 9.7, 9.8.1)."""
    problems = []
    supplemental = table("pgn")["supplemental"]
    if "Result" in tags and tags["Result"] not in RESULT_TOKENS:
        problems.append(f"Result tag {tags['Result']!r} is not 1-0, 0-1, 1/2-1/2 or *")
    setup = tags.get("SetUp")
    if setup is not None and setup not in supplemental["SetUp"]["values"]:
        problems.append(f"SetUp tag {setup!r} is not 0 or 1")
    if setup == "1" and "FEN" not in tags:
        problems.append("SetUp tag 1 without a FEN tag")
    termination = tags.get("Termination")
    if termination is not None and termination.lower() not in supplemental["Termination"]["values"]:
        problems.append(f"Termination tag {termination!r} is not one of: {', '.join(supplemental['Termination']['values'])}")
    control = tags.get("TimeControl")
    if control is not None and not all(_TIME_CONTROL_FIELD.fullmatch(f) for f in control.split(":")):
        problems.append(f"TimeControl tag {control!r} is malformed (pgn:9.6.1: 40/7200:3600, 300+5, *180, ?, -)")
    return problems


@lru_cache(maxsize=None)
def _result_aliases() -> dict[str, str]:
    """Printed results (``½-½``, ``1–0``) that files use in place of the PGN marker."""
    aliases = table("results").get("aliases", {})
    return {k: v for k, v in aliases.items() if k != "="}  # a lone '=' is the $10 glyph


def read_games(text: str) -> Iterator[PgnGame]:
    """Every game in ``text``, in order, each with its own ``errors`` (possibly empty)."""
    yield from _Reader(text.replace("\r\n", "\n")).run()


# --- writing ----------------------------------------------------------------------------


@lru_cache(maxsize=None)
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
    fullmove, black = 1, False
    if game.fen:
        fields = game.fen.split()
        black = len(fields) > 1 and fields[1] == "b"
        fullmove = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1
    tokens = [_comment(c) for c in game.comment]
    tokens += _line_tokens(game.moves, fullmove, black)
    tokens.append(result)
    return "\n".join(tag_lines(game.tags, result)) + "\n\n" + "\n".join(_wrap(tokens, width)) + "\n"


def game_from_moves(moves: list[str], tags: dict[str, str] | None = None, result: str = "*") -> PgnGame:
    """A game holding plain move texts (for writing)."""
    game = PgnGame(index=1, line=1, tags=dict(tags or {}), result=result)
    game.moves = [PgnMove(text=m, line=1) for m in moves]
    return game
