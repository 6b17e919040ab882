"""PGN games built from a lichess-timeouts file (the project ships a sample), for tests
and the benchmark.

Each row is the final position of a Lichess game lost on time, the side to move being
the player whose flag fell, with the Chess Unwinnability Analyzer's verdict for the
other side and, when winnable, a mating line. :func:`timeout_games` makes one game per
row: the FEN, ``[Termination "Time forfeit"]`` and the recorded loss, no moves; the Laws
(FIDE 6.9) make exactly the unwinnable rows draws. :func:`mixed_games` adds, for a
realistic mix, games that play each winnable row's mating line to checkmate.
"""

from __future__ import annotations

from pathlib import Path

from reference_impl import Board, load_ruleset
from reference_impl.notation.san import to_san

from conformance.tools.generate.lichess_sample import Row, parse

#: Loss recorded for the flagged side to move: the other side's win.
WIN_AGAINST = {"w": "0-1", "b": "1-0"}


def read_rows(path: Path) -> list[Row]:
    """The data rows of a lichess-timeouts file, checked by the sample generator's reader."""
    return parse(path.read_text(encoding="utf-8"), str(path))


def _game(tags: dict[str, str], movetext: str) -> str:
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return f"{head}\n{movetext}\n\n"


def _tags(row: Row, result: str, termination: str) -> dict[str, str]:
    return {"Event": "Lichess timeout sample", "Site": f"https://lichess.org/{row.game}", "Date": "????.??.??",
            "White": "?", "Black": "?", "Result": result, "Termination": termination,
            "SetUp": "1", "FEN": row.fen}


def timeout_game(row: Row) -> str:
    """The row as a game lost on time by the side to move, without moves."""
    result = WIN_AGAINST[row.fen.split()[1]]
    return _game(_tags(row, result, "Time forfeit"), result)


def mate_game(row: Row, rules: str = "fide-2023") -> str:
    """The row's mating line played from its FEN to checkmate, scored to the mating side."""
    board = Board.from_fen(row.fen, load_ruleset(rules))
    sans = []
    for uci in row.helpmate:
        move = board.parse_uci(uci)
        sans.append(("" if board.turn else f"{board.fullmove_number}. ") + to_san(board, move))
        board.push(move)
    first_black = row.fen.split()[1] == "b"
    if first_black and sans:
        sans[0] = f"{row.fen.split()[5]}... {sans[0]}"
    result = "1-0" if board.turn else "0-1"
    return _game(_tags(row, result, "Normal"), " ".join(sans + [result]))


def timeout_games(rows: list[Row]) -> str:
    return "".join(timeout_game(row) for row in rows)


def mixed_games(rows: list[Row], timeout_every: int = 10) -> str:
    """A realistic mix: every ``timeout_every``-th row lost on time, the other winnable
    rows played to mate (rows without a mating line are left out)."""
    out = []
    for index, row in enumerate(rows):
        if index % timeout_every == 0:
            out.append(timeout_game(row))
        elif row.verdict == "winnable" and row.helpmate:
            out.append(mate_game(row))
    return "".join(out)
