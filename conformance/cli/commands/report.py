"""``arbiter report render|classes REPORT.jsonl``: re-render a saved JSON Lines report;
``arbiter report audit OUT.jsonl --html PAGE``: the page of an ``arbiter audit --out`` file.

(Shard reports are joined by ``arbiter run merge``, which takes the same
``--junit``/``--html`` options.)

``render`` prints the terminal summary and, on request, writes JUnit XML, HTML and
Markdown; ``classes`` lists every failure class (kind x cites x message signature) with
counts and example ids, as a table or as JSON Lines. Exit status as ``arbiter run``:
0 when the report's expectations were all met, 1 otherwise (with ``--strict`` also
when a result was not judged or a shard is missing) or when the report is unreadable.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console

from conformance.reports import html, junit, load, markdown, terminal
from conformance.reports.summary import summarize

STRICT_HELP = "Exit 1 also when a result was not judged (skipped) or a shard is missing."


@click.group(name="report")
def command() -> None:
    """Work with saved reports (JSON Lines written by ``arbiter run`` or ``arbiter audit``)."""


@command.command(name="audit")
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--html", "html_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Write the audit's findings and summaries as a static HTML page to this file.")
def audit(out: Path, html_path: Path) -> None:
    """Render OUT (the JSON Lines of ``arbiter audit --out``, finished or interrupted) as HTML."""
    from conformance.audit import html as audit_html

    audit_html.write(audit_html.read(out), html_path)


@command.command(name="render")
@click.argument("report", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write JUnit XML to this file.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a self-contained HTML report to this file.")
@click.option("--markdown", "markdown_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a Markdown summary (e.g. to $GITHUB_STEP_SUMMARY).")
@click.option("--failures", "max_failures", type=click.IntRange(min=0),
              default=terminal.MAX_FAILURES, show_default=True,
              help="How many failures to show in the terminal.")
@click.option("-q", "--quiet", is_flag=True, help="No terminal summary.")
@click.option("--strict", is_flag=True, help=STRICT_HELP)
@click.pass_context
def render(ctx: click.Context, report: Path, junit_path: Path | None,
           html_path: Path | None, markdown_path: Path | None, max_failures: int,
           quiet: bool, strict: bool) -> None:
    """Show REPORT's summary; write it as JUnit XML, HTML and/or Markdown."""
    records = load(report)
    if not quiet:
        terminal.render(records, Console(), max_failures=max_failures)
    if junit_path is not None:
        junit.write(records, junit_path)
    if html_path is not None:
        html.write(records, html_path)
    if markdown_path is not None:
        markdown.write(records, markdown_path)
    ctx.exit(summarize(records).exit_status(strict))


@command.command(name="classes")
@click.argument("report", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per class instead of a table.")
@click.option("--skips", is_flag=True, help="Group the results not judged (skipped) by reason instead.")
@click.option("--strict", is_flag=True, help=STRICT_HELP)
@click.pass_context
def classes(ctx: click.Context, report: Path, as_json: bool, skips: bool, strict: bool) -> None:
    """Every failure class of REPORT, largest first: counts, kind, cites, signature, examples."""
    summary = summarize(load(report))
    groups = summary.skip_reasons if skips else summary.classes
    if as_json:
        for group in groups:
            record = group.as_record()
            if skips:
                del record["cites"]
            click.echo(json.dumps(record, ensure_ascii=False))
    elif groups:
        title = ("Not judged, by reason" if skips
                 else f"Failure classes: {len(groups)} for {len(summary.problems)} failures")
        terminal.print_classes(Console(soft_wrap=False), title, groups, limit=None, cites=not skips)
    else:
        click.echo("no results not judged" if skips else "no failures")
    ctx.exit(summary.exit_status(strict))
