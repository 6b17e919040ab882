"""The ``arbiter`` command line: a thin shell over ``reference_impl`` and the harness.

Each sub-command lives in its own module under :mod:`conformance.cli.commands` and
exposes a click command (or group) named ``command``; they are discovered here, so a
new command is one new file. User errors (:class:`reference_impl.errors.ArbiterError`)
are printed as one line on stderr with their exit status; no traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from reference_impl.errors import EXIT_USAGE, ArbiterError

from . import commands as _commands


class _ArbiterGroup(click.Group):
    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except ArbiterError as error:
            click.echo(f"arbiter: {error}", err=True)
            ctx.exit(error.exit_code)
        except KeyboardInterrupt:
            click.echo("arbiter: interrupted", err=True)
            ctx.exit(130)


@click.group(cls=_ArbiterGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chess-arbiter", prog_name="arbiter")
def main() -> None:
    """Arbiter: the Laws of Chess as executable data, and a conformance suite.

    Exit status: 0 success; 1 failed checks or bad input; 2 usage error;
    3 the implementation under test could not start.
    """


def _register() -> None:
    for info in sorted(pkgutil.iter_modules(_commands.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{_commands.__name__}.{info.name}")
        command = getattr(module, "command", None)
        if isinstance(command, click.Command):
            main.add_command(command)


_register()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
