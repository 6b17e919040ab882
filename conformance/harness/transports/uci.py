"""The ``uci:PATH`` adapter: any UCI engine, for ``perft`` and ``legal_moves``.

Both kinds go through the engine's ``go perft N`` command (a de-facto extension that
Stockfish and most of its descendants implement): the engine prints one
``move: count`` line per legal move (its "divide") and then ``Nodes searched: N``.
``legal_moves`` is the divide list at depth 1.

An engine without ``go perft`` (it searches instead: found at start, on the initial
position) but with a ``MultiPV`` option reaching :data:`MAX_LEGAL_MOVES` answers
``legal_moves`` only: ``go depth 1`` with MultiPV at its maximum reports a line for
every root move, and the first move of each line is the answer (none, and
``bestmove (none)`` or ``0000``, in a position without legal moves). An engine with
neither cannot be asked anything (start fails, naming why). FENs go as given, or, for an
engine that reads only Shredder-FEN castling under Chess960 (``shredder_960``), with the
rooks' file letters.

Per request the adapter sends ``setoption name UCI_Chess960 value true|false`` when
the ruleset's Chess960 flag differs from the engine's current setting, then
``isready`` (discarding any late output until ``readyok``), ``position fen FEN`` and
``go perft N``. An engine that dies, hangs past the timeout or
prints nonsense is killed; the fixture is marked errored and the next request starts a
fresh engine (``uci``/``uciok`` and ``isready``/``readyok`` again). The engine runs as a
:class:`~conformance.harness.transports.child.ChildProcess`, like the ``cmd:`` adapter's program.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
from functools import lru_cache
from typing import Any

from reference_impl.rules import list_rulesets

from conformance.adapters.base import Adapter, AdapterFault, AdapterStartError, Skip, StartInfo
from .child import ChildProcess

DEFAULT_TIMEOUT = 60.0  #: seconds per request (a deep perft is the engine's real work)
START_TIMEOUT = 20.0  #: seconds for ``uciok`` and ``readyok``
LINE_LIMIT = 1 << 16  #: longest engine output line accepted, bytes
#: The ``castling.uci`` value of a ruleset that needs ``UCI_Chess960`` (castling sent
#: as the king taking its own rook); the other value is ``king_to_destination``.
CHESS960_CASTLING = "king_takes_rook"
CAPABILITIES: tuple[str, ...] = ("legal_moves", "perft")
#: The most legal moves a chess position has (Petrović's position): a MultiPV this
#: large lists every root move.
MAX_LEGAL_MOVES = 218
PERFT_PROBE_WAIT = 3.0  #: seconds for ``go perft 1`` to count or search, and then to stop
MULTIPV_OPTION = re.compile(r"^option name MultiPV type spin .*\bmax (\d+)", re.IGNORECASE)
PV_FIRST = re.compile(r"\bpv ([a-h][1-8][a-h][1-8][qrbn]?)")
DIVIDE_LINE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?)\s*:\s*(\d+)\s*$")
NODES_LINE = re.compile(r"^Nodes searched\s*:\s*(\d+)\s*$")
#: anything outside printable ASCII in a FEN would let a request inject UCI commands
FEN_CHARS = re.compile(r"^[\x20-\x7e]+$")


@lru_cache(maxsize=1)
def ruleset_flags() -> dict[str, bool]:
    """Every complete built-in ruleset (id and aliases) with the UCI_Chess960 value it
    needs, read from its ``castling.uci`` table entry."""
    flags: dict[str, bool] = {}
    for ruleset in list_rulesets():
        castling = ruleset.model.castling
        is960 = castling is not None and castling.uci == CHESS960_CASTLING
        for name in (ruleset.id, *ruleset.aliases):
            flags[name] = is960
    return flags


def shredder(fen: str, ruleset: str) -> str:
    """``fen`` with Shredder-FEN castling letters (the rooks' files), for an engine that
    reads no X-FEN under Chess960; unchanged when the reference cannot read it."""
    from reference_impl import Board, load_ruleset
    from reference_impl.errors import ArbiterError

    try:
        return Board.from_fen(fen, load_ruleset(ruleset)).fen(castling="shredder", en_passant="fen")
    except ArbiterError:
        return fen


def split_name(id_name: str) -> tuple[str, str]:
    """``"Stockfish 15.1"`` -> (``"Stockfish"``, ``"15.1"``); no version -> (name, "")."""
    parts = id_name.split()
    if len(parts) > 1 and re.match(r"^v?\d[\w.\-+]*$", parts[-1]):
        return " ".join(parts[:-1]), parts[-1]
    return id_name.strip(), ""


def parse_divide(lines: list[str]) -> tuple[list[tuple[str, int]], int]:
    """The ``move: count`` pairs (as printed, repeats kept) and the ``Nodes searched`` total."""
    divide: list[tuple[str, int]] = []
    for line in lines:
        match = DIVIDE_LINE.match(line.strip())
        if match:
            divide.append((match.group(1), int(match.group(2))))
        nodes = NODES_LINE.match(line.strip())
        if nodes:
            return divide, int(nodes.group(1))
    raise AdapterFault("perft output has no 'Nodes searched' line")


class UciAdapter(Adapter):
    """A UCI engine as a child process, driven through ``go perft``."""

    own_timeout = True

    def __init__(self, path: str, spec: str = "", timeout: float = DEFAULT_TIMEOUT,
                 shredder_960: bool = False) -> None:
        if not path:
            raise AdapterStartError("uci: adapter needs an engine path, for example uci:/usr/games/stockfish")
        self.path = path
        self.spec = spec or f"uci:{path}"
        self.timeout = timeout
        self.restarts = 0
        self.info: StartInfo | None = None
        self._child: ChildProcess | None = None
        self._chess960: bool | None = None  # the engine's current UCI_Chess960 value
        self._has_chess960 = False
        self._multipv = 0  # the engine's MultiPV maximum (0: no such option)
        self.shredder_960 = shredder_960  # send Chess960 FENs with Shredder-FEN castling letters
        self.has_perft = True  # found at start: False when ``go perft`` searches instead
        self.capabilities: tuple[str, ...] = CAPABILITIES
        self._lock = threading.Lock()

    # -- the Adapter contract ------------------------------------------------------

    def start(self) -> StartInfo:
        """Start the engine, read ``id name``; AdapterStartError if it is not UCI."""
        name = self._spawn()
        base, version = split_name(name)
        try:
            self.has_perft = self._probe_perft()
        except AdapterFault:
            # it died or hung on go perft 1: not an engine that searches instead. It is
            # taken to count, and the requests report what it does (a fresh engine each).
            self.has_perft = True
            try:
                self._restart()
            except AdapterFault as fault:
                raise AdapterStartError(f"{self.spec!r}: {fault}") from None
        if self.has_perft:
            self.capabilities = CAPABILITIES
        elif self._multipv >= MAX_LEGAL_MOVES:
            self.capabilities = ("legal_moves",)
        else:
            self._kill()
            raise AdapterStartError(
                f"{self.spec!r} ({name}) has neither go perft nor a MultiPV option of {MAX_LEGAL_MOVES} or more "
                f"(its maximum: {self._multipv}): no kind can be asked of it")
        rulesets = [r for r, is960 in ruleset_flags().items() if self._has_chess960 or not is960]
        self.info = StartInfo(name=base, version=version, capabilities=list(self.capabilities),
                              rulesets=rulesets)
        return self.info

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        """Answer ``perft`` or ``legal_moves``; AdapterFault (errored) if the engine fails."""
        if kind not in self.capabilities:
            raise Skip(f"this UCI engine answers only {', '.join(self.capabilities)}")
        depth = int(input["depth"]) if kind == "perft" else 1
        if depth < 1:
            raise Skip("go perft needs a depth of at least 1")
        fen = str(input["fen"])
        if not FEN_CHARS.match(fen):
            raise ValueError("FEN contains characters that cannot be sent to an engine")
        if self.shredder_960 and ruleset_flags().get(ruleset, False):
            fen = shredder(fen, ruleset)
        with self._lock:
            if not self.has_perft:
                return {"moves": self._root_moves(fen, ruleset_flags().get(ruleset, False))}
            divide, nodes = self._perft(fen, depth, ruleset_flags().get(ruleset, False))
        if kind == "perft":
            return {"nodes": nodes}
        if nodes != len(divide):
            raise AdapterFault(f"go perft 1 listed {len(divide)} moves but counted {nodes}")
        return {"moves": [move for move, _ in divide]}

    def stop(self) -> None:
        """Send ``quit`` and make sure the engine is gone."""
        if self._child is not None and self._child.alive():
            try:
                self._send("quit")
                self._child.proc.wait(timeout=2)
            except (AdapterFault, subprocess.TimeoutExpired):
                pass
        self._kill()

    # -- at start: does it count? --------------------------------------------------------

    def _probe_perft(self) -> bool:
        """``go perft 1`` on the initial position: True if the engine counts (20 nodes),
        False if it searched instead (a ``bestmove``; stopped after a few seconds).
        AdapterFault if it died, or neither counted nor stopped."""
        self._send("position startpos")
        self._send("go perft 1")
        deadline = time.monotonic() + PERFT_PROBE_WAIT
        stopped = False
        while True:
            try:
                line = self._read_line(deadline, PERFT_PROBE_WAIT).strip()
            except AdapterFault as fault:
                if stopped or "timed out" not in str(fault):
                    raise
                self._send("stop")
                stopped, deadline = True, time.monotonic() + PERFT_PROBE_WAIT
                continue
            if NODES_LINE.match(line):
                return True
            if line.startswith("bestmove"):
                if self._multipv:
                    self._send(f"setoption name MultiPV value {self._multipv}")
                return False

    # -- one request ------------------------------------------------------------------

    def _prepare(self, chess960: bool) -> float:
        """A running engine, its UCI_Chess960 set, late output dropped; the deadline."""
        if self._child is None or not self._child.alive():
            self._restart()
        if self._chess960 is not chess960:
            if chess960 and not self._has_chess960:
                raise Skip("the engine has no UCI_Chess960 option")
            if self._has_chess960:
                self._send(f"setoption name UCI_Chess960 value {str(chess960).lower()}")
            self._chess960 = chess960
        deadline = time.monotonic() + self.timeout
        # isready/readyok first: whatever the engine printed late is read and dropped
        self._send("isready")
        while self._read_line(deadline).strip() != "readyok":
            pass
        return deadline

    def _root_moves(self, fen: str, chess960: bool) -> list[str]:
        """The first move of every MultiPV line of ``go depth 1``: the engine's root moves."""
        try:
            deadline = self._prepare(chess960)
            self._send(f"position fen {fen}")
            self._send("go depth 1")
            moves: list[str] = []
            while True:
                line = self._read_line(deadline).strip()
                if line.startswith("bestmove"):
                    return moves
                match = PV_FIRST.search(line) if line.startswith("info") and " multipv " in f" {line} " else None
                if match and match.group(1) not in moves:
                    moves.append(match.group(1))
        except AdapterFault as fault:
            self._kill()
            self.restarts += 1
            raise AdapterFault(f"{fault}; engine killed, it restarts for the next fixture") from None

    def _perft(self, fen: str, depth: int, chess960: bool) -> tuple[list[tuple[str, int]], int]:
        try:
            deadline = self._prepare(chess960)
            self._send(f"position fen {fen}")
            self._send(f"go perft {depth}")
            lines: list[str] = []
            while True:
                line = self._read_line(deadline)
                lines.append(line)
                if NODES_LINE.match(line.strip()):
                    return parse_divide(lines)
        except AdapterFault as fault:
            self._kill()
            self.restarts += 1
            raise AdapterFault(f"{fault}; engine killed, it restarts for the next fixture") from None

    # -- process management -----------------------------------------------------------

    def _restart(self) -> None:
        self._kill()
        try:
            self._spawn()
        except AdapterStartError as error:
            raise AdapterFault(f"engine could not be restarted: {error}") from None
        if not self.has_perft:
            self._send(f"setoption name MultiPV value {self._multipv}")

    def _spawn(self) -> str:
        """Start the process and run the uci/uciok, isready/readyok handshake."""
        try:
            self._child = ChildProcess([self.path], LINE_LIMIT, "engine exited", who="engine ")
        except OSError as error:
            raise AdapterStartError(
                f"cannot start UCI engine {self.path!r}: {error.strerror or error}") from None
        self._chess960 = None
        name = ""
        try:
            self._send("uci")
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                line = self._read_line(deadline, START_TIMEOUT).strip()
                if line.startswith("id name "):
                    name = line[len("id name "):].strip()
                elif line.startswith("option name UCI_Chess960 "):
                    self._has_chess960 = True
                elif MULTIPV_OPTION.match(line):
                    self._multipv = int(MULTIPV_OPTION.match(line).group(1))  # type: ignore[union-attr]
                elif line == "uciok":
                    break
            self._send("isready")
            while self._read_line(deadline, START_TIMEOUT).strip() != "readyok":
                pass
        except AdapterFault as fault:
            self._kill()
            raise AdapterStartError(f"{self.spec!r} is not a working UCI engine: {fault}") from None
        return name or os.path.basename(self.path)

    def _kill(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()
        self._chess960 = None

    # -- lines on the wire ------------------------------------------------------------

    def _send(self, command: str) -> None:
        if self._child is None:
            raise AdapterFault("engine is not running")
        self._child.send((command + "\n").encode("ascii"))

    def _read_line(self, deadline: float, limit: float | None = None) -> str:
        """The next output line; waits for more output only when none is buffered."""
        if self._child is None:
            raise AdapterFault("engine is not running")
        line = self._child.read_line(deadline, self.timeout if limit is None else limit)
        return line.decode("utf-8", errors="replace").rstrip("\r")
