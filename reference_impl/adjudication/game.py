"""The Game: moves and events in, the arbiter's view out, under one ruleset.

A :class:`Game` takes moves (UCI strings) and events - draw claims with or without an
intended move, offers and acceptances, resignations, flag falls, completed illegal
moves, touches, clock readings - and :meth:`Game.status` reports at every point
whether the game is over, the result, the reason and the article, what the player to
move could claim (now or with which intended moves) and what a director may declare.

Every event is checked before anything changes: an impossible one (a claim by the
player not to move, a move after the end, a malformed time control) raises
:class:`GameEventError` naming the event and leaves the game as it was. Nothing here
does I/O; all rules come from the ruleset's tables.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from reference_impl.core import Board, Move, parse_square
from reference_impl.errors import ArbiterError, GameEventError
from reference_impl.kept import KeptAnswers
from reference_impl.records import record
from reference_impl.rules.files import Ruleset
from reference_impl.rules.loader import load_ruleset
from reference_impl.rules.model import (
    DeadPosition, EndName, Limits, Model, MoveRuleAutomatic, RepetitionAutomatic, ResultEntry,
)
from reference_impl.unwinnability.search import move_layer_key

from . import repetition as rep
from . import touch as touchmove
from . import verdicts
from .clocks import Clock
from .tables import band, clock_press_is_illegal_move, flag_noticed, illegal_regime, need, penalty_ms, regime
from .timecontrol import TimeControl, parse
from .verdicts import DRAW, Ruling, outcome

COLOR_NAMES = ("white", "black")
#: Dead-position checks after a move kept across games (see :meth:`Game._dead`).
DEAD_CACHE_SIZE = 8192
_DEAD: KeptAnswers[bool] = KeptAnswers(DEAD_CACHE_SIZE)
#: Reason words of the automatic ends, as the protocol names them.
AUTOMATIC: tuple[EndName, ...] = ("checkmate", "stalemate", "dead_position", "fivefold_repetition",
                                  "seventy_five_moves")
#: The automatic ends whose table states a ``result``, and whom it concerns: the player
#: who made the last move (gave mate) or the player now to move (stalemated).
RESULT_CONCERNS = {"checkmate": "mover", "stalemate": "to_move"}

#: The table of an end: a result (checkmate, stalemate), the dead position, the
#: automatic or discretionary repetition and move rule.
EndEntry = Union[ResultEntry, DeadPosition, RepetitionAutomatic, MoveRuleAutomatic]
#: A ruleset as a Game takes it: loaded, or by id, alias or path.
Rules = Union[Ruleset, str, Path]


def end_entry(model: Model, name: str) -> EndEntry | None:
    """The table of the automatic end ``name`` (one of :data:`AUTOMATIC`), or ``None``."""
    termination = model.termination
    if name == "checkmate":
        return termination.checkmate if termination else None
    if name == "stalemate":
        return termination.stalemate if termination else None
    if name == "dead_position":
        return termination.dead_position if termination else None
    if name == "fivefold_repetition":
        return model.repetition.automatic
    if name == "seventy_five_moves":
        return model.move_rule.automatic if model.move_rule else None
    raise ValueError(f"unknown end {name!r}")


def _kind(entry: EndEntry) -> str:
    """How an end comes about: ``automatic`` for the results, which carry no kind."""
    return "automatic" if isinstance(entry, ResultEntry) else entry.kind


def automatic_ends(model: Model) -> list[tuple[str, EndEntry]]:
    """The ends that end the game by themselves (not by a claim or at the arbiter's
    discretion), in the ruleset's precedence order, each with its table."""
    order = model.termination.precedence.order if model.termination else AUTOMATIC
    return [(name, entry) for name in order if (entry := end_entry(model, name)) is not None
            and _kind(entry) not in ("claim", "discretionary")]


def first_end(ends: list[tuple[str, EndEntry]], board: Board, keys: Sequence[Hashable],
              dead: Callable[[DeadPosition], bool], mate: bool | None = None) -> Ruling | None:
    """The first of ``ends`` that holds at ``board`` (``keys``: the positions so far),
    with its result; ``dead(entry)`` answers the dead-position test, ``mate`` whether
    ``board`` is checkmate when the caller knows (asked of the board otherwise)."""
    mover = 1 - board.turn

    def checkmate() -> bool:
        return board.is_checkmate() if mate is None else mate

    for name, entry in ends:
        if isinstance(entry, ResultEntry):  # checkmate, stalemate: a result for whom it concerns
            holds = checkmate() if name == "checkmate" else board.is_stalemate()
            concerns = mover if RESULT_CONCERNS.get(name) == "mover" else 1 - mover
            result = outcome(entry.result, concerns)
        elif isinstance(entry, DeadPosition):
            holds, result = dead(entry), DRAW
        elif isinstance(entry, RepetitionAutomatic):
            holds, result = rep.automatic_repetition(keys, entry), DRAW
        else:
            holds, result = board.halfmove_clock >= entry.plies, DRAW
            if holds and checkmate() and entry.checkmate_precedence:
                continue
        if holds:
            # The tables state a result for the player who gave mate and for the player
            # stalemated; the other automatic ends are draws by their definition.
            return Ruling(result, name, str(entry.cite))
    return None


@record
class Claim:
    """A draw claim open to the player to move: correct ``now`` and/or with ``moves``."""

    claim: str
    now: bool
    moves: tuple[str, ...]
    cite: str


@record
class Status:
    """The arbiter's view of the game at one point."""

    finished: bool
    result: str
    reason: str | None
    cite: str | None
    ply: int
    turn: str
    end_ply: int | None = None
    note: str | None = None
    claims: tuple[Claim, ...] = ()
    discretionary: tuple[tuple[str, str], ...] = ()
    clock_ms: tuple[int, int] | None = None
    offer_by: str | None = None


@record
class ClaimVerdict:
    """The ruling on a draw claim."""

    correct: bool
    claim: str | None
    cite: str
    penalty_ms: int = 0
    note: str | None = None


def _color(value: int | str, event: str) -> int:
    if value in (0, 1):
        return int(value)
    if isinstance(value, str) and value.lower() in COLOR_NAMES:
        return COLOR_NAMES.index(value.lower())
    raise GameEventError(f"{event}: unknown colour {value!r} (white or black)")


def _check_delay(model: Model, control: TimeControl) -> None:
    """A delay the ruleset's clocks do not know (``clocks.delay.kinds``) is refused."""
    kinds = {p.delay_kind for p in control.periods if p.delay_kind}
    entry = model.clocks.delay
    if not kinds or entry is None:
        return
    unknown = sorted(kinds - set(entry.kinds))
    if unknown:
        raise GameEventError(
            f"time control {control}: {', '.join(unknown)} delay is not among this ruleset's delay kinds ({entry.cite})"
        )


@dataclass
class _End:
    ruling: Ruling
    ply: int


def _dead_after_move(board: Board, entry: DeadPosition, limits: Limits) -> bool:
    """:func:`verdicts.dead_after_move`, kept across games: its answer is a pure function
    of the move layer, the position (FIDE 9.2.3 identity), the table's ``test`` and the
    budget, and the same games are played under several rulesets sharing them (the corpus
    plays each under up to eight)."""
    key = (move_layer_key(board), board.position_key(), entry.test, limits.dead_position.move_node_limit)
    answer = _DEAD.get(key)
    if answer is None:
        answer = verdicts.dead_after_move(board, entry, limits)
        _DEAD.put(key, answer)
    return answer


class Game:
    """A game under a ruleset, from the initial array or a FEN."""

    def __init__(self, rules: Rules, fen: str | None = None,
                 time_control: str | TimeControl | None = None, *, supervised: bool = True) -> None:
        """``supervised``: play is adequately supervised (FIDE A.3/B.2); when false, the
        illegal-move tables' ``without_supervision`` entries apply (A.4, B.3)."""
        self.rules = load_ruleset(rules)
        self.model = self.rules.model
        self.supervised = supervised
        self.board = Board(self.rules) if fen is None else Board.from_fen(fen, self.rules)
        self.control = parse(time_control) if isinstance(time_control, str) else time_control
        made_white = self.board.fullmove_number - 1 + self.board.turn
        made_black = self.board.fullmove_number - 1
        self._made = [made_white, made_black]
        self.clock: Clock | None = None
        if self.control is not None and self.control.known:
            _check_delay(self.model, self.control)
            carry = self.model.clocks.periods.carry_over
            self.clock = Clock.start(self.control, (made_white, made_black), carry_over=carry)
        self.regime = regime(self.model, self.control)
        self.moves: list[str] = []
        self.events: list[tuple[str, str]] = []
        self._keys: list[Hashable] = [rep.position_key(self.board, self.model)]
        self._dead_cache: dict[Hashable, bool] = {}
        self._end: _End | None = None
        self._offer: int | None = None
        self._touches: list[tuple[int, ...]] = []
        self._illegal = [0, 0]
        self._end = self._automatic_end()

    # -- queries -------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._end is not None

    @property
    def speed_class(self) -> str | None:
        """The time control's class (``blitz``, ``rapid``, ``quick``, ...), if known."""
        found = band(self.model, self.control)
        return found.class_ if found else None

    def status(self) -> Status:
        """Where the game stands now."""
        common: dict[str, Any] = dict(
            ply=len(self.moves),
            turn=COLOR_NAMES[self.board.turn],
            clock_ms=self.clock.remaining_ms if self.clock else None,
            offer_by=COLOR_NAMES[self._offer] if self._offer is not None else None,
        )
        if self._end is not None:
            r = self._end.ruling
            return Status(True, r.result, r.reason, r.cite, end_ply=self._end.ply, note=r.note, **common)
        return Status(False, "*", None, None, note=self._flag_down_note(), claims=tuple(self.claims()),
                      discretionary=tuple(self.discretionary()), **common)

    def _flag_down_note(self) -> str | None:
        """Says whose flag is down but not yet claimed (``flag_fall.when: claimed``)."""
        down = [COLOR_NAMES[c] for c in (0, 1) if self.clock is not None and self.clock.flagged[c]]
        if not down:
            return None
        entry = need(self.model, self.model.flag_fall, "flag_fall")
        cite = entry.when_cite or entry.cite
        until = "seen by the arbiter or claimed" if flag_noticed(self.model) else "claimed"
        return f"flag of {' and '.join(down)} down; no result until {until} ({cite})"

    def claims(self) -> list[Claim]:
        """Draw claims open to the player to move (none after a touch that forfeits them)."""
        if self._end is not None:
            return []
        found: list[Claim] = []
        claim = self.model.repetition.claim
        if claim is not None and not (self._touches and claim.touch_forfeits):
            now, moves = rep.repetition_claim_moves(self.board, self._keys, self.model, claim.occurrences)
            moves = moves if claim.intended_move else []
            if now or moves:
                found.append(Claim("threefold_repetition", now, tuple(moves), str(claim.cite)))
        rule = self.model.move_rule.claim if self.model.move_rule else None
        if rule is not None and not (self._touches and rule.touch_forfeits):
            now, moves = rep.move_rule_claim_moves(self.board, rule.plies)
            moves = moves if rule.intended_move else []
            if now or moves:
                found.append(Claim("fifty_moves", now, tuple(moves), str(rule.cite)))
        return found

    def discretionary(self) -> list[tuple[str, str]]:
        """Draws a director may declare now (rules of kind ``discretionary``)."""
        out = []
        repetition = self.model.repetition.automatic
        move_rule = self.model.move_rule.automatic if self.model.move_rule else None
        if repetition is not None and repetition.kind == "discretionary" \
                and rep.automatic_repetition(self._keys, repetition):
            out.append(("fivefold_repetition", str(repetition.cite)))
        if move_rule is not None and move_rule.kind == "discretionary" \
                and self.board.halfmove_clock >= move_rule.plies:
            out.append(("seventy_five_moves", str(move_rule.cite)))
        return out

    # -- automatic ends ---------------------------------------------------------------

    def _dead(self, entry: DeadPosition) -> bool:
        key = self._keys[-1]
        if key not in self._dead_cache:
            self._dead_cache[key] = _dead_after_move(self.board, entry, self.model.limits)
        return self._dead_cache[key]

    def _automatic_end(self) -> _End | None:
        ruling = first_end(automatic_ends(self.model), self.board, self._keys, self._dead)
        return None if ruling is None else _End(ruling, len(self.moves))

    # -- events ------------------------------------------------------------------------

    def _open(self, event: str) -> None:
        if self._end is not None:
            r = self._end.ruling
            raise GameEventError(f"{event}: the game is over ({r.result}, {r.reason}, {r.cite})")

    def _parse_move(self, uci: str, event: str) -> Move:
        try:
            move = self.board.parse_uci(uci)
        except ArbiterError as error:
            raise GameEventError(f"{event}: {error}") from None
        if not self.board.is_legal(move):
            raise GameEventError(f"{event}: {uci} is not legal in {self.board.fen()}")
        return move

    def move(self, uci: str, *, seconds: float | None = None) -> Status:
        """Play ``uci`` for the player to move; ``seconds`` is the time it took."""
        self.push(uci, seconds=seconds)
        return self.status()

    def push(self, uci: str, *, seconds: float | None = None) -> None:
        """:meth:`move` without the status after it (which lists the draw claims open,
        each legal move tried): for callers that read the status once at the end."""
        event = f"move {uci}"
        self._open(event)
        move = self._parse_move(uci, event)
        need(self.model, self.model.touch_move, "touch_move")
        if self._touches:  # untouched, every legal move is allowed
            allowed, cite = touchmove.allowed_moves(self.board, self._touches, self.model)
            if move not in allowed:
                only = " ".join(sorted(self.board.uci(m) for m in allowed))
                raise GameEventError(f"{event}: touch-move ({cite}) allows only {only}")
        mover = self.board.turn
        clock = self.clock
        if seconds is not None and clock is None:
            raise GameEventError(f"{event}: a move time needs a time control")
        if clock is not None:  # a move without a time counts as instantaneous
            clock = clock.spend(mover, round((seconds or 0) * 1000))
        text = self.board.uci(move)
        self.board.push(move)
        self.moves.append(text)
        self._keys.append(rep.position_key(self.board, self.model))
        self._made[mover] += 1
        self._touches = []
        if self._offer is not None and self._offer != mover:
            self._offer = None  # the offer lapses when its receiver moves
        self.clock = clock
        self.events.append(("move", uci))
        self._end = self._automatic_end()
        if self._end is None and clock is not None and clock.flagged[mover] and flag_noticed(self.model):
            # The flag fell during this move and the arbiter sees it (FIDE 6.8); a
            # game-ending move would have stood. Under ``when: claimed`` (US Chess 13C1)
            # play goes on until the opponent claims it with :meth:`flag`.
            self._end = _End(verdicts.flag_fall(self.model, self.board, mover), len(self.moves))

    def touch(self, *squares: int | str) -> Status:
        """The player to move deliberately touches the pieces on ``squares`` at once."""
        event = "touch " + " ".join(str(s) for s in squares)
        self._open(event)
        try:
            group = tuple(s if isinstance(s, int) else parse_square(s) for s in squares)
        except ValueError:
            raise GameEventError(f"{event}: not a square") from None
        touchmove.check_touches(self.board, [group])
        self._touches.append(group)
        self.events.append(("touch", event[6:]))
        return self.status()

    def claim_draw(self, color: int | str, intended_move: str | None = None,
                   claim: str | None = None) -> ClaimVerdict:
        """``color`` claims a draw (threefold or move rule), optionally with a move.

        ``claim`` names the rule claimed under (``threefold_repetition``,
        ``fifty_moves``); a claim under one rule is not made correct by the other.
        """
        me = _color(color, "claim")
        event = f"claim by {COLOR_NAMES[me]}" + (f" with {intended_move}" if intended_move else "")
        self._open(event)
        rep_entry = need(self.model, self.model.repetition.claim, "repetition.claim")
        if me != self.board.turn:
            raise GameEventError(
                f"{event}: only the player to move ({COLOR_NAMES[self.board.turn]}) may claim ({rep_entry.cite})"
            )
        if intended_move is not None:
            move = self._parse_move(intended_move, event)
            allowed, cite = touchmove.allowed_moves(self.board, self._touches, self.model)
            if move not in allowed:
                raise GameEventError(f"{event}: touch-move ({cite}) forbids {intended_move}")
        if self._touches and rep_entry.touch_forfeits:
            self.events.append(("claim", event + ": refused, a piece was touched"))
            return ClaimVerdict(False, None, str(rep_entry.touch_cite or rep_entry.cite),
                                note="a touched piece forfeits the claim on this move")
        for found in self.claims():
            if claim is not None and found.claim != claim:
                continue
            if found.now or (intended_move is not None and intended_move in found.moves):
                self._end = _End(Ruling(DRAW, found.claim, found.cite), len(self.moves))
                self.events.append(("claim", event + f": correct ({found.claim})"))
                return ClaimVerdict(True, found.claim, found.cite)
        penalty = penalty_ms(self.model, self.regime, self.supervised)
        if self.clock is not None:
            self.clock = self.clock.add(1 - me, penalty)
        self.events.append(("claim", event + ": incorrect"))
        # An incorrect claim is a claim under neither rule: it counts as an offer when
        # either table says so (FIDE 9.1.2.3, US Chess 14).
        move_entry = self.model.move_rule.claim if self.model.move_rule else None
        offers = [rep_entry.counts_as_draw_offer, move_entry is not None and move_entry.counts_as_draw_offer]
        if any(offers):
            self._offer = me
        if intended_move is not None:
            self.push(intended_move)  # an incorrect claim's intended move must be played
        return ClaimVerdict(False, None, str(rep_entry.incorrect_cite or rep_entry.cite), penalty)

    def offer_draw(self, color: int | str) -> Status:
        me = _color(color, "draw offer")
        self._open(f"draw offer by {COLOR_NAMES[me]}")
        self._offer = me
        self.events.append(("offer", COLOR_NAMES[me]))
        return self.status()

    def accept_draw(self, color: int | str) -> Status:
        me = _color(color, "draw acceptance")
        event = f"draw acceptance by {COLOR_NAMES[me]}"
        self._open(event)
        if self._offer != 1 - me:
            raise GameEventError(f"{event}: {COLOR_NAMES[1 - me]} has no draw offer standing")
        termination = need(self.model, self.model.termination, "termination")
        entry = need(self.model, termination.agreement, "termination.agreement")
        if min(self._made) < entry.min_moves_each:
            raise GameEventError(f"{event}: both players must have made {entry.min_moves_each} move(s) first "
                                 f"({entry.cite})")
        self._end = _End(Ruling(DRAW, "agreement", str(entry.cite)), len(self.moves))
        self.events.append(("agree", COLOR_NAMES[me]))
        return self.status()

    def resign(self, color: int | str) -> Status:
        me = _color(color, "resignation")
        self._open(f"resignation by {COLOR_NAMES[me]}")
        self._end = _End(verdicts.resignation(self.model, self.board, me), len(self.moves))
        self.events.append(("resign", COLOR_NAMES[me]))
        return self.status()

    def flag(self, color: int | str) -> Status:
        """``color``'s flag is seen to have fallen (or is claimed)."""
        me = _color(color, "flag fall")
        event = f"flag fall of {COLOR_NAMES[me]}"
        self._open(event)
        if self.clock is not None and self.clock.remaining_ms[me] > 0 and not self.clock.flagged[me]:
            raise GameEventError(f"{event}: the clock shows {self.clock.remaining_ms[me] / 1000:g} s left")
        if self.clock is not None and all(self.clock.flagged):
            # Both flags are down and the clock cannot say which fell first (FIDE III.3.1,
            # US Chess 14G): the both-flags rule decides, not the flag claimed.
            return self.both_flags()
        self._end = _End(verdicts.flag_fall(self.model, self.board, me), len(self.moves))
        self.events.append(("flag", COLOR_NAMES[me]))
        return self.status()

    def both_flags(self, last_period: bool | None = None) -> Status:
        """Both flags down and which fell first is unknown (FIDE III.3.1, US Chess 14G).

        Without ``last_period`` the clock's period decides; with no clock either, the
        game is taken to be in its last (sudden-death) period. A regime or an increment
        the entry does not cover (FIDE III.2.2) gets no outcome: :class:`GameEventError`.
        """
        self._open("both flags down")
        flag_fall = need(self.model, self.model.flag_fall, "flag_fall")
        entry = need(self.model, flag_fall.both_flags, "flag_fall.both_flags")
        regimes = entry.regimes
        increment = self.control is not None and any(p.increment_ms for p in self.control.periods)
        if (regimes is not None and self.regime not in regimes) or (entry.without_increment and increment):
            what = f"a {self.regime} game" + (" with increment" if increment else "")
            raise GameEventError(f"both flags down, order unknown: no rule for {what} "
                                 f"({entry.applies_cite or entry.cite})")
        if last_period is None:
            last_period = self.clock.in_last_period(self.board.turn) if self.clock else True
        outcome = entry.last_period if last_period else entry.other_period
        cite = str(entry.cite if last_period else entry.other_cite or entry.cite)
        if outcome == "draw":
            self._end = _End(Ruling(DRAW, "both_flags", cite), len(self.moves))
        self.events.append(("both_flags", outcome))
        return self.status()

    def illegal_move(self, *, claimed: bool = True, without_move: bool = False) -> Status:
        """The player to move completed an illegal move; the position is reinstated.

        ``without_move``: the player pressed the clock without moving, which counts as an
        illegal move only where ``illegal_moves.clock_press_without_move`` says so (FIDE
        7.5.3, from 1 July 2017); otherwise it is recorded and nothing follows."""
        me = self.board.turn
        event = f"illegal move by {COLOR_NAMES[me]}"
        self._open(event)
        if without_move and not clock_press_is_illegal_move(self.model):
            self.events.append(("clock_press", COLOR_NAMES[me]))
            return self.status()
        entry = illegal_regime(self.model, self.regime, self.supervised)
        self._illegal[me] += 1
        loses = entry.loses_at is not None and self._illegal[me] >= entry.loses_at
        if loses and (claimed or not entry.loss_requires_claim):
            ruling = verdicts.losing_illegal_move(self.model, self.board, me, entry)
            if ruling.result != verdicts.UNKNOWN:
                self._end = _End(ruling, len(self.moves))
        elif not loses and self.clock is not None:
            self.clock = self.clock.add(1 - me, penalty_ms(self.model, self.regime, self.supervised))
        self.events.append(("illegal", f"{COLOR_NAMES[me]} #{self._illegal[me]}"))
        return self.status()

    def set_clock(self, color: int | str, seconds: float) -> Status:
        """Record a clock reading for ``color`` (e.g. from a PGN ``%clk`` comment)."""
        me = _color(color, "clock reading")
        event = f"clock reading for {COLOR_NAMES[me]}"
        self._open(event)
        if self.clock is None:
            raise GameEventError(f"{event}: the game has no time control")
        self.clock = self.clock.set_remaining(me, round(seconds * 1000))
        return self.status()

    def director_draw(self) -> Status:
        """The director declares a draw under a discretionary rule that holds now."""
        self._open("director's draw")
        options = self.discretionary()
        if not options:
            raise GameEventError("director's draw: no discretionary draw rule holds now")
        name, cite = options[0]
        self._end = _End(Ruling(DRAW, name, cite), len(self.moves))
        return self.status()

    def play(self, moves: Sequence[str]) -> Status:
        """Play several UCI moves; the first impossible one raises."""
        for uci in moves:
            self.push(uci)
        return self.status()
