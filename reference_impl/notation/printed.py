"""Whole games as books and pages print them, read into moves.

``1. e4 e5, 2. Af3 Ac6, ... 5.О — O, Ad4? 6., А:e5! Фл: d1?? 7. Фл: f7 + Ше7, 8. Ad5 ×.``
is split into move texts: move numbers (``6.``, ``6.,``, ``2...``, ``2…``) and commas go,
glyphs (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``, ``~`` and the other glyphs of
``nags.yaml``) become each move's annotation, a trailing ``.`` goes, a result or match
score at the end (``1-0``, ``½-½``, ``= 2, — 1``) is kept apart, and pieces split by spaces
(``О — O``, ``Фл: d1``, ``Ag 1 — f3``, ``Фл f1``, ``g1 Ф``, ``+ +``) are joined. PGN movetext is read
too: tag lines, comments, NAGs and variations are dropped. Each move text is then read in
the notation asked for (lenient SAN in the language, typically), so every leniency is
named per move. :func:`split_printed` is text only; :func:`read_printed` needs a board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TYPE_CHECKING

from .errors import NotationError, clip
from .lenient import LONG_DASHES, lookalikes, spellings
from .nags import glyph_to_nag
from .tables import derived, table

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move

#: Move numbers: ``12.``, ``12...``, ``12…``, ``12. …``, with a comma after (``6.,``).
MOVE_NUMBER = re.compile(r"(?<![\w.])\d+\s*(?:\.\s*){1,3}(?:…\s*)?,?|(?<![\w.])\d+\s*…\s*,?|…|(?<!\w)\.\.\.")
#: PGN constructs dropped: tag lines, brace and line comments, NAGs.
PGN_NOISE = re.compile(r"^\s*\[[^\]\n]*\]\s*$|\{[^}]*\}|;[^\n]*|\$\d+", re.MULTILINE)
#: A parenthesised group with a space inside is a variation (``(Q)`` and ``(=)`` are not).
VARIATION = re.compile(r"\([^()]*\s[^()]*\)")
#: Characters of a glyph written around moves (a glyph is never part of a move).
GLYPH_CHARS_EXCLUDED = frozenset("+-=−–—#×:/")
#: What ends a fragment that continues with the next one (``Фл:``, ``e2 —``, ``g1 =``).
OPEN_ENDS = (":", "-", "=", *LONG_DASHES)
#: What starts a fragment that continues the previous one (``— f3``, ``: d1``, ``+``).
CONTINUATIONS = (":", "-", "=", "+", "#", "‡", "×", *LONG_DASHES)
SCORE_ITEM = re.compile(r"[+=−–—-]?(?:\d+(?:[.,]5|½)?|½)")
SCORE_MARKS = frozenset("+=−–—-")


@dataclass(frozen=True)
class PrintedMove:
    """One move text cut from a printed game, with its glyphs (``"?"``, ``"!?"``)."""

    text: str
    glyphs: str = ""


@dataclass
class PrintedGame:
    """The moves read (with leniencies and glyphs), the result or score printed at the end,
    and the first move that could not be read (the moves before it are kept)."""

    start: Board
    texts: list[PrintedMove] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    leniencies: list[list[str]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    result: str | None = None
    error: NotationError | None = None


@derived
def _glyph_chars() -> frozenset[str]:
    chars = {ch for glyph in glyph_to_nag() for ch in glyph}
    return frozenset(chars - GLYPH_CHARS_EXCLUDED - set("0123456789"))


@derived
def _results() -> dict[str, str]:
    """Printed result -> PGN marker (``results.yaml``)."""
    t = table("results")
    return {**{marker: marker for marker in t["results"]}, **t.get("aliases", {})}


def _strip_pgn(text: str) -> str:
    text = PGN_NOISE.sub(" ", text)
    while True:
        shorter = VARIATION.sub(" ", text)
        if shorter == text:
            return text
        text = shorter


def _tail(tokens: list[str]) -> tuple[list[str], str | None]:
    """Split a result or match score off the end of ``tokens``."""
    end = len(tokens)
    while end:
        token = tokens[end - 1].strip(",.")
        if token in _results():
            end -= 1
        elif SCORE_ITEM.fullmatch(token) and (token[0] in SCORE_MARKS or end > 1 and tokens[end - 2] in SCORE_MARKS):
            end -= 1 if token[0] in SCORE_MARKS else 2
        else:
            break
    tail = " ".join(tokens[end:]).strip(" ,.") or None
    return tokens[:end], tail


def _ends_with_file(text: str) -> bool:
    last = text[-1:]
    return bool(last) and any(ch in "abcdefgh" for ch in lookalikes().get(last, (last,)))


def _is_letter(text: str, language: str) -> bool:
    return any(s.form == text for s in spellings(language, True))


def _continues(previous: str, fragment: str, language: str) -> bool:
    if fragment.startswith(CONTINUATIONS) or fragment in ("e.p.",) or previous.endswith(OPEN_ENDS):
        return True
    if _is_letter(previous, language):  # a piece letter set apart: Фл f1 — c4
        return True
    if re.fullmatch(r"[1-8]", fragment) and _ends_with_file(previous):
        return True
    return bool(re.search(r"[18=]$", previous)) and _is_letter(fragment, language)


def split_printed(text: str, language: str = "en") -> tuple[list[PrintedMove], str | None]:
    """The move texts of a printed game or PGN movetext, and the result or score at its end."""
    text = MOVE_NUMBER.sub(" ", _strip_pgn(text)).replace(",", " ")
    tokens, result = _tail(text.split())
    glyph_chars = _glyph_chars()
    moves: list[list[str]] = []  # [text, glyphs]
    for token in tokens:
        glyphs = "".join(ch for ch in token if ch in glyph_chars)
        bare = "".join(ch for ch in token if ch not in glyph_chars)
        if bare.endswith(".") and not bare.endswith("e.p."):
            bare = bare.rstrip(".")
        if not bare:
            if moves:
                moves[-1][1] += glyphs
            continue
        if moves and _continues(moves[-1][0], bare, language):
            sep = " " if bare == "e.p." else ""
            moves[-1][0] += sep + bare
            moves[-1][1] += glyphs
        else:
            moves.append([bare, glyphs])
    if result is not None:
        result = _results().get(result, result)
    return [PrintedMove(t, g) for t, g in moves], result


def move_label(board: Board) -> str:
    """``"6."`` before White's move, ``"6…"`` before Black's."""
    return f"{board.fullmove_number}{'.' if board.turn == 0 else '…'}"


def read_printed(board: Board, text: str, notation: str = "san:lenient", language: str = "en") -> PrintedGame:
    """Read every move of the printed game ``text`` from ``board`` (not changed) in
    ``notation``; stop at the first move that cannot be read, keeping the moves before it
    and recording the error with the move's number, index and text."""
    from .api import read_notation

    board = board.copy()
    texts, result = split_printed(text, language)
    game = PrintedGame(start=board.copy(), texts=texts, result=result)
    for index, printed in enumerate(texts, 1):
        label = move_label(board)
        try:
            parsed = read_notation(board, printed.text, notation, push=True)
        except NotationError as error:
            game.error = NotationError(
                printed.text, error.category, f"move {index} ({label} {clip(printed.text)}): {error.reason}")
            break
        game.moves.append(parsed.move)
        game.leniencies.append(parsed.leniencies)
        game.labels.append(label)
    return game
