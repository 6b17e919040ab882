"""``arbiter convert``: move lists and PGN files between notations.

``arbiter convert game.pgn --to iccf`` writes each game's main line in ICCF;
``--to pgn`` re-exports canonical PGN. ``arbiter convert --from san --to uedemann
--fen FEN e4 e5 Nf3`` converts a move list; with a SAN source the list may be a game as
printed (move numbers, commas, glyphs, a result), and so may a file that is not PGN
(no ``.pgn`` name, no tag line first). ``--marks russian`` writes SAN or LAN in a
tradition of ``marks.yaml`` (``--to san:tg --marks russian``: ``А:e5``, ``Аd5×``). A broken game is reported on stderr (game,
move number, reason) and the other games are still converted; the exit status is then 1.
Games are read, converted and printed one at a time, so memory does not grow with the
file. ``--to pgn`` writes the main line with its comments and NAGs; a game whose
variations are dropped gets a warning on stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

import click

from reference_impl.core.board import Board
from reference_impl.errors import ArbiterError, UsageError
from reference_impl.notation.api import is_notation, notation_ids, san_language, to_notation, with_marks
from reference_impl.notation.nags import glyph_to_nag
from reference_impl.notation.errors import NotationError, clip
from reference_impl.notation.game import convert_moves, replay, start_board
from reference_impl.notation.pgn import PgnGame, PgnMove, decode_lines, iter_games, write_game
from reference_impl.notation.printed import read_printed
from reference_impl.notation.tables import result_markers

from conformance.cli.common import load_rules, parse_position


class ConvertFailed(ArbiterError):
    """Some games or moves could not be converted (each already reported)."""


def _check_notation(name: str, option: str, extra: tuple[str, ...] = ()) -> str:
    if not is_notation(name) and name not in extra:
        raise UsageError(f"{option} {name!r} is not a notation (known: {', '.join([*notation_ids(), *extra])}, "
                         "or san/lan[:language][:tradition][:lenient])")
    return name


def _marked(target: str, marks: str | None) -> str:
    """``--to`` with ``--marks`` applied (``san:tg`` + ``russian`` -> ``san:tg:russian``)."""
    if marks is None:
        return target
    marked = with_marks("san" if target == "pgn" else target, marks)
    if marked is None or target == "pgn":
        raise UsageError(f"--marks {marks!r} needs --to san or lan (optionally with a language, no tradition yet) "
                         "and a tradition of marks.yaml")
    return marked


def _is_printed(name: str, source: str) -> bool:
    """A file read as a printed game: a SAN source, no .pgn name, no tag line first."""
    if san_language(source) is None or name == "-" or name.lower().endswith(".pgn"):
        return False
    try:
        with Path(name).open(encoding="utf-8", errors="replace") as handle:
            first = next((line for line in handle if line.strip()), "")
    except OSError:
        return False
    return not first.lstrip().startswith("[")


def _read_text(name: str) -> str:
    try:
        return Path(name).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {name}: {getattr(error, 'strerror', None) or error}") from None


def _convert_printed(text: str, board: Board, source: str, target: str, fen: str) -> None:
    """Read a printed game (or a move list) in ``source``, print it in ``target``."""
    game = read_printed(board, text, source, san_language(source) or "en")
    if game.error is not None:
        raise ConvertFailed(str(game.error))
    position = game.start.copy()
    written = []
    for move in game.moves:
        written.append(to_notation(position, move, "san" if target == "pgn" else target))
        position.push(move)
    result = game.result if game.result in result_markers() else None
    if target != "pgn":
        click.echo(" ".join(written + ([result] if result else [])))
        return
    out = PgnGame(index=1, line=1, result=result or "*")
    if fen != "startpos":
        out.tags.update({"SetUp": "1", "FEN": game.start.fen()})
    nags = glyph_to_nag()
    out.moves = [PgnMove(text=w, line=1, nags=[nags[p.glyphs]] if p.glyphs in nags else [])
                 for w, p in zip(written, game.texts)]
    click.echo(write_game(out), nl=False)


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


def _variations(moves: list[PgnMove]) -> int:
    """How many variations hang off ``moves`` (nested ones included)."""
    count, stack = 0, [moves]
    while stack:
        for move in stack.pop():
            count += len(move.variations)
            stack.extend(move.variations)
    return count


def _lines(name: str) -> Iterator[str]:
    try:
        handle: IO[bytes]
        if name == "-":
            handle = sys.stdin.buffer
        else:
            handle = Path(name).open("rb")
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror}") from None
    with handle:
        try:
            yield from decode_lines(handle)
        except OSError as error:
            raise ConvertFailed(f"cannot read {name}: {error.strerror}") from None


def _convert_pgn(lines: Iterable[str], source: str, target: str, rules_id: str | None) -> int:
    failures = 0
    for game in iter_games(lines):
        for error in game.errors:
            click.echo(f"arbiter: {error}", err=True)
        try:
            played = replay(game, rules_id, lenient=False, notation=source)
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
            dropped = _variations(game.moves)
            if dropped:
                click.echo(f"arbiter: warning: game {game.index}: {dropped} variation(s) dropped "
                           "(convert writes the main line only)", err=True)
            out = PgnGame(index=game.index, line=game.line, tags=dict(game.tags), result=result, comment=game.comment)
            out.moves = [
                PgnMove(text=w, line=m.line, nags=m.nags, comments=m.comments, comments_before=m.comments_before)
                for w, m in zip(written, game.moves)
            ]
            click.echo(write_game(out))
        else:
            who = f"{clip(game.tags.get('White', '?'))} - {clip(game.tags.get('Black', '?'))}"
            click.echo(f"# game {game.index}: {who}")
            click.echo(_numbered(written, game, played.start.turn, played.start.fullmove_number) + f" {result}")
    return failures


@click.command(name="convert")
@click.argument("inputs", nargs=-1)
@click.option("--to", "target", required=True, help="Target notation id (san, lan, uci, fan, iccf, uedemann, descriptive, san:de, ...) or pgn.")
@click.option("--from", "source", default="san:lenient", show_default=True, help="Source notation of the moves.")
@click.option("--fen", default="startpos", show_default=True, help="Start position for a move list.")
@click.option("--rules", "rules_id", default=None, help="Ruleset id (default: fide-2023, or Chess960 by the PGN Variant tag).")
@click.option("--marks", default=None, help="Write SAN or LAN with the marks of this tradition (marks.yaml: russian, fide, ...).")
def command(inputs: tuple[str, ...], target: str, source: str, fen: str, rules_id: str | None, marks: str | None) -> None:
    """Convert INPUTS: one PGN file (or '-' for stdin), a printed game, or a list of moves."""
    _check_notation(target, "--to", ("pgn",))
    _check_notation(source, "--from")
    target = _marked(target, marks)
    if not inputs:
        raise UsageError("convert needs a PGN file or moves")
    first = inputs[0]
    is_file = len(inputs) == 1 and (first == "-" or first.lower().endswith(".pgn") or Path(first).is_file())
    if is_file:
        if first != "-" and not Path(first).is_file():
            raise UsageError(f"cannot read {first}: {'a directory' if Path(first).is_dir() else 'no such file'}")
        if _is_printed(first, source):
            board = parse_position(fen, load_rules(rules_id or "fide-2023"))
            _convert_printed(_read_text(first), board, source, target, fen)
            return
        failures = _convert_pgn(_lines(first), source, target, rules_id)
        if failures:
            raise ConvertFailed(f"{failures} game(s) not converted; see the messages above")
        return
    rules = load_rules(rules_id or "fide-2023")
    board = parse_position(fen, rules)
    if san_language(source) is not None:
        _convert_printed(" ".join(inputs), board, source, target, fen)
        return
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
