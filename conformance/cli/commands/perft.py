"""``arbiter perft FEN DEPTH``: count leaf nodes with the reference interpreter."""

from __future__ import annotations

import time

import click

from reference_impl.core import Board, divide, perft
from reference_impl.errors import UsageError, quote

from conformance.adapters.base import MAX_PERFT_DEPTH as MAX_DEPTH
from conformance.cli.common import console, load_rules, parse_position


@click.command(name="perft", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, required=True, metavar="FEN DEPTH")
@click.option("--rules", "rules_id", default="fide-2023", show_default=True, help="Ruleset id, alias or file.")
@click.option("--divide", "show_divide", is_flag=True, help="Print the count below each root move.")
def command(args: tuple[str, ...], rules_id: str, show_divide: bool) -> None:
    """Count the leaf nodes DEPTH plies below FEN ('startpos' for the initial array).

    No draw rule applies. The FEN may be quoted or given as separate words.
    """
    if len(args) < 2:
        raise UsageError("perft needs a FEN (or 'startpos') and a depth")
    depth_text, fen = args[-1], " ".join(args[:-1])
    digits = depth_text.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise UsageError(f"depth {quote(depth_text)} is not an integer")
    if depth_text.strip().startswith("-") or len(digits) > 3 or int(digits) > MAX_DEPTH:
        raise UsageError(f"depth {quote(depth_text)} is out of range 0..{MAX_DEPTH}")
    depth = int(digits)
    rules = load_rules(rules_id)
    board = parse_position(fen, rules)
    out = console()
    started = time.perf_counter()
    if show_divide and depth >= 1:
        counts = divide(board, depth)
        for move in sorted(counts):
            out.print(f"{move}: {counts[move]}")
        nodes = sum(counts.values())
        out.print()
    else:
        nodes = perft(board, depth)
    elapsed = time.perf_counter() - started
    out.print(f"Nodes searched: {nodes}")
    rate = f"{nodes / elapsed:,.0f} nodes/s" if elapsed > 0 else "-"
    click.echo(f"depth {depth}, {elapsed:.3f} s, {rate} ({rules.id})", err=True)
