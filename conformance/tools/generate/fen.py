"""``validate_fen`` fixtures: valid FENs from playouts, invalid ones built on purpose.

Each invalid FEN breaks exactly one requirement and is tagged with the reason. Where
python-chess has the concept (a parse error or a ``status()`` flag) the generator
checks that python-chess rejects it too; where the Laws or the FEN standard decide
and python-chess is lenient (missing fields, fullmove 0, a halfmove clock that
contradicts the en passant square), ``source`` says so and the fixture is tagged
``python-chess-differs``.

Run: ``python -m conformance.tools.generate.fen --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

from .common import (CHESS960, ORACLE, STANDARD_AND_960, STANDARD, Fixture, OracleMismatch,
                     fixture, main)
from .playout import random_samples

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
#: (name, FEN, reason tag, cites, python-chess verdict) -- verdict is "error" (ValueError
#: on parsing), a status flag name, or "accepts" (python-chess is lenient; the Laws decide).
#: The impossible checks come from published perft suites (tricky.perft, perftsuite.epd)
#: and an earlier hand-built move fixture; the perft generator now leaves them out.
INVALID: list[tuple[str, str, str, list[str], str]] = [
    ("three-fields", f"{START} w KQkq", "fen-field-count", ["pgn:16.1"], "accepts"),
    ("five-fields", f"{START} w KQkq - 0", "fen-field-count", ["pgn:16.1"], "accepts"),
    ("seven-fields", f"{START} w KQkq - 0 1 x", "fen-field-count", ["pgn:16.1"], "error"),
    ("empty", "", "fen-field-count", ["pgn:16.1"], "error"),
    ("letter-x", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w Qkq - 0 1",
     "fen-piece-letter", ["fen:placement"], "error"),
    ("letter-digit-9", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "fen-rank-length", ["fen:placement"], "error"),
    ("rank-too-long", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "fen-rank-length", ["fen:placement"], "error"),
    ("rank-too-short", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "fen-rank-length", ["fen:placement"], "error"),
    ("rank-two-digits", "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "fen-rank-length", ["fen:placement"], "error"),
    ("seven-ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "fen-rank-length", ["fen:placement"], "error"),
    ("nine-ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "fen-rank-length", ["fen:placement"], "error"),
    ("side-x", f"{START} x KQkq - 0 1", "fen-side", ["fen:side"], "error"),
    ("side-upper", f"{START} W KQkq - 0 1", "fen-side", ["fen:side"], "error"),
    ("side-word", f"{START} white KQkq - 0 1", "fen-side", ["fen:side"], "error"),
    ("no-white-king", "4k3/8/8/8/8/8/8/8 w - - 0 1", "fen-king-count",
     ["fide-2023:2.3", "fide-2023:3.10.3"], "NO_WHITE_KING"),
    ("no-black-king", "8/8/8/8/8/8/8/4K3 w - - 0 1", "fen-king-count",
     ["fide-2023:2.3", "fide-2023:3.10.3"], "NO_BLACK_KING"),
    ("two-white-kings", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "fen-king-count",
     ["fide-2023:2.3", "fide-2023:3.10.3"], "TOO_MANY_KINGS"),
    ("two-black-kings", "k3k3/8/8/8/8/8/8/4K3 b - - 0 1", "fen-king-count",
     ["fide-2023:2.3", "fide-2023:3.10.3"], "TOO_MANY_KINGS"),
    ("white-pawn-rank-8", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "fen-pawn-back-rank",
     ["fide-2023:3.7.3.3", "fide-2023:3.10.3"], "PAWNS_ON_BACKRANK"),
    ("white-pawn-rank-1", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "fen-pawn-back-rank",
     ["fide-2023:3.7.1", "fide-2023:3.10.3"], "PAWNS_ON_BACKRANK"),
    ("black-pawn-rank-1", "4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "fen-pawn-back-rank",
     ["fide-2023:3.7.3.3", "fide-2023:3.10.3"], "PAWNS_ON_BACKRANK"),
    ("black-pawn-rank-8", "p3k3/8/8/8/8/8/8/4K3 b - - 0 1", "fen-pawn-back-rank",
     ["fide-2023:3.7.1", "fide-2023:3.10.3"], "PAWNS_ON_BACKRANK"),
    ("check-by-unmoved-pawn", "8/8/8/8/8/4k3/3P4/4K3 b - - 0 1", "fen-impossible-check",
     ["fide-2023:3.7.1", "fide-2023:3.10.3"], "accepts"),
    ("check-by-knight-and-pawn", "8/8/8/4k3/3P4/5N2/8/4K3 b - - 0 1", "fen-impossible-check",
     ["fide-2023:3.9.1", "fide-2023:3.10.3"], "accepts"),
    ("nine-black-pawns", "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "fen-piece-count",
     ["fide-2023:2.3", "fide-2023:3.10.3"], "TOO_MANY_BLACK_PAWNS"),
    ("sixteen-white-queens", "4k3/pppppppp/8/8/8/Q7/QQQQQQQQ/QQQQKQQQ w - - 0 1",
     "fen-piece-count", ["fide-2023:2.3", "fide-2023:3.7.3.3", "fide-2023:3.10.3"],
     "TOO_MANY_WHITE_PIECES"),
    ("third-knight-no-missing-pawn", "4k3/8/8/8/8/8/PPPPPPPP/NNN1K3 w - - 0 1",
     "fen-piece-count", ["fide-2023:2.3", "fide-2023:3.7.3.3", "fide-2023:3.10.3"], "accepts"),
    ("black-in-check-white-to-move", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
     "fen-opposite-check", ["fide-2023:3.9.2", "fide-2023:3.10.3"], "OPPOSITE_CHECK"),
    ("white-in-check-black-to-move", "4k3/8/8/8/8/8/4q3/4K3 b - - 0 1",
     "fen-opposite-check", ["fide-2023:3.9.2", "fide-2023:3.10.3"], "OPPOSITE_CHECK"),
    ("knight-checks-black-white-to-move", "4k3/8/3N4/8/8/8/8/4K3 w - - 0 1",
     "fen-opposite-check", ["fide-2023:3.9.2", "fide-2023:3.10.3"], "OPPOSITE_CHECK"),
    ("pawn-checks-black-white-to-move", "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1",
     "fen-opposite-check", ["fide-2023:3.9.2", "fide-2023:3.10.3"], "OPPOSITE_CHECK"),
    ("bishop-checks-white-black-to-move", "4k3/8/8/8/1b6/8/8/4K3 b - - 0 1",
     "fen-opposite-check", ["fide-2023:3.9.2", "fide-2023:3.10.3"], "OPPOSITE_CHECK"),
    ("impossible-check-ep-unrelated", "8/8/8/7k/3Pp3/8/8/4K2Q b - d3 0 1",
     "fen-impossible-check", ["fide-2023:3.10.3", "fide-2023:3.7.3.1"], "IMPOSSIBLE_CHECK"),
    ("impossible-check-ep-unrelated-2", "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
     "fen-impossible-check", ["fide-2023:3.10.3", "fide-2023:3.7.3.1"], "IMPOSSIBLE_CHECK"),
    ("impossible-check-ep-pinned", "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",
     "fen-impossible-check", ["fide-2023:3.10.3", "fide-2023:3.7.3.1"], "IMPOSSIBLE_CHECK"),
    ("impossible-check-ep-far", "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1",
     "fen-impossible-check", ["fide-2023:3.10.3", "fide-2023:3.7.3.1"], "IMPOSSIBLE_CHECK"),
    ("impossible-check-two-bishops-one-line", "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
     "fen-impossible-check", ["fide-2023:3.10.3", "fide-2023:3.9.1"], "IMPOSSIBLE_CHECK"),
    ("impossible-check-two-on-one-diagonal", "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1",
     "fen-impossible-check", ["fide-2023:3.10.3", "fide-2023:3.9.1"], "IMPOSSIBLE_CHECK"),
    ("impossible-check-two-on-one-diagonal-2", "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1",
     "fen-impossible-check", ["fide-2023:3.10.3", "fide-2023:3.9.1"], "IMPOSSIBLE_CHECK"),
    ("impossible-check-two-rooks-one-rank", "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1",
     "fen-impossible-check", ["fide-2023:3.10.3", "fide-2023:3.9.1"], "IMPOSSIBLE_CHECK"),
    # The e.p. square says the last move was a double step; before it the side now to move
    # was not to move, so it cannot have been in check then (3.10.3). Each check here was on
    # the board before the double step and is covered by the pawn now (or given by the pawn
    # on its origin square), so no position before the double step was legal.
    ("ep-covered-bishop-check", "8/8/8/5k2/4Pp2/8/2B5/4K3 b - e3 0 1", "fen-impossible-check",
     ["fide-2023:3.10.3", "fide-2023:3.7.2"], "accepts"),
    ("ep-covered-bishop-check-2", "8/8/8/7B/6Pp/8/4k2K/3r4 b - g3 0 1", "fen-impossible-check",
     ["fide-2023:3.10.3", "fide-2023:3.7.2"], "accepts"),
    ("ep-covered-rook-check", "8/8/8/8/R3P2k/8/8/4K3 b - e3 0 1", "fen-impossible-check",
     ["fide-2023:3.10.3", "fide-2023:3.7.2"], "accepts"),
    ("ep-covered-queen-check-black", "q3k3/8/8/3p4/8/8/6K1/8 w - d6 0 2", "fen-impossible-check",
     ["fide-2023:3.10.3", "fide-2023:3.7.2"], "accepts"),
    ("ep-pawn-origin-gave-check", "8/8/8/8/4P3/5k2/8/4K3 b - e3 0 1", "fen-impossible-check",
     ["fide-2023:3.10.3", "fide-2023:3.7.2"], "accepts"),
    ("castling-garbage", f"{START} w KQkx - 0 1", "fen-castling-rights", ["fen:castling"],
     "error"),
    ("castling-k-no-rook", "r3k2r/8/8/8/8/8/8/R3K3 w K - 0 1", "fen-castling-rights",
     ["fen:castling", "fide-2023:3.8.2.1.2"], "BAD_CASTLING_RIGHTS"),
    ("castling-q-rook-moved", "r3k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1", "fen-castling-rights",
     ["fen:castling", "fide-2023:3.8.2.1.2"], "BAD_CASTLING_RIGHTS"),
    ("castling-black-no-king", "r2k3r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "fen-castling-rights",
     ["fen:castling", "fide-2023:3.8.2.1.1"], "BAD_CASTLING_RIGHTS"),
    ("castling-white-king-moved", "r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1", "fen-castling-rights",
     ["fen:castling", "fide-2023:3.8.2.1.1"], "BAD_CASTLING_RIGHTS"),
    ("castling-black-king-moved", "r6r/4k3/8/8/8/8/8/R3K2R b KQkq - 0 1", "fen-castling-rights",
     ["fen:castling", "fide-2023:3.8.2.1.1"], "BAD_CASTLING_RIGHTS"),
    ("castling-wrong-colour-rook", "4k3/8/8/8/8/8/8/r3K3 w Q - 0 1", "fen-castling-rights",
     ["fen:castling", "fide-2023:3.8.2.1.2"], "accepts"),
    ("ep-wrong-rank-for-side", f"{START} w KQkq e3 0 1", "fen-en-passant",
     ["fen:en_passant", "fide-2023:3.7.3.1"], "INVALID_EP_SQUARE"),
    ("ep-no-pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
     "fen-en-passant", ["fen:en_passant", "fide-2023:3.7.2"], "INVALID_EP_SQUARE"),
    ("ep-origin-occupied", "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
     "fen-en-passant", ["fen:en_passant", "fide-2023:3.7.2"], "INVALID_EP_SQUARE"),
    ("ep-passed-square-occupied", "rnbqkbnr/pppp1ppp/4N3/4p3/8/8/PPPPPPPP/R1BQKBNR w KQkq e6 0 2",
     "fen-en-passant", ["fen:en_passant", "fide-2023:3.7.2"], "INVALID_EP_SQUARE"),
    ("ep-rank-5", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 2",
     "fen-en-passant", ["fen:en_passant"], "INVALID_EP_SQUARE"),
    ("ep-malformed", f"{START} w KQkq e9 0 1", "fen-en-passant", ["fen:en_passant"], "error"),
    ("ep-with-halfmove", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 5 1",
     "fen-clock", ["fen:en_passant", "fen:halfmove"], "accepts"),
    ("halfmove-negative", f"{START} w KQkq - -1 1", "fen-clock", ["fen:halfmove"], "error"),
    ("halfmove-word", f"{START} w KQkq - x 1", "fen-clock", ["fen:halfmove"], "error"),
    ("fullmove-zero", f"{START} w KQkq - 0 0", "fen-clock", ["fen:fullmove"], "accepts"),
    ("fullmove-negative", f"{START} w KQkq - 0 -3", "fen-clock", ["fen:fullmove"], "error"),
    ("fullmove-word", f"{START} w KQkq - 0 one", "fen-clock", ["fen:fullmove"], "error"),
]
#: Castling fields whose validity depends on the ruleset: (name, FEN, standard, Chess960).
#: Python-chess accepts "king-on-a1-with-right" in Chess960 mode; Guidelines II.2.1 (the
#: king starts between the rooks) make a right held by a king on a1 impossible.
LAWS_OVERRIDE = {"king-on-a1-with-right.960", "black-king-h8-with-right.960"}
CASTLING_BY_RULESET: list[tuple[str, str, bool, bool]] = [
    ("king-on-d1", "4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", False, True),
    ("king-on-f8-rooks-b8-g8", "1r3kr1/8/8/8/8/8/8/4K3 b kq - 0 1", False, True),
    ("shredder-letters-960", "1r3kr1/8/8/8/8/8/8/4K3 b gb - 0 1", False, True),
    ("shredder-standard-array", f"{START} w HAha - 0 1", True, True),
    ("king-on-a1-with-right", "4k3/8/8/8/8/8/8/KR6 w B - 0 1", False, False),
    ("right-names-empty-file", "4k3/8/8/8/8/8/8/1K5R w C - 0 1", False, False),
    ("black-king-h8-with-right", "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1", False, False),
]
#: Rights that no one Chess960 initial array allows, Black mirroring White (II.2.3): a
#: right keeps its king and rook on their initial squares, so such a king, or such a rook
#: on one side of it, stands on the same file for both colours. Python-chess (chess960=True)
#: checks each colour alone and accepts them all. (name, FEN, valid under Chess960).
MIRROR_960: list[tuple[str, str, bool]] = [
    ("kings-on-different-files", "1r1k1r2/5p2/8/8/8/8/3N4/R5KR b KQkq - 0 1", False),
    ("king-side-rooks-differ", "r3k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False),
    ("queen-side-rooks-differ", "1r2k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False),
    ("king-side-only-rooks-differ", "3k2r1/8/8/8/8/8/8/3K3R w Kk - 0 1", False),
    ("mirrored-arrays", "1r1k1r2/5p2/8/8/8/8/3N4/1R1K1R2 b KQkq - 0 1", True),
    ("one-colour-with-rights", "1r1k1r2/5p2/8/8/8/8/3N4/R5KR b KQ - 0 1", True),
    ("opposite-sides-fit-one-array", "1r1k4/8/8/8/8/8/8/3K1R2 w Kq - 0 1", True),
]
#: The standard-chess rejections whose Chess960 reading breaks the mirror too (above): no
#: ``.960-valid`` twin for them (the two once written are retired).
UNMIRRORED_960 = {"castling-q-rook-moved", "castling-black-no-king"}
#: Why the Laws decide where python-chess accepts, by reason tag.
ACCEPTS_DETAIL = {
    "fen-piece-count": "FIDE 2.3, 3.7.3.3 and 3.10.3 decide: a piece beyond the initial array "
                       f"is a promoted pawn, so it needs a missing pawn; {ORACLE} only counts "
                       "at most 8 pawns and 16 pieces a side",
    "fen-impossible-check": "FIDE 3.10.3 decides: no last move can have given this check (a pawn "
                            "never stood behind its first rank; two pieces that are not riders "
                            "cannot both have moved; before the double step an e.p. square "
                            "announces, the side now to move was in check with the other side "
                            f"to move); {ORACLE} checks only the checkers' lines and, for the "
                            "e.p. square, that a pawn stands in front of it",
}
#: Hand-built valid FENs (name, FEN, tags, what).
VALID: list[tuple[str, str, set[str], str]] = [
    ("ep-without-capturer", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
     {"en-passant"}, "PGN writes the e.p. square after every double step, capturer or not"),
    ("side-to-move-in-check", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", {"check"},
     "the side to move may be in check"),
    ("promoted-pieces", "QQQQk3/8/8/8/8/8/8/4K3 b - - 0 80", {"promotion"},
     "four white queens: promotion is not limited to captured pieces (3.7.3.4)"),
    ("promoted-knights", "4k3/8/8/8/8/8/PPPPPPP1/NNN1K3 w - - 0 60", {"promotion"},
     "a third knight with one pawn missing: it may be that pawn, promoted"),
    ("discovered-double-check", "8/4R3/2BP4/8/4k3/8/8/4K3 b - - 0 2", {"double-check"},
     "exd6 e.p. uncovered the rook through e5 and the bishop through d5"),
    ("promotion-double-check", "3R4/3k3R/8/8/8/8/8/4K3 b - - 0 1", {"double-check"},
     "exd8=R uncovered the rook on h7 and checks from d8"),
    ("no-castling", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", {"castling"},
     "kings and rooks home, all rights given up"),
    ("clocks-large", "8/8/4k3/8/8/4K3/8/R7 w - - 149 300", {"clocks"},
     "a halfmove clock of 149 is a valid FEN"),
]


def _python_chess_verdict(fen: str, chess960: bool) -> tuple[bool, str]:
    """(accepted, what python-chess said) for one FEN."""
    try:
        board = chess.Board(fen, chess960=chess960)
    except ValueError as error:
        return False, f"ValueError: {error}"
    status = board.status()
    if status == chess.STATUS_VALID:
        return True, "status() valid"
    flags = [name.removeprefix("STATUS_") for name in dir(chess)
             if name.startswith("STATUS_") and name != "STATUS_VALID"
             and status & getattr(chess, name)]
    return False, "status() " + "|".join(sorted(flags))


def invalid_fixtures() -> list[Fixture]:
    """One fixture per rejection reason and variant."""
    out: list[Fixture] = []
    for name, fen, tag, cites, verdict in INVALID:
        accepted, said = _python_chess_verdict(fen, chess960=False)
        if verdict == "accepts":
            if not accepted:
                raise OracleMismatch(f"fen.invalid.{name}: python-chess now rejects ({said})")
            method, detail = "laws", ACCEPTS_DETAIL.get(tag, (
                f"the FEN standard (PGN 16.1) and the Laws decide; {ORACLE} "
                "accepts this FEN (it fills in or drops the field)"))
            tags = {tag, "python-chess-differs"}
        else:
            if accepted or (verdict != "error" and verdict not in said):
                raise OracleMismatch(f"fen.invalid.{name}: expected {verdict}, got {said}")
            method, detail = "laws+oracle", f"built by hand; {ORACLE} rejects it: {said}"
            tags = {tag}
        ok960, said960 = _python_chess_verdict(fen, chess960=True)
        standard_only = ok960 and verdict != "accepts" and name not in UNMIRRORED_960
        if name in UNMIRRORED_960:
            if not ok960:
                raise OracleMismatch(f"fen.invalid.{name}: python-chess (chess960) now rejects")
            cites = cites + ["fide-2023:II.2.3"]
            tags = tags | {"python-chess-differs"}
            detail += (f"; under Chess960 the rights of both colours keep kings or rooks on "
                       f"different files, which no initial array allows (Guidelines II.2.3: "
                       f"'Black's pieces are placed equal-and-opposite to White's'; 3.10.3), "
                       f"while {ORACLE} (chess960=True) accepts: {said960}")
        out.append(fixture(f"fen.invalid.{name}", "validate_fen", f"invalid: {name}",
                           STANDARD if standard_only else STANDARD_AND_960, {"fen": fen},
                           expect={"valid": False}, cites=cites, tags=tags | {"hand-built"},
                           method=method, detail=detail))
        if standard_only:  # X-FEN reads KQkq as the outermost rooks, wherever the king is
            out.append(fixture(
                f"fen.invalid.{name}.960-valid", "validate_fen",
                f"{name}: invalid in standard chess, valid under Chess960 X-FEN", CHESS960,
                {"fen": fen}, expect={"valid": True},
                cites=["fen:xfen", "fide-2023:II.2.1"],
                tags={"fen-castling-rights", "chess960", "hand-built"}, method="laws+oracle",
                detail=f"X-FEN: KQkq name the outermost rooks; {ORACLE} (chess960=True) "
                       f"agrees: {said960}"))
    for name, fen, valid in MIRROR_960:
        accepted, said = _python_chess_verdict(fen, chess960=True)
        if not accepted:
            raise OracleMismatch(f"fen.castling.mirror.{name}: python-chess (chess960) rejects ({said})")
        law = ("Guidelines II.2.3: 'Black's pieces are placed equal-and-opposite to White's'; a "
               "castling right means its king and rook have not moved (3.8.2.1), so ")
        if valid:
            detail = law + f"the rights here fit one initial array; {ORACLE} (chess960=True) agrees: {said}"
            method, tags = "laws+oracle", {"fen-castling-rights", "chess960", "hand-built", "valid"}
        else:
            detail = (law + "a king, or a rook on one side of it, that keeps a right for both colours "
                      "stands on the same file; here they differ, so no game reaches the position "
                      f"(3.10.3); {ORACLE} (chess960=True) checks each colour alone and accepts: {said}")
            method, tags = "laws", {"fen-castling-rights", "chess960", "hand-built", "python-chess-differs"}
        out.append(fixture(
            f"fen.castling.mirror.{name}", "validate_fen",
            f"Chess960: castling field {fen.split()[2]!r} {'fits' if valid else 'breaks'} the mirrored "
            "initial arrays", CHESS960, {"fen": fen}, expect={"valid": valid},
            cites=["fen:xfen", "fide-2023:II.2.3", "fide-2023:3.8.2.1", "fide-2023:3.10.3"],
            tags=tags, method=method, detail=detail))
    for name, fen, standard, c960 in CASTLING_BY_RULESET:
        for suffix, rulesets, want, mode in (("std", STANDARD, standard, False),
                                            ("960", CHESS960, c960, True)):
            accepted, said = _python_chess_verdict(fen, chess960=mode)
            method = "laws+oracle"
            detail = f"built by hand; {ORACLE} (chess960={mode}) agrees: {said}"
            tags = {"fen-castling-rights", "hand-built"} | ({"chess960"} if mode else set())
            if f"{name}.{suffix}" in LAWS_OVERRIDE and accepted != want:
                method = "laws"
                detail = (f"Guidelines II.2.1 decide: the king starts between the rooks; "
                          f"{ORACLE} (chess960={mode}) differs: {said}")
                tags.add("python-chess-differs")
            elif accepted != want:
                raise OracleMismatch(f"fen.castling.{name}.{suffix}: {said}")
            out.append(fixture(
                f"fen.castling.{name}.{suffix}", "validate_fen",
                f"castling field {fen.split()[2]!r} {'valid' if want else 'invalid'} "
                f"under {'Chess960' if mode else 'standard'} rules", rulesets, {"fen": fen},
                expect={"valid": want}, cites=["fen:castling", "fen:xfen", "fen:shredder"]
                + (["fide-2023:II.2.1"] if mode else ["fide-2023:3.8.2"]),
                tags=tags, method=method, detail=detail))
    return out


def valid_fixtures(standard: int = 300, chess960: int = 100) -> list[Fixture]:
    """Valid FENs: hand-built edge cases and the first ``standard``/``chess960`` playouts."""
    out: list[Fixture] = []
    for name, fen, tags, what in VALID:
        accepted, said = _python_chess_verdict(fen, chess960=False)
        if not accepted:
            raise OracleMismatch(f"fen.valid.{name}: {said}")
        out.append(fixture(f"fen.valid.{name}", "validate_fen", what, STANDARD_AND_960,
                           {"fen": fen}, expect={"valid": True}, cites=["pgn:16.1"],
                           tags=tags | {"valid", "hand-built"}, method="laws+oracle",
                           detail=f"built by hand; {ORACLE} agrees: {said}"))
    for sample in random_samples(40, standard, 160):
        fen = sample.board().fen(en_passant="fen")
        out.append(fixture(f"fen.valid.random.{sample.key}", "validate_fen",
                           f"position after {len(sample.moves)} random plies",
                           STANDARD_AND_960, {"fen": fen}, expect={"valid": True},
                           cites=["pgn:16.1"], tags={"valid", "random"}, method="oracle",
                           detail=f"reached by legal moves with {ORACLE}; written with "
                                  "en_passant='fen'"))
    for sample in random_samples(41, chess960, 60, chess960=True):
        fen = sample.board().fen(shredder=len(sample.moves) % 2 == 0, en_passant="fen")
        out.append(fixture(f"fen.valid.random960.{sample.key}", "validate_fen",
                           f"Chess960 position after {len(sample.moves)} random plies",
                           CHESS960, {"fen": fen}, expect={"valid": True},
                           cites=["pgn:16.1", "fen:shredder", "fen:xfen"],
                           tags={"valid", "random", "chess960"}, method="oracle",
                           detail=f"reached by legal moves with {ORACLE} (chess960=True)"))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """validate_fen fixtures: invalid ones per reason, valid ones from playouts."""
    del data
    return {"validate_fen.jsonl": invalid_fixtures() + valid_fixtures()}


if __name__ == "__main__":
    sys.exit(main("fen", build))
