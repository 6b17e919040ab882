"""``arbiter report render|classes|findings REPORT.jsonl``: a saved JSON Lines report
again; ``arbiter report audit OUT.jsonl --html PAGE``: the page of an ``arbiter audit
--out`` file.

(Shard reports are joined by ``arbiter run merge``, which takes the same
``--junit``/``--html`` options.)

``render`` prints the terminal summary and, on request, writes JUnit XML, HTML and
Markdown; ``classes`` lists every failure class (by cause, or ``--by cite``: kind x cites
x message signature) with counts and example ids, as a table or as JSON Lines;
``findings`` writes a Markdown draft per class for the implementation's issue tracker.
Exit status of ``render`` and ``classes`` as ``arbiter run``: 0 when the report's
expectations were all met, 1 otherwise (with ``--strict`` also when a result was not
judged or a shard is missing) or when the report is unreadable; ``findings`` exits 0
once the drafts are written, 1 when the report is unreadable or the folder unwritable.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console

from conformance.harness.reports import findings, html, junit, load, markdown, terminal
from conformance.harness.reports.classes import GROUPINGS, Grouping
from conformance.harness.reports.summary import summarize

STRICT_HELP = "Exit 1 also when a result was not judged (skipped) or a shard is missing."
VERBOSE_HELP = "Also count the results the adapter does not declare (unsupported) and their rows."
BY_HELP = "cause: one class per root cause, across articles and, for crashes, kinds; cite: kind x cites x message."


@click.group(name="report")
def command() -> None:
    """Work with saved reports (JSON Lines written by ``arbiter run`` or ``arbiter audit``)."""


@command.command(name="audit")
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--html", "html_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Write the audit's findings and summaries as a static HTML page to this file.")
def audit(out: Path, html_path: Path) -> None:
    """Render OUT (the JSON Lines of ``arbiter audit --out``, finished or interrupted) as HTML."""
    from conformance.tools.audit import html as audit_html

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
@click.option("-v", "--verbose", is_flag=True, help=VERBOSE_HELP)
@click.option("--strict", is_flag=True, help=STRICT_HELP)
@click.pass_context
def render(ctx: click.Context, report: Path, junit_path: Path | None,
           html_path: Path | None, markdown_path: Path | None, max_failures: int,
           quiet: bool, verbose: bool, strict: bool) -> None:
    """Show REPORT's summary; write it as JUnit XML, HTML and/or Markdown."""
    records = load(report)
    if not quiet:
        terminal.render(records, Console(), max_failures=max_failures, verbose=verbose)
    if junit_path is not None:
        junit.write(records, junit_path)
    if html_path is not None:
        html.write(records, html_path)
    if markdown_path is not None:
        markdown.write(records, markdown_path)
    ctx.exit(summarize(records).exit_status(strict))


@command.command(name="classes")
@click.argument("report", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--by", type=click.Choice(GROUPINGS), default="cause", show_default=True, help=BY_HELP)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per class instead of a table.")
@click.option("--skips", is_flag=True, help="Group the results not judged (skipped) by reason instead.")
@click.option("--strict", is_flag=True, help=STRICT_HELP)
@click.pass_context
def classes(ctx: click.Context, report: Path, by: Grouping, as_json: bool, skips: bool, strict: bool) -> None:
    """Every failure class of REPORT, largest first: counts, kind, cites, signature, examples."""
    summary = summarize(load(report))
    groups = summary.skip_reasons if skips else summary.classes_by(by)
    if as_json:
        for group in groups:
            record = group.as_record()
            if skips:
                for key in ("cites", "expected", "crash", "sites"):
                    del record[key]
            click.echo(json.dumps(record, ensure_ascii=False))
    elif groups:
        title = ("Not judged, by reason" if skips
                 else f"Failure classes by {by}: {len(groups)} for {len(summary.problems)} failures")
        terminal.print_classes(Console(soft_wrap=False), title, groups, limit=None, cites=not skips)
    else:
        click.echo("no results not judged" if skips else "no failures")
    ctx.exit(summary.exit_status(strict))


@command.command(name="findings")
@click.argument("report", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
              help="Write one Markdown file per class and a README.md index into this folder "
                   "(default: print the drafts).")
@click.option("--by", type=click.Choice(GROUPINGS), default="cause", show_default=True, help=BY_HELP)
def findings_command(report: Path, out: Path | None, by: Grouping) -> None:
    """A Markdown draft per failure class of REPORT, for the implementation's issue tracker:
    the rule and its articles, the smallest failing fixture (position, board, moves), what
    the Laws give and what the implementation answered, and the command reproducing it."""
    records = load(report)
    drafts = findings.drafts(records, by)
    if out is not None:
        header = next((r for r in records if r.get("type") == "header"), {})
        findings.write(drafts, header, out)
        click.echo(f"wrote {len(drafts)} draft{'s' if len(drafts) != 1 else ''} and README.md into {out}")
    elif drafts:
        click.echo("\n---\n\n".join(d.text for d in drafts), nl=False)
    else:
        click.echo("no failures")
