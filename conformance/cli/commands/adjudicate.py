"""``arbiter adjudicate FILE [--rules ID]``: what the Laws say about each recorded game.

The same reader, replay and judge as ``arbiter audit`` (its compiled path,
:func:`~conformance.tools.audit.fast.audit_text`, and :func:`~conformance.tools.audit.judge.audit_record`),
game by game with a verdict for every game rather than only the disagreements: the
result and reason under the Laws, the article, the move at which the game ended by rule,
the ruleset chosen for the game and why, and where the record disagrees, the audit's
findings. ``--rules`` is a family (``fide``, the default, or ``uscf``: the edition in
force on each game's date, its regime, Chess960 by the tags) or one ruleset. Files may be
compressed (``.gz``, ``.bz2``, ``.zst``) as for the audit. A flag fall is judged only where
the record ends in a time forfeit; clock comments are evidence, not events (FIDE 6.8).
Games are read and judged a partition (:data:`PARTITION_BYTES`) at a time and printed as
they are judged (memory does not grow with the file). A game that cannot be read is one error line on stderr naming the
game and the move (and, with ``--json``, a record with ``error`` set); a game of a variant
the Laws do not cover is skipped (``skipped`` set); the other games are still
adjudicated. Exit status: 0, or 1 when some game could not be read or the file is
damaged (the games before the damage are adjudicated).
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, Iterator

import click

from reference_impl.collector import collector_paused
from reference_impl.errors import EXIT_FAILURE, ArbiterError, quote
from reference_impl.notation.pgn import PgnGame, decode_lines, iter_games

from conformance.tools.audit.execute import judging, partition_bytes, strict_reader
from conformance.tools.audit.fast import audit_text
from conformance.tools.audit.judge import GameAudit, audit_record
from conformance.tools.audit.laws import Chooser, cached_chooser
from conformance.tools.audit.sources import Damage, partition_lines, partitions, stream_lines
from conformance.tools.audit.terminations import read_ending
from .audit import rules_name

#: Games per printed block of the table (each block is printed once judged).
BLOCK = 25
#: Columns of the table: (header, width); the last one takes the rest of the :data:`LINE`.
COLUMNS = (("#", 5), ("Players", 26), ("Recorded", 22), ("Laws", 7), ("Reason", 20),
           ("Article", 18), ("Ended at", 8), ("Rules", 18), ("Verdict", 33))
#: Characters a table line takes, the column separator, and the header's rule.
LINE, SEPARATOR, RULE = 170, "  ", "\u2500"
#: Longest error line printed (a hostile file's names and moves are cut, escaped).
ERROR_LINE = 300
#: The ends by rule whose move the table names (``Ended at``).
BY_RULE = frozenset({"checkmate", "stalemate", "dead_position", "fivefold_repetition", "seventy_five_moves"})
#: Bytes per partition read at a time (the games of one are judged before the next is read).
PARTITION_BYTES = 1 << 20
#: The ruleset used without ``--rules``: the FIDE family, per game.
DEFAULT_RULES = "fide"


class PgnFileError(ArbiterError):
    """The PGN file could not be read."""


def _judged(path: Path, choose: Chooser, strict: bool, damage: list[Damage]) -> Iterator[tuple[PgnGame, GameAudit]]:
    """Every game of ``path`` (plain, compressed or a pipe) with its audit, in order: a
    file by partitions through the audit's compiled path (:func:`~conformance.tools.audit.fast.audit_text`,
    numbered across the file), a pipe read as it comes; a damaged compressed file ends
    at the damage, appended to ``damage``."""
    if not path.exists():
        raise PgnFileError(f"{path}: no such file")
    if path.is_dir():
        raise PgnFileError(f"{path}: not a file")
    read = partial(iter_games, strict=True) if strict and strict_reader() else iter_games
    try:
        if not path.is_file():
            for pgn in read(decode_lines(stream_lines(path, damage))):
                yield pgn, audit_record(pgn, choose)
            return
        offset = 0
        for part in partitions([path], PARTITION_BYTES):
            if isinstance(part, Damage):
                damage.append(part)
                continue
            count = 0
            for pgn, found in audit_text(partition_bytes(part), choose, lambda: partition_lines(part), read,
                                          strict):
                count += 1
                if offset:
                    pgn.index += offset
                    found.game += offset
                    found.findings = [replace(f, game=f.game + offset) for f in found.findings]
                yield pgn, found
            offset += count
    except OSError as error:
        raise PgnFileError(f"{path}: {error.strerror or error}") from None


def report(pgn: PgnGame, audit: GameAudit) -> dict[str, Any]:
    """One game's verdict as a record (the ``--json`` line and the table's row)."""
    ending = read_ending(pgn)
    ruling = audit.ruling
    ended_at = None
    if ruling is not None and ruling.result is not None and ruling.reason in BY_RULE:
        ended_at = pgn.move_label(ruling.ply - 1) if ruling.ply else "start"
    agrees = None if audit.error or audit.skipped or ruling is None or not ruling.compared else not audit.findings
    return {
        "game": pgn.index, "white": pgn.tags.get("White", "?"), "black": pgn.tags.get("Black", "?"),
        "recorded": pgn.tags.get("Result") or pgn.result or "*", "termination": ending.phrase or None,
        "event": ending.event if ending.phrase else None,
        "ruleset": audit.ruleset or None,
        "ruleset_reason": audit.ruleset_reason or None,
        "result": ruling.result if ruling else None, "reason": ruling.reason if ruling else None,
        "cite": ruling.cite if ruling else None, "ended_at": ended_at, "ply": ruling.ply if ruling else None,
        "agrees": agrees, "findings": [f.as_dict() for f in audit.findings],
        "error": audit.error, "skipped": audit.skipped, "warnings": list(audit.warnings),
    }


def _cell(value: str, width: int) -> str:
    """User text as a table cell: control characters escaped, bounded."""
    if len(value) > 2 * width or not value.isprintable():
        value = quote(value, 2 * width)
    return value


def _fold(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters: broken at spaces, a longer word
    cut (the table folds what does not fit)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    return lines + [line] if line or not lines else lines


def _table(rows: list[dict[str, Any]], title: str | None) -> str:
    """The rows as a plain text table (fixed columns, long cells folded), with its
    title and header when ``title`` is given; written by hand, at a few microseconds a
    row, so that the table costs the command no more than its verdicts."""
    widths = [w for _, w in COLUMNS[:-1]]
    widths.append(max(LINE - sum(widths) - len(SEPARATOR) * len(widths), 10))
    full = sum(widths) + len(SEPARATOR) * (len(widths) - 1)
    out: list[str] = []
    if title is not None:
        out.append(title.center(full).rstrip())
        out.append(SEPARATOR.join(name.ljust(w) for (name, _), w in zip(COLUMNS, widths)).rstrip())
        out.append(RULE * full)
    for r in rows:
        recorded = r["recorded"] + (f" ({r['termination']})" if r["termination"] else "")
        if r["skipped"]:
            verdict = f"skipped: {r['skipped']}"
        elif r["agrees"] is None:
            verdict = "not compared"
        elif r["agrees"]:
            verdict = "agrees"
        else:
            verdict = "; ".join(f"{f['rule']}: {f['reason']}" for f in r["findings"])
        cells = [str(r["game"]), f"{r['white']} - {r['black']}", recorded, r["result"] or "*", r["reason"] or "-",
                 r["cite"] or "-", r["ended_at"] or "-", r["ruleset"] or "-"]
        folded = [_fold(_cell(c, w), w) for c, w in zip(cells, widths)]
        folded.append(_fold(verdict if verdict.isprintable() else quote(verdict, 4 * len(verdict)), widths[-1]))
        for i in range(max(len(f) for f in folded)):
            out.append(SEPARATOR.join((f[i] if i < len(f) else "").ljust(w) for f, w in zip(folded, widths)).rstrip())
    return "\n".join(out)


@click.command(name="adjudicate")
@click.argument("pgn_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--rules", "rules", default=DEFAULT_RULES, show_default=True,
              help="A family (fide, uscf: the Laws in force for each game) or a ruleset id, alias or file.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game instead of a table.")
@click.option("--strict-pgn", "strict", is_flag=True,
              help="Refuse the departures from the PGN standard the reader otherwise repairs.")
@click.pass_context
def command(ctx: click.Context, pgn_file: Path, rules: str, as_json: bool, strict: bool) -> None:
    """Adjudicate every game of PGN_FILE (PGN, .gz, .bz2, .zst) and flag disagreements."""
    with collector_paused():
        choose = cached_chooser(rules)
        title: str | None = f"Adjudication under {rules_name(rules)}"
    total = good = disagree = skipped = 0
    damaged = False
    block: list[dict[str, Any]] = []
    damage: list[Damage] = []
    with judging():
        for item, audit in _judged(pgn_file, choose, strict, damage):
            total += 1
            row = report(item, audit)
            if row["error"] is not None:
                line = f"arbiter: {pgn_file}: game {row['game']} ({row['white']} - {row['black']}): {row['error']}"
                click.echo(line if line.isprintable() and len(line) <= ERROR_LINE else quote(line, ERROR_LINE),
                           err=True)
            elif row["skipped"] is not None:
                skipped += 1
            else:
                good += 1
                disagree += row["agrees"] is False
            if as_json:
                click.echo(json.dumps(row, ensure_ascii=False))
            elif row["error"] is None:
                block.append(row)
                if len(block) == BLOCK:
                    click.echo(_table(block, title))
                    block, title = [], None
    for found in damage:
        damaged = True
        click.echo(f"arbiter: {pgn_file}: damaged after {found.at:,} bytes ({found.message}); "
                   f"the games before the damage were adjudicated", err=True)
    if not as_json:
        if block or title is not None:
            click.echo(_table(block, title))
        click.echo(f"{total} game(s): {good} adjudicated, {disagree} disagree with the record, "
                   f"{skipped} skipped (variants the Laws do not cover), {total - good - skipped} could not be read")
    if good + skipped < total or damaged:
        ctx.exit(EXIT_FAILURE)
