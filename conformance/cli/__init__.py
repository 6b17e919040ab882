"""The ``arbiter`` command line: a thin shell over ``reference_impl`` and the harness.

Each sub-command lives in its own module under :mod:`conformance.cli.commands`, named
as the command, and exposes a click command (or group) named ``command``; they are
discovered here and imported when used, so a new command is one new file. User errors (:class:`reference_impl.errors.ArbiterError`)
are printed as one line on stderr with their exit status; no traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import Any

import click

from reference_impl.errors import EXIT_USAGE, ArbiterError

from . import commands as _commands


#: The sub-command names: one module each, named as the command.
_NAMES = sorted(info.name for info in pkgutil.iter_modules(_commands.__path__) if not info.name.startswith("_"))


class _ArbiterGroup(click.Group):
    """Sub-commands are imported when used, so a command starts without loading the others."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(_NAMES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in _NAMES:
            return None
        command = getattr(importlib.import_module(f"{_commands.__name__}.{name}"), "command", None)
        return command if isinstance(command, click.Command) else None

    def invoke(self, ctx: click.Context) -> Any:
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



if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
