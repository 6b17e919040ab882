"""``arbiter adjudicate FILE.pgn --rules ID``: what the Laws say about recorded games.

For every game: the result and reason under the ruleset, the article, the move at
which the game ended by rule, and a flag where the recorded result or Termination tag
disagrees with the Laws. A game that cannot be replayed is one error line on stderr
naming the game and the move; the other games are still adjudicated. Exit status: 0,
or 1 when some game could not be replayed.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from reference_impl.adjudication.record import GameReport, adjudicate_text
from reference_impl.errors import EXIT_FAILURE, ArbiterError


class PgnFileError(ArbiterError):
    """The PGN file could not be read."""


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        return path.read_text(encoding="latin-1")
    except OSError as error:
        raise PgnFileError(f"{path}: {error.strerror or error}") from None


def _table(reports: list[GameReport], rules: str) -> Table:
    table = Table(title=f"Adjudication under {rules}", show_lines=False)
    for name in ("#", "Players", "Recorded", "Laws", "Reason", "Article", "Ended at", "Verdict"):
        table.add_column(name, overflow="fold")
    for r in reports:
        recorded = r.recorded + (f" ({r.termination})" if r.termination else "")
        verdict = "agrees" if r.agrees else ("not compared" if r.agrees is None else f"[red]{r.flag}[/red]")
        if r.note:
            verdict += f" [dim]({r.note})[/dim]"
        table.add_row(str(r.game), f"{r.white} - {r.black}", recorded, r.result or "*", r.reason or "-",
                      r.cite or "-", r.ended_at or "-", verdict)
    return table


@click.command(name="adjudicate")
@click.argument("pgn_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--rules", "rules", default="fide-2023", show_default=True, help="Ruleset id, alias or file.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game instead of a table.")
@click.pass_context
def command(ctx: click.Context, pgn_file: Path, rules: str, as_json: bool) -> None:
    """Adjudicate every game of PGN_FILE under a ruleset and flag disagreements."""
    reports = list(adjudicate_text(_read(pgn_file), rules))
    good = [r for r in reports if r.error is None]
    for r in reports:
        if r.error is not None:
            click.echo(f"arbiter: {pgn_file}: {r.error}", err=True)
    if as_json:
        for r in reports:
            click.echo(json.dumps(r.as_dict(), ensure_ascii=False))
    else:
        Console(width=160).print(_table(good, rules))
        disagree = sum(1 for r in good if r.agrees is False)
        click.echo(f"{len(reports)} game(s): {len(good)} adjudicated, {disagree} disagree with the record, "
                   f"{len(reports) - len(good)} could not be replayed")
    if len(good) < len(reports):
        ctx.exit(EXIT_FAILURE)
