"""The protocol v1 loop shared by the library programs in this folder (stdlib only).

The programs run under whatever interpreter their library needs, so nothing here
imports Arbiter. ``serve`` reads one request a line from stdin and writes one answer
line to stdout, in order (docs/protocol.md).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

Handler = Callable[[str, dict[str, Any]], dict[str, Any]]


class Skip(Exception):
    """Decline one request; answered ``skipped`` with the message."""


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(name: str, version: str, kinds: dict[str, Handler] | None, rulesets: list[str],
          unclassified: list[str], problem: str | None = None) -> int:
    """Answer requests until ``stop`` or end of input; ``kinds is None`` refuses ``start`` with ``problem``."""
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError as error:
            send({"ok": False, "error": f"not JSON: {error}"})
            continue
        if not isinstance(msg, dict):
            send({"ok": False, "error": "not a JSON object"})
        elif msg.get("cmd") == "start":
            if kinds is None:
                send({"ok": False, "error": problem or f"{name} is not available"})
                continue
            send({"ok": True, "protocol": 1, "implementation": {"name": name, "version": version},
                  "capabilities": list(kinds), "rulesets": rulesets, "unclassified_errors": unclassified})
        elif msg.get("cmd") == "run":
            try:
                if kinds is None:
                    raise RuntimeError(problem)
                send({"id": msg["id"], "result": kinds[msg["kind"]](msg["ruleset"], msg["input"])})
            except Skip as skip:
                send({"id": msg.get("id"), "skipped": str(skip)})
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as error:  # Rust bindings panic with a BaseException subclass
                text = f"{type(error).__name__}: {error}".splitlines()[0]
                send({"id": msg.get("id"), "errored": text})
        else:
            send({"ok": True})
            return 0
    return 0


def to_shredder(fen: str) -> str:
    """``fen`` with its castling field in Shredder-FEN (rook files), from FEN or X-FEN.

    ``K``/``Q`` name the outermost rook on that side of the king on its first rank
    (docs/protocol.md); a field that cannot be translated is returned unchanged, for
    the library to judge.
    """
    fields = fen.split(" ")
    if len(fields) < 3 or fields[2] == "-":
        return fen
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        return fen
    letters = []
    for char in fields[2]:
        white = char.isupper()
        row = _expand(ranks[7 if white else 0])
        if row is None:
            return fen
        king, rook = ("K", "R") if white else ("k", "r")
        if char.upper() in "KQ":
            if row.count(king) != 1:
                return fen
            at = row.index(king)
            files = range(7, at, -1) if char.upper() == "K" else range(0, at)
            found = next((f for f in files if row[f] == rook), None)
            if found is None:
                return fen
            file = "abcdefgh"[found]
        elif char.lower() in "abcdefgh":
            file = char.lower()
        else:
            return fen
        letters.append(file.upper() if white else file)
    fields[2] = "".join(letters)
    return " ".join(fields)


def to_fen_letters(fen: str) -> str:
    """``fen`` with the Shredder-FEN letters of the corner rooks (``H``, ``A``) written
    ``K``, ``Q``: the same rights, for libraries that read FEN's letters only."""
    fields = fen.split(" ")
    if len(fields) < 3 or fields[2] == "-":
        return fen
    fields[2] = fields[2].translate(str.maketrans("HAha", "KQkq"))
    return " ".join(fields)


def _expand(rank: str) -> str | None:
    row = "".join("." * int(c) if c.isdigit() else c for c in rank)
    return row if len(row) == 8 else None
