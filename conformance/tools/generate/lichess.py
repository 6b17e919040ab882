"""``timeout`` fixtures from real flag falls: final positions of Lichess games lost on time.

``lichess-sample.txt`` (drawn by :mod:`.lichess_sample`) gives, for each position, the
verdict of the Chess Unwinnability Analyzer (CHA 2.6.1, full mode) for the side *not*
to move, and for winnable rows a mating sequence. The player to move is the one whose
flag fell. Every ``EVERY``-th sample row becomes a fixture, and so does every
unwinnable row.

* FIDE 6.9: the flagged player loses when the opponent can checkmate by some series of
  legal moves (CHA: winnable), else the game is drawn (CHA: unwinnable). The generator
  replays each mating sequence with python-chess and stops if it does not end in the
  asked side's checkmate, so a winnable expectation rests on two sources.
* US Chess 7 and its blitz (14E, a material table) are applied by hand in
  :mod:`.uscf_flag`. CHA's verdict is for the opponent only: where it cannot mate and
  no 14E row names its material, the result turns on whether the position is dead
  (14D4), decided here only when every line ends within a few plies without a mate;
  otherwise the fixture lists FIDE rulesets only and says why.

Run: ``python -m conformance.tools.generate.lichess --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

from .common import (FIDE_ALL, ORACLE, DataError, Fixture, OracleMismatch, checked_board,
                     data_file, fixture, main)
from .lichess_sample import SOURCE_NAME, Row, parse
from .uscf_flag import expectations, others, us_note, uscf_flag

#: Every EVERY-th row of the sample becomes a fixture (unwinnable rows always do).
EVERY = 2
SAMPLE = "lichess-sample.txt"
OUTPUT = "timeout-lichess.jsonl"
FIDE_TIMEOUT = FIDE_ALL + ["fide-2023-chess960"]
DRAW = "1/2-1/2"
COLOR = {"white": chess.WHITE, "black": chess.BLACK}


def chosen(rows: list[Row]) -> list[Row]:
    """The sample rows that become fixtures."""
    return [row for index, row in enumerate(rows)
            if index % EVERY == 0 or row.verdict == "unwinnable"]


def fixture_id(row: Row, taken: set[str]) -> str:
    """``timeout.lichess.<game id in lower case>``; a clash is a data error."""
    fid = f"timeout.lichess.{row.game.lower()}"
    if fid in taken or not row.game.isalnum():
        raise DataError(f"{SAMPLE}: game id {row.game!r} gives a clashing or invalid fixture id")
    taken.add(fid)
    return fid


def replays_to_mate(fen: str, line: tuple[str, ...], winner: chess.Color) -> bool:
    """True when ``line`` is legal from ``fen`` and ends with ``winner`` checkmating."""
    board = chess.Board(fen)
    for text in line:
        move = chess.Move.from_uci(text)
        if move not in board.legal_moves:
            return False
        board.push(move)
    return board.is_checkmate() and board.turn != winner


def lichess_fixture(row: Row, fid: str) -> Fixture:
    """One flag-fall fixture: the side to move flags; CHA's verdict decides FIDE 6.9."""
    board = checked_board(row.fen)
    if board.is_game_over():
        raise DataError(f"{SAMPLE}: game {row.game}: the position is already over")
    winner = COLOR[row.side]
    flagged = not winner
    flagged_name = chess.COLOR_NAMES[flagged]
    can_mate = row.verdict == "winnable"
    loss = "0-1" if flagged == chess.WHITE else "1-0"
    if can_mate and row.helpmate and not replays_to_mate(row.fen, row.helpmate, winner):
        raise OracleMismatch(f"{SAMPLE}: game {row.game}: {ORACLE} does not replay the "
                             "mating sequence to a checkmate by the side asked")
    result = loss if can_mate else DRAW
    if can_mate:
        why = f"{row.side} can still checkmate"
        evidence = ("CHA: winnable; its mating sequence replayed to checkmate by " + ORACLE
                    if row.helpmate else "CHA: winnable (no mating sequence recorded)")
    else:
        why = f"{row.side} cannot checkmate by any series of legal moves"
        evidence = "CHA: unwinnable"
    us = uscf_flag(board, flagged, can_mate, None)
    rulesets, expect, by_ruleset = expectations(FIDE_TIMEOUT, result, us)
    tags = {"labelled", "flag-fall", "lichess"} | us.tags
    if not others(board, winner):
        tags.add("lone-king")
    if result != (DRAW if board.has_insufficient_material(winner) else loss):
        tags.add("python-chess-differs")
    detail = (f"{SOURCE_NAME}, Lichess game {row.game}; {evidence}; FIDE 6.9 applied by "
              f"hand: {why}; {us_note(us)}")
    return fixture(fid, "timeout", f"{flagged_name} oversteps the time limit at the end of a "
                   f"real game; {why}", rulesets, {"fen": row.fen, "flagged": flagged_name},
                   expect=expect, expect_by_ruleset=by_ruleset,
                   cites=["fide-2023:6.9"] + us.cites, tags=tags,
                   method="labelled+oracle+laws" if row.helpmate else "labelled+laws",
                   detail=detail)


def build(data: Path) -> dict[str, list[Fixture]]:
    """Flag-fall fixtures from the sample of Lichess games lost on time."""
    path = data_file(data, SAMPLE)
    rows = parse(path.read_text(encoding="utf-8"), path.name)
    taken: set[str] = set()
    return {OUTPUT: [lichess_fixture(row, fixture_id(row, taken)) for row in chosen(rows)]}


if __name__ == "__main__":
    sys.exit(main("lichess", build))
