"""The resolved ruleset as typed values: one frozen dataclass per table of ``spec/``
(``@record(kw_only=True)``, :mod:`reference_impl.records`).

Each field is named as its YAML key (``else_`` and ``class_`` for the two keys Python
reserves; the field's ``key`` metadata says so) and typed as the schema types it: an
entry is a dataclass, a list a tuple, a mapping of entries a read-only mapping, and a
key that may be absent is ``X | None``, absent meaning what the schema says (no such
rule, or "not stated"). A key the schema gives a ``default`` is never ``None``: the
reader (:mod:`.reader`) takes the value from the schema, never from code.

Every entry knows where it stands (:attr:`Entry.origin`): its key path in the resolved
ruleset, the file and line that wrote each key (:meth:`Entry.source_of`) and the article
each field cites (:meth:`Entry.cite_of`: the field's own ``X_cite``, else the entry's
``cite``). The interpreter reads rulesets only through these types; the dicts behind
them belong to the rules tooling (validation, ``rules show``, ``diff``, ``mutate``).

A new schema key is one line here: a field of the entry's class with the key's name
and type (``tests/test_rules_model.py`` checks that the classes and the schema agree).
"""

# No ``from __future__ import annotations`` here: the reader asks every class for its
# type hints, and annotations evaluated once at import cost a fifth of strings evaluated
# then (12 ms of a command's start-up).

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, Literal

from reference_impl.records import record

KeyPath = tuple[str | int, ...]

Result = Literal["win", "draw", "loss"]
Regime = Literal["standard", "rapid", "blitz"]
#: ``termination.dead_position.test``: neither player can checkmate (FIDE 5.2.2; US Chess
#: 14D read two-sided), or one player can no longer be checkmated (US Chess 14D4 read literally).
DeadTest = Literal["neither_can_checkmate", "player_cannot_be_checkmated"]
EndName = Literal["checkmate", "stalemate", "dead_position", "fivefold_repetition", "seventy_five_moves"]
RuleKind = Literal["automatic", "claim", "discretionary"]
File = Literal["a", "b", "c", "d", "e", "f", "g", "h"]
Vector = tuple[int, int]


def key(name: str) -> Any:
    """A field whose YAML key is ``name`` (a word Python reserves: ``else``, ``class``)."""
    return field(metadata={"key": name})


def covers(*names: str) -> Any:
    """An ``X_cite`` field that cites the keys ``names`` (its stem names none of them)."""
    return field(metadata={"covers": names})


@record
class Source:
    """Where a key was written: a file of the spec (``rulesets/fide-2023.yaml``) and a line
    (1-based); ``file`` names the derivation for a ruleset built in memory."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@record
class Origin:
    """An entry's key path in the resolved ruleset and the way to its sources."""

    path: KeyPath
    locate: Callable[[KeyPath], Source | None] = field(compare=False, repr=False)


def _nowhere(path: KeyPath) -> Source | None:
    return None


NOWHERE = Origin((), _nowhere)


@record(kw_only=True)
class Entry:
    """A mapping of a ruleset: its fields are its keys (see the subclasses)."""

    origin: Origin = field(compare=False, repr=False)

    def cite_of(self, name: str) -> str | None:
        """The article field ``name`` carries: its ``X_cite`` (or an ``X_cite`` whose
        ``covers`` names it), else the entry's own ``cite``."""
        from .reader import field_cite

        return field_cite(self, name)

    def source_of(self, name: str) -> Source | None:
        """The file and line that wrote field ``name`` (``None``: the schema's default)."""
        from .reader import yaml_key

        return self.origin.locate(self.origin.path + (yaml_key(type(self), name),))



# -- the move layer (movement.schema.json) --------------------------------------------


@record(kw_only=True)
class Scope(Entry):
    speed: Literal["standard", "rapid", "blitz", "any"]
    variant: Literal["orthodox", "chess960"] | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class BoardShape(Entry):
    files: int
    ranks: int
    cite: str | None
    note: str | None


@record(kw_only=True)
class PieceRule(Entry):
    letter: str
    royal: bool
    pawn: bool
    leaps: tuple[Vector, ...]
    rides: tuple[Vector, ...]
    symmetry: Literal["all", "none"]
    cite: str
    note: str | None


@record(kw_only=True)
class PawnPush(Entry):
    vector: Vector
    cite: str
    note: str | None


@record(kw_only=True)
class DoubleStep(Entry):
    from_rank: int
    cite: str
    note: str | None


@record(kw_only=True)
class PawnCaptures(Entry):
    vectors: tuple[Vector, ...]
    cite: str
    note: str | None


@record(kw_only=True)
class EnPassant(Entry):
    cite: str
    note: str | None


@record(kw_only=True)
class Promotion(Entry):
    rank: int
    to: tuple[str, ...]
    cite: str
    note: str | None


@record(kw_only=True)
class ForbiddenRanks(Entry):
    ranks: tuple[int, ...]
    cite: str
    note: str | None


@record(kw_only=True)
class Pawn(Entry):
    push: PawnPush
    double_step: DoubleStep | None
    captures: PawnCaptures
    en_passant: EnPassant | None
    promotion: Promotion | None
    forbidden_ranks: ForbiddenRanks | None


@record(kw_only=True)
class CastlingSide(Entry):
    king_to: File
    rook_to: File
    cite: str
    note: str | None


@record(kw_only=True)
class MustBeEmpty(Entry):
    squares: tuple[Literal["king_path", "rook_path"], ...]
    cite: str
    note: str | None


@record(kw_only=True)
class MustNotBeAttacked(Entry):
    squares: tuple[Literal["king_from", "king_path", "king_to"], ...]
    rook_removed: bool
    cite: str
    note: str | None


@record(kw_only=True)
class RightsLost(Entry):
    by: tuple[Literal["king_move", "rook_move", "rook_captured"], ...]
    cite: str
    note: str | None


@record(kw_only=True)
class Castling(Entry):
    rights_require: Literal["initial_squares", "king_between_rooks"]
    rook: str
    sides: Mapping[str, CastlingSide]
    must_be_empty: MustBeEmpty
    must_not_be_attacked: MustNotBeAttacked
    rights_lost: RightsLost
    uci: Literal["king_to_destination", "king_takes_rook"]
    uci_cite: str | None
    cite: str
    note: str | None


@record(kw_only=True)
class BackRank(Entry):
    rank: int
    pieces: Mapping[str, int]
    cite: str
    note: str | None


@record(kw_only=True)
class PawnRank(Entry):
    rank: int
    cite: str
    note: str | None


@record(kw_only=True)
class Constraint(Entry):
    """One of the schema's constraint forms: ``between`` (``outer``) or ``opposite_colours``."""

    rule: Literal["between", "opposite_colours"]
    piece: str
    outer: str | None
    cite: str
    note: str | None


@record(kw_only=True)
class NumberingStep(Entry):
    """One of the schema's step forms: ``place`` on one of ``files``, ``place`` on the
    ``nth_empty`` square, or ``fill_empty`` with one of its codes."""

    place: str | None
    files: tuple[File, ...] | None
    nth_empty: int | None
    fill_empty: tuple[str, ...] | None
    cite: str
    note: str | None


@record(kw_only=True)
class Numbering(Entry):
    scheme: str
    first: int
    count: int
    standard: int | None
    steps: tuple[NumberingStep, ...]
    cite: str
    note: str | None


@record(kw_only=True)
class Setup(Entry):
    kind: Literal["fixed", "chess960"]
    initial_fen: str
    back_rank: BackRank | None
    pawns: PawnRank | None
    constraints: tuple[Constraint, ...]
    black: Literal["mirror"]
    black_cite: str | None
    numbering: Numbering | None
    cite: str
    note: str | None


# -- adjudication (adjudication.schema.json) -------------------------------------------


@record(kw_only=True)
class ResultEntry(Entry):
    result: Result
    draw_if_opponent_cannot_checkmate: bool
    cite: str | None
    note: str | None


@record(kw_only=True)
class DeadPosition(Entry):
    kind: Literal["automatic", "as_of_last_move", "claim"]
    test: DeadTest
    test_cite: str | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class Agreement(Entry):
    min_moves_each: int
    cite: str | None
    note: str | None


@record(kw_only=True)
class Precedence(Entry):
    order: tuple[EndName, ...]
    cite: str | None
    note: str | None


@record(kw_only=True)
class Termination(Entry):
    checkmate: ResultEntry | None
    stalemate: ResultEntry | None
    resignation: ResultEntry | None
    dead_position: DeadPosition | None
    agreement: Agreement | None
    precedence: Precedence
    cite: str | None
    note: str | None


@record(kw_only=True)
class SamePosition(Entry):
    side_to_move: bool | None
    castling: Literal["rights_lost_by_moving"] | None
    en_passant: Literal["legal", "fen", "ignored"]
    en_passant_cite: str | None
    castling_cite: str | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class RepetitionClaim(Entry):
    kind: Literal["claim"]
    by: Literal["player_to_move"] | None
    occurrences: int
    intended_move: bool
    counts_as_draw_offer: bool
    touch_forfeits: bool
    intended_move_cite: str | None
    draw_offer_cite: str | None = covers("counts_as_draw_offer")
    touch_cite: str | None = covers("touch_forfeits")
    incorrect_cite: str | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class RepetitionAutomatic(Entry):
    kind: RuleKind
    occurrences: int
    consecutive: bool
    cite: str | None
    note: str | None


@record(kw_only=True)
class Repetition(Entry):
    same_position: SamePosition
    claim: RepetitionClaim | None
    automatic: RepetitionAutomatic | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class MoveRuleClaim(Entry):
    kind: Literal["claim"]
    by: Literal["player_to_move"] | None
    plies: int
    intended_move: bool
    counts_as_draw_offer: bool
    touch_forfeits: bool
    draws_immediately: bool | None
    intended_move_cite: str | None
    draw_offer_cite: str | None = covers("counts_as_draw_offer")
    touch_cite: str | None = covers("touch_forfeits")
    incorrect_cite: str | None
    draws_immediately_cite: str | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class MoveRuleAutomatic(Entry):
    kind: RuleKind
    plies: int
    checkmate_precedence: bool
    cite: str | None
    note: str | None


@record(kw_only=True)
class MoveRule(Entry):
    claim: MoveRuleClaim | None
    automatic: MoveRuleAutomatic | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class MaterialRow(Entry):
    opponent_has: Mapping[str, int]
    player_has_none_of: tuple[str, ...]
    unless_forced_win: bool
    cite: str
    note: str | None


@record(kw_only=True)
class BothFlags(Entry):
    last_period: Literal["draw", "continue"]
    other_period: Literal["draw", "continue"]
    regimes: tuple[Regime, ...] | None
    without_increment: bool
    other_cite: str | None = covers("other_period")
    applies_cite: str | None = covers("regimes", "without_increment")
    cite: str | None
    note: str | None


@record(kw_only=True)
class FlagFall(Entry):
    result: Result
    draw_test: Literal["opponent_cannot_checkmate", "material_table"]
    if_undetermined: Literal["loss", "unknown"]
    material_draws: tuple[MaterialRow, ...]
    forced_win_unshown: Literal["draw", "undetermined"] | None
    forced_win_cite: str | None = covers("forced_win_unshown")
    forced_win_note: str | None
    precedence: tuple[Literal["checkmate", "resignation", "stalemate", "dead_position", "agreement"], ...]
    when: Literal["noticed", "claimed"]
    when_cite: str | None
    both_flags: BothFlags | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class IllegalRegime(Entry):
    """One regime's illegal-move rules; ``without_supervision`` is the same entry with its
    ``without_supervision`` keys merged over it (the reader merges them, as the schema says)."""

    loses_at: int | None
    draw_if_opponent_cannot_checkmate: bool
    loss_requires_claim: bool
    claimant_needs_mating_material: bool
    without_mating_material: Literal["draw", "no_effect"]
    without_supervision: "IllegalRegime | None"
    cite: str | None
    note: str | None


@record(kw_only=True)
class IllegalMoves(Entry):
    completed_by: Literal["clock_press"] | None
    completed_cite: str | None = covers("completed_by")
    clock_press_without_move: Literal["illegal_move", "not_an_illegal_move"]
    clock_press_without_move_cite: str | None
    standard: IllegalRegime | None
    rapid: IllegalRegime | None
    blitz: IllegalRegime | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class Obligation(Entry):
    """A touch-move obligation (``must``), for own, opponent's or no movable pieces."""

    must: str | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class BothColours(Entry):
    must: Literal["capture_with_first_own_else_first_movable"] | None
    unclear_order: Literal["own_first"] | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class KingAndRook(Entry):
    castle_if_legal: bool
    else_: Literal["king_move"] | None = key("else")
    else_cite: str | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class RookFirst(Entry):
    castling_allowed: bool
    cite: str | None
    note: str | None


@record(kw_only=True)
class TouchMove(Entry):
    own_piece: Obligation
    opponent_piece: Obligation
    both_colours: BothColours
    king_and_rook: KingAndRook
    rook_first: RookFirst
    none_movable: Obligation
    cite: str | None
    note: str | None


@record(kw_only=True)
class Increment(Entry):
    cite: str | None
    note: str | None


@record(kw_only=True)
class Delay(Entry):
    kinds: tuple[Literal["simple", "bronstein"], ...]
    cite: str | None
    note: str | None


@record(kw_only=True)
class Periods(Entry):
    carry_over: bool
    cite: str | None
    note: str | None


@record(kw_only=True)
class PenaltyEntry(Entry):
    seconds: int
    full_supervision: Literal["this_regime", "competition_rules"]
    full_supervision_cite: str | None
    cite: str | None
    note: str | None


@record(kw_only=True)
class Penalty(Entry):
    standard: PenaltyEntry | None
    rapid: PenaltyEntry | None
    blitz: PenaltyEntry | None


@record(kw_only=True)
class Clocks(Entry):
    increment: Increment | None
    delay: Delay | None
    periods: Periods
    penalty: Penalty
    cite: str | None
    note: str | None


@record(kw_only=True)
class Band(Entry):
    class_: str = key("class")
    regime: Regime
    below: float | None
    inclusive: bool
    cite: str
    note: str | None


@record(kw_only=True)
class Speed(Entry):
    moves_assumed: int
    counts: tuple[Literal["increment", "delay"], ...]
    bands: tuple[Band, ...]
    cite: str | None
    note: str | None


# -- the search budgets (limits.schema.json) ----------------------------------------------


@record(kw_only=True)
class DeadPositionLimits(Entry):
    node_limit: int
    move_node_limit: int


@record(kw_only=True)
class FlagFallLimits(Entry):
    node_limit: int


@record(kw_only=True)
class ForcedWinLimits(Entry):
    node_limit: int


@record(kw_only=True)
class Limits(Entry):
    """The search budgets: ``spec/limits.yaml`` with the ruleset's ``limits:`` over it."""

    dead_position: DeadPositionLimits
    flag_fall: FlagFallLimits
    forced_win: ForcedWinLimits


# -- the whole ruleset ---------------------------------------------------------------------


@record(kw_only=True)
class Model(Entry):
    """A resolved ruleset (ruleset.schema.json)."""

    id: str
    title: str
    federation: str | None
    edition: str | None
    note: str | None
    aliases: tuple[str, ...]
    abstract: bool
    extends: str | None
    scope: Scope
    board: BoardShape
    pieces: Mapping[str, PieceRule]
    pawn: Pawn | None
    castling: Castling | None
    setup: Setup | None
    notation: Mapping[str, object] | None
    termination: Termination | None
    repetition: Repetition
    move_rule: MoveRule | None
    flag_fall: FlagFall | None
    illegal_moves: IllegalMoves | None
    touch_move: TouchMove | None
    clocks: Clocks
    speed: Speed | None
    limits: Limits
    #: A digest of the move layer's rules (cites and notes left out): equal for
    #: rulesets that move alike (not a YAML key; the reader computes it).
    signature: str = field(compare=False, metadata={"computed": True})
    #: The same digest without castling: equal for rulesets whose moves agree once no
    #: castling right is left (the standard and Chess960 layers).
    signature_without_castling: str = field(compare=False, metadata={"computed": True})
