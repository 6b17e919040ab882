"""``arbiter audit FILE... --rules ID``: every game of a PGN database against the Laws.

``--rules`` is a family (``fide``, ``uscf``: the edition in force on each game's date,
its regime by the TimeControl, Chess960 by the tags; :mod:`conformance.tools.audit.laws`) or
one ruleset for every game (an id such as ``fide-2023``, an alias or a file). Games of
variants the Laws do not cover are skipped and counted. A thin shell over
:mod:`conformance.tools.audit`: checks the files, cuts them into partitions,
runs them here (``-j 1``), in local processes (``-j N``) or on a Dask cluster
(``--scheduler``), prints each finding as its partition finishes (in file order), writes
the JSON Lines output (``--out``, resumed when it exists), a summary and on request the
HTML page of the records (``--html``, :mod:`conformance.tools.audit.html`). Exit status:
0 the audit ran (findings are its output, not a failure); 1 a game could not be read, a
file was damaged or missing; 2 usage; 3 the scheduler could not be reached.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Iterator

import click

from reference_impl.collector import collector_paused
from reference_impl.errors import EXIT_FAILURE, ArbiterError, UsageError, quote

from conformance.tools.audit.execute import CONNECT_TIMEOUT, Item, PartResult, connect, judging, run_dask, run_local
from conformance.tools.audit.judge import KINDS
from conformance.tools.audit.laws import Family, cached_chooser
from conformance.tools.audit.log import AuditLog, Numbering
from conformance.tools.audit.sources import PARTITION_BYTES, Damage, partitions
from conformance.cli.common import console, jobs as _jobs


class PgnFileError(ArbiterError):
    """A PGN file named on the command line cannot be read."""


def _check_files(files: tuple[Path, ...]) -> list[Path]:
    for path in files:
        if not path.is_file():
            raise PgnFileError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
        try:
            path.open("rb").close()
        except OSError as error:
            raise PgnFileError(f"{path}: {error.strerror or error}") from None
    return list(files)


def _items(paths: list[Path], size: int, log: AuditLog | None, numbering: Numbering) -> Iterator[Item]:
    """The partitions to audit; those an earlier run finished come back as results."""
    for item in partitions(paths, size):
        if log is not None and not isinstance(item, Damage) and item.key in log.done:
            yield numbering.resumed(log.done[item.key])
        else:
            yield item


def _finding_line(record: dict[str, Any]) -> str:
    tags = record["tags"]
    who = f"{tags['White']} - {tags['Black']}, {tags['Site']}, {tags['Date']}"
    correct = record["correct"] or "no result (the record is not a legal game)"
    line = (f"{record['file']} game {record['game']} ({who}): {record['rule']} [{record['cite']}] "
            f"recorded {record['recorded']}, Laws {correct}: {record['reason']}")
    if record["proof"]:
        line += f"; proof: {record['proof']}"
    if record.get("ruleset"):
        line += f"; under {record['ruleset_reason']}"
    return line if line.isprintable() else quote(line, 2 * len(line))


class _Progress:
    """Games and bytes read, on stderr while the audit runs (only on a terminal)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.bar: Any = None
        if enabled:
            from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

            self.bar = Progress(TextColumn("audit"), BarColumn(), DownloadColumn(),
                                TextColumn("{task.fields[games]:,} games"), console=console(stderr=True),
                                transient=True)
            self.task = self.bar.add_task("audit", total=total, games=0)
            self.bar.start()

    def update(self, size: int, games: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=size, games=games)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@click.command(name="audit")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--rules", "-r", "rules", required=True,
              help="A family (fide, uscf: the Laws in force for each game) or a ruleset id, alias or file.")
@click.option("-j", "--jobs", "jobs", default="1", show_default=True,
              help="Local worker processes (a number or 'auto').")
@click.option("--out", "-o", "out", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="JSON Lines output; an existing one from the same audit is resumed.")
@click.option("--scheduler", default=None, help="Run on the Dask scheduler at ADDRESS (tcp://host:port).")
@click.option("--connect-timeout", type=float, default=CONNECT_TIMEOUT, show_default=True,
              help="Seconds to wait for the scheduler.")
@click.option("--partition-bytes", type=int, default=PARTITION_BYTES, show_default=True,
              help="Bytes of PGN text per task.")
@click.option("--html", "html_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also write the findings and summaries as a static HTML page.")
@click.option("--progress/--no-progress", default=None, help="Progress display [default: on a terminal].")
@click.option("--strict-pgn", "strict", is_flag=True,
              help="Refuse the departures from the PGN standard the reader otherwise repairs.")
@click.pass_context
def command(ctx: click.Context, files: tuple[Path, ...], rules: str, jobs: str, out: Path | None,
            scheduler: str | None, connect_timeout: float, partition_bytes: int, html_path: Path | None,
            progress: bool | None, strict: bool) -> None:
    """Audit every game of FILES (PGN, .pgn.gz, .pgn.bz2, .pgn.zst) under a ruleset or a
    family of them (fide, uscf: the Laws in force for each game)."""
    workers = _jobs(jobs)
    if workers < 1 or partition_bytes < 1:
        raise UsageError("-j and --partition-bytes must be at least 1")
    paths = _check_files(files)
    if html_path is not None and not html_path.resolve().parent.is_dir():
        raise PgnFileError(f"{html_path}: no such directory for the HTML page")
    with collector_paused():
        rules_id = rules_name(rules)
    header = {"rules": rules_id, "partition_bytes": partition_bytes, "files": [str(p) for p in paths],
              "strict_pgn": strict}
    client = connect(scheduler, connect_timeout) if scheduler else None
    log = AuditLog(out, header) if out is not None else None
    numbering = Numbering()
    kept = [{"type": "audit", **header}] if html_path is not None and log is None else None  # the page's records
    items = _items(paths, partition_bytes, log, numbering)
    results = (run_dask(items, rules, client, strict) if client is not None
               else run_local(items, rules, workers, strict))
    bar = _Progress(sum(p.stat().st_size for p in paths), sys.stderr.isatty() if progress is None else progress)
    began = time.perf_counter()
    try:
        with judging():
            for item in results:
                if isinstance(item, PartResult) and item.resumed:
                    records: list[dict[str, Any]] = []
                else:
                    records = numbering.records(item)
                    if log is not None:
                        log.write(records)
                    if kept is not None:
                        kept += records
                _echo(records)
                bar.update(numbering.summary.size, numbering.summary.games)
    finally:
        bar.stop()
        if client is not None:
            client.close()
    wall = time.perf_counter() - began
    summary = {"type": "summary", **numbering.summary.as_dict(), "wall_seconds": round(wall, 3)}
    if log is not None:
        log.write([summary])
        log.close()
    _print_summary(summary, numbering.summary.lines)
    if html_path is not None:
        from conformance.tools.audit import html as audit_html

        audit_html.write(audit_html.read(out) if out is not None else [*(kept or []), summary], html_path)
    if summary["errors"] or summary["damaged_files"]:
        ctx.exit(EXIT_FAILURE)


def rules_name(rules: str) -> str:
    """What ``--rules`` names, as the output says it: ``fide (per game)`` for a family,
    else the ruleset's id (an unknown name is the loader's one-line error)."""
    chosen = cached_chooser(rules)
    if isinstance(chosen, Family):
        return f"{chosen.name} (per game)"
    return chosen.rules.id


def _echo(records: list[dict[str, Any]]) -> None:
    for record in records:
        if record["type"] == "finding":
            click.echo(_finding_line(record))
        elif record["type"] == "error":
            where = f"game {record['game']}: " if record["game"] is not None else ""
            click.echo(f"arbiter: {record['file']}: {where}{record['message']}", err=True)
        elif record["type"] == "damage":
            click.echo(f"arbiter: {record['file']}: damaged after {record['at']:,} bytes ({record['message']}); "
                       f"the games before the damage were audited", err=True)


def _print_summary(summary: dict[str, Any], lines: dict[str, list[str]]) -> None:
    games, wall, cpu = summary["games"], summary["wall_seconds"], summary["cpu_seconds"]
    counts = ", ".join(f"{kind} {summary['findings'][kind]}" for kind in KINDS)
    rate = f"{games / wall:,.1f} games/s" if wall > 0 else "-"
    per_cpu = f"{games / cpu:,.1f} games per CPU-second" if cpu > 0 else "-"
    skipped = sum(summary["skipped"].values())
    for title, by_reason in (("unreadable", summary["unreadable"]), ("skipped", summary["skipped"])):
        for reason, count in sorted(by_reason.items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"{title}: {reason}: {count:,} game(s)")
            shown = lines.get(reason, [])
            for line in shown:
                click.echo(f"  {line}" if line.isprintable() else f"  {quote(line, 2 * len(line))}")
            if count > len(shown):
                click.echo(f"  ... and {count - len(shown):,} more (every one is in the --out file)")
    for name, label in (("warnings", "warning"), ("repairs", "repaired")):
        for kind, count in sorted(summary[name].items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"{label}: {kind}: {count:,} game(s)")
    if summary["rulesets"]:
        click.echo("judged under: " + ", ".join(f"{name} {count:,}" for name, count in sorted(summary["rulesets"].items())))
    click.echo(f"{games:,} game(s), {summary['bytes']:,} bytes: {sum(summary['findings'].values())} finding(s) "
               f"({counts}); {summary['errors']} unreadable, {skipped} skipped, {summary['damaged_files']} damaged "
               f"file(s), {summary['undetermined']} flag fall(s) undetermined; {rate}, {per_cpu}")
