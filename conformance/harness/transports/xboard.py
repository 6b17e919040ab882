"""The ``xboard:PATH`` adapter: an XBoard (CECP, protocol 2) engine, asked what that protocol can tell.

XBoard has no command that lists moves, counts them or prints a position. What an
engine does say is whether it accepts a move: in ``force`` mode it plays both sides
silently and answers a move it refuses with ``Illegal move: ...`` (or an ``Error``
line), and after a move that ends the game it may announce the result,
``1-0 {White mates}``. So the adapter answers two kinds:

* ``legal_moves``: every candidate move of the side to move is offered to the engine,
  each on a fresh ``setboard``, and the moves it does not refuse are the answer. The
  candidates are every move a chess piece's geometry allows from a square holding a
  piece of the side to move (queen lines and knight jumps, promotions to the four
  pieces), so an engine that accepted a geometrically impossible move is not caught.
* ``game_end``: the moves are played in force mode; a refused move is an error naming
  the engine's reply; the last announcement after the last move gives the answer:
  a mate, stalemate or insufficient-material announcement ends the game (``reason``
  ``checkmate``, ``stalemate``, ``dead_position``); a repetition or fifty-move
  announcement is the engine claiming a draw, answered as that claim being available
  (``claimable``), as the other adapters read a library's "is draw" query; a result
  whose comment names no rule (``1/2-1/2 {Drawn game}``) is that result with no reason.
  No announcement: the game goes on, nothing claimable. A game without moves is declined:
  an engine announces after a move, so the position alone cannot be asked.

Replies are matched to moves by ``ping N``/``pong N`` (an engine without the ``ping``
feature cannot be used). Positions are set with ``setboard`` (an engine without it is
asked about the initial position only and declines the rest). The engine runs as a
:class:`~conformance.harness.transports.child.ChildProcess`; one that dies, hangs past the
timeout or writes lines over the limit is killed, the fixture is ``errored``, and the
next request starts a fresh engine.
"""

from __future__ import annotations

import os
import re
import shlex
import threading
import time
from typing import Any

from reference_impl.errors import UsageError

from conformance.adapters.base import Adapter, AdapterErrored, AdapterFault, AdapterStartError, Skip, StartInfo
from .child import ChildProcess

DEFAULT_TIMEOUT = 10.0  #: seconds per request
START_TIMEOUT = 10.0  #: seconds for the feature handshake (``done=1``)
PROTOVER_1_WAIT = 2.0  #: seconds without ``done=0``: a protocol 1 engine, as XBoard assumes
LINE_LIMIT = 1 << 16  #: longest engine line accepted, bytes
CHUNK = 48  #: candidate moves written before reading their replies (keeps both pipes short)
KINDS: tuple[str, ...] = ("legal_moves", "game_end")
#: The rulesets an XBoard engine is asked under: it plays the current Laws' moves and
#: announces its own draws; no engine here implements another federation's rules.
RULESETS: tuple[str, ...] = ("fide-2023",)
STANDARD_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FEATURE = re.compile(r'(\w+)=("[^"]*"|\S+)')
PONG = re.compile(r"^pong\s+(\d+)\s*$")
#: How an engine refuses a move: CECP's ``Illegal move``, GNU Chess's ``Invalid move``,
#: or an ``Error (...)`` line (a move it could not read, or a command it refused).
REFUSAL = re.compile(r"^(Illegal move|Invalid move|Error\s*\()", re.IGNORECASE)
RESULT = re.compile(r"^(1-0|0-1|1/2-1/2)\s*(?:\{(.*)\})?\s*$")
UCI_MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
#: anything outside printable ASCII in a FEN or move would let a request inject commands
SAFE = re.compile(r"^[\x20-\x7e]+$")
#: An announcement's comment, searched in order, and what it means under the protocol.
ANNOUNCEMENTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"stalemate", re.I), "stalemate"),
    (re.compile(r"insufficient|material|no mating|cannot (?:win|mate)", re.I), "dead_position"),
    (re.compile(r"\bmates\b|\bmated\b|checkmate", re.I), "checkmate"),
    (re.compile(r"repetition|3-?fold|three-?fold", re.I), "threefold_repetition"),
    (re.compile(r"50|fifty", re.I), "fifty_moves"),
)
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
LINES = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def parse_features(line: str) -> dict[str, str]:
    """``feature ping=1 myname="GNU Chess"`` -> {"ping": "1", "myname": "GNU Chess"}."""
    return {key: value.strip('"') for key, value in FEATURE.findall(line[len("feature"):])}


def candidates(fen: str) -> list[str]:
    """Every move a chess piece's geometry allows from the squares of the side to move.

    Queen lines and knight jumps from each square holding a piece of the side to move
    to a square not holding one; a pawn on its seventh rank moving to the last rank is
    offered with each promotion letter. A superset of the legal moves of any standard
    position (castling is written as the king's move, a line). Target squares of the
    mover's own pieces are left out: no legal move goes there, and an engine that reads
    ``e1h1`` as castling (the Chess960 form) would accept it.
    """
    fields = fen.split()
    if len(fields) < 2:
        raise ValueError(f"not a FEN: {fen!r}")
    white = fields[1] == "w"
    own: set[tuple[int, int]] = set()
    for rank_index, row in enumerate(fields[0].split("/")):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
                continue
            if char.isupper() == white:
                own.add((file, 7 - rank_index))
            file += 1
    out: list[str] = []
    for file, rank in sorted(own, key=lambda square: (-square[1], square[0])):
        promotes = _is_pawn(fields[0], file, rank) and rank == (6 if white else 1)
        out += _targets(file, rank, promotes, own)
    return out


def _is_pawn(placement: str, file: int, rank: int) -> bool:
    row = "".join("." * int(c) if c.isdigit() else c for c in placement.split("/")[7 - rank])
    return len(row) == 8 and row[file] in "Pp"


def _targets(file: int, rank: int, promotes: bool, own: set[tuple[int, int]]) -> list[str]:
    origin = "abcdefgh"[file] + str(rank + 1)
    squares = [(file + df, rank + dr) for df, dr in KNIGHT]
    for df, dr in LINES:
        squares += [(file + df * n, rank + dr * n) for n in range(1, 8)]
    names = [origin + "abcdefgh"[f] + str(r + 1) for f, r in squares
             if 0 <= f < 8 and 0 <= r < 8 and (f, r) not in own]
    if promotes:
        return [name + piece for name in names if name[3] in "18" for piece in "qrbn"] + \
            [name for name in names if name[3] not in "18"]
    return names


def read_announcement(comment: str) -> str | None:
    """What an announcement's comment names (``checkmate``, ..., ``fifty_moves``), or None
    for a comment that names no rule (``{Drawn game}``)."""
    return next((meaning for pattern, meaning in ANNOUNCEMENTS if pattern.search(comment)), None)


class XboardAdapter(Adapter):
    """An XBoard engine as a child process, driven in force mode."""

    own_timeout = True

    def __init__(self, command: str | list[str], spec: str = "", timeout: float = DEFAULT_TIMEOUT,
                 kinds: tuple[str, ...] = KINDS, rulesets: tuple[str, ...] = RULESETS,
                 name: str = "", version: str = "", features: dict[str, str] | None = None) -> None:
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as error:
            raise UsageError(f"xboard: engine command {command!r}: {error} (shell quoting)") from None
        if not self.argv:
            raise UsageError("xboard: adapter needs an engine path, for example xboard:/usr/games/gnuchess -x")
        self.spec = spec or f"xboard:{shlex.join(self.argv)}"
        self.timeout = timeout
        self.kinds = kinds
        self.rulesets = rulesets
        self.name, self.version = name, version
        self.preset = dict(features or {})  #: features known beforehand: no waiting for ``done=1``
        self.features: dict[str, str] = {}
        self.restarts = 0
        self.info: StartInfo | None = None
        self._child: ChildProcess | None = None
        self._ping = 0
        self._lock = threading.Lock()

    # -- the Adapter contract ------------------------------------------------------

    def start(self) -> StartInfo:
        """Start the engine and read its features; AdapterStartError if it cannot serve."""
        self._spawn()
        name = self.name or self.features.get("myname") or os.path.basename(self.argv[0])
        self.info = StartInfo(name=name, version=self.version, capabilities=list(self.kinds),
                              rulesets=list(self.rulesets))
        return self.info

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        """Answer ``legal_moves`` or ``game_end``; AdapterFault (errored) if the engine fails."""
        if kind not in self.kinds:
            raise Skip(f"this XBoard engine is asked only {', '.join(self.kinds)}")
        fen = str(input["fen"])
        moves = [str(m) for m in input.get("moves") or ()]
        if not SAFE.match(fen) or not all(UCI_MOVE.match(m) for m in moves):
            raise ValueError("FEN or moves contain text that cannot be sent to an engine")
        if self.features.get("setboard") != "1" and fen != STANDARD_START:
            raise Skip("the engine has no setboard: only the initial position can be set")
        if kind == "game_end" and not moves:
            raise Skip("an XBoard engine announces a result after a move; a position without moves is not asked")
        with self._lock:
            try:
                if self._child is None or not self._child.alive():
                    self._restart()
                return self._legal_moves(fen) if kind == "legal_moves" else self._game_end(fen, moves)
            except AdapterFault as fault:
                self._kill()
                self.restarts += 1
                raise AdapterFault(f"{fault}; engine killed, it restarts for the next fixture") from None

    def stop(self) -> None:
        """Send ``quit`` and make sure the engine is gone."""
        if self._child is not None and self._child.alive():
            self._child.send(b"quit\n")
            try:
                self._child.proc.wait(timeout=2)
            except Exception:  # noqa: BLE001 -- it is killed below either way
                pass
        self._kill()

    # -- the two kinds ------------------------------------------------------------------

    def _legal_moves(self, fen: str) -> dict[str, Any]:
        offered = candidates(fen)
        accepted: list[str] = []
        deadline = time.monotonic() + self.timeout
        self._send(["new", "force"])
        for start in range(0, len(offered), CHUNK):
            chunk = offered[start:start + CHUNK]
            commands, pings = [], []
            for move in chunk:
                commands += self._reset(fen) + [self._move(move)]
                pings.append(self._next_ping())
                commands.append(f"ping {pings[-1]}")
            self._send(commands)
            for move, ping in zip(chunk, pings):
                lines = self._until_pong(ping, deadline)
                if not any(REFUSAL.match(line) for line in lines):
                    accepted.append(move)
        return {"moves": accepted}

    def _game_end(self, fen: str, moves: list[str]) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        commands, pings = self._position(fen), []
        for move in moves:
            pings.append(self._next_ping())
            commands += [self._move(move), f"ping {pings[-1]}"]
        if not moves:
            pings.append(self._next_ping())
            commands.append(f"ping {pings[-1]}")
        self._send(commands)
        announced: tuple[str, str | None] | None = None  # (result, what the comment names)
        for index, ping in enumerate(pings):
            lines = self._until_pong(ping, deadline)
            refusal = next((line for line in lines if REFUSAL.match(line)), None)
            if refusal is not None and moves:
                for later in pings[index + 1:]:
                    self._until_pong(later, deadline)
                raise AdapterErrored(f"the engine refused move {index + 1} ({moves[index]}): {refusal.strip()}")
            results = [m for m in (RESULT.match(line.strip()) for line in lines) if m]
            announced = (results[-1].group(1), read_announcement(results[-1].group(2) or "")) if results else None
        if announced is None:
            return {"result": "*", "reason": None, "claimable": []}
        result, meaning = announced
        if meaning in ("threefold_repetition", "fifty_moves"):
            return {"result": "*", "reason": None, "claimable": [meaning]}
        return {"result": result, "reason": meaning, "claimable": []}

    # -- commands --------------------------------------------------------------------

    def _position(self, fen: str) -> list[str]:
        """A new game in force mode at ``fen``."""
        return ["new", "force"] + ([f"setboard {fen}"] if self.features.get("setboard") == "1" else [])

    def _reset(self, fen: str) -> list[str]:
        """Back to ``fen`` after a candidate move (``new`` only without setboard: some
        engines clear their hash tables on ``new``, which takes them seconds)."""
        return [f"setboard {fen}"] if self.features.get("setboard") == "1" else ["new", "force"]

    def _move(self, move: str) -> str:
        return f"usermove {move}" if self.features.get("usermove") == "1" else move

    def _next_ping(self) -> int:
        self._ping += 1
        return self._ping

    # -- process management -----------------------------------------------------------

    def _restart(self) -> None:
        self._kill()
        try:
            self._spawn()
        except AdapterStartError as error:
            raise AdapterFault(f"engine could not be restarted: {error}") from None

    def _spawn(self) -> None:
        """Start the process, send ``xboard``/``protover 2``, read the features."""
        try:
            self._child = ChildProcess(self.argv, LINE_LIMIT, "engine exited", who="engine ")
        except OSError as error:
            raise AdapterStartError(f"cannot start XBoard engine {self.argv[0]!r}: {error.strerror or error}") from None
        try:
            self._send(["xboard", "protover 2"])
            self.features = self.preset or self._read_features()
            if self.features.get("ping") != "1":
                raise AdapterStartError(f"{self.spec!r} has no ping feature: its replies cannot be matched to moves")
            accepted = [f"accepted {key}" for key in self.features if key != "done"]
            ping = self._next_ping()
            self._send(accepted + ["new", "force", f"ping {ping}"])
            self._until_pong(ping, time.monotonic() + START_TIMEOUT)
        except AdapterFault as fault:
            self._kill()
            raise AdapterStartError(f"{self.spec!r} is not a working XBoard engine: {fault}") from None
        except AdapterStartError:
            self._kill()
            raise

    def _read_features(self) -> dict[str, str]:
        """Features until ``done=1``, or :data:`PROTOVER_1_WAIT` s without ``done=0``."""
        features: dict[str, str] = {}
        began = time.monotonic()
        final = began + START_TIMEOUT
        while True:
            waiting_for_done = features.get("done") == "0"
            deadline = final if waiting_for_done else min(final, began + PROTOVER_1_WAIT)
            try:
                line = self._read_line(deadline, START_TIMEOUT).strip()
            except AdapterFault as fault:
                if "timed out" in str(fault) and not waiting_for_done:
                    return features
                raise
            if line.startswith("feature "):
                features.update(parse_features(line))
                if features.get("done") == "1":
                    return features

    def _kill(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()

    # -- lines on the wire ------------------------------------------------------------

    def _send(self, commands: list[str]) -> None:
        if self._child is None:
            raise AdapterFault("engine is not running")
        self._child.send(("".join(c + "\n" for c in commands)).encode("ascii"))

    def _until_pong(self, ping: int, deadline: float) -> list[str]:
        """The lines the engine wrote before ``pong <ping>``."""
        lines: list[str] = []
        while True:
            line = self._read_line(deadline)
            match = PONG.match(line.strip())
            if match and int(match.group(1)) == ping:
                return lines
            if not match:
                lines.append(line)

    def _read_line(self, deadline: float, limit: float | None = None) -> str:
        if self._child is None:
            raise AdapterFault("engine is not running")
        line = self._child.read_line(deadline, self.timeout if limit is None else limit)
        return line.decode("utf-8", errors="replace").rstrip("\r")
