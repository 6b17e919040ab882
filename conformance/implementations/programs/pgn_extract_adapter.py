"""Protocol v1 adapter for pgn-extract (Debian's ``pgn-extract``), run as a program.

    ARBITER_TOOL=/usr/games/pgn-extract python pgn_extract_adapter.py

Every request becomes one PGN game -- ``[SetUp "1"]``, ``[FEN "..."]`` and the moves --
given to pgn-extract on stdin; its answer is read from what it writes:

* ``apply_moves``: ``-F`` (a FEN comment after the last move); a move it cannot make
  ("Failed to make move" on stderr, no game written) is ``illegal``;
* ``validate_fen``: the FEN is invalid when pgn-extract says ``Illegal FEN string``;
* ``san``: the move written back with ``-Wsan``; ``parse_san``: with ``-Wuci``;
* ``game_end``: ``--checkmate`` and ``--stalemate`` (the game ends so), ``--repetition``
  (the game holds a threefold repetition: claimable when the last position is one of
  those repeated, by pgn-extract's own FENs of the game, ``--fencomments``) and
  ``--fifty`` (fifty moves without capture or pawn move: claimable when pgn-extract's
  own FEN after the last move has a halfmove clock of 100 or more). A game without
  moves is judged as pgn-extract judges it: it finds no end there.

pgn-extract knows neither the 75-move rule nor the fivefold repetition nor dead
positions, so ``game_end`` never gives those. Stdlib only.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

from _serve import Handler, serve

RULESETS = ["fide-2023"]
UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
#: ``-F`` writes ``{ "FEN" }``, ``--fencomments`` writes ``{ FEN }``
FEN_COMMENT = re.compile(r'\{\s*"?([^"{}]+?)"?\s*\}')
FEN_TAG = re.compile(r'^\[FEN "([^"]+)"\]', re.MULTILINE)
MOVE_NUMBER = re.compile(r"^\d+\.+$")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TIMEOUT = 20.0


def main() -> int:
    tool = os.environ.get("ARBITER_TOOL") or "pgn-extract"
    try:
        banner = subprocess.run([tool, "-h"], capture_output=True, text=True, timeout=TIMEOUT).stderr
    except OSError as error:
        return serve("pgn-extract", "", None, RULESETS, [],
                     f"cannot run {tool!r} ({error.strerror}); run: arbiter adapters install pgn-extract")
    match = re.search(r"pgn-extract v(\S+)", banner)
    version = os.environ.get("ARBITER_TOOL_VERSION") or (match.group(1) if match else "")
    return serve("pgn-extract", version, handlers(tool), RULESETS, ["parse_san"])


def game(fen: str, moves: list[str]) -> str:
    """One PGN game from ``fen`` with ``moves`` (any notation pgn-extract reads)."""
    if '"' in fen or "\n" in fen or any(not re.fullmatch(r"[A-Za-z0-9=+#\-]+", m) for m in moves):
        raise ValueError("FEN or move holds characters a PGN tag or movetext cannot carry")
    return f'[Event "arbiter"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n{" ".join(moves)} *\n'


def handlers(tool: str) -> dict[str, Handler]:
    """One function per kind, each a pgn-extract command line."""

    def run(text: str, *options: str) -> tuple[str, str]:
        done = subprocess.run([tool, "-s", *options], input=text, capture_output=True, text=True, timeout=TIMEOUT)
        return done.stdout, done.stderr

    def movetext(out: str) -> list[str]:
        """The move tokens of the one game written (no numbers, comments or result)."""
        body = out.split("\n\n", 1)[1] if "\n\n" in out else ""
        body = FEN_COMMENT.sub(" ", body)
        return [t for t in body.split() if not MOVE_NUMBER.match(t) and t not in RESULTS]

    def final_fen(out: str) -> str | None:
        """The FEN comment after the last move, or (a game without moves) the FEN tag written."""
        found = FEN_COMMENT.findall(out)
        if found:
            return found[-1]
        tag = FEN_TAG.search(out)
        return tag.group(1) if tag else None

    def apply_moves(_: str, d: dict[str, Any]) -> dict[str, Any]:
        moves = list(d.get("moves") or ())
        if not all(UCI.fullmatch(m) for m in moves):
            return {"fen": None, "error": "invalid"}
        out, err = run(game(d["fen"], moves), "-F", "-Wuci")
        if "Illegal FEN" in err:
            raise RuntimeError(f"pgn-extract: {err.strip().splitlines()[0]}")
        fen = final_fen(out)
        if fen is None:
            if "Failed to make move" in err or not out.strip():
                return {"fen": None, "error": "illegal"}
            raise RuntimeError(f"pgn-extract wrote no FEN comment: {err.strip()[:200]}")
        return {"fen": fen}

    def validate_fen(_: str, d: dict[str, Any]) -> dict[str, Any]:
        out, err = run(game(d["fen"], []), "-F")
        if "Illegal FEN" in err:
            return {"valid": False, "reason": err.strip().splitlines()[0]}
        return {"valid": True}

    def san(_: str, d: dict[str, Any]) -> dict[str, Any]:
        out, err = run(game(d["fen"], [d["move"]]), "-Wsan")
        tokens = movetext(out)
        if len(tokens) != 1:
            raise RuntimeError(f"pgn-extract did not write the move back: {(err.strip() or out.strip())[:200]}")
        return {"san": tokens[0]}

    def parse_san(_: str, d: dict[str, Any]) -> dict[str, Any]:
        try:
            text = game(d["fen"], [d["san"]])
        except ValueError:
            return {"move": None}
        out, err = run(text, "-Wuci")
        tokens = movetext(out)
        # -Wuci writes a promotion in upper case (e7e8R); the protocol, as UCI, in lower case
        return {"move": tokens[0].lower()} if len(tokens) == 1 else {"move": None}

    def final_repeated(text: str, fen: str) -> bool:
        """Whether the last position stands three times among pgn-extract's own FENs of the game
        (``--fencomments``: placement, side, castling and e.p. fields as it writes them)."""
        out, _ = run(text, "--fencomments", "-Wuci")
        positions = [" ".join(f.split()[:4]) for f in [fen, *FEN_COMMENT.findall(out)]]
        return positions.count(positions[-1]) >= 3

    def matches(text: str, option: str) -> bool:
        out, _ = run(text, option)
        return bool(out.strip())

    def game_end(_: str, d: dict[str, Any]) -> dict[str, Any]:
        moves = list(d.get("moves") or ())
        text = game(d["fen"], moves)
        out, err = run(text, "-F", "-Wuci")
        fen = final_fen(out)
        if fen is None:
            raise RuntimeError(f"pgn-extract did not replay the moves: {(err.strip() or 'no output')[:200]}")
        if matches(text, "--checkmate"):
            return {"result": "0-1" if fen.split()[1] == "w" else "1-0", "reason": "checkmate", "claimable": []}
        if matches(text, "--stalemate"):
            return {"result": "1/2-1/2", "reason": "stalemate", "claimable": []}
        claimable = []
        if moves and matches(text, "--repetition") and final_repeated(text, d["fen"]):
            claimable.append("threefold_repetition")
        if matches(text, "--fifty") and int(fen.split()[4]) >= 100:
            claimable.append("fifty_moves")
        return {"result": "*", "reason": None, "claimable": claimable}

    return {"apply_moves": apply_moves, "validate_fen": validate_fen, "san": san, "parse_san": parse_san,
            "game_end": game_end}


if __name__ == "__main__":
    sys.exit(main())
