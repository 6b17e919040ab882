"""``arbiter run``: the corpus against an implementation; ``arbiter run merge``: join shards.

Exit status: 0 every expectation met; 1 a fixture failed, errored or passed
unexpectedly (xpassed), or bad input (fixture, expected-failure file), or, with
``--strict``, a fixture was skipped or (merge) a shard is missing; 2 usage error;
3 the adapter could not start. Ctrl-C, SIGTERM or SIGHUP stops the run and its
workers, writes the partial report with its footer and exits 128 + the signal's
number (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).

The report is streamed to ``REPORT.partial`` and renamed to ``REPORT`` when the run
ends, so a run whose adapter cannot start leaves an earlier ``REPORT`` as it was.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from conformance.adapters.base import AdapterStartError
from conformance.harness import jsonl, records
from conformance.harness.select import Selection, missing_shards, parse_shard
from conformance.harness.session import Config, execute, plan
from conformance.harness.reports.summary import Summary, summarize
from conformance.cli.common import jobs as _jobs, load_rules, stop_signals_interrupt

DEFAULT_REPORT = "arbiter-report.jsonl"
PARTIAL_SUFFIX = ".partial"  #: the report while it is written; renamed when the run ends
EXIT_INTERRUPTED = 130  #: Ctrl-C; other stop signals exit EXIT_SIGNAL_BASE + their number
EXIT_SIGNAL_BASE = 128
VERBOSE_HELP = "also count the results the adapter does not declare (unsupported) and their rows"


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, soft_wrap=True, highlight=False)


def render_outputs(
    found: list[records.Record], junit: str | None, html: str | None, quiet: bool,
    verbose: bool = False, summary: Summary | None = None,
) -> None:
    """The terminal summary (``verbose``: counting what the adapter does not declare too;
    ``summary``: ``found``'s, when made already) and the optional JUnit XML and HTML files."""
    if not quiet:
        from conformance.harness.reports import terminal

        terminal.render(found, _console(), verbose=verbose, summary=summary)
    if junit:
        from conformance.harness.reports import junit as junit_report

        junit_report.write(found, junit)
    if html:
        from conformance.harness.reports import html as html_report

        html_report.write(found, html)


class _RunGroup(click.Group):
    """``run`` runs when given no sub-command; ``run merge`` merges reports."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] == "merge":
            ctx.meta["arbiter_merge"] = True
        return super().parse_args(ctx, args)


@click.group(
    cls=_RunGroup,
    name="run",
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option("-a", "--adapter", default="reference", show_default=True,
              help="reference, python-chess, uci:PATH, cmd:COMMAND or module:pkg.mod:Class")
@click.option("-f", "--fixtures", "fixture_paths", multiple=True, type=click.Path(),
              help="fixture files or directories (default: the shipped corpus)")
@click.option("-k", "--kind", multiple=True, help="only this kind (repeatable)")
@click.option("-r", "--ruleset", "--rules", "ruleset", multiple=True,
              help="only this ruleset: id, alias or YAML file (repeatable; see docs/rulesets.md)")
@click.option("-t", "--tag", multiple=True, help="only fixtures with this tag (repeatable)")
@click.option("-T", "--exclude-tag", multiple=True, help="leave out fixtures with this tag (repeatable)")
@click.option("--id", "ids", multiple=True, help="only fixture ids matching this glob (repeatable)")
@click.option("--cite", multiple=True, help="only fixtures citing an article matching this glob")
@click.option("--xfail", "xfail_files", multiple=True, type=click.Path(),
              help="expected-failure file (YAML/JSON: fixture id -> reason)")
@click.option("-j", "--jobs", default="1", show_default=True, help="worker processes, or 'auto' (one per CPU)")
@click.option("--shard", default=None, help="run only shard K of N (K/N, counted from 1)")
@click.option("--timeout", default=None, type=float, help="seconds per fixture [default: 10 for cmd:, none in-process]")
@click.option("-x", "--fail-fast", is_flag=True, help="stop at the first failure")
@click.option("--max-fail", default=None, type=int, help="stop after N failures")
@click.option("-o", "--report", default=DEFAULT_REPORT, show_default=True,
              help="JSON Lines report file ('-' for none)")
@click.option("--junit", default=None, type=click.Path(), help="also write JUnit XML here")
@click.option("--html", default=None, type=click.Path(), help="also write an HTML report here")
@click.option("--validate-protocol", is_flag=True, help="check every adapter message against its schema")
@click.option("--validate-fixtures", is_flag=True, help="check every fixture against fixture.schema.json (slow)")
@click.option("--no-progress", is_flag=True, help="no progress bar")
@click.option("-q", "--quiet", is_flag=True, help="no terminal summary")
@click.option("-v", "--verbose", is_flag=True, help=VERBOSE_HELP)
@click.option("--strict", is_flag=True, help="exit 1 when any fixture was skipped (not judged)")
@click.pass_context
def command(ctx: click.Context, adapter: str, fixture_paths: tuple[str, ...], kind: tuple[str, ...],
            ruleset: tuple[str, ...], tag: tuple[str, ...], exclude_tag: tuple[str, ...], ids: tuple[str, ...], cite: tuple[str, ...],
            xfail_files: tuple[str, ...], jobs: str, shard: str | None, timeout: float | None,
            fail_fast: bool, max_fail: int | None, report: str, junit: str | None, html: str | None,
            validate_protocol: bool, validate_fixtures: bool, no_progress: bool, quiet: bool,
            verbose: bool, strict: bool) -> None:
    """Run the fixture corpus against an implementation and report its compliance.

    Exit status: 0 every expectation met; 1 a fixture failed, errored or passed
    unexpectedly, or bad input, or (--strict) a fixture was skipped; 2 usage error;
    3 the adapter could not start; 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP (the partial
    report is written).
    """
    if ctx.invoked_subcommand is not None or ctx.meta.get("arbiter_merge"):
        return
    _check_report_path(report)
    selection = Selection(list(kind), list(ruleset), list(tag), list(ids), list(cite),
                          parse_shard(shard) if shard else None, list(exclude_tag))
    config = Config(adapter, list(fixture_paths), selection, list(xfail_files), timeout,
                    fail_fast, max_fail, _jobs(jobs), validate_protocol, validate_fixtures, argv=sys.argv[1:])
    the_plan = plan(config)
    for pattern in the_plan.stale_xfails:
        click.echo(f"arbiter: warning: expected-failure entry {pattern!r} matches no fixture", err=True)
    if not the_plan.cases:
        from reference_impl.errors import UsageError

        for name in ruleset:  # an unknown one: the same error and exit status as `perft --rules`
            load_rules(name)
        raise UsageError("no fixture matches the selection")
    partial = None if report == "-" else report + PARTIAL_SUFFIX
    writer = jsonl.ReportWriter(partial)
    progress_bar = _progress(len(the_plan.cases), disabled=no_progress or quiet)

    def started(header: records.Record) -> None:
        if progress_bar is not None:
            progress_bar.start(case.kind for case in the_plan.cases)

    def emit(record: records.Record) -> None:
        writer.write(record)
        if progress_bar is not None:
            progress_bar.advance(record)

    found: list[records.Record] | None = None
    signals: list[int] = []
    changed: list[bool] = []  # a result re-judged after it was streamed
    try:
        with stop_signals_interrupt() as signals:
            found = execute(config, the_plan, emit, started, rejudged=lambda: changed.append(True))
    except AdapterStartError as error:
        writer.close()
        if partial is not None:
            os.unlink(partial)
            kept = " (the earlier report is unchanged)" if os.path.exists(report) else ""
            raise AdapterStartError(f"{error}; {report} not written{kept}") from None
        raise
    finally:
        if progress_bar is not None:
            progress_bar.stop()
        writer.close()
        if partial is not None and os.path.exists(partial):
            _finish_report(partial, report, found if changed else None)
    summary = summarize(found)
    render_outputs(found, junit, html, quiet, verbose, summary)
    if validate_protocol and not quiet:
        click.echo(_protocol_checked(adapter, found), err=True)
    if report != "-" and not quiet:
        click.echo(f"report: {report}", err=True)
    footer = found[-1]
    if footer.get("interrupted"):
        click.echo("arbiter: interrupted; the report holds the fixtures that finished", err=True)
        ctx.exit(EXIT_SIGNAL_BASE + signals[0] if signals else EXIT_INTERRUPTED)
    ctx.exit(max(records.exit_status(found), summary.exit_status(strict)))


def _check_report_path(report: str) -> None:
    """``-o`` must name a file in an existing folder: a usage error before anything runs."""
    from reference_impl.errors import UsageError

    if report == "-":
        return
    if os.path.isdir(report):
        raise UsageError(f"-o {report!r} is a directory: name a file, for example "
                         f"{os.path.join(report, DEFAULT_REPORT)!r}; nothing was written")
    folder = os.path.dirname(report) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"-o {report!r}: folder {folder!r} does not exist; nothing was written")


def _protocol_checked(adapter: str, found: list[records.Record]) -> str:
    """What ``--validate-protocol`` checked: the answers of a protocol v1 program, or nothing."""
    from conformance.implementations import resolve
    from conformance.harness.transports.process import ProcessAdapter
    from conformance.harness.protocol import SCHEMA_DIR

    if not isinstance(resolve(adapter), ProcessAdapter):
        return (f"--validate-protocol: {adapter} is not a protocol v1 program (in-process, UCI or XBoard); "
                "no message was checked")
    answered = [r for r in found if r.get("type") == "result" and r.get("status") != "unsupported"]
    bad = [r for r in answered if "violates the protocol schema" in str(r.get("message", ""))]
    verdict = f"{len(bad)} violated them (errored)" if bad else "none violated them"
    return (f"--validate-protocol: the start answer and {len(answered)} run answers checked against "
            f"{SCHEMA_DIR} (start-answer.json, run-answer.json, kinds.json): {verdict}")


def _finish_report(partial: str, report: str, found: list[records.Record] | None) -> None:
    """Move the streamed report into place, first rewritten from ``found`` when given:
    a late fault can change a result after it was streamed."""
    if found is not None:
        jsonl.write(partial, found)
    os.replace(partial, report)


def _progress(total: int, disabled: bool) -> Any:
    """The progress bar (cases done, time left estimated per kind), or None."""
    if disabled or total == 0:
        return None
    from conformance.cli.progress import RunProgress

    return RunProgress(_console(stderr=True))


@command.command("merge")
@click.argument("reports", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", default=DEFAULT_REPORT, show_default=True, help="merged JSON Lines report")
@click.option("--junit", default=None, type=click.Path(), help="also write JUnit XML here")
@click.option("--html", default=None, type=click.Path(), help="also write an HTML report here")
@click.option("-q", "--quiet", is_flag=True, help="no terminal summary")
@click.option("-v", "--verbose", is_flag=True, help=VERBOSE_HELP)
@click.option("--strict", is_flag=True, help="exit 1 when a fixture was skipped or a shard is missing")
@click.pass_context
def merge_command(ctx: click.Context, reports: tuple[str, ...], output: str, junit: str | None,
                  html: str | None, quiet: bool, verbose: bool, strict: bool) -> None:
    """Merge the JSON Lines reports of shards (--shard K/N) into one report.

    Shards missing from the set (``1/3`` and ``3/3`` without ``2/3``) are named in a
    warning and in the merged header (``selection.missing_shards``), and the summary
    does not call the merged report complete.
    """
    loaded = [(path, jsonl.read(path)) for path in reports]
    missing = missing_shards([(report[0].get("selection") or {}).get("shard") for _, report in loaded])
    merged = jsonl.merge(loaded)
    if missing:
        merged[0]["selection"]["missing_shards"] = missing
        click.echo(f"arbiter: warning: shard(s) {', '.join(missing)} missing from the merge; "
                   "the merged report is not the whole run", err=True)
    jsonl.write(output, merged)
    render_outputs(merged, junit, html, quiet, verbose)
    ctx.exit(max(records.exit_status(merged), summarize(merged).exit_status(strict)))

