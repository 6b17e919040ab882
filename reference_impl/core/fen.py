"""FEN in three castling dialects (FEN ``KQkq``, X-FEN, Shredder-FEN), strictly validated.

Every rejection names its reason. Validation is by the ruleset's tables: piece letters,
the royal piece, the initial array (how many pawns and pieces a side starts with),
promotion, forbidden pawn ranks, which placements may hold castling rights, which en
passant squares a double step can produce, and which checks a last move can have given
(FIDE 3.10.3: a position no series of legal moves reaches is illegal). The conditions
are necessary, not sufficient: see ``validate_fen`` in docs/protocol.md.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import FenError
from ..rules.reader import model_of
from ..text import NumberError, parse_int
from . import reachable
from .squares import BB_RANKS, BLACK, FILE_NAMES, WHITE, parse_square, square_name

if TYPE_CHECKING:
    from .board import Board


def set_fen(board: "Board", fen: str) -> None:
    """Load ``fen`` into ``board``; raise :class:`FenError` naming the first problem.

    A FEN has exactly six fields; EPD-style strings without the two clocks are refused
    (PGN 16.1), as the harness refuses them in answers.
    """
    tables = board.tables
    if not isinstance(fen, str):
        raise FenError(repr(fen)[:100], "not a string")
    fields = fen.split()
    if len(fields) != 6:
        raise FenError(fen, f"expected 6 fields, found {len(fields)}")
    placement, turn, castling, ep, halfmove, fullmove = fields

    board.clear()
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise FenError(fen, f"placement has {len(ranks)} ranks, expected 8")
    for index, rank_text in enumerate(ranks):
        rank = 7 - index
        file = 0
        previous_digit = False
        for char in rank_text:
            if char.isdigit():
                if previous_digit:
                    raise FenError(fen, f"rank {rank + 1} has two consecutive digits")
                if char == "0" or char == "9":
                    raise FenError(fen, f"rank {rank + 1}: empty-square count {char} is not 1-8")
                file += int(char)
                previous_digit = True
                continue
            previous_digit = False
            pt = tables.by_letter.get(char.upper())
            if pt is None:
                raise FenError(fen, f"unknown piece letter {char!r} on rank {rank + 1}")
            if file >= 8:
                raise FenError(fen, f"rank {rank + 1} is longer than 8 squares")
            board.place(rank * 8 + file, WHITE if char.isupper() else BLACK, pt)
            file += 1
        if file != 8:
            raise FenError(fen, f"rank {rank + 1} has {file} squares, expected 8")

    if turn not in ("w", "b"):
        raise FenError(fen, f"side to move must be 'w' or 'b', not {turn!r}")
    board.turn = WHITE if turn == "w" else BLACK

    royal = tables.types[tables.royal]
    for color, name in ((WHITE, "White"), (BLACK, "Black")):
        count = board.bb[color][tables.royal].bit_count()
        if count != 1:
            raise FenError(fen, f"{name} has {count} {royal.name}s, expected exactly 1")
    if tables.pawn is not None:
        for color in (WHITE, BLACK):
            if board.bb[color][tables.pawn] & tables.forbidden_pawn_ranks[color]:
                raise FenError(fen, "a pawn stands on its first or last rank")
    reachable.check_material(board, fen)

    _set_castling(board, fen, castling)
    _set_en_passant(board, fen, ep)

    clocks = []
    for text, what in ((halfmove, "halfmove clock"), (fullmove, "fullmove number")):
        try:
            if len(text) > 1 and text.startswith("0"):
                raise NumberError(f"{what} {text!r} is not a non-negative integer (leading zero)")
            clocks.append(parse_int(text, what))
        except NumberError as error:
            raise FenError(fen, error.reason) from None
    board.halfmove_clock, board.fullmove_number = clocks
    if board.fullmove_number < 1:
        raise FenError(fen, "fullmove number must be at least 1")
    plies_played = 2 * (board.fullmove_number - 1) + board.turn
    if board.halfmove_clock > plies_played:
        raise FenError(
            fen, f"halfmove clock {board.halfmove_clock} exceeds the {plies_played} plies the move number allows"
        )
    if board.ep_square >= 0 and board.halfmove_clock != 0:
        raise FenError(fen, "an en passant square needs a halfmove clock of 0 (a pawn just moved)")

    reachable.check_checks(board, fen)


def _initial_squares(board: "Board") -> tuple[list[int], list[int]]:
    """King and castling-rook squares of the ruleset's initial array, per colour."""
    tables = board.tables
    placement = tables.initial_fen.split()[0] if tables.initial_fen else ""
    kings, rooks = [0, 0], [0, 0]
    rook_letter = tables.types[tables.castling.rook_type].letter if tables.castling else ""
    king_letter = tables.types[tables.royal].letter
    for index, rank_text in enumerate(placement.split("/")):
        rank, file = 7 - index, 0
        for char in rank_text:
            if char.isdigit():
                file += int(char)
                continue
            color = WHITE if char.isupper() else BLACK
            if char.upper() == king_letter:
                kings[color] |= 1 << (rank * 8 + file)
            elif char.upper() == rook_letter:
                rooks[color] |= 1 << (rank * 8 + file)
            file += 1
    return kings, rooks


def _set_castling(board: "Board", fen: str, field: str) -> None:
    tables = board.tables
    if field == "-":
        return
    if tables.castling is None:
        raise FenError(fen, "castling rights given, but this ruleset has no castling")
    if not re.fullmatch(r"[KQA-H]*[kqa-h]*", field) or len(set(field)) != len(field):
        raise FenError(fen, f"castling field {field!r} is malformed")
    rook_type = tables.castling.rook_type
    require_initial = tables.castling.rights_require == "initial_squares"
    initial_kings, initial_rooks = _initial_squares(board) if require_initial else ([0, 0], [0, 0])
    for char in field:
        color = WHITE if char.isupper() else BLACK
        back_rank = BB_RANKS[0 if color == WHITE else 7]
        king = board.king_square(color)
        rooks = board.bb[color][rook_type] & back_rank
        who = "White" if color == WHITE else "Black"
        if not (1 << king) & back_rank:
            raise FenError(fen, f"castling right {char!r} but {who}'s king is not on its first rank")
        if require_initial and not (1 << king) & initial_kings[color]:
            raise FenError(fen, f"castling right {char!r} but {who}'s king is not on its initial square")
        if not require_initial and king & 7 in (0, 7):
            # A king that never moved stands between its two rooks, never in a corner.
            raise FenError(fen, f"castling right {char!r} but {who}'s king on the edge cannot be between rooks")
        upper = char.upper()
        if upper in "KQ":
            side = rooks & ~((2 << king) - 1) if upper == "K" else rooks & ((1 << king) - 1)
            if not side:
                raise FenError(fen, f"castling right {char!r} but no rook on that side of {who}'s king")
            rook = side.bit_length() - 1 if upper == "K" else (side & -side).bit_length() - 1
        else:
            rook = (back_rank & -back_rank).bit_length() - 1 + FILE_NAMES.index(upper.lower())
            if not (1 << rook) & rooks:
                raise FenError(fen, f"castling right {char!r} but no {who} rook on {square_name(rook)}")
            if rook == king:
                raise FenError(fen, f"castling right {char!r} names the king's own file")
        if require_initial and not (1 << rook) & initial_rooks[color]:
            raise FenError(fen, f"castling right {char!r} but the rook on {square_name(rook)} is not on an initial square")
        if board.castling_rights >> rook & 1:
            raise FenError(fen, f"castling field {field!r} names the rook on {square_name(rook)} twice")
        sides_with_right = [r for r in _rights_of(board, color) if (r > king) == (rook > king)]
        if sides_with_right:
            raise FenError(fen, f"castling field {field!r} gives {who} two rights on one side")
        board.castling_rights |= 1 << rook
    if not require_initial:
        _check_mirrored(board, fen)


def _check_mirrored(board: "Board", fen: str) -> None:
    """Rights of both colours fit one initial array that Black mirrors (the setup table's
    ``black: mirror``, FIDE II.2.3): a right means its king and rook never moved, so a
    king, or a rook on one side of it, that both colours still have on their initial
    squares stands on the same file (FIDE 3.10.3: otherwise no game reaches the position)."""
    setup = model_of(board.rules).setup
    if setup is not None and setup.black != "mirror":
        return
    files: list[dict[str, int]] = []
    for color in (WHITE, BLACK):
        king = board.king(color)
        if king is None:
            return
        mine = {"king": king & 7} if _rights_of(board, color) else {}
        for rook in _rights_of(board, color):
            mine["king side" if rook > king else "queen side"] = rook & 7
        files.append(mine)
    for what in ("king", "king side", "queen side"):
        white, black = files[WHITE].get(what), files[BLACK].get(what)
        if white is not None and black is not None and white != black:
            piece = "kings" if what == "king" else f"{what} rooks"
            raise FenError(fen, f"castling rights keep both {piece} on their initial squares, "
                                f"but they stand on different files ({FILE_NAMES[white]} and "
                                f"{FILE_NAMES[black]}): Black's array mirrors White's")


def _rights_of(board: "Board", color: int) -> list[int]:
    rights = board.castling_rights & board.occ_co[color]
    return [sq for sq in range(64) if rights >> sq & 1]


def _set_en_passant(board: "Board", fen: str, field: str) -> None:
    tables = board.tables
    if field == "-":
        return
    try:
        ep = parse_square(field)
    except ValueError:
        raise FenError(fen, f"en passant field {field!r} is not a square") from None
    mover = board.turn ^ 1  # the side that made the double step
    if tables.pawn is None or not tables.double_step_ranks[mover]:
        raise FenError(fen, "en passant square given, but pawns cannot double step in this ruleset")
    delta = tables.pawn_push_delta[mover]
    origin, landing = ep - delta, ep + delta
    valid = (
        0 <= origin < 64
        and 0 <= landing < 64
        and tables.double_step_ranks[mover] >> origin & 1
        and board.mailbox[landing] == (mover << 4 | tables.pawn)
        and board.mailbox[ep] < 0
        and board.mailbox[origin] < 0
    )
    if not valid:
        raise FenError(fen, f"no double step can have produced the en passant square {field}")
    board.ep_square = ep


def castling_field(board: "Board", dialect: str = "xfen") -> str:
    """The castling field: ``xfen`` (``KQkq``, a file letter only for an inner rook) or
    ``shredder`` (always file letters)."""
    tables = board.tables
    parts = []
    for color in (WHITE, BLACK):
        king = board.king_square(color)
        rooks = board.bb[color][tables.castling.rook_type] if tables.castling else 0
        rights = sorted(_rights_of(board, color), reverse=True)
        for rook in rights:
            file_letter = FILE_NAMES[rook & 7]
            if dialect == "shredder":
                letter = file_letter.upper()
            else:
                same_rank = rooks & BB_RANKS[rook >> 3]
                if rook > king:
                    outer = same_rank & ~((2 << rook) - 1)
                    letter = "K" if not outer else file_letter.upper()
                else:
                    outer = same_rank & ((1 << rook) - 1)
                    letter = "Q" if not outer else file_letter.upper()
            parts.append(letter if color == WHITE else letter.lower())
    return "".join(parts) or "-"


def board_fen(board: "Board", *, castling: str = "xfen", en_passant: str = "legal") -> str:
    """The FEN of ``board``; ``en_passant="fen"`` writes the square after every double
    step, ``"legal"`` only where a legal en passant capture exists."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board.piece_at(rank * 8 + file)
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece.letter
        rows.append(row + (str(empty) if empty else ""))
    ep = board.ep_square
    if ep >= 0 and en_passant == "legal" and not board.has_legal_en_passant():
        ep = -1
    return " ".join(
        [
            "/".join(rows),
            "w" if board.turn == WHITE else "b",
            castling_field(board, castling),
            square_name(ep) if ep >= 0 else "-",
            str(board.halfmove_clock),
            str(board.fullmove_number),
        ]
    )
