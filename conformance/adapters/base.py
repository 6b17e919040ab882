"""The in-process adapter contract: what every implementation under test provides.

An adapter wraps one chess implementation. The harness calls :meth:`Adapter.start`
once, :meth:`Adapter.run` once per fixture and ruleset, and :meth:`Adapter.stop` at
the end. ``run`` returns the protocol's ``result`` object (a plain dict, see
``docs/protocol.md`` for each kind); it raises :class:`Skip` to decline a fixture,
and any other exception marks the fixture ``errored`` with the exception's text.
The exceptions of the child-process adapters (:class:`AdapterFault`,
:class:`AdapterErrored`, :class:`PartialRun`) live here too, so the runner depends on
this module only.

Subprocess adapters (``cmd:``, ``uci:``) implement the same class, so the runner
treats every implementation alike.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from reference_impl.errors import EXIT_ADAPTER, ArbiterError

PROTOCOL_VERSION = 1
#: Deepest perft any Arbiter command computes (``arbiter perft``, the reference adapter,
#: ``arbiter serve``): deeper counts take hours even for fast C move generators.
MAX_PERFT_DEPTH = 12

#: The kinds protocol v1 defines (docs/protocol.md); an adapter declares a subset.
KINDS: tuple[str, ...] = (
    "legal_moves",
    "perft",
    "apply_moves",
    "validate_fen",
    "status",
    "san",
    "parse_san",
    "game_end",
    "timeout",
    "dead_position",
    "start_position",
    "to_notation",
    "from_notation",
    "game",
)


@dataclass(frozen=True)
class StartInfo:
    """What an adapter says about itself when it starts.

    ``capabilities`` lists the kinds it answers; ``rulesets`` the ruleset ids it
    plays, ``["*"]`` meaning any; ``unclassified_errors`` the kinds (``parse_san``,
    ``from_notation``) whose parse errors it answers ``move: null`` without a category
    it vouches for, so that only ``move`` is compared on their error fixtures.
    """

    name: str
    version: str
    capabilities: list[str] = field(default_factory=list)
    rulesets: list[str] = field(default_factory=lambda: ["*"])
    unclassified_errors: list[str] = field(default_factory=list)

    def supports(self, kind: str, ruleset: str) -> bool:
        """True if the adapter declared both ``kind`` and ``ruleset``."""
        return kind in self.capabilities and ("*" in self.rulesets or ruleset in self.rulesets)

    def as_message(self) -> dict[str, Any]:
        """The protocol v1 answer to ``start``."""
        return {
            "ok": True,
            "protocol": PROTOCOL_VERSION,
            "implementation": {"name": self.name, "version": self.version},
            "capabilities": list(self.capabilities),
            "rulesets": list(self.rulesets),
            **({"unclassified_errors": list(self.unclassified_errors)} if self.unclassified_errors else {}),
        }


class Skip(Exception):
    """Raised by :meth:`Adapter.run` to decline a fixture; the reason is reported."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AdapterStartError(ArbiterError):
    """The implementation under test could not be started (exit status 3)."""

    exit_code = EXIT_ADAPTER


class AdapterFault(Exception):
    """A child-process adapter's program broke the protocol or died; it has been killed."""


class AdapterErrored(Exception):
    """The program answered ``errored``: it tried and failed."""


class PartialRun(KeyboardInterrupt):
    """Ctrl-C during a pipelined ``run_many``; ``done`` holds the answers obtained."""

    def __init__(self, done: list[tuple[Any, float]]) -> None:
        super().__init__()
        self.done = done


#: The verdict on a request whose answer came a second time after it had been taken.
LATE_TWICE = ("answered this request twice (the second answer came after the result was taken); "
              "adapter killed and restarted")


class Adapter(ABC):
    """Base class of all adapters. Subclass it and implement the three methods.

    ``spec`` is the string the user gave (``reference``, ``cmd:...``); the runner
    records it in the report header.
    """

    spec: str = ""

    @abstractmethod
    def start(self) -> StartInfo:
        """Start the implementation; raise :class:`AdapterStartError` if it cannot."""

    @abstractmethod
    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        """Answer one request with the kind's ``result`` object.

        Raise :class:`Skip` to decline; any other exception means ``errored``.
        """

    def stop(self) -> None:
        """Release the implementation (default: nothing to release)."""

    def __enter__(self) -> "Adapter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
