"""``arbiter adapters``: the shipped chess-library adapters; ``install`` fetches their packages.

Exit status: 0 done; 1 an install failed; 2 usage (an unknown name).
"""

from __future__ import annotations

import click

from reference_impl.errors import ArbiterError, UsageError

from ...adapters.implementations.catalog import LIBRARIES, AdapterStartError, Library, cache_dir, install, install_dir
from ..common import console


def _installed(lib: Library) -> bool:
    folder = install_dir(lib)
    if lib.registry == "npm":
        return (folder / "node_modules" / lib.module / "package.json").is_file()
    return (folder / lib.module).is_dir()


@click.group(name="adapters", context_settings={"help_option_names": ["-h", "--help"]})
def command() -> None:
    """The chess libraries Arbiter ships adapters for (docs/adapters.md)."""


@command.command(name="list")
def list_() -> None:
    """Each shipped library adapter, its package and whether the cache folder holds it."""
    from rich.table import Table

    table = Table(title=f"cache folder: {cache_dir()}")
    for column in ("adapter", "registry", "package", "in cache"):
        table.add_column(column)
    for lib in LIBRARIES.values():
        table.add_row(lib.name, lib.registry, lib.package, "yes" if _installed(lib) else "no")
    console().print(table)


@command.command(name="install")
@click.argument("names", nargs=-1, required=True)
def install_(names: tuple[str, ...]) -> None:
    """Install the packages of the named adapters (or `all`) into the cache folder.

    npm packages go in with `npm install --prefix`, PyPI ones with `pip install --target`
    under the interpreter the library needs. Every name is tried; exit 1 if any failed.
    """
    chosen = list(LIBRARIES) if "all" in names else list(dict.fromkeys(names))
    unknown = [n for n in chosen if n not in LIBRARIES]
    if unknown:
        raise UsageError(f"unknown adapter {unknown[0]!r}: choose from {', '.join(LIBRARIES)} or all")
    failed = []
    for name in chosen:
        lib = LIBRARIES[name]
        try:
            install(lib)
        except AdapterStartError as error:
            click.echo(f"arbiter: {error}", err=True)
            failed.append(name)
            continue
        click.echo(f"installed {lib.package} into {install_dir(lib)}")
    if failed:
        raise ArbiterError(f"{len(failed)} of {len(chosen)} not installed: {', '.join(failed)}")
