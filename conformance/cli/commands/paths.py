"""``arbiter paths``: where this installation keeps what a user or an adapter author reads.

Exit status: 0.
"""

from __future__ import annotations

import click


@click.command(name="paths", context_settings={"help_option_names": ["-h", "--help"]})
def command() -> None:
    """Print the folders of the installed corpus, schemas, rule tables and adapter cache."""
    from reference_impl.rules.paths import spec_dir

    from conformance.implementations.catalog import cache_dir
    from conformance.harness.fixtures import DEFAULT_DIR, SCHEMA_PATH
    from conformance.harness.protocol import SCHEMA_DIR

    rows = (
        ("corpus", DEFAULT_DIR, "the fixtures, JSON Lines (docs/fixtures.md)"),
        ("fixture schema", SCHEMA_PATH, "one fixture's JSON Schema"),
        ("protocol schemas", SCHEMA_DIR, "adapter protocol v1 messages (docs/protocol.md)"),
        ("rule tables", spec_dir(), "the rulesets, articles and their schema (docs/rulesets.md)"),
        ("adapter cache", cache_dir(), "libraries installed by `arbiter adapters install`"),
    )
    width = max(len(name) for name, _, _ in rows)
    for name, path, what in rows:
        click.echo(f"{name:<{width}}  {path}  ({what})")
