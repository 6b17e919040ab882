"""Touch-move (FIDE 4.3-4.5, US Chess 10B-10D, 10I): which moves a touch leaves.

Touches are a list of groups in the order they happened; a group holds the squares
touched at the same moment (e.g. king and rook together). :func:`allowed_moves`
returns the legal moves the player may still make and the article that binds them.
Castling is a king move (3.8.2) stored as king-takes-own-rook by the core Board.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from reference_impl.errors import GameEventError

from .tables import table


def _ordered(board: Any, groups: Sequence[Sequence[int]], own_first: bool) -> list[int]:
    order: list[int] = []
    king = board.king(board.turn)
    for group in groups:
        squares = list(group)
        # In one moment: the own piece counts as touched first (4.3.3), and king with
        # rook is the castling gesture (4.4.1), so the king leads.
        squares.sort(key=lambda sq: (own_first and board.piece_at(sq).color != board.turn, sq != king))
        for sq in squares:
            if sq not in order:
                order.append(sq)
    return order


def check_touches(board: Any, groups: Sequence[Sequence[int]]) -> None:
    """Raise :class:`GameEventError` if a touched square is empty."""
    for group in groups:
        for sq in group:
            if board.piece_at(sq) is None:
                from reference_impl.core.squares import square_name

                raise GameEventError(f"touch: no piece on {square_name(sq)}")


def allowed_moves(
    board: Any, groups: Sequence[Sequence[int]], rules: Mapping[str, Any]
) -> tuple[list[Any], str | None]:
    """(moves still allowed, cite of the obligation) after the touches ``groups``."""
    entry = table(rules, "touch_move")
    legal = board.legal_moves()
    if not groups:
        return legal, None
    own_first = entry["both_colours"].get("unclear_order") == "own_first"
    order = _ordered(board, groups, own_first)
    me = board.turn
    own = [sq for sq in order if board.piece_at(sq).color == me]
    theirs = [sq for sq in order if board.piece_at(sq).color != me]
    king = board.king(me)

    castle = _castling_obligation(board, groups, own, king, legal, entry)
    if castle is not None:
        return castle
    rook_name = board.rules["castling"].get("rook", "rook")
    rook_first = (
        bool(own)
        and board.piece_at(own[0]).name == rook_name
        and not entry["rook_first"].get("castling_allowed")
    )
    no_castle = [m for m in legal if not (rook_first and board.is_castling(m))]

    def moves_of(sq: int) -> list[Any]:
        # Castling is a king move; it also moves the rook it is made with (US 10I
        # Variation I lets a rook touched first castle).
        return [m for m in no_castle if m.from_square == sq or (board.is_castling(m) and m.to_square == sq)]

    def captures_of(sq: int) -> list[Any]:
        return [m for m in no_castle if m.to_square == sq and not board.is_castling(m)]

    if own and theirs:
        both = [m for m in captures_of(theirs[0]) if m.from_square == own[0]]
        if both:
            return both, entry["both_colours"]["cite"]
        for sq in order:
            found = moves_of(sq) if sq in own else captures_of(sq)
            if found:
                return found, entry["both_colours"]["cite"]
    elif own:
        for sq in own:
            if moves_of(sq):
                return moves_of(sq), entry["own_piece"]["cite"]
    else:
        for sq in theirs:
            if captures_of(sq):
                return captures_of(sq), entry["opponent_piece"]["cite"]
    return legal, entry["none_movable"]["cite"]


def _castling_obligation(
    board: Any,
    groups: Sequence[Sequence[int]],
    own: list[int],
    king: int | None,
    legal: list[Any],
    entry: Mapping[str, Any],
) -> tuple[list[Any], str] | None:
    """King touched first (or together with a rook), then a rook: castle if legal,
    else another king move, else anything (FIDE 4.4.1/4.4.3, US Chess 10I1)."""
    if king is None or not own or own[0] != king or len(own) < 2:
        return None
    rule = entry["king_and_rook"]
    rook = own[1]
    if board.piece_at(rook).name != board.rules["castling"].get("rook", "rook"):
        return None
    if rule.get("castle_if_legal"):
        castles = [m for m in legal if board.is_castling(m) and m.from_square == king and m.to_square == rook]
        if castles:
            return castles, rule["cite"]
    king_moves = [
        m for m in legal if m.from_square == king and not (board.is_castling(m) and m.to_square == rook)
    ]
    if king_moves and rule.get("else") == "king_move":
        return king_moves, rule.get("else_cite") or rule["cite"]
    return legal, entry["none_movable"]["cite"]
