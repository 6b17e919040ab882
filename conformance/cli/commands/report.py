"""``arbiter report render REPORT.jsonl``: re-render a saved JSON Lines report.

(Shard reports are joined by ``arbiter run merge``, which takes the same
``--junit``/``--html`` options.)

Prints the terminal summary and, on request, writes JUnit XML, HTML and Markdown. Exit status 0
when the report's expectations were all met, 1 otherwise (as ``arbiter run``).
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from conformance.reports import html, junit, load, markdown, terminal
from conformance.reports.summary import summarize


@click.group(name="report")
def command() -> None:
    """Work with saved reports (JSON Lines written by ``arbiter run``)."""


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
@click.pass_context
def render(ctx: click.Context, report: Path, junit_path: Path | None,
           html_path: Path | None, markdown_path: Path | None, max_failures: int,
           quiet: bool) -> None:
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
    ctx.exit(0 if summarize(records).ok else 1)
