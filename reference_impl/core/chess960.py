"""Chess960 start arrays, read from the ruleset's ``setup`` (kind ``chess960``).

Nothing about the arrays is written here. The constraints (which pieces stand on the
back rank, the king between the rooks, the bishops on opposite colours, Black
mirroring White) and Scharnagl's numbering (the bishop files, the queen's empty
square, the ten knight/rook/king patterns) are data in the YAML; this module
enumerates the arrays those constraints allow and evaluates the numbering steps.

An array is the White back rank as a string of piece letters, file a first
(``"RNBQKBNR"``).
"""

from __future__ import annotations

from itertools import permutations
from math import prod

from reference_impl.errors import RulesetError, UsageError
from reference_impl.kept import KeptAnswers
from reference_impl.rules.files import Ruleset
from reference_impl.rules.model import BackRank, Constraint, Model, Numbering, NumberingStep, Setup
from reference_impl.rules.reader import model_of

FILES = "abcdefgh"
WIDTH = 8


#: Arrays kept per move layer (its digest): the enumeration and the numbering.
CACHE_SIZE = 16
_ENUM: KeptAnswers[tuple[str, ...]] = KeptAnswers(CACHE_SIZE)
_NUMBERED: KeptAnswers[tuple[str, ...]] = KeptAnswers(CACHE_SIZE)


def _model(rules: Ruleset | Model | str | None) -> Model:
    """The model of ``rules`` (a Ruleset, a model, or an id/alias/path; Chess960 by default)."""
    return model_of(rules or "chess960")


def _setup(model: Model) -> Setup:
    setup = model.setup
    if setup is None or setup.kind != "chess960":
        kind = setup.kind if setup else None
        raise UsageError(f"ruleset {model.id!r} has no Chess960 setup (setup.kind is {kind!r})")
    return setup


def _back_rank(setup: Setup) -> BackRank:
    if setup.back_rank is None:
        raise RulesetError("setup.back_rank: a Chess960 setup needs one")
    return setup.back_rank


def _numbering(setup: Setup) -> Numbering:
    if setup.numbering is None:
        raise RulesetError("setup.numbering: a Chess960 setup needs one")
    return setup.numbering


def _letters(model: Model) -> dict[str, str]:
    """Piece name -> upper-case letter."""
    return {name: row.letter.upper() for name, row in model.pieces.items()}


def _is_dark(file: int, rank: int) -> bool:
    """a1 is dark (Article 2.1: the right-hand corner square is light)."""
    return (file + rank) % 2 == 0


def _satisfies(array: str, constraints: tuple[Constraint, ...], letters: dict[str, str], rank: int) -> bool:
    for rule in constraints:
        spots = [i for i, c in enumerate(array) if c == letters[rule.piece]]
        if rule.rule == "between":
            outer = [i for i, c in enumerate(array) if rule.outer is not None and c == letters[rule.outer]]
            if len(outer) < 2 or not all(min(outer) < s < max(outer) for s in spots):
                return False
        else:  # opposite_colours
            colours = [_is_dark(s, rank - 1) for s in spots]
            if len(set(colours)) != len(colours):
                return False
    return True


def enumerate_arrays(rules: Ruleset | Model | str | None = None) -> list[str]:
    """Every back-rank array the setup constraints allow, sorted."""
    model = _model(rules)
    hit = _ENUM.get(model.signature)
    if hit is not None:
        return list(hit)
    setup, letters = _setup(model), _letters(model)
    back = _back_rank(setup)
    bag = "".join(letters[name] * count for name, count in back.pieces.items())
    if len(bag) != WIDTH:
        raise RulesetError(f"setup.back_rank.pieces: {len(bag)} pieces for {WIDTH} squares")
    found = sorted({"".join(p) for p in permutations(bag)})
    arrays = tuple(a for a in found if _satisfies(a, setup.constraints, letters, back.rank))
    _ENUM.put(model.signature, arrays)
    return list(arrays)


def _radix(step: NumberingStep) -> int:
    if step.files is not None:
        return len(step.files)
    if step.nth_empty is not None:
        return step.nth_empty
    return len(step.fill_empty or ())


def _decode(n: int, steps: tuple[NumberingStep, ...], letters: dict[str, str]) -> str:
    """Evaluate the numbering steps on ``n`` (already offset to start at 0)."""
    squares: list[str | None] = [None] * WIDTH
    for step in steps:
        n, digit = divmod(n, _radix(step))
        empty = [i for i, s in enumerate(squares) if s is None]
        if step.files is not None and step.place is not None:
            target = FILES.index(step.files[digit])
            if squares[target] is not None:
                raise RulesetError(f"setup.numbering: file {step.files[digit]} is already taken")
            squares[target] = letters[step.place]
        elif step.nth_empty is not None and step.place is not None:
            squares[empty[digit]] = letters[step.place]
        else:
            code = (step.fill_empty or ())[digit]
            if len(code) != len(empty):
                raise RulesetError(f"setup.numbering: code {code!r} for {len(empty)} empty squares")
            for square, letter in zip(empty, code):
                squares[square] = letter
    if any(s is None for s in squares):
        raise RulesetError("setup.numbering: the steps leave squares empty")
    return "".join(s for s in squares if s is not None)


def _numbered(model: Model) -> tuple[str, ...]:
    hit = _NUMBERED.get(model.signature)
    if hit is not None:
        return hit
    numbering = _numbering(_setup(model))
    letters = _letters(model)
    if prod(_radix(s) for s in numbering.steps) != numbering.count:
        raise RulesetError("setup.numbering: the steps do not give exactly 'count' numbers")
    arrays = tuple(_decode(n, numbering.steps, letters) for n in range(numbering.count))
    allowed = set(enumerate_arrays(model))
    if set(arrays) != allowed:  # the numbering must number exactly the arrays the constraints allow
        stray = sorted(set(arrays) - allowed) or sorted(allowed - set(arrays))
        what = "numbers arrays the constraints forbid" if set(arrays) - allowed else \
            "leaves out arrays the constraints allow"
        raise RulesetError(f"setup.numbering {what} ({len(allowed)} allowed, e.g. {stray[0]}); "
                           "setup.constraints and setup.numbering disagree")
    _NUMBERED.put(model.signature, arrays)
    return arrays


def number_range(rules: Ruleset | Model | str | None = None) -> range:
    """The valid start numbers (0..959 under Scharnagl's scheme)."""
    numbering = _numbering(_setup(_model(rules)))
    return range(numbering.first, numbering.first + numbering.count)


def array_from_number(number: int, rules: Ruleset | Model | str | None = None) -> str:
    """The White back rank of start position ``number``; UsageError when out of range."""
    model = _model(rules)
    valid = number_range(model)
    if not isinstance(number, int) or isinstance(number, bool) or number not in valid:
        raise UsageError(f"Chess960 start number {number!r} is out of range {valid.start}..{valid.stop - 1}")
    return _numbered(model)[number - valid.start]


def number_from_array(array: str, rules: Ruleset | Model | str | None = None) -> int:
    """The start number of a White back rank (``"RNBQKBNR"`` -> 518)."""
    model = _model(rules)
    arrays = _numbered(model)
    try:
        return arrays.index(array.upper()) + number_range(model).start
    except ValueError:
        raise UsageError(f"{array!r} is not a Chess960 start array") from None


def start_fen(number: int, rules: Ruleset | Model | str | None = None, castling: str = "xfen") -> str:
    """The FEN of start position ``number``; castling as X-FEN (``KQkq``) or Shredder (``HAha``)."""
    if castling not in ("xfen", "shredder"):
        raise UsageError(f"castling dialect {castling!r}: expected 'xfen' or 'shredder'")
    model = _model(rules)
    setup, letters = _setup(model), _letters(model)
    array = array_from_number(number, model)
    if setup.pawns is None:
        raise RulesetError("setup.pawns: a Chess960 setup needs one")
    back_rank, pawn_rank = _back_rank(setup).rank, setup.pawns.rank
    pawn = next(letters[n] for n, row in model.pieces.items() if row.pawn)
    rows = {back_rank: array, pawn_rank: pawn * WIDTH}
    if setup.black == "mirror":
        rows[9 - back_rank] = array.lower()
        rows[9 - pawn_rank] = pawn.lower() * WIDTH
    placement = "/".join(rows.get(rank, str(WIDTH)) for rank in range(8, 0, -1))
    return f"{placement} w {_castling_field(array, model, castling)} - 0 1"


def _castling_field(array: str, model: Model, dialect: str) -> str:
    table = model.castling
    if table is None:
        return "-"
    letters = _letters(model)
    king = next(letters[n] for n, row in model.pieces.items() if row.royal)
    rook = letters[table.rook]
    k = array.index(king)
    rooks = [i for i, c in enumerate(array) if c == rook]
    sides = [(max(r for r in rooks if r > k), "K"), (min(r for r in rooks if r < k), "Q")]
    white = "".join(FILES[f].upper() if dialect == "shredder" else tag for f, tag in sides)
    return white + white.lower()
