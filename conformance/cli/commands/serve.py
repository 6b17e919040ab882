"""``arbiter serve``: the reference implementation speaks protocol v1 on stdin/stdout.

So ``arbiter run --adapter 'cmd:arbiter serve'`` works, and tools in any language can
use the reference as an oracle (``docs/protocol.md``). Logs go to stderr only.
"""

from __future__ import annotations

import sys

import click

from conformance.implementations import resolve
from conformance.harness.server import serve


@click.command(name="serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-r", "--rules", "rules", multiple=True, help="declare only this ruleset: id, alias or YAML file, declared by its id (repeatable)")
@click.option("-a", "--adapter", default="reference", show_default=True,
              help="in-process adapter to serve (reference, python-chess, module:pkg.mod:Class)")
@click.pass_context
def command(ctx: click.Context, rules: tuple[str, ...], adapter: str) -> None:
    """Speak the adapter protocol (v1) on stdin and stdout."""
    if adapter.startswith(("cmd:", "uci:")):
        from reference_impl.errors import UsageError

        raise UsageError("serve runs an in-process adapter; cmd: and uci: already are programs")
    if rules:
        from reference_impl.rules import load_ruleset

        for name in rules:
            load_ruleset(name)  # an unknown id is a usage error now, not at start
    the_adapter = resolve(adapter, rulesets=list(rules) or None)
    ctx.exit(serve(the_adapter, sys.stdin.buffer, sys.stdout.buffer))
