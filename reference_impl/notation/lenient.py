"""Piece letters and look-alike characters, read the way printed texts write them.

One reader serves ``san:lenient`` and every ``san:<language>:lenient``. A move's leading
piece letter (and a promotion letter at its end) is read as:

* a letter of the language (``pieces.yaml``), the longest that fits (Фл before Ф);
* when lenient, also a spelling of such a letter with look-alike characters
  (``lookalikes.yaml``: a Latin A for the Tajik А) -- leniency ``lookalike_letters``;
* when lenient and the language is not English, an English letter (``english_letters``).

The longest spelling that fits wins; among spellings of that length the language's own
letter wins over the others. When only look-alike or English spellings fit and they name
different pieces, every reading is returned and the caller keeps the ones that are legal
moves (several legal readings are an error naming them all). The rest of the move (files,
capture mark, castling O) is read with the Latin member of each look-alike group.

A piece move written as its two squares without a letter (UCI and LAN as engines write
them: ``g1f3``, ``e1g1``) is read by :func:`coordinate_move` (leniency ``coordinate_move``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from typing import Any, TYPE_CHECKING

from .errors import NotationError
from .tables import derived, figurines, piece_letters, table

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move

FILES = "abcdefgh"

#: The leniencies this module names (merged into :data:`.san.LENIENCIES`).
LENIENCIES = {
    "lookalike_letters": "a letter of another script that looks the same (Latin A for Cyrillic А, "
                         "Cyrillic с for the file c; lookalikes.yaml)",
    "english_letters": "English piece letters in a text of another language",
    "spaces": "spaces inside a move (Фл: d1, О — O, Ag 1—f3, g1 Ф, + +)",
    "coordinate_move": "a piece move written as its two squares, without a letter (UCI and LAN as engines "
                       "write them: g1f3, e1g1 for castling, e1h1 for the king taking its rook)",
}
#: Characters the rest of a move may be normalised to (files, capture mark, castling).
LATIN_TARGETS = frozenset("abcdefghxoO")
#: Dashes read as '-' (leniency ``long_dash``).
LONG_DASHES = ("—", "–", "−")


@dataclass(frozen=True)
class Reading:
    """The move text with English letters and Latin files, the leniencies that took, and
    how the piece letter was read (for messages): ``"К (knight, look-alike of К)"``."""

    text: str
    used: tuple[str, ...]
    how: str


@dataclass(frozen=True)
class _Spelling:
    form: str
    piece: str
    leniency: str | None
    native: str


@derived
def lookalikes() -> dict[str, tuple[str, ...]]:
    """Character -> every character of its look-alike group, itself first."""
    out: dict[str, tuple[str, ...]] = {}
    for group in table("lookalikes")["groups"]:
        for ch in group:
            out[ch] = (ch, *[other for other in group if other != ch])
    return out


@derived
def _latin() -> dict[str, str]:
    """Non-Latin character -> its group's Latin member, for files, x and castling O."""
    out = {}
    for ch, group in lookalikes().items():
        target = next((g for g in group if g in LATIN_TARGETS), None)
        if target is not None and ch != target:
            out[ch] = target
    return out


@derived
def _english() -> dict[str, str]:
    return piece_letters("en")


def _spellings(letter: str) -> set[str]:
    groups = lookalikes()
    return {"".join(chars) for chars in product(*[groups.get(ch, (ch,)) for ch in letter])}


@derived
def spellings(language: str, lenient: bool) -> tuple[_Spelling, ...]:
    """Every way a piece letter of ``language`` may be written, longest first."""
    out = [_Spelling(letter, name, None, letter) for name, letter in piece_letters(language).items()]
    if lenient:
        sources: list[tuple[dict[str, str], str | None]] = [(piece_letters(language), None)]
        if language != "en":
            sources.append((piece_letters("en"), "english_letters"))
        for letters, leniency in sources:
            for name, letter in letters.items():
                for form in sorted(_spellings(letter)):
                    if form != letter:
                        out.append(_Spelling(form, name, "lookalike_letters", letter))
                    elif leniency:
                        out.append(_Spelling(form, name, leniency, letter))
    return tuple(sorted(out, key=lambda s: -len(s.form)))


@derived
def _by_char(language: str, lenient: bool, last: bool) -> dict[str, tuple[_Spelling, ...]]:
    """The spellings by their first (or last) character, longest first."""
    out: dict[str, list[_Spelling]] = {}
    for spelling in spellings(language, lenient):
        out.setdefault(spelling.form[-1 if last else 0], []).append(spelling)
    return {ch: tuple(group) for ch, group in out.items()}


@derived
def _figurine_letters() -> dict[str, str]:
    """Figurine (either colour) -> English letter."""
    english = piece_letters("en")
    return {symbol: english[name] for color in (0, 1) for name, symbol in figurines(color).items()}


def _choose(found: list[_Spelling]) -> list[_Spelling]:
    """The longest spellings; the language's own letter alone if it is among them."""
    if not found:
        return []
    longest = max(len(s.form) for s in found)
    found = [s for s in found if len(s.form) == longest]
    own = [s for s in found if s.leniency is None]
    chosen = own or found
    unique: dict[tuple[str, str | None], _Spelling] = {}
    for spelling in chosen:
        unique.setdefault((spelling.piece, spelling.leniency), spelling)
    return list(unique.values())


def _describe(s: _Spelling, language: str) -> str:
    if s.leniency is None:
        return f"{s.form} ({s.piece})"
    if s.leniency == "english_letters":
        return f"{s.form} ({s.piece}, the English letter)"
    return f"{s.form} ({s.piece}, look-alike of {s.native})"


def _to_latin(text: str, used: list[str]) -> str:
    if text.isascii():
        return text
    latin = _latin()
    out = "".join(latin.get(ch, ch) for ch in text)
    if out != text:
        used.append("lookalike_letters")
    return out


def latin_castling(text: str) -> tuple[str, bool]:
    """``text`` with look-alikes read as Latin (Cyrillic О-O as O-O); whether any was."""
    if text.isascii():
        return text, False
    latin = _latin()
    out = "".join(latin.get(ch, ch) for ch in text)
    return out, out != text


_PROMOTION_BEFORE = re.compile(r"[1-8=(/]$")
#: Two squares, optionally with a dash or capture mark between and a promotion letter.
_COORDINATE = re.compile(r"([a-h][1-8])[-x]?([a-h][1-8])=?([QRBNqrbn]?)")


def coordinate_move(board: Board, text: str) -> Any | None:
    """The one legal move ``text`` names by its squares when a piece other than a pawn
    of the side to move stands on the first (pawn moves are SAN's long form); ``None``
    when ``text`` is not such a move. Castling is the king's move to its castling square
    (``e1g1``) where the ruleset's UCI writes that, or the king taking its own rook
    (``e1h1``, Chess960 UCI), as the Board stores it. Raises :class:`NotationError`
    (``illegal`` or ``ambiguous``) when no legal move or several fit.
    """
    m = _COORDINATE.fullmatch(text)
    if m is None:
        return None
    origin, to = (FILES.index(s[0]) + 8 * (int(s[1]) - 1) for s in m.group(1, 2))
    piece = board.piece_at(origin)
    tables = board.tables
    if piece is None or piece.color != board.turn or tables.by_name.get(piece.name) == tables.pawn:
        return None
    promotion = m.group(3).upper() or None
    moves = board.legal_moves(from_squares=1 << origin)
    found = [mv for mv in moves if mv.to_square == to and (mv.promotion or None) == promotion]
    castling = tables.castling
    if castling is not None and not castling.uci_king_takes_rook and promotion is None:
        for mv in moves:
            own = board.piece_at(mv.to_square)
            if own is not None and own.color == board.turn and mv not in found:  # king takes own rook
                side = next(s for s in castling.sides if s.king_side == (mv.to_square > origin))
                if (origin & ~7) + side.king_to_file == to:
                    found.append(mv)
    if not found:
        raise NotationError(text, "illegal", f"no legal move from {m.group(1)} to {m.group(2)} in {board.fen()}")
    if len(found) > 1:
        shown = ", ".join(board.uci(mv) for mv in found)
        raise NotationError(text, "ambiguous", f"the squares fit {len(found)} legal moves ({shown}); nothing is guessed")
    return found[0]


def readings(text: str, language: str, lenient: bool) -> list[Reading]:
    """Every reading of ``text`` (marks already removed) with English piece letters.

    Figurines become English letters (leniency ``figurine``); the leading piece letter
    and a promotion letter at the end are read as the module docstring says.
    """
    used: list[str] = []
    english = _english()
    symbols = _figurine_letters()
    if any(ch in symbols for ch in text):
        used.append("figurine")
        text = "".join(symbols.get(ch, ch) for ch in text)
    firsts, lasts = _by_char(language, lenient, False), _by_char(language, lenient, True)
    heads: list[_Spelling | None] = [*_choose([s for s in firsts.get(text[:1], ()) if text.startswith(s.form)])] or [None]
    out = []
    for head in heads:
        rest = text[len(head.form):] if head else text
        closing = rest.endswith(")")
        tails: list[_Spelling | None] = [*_choose([
            s for s in lasts.get(rest[-2:-1] if closing else rest[-1:], ())
            if rest.endswith(s.form + ")" * closing)
            and _PROMOTION_BEFORE.search(rest[: len(rest) - len(s.form) - closing])
        ])] or [None]
        for tail in tails:
            middle = rest[: len(rest) - len(tail.form) - closing] if tail else rest
            mine = list(used)
            for spelling in (head, tail):
                if spelling and spelling.leniency:
                    mine.append(spelling.leniency)
            if language != "en" and (head and head.leniency is None or tail and tail.leniency is None):
                mine.append("localized_letters")
            if lenient:
                middle = _to_latin(middle, mine)
            word = ((english[head.piece] if head else "") + middle
                    + (english[tail.piece] + ")" * closing if tail else ""))
            how = _describe(head, language) if head else (_describe(tail, language) if tail else text)
            out.append(Reading(word, tuple(mine), how))
    return out


def compact(text: str, used: list[str], en_passant: tuple[str, ...]) -> str:
    """``text`` without spaces (leniency ``spaces``, except before an e.p. mark) and with
    long dashes as '-' (``long_dash``)."""
    if text.isascii() and " " not in text and "\t" not in text:
        return text
    out = re.sub(r"\s+", "", text)
    allowed = text
    for ep in en_passant:
        allowed = re.sub(r"\s+" + re.escape(ep), ep, allowed)
    if re.sub(r"\s+", "", allowed) != allowed:
        used.append("spaces")
    for dash in LONG_DASHES:
        if dash in out:
            used.append("long_dash")
            out = out.replace(dash, "-")
    return out
