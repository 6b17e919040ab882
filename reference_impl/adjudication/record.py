"""Adjudicating recorded games: what the Laws say about each game of a PGN text.

For every game: replay the main line under the ruleset, stop where a rule ended the
game by itself (mate, stalemate, dead position, fivefold, 75 moves), otherwise apply
what the record says happened at the end - a time forfeit (flag fall of the loser, or
of the player to move for a drawn one) or a resignation (a decisive result by normal
termination) - and compare the Laws' result with the recorded one. A game that cannot
be replayed gets an error naming the game and the move; the other games go on.
Pure: games in (a stream is fine: one game is held at a time), :class:`GameReport`
values out. Without an explicit ruleset a game is judged under FIDE 2023, or its
Chess960 Guidelines when the ``Variant`` tag says so (as ``arbiter convert`` reads it).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, Iterable, Iterator

from reference_impl.errors import ArbiterError, GameEventError, quote
from reference_impl.notation.errors import clip
from reference_impl.notation.game import rules_for
from reference_impl.notation.pgn import PgnGame, read_games
from reference_impl.notation.san import parse_san
from reference_impl.rules.files import Ruleset
from reference_impl.rules.loader import load_ruleset
from reference_impl.text import NumberError, parse_int

from .game import Game, Rules
from .timecontrol import parse

_CLK_RE = re.compile(r"\[%clk\s+(\d+):(\d{1,2}):(\d{1,2})(\.\d+)?\]")
#: Digits of the hours field of a ``[%clk]`` reading (a century of play fits in six).
_CLK_HOUR_DIGITS = 6
#: Termination tag values (pgn:9.8.1) for which the record's result is not a ruling
#: on the board, so it is not compared.
_NOT_COMPARED = {"abandoned", "adjudication", "death", "emergency", "rules infraction", "unterminated"}


@dataclass(frozen=True)
class GameReport:
    """One game's verdict; ``error`` is set (and the rest mostly empty) for a broken game."""

    game: int
    white: str
    black: str
    recorded: str
    termination: str | None
    result: str | None = None
    reason: str | None = None
    cite: str | None = None
    ended_at: str | None = None
    ply: int | None = None
    agrees: bool | None = None
    flag: str | None = None
    note: str | None = None
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _clock(comments: list[str]) -> float | None:
    """Seconds on the clock from the first ``[%clk H:MM:SS(.s)]`` comment, if any."""
    for comment in comments:
        match = _CLK_RE.search(comment)
        if match:
            hours, minutes, seconds, fraction = match.groups()
            try:
                whole = parse_int(hours, "clock hours", max_digits=_CLK_HOUR_DIGITS) * 3600
            except NumberError as error:
                raise GameEventError(f"clock comment {quote(match.group())}: {error.reason}") from None
            return whole + int(minutes) * 60 + int(seconds) + float("0" + (fraction or ""))
    return None


def _name(pgn: PgnGame) -> str:
    return f"game {pgn.index} ({clip(pgn.tags.get('White', '?'))} - {clip(pgn.tags.get('Black', '?'))})"


def adjudicate_game(pgn: PgnGame, rules: Ruleset) -> GameReport:
    """The Laws' verdict on one recorded game; an error in it becomes ``error``."""
    try:
        return _adjudicate(pgn, rules)
    except ArbiterError as error:
        return GameReport(game=pgn.index, white=pgn.tags.get("White", "?"), black=pgn.tags.get("Black", "?"),
                          recorded=pgn.tags.get("Result") or pgn.result or "*",
                          termination=(pgn.tags.get("Termination") or "").strip().lower() or None,
                          error=f"{_name(pgn)}: {error}")


def _adjudicate(pgn: PgnGame, rules: Ruleset) -> GameReport:
    recorded = pgn.tags.get("Result") or pgn.result or "*"
    termination = (pgn.tags.get("Termination") or "").strip().lower() or None
    base = partial(GameReport, game=pgn.index, white=pgn.tags.get("White", "?"), black=pgn.tags.get("Black", "?"),
                   recorded=recorded, termination=termination)
    if pgn.errors:
        return base(error=str(pgn.errors[0]))
    note = None
    try:
        control = parse(pgn.tags.get("TimeControl", "?"))
    except ArbiterError:
        control, note = None, f"TimeControl {quote(pgn.tags.get('TimeControl'))} not understood; clocks ignored"
    try:
        game = Game(rules, pgn.fen, time_control=control)
    except ArbiterError as error:
        return base(error=f"{_name(pgn)}, start position: {error}")
    played = 0
    for ply, pgn_move in enumerate(pgn.moves):
        if game.finished:
            break
        label = pgn.move_label(ply)
        try:
            move = parse_san(game.board, pgn_move.text, lenient=True)
            game.move(game.board.uci(move))
            seconds = _clock(pgn_move.comments)
            if seconds is not None and game.clock is not None and not game.finished:
                game.set_clock(1 - game.board.turn, seconds)
        except ArbiterError as error:
            return base(error=f"{_name(pgn)}, move {label} {clip(pgn_move.text)}: {error}")
        played = ply + 1
    after = len(pgn.moves) - played
    if not game.finished:
        _apply_recorded_end(game, recorded, termination)
    status = game.status()
    ended_at = None
    if status.finished and status.end_ply is not None:
        ended_at = pgn.move_label(status.end_ply - 1) if status.end_ply else "start"
    agrees, flag = _compare(status.result, status.reason, recorded, termination, after, ended_at)
    return base(result=status.result, reason=status.reason, cite=status.cite,
                      ended_at=ended_at, ply=status.end_ply, agrees=agrees, flag=flag,
                      note=status.note or note)


def _apply_recorded_end(game: Game, recorded: str, termination: str | None) -> None:
    """Apply the event the record implies: a flag fall or a resignation."""
    if termination in _NOT_COMPARED:
        return
    if termination == "time forfeit":
        loser = {"1-0": 1, "0-1": 0}.get(recorded, game.board.turn)
        if game.clock is not None:  # the record says the time ran out after the last reading
            game.set_clock(loser, 0)
        game.flag(loser)
    elif recorded in ("1-0", "0-1"):
        game.resign(1 if recorded == "1-0" else 0)
    elif recorded == "1/2-1/2":
        # A claim the player to move could make now, else an agreement (which may be
        # refused: before both players have moved, FIDE 5.2.3).
        if any(claim.now for claim in game.claims()):
            game.claim_draw(game.board.turn)
            return
        try:
            game.offer_draw(1 - game.board.turn)
            game.accept_draw(game.board.turn)
        except GameEventError as error:
            game.events.append(("note", str(error)))


def _compare(result: str, reason: str | None, recorded: str, termination: str | None,
             after: int, ended_at: str | None) -> tuple[bool | None, str | None]:
    if termination in _NOT_COMPARED:
        return None, None
    problems = []
    if after:
        problems.append(f"{after} move(s) recorded after the game ended by rule at {ended_at}")
    if result != "*" and recorded != result:
        problems.append(f"recorded {recorded}{', ' + termination if termination else ''}; the Laws give {result} ({reason})")
    elif result == "*" and recorded != "*":
        problems.append(f"recorded {recorded}, but no rule ends the game here and no agreement is valid")
    if termination == "time forfeit" and reason not in ("timeout", "timeout_vs_insufficient"):
        problems.append(f"recorded as a time forfeit, but the game had ended by {reason} at {ended_at}")
    return (not problems), ("; ".join(problems) or None)


def adjudicate_games(games: Iterable[PgnGame], rules: Rules | None = None) -> Iterator[GameReport]:
    """A :class:`GameReport` per game, in order; ``rules=None`` reads each Variant tag."""
    ruleset = load_ruleset(rules) if rules is not None else None
    for pgn in games:
        try:
            chosen = ruleset if ruleset is not None else rules_for(pgn)
        except ArbiterError as error:  # pragma: no cover - the built-in rulesets load
            yield GameReport(game=pgn.index, white="?", black="?", recorded="*", termination=None, error=str(error))
            continue
        yield adjudicate_game(pgn, chosen)


def adjudicate_text(text: str, rules: Rules | None = None) -> Iterator[GameReport]:
    """A :class:`GameReport` per game of the PGN ``text``, in order."""
    yield from adjudicate_games(read_games(text), rules)
