"""Repetition and move-rule counting (FIDE 9.2, 9.3, 9.6; US Chess 14C, 14F, 14K).

A position's identity follows ``repetition.same_position``: with ``en_passant:
legal`` it is the core Board's :meth:`position_key` (side to move, placement,
castling rights, and the en passant square only while a legal capture exists). That
key makes 9.2.3.1 hold by construction: the position right after a double step with
a legal e.p. reply differs from the same placement later, when the capture has gone.
Castling rights are in the key, and they only change when king or rook moves
(9.2.3.2), so a castle that is merely blocked or through check changes nothing.

The initial position of the record counts as an occurrence.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from reference_impl.rules.model import Model, RepetitionAutomatic

if TYPE_CHECKING:
    from reference_impl.core.board import Board


def position_key(board: Board, model: Model) -> Hashable:
    """The identity of ``board`` under the ruleset's ``repetition.same_position``."""
    mode = model.repetition.same_position.en_passant
    if mode == "legal":
        return board.position_key()
    fields = board.fen(castling="shredder", en_passant="fen").split()
    return tuple(fields[:4] if mode == "fen" else fields[:3])


def occurrences(keys: Sequence[Hashable], key: Hashable) -> int:
    """How often ``key`` stands in the record ``keys``."""
    return sum(1 for k in keys if k == key)


def consecutive_occurrences(keys: Sequence[Hashable]) -> int:
    """How many times the last position stood at each player's alternate moves in a row.

    FIDE 2014 9.6 a / US Chess 14K1: "for at least five consecutive alternate moves by
    each player". Read here as: the record is periodic with period 4 plies back from
    the last position - every position of both players repeats the one 4 plies before
    it - and the count is how many 4-ply steps that stretch spans, plus one.
    """
    last = len(keys) - 1
    count = 1
    while last - 4 * count >= 0 and all(
        keys[i] == keys[i + 4] for i in range(last - 4 * count, last - 4 * count + 4) if i + 4 <= last
    ):
        count += 1
    return count if keys else 0


def automatic_repetition(keys: Sequence[Hashable], entry: RepetitionAutomatic) -> bool:
    """Whether ``repetition.automatic`` (or its discretionary form) holds now."""
    needed = entry.occurrences
    if entry.consecutive:
        return consecutive_occurrences(keys) >= needed
    return occurrences(keys, keys[-1]) >= needed


def repetition_claim_moves(
    board: Board, keys: Sequence[Hashable], model: Model, needed: int
) -> tuple[bool, list[str]]:
    """(claim correct now, intended moves that make it correct) for the player to move."""
    now = occurrences(keys, keys[-1]) >= needed
    moves: list[str] = []
    for move in board.legal_moves():
        board.push(move)
        try:
            key = position_key(board, model)
        finally:
            board.pop()
        if occurrences(keys, key) + 1 >= needed:
            moves.append(board.uci(move))
    return now, sorted(moves)


def move_rule_claim_moves(board: Board, plies: int) -> tuple[bool, list[str]]:
    """(claim correct now, intended moves that make it correct): ``plies`` without a
    pawn move or capture after the (intended) move (FIDE 9.3, US Chess 14F)."""
    now = board.halfmove_clock >= plies
    if board.halfmove_clock + 1 < plies:
        return now, []
    moves = [board.uci(m) for m in board.legal_moves() if not board.is_zeroing(m)]
    return now, sorted(moves)
