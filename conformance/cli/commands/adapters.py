"""``arbiter adapters``: the shipped implementations; ``install`` fetches their packages.

Exit status: 0 done; 1 an install failed; 2 usage (an unknown name).
"""

from __future__ import annotations

import click

from reference_impl.errors import ArbiterError, UsageError

from conformance.implementations.catalog import (LIBRARIES, AdapterStartError, Library, apt_line, cache_dir,
                                                 install, install_debian, install_dir, installed_version)
from conformance.cli.common import console


def missing(names: list[str] | None = None) -> list[Library]:
    """The shipped implementations (of ``names``, default all) whose package is not installed."""
    chosen = [LIBRARIES[n] for n in (names or list(LIBRARIES)) if n in LIBRARIES]
    return [lib for lib in chosen if installed_version(lib) is None]


def install_all(libs: list[Library], echo: bool = True) -> list[str]:
    """Install ``libs`` (Debian packages in one apt-get); the names that failed.

    Each failure is one line on stderr; a Debian package that cannot be installed here
    (no root, no apt-get) prints the exact ``apt-get install`` line to run.
    """
    failed: list[str] = []
    debian = [lib for lib in libs if lib.registry == "apt" and installed_version(lib) != lib.pinned_version]
    if debian:
        try:
            install_debian(debian)
            if echo:
                click.echo(f"installed {', '.join(lib.package for lib in debian)} (Debian)")
        except AdapterStartError as error:
            click.echo(f"arbiter: {error}", err=True)
            failed += [lib.name for lib in debian]
    for lib in libs:
        if lib.registry == "apt":
            if lib not in debian and echo:
                click.echo(f"{lib.package} (Debian) is installed")
            continue
        try:
            install(lib)
        except AdapterStartError as error:
            click.echo(f"arbiter: {error}", err=True)
            failed.append(lib.name)
            continue
        if echo:
            click.echo(f"installed {lib.package} into {install_dir(lib)}")
    return failed


@click.group(name="adapters", context_settings={"help_option_names": ["-h", "--help"]})
def command() -> None:
    """The chess implementations Arbiter ships adapters for (docs/adapters.md)."""


@command.command(name="list")
def list_() -> None:
    """Each shipped implementation, its pinned package and the version installed here."""
    from rich.table import Table

    table = Table(title=f"cache folder: {cache_dir()}")
    for column in ("adapter", "software", "registry", "package (pinned)", "installed"):
        table.add_column(column)
    for lib in LIBRARIES.values():
        version = installed_version(lib)
        shown = "no" if version is None else version if version == lib.pinned_version else f"{version} (not the pin)"
        table.add_row(lib.name, lib.software, "Debian" if lib.registry == "apt" else lib.registry, lib.package, shown)
    console().print(table)
    absent = [lib for lib in LIBRARIES.values() if lib.registry == "apt" and installed_version(lib) is None]
    if absent:
        click.echo(f"Debian packages not installed; as root: {apt_line(absent)}")


@command.command(name="install")
@click.argument("names", nargs=-1, required=True)
def install_(names: tuple[str, ...]) -> None:
    """Install the packages of the named adapters (or `all`).

    npm packages go into the cache folder with `npm install --prefix`, PyPI ones with
    `pip install --target` under the interpreter the library needs, Debian packages with
    `apt-get install PKG=VERSION` (as root; otherwise the line to run is printed).
    Every name is tried; exit 1 if any failed.
    """
    chosen = list(LIBRARIES) if "all" in names else list(dict.fromkeys(names))
    unknown = [n for n in chosen if n not in LIBRARIES]
    if unknown:
        raise UsageError(f"unknown adapter {unknown[0]!r}: choose from {', '.join(LIBRARIES)} or all")
    failed = install_all([LIBRARIES[n] for n in chosen])
    if failed:
        raise ArbiterError(f"{len(failed)} of {len(chosen)} not installed: {', '.join(failed)}")
