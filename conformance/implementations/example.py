"""A complete in-process adapter, as a model for your own library.

Copy this file into your project (it imports nothing relative, so it works wherever it
lands), replace the python-chess calls with your library's, and run the corpus against
it. The module must be importable: run from the directory that holds it with
``PYTHONPATH=.`` (or install your package):

    PYTHONPATH=. arbiter run --adapter module:arbiter_adapter:ExampleAdapter
    PYTHONPATH=. pytest --arbiter-adapter=module:arbiter_adapter:ExampleAdapter

The three methods are the whole contract (see :mod:`conformance.adapters.base`):

* ``start`` says who you are, which kinds you answer and which rulesets you play.
  The harness never sends anything else; the rest is reported ``unsupported``.
* ``run`` returns the kind's result object (``docs/protocol.md``). Raise
  :class:`~conformance.adapters.base.Skip` to decline one fixture; any other
  exception marks it ``errored`` with the exception's text.
* ``stop`` releases whatever ``start`` acquired.

Moves are UCI strings; under a Chess960 ruleset castling is king-takes-own-rook
(``e1h1``). This example answers four cheap kinds with python-chess.
"""

from __future__ import annotations

from typing import Any

import chess

from conformance.adapters.base import Adapter, Skip, StartInfo

CHESS960 = "fide-2023-chess960"


class ExampleAdapter(Adapter):
    """legal_moves, perft, status and validate_fen through python-chess."""

    def start(self) -> StartInfo:
        return StartInfo(
            name="example (python-chess)",
            version=chess.__version__,
            capabilities=["legal_moves", "perft", "status", "validate_fen"],
            rulesets=["fide-2023", "uscf-7", CHESS960],
        )

    def run(self, kind: str, ruleset: str, input: dict[str, Any]) -> dict[str, Any]:
        if kind == "validate_fen":
            try:
                board = self._board(ruleset, input["fen"])
            except ValueError:
                return {"valid": False}
            return {"valid": board.is_valid()}
        board = self._board(ruleset, input["fen"])
        if kind == "legal_moves":
            return {"moves": [board.uci(move, chess960=ruleset == CHESS960) for move in board.legal_moves]}
        if kind == "perft":
            if input["depth"] > 4:
                raise Skip("this example does not search deeper than 4 plies")
            return {"nodes": _perft(board, input["depth"])}
        if kind == "status":
            return {"check": board.is_check(), "checkmate": board.is_checkmate(), "stalemate": board.is_stalemate()}
        raise ValueError(f"kind {kind!r} was not declared")  # never happens: the harness checks

    def stop(self) -> None:
        pass  # nothing to release

    @staticmethod
    def _board(ruleset: str, fen: str) -> chess.Board:
        return chess.Board(fen, chess960=ruleset == CHESS960)


def _perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _perft(board, depth - 1)
        board.pop()
    return total
