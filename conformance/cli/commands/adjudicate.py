"""``arbiter adjudicate FILE.pgn [--rules ID]``: what the Laws say about recorded games.

For every game: the result and reason under the ruleset, the article, the move at
which the game ended by rule, and a flag where the recorded result or Termination tag
disagrees with the Laws. Without ``--rules`` a game is judged under FIDE 2023, or its
Chess960 Guidelines when its ``Variant`` tag names Chess960. Games are read and judged
one at a time and printed as they are judged (memory does not grow with the file). A game
that cannot be replayed is one error line on stderr naming the game and the move (and,
with ``--json``, a record with ``error`` set); the other games are still adjudicated.
Exit status: 0, or 1 when some game could not be replayed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Iterator

import click
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from reference_impl.adjudication.record import GameReport, adjudicate_games
from reference_impl.errors import EXIT_FAILURE, ArbiterError, quote
from reference_impl.notation.pgn import decode_lines, iter_games

#: Games per printed block of the table (each block is printed once judged).
BLOCK = 25
#: Columns of the table: (header, width); the last one takes the rest of the line.
COLUMNS = (("#", 5), ("Players", 32), ("Recorded", 22), ("Laws", 7), ("Reason", 24),
           ("Article", 20), ("Ended at", 9), ("Verdict", 31))


class PgnFileError(ArbiterError):
    """The PGN file could not be read."""


def _lines(path: Path) -> Iterator[str]:
    try:
        handle: IO[bytes] = path.open("rb")
    except OSError as error:
        raise PgnFileError(f"{path}: {error.strerror or error}") from None
    with handle:
        try:
            yield from decode_lines(handle)
        except OSError as error:
            raise PgnFileError(f"{path}: {error.strerror or error}") from None


def _cell(value: str, width: int) -> Text:
    """User text as a table cell: no markup, control characters escaped, bounded."""
    if len(value) > 2 * width or not value.isprintable():
        value = quote(value, 2 * width)
    return Text(value)


def _table(reports: list[GameReport], title: str | None) -> Table:
    table = Table(title=title, show_header=title is not None, box=box.SIMPLE_HEAD, show_edge=False)
    for name, width in COLUMNS:
        table.add_column(name, width=width, overflow="fold")
    for r in reports:
        recorded = r.recorded + (f" ({r.termination})" if r.termination else "")
        verdict = Text("agrees" if r.agrees else ("not compared" if r.agrees is None else r.flag or ""),
                       style="red" if r.agrees is False else "")
        if r.note:
            verdict.append(f" ({r.note})", style="dim")
        cells = [str(r.game), f"{r.white} - {r.black}", recorded, r.result or "*", r.reason or "-",
                 r.cite or "-", r.ended_at or "-"]
        table.add_row(*(_cell(c, w) for c, (_, w) in zip(cells, COLUMNS)), verdict)
    return table


@click.command(name="adjudicate")
@click.argument("pgn_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--rules", "rules", default=None,
              help="Ruleset id, alias or file [default: fide-2023, or Chess960 by the Variant tag].")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game instead of a table.")
@click.pass_context
def command(ctx: click.Context, pgn_file: Path, rules: str | None, as_json: bool) -> None:
    """Adjudicate every game of PGN_FILE under a ruleset and flag disagreements."""
    console = Console(width=160)
    total = good = disagree = 0
    block: list[GameReport] = []
    title: str | None = f"Adjudication under {rules or 'fide-2023 (Chess960 by the Variant tag)'}"
    for r in adjudicate_games(iter_games(_lines(pgn_file)), rules):
        total += 1
        if r.error is not None:
            click.echo(f"arbiter: {pgn_file}: {r.error}", err=True)
        else:
            good += 1
            disagree += r.agrees is False
        if as_json:
            click.echo(json.dumps(r.as_dict(), ensure_ascii=False))
        elif r.error is None:
            block.append(r)
            if len(block) == BLOCK:
                console.print(_table(block, title))
                block, title = [], None
    if not as_json:
        if block or title is not None:
            console.print(_table(block, title))
        click.echo(f"{total} game(s): {good} adjudicated, {disagree} disagree with the record, "
                   f"{total - good} could not be replayed")
    if good < total:
        ctx.exit(EXIT_FAILURE)
