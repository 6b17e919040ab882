"""``dead_position`` and ``timeout`` fixtures from labelled unwinnability data.

``labelled.txt`` holds positions labelled by the Chess Unwinnability Analyzer:
``WB`` both sides can still checkmate by some series of legal moves, ``W-`` only
White, ``-B`` only Black, ``--`` neither (a dead position, FIDE 5.2.2).

* ``dead_position``: ``--`` gives ``{"dead": true}``, every other label ``false``; plus
  the classic material cases from the Laws' text (K v K, K+minor v K, same-coloured
  bishops, and the look-alikes that are not dead).
* ``timeout`` (FIDE 6.9): the flagging player loses unless the opponent cannot
  checkmate by any series of legal moves; checkmate, stalemate and a dead position
  come first. US Chess 7 and its blitz (14E, a material table) are applied by hand in
  :mod:`.uscf_flag`; the labels say whether the position is dead and whether the
  opponent can mate, which settles 14E2/14E3's "forced win" where the opponent cannot.

Run: ``python -m conformance.tools.generate.unwinnable --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import chess

from .common import (FIDE_ALL, ORACLE, STANDARD_AND_960, DataError, Fixture,
                     checked_board, data_file, fixture, full_fen, main, promotions_fit)
from .uscf_flag import UsVerdict, expectations, others, us_note, uscf_flag

LABELS = {"WB": (True, True), "W-": (True, False), "-B": (False, True), "--": (False, False)}
FIDE_TIMEOUT = FIDE_ALL + ["fide-2023-chess960"]
LABEL_DETAIL = ("labelled.txt (Chess Unwinnability Analyzer test vectors, M. Ambrona, "
                "FUN 2022)")
#: Classic cases from the Laws' text: (name, FEN, dead, what).
CLASSIC: list[tuple[str, str, bool, str]] = [
    ("k-v-k", "8/8/3k4/8/8/4K3/8/8 w - - 0 1", True, "king against king"),
    ("kb-v-k", "8/8/3k4/8/8/4KB2/8/8 b - - 0 1", True, "king and bishop against king"),
    ("kn-v-k", "8/8/3k4/8/8/4KN2/8/8 w - - 0 1", True, "king and knight against king"),
    ("k-v-kn", "8/5n2/3k4/8/8/4K3/8/8 w - - 0 1", True, "king against king and knight"),
    ("kb-v-kb-same-colour", "k7/8/5b2/8/8/4K1B1/8/8 w - - 0 1", True,
     "bishops on squares of one colour"),
    ("kbb-v-kb-same-colour", "k7/8/5b2/8/8/4K1B1/7B/8 w - - 0 1", True,
     "three bishops, all on squares of one colour"),
    ("kb-v-kb-opposite-colour", "7k/8/5b2/8/8/4KB2/8/8 w - - 0 1", False,
     "bishops on opposite colours: a helpmate exists"),
    ("kn-v-kn", "8/5n2/3k4/8/8/4KN2/8/8 w - - 0 1", False, "knight against knight: helpmate"),
    ("knn-v-k", "8/8/3k4/8/8/4KN2/6N1/8 w - - 0 1", False,
     "two knights against a bare king: mate is possible, not forced"),
    ("kb-v-kn", "8/5n2/3k4/8/8/4KB2/8/8 w - - 0 1", False, "bishop against knight: helpmate"),
    ("kp-v-k", "8/8/3k4/8/8/4K3/4P3/8 w - - 0 1", False, "a pawn can promote"),
]

#: Hand-built flag falls from the Laws' text: (name, FEN, flagged, FIDE result, what).
CLASSIC_TIMEOUT: list[tuple[str, str, str, str, str]] = [
    ("kn-v-kn", "8/8/2nk4/8/8/4KN2/8/8 w - - 0 1", "white", "0-1",
     "K+N v K+N: Black can still mate by a helpmate, so White's flag loses (6.9)"),
    ("kb-v-kb-opposite", "7k/8/5b2/8/8/4KB2/8/8 w - - 0 1", "black", "1-0",
     "opposite-coloured bishops: White can still mate, so Black's flag loses"),
    ("lone-king-v-kqr", "4k3/8/8/8/8/8/8/R2QK3 w - - 0 1", "white", "1/2-1/2",
     "White has a queen and a rook but flags; Black's lone king cannot mate: a draw"),
    ("knn-v-lone-king", "8/8/3k4/8/8/4KN2/6N1/8 b - - 0 1", "black", "1-0",
     "K+N+N v K: mate cannot be forced, but it exists, so under FIDE the flag loses"),
    ("kq-v-k-queen-side-flags", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1", "black", "1-0",
     "Black's lone king flags against a queen: a loss under FIDE 6.9 and US Chess 14E"),
]


@dataclass(frozen=True)
class Labelled:
    """One labelled position."""

    line: int
    fen: str
    white_can_mate: bool
    black_can_mate: bool


def read_labels(path: Path) -> list[Labelled]:
    """Parse ``labelled.txt``; comment lines start with ``#``."""
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        label, _, fen = raw.partition(" ")
        if label not in LABELS:
            raise DataError(f"{path.name}:{number}: unknown label {label!r}")
        white, black = LABELS[label]
        out.append(Labelled(number, full_fen(fen.strip()), white, black))
    return out


def usable(fen: str) -> bool:
    """A legal position (FIDE 3.10.3) as far as can be told: python-chess finds it valid
    and every piece beyond the initial array has a missing pawn to have promoted from."""
    board = chess.Board(fen)
    return board.status() == chess.STATUS_VALID and promotions_fit(board)


def dead_fixtures(entries: list[Labelled]) -> list[Fixture]:
    """dead_position fixtures from the labels and the classic cases."""
    out = []
    for entry in entries:
        dead = not (entry.white_can_mate or entry.black_can_mate)
        board = chess.Board(entry.fen)
        tags = {"labelled"} | ({"dead-position"} if dead else set())
        if dead and board.pawns:
            tags.add("blocked-pawns")
        if board.is_insufficient_material() != dead:
            tags.add("python-chess-differs")
        out.append(fixture(f"dead.labelled.l{entry.line:04d}", "dead_position",
                           "dead position" if dead else "some side can still checkmate",
                           STANDARD_AND_960, {"fen": entry.fen}, expect={"dead": dead},
                           cites=["fide-2023:5.2.2", "uscf-7:14D4"], tags=tags,
                           method="labelled", detail=LABEL_DETAIL))
    for name, fen, dead, what in CLASSIC:
        board = checked_board(fen)
        if board.is_insufficient_material() != dead:
            raise DataError(f"dead.classic.{name}: python-chess disagrees")
        cites = ["fide-2023:5.2.2"] + (["uscf-7:14D1", "uscf-7:14D2", "uscf-7:14D3"]
                                       if dead else [])
        out.append(fixture(f"dead.classic.{name}", "dead_position", what, STANDARD_AND_960,
                           {"fen": fen}, expect={"dead": dead}, cites=cites,
                           tags={"hand-built", "insufficient-material"}
                           | ({"dead-position"} if dead else set()),
                           method="laws+oracle",
                           detail="from the text of FIDE 5.2.2 and US Chess 14D; "
                                  f"{ORACLE} is_insufficient_material agrees"))
    return out


def timeout_result(board: chess.Board, flagged: chess.Color, opponent_can_mate: bool,
                   dead: bool) -> tuple[str, str, list[str]]:
    """FIDE 6.9 result, the reason in words, and the cites."""
    if board.is_checkmate():
        return ("1-0" if board.turn == chess.BLACK else "0-1", "the position is checkmate",
                ["fide-2023:5.1.1", "fide-2023:6.9"])
    if board.is_stalemate():
        return "1/2-1/2", "the position is stalemate", ["fide-2023:5.2.1", "fide-2023:6.9"]
    if dead:
        return "1/2-1/2", "the position is dead", ["fide-2023:5.2.2", "fide-2023:6.9"]
    if opponent_can_mate:
        return ("0-1" if flagged == chess.WHITE else "1-0",
                "the opponent can still checkmate", ["fide-2023:6.9"])
    return "1/2-1/2", "the opponent cannot checkmate", ["fide-2023:6.9"]


def timeout_fixture(fid: str, description: str, fen: str, flagged: chess.Color,
                    fide: tuple[str, str, list[str]], us: UsVerdict, tags: set[str],
                    method: str, detail: str) -> Fixture:
    """One flag fall with FIDE 6.9's expectation and, where decided, US Chess 14E's."""
    rulesets, expect, by_ruleset = expectations(FIDE_TIMEOUT, fide[0], us)
    if not others(chess.Board(fen), not flagged):
        tags = tags | {"lone-king"}
    return fixture(fid, "timeout", description, rulesets,
                   {"fen": fen, "flagged": chess.COLOR_NAMES[flagged]},
                   expect=expect, expect_by_ruleset=by_ruleset, cites=fide[2] + us.cites,
                   tags=tags | us.tags, method=method, detail=f"{detail}; {us_note(us)}")


def timeout_fixtures(entries: list[Labelled]) -> list[Fixture]:
    """Two timeout fixtures per labelled position: White flags, Black flags."""
    out = []
    for entry in entries:
        board = chess.Board(entry.fen)
        dead = not (entry.white_can_mate or entry.black_can_mate)
        for flagged in (chess.WHITE, chess.BLACK):
            name = chess.COLOR_NAMES[flagged]
            can_mate = entry.black_can_mate if flagged == chess.WHITE else entry.white_can_mate
            fide = timeout_result(board, flagged, can_mate, dead)
            tags = {"labelled", "flag-fall"} | ({"dead-position"} if dead else set())
            # python-chess's nearest rule: a draw iff the opponent has insufficient
            # material, else the flagger loses (mate or stalemate on the board ignored)
            loss = "0-1" if flagged == chess.WHITE else "1-0"
            if fide[0] != ("1/2-1/2" if board.has_insufficient_material(not flagged) else loss):
                tags.add("python-chess-differs")
            out.append(timeout_fixture(
                f"timeout.labelled.l{entry.line:04d}.{name}",
                f"{name} oversteps the time limit; {fide[1]}", entry.fen, flagged, fide,
                uscf_flag(board, flagged, can_mate, dead), tags, "labelled+laws",
                f"{LABEL_DETAIL}; FIDE 6.9 applied by hand: {fide[1]}"))
    return out


def classic_timeouts() -> list[Fixture]:
    """Flag falls built by hand from FIDE 6.9 and US Chess 14E."""
    out = []
    for name, fen, flagged_name, fide, what in CLASSIC_TIMEOUT:
        board = checked_board(fen)
        flagged = chess.WHITE if flagged_name == "white" else chess.BLACK
        can_mate = fide != "1/2-1/2"  # none of these positions is dead or over
        us = uscf_flag(board, flagged, can_mate, False)
        out.append(timeout_fixture(
            f"timeout.classic.{name}", what, fen, flagged, (fide, what, ["fide-2023:6.9"]), us,
            {"flag-fall", "hand-built"}, "laws",
            "FIDE 6.9 (a helpmate question, not a material count) applied by hand"))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """dead_position and timeout fixtures from labelled.txt and the Laws' text."""
    entries = read_labels(data_file(data, "labelled.txt"))
    entries = [e for e in entries if usable(e.fen)]
    return {"dead_position.jsonl": dead_fixtures(entries),
            "timeout.jsonl": timeout_fixtures(entries) + classic_timeouts()}


if __name__ == "__main__":
    sys.exit(main("unwinnable", build))
