"""What the unwinnability searches share: the node :class:`Budget`, the static stage's
view of a board (:func:`placement_of`, :func:`static_proofs`: :mod:`.static`,
:mod:`.mate`), the move layer's key for kept answers, and the replay of compiled lines.

The searches themselves are compiled (:mod:`.native`: the exhaustive walk and the
helpmate search); their lines are replayed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..core import codes
from ..core.board import Board
from ..core.squares import square_name
from ..core.squares import BLACK, WHITE
from .mate import cannot_mate
from .static import Placement, analyse_static


class BudgetExhausted(Exception):
    """The node budget ran out."""


@dataclass
class Budget:
    """Nodes (moves made) allowed and used."""

    limit: int
    used: int = 0

    def spend(self) -> None:
        if self.used >= self.limit:
            raise BudgetExhausted
        self.used += 1


def placement_of(board: Board) -> Placement:
    """The static stage's view of ``board``."""
    tables = board.tables
    pieces = {}
    for color in (WHITE, BLACK):
        for type_index, bb in enumerate(board.bb[color]):
            if bb:
                pieces[(type_index, color)] = bb
    ep = board.ep_square if board.ep_square >= 0 and board.has_legal_en_passant() else None
    return Placement(tables, pieces, ep, board.castling_rights)


def move_layer_key(board: Board) -> str:
    """The move layer as far as this position can tell, for keeping answers: rulesets
    that differ only in castling (Chess960 and standard) play the same game once no
    castling right is left."""
    tables = board.tables
    if board.castling_rights:
        return tables.signature
    return tables.signature_without_castling


def static_proofs(board: Board, colors: Iterable[int]) -> set[int]:
    """The colours among ``colors`` that the static stage proves can never mate."""
    placement = placement_of(board)
    analysis = analyse_static(placement)
    return {c for c in colors if cannot_mate(placement, analysis, c)}


def code_uci(board: Board, code: int) -> str:
    """The UCI text of the packed move ``code`` (castling per the ruleset's ``castling.uci``),
    without looking the move up again."""
    origin, target = codes.origin(code), codes.target(code)
    castling = board.tables.castling
    if codes.is_castling(code) and castling is not None and not castling.uci_king_takes_rook:
        side = next(s for s in castling.sides if s.king_side == (target > origin))
        target = (origin & ~7) + side.king_to_file
    promoted = codes.promotion_type(code)
    letter = board.tables.types[promoted].letter.lower() if promoted is not None else ""
    return square_name(origin) + square_name(target) + letter


def line_to_uci(board: Board, line: list[int]) -> list[str]:
    """UCI strings of a line of packed moves played from ``board`` (left unchanged)."""
    replay = board.copy(stack=False)
    out = []
    for code in line:
        out.append(code_uci(replay, code))
        replay.push_code(code)
    return out
