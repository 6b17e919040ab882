"""``arbiter convert``: move lists and PGN files between notations.

``arbiter convert game.pgn --to iccf`` writes each game's main line in ICCF;
``--to pgn`` re-exports canonical PGN. ``arbiter convert --from san --to uedemann
--fen FEN e4 e5 Nf3`` converts a move list. A broken game is reported on stderr (game,
move number, reason) and the other games are still converted; the exit status is then 1.
"""

from __future__ import annotations

from pathlib import Path

import click

from reference_impl.errors import ArbiterError, UsageError
from reference_impl.notation.api import notation_ids, to_notation
from reference_impl.notation.errors import NotationError
from reference_impl.notation.game import convert_moves, replay, start_board
from reference_impl.notation.pgn import PgnGame, PgnMove, read_games, write_game

from ..common import load_rules, parse_position


class ConvertFailed(ArbiterError):
    """Some games or moves could not be converted (each already reported)."""


def _check_notation(name: str, option: str, extra: tuple[str, ...] = ()) -> str:
    if name not in notation_ids() and name not in extra:
        raise UsageError(f"{option} {name!r} is not a notation (known: {', '.join([*notation_ids(), *extra])})")
    return name


def _numbered(texts: list[str], start: PgnGame, board_turn: int, fullmove: int) -> str:
    parts, black = [], board_turn == 1
    if black and texts:
        parts.append(f"{fullmove}...")
    for text in texts:
        if not black:
            parts.append(f"{fullmove}.")
        parts.append(text)
        if black:
            fullmove += 1
        black = not black
    return " ".join(parts)


def _convert_pgn(text: str, source: str, target: str, rules_id: str | None) -> int:
    failures = 0
    for game in read_games(text):
        for error in game.errors:
            click.echo(f"arbiter: {error}", err=True)
        try:
            played = replay(game, rules_id, lenient=source == "san:lenient", notation="san" if source.startswith("san") else source)
        except ArbiterError as error:
            click.echo(f"arbiter: {error}", err=True)
            failures += 1
            continue
        if played.error is not None:
            click.echo(f"arbiter: {played.error}", err=True)
            failures += 1
            continue
        failures += bool(game.errors)
        board = played.start.copy()
        written = []
        for move in played.moves:
            written.append(to_notation(board, move, "san" if target == "pgn" else target))
            board.push(move)
        result = game.result or game.tags.get("Result", "*")
        if target == "pgn":
            out = PgnGame(index=game.index, line=game.line, tags=dict(game.tags), result=result, comment=game.comment)
            out.moves = [
                PgnMove(text=w, line=m.line, nags=m.nags, comments=m.comments, comments_before=m.comments_before)
                for w, m in zip(written, game.moves)
            ]
            click.echo(write_game(out))
        else:
            who = f"{game.tags.get('White', '?')} - {game.tags.get('Black', '?')}"
            click.echo(f"# game {game.index}: {who}")
            click.echo(_numbered(written, game, played.start.turn, played.start.fullmove_number) + f" {result}")
    return failures


@click.command(name="convert")
@click.argument("inputs", nargs=-1)
@click.option("--to", "target", required=True, help="Target notation id (san, lan, uci, fan, iccf, uedemann, descriptive, san:de, ...) or pgn.")
@click.option("--from", "source", default="san:lenient", show_default=True, help="Source notation of the moves.")
@click.option("--fen", default="startpos", show_default=True, help="Start position for a move list.")
@click.option("--rules", "rules_id", default=None, help="Ruleset id (default: fide-2023, or Chess960 by the PGN Variant tag).")
def command(inputs: tuple[str, ...], target: str, source: str, fen: str, rules_id: str | None) -> None:
    """Convert INPUTS: one PGN file (or '-' for stdin), or a list of moves."""
    _check_notation(target, "--to", ("pgn",))
    _check_notation(source, "--from")
    if not inputs:
        raise UsageError("convert needs a PGN file or moves")
    first = inputs[0]
    is_file = len(inputs) == 1 and (first == "-" or first.lower().endswith(".pgn") or Path(first).is_file())
    if is_file:
        try:
            raw = click.get_binary_stream("stdin").read() if first == "-" else Path(first).read_bytes()
        except OSError as error:
            raise UsageError(f"cannot read {first}: {error.strerror}") from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:  # the PGN standard's own character set is ISO 8859-1
            text = raw.decode("latin-1")
        failures = _convert_pgn(text, source, target, rules_id)
        if failures:
            raise ConvertFailed(f"{failures} game(s) not converted; see the messages above")
        return
    rules = load_rules(rules_id or "fide-2023")
    board = parse_position(fen, rules)
    moves = [m for arg in inputs for m in arg.split()]
    try:
        if target == "pgn":
            texts = convert_moves(board, moves, source, "san")
            game = PgnGame(index=1, line=1, result="*")
            if fen != "startpos":
                game.tags.update({"SetUp": "1", "FEN": board.fen()})
            game.moves = [PgnMove(text=t, line=1) for t in texts]
            click.echo(write_game(game), nl=False)
        else:
            click.echo(" ".join(convert_moves(board, moves, source, target)))
    except NotationError as error:
        raise ConvertFailed(str(error)) from None
