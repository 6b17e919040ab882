"""The position and its moves: :class:`Board` and :class:`Move`.

A Board plays by the compiled tables of its ruleset (:mod:`.tables`); nothing here
names a piece. Castling is stored and generated as king-takes-own-rook internally; the
ruleset's ``castling.uci`` decides how it is written.

Searches work on packed move codes (:mod:`.codes`) through ``legal_codes``,
``push_code``/``pop_code`` and the ``*_code`` tests, which skip the lookup that turns a
:class:`Move` back into a code.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import IllegalMoveError
from ..kept import KeptAnswers
from ..rules.files import Ruleset
from ..rules.model import Model
from ..rules.reader import model_of
from . import movegen
from .codes import FLAG_CASTLE, FLAG_DOUBLE, FLAG_EN_PASSANT, FLAG_NORMAL, is_castling, is_en_passant, origin, target
from .fen import board_fen, set_fen  # fen reads and writes a Board (imported there for types only)
from .squares import BB_ALL, BLACK, WHITE, Bitboard, Color, Square, parse_square, square_name
from .tables import MoveTables, move_tables

#: Castling rights are rook squares on the owner's first rank.
_HOME_RANK = (0xFF, 0xFF << 56)
#: Positions read from FEN kept (see :meth:`Board.from_fen`).
FEN_CACHE_SIZE = 4096
_READ: "KeptAnswers[Board]" = KeptAnswers(FEN_CACHE_SIZE)


class Move(NamedTuple):
    """A move: origin, destination and the promoted piece's letter (or ``None``).

    Castling is ``Move(king_square, rook_square)``: the king takes its own rook.
    """

    from_square: Square
    to_square: Square
    promotion: str | None = None

    def __str__(self) -> str:
        promotion = (self.promotion or "").lower()
        return square_name(self.from_square) + square_name(self.to_square) + promotion


class Piece(NamedTuple):
    name: str
    color: Color
    letter: str  #: upper case for White, lower case for Black

    @property
    def symbol(self) -> str:
        return self.letter


class Board:
    """A position under a ruleset, with legal moves, make and unmake."""

    def __init__(self, rules: Ruleset | Model, fen: str | None = None) -> None:
        self.rules = rules
        self.model: Model = model_of(rules)
        self.tables: MoveTables = move_tables(self.model)
        ntypes = len(self.tables.types)
        self.bb: list[list[Bitboard]] = [[0] * ntypes, [0] * ntypes]
        self.occ_co: list[Bitboard] = [0, 0]
        self.occupied: Bitboard = 0
        self.mailbox: list[int] = [-1] * 64
        self.turn: Color = WHITE
        self.castling_rights: Bitboard = 0
        self.ep_square: int = -1
        self.halfmove_clock = 0
        self.fullmove_number = 1
        self._stack: list[tuple[int, int, int, int, int]] = []
        self._cache: tuple[tuple[int, ...], dict[tuple[int, int, str | None], int]] | None = None
        self._found: tuple[tuple[int, ...], tuple[int, int, str | None], int | None] | None = None
        set_fen(self, fen if fen is not None else self.tables.initial_fen)

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_fen(cls, fen: str, rules: Ruleset | Model) -> "Board":
        """Parse and validate ``fen`` (FEN, X-FEN or Shredder-FEN); :class:`FenError` if bad.

        Reading a FEN depends on the move layer alone (its letters, initial array,
        castling and pawn tables: the model's ``signature``), and costs a few hundred
        times a copy; the same text is read under many rulesets and questions, so a copy
        of the first reading is kept by the two. A FEN that does not read is read again
        each time, so its error is raised each time."""
        model = model_of(rules)
        key = (model.signature, fen) if isinstance(fen, str) else None
        kept = _READ.get(key) if key is not None else None
        if kept is None:
            board = cls(rules, fen)
            if key is not None:
                _READ.put(key, board.copy(stack=False))
            return board
        board = kept.copy(stack=False)
        board.rules, board.model, board.tables = rules, model, move_tables(model)
        return board

    def copy(self, *, stack: bool = True) -> "Board":
        board = object.__new__(Board)
        board.rules, board.model, board.tables = self.rules, self.model, self.tables
        board.bb = [self.bb[0][:], self.bb[1][:]]
        board.occ_co = self.occ_co[:]
        board.occupied = self.occupied
        board.mailbox = self.mailbox[:]
        board.turn, board.castling_rights, board.ep_square = self.turn, self.castling_rights, self.ep_square
        board.halfmove_clock, board.fullmove_number = self.halfmove_clock, self.fullmove_number
        board._stack = self._stack[:] if stack else []
        board._cache, board._found = self._cache, self._found
        return board

    def clear(self) -> None:
        for color in (WHITE, BLACK):
            self.bb[color] = [0] * len(self.tables.types)
        self.occ_co = [0, 0]
        self.occupied = 0
        self.mailbox = [-1] * 64
        self.castling_rights = 0
        self.ep_square = -1
        self._stack = []

    def place(self, sq: Square, color: Color, pt: int) -> None:
        """Set up a unit of piece type ``pt`` and ``color`` on the empty square ``sq``
        (reading a FEN, building a position square by square): no move is recorded and
        nothing is validated; :func:`~reference_impl.core.fen.set_fen` validates."""
        if self.mailbox[sq] >= 0:
            raise ValueError(f"square {sq} is not empty")
        self._put(sq, color, pt)

    def _put(self, sq: Square, color: Color, pt: int) -> None:
        bit = 1 << sq
        self.bb[color][pt] |= bit
        self.occ_co[color] |= bit
        self.occupied |= bit
        self.mailbox[sq] = color << 4 | pt

    def _remove(self, sq: Square) -> None:
        code = self.mailbox[sq]
        bit = 1 << sq
        self.bb[code >> 4][code & 15] ^= bit
        self.occ_co[code >> 4] ^= bit
        self.occupied ^= bit
        self.mailbox[sq] = -1

    # -- queries ----------------------------------------------------------------------

    def piece_at(self, sq: Square) -> Piece | None:
        code = self.mailbox[sq]
        if code < 0:
            return None
        piece = self.tables.types[code & 15]
        letter = piece.letter if code >> 4 == WHITE else piece.letter.lower()
        return Piece(piece.name, code >> 4, letter)

    def piece_on(self, sq: Square) -> Piece:
        """The unit on the occupied square ``sq`` (the origin of a legal move, a
        capture's victim); ``ValueError`` if the square is empty."""
        piece = self.piece_at(sq)
        if piece is None:
            raise ValueError(f"no piece on {square_name(sq)}")
        return piece

    def king_square(self, color: Color) -> Square:
        """The square of ``color``'s royal piece in a position read from a valid FEN
        (which has one); ``ValueError`` if there is none."""
        square = self.king(color)
        if square is None:
            raise ValueError("no royal piece of that colour on the board")
        return square

    def pieces(self, name: str, color: Color) -> Bitboard:
        return self.bb[color][self.tables.by_name[name]]

    def king(self, color: Color) -> Square | None:
        bb = self.bb[color][self.tables.royal]
        return bb.bit_length() - 1 if bb else None

    def attackers(self, color: Color, sq: Square) -> Bitboard:
        return movegen.attackers(self, color, sq, self.occupied)

    def is_attacked_by(self, color: Color, sq: Square) -> bool:
        return bool(movegen.attackers(self, color, sq, self.occupied))

    def checkers(self) -> Bitboard:
        return movegen.checkers(self)

    def is_check(self) -> bool:
        return bool(movegen.checkers(self))

    def legal_moves(self, from_squares: Bitboard = BB_ALL, to_squares: Bitboard = BB_ALL) -> list[Move]:
        """Legal moves, optionally only those from and to the given squares (bitboards).

        Castling is a move to the castling rook's square."""
        if from_squares == BB_ALL and to_squares == BB_ALL:
            return [Move(*key) for key in self._legal()]
        return [self.move_of(m) for m in movegen.legal_moves(self, from_squares, to_squares)]

    def legal_move_count(self) -> int:
        return movegen.count_legal(self)

    def has_legal_move(self) -> bool:
        """``legal_move_count() > 0``, usually settled by one safe king step."""
        return movegen.has_legal(self)

    def is_checkmate(self) -> bool:
        return self.is_check() and not movegen.has_legal(self)

    def is_stalemate(self) -> bool:
        return not self.is_check() and not movegen.has_legal(self)

    def is_legal(self, move: Move) -> bool:
        return self._find(move) is not None

    def has_legal_en_passant(self) -> bool:
        if self.ep_square < 0:
            return False
        king = self.king(self.turn)
        return king is not None and bool(movegen._en_passant_moves(self, self.turn, king))

    def position_key(self) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...]]:
        """Identity of the position for repetition (FIDE 9.2.3): side to move, placement,
        castling rights, and the en passant square only where a legal capture exists."""
        ep = self.ep_square if self.has_legal_en_passant() else -1
        return (self.turn, self.castling_rights, ep, tuple(self.bb[WHITE]), tuple(self.bb[BLACK]))

    # -- move classification ----------------------------------------------------------

    def is_castling(self, move: Move) -> bool:
        internal = self._find(move)
        return internal is not None and is_castling(internal)

    def is_en_passant(self, move: Move) -> bool:
        internal = self._find(move)
        return internal is not None and is_en_passant(internal)

    def is_capture(self, move: Move) -> bool:
        internal = self._find(move)
        return internal is not None and self.is_capture_code(internal)

    def is_zeroing(self, move: Move) -> bool:
        """A pawn move or a capture: it resets the move-rule count (FIDE 9.3)."""
        internal = self._find(move)
        return internal is not None and self.is_zeroing_code(internal)

    def gives_check(self, move: Move) -> bool:
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    # -- packed move codes (see .codes) ---------------------------------------------
    #
    # A code passed to these methods must be legal in the current position (one of
    # ``legal_codes()``); they do not check it, which is what makes them fast.

    def legal_codes(self, from_squares: Bitboard = BB_ALL, to_squares: Bitboard = BB_ALL) -> list[int]:
        """Legal moves as packed codes, optionally only from and to the given squares."""
        return movegen.legal_moves(self, from_squares, to_squares)

    def try_push_code(self, code: int) -> bool:
        """Make ``code`` and return ``True`` if it is a legal move here; otherwise return
        ``False`` and leave the board unchanged (a checked :meth:`push_code`).

        A move other than castling and en passant is checked directly: the target is one
        the unit reaches (a pawn: its step, double step or capture, promoting exactly on
        the promotion rank) and the own royal piece is not attacked afterwards; castling
        and en passant are looked up among :meth:`legal_codes`.
        """
        origin, target, promotion, flag = code & 63, code >> 6 & 63, code >> 12 & 15, code >> 16
        piece = self.mailbox[origin]
        tables = self.tables
        color = self.turn
        if piece >= 0 and piece >> 4 == color and flag in (FLAG_NORMAL, FLAG_DOUBLE):
            occupied = self.occupied
            if piece & 15 == tables.pawn:
                push = tables.pawn_push[color][origin] & ~occupied
                if flag == FLAG_DOUBLE:
                    reach = tables.pawn_double[color][origin] & ~occupied if push else 0
                else:
                    reach = push | tables.pawn_captures[color][origin] & self.occ_co[color ^ 1]
                promoting = tables.promotion_ranks[color] >> target & 1
                if promoting != (promotion != 0) or promoting and promotion - 1 not in tables.promotion_types:
                    return False
            elif flag == FLAG_NORMAL and not promotion:
                reach = movegen.piece_attacks(self, piece & 15, color, origin, occupied) & ~self.occ_co[color]
            else:
                return False
            if not reach >> target & 1:
                return False
            self.push_code(code)
            king = self.bb[color][tables.royal]
            if king and movegen.attackers(self, color ^ 1, king.bit_length() - 1, self.occupied):
                self.pop_code()
                return False
            return True
        if code not in self.legal_codes(1 << origin, 1 << target):
            return False
        self.push_code(code)
        return True

    def is_capture_code(self, code: int) -> bool:
        """Does ``code`` capture? En passant does; castling (king takes own rook) never."""
        if code >> 16 == FLAG_CASTLE:
            return False
        return code >> 16 == FLAG_EN_PASSANT or self.mailbox[code >> 6 & 63] >= 0

    def is_zeroing_code(self, code: int) -> bool:
        """A capture or a pawn move: it resets the move-rule count (FIDE 9.3)."""
        return (self.mailbox[code & 63] & 15) == self.tables.pawn or self.is_capture_code(code)

    def move_of(self, code: int) -> Move:
        """The :class:`Move` of a packed code (castling stays king-takes-rook)."""
        promotion = code >> 12 & 15
        letter = self.tables.types[promotion - 1].letter if promotion else None
        return Move(code & 63, code >> 6 & 63, letter)

    def code_of(self, move: Move) -> int:
        """The packed code of a legal ``move``; :class:`IllegalMoveError` otherwise."""
        internal = self._find(move)
        if internal is None:
            raise IllegalMoveError(f"illegal move {move} in {self.fen()}")
        return internal

    # -- make and unmake --------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Make a legal move; :class:`IllegalMoveError` otherwise."""
        self.push_code(self.code_of(move))

    def pop(self) -> Move:
        return self.move_of(self.pop_code())

    @property
    def move_stack(self) -> list[Move]:
        """The moves made, first to last (a move's :meth:`move_of` needs only the tables)."""
        return [self.move_of(entry[0]) for entry in self._stack]

    def push_code(self, m: int) -> None:
        """Make the legal move ``m`` (a packed code from :meth:`legal_codes`), unchecked."""
        tables = self.tables
        from_sq, to_sq, promotion, flag = m & 63, m >> 6 & 63, m >> 12 & 15, m >> 16
        color = self.turn
        mailbox = self.mailbox
        code = mailbox[from_sq]
        pt = code & 15
        captured = mailbox[to_sq] if flag != FLAG_CASTLE else -1
        self._stack.append((m, captured, self.castling_rights, self.ep_square, self.halfmove_clock))
        if flag == FLAG_CASTLE:
            castling = tables.castling
            assert castling is not None  # a castling code exists only under a castling table
            back_rank = from_sq & ~7
            side = next(s for s in castling.sides if s.king_side == (to_sq > from_sq))
            self._remove(from_sq)
            self._remove(to_sq)
            self._put(back_rank + side.king_to_file, color, pt)
            self._put(back_rank + side.rook_to_file, color, castling.rook_type)
            self.castling_rights &= ~_HOME_RANK[color]
            self.halfmove_clock += 1
        else:
            # The common move inline: lift the mover (and a captured unit), set it down.
            own, bit_from, bit_to = self.bb[color], 1 << from_sq, 1 << to_sq
            placed = promotion - 1 if promotion else pt
            own[pt] ^= bit_from
            own[placed] |= bit_to
            self.occ_co[color] ^= bit_from | bit_to
            if captured >= 0:
                self.bb[color ^ 1][captured & 15] ^= bit_to
                self.occ_co[color ^ 1] ^= bit_to
                self.occupied ^= bit_from
            else:
                self.occupied ^= bit_from | bit_to
            mailbox[from_sq] = -1
            mailbox[to_sq] = color << 4 | placed
            if flag == FLAG_EN_PASSANT:
                self._remove(to_sq + tables.pawn_push_delta[color ^ 1])
            if pt == tables.pawn or captured >= 0:
                self.halfmove_clock = 0
            else:
                self.halfmove_clock += 1
            if pt == tables.royal and tables.rights_lost_by_king:
                self.castling_rights &= ~_HOME_RANK[color]
            # A move onto a square with a right: a capture of that rook (the right dies
            # with it), or a piece arriving where the rook moved away from.
            if self.castling_rights:
                lost_to = BB_ALL if captured >= 0 else tables.rights_lost_from
                self.castling_rights &= ~(bit_from & tables.rights_lost_from | bit_to & lost_to)
        self.ep_square = to_sq - tables.pawn_push_delta[color] if flag == FLAG_DOUBLE else -1
        if color == BLACK:
            self.fullmove_number += 1
        self.turn = color ^ 1

    def pop_code(self) -> int:
        """Unmake the last move; return its packed code."""
        m, captured, rights, ep, halfmove = self._stack.pop()
        tables = self.tables
        from_sq, to_sq, promotion, flag = m & 63, m >> 6 & 63, m >> 12 & 15, m >> 16
        color = self.turn ^ 1
        self.turn = color
        if color == BLACK:
            self.fullmove_number -= 1
        if flag == FLAG_CASTLE:
            castling = tables.castling
            assert castling is not None  # a castling code exists only under a castling table
            back_rank = from_sq & ~7
            side = next(s for s in castling.sides if s.king_side == (to_sq > from_sq))
            self._remove(back_rank + side.king_to_file)
            self._remove(back_rank + side.rook_to_file)
            self._put(from_sq, color, tables.royal)
            self._put(to_sq, color, castling.rook_type)
        else:
            mailbox = self.mailbox
            own, bit_from, bit_to = self.bb[color], 1 << from_sq, 1 << to_sq
            placed = mailbox[to_sq] & 15
            pt = tables.pawn if promotion and tables.pawn is not None else placed
            own[placed] ^= bit_to
            own[pt] |= bit_from
            self.occ_co[color] ^= bit_from | bit_to
            mailbox[from_sq] = color << 4 | pt
            if captured >= 0:
                self.bb[captured >> 4][captured & 15] |= bit_to
                self.occ_co[captured >> 4] |= bit_to
                self.occupied ^= bit_from
                mailbox[to_sq] = captured
            else:
                self.occupied ^= bit_from | bit_to
                mailbox[to_sq] = -1
            if flag == FLAG_EN_PASSANT and tables.pawn is not None:
                self._put(to_sq + tables.pawn_push_delta[color ^ 1], color ^ 1, tables.pawn)
        self.castling_rights, self.ep_square, self.halfmove_clock = rights, ep, halfmove
        return m

    # The names the packed-code methods had before they were public.
    _push = push_code
    _pop = pop_code
    _to_move = move_of

    # -- move conversion --------------------------------------------------------------

    def _legal(self) -> dict[tuple[int, int, str | None], int]:
        """Legal moves of this position, ``(from, to, promotion letter) -> packed move``.

        Kept for the last position asked about, so that generating the moves, checking
        one and making it cost one generation."""
        key = self._key()
        cache = self._cache
        if cache is not None and cache[0] == key:
            return cache[1]
        letters = [None] + [t.letter for t in self.tables.types]
        moves = {(m & 63, m >> 6 & 63, letters[m >> 12 & 15]): m for m in movegen.legal_moves(self)}
        self._cache = (key, moves)
        return moves

    def _find(self, move: Move) -> int | None:
        """The packed legal move ``move`` is, or ``None``. Without the position's moves
        kept (:meth:`_legal`), the moves from its origin to its target are generated, and
        the answer kept for the last move asked (a move is parsed, checked, written and
        made: one generation)."""
        promotion = move.promotion.upper() if move.promotion else None
        asked = (move.from_square, move.to_square, promotion)
        key = self._key()
        cache = self._cache
        if cache is not None and cache[0] == key:
            return cache[1].get(asked)
        found = self._found
        if found is not None and found[1] == asked and found[0] == key:
            return found[2]
        answer = None
        for m in movegen.legal_moves(self, 1 << move.from_square, 1 << move.to_square):
            code = m >> 12 & 15
            if (self.tables.types[code - 1].letter if code else None) == promotion:
                answer = m
                break
        self._found = (key, asked, answer)
        return answer

    def _key(self) -> tuple[int, ...]:
        return (self.turn, self.castling_rights, self.ep_square, *self.bb[0], *self.bb[1])

    def uci(self, move: Move) -> str:
        """The UCI string of ``move``: castling per the ruleset's ``castling.uci``."""
        internal = self._find(move)
        castling = self.tables.castling
        if internal is not None and is_castling(internal) and castling is not None and not castling.uci_king_takes_rook:
            side = next(s for s in castling.sides if s.king_side == (move.to_square > move.from_square))
            return square_name(move.from_square) + square_name((move.from_square & ~7) + side.king_to_file)
        return str(move)

    def parse_uci(self, text: str) -> Move:
        """A legal move from UCI; castling as ``e1g1`` or as king-takes-rook ``e1h1``."""
        if len(text) not in (4, 5):
            raise IllegalMoveError(f"invalid UCI move {text!r}")
        try:
            from_sq, to_sq = parse_square(text[:2]), parse_square(text[2:4])
        except ValueError:
            raise IllegalMoveError(f"invalid UCI move {text!r}") from None
        promotion = text[4].upper() if len(text) == 5 else None
        if promotion is not None and promotion not in self.tables.by_letter:
            raise IllegalMoveError(f"invalid UCI move {text!r}: unknown piece {text[4]!r}")
        move = Move(from_sq, to_sq, promotion)
        if self._find(move) is not None:
            return move
        castling = self.tables.castling
        if castling is not None and promotion is None and from_sq == self.king(self.turn):
            for m in self._legal().values():
                if is_castling(m) and origin(m) == from_sq:
                    side = next(s for s in castling.sides if s.king_side == (target(m) > from_sq))
                    if (from_sq & ~7) + side.king_to_file == to_sq:
                        return self.move_of(m)
        raise IllegalMoveError(f"illegal move {text} in {self.fen()}")

    def push_uci(self, text: str) -> Move:
        move = self.parse_uci(text)
        self.push(move)
        return move

    # -- output -------------------------------------------------------------------------

    def fen(self, *, castling: str = "xfen", en_passant: str = "legal") -> str:
        return board_fen(self, castling=castling, en_passant=en_passant)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self.position_key() == other.position_key()
            and (self.halfmove_clock, self.fullmove_number) == (other.halfmove_clock, other.fullmove_number)
        )
