"""``arbiter matrix``: several chess implementations over one fixture selection.

Writes ``compliance.md``, ``compliance.html`` and ``compliance.json`` into ``--out``
after each implementation finishes (an interrupted run keeps the rows done). Before
running it says which shipped implementations are not installed and how to install
them; ``--install`` installs them first. An implementation whose package or runtime is
missing is listed as not run, with the reason. Exit status: 0 the matrix was written
(failures of the implementations are its content); 1 bad input (fixtures, output
folder) or a failed ``--install``; 2 usage error.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from reference_impl.errors import ArbiterError, UsageError

from conformance.harness.select import Selection, parse_shard
from conformance.tools.matrix import render
from conformance.tools.matrix.model import Row
from conformance.tools.matrix.run import default_adapters, run_all
from .adapters import install_all, missing


def _write(out: Path, rows: list[Row], meta: dict[str, object]) -> None:
    """The three files, each replaced whole (written beside, then renamed)."""
    texts = {"markdown": render.as_markdown(rows, meta), "html": render.as_html(rows, meta),
             "json": render.as_json(rows, meta)}
    for key, text in texts.items():
        path = out / render.FILES[key]
        partial = path.with_name(path.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)


@click.command(name="matrix", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-a", "--adapter", "adapters", multiple=True,
              help="an implementation (repeatable; default: python-chess and every shipped implementation)")
@click.option("-f", "--fixtures", "fixture_paths", multiple=True, type=click.Path(),
              help="fixture files or directories (default: the shipped corpus)")
@click.option("-k", "--kind", multiple=True, help="only this kind (repeatable)")
@click.option("-t", "--tag", multiple=True, help="only fixtures with this tag (repeatable)")
@click.option("-T", "--exclude-tag", multiple=True, help="leave out fixtures with this tag (repeatable)")
@click.option("--id", "ids", multiple=True, help="only fixture ids matching this glob (repeatable)")
@click.option("--shard", default=None, help="only shard K of N of the corpus (K/N): a sample")
@click.option("-j", "--jobs", default=1, show_default=True, type=int, help="worker processes per implementation")
@click.option("--timeout", default=None, type=float, help="seconds per fixture [default: 10]")
@click.option("-o", "--out", default="arbiter-matrix", show_default=True, type=click.Path(file_okay=False),
              help="folder for compliance.md, compliance.html and compliance.json")
@click.option("--install", "install_missing", is_flag=True,
              help="first install the shipped implementations that are missing (arbiter adapters install)")
def command(adapters: tuple[str, ...], fixture_paths: tuple[str, ...], kind: tuple[str, ...], tag: tuple[str, ...],
            exclude_tag: tuple[str, ...], ids: tuple[str, ...], shard: str | None, jobs: int,
            timeout: float | None, out: str, install_missing: bool) -> None:
    """Run several implementations and write their compliance matrix.

    Exit status: 0 the matrix was written; 1 bad input or a failed --install; 2 usage error.
    """
    if jobs < 1:
        raise UsageError(f"-j must be at least 1, got {jobs}")
    specs = list(dict.fromkeys(adapters)) or default_adapters()
    absent = missing(specs)
    if absent and install_missing:
        failed = install_all(absent)
        if failed:
            raise ArbiterError(f"--install: {len(failed)} of {len(absent)} not installed: {', '.join(failed)}")
    elif absent:
        click.echo(f"not installed: {', '.join(lib.name for lib in absent)}; they will be listed as not run. "
                   f"Install them with `arbiter matrix --install` (or `arbiter adapters install all`).", err=True)
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ArbiterError(f"cannot create output folder {out!r}: {error.strerror or error}") from None
    selection = Selection(list(kind), [], list(tag), list(ids), [], parse_shard(shard) if shard else None,
                          list(exclude_tag))
    from conformance.harness import fixtures as corpus

    meta: dict[str, object] = {
        "corpus_revision": corpus.load(list(fixture_paths) or None).revision,
        "selection_text": _describe(kind, tag, exclude_tag, ids, shard),
        "selection": {**selection.as_record(), "fixtures": list(fixture_paths)},
    }
    rows: list[Row] = []

    def done(row: Row) -> None:
        rows.append(row)
        state = f"not run: {row.skipped}" if row.skipped else \
            f"{render.percent(row.total)} of fixtures, {len(row.classes)} failure class(es)"
        click.echo(f"{render.label(row)}: {state}", err=True)
        _write(folder, rows, meta)

    run_all(specs, selection, list(fixture_paths), jobs, timeout, done)
    click.echo(f"wrote {', '.join(str(folder / name) for name in render.FILES.values())}")


def _describe(kind: tuple[str, ...], tag: tuple[str, ...], exclude_tag: tuple[str, ...], ids: tuple[str, ...],
              shard: str | None) -> str:
    parts = [f"{name} {', '.join(values)}" for name, values in
             (("kind", kind), ("tag", tag), ("without tag", exclude_tag), ("id", ids)) if values]
    if shard:
        parts.append(f"shard {shard}")
    return "; ".join(parts) or "the whole corpus"
