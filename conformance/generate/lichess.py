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
* US Chess 7 (14E) is a material table with a "forced win" exception. ``uscf-7`` is
  listed only where the table decides from material alone: the opponent has a lone king
  (14E1, draw), or holds material no row names and can mate (a loss; K+N+N counts as
  such when the flagged player has a pawn, 14E3). Against K+B, K+N, or K+N+N with the
  flagged player pawnless, the result turns on a forced-win judgement the data does not
  give; an unwinnable opponent with more than a king may or may not leave the position
  dead (14D4), which the data does not say either. Those fixtures list FIDE rulesets only.

Run: ``python -m conformance.generate.lichess --data conformance/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

from .common import (FIDE_ALL, ORACLE, USCF, DataError, Fixture, OracleMismatch,
                     checked_board, data_file, fixture, main)
from .lichess_sample import SOURCE_NAME, Row, parse

#: Every EVERY-th row of the sample becomes a fixture (unwinnable rows always do).
EVERY = 2
SAMPLE = "lichess-sample.txt"
OUTPUT = "timeout-lichess.jsonl"
FIDE_TIMEOUT = FIDE_ALL + ["fide-2023-chess960"]
DRAW = "1/2-1/2"
COLOR = {"white": chess.WHITE, "black": chess.BLACK}
#: Opponent material (pieces besides the king) that a 14E row names, with its article.
USCF_ROWS: dict[tuple[int, ...], str] = {
    (chess.BISHOP,): "uscf-7:14E2",
    (chess.KNIGHT,): "uscf-7:14E2",
    (chess.KNIGHT, chess.KNIGHT): "uscf-7:14E3",
}


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


def others(board: chess.Board, color: chess.Color) -> tuple[int, ...]:
    """Piece types of ``color`` besides the king, sorted."""
    return tuple(sorted(p.piece_type for p in board.piece_map().values()
                        if p.color == color and p.piece_type != chess.KING))


def uscf_expectation(board: chess.Board, flagged: chess.Color,
                     can_mate: bool) -> tuple[str, list[str]] | None:
    """US Chess 14E from material alone (result, cites), or None where it needs judgement."""
    loss = "0-1" if flagged == chess.WHITE else "1-0"
    material = others(board, not flagged)
    if not material:
        return DRAW, ["uscf-7:14E", "uscf-7:14E1"]
    if not can_mate:
        return None
    row = USCF_ROWS.get(material)
    if row is None:
        return loss, ["uscf-7:14E"]
    if row == "uscf-7:14E3" and board.pieces(chess.PAWN, flagged):
        return loss, ["uscf-7:14E", "uscf-7:14E3"]
    return None


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
    uscf = uscf_expectation(board, flagged, can_mate)
    rulesets = FIDE_TIMEOUT + ([USCF] if uscf else [])
    by_ruleset = None
    if uscf and uscf[0] != result:
        by_ruleset = {r: {"result": result} for r in FIDE_TIMEOUT} | {USCF: {"result": uscf[0]}}
    tags = {"labelled", "flag-fall", "lichess"}
    if not others(board, winner):
        tags.add("lone-king")
    if result != (DRAW if board.has_insufficient_material(winner) else loss):
        tags.add("python-chess-differs")
    uscf_note = (f"US Chess by {', '.join(uscf[1])} (material alone decides)" if uscf else
                 "US Chess omitted: 14E2/14E3 need a forced-win judgement, or 14D4 whether "
                 "the position is dead")
    detail = (f"{SOURCE_NAME}, Lichess game {row.game}; {evidence}; FIDE 6.9 applied by "
              f"hand: {why}; {uscf_note}")
    return fixture(fid, "timeout", f"{flagged_name} oversteps the time limit at the end of a "
                   f"real game; {why}", rulesets, {"fen": row.fen, "flagged": flagged_name},
                   expect=None if by_ruleset else {"result": result},
                   expect_by_ruleset=by_ruleset,
                   cites=["fide-2023:6.9"] + (uscf[1] if uscf else []), tags=tags,
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
