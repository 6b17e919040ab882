"""Small helpers shared by the sub-commands (the shell side only)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from reference_impl.core import Board

#: Signals that end a run as Ctrl-C does (workers stopped, footer written); the exit
#: status is 128 + the signal's number: 130 SIGINT, 129 SIGHUP, 143 SIGTERM.
STOP_SIGNALS: tuple[str, ...] = ("SIGTERM", "SIGHUP")


def console(stderr: bool = False) -> Any:
    """A rich console that never wraps long lines (FENs, move lists); rich is imported
    here, so a command that prints no table starts without it."""
    from rich.console import Console

    return Console(stderr=stderr, soft_wrap=True, highlight=False)


def jobs(text: str) -> int:
    """``-j`` value: a number, or ``auto`` for the CPUs this process may use."""
    if text == "auto":
        import os

        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        return int(text)
    except ValueError:
        from reference_impl.errors import UsageError

        raise UsageError(f"-j expects a number or 'auto', got {text!r}") from None


def load_rules(name: str) -> Any:
    """Load a ruleset by id, alias or path; errors are ArbiterErrors with one line."""
    from reference_impl.rules import load_ruleset

    return load_ruleset(name)


def parse_position(fen: str, rules: Any) -> Board:
    """``startpos`` or a FEN in any castling dialect."""
    if fen.strip() == "startpos":
        return Board(rules)
    return Board.from_fen(fen, rules)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread so that it is handled as Ctrl-C is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextmanager
def stop_signals_interrupt() -> Iterator[list[int]]:
    """Within the block the :data:`STOP_SIGNALS` raise :class:`Terminated`.

    Yields a list that receives the number of each such signal, so the caller can exit
    with 128 + the first one. Outside the main thread (no handlers allowed) it does nothing.
    """
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def handler(signum: int, frame: Any) -> None:
        received.append(signum)
        raise Terminated(signum)

    numbers = [getattr(signal, name) for name in STOP_SIGNALS if hasattr(signal, name)]
    previous = {number: signal.signal(number, handler) for number in numbers}
    try:
        yield received
    finally:
        for number, old in previous.items():
            signal.signal(number, old)
