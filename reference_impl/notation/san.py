"""Standard Algebraic Notation (pgn:8.2.3): canonical export and strict/lenient import.

Export follows pgn:8.2.3.4 exactly: disambiguation is judged on the legal moves only
(a pinned second knight does not force ``Nce2``), by file, else by rank, else by square.
Import is strict (the text must be what :func:`to_san` writes, apart from a suffix
annotation) or lenient: then every deviation from canonical SAN is accepted when exactly
one legal move fits, and named in :attr:`ParsedMove.leniencies` (see :data:`LENIENCIES`).
Letters, marks and castling strings come from ``spec/notation/pieces.yaml`` and
``marks.yaml`` (``marks=`` names the tradition written, ``pgn`` by default); look-alike
letters from ``lookalikes.yaml`` (see :mod:`.lenient`); no tradition is spelled here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, TYPE_CHECKING

from . import fastsan as _fast
from . import lenient as _lenient
from .errors import NotationError
from .lenient import LENIENCIES as _LENIENT_NAMES
from .tables import derived, figurines, piece_letters, suffix_annotations, table, written_figurines

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move

#: Every leniency the reader can name, with what it accepts.
LENIENCIES = {
    "zero_castling": "castling written with zeros (0-0, 0-0-0), as FIDE C.13",
    "lowercase_castling": "castling written with lower-case o",
    "en_passant_mark": "an e.p. mark after an en passant capture (FIDE C.9.3)",
    "missing_promotion_equals": "promotion without '=' (d8Q, FIDE C.11)",
    "lowercase_promotion": "promotion piece in lower case (e8q)",
    "parenthesised_promotion": "promotion piece in parentheses or after a slash (e8(Q), e8/Q)",
    "double_check_mark": "'++' as a check or mate mark",
    "alternative_mate_mark": "a mate mark other than '#' ('×', '‡', '++' on mate)",
    "missing_check_mark": "no '+' or '#' on a checking or mating move",
    "wrong_check_mark": "a check or mate mark that does not fit the move",
    "missing_capture_mark": "a capture without 'x' (FIDE C.9 makes it optional)",
    "extra_capture_mark": "'x' on a move that captures nothing",
    "alternative_capture_mark": "':' or '×' as the capture mark",
    "superfluous_disambiguation": "origin file, rank or square that SAN would not write",
    "long_algebraic": "both squares written (e2-e4, Ng1-f3, Ng1f3, e2e4)",
    "long_dash": "a long dash between the squares (e2—e4, Ng1–f3)",
    "pawn_letter": "a pawn letter before a pawn move (Pe4)",
    "figurine": "figurine piece symbols (♘f3)",
    "localized_letters": "piece letters of another language",
    **_LENIENT_NAMES,
}

_MOVE_RE = re.compile(
    r"(?P<piece>[A-Z])?(?P<ff>[a-h])?(?P<fr>[1-8])?(?P<sep>[-x])?(?P<to>[a-h][1-8])"
    r"(?P<promo>(?:=|\(|/)?[A-Za-z]\)?)?"
)


@dataclass(frozen=True)
class ParsedMove:
    """A move read from text, the leniencies the text needed, and its suffix annotation."""

    move: Move
    leniencies: list[str] = field(default_factory=list)
    annotation: str | None = None


@derived
def marks_row(tradition: str = "pgn") -> Mapping[str, Any]:
    """The row of ``marks.yaml`` for ``tradition`` (read key by key, not copied)."""
    rows = table("marks")["traditions"]
    if tradition not in rows:
        raise NotationError(tradition, "invalid", f"unknown marks tradition {tradition!r} (known: {', '.join(rows)})")
    row: Mapping[str, Any] = rows[tradition]
    return row


def traditions() -> list[str]:
    """The mark traditions of ``marks.yaml`` (``pgn``, ``fide``, ``russian``, ...)."""
    return list(table("marks")["traditions"])


def language_tradition(language: str) -> str:
    """The tradition ``pieces.yaml`` gives ``language`` (``pgn`` if none)."""
    piece_letters(language)  # raises for an unknown language
    return str(table("pieces")["languages"][language].get("tradition", "pgn"))


@derived
def _all_marks(kind: str) -> tuple[str, ...]:
    values: set[str] = set()
    for tradition in table("marks")["traditions"].values():
        values.update(tradition.get(kind, []))
    return tuple(sorted(values, key=len, reverse=True))


def is_castling(board: Board, move: Move) -> bool:
    """Castling is stored as the king taking its own rook (see the Board API)."""
    target = board.piece_at(move.to_square)
    return target is not None and target.color == board.turn


def is_capture(board: Board, move: Move) -> bool:
    """An enemy piece on the destination, or the en passant square reached by a pawn."""
    target = board.piece_at(move.to_square)
    if target is not None:
        return target.color != board.turn
    return move.to_square == board.ep_square and board.tables.by_name[board.piece_on(move.from_square).name] == board.tables.pawn


def _letter(name: str, language: str, board: Board, color: int) -> str:
    letters = piece_letters(language)
    if name in letters:
        return letters[name]
    return board.tables.types[board.tables.by_name[name]].letter.upper()


def castling_side(board: Board, move: Move) -> str:
    """``"king_side"`` or ``"queen_side"`` for a castling move (king takes own rook)."""
    return "king_side" if move.to_square > move.from_square else "queen_side"


def _mark_of(board: Board, tradition: str = "pgn") -> str:
    """``"#"``, ``"+"`` or ``""`` for the position just reached (the tradition's first marks)."""
    if not board.is_check():
        return ""
    marks = marks_row(tradition)
    return str(marks["mate"][0] if board.is_checkmate() else marks["check"][0])


def check_suffix(board: Board, move: Move, marks: str = "pgn") -> str:
    """``"#"``, ``"+"`` or ``""`` for ``move`` (pgn:8.2.3.5), in the tradition ``marks``."""
    board.push(move)
    try:
        return _mark_of(board, marks)
    finally:
        board.pop()


def _disambiguation(board: Board, move: Move, name: str, legal: list[Move]) -> str:
    others = [
        m.from_square
        for m in legal
        if m.to_square == move.to_square
        and m.from_square != move.from_square
        and board.piece_on(m.from_square).name == name
        and not (name == "king" and is_castling(board, m))
    ]
    if not others:
        return ""
    files = "abcdefgh"
    if all(o & 7 != move.from_square & 7 for o in others):
        return files[move.from_square & 7]
    if all(o >> 3 != move.from_square >> 3 for o in others):
        return str((move.from_square >> 3) + 1)
    return files[move.from_square & 7] + str((move.from_square >> 3) + 1)


def to_san(
    board: Board, move: Move, *, language: str = "en", figurine: bool = False, suffix: bool = True, marks: str = "pgn",
) -> str:
    """Canonical SAN of the legal ``move`` (pgn:8.2.3); localized letters or figurines on
    request; the capture, check, mate, castling and promotion marks of the tradition
    ``marks`` (``russian``: ``А:e5``, ``Аd5×``, ``0-0``, ``g1Ф``)."""
    legal = board.legal_moves()
    if move not in legal:
        raise NotationError(str(move), "illegal", f"not a legal move in {board.fen()}")
    row = marks_row(marks)
    mark = check_suffix(board, move, marks) if suffix else ""
    if is_castling(board, move):
        return str(row["castling"][castling_side(board, move)]) + mark
    piece = board.piece_on(move.from_square)
    names = "abcdefgh"
    to = names[move.to_square & 7] + str((move.to_square >> 3) + 1)
    capture = row["capture"][0] if is_capture(board, move) else ""

    def letter(name: str, color: int) -> str:
        return written_figurines(color)[name] if figurine else _letter(name, language, board, color)

    if board.tables.pawn is not None and board.tables.by_name.get(piece.name) == board.tables.pawn:
        text = (names[move.from_square & 7] + capture if capture else "") + to
        if move.promotion:
            promoted = board.tables.types[board.tables.by_letter[move.promotion.upper()]].name
            text += row["promotion_separator"] + letter(promoted, piece.color)
        return text + mark
    return letter(piece.name, piece.color) + _disambiguation(board, move, piece.name, legal) + capture + to + mark


# --- reading ----------------------------------------------------------------------------


def _strip_suffix(text: str) -> tuple[str, str | None]:
    for suffix in suffix_annotations():
        if text.endswith(suffix) and len(text) > len(suffix):
            return text[: -len(suffix)], suffix
    return text, None


def _split_marks(text: str, used: list[str]) -> tuple[str, str]:
    """Remove a trailing e.p. and check/mate mark; return (core, mark)."""
    for ep in _all_marks("en_passant"):
        for form in (" " + ep, ep):
            if text.endswith(form):
                used.append("en_passant_mark")
                text = text[: -len(form)].rstrip()
    mark = ""
    for candidate in (*_all_marks("mate"), *_all_marks("double_check"), *_all_marks("check"), "‡"):
        if text.endswith(candidate) and len(text) > len(candidate) and text[-len(candidate) - 1] not in "x:×":
            mark = candidate
            text = text[: -len(candidate)]
            break
    for ep in _all_marks("en_passant"):
        if text.endswith(ep):
            used.append("en_passant_mark")
            text = text[: -len(ep)].rstrip()
    return text, mark


def read_san(
    board: Board, text: str, *, lenient: bool = False, language: str = "en", figurine: bool = False,
    push: bool = False, marks: str = "pgn",
) -> ParsedMove:
    """Read a SAN move; strict unless ``lenient``. Raises :class:`NotationError`.

    ``language`` selects the piece letters (``de``: ``Sf3``); ``figurine`` expects FAN;
    ``marks`` the tradition strict reading expects (``russian``: ``А:e5``). Strict means
    the text is exactly what :func:`to_san` writes in that style. Lenient reading is
    shared by every language (:mod:`.lenient`): a text that reads as two legal moves
    through look-alike or English letters is ``ambiguous`` and names both readings. With
    ``push`` the move is left made on ``board`` (saves making it twice when replaying).
    Canonical SAN in English with ``pgn`` marks takes a shorter path (:mod:`.fastsan`).
    """
    if language == "en" and not figurine and marks == "pgn":
        fast = _fast.read(board, text, push)
        if fast is not None:
            return ParsedMove(fast[0], [], fast[1])
    original = text
    core, annotation = _strip_suffix(text.strip())
    used: list[str] = []
    if not core:
        raise NotationError(original, "invalid", "empty move")
    work = _lenient.compact(core, used, _all_marks("en_passant")) if lenient else core
    work, mark = _split_marks(work, used)
    move = _castling(board, work, used, original, lenient, marks)  # before letters: Dutch and Uzbek use O
    if move is None and lenient:
        move = _lenient.coordinate_move(board, work)
        if move is not None:
            used.append("coordinate_move")
    if move is None:
        move = _read_piece_move(board, work, used, original, lenient, language)
    canonical = None if lenient else to_san(board, move, language=language, figurine=figurine, marks=marks)
    board.push(move)
    try:
        _check_mark(_mark_of(board), mark, used)
    finally:
        if not push or canonical not in (None, core):
            board.pop()
    expected = {"figurine"} if figurine else set()
    if language != "en":
        expected.add("localized_letters")
    parsed = ParsedMove(move, [u for u in dict.fromkeys(used) if u not in expected], annotation)
    if canonical is not None and core != canonical:
        named = f" (needs leniency: {', '.join(parsed.leniencies)})" if parsed.leniencies else ""
        raise NotationError(original, "invalid", f"not canonical SAN; SAN is {canonical}{named}")
    return parsed


def _read_piece_move(board: Board, work: str, used: list[str], original: str, lenient: bool, language: str) -> Move:
    """The one legal move among the readings of ``work``'s letters (see :mod:`.lenient`)."""
    found: list[tuple[Move, list[str], str]] = []
    first_error: NotationError | None = None
    for reading in _lenient.readings(work, language, lenient):
        mine = [*used, *reading.used]
        text = reading.text
        if not lenient:
            for dash in _lenient.LONG_DASHES:
                if dash in text:
                    mine.append("long_dash")
                    text = text.replace(dash, "-")
        for cap in (":", "×"):
            if cap in text:
                mine.append("alternative_capture_mark")
                text = text.replace(cap, "x")
        try:
            move = _piece_move(board, text, mine, original)
        except NotationError as error:
            first_error = first_error or error
            continue
        if all(move != other for other, _, _ in found):
            found.append((move, mine, reading.how))
    if not found:
        assert first_error is not None
        raise first_error
    if len(found) > 1:
        shown = " and ".join(f"{how}: {to_san(board, move, language=language)} = {board.uci(move)}" for move, _, how in found)
        raise NotationError(original, "ambiguous", f"reads as {len(found)} legal moves, {shown}; nothing is guessed")
    used[:] = found[0][1]
    return found[0][0]


def parse_san(board: Board, text: str, *, lenient: bool = False, language: str = "en", figurine: bool = False) -> Move:
    """The legal move ``text`` names (see :func:`read_san`)."""
    return read_san(board, text, lenient=lenient, language=language, figurine=figurine).move


@derived
def _castling_forms(tradition: str = "pgn") -> dict[str, tuple[str, str | None]]:
    """Every castling string of every tradition -> (side, leniency or None) where the
    tradition ``tradition`` writes its own form without leniency."""
    forms: dict[str, tuple[str, str | None]] = {}
    own = marks_row(tradition)["castling"]
    for side, form in own.items():
        forms[form] = (side, None)
    for row in table("marks")["traditions"].values():
        for side, form in row["castling"].items():
            leniency = None if form == marks_row()["castling"][side] else "zero_castling"
            forms.setdefault(form, (side, leniency))
            forms.setdefault(form.lower(), (side, "lowercase_castling"))
    return forms


def _castling(board: Board, work: str, used: list[str], original: str, lenient: bool, tradition: str = "pgn") -> Move | None:
    forms = _castling_forms(tradition)
    if lenient and work not in forms:
        latin, changed = _lenient.latin_castling(work)
        if changed and latin in forms:
            used.append("lookalike_letters")
            work = latin
    if work not in forms:
        return None
    side, leniency = forms[work]
    if leniency:
        if not lenient:
            raise NotationError(original, "invalid", f"{work!r} is not SAN castling (needs leniency: {leniency})")
        used.append(leniency)
    for move in board.legal_moves():
        if is_castling(board, move) and castling_side(board, move) == side:
            return move
    raise NotationError(original, "illegal", f"no legal {side.replace('_', '-')} castling in {board.fen()}")


def _piece_move(board: Board, work: str, used: list[str], original: str) -> Move:
    m = _MOVE_RE.fullmatch(work)
    if not m:
        raise NotationError(original, "invalid", "not a move in algebraic notation")
    tables = board.tables
    english = {v: k for k, v in piece_letters("en").items()}
    letter = m.group("piece")
    if letter is not None and letter not in english:
        raise NotationError(original, "invalid", f"unknown piece letter {letter!r}")
    name = english[letter] if letter else "pawn"
    is_pawn = tables.by_name.get(name) == tables.pawn
    if letter and is_pawn:
        used.append("pawn_letter")
    promo = _promotion(m.group("promo"), used, original)
    if promo is not None:
        promo = tables.types[tables.by_name[english[promo]]].letter.upper()
    to = "abcdefgh".index(m.group("to")[0]) + 8 * (int(m.group("to")[1]) - 1)
    ff, fr, sep = m.group("ff"), m.group("fr"), m.group("sep")
    if is_pawn and sep == "x" and not ff:
        raise NotationError(original, "invalid", "a pawn capture names its origin file (pgn:8.2.3.3)")
    # A pawn move without its origin file is a push (pgn:8.2.3.3): a capture landing on the
    # square does not fit it, so none that does is "illegal", not malformed.
    push_only = is_pawn and not ff
    candidates = [
        mv for mv in board.legal_moves(to_squares=1 << to)
        if mv.to_square == to
        and (ff is None or "abcdefgh"[mv.from_square & 7] == ff)
        and (fr is None or str((mv.from_square >> 3) + 1) == fr)
        and (mv.promotion or None) == promo
        and board.piece_on(mv.from_square).name == name
        and not (name == "king" and is_castling(board, mv))
        and not (push_only and is_capture(board, mv))
    ]
    if not candidates:
        raise NotationError(original, "illegal", f"no legal move fits in {board.fen()}")
    if len(candidates) > 1:
        shown = ", ".join(to_san(board, c) for c in candidates)
        raise NotationError(original, "ambiguous", f"fits {len(candidates)} legal moves ({shown})")
    move = candidates[0]
    capture = is_capture(board, move)
    if sep == "x" and not capture:
        used.append("extra_capture_mark")
    if capture and sep != "x":
        used.append("missing_capture_mark")
    if ff and fr:
        used.append("long_algebraic")
    elif sep == "-":
        raise NotationError(original, "invalid", "'-' needs the full origin square (e2-e4)")
    elif (ff or fr) and not (is_pawn and ff and capture):
        canonical = _disambiguation(board, move, name, board.legal_moves())
        if (ff or "") + (fr or "") != canonical:
            used.append("superfluous_disambiguation")
    return move


def _promotion(text: str | None, used: list[str], original: str) -> str | None:
    if not text:
        return None
    english = {v: k for k, v in piece_letters("en").items()}
    letter = text.strip("=(/)")
    if text.startswith("=") and not text.endswith(")"):
        pass
    elif text.startswith("(") and text.endswith(")") or text.startswith("/"):
        used.append("parenthesised_promotion")
    elif text == letter:
        used.append("missing_promotion_equals")
    else:
        raise NotationError(original, "invalid", f"malformed promotion {text!r}")
    if letter.islower():
        used.append("lowercase_promotion")
        letter = letter.upper()
    if letter not in english or english[letter] in ("king", "pawn"):
        raise NotationError(original, "invalid", f"cannot promote to {letter!r}")
    return letter


def _check_mark(actual: str, mark: str, used: list[str]) -> None:
    if mark == actual:
        return
    if mark == "":
        used.append("missing_check_mark")
    elif mark == "++":
        used.append("double_check_mark" if actual == "+" else "alternative_mate_mark" if actual == "#" else "wrong_check_mark")
    elif mark in _all_marks("mate") + ("‡",) and actual == "#":
        used.append("alternative_mate_mark")
    else:
        used.append("wrong_check_mark")
