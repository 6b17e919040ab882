"""``arbiter fen check FEN``: validate a FEN and say why it is invalid."""

from __future__ import annotations

import json

import click

from reference_impl.errors import FenError

from conformance.cli.common import console, load_rules, parse_position


@click.group(name="fen")
def command() -> None:
    """Check and normalise FEN strings."""


@command.command(name="check")
@click.argument("fen", nargs=-1, required=True)
@click.option("--rules", "rules_id", default="fide-2023", show_default=True, help="Ruleset id, alias or file.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def check(fen: tuple[str, ...], rules_id: str, as_json: bool) -> None:
    """Say whether FEN is a valid position under the ruleset, and why not.

    Exit status 0 when valid, 1 when invalid. A valid FEN is echoed in canonical form
    (X-FEN castling, en passant only where a legal capture exists) and Shredder-FEN.
    """
    text = " ".join(fen)
    rules = load_rules(rules_id)
    out = console()
    try:
        board = parse_position(text, rules)
    except FenError as error:
        if as_json:
            out.print(json.dumps({"valid": False, "fen": text, "reason": error.reason}))
        else:
            out.print(f"invalid: {error.reason}")
        raise SystemExit(1) from None
    canonical = board.fen()
    if as_json:
        out.print(json.dumps({"valid": True, "fen": canonical, "shredder": board.fen(castling="shredder")}))
    else:
        out.print("valid")
        out.print(f"fen:      {canonical}")
        out.print(f"shredder: {board.fen(castling='shredder')}")
