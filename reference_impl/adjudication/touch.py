"""Touch-move (FIDE 4.3-4.5, US Chess 10B-10D, 10I): which moves a touch leaves.

Touches are a list of groups in the order they happened; a group holds the squares
touched at the same moment (e.g. king and rook together). :func:`allowed_moves`
returns the legal moves the player may still make and the article that binds them.
Castling is a king move (3.8.2) stored as king-takes-own-rook by the core Board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from reference_impl.errors import GameEventError
from reference_impl.rules.model import Model, TouchMove

from .tables import need

if TYPE_CHECKING:
    from reference_impl.core.board import Board, Move


def _ordered(board: Board, groups: Sequence[Sequence[int]], own_first: bool) -> list[int]:
    order: list[int] = []
    king = board.king(board.turn)
    for group in groups:
        squares = list(group)
        # In one moment: the own piece counts as touched first (4.3.3), and king with
        # rook is the castling gesture (4.4.1), so the king leads.
        squares.sort(key=lambda sq: (own_first and _color(board, sq) != board.turn, sq != king))
        for sq in squares:
            if sq not in order:
                order.append(sq)
    return order


def _color(board: Board, sq: int) -> int:
    """The colour of the unit on ``sq`` (a touched square holds one: :func:`check_touches`)."""
    piece = board.piece_at(sq)
    return -1 if piece is None else piece.color


def _name(board: Board, sq: int) -> str | None:
    piece = board.piece_at(sq)
    return None if piece is None else piece.name


def check_touches(board: Board, groups: Sequence[Sequence[int]]) -> None:
    """Raise :class:`GameEventError` if a touched square is empty."""
    for group in groups:
        for sq in group:
            if board.piece_at(sq) is None:
                from reference_impl.core.squares import square_name

                raise GameEventError(f"touch: no piece on {square_name(sq)}")


def allowed_moves(board: Board, groups: Sequence[Sequence[int]], model: Model) -> tuple[list[Move], str | None]:
    """(moves still allowed, cite of the obligation) after the touches ``groups``."""
    entry = need(model, model.touch_move, "touch_move")
    legal = board.legal_moves()
    if not groups:
        return legal, None
    own_first = entry.both_colours.unclear_order == "own_first"
    order = _ordered(board, groups, own_first)
    me = board.turn
    own = [sq for sq in order if _color(board, sq) == me]
    theirs = [sq for sq in order if _color(board, sq) != me]
    king = board.king(me)

    castle = _castling_obligation(board, own, king, legal, model, entry)
    if castle is not None:
        return castle
    rook_first = (
        bool(own)
        and model.castling is not None
        and _name(board, own[0]) == model.castling.rook
        and not entry.rook_first.castling_allowed
    )
    no_castle = [m for m in legal if not (rook_first and board.is_castling(m))]

    def moves_of(sq: int) -> list[Move]:
        # Castling is a king move; it also moves the rook it is made with (US 10I
        # Variation I lets a rook touched first castle).
        return [m for m in no_castle if m.from_square == sq or (board.is_castling(m) and m.to_square == sq)]

    def captures_of(sq: int) -> list[Move]:
        return [m for m in no_castle if m.to_square == sq and not board.is_castling(m)]

    if own and theirs:
        both = [m for m in captures_of(theirs[0]) if m.from_square == own[0]]
        if both:
            return both, entry.both_colours.cite
        for sq in order:
            found = moves_of(sq) if sq in own else captures_of(sq)
            if found:
                return found, entry.both_colours.cite
    elif own:
        for sq in own:
            if moves_of(sq):
                return moves_of(sq), entry.own_piece.cite
    else:
        for sq in theirs:
            if captures_of(sq):
                return captures_of(sq), entry.opponent_piece.cite
    return legal, entry.none_movable.cite


def _castling_obligation(
    board: Board, own: list[int], king: int | None, legal: list[Move], model: Model, entry: TouchMove,
) -> tuple[list[Move], str | None] | None:
    """King touched first (or together with a rook), then a rook: castle if legal,
    else another king move, else anything (FIDE 4.4.1/4.4.3, US Chess 10I1)."""
    if king is None or not own or own[0] != king or len(own) < 2:
        return None
    rule = entry.king_and_rook
    rook = own[1]
    if model.castling is None or _name(board, rook) != model.castling.rook:
        return None
    if rule.castle_if_legal:
        castles = [m for m in legal if board.is_castling(m) and m.from_square == king and m.to_square == rook]
        if castles:
            return castles, rule.cite
    king_moves = [
        m for m in legal if m.from_square == king and not (board.is_castling(m) and m.to_square == rook)
    ]
    if king_moves and rule.else_ == "king_move":
        return king_moves, rule.else_cite or rule.cite
    return legal, entry.none_movable.cite
