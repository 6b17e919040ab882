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
from typing import Any, Mapping

from reference_impl.errors import RulesetError, UsageError

FILES = "abcdefgh"
WIDTH = 8


def _data(rules: Any) -> Mapping[str, Any]:
    """The resolved mapping of ``rules`` (a Ruleset, an id/alias/path, or a mapping)."""
    if rules is None or isinstance(rules, str):
        from reference_impl.rules import load_ruleset

        rules = load_ruleset(rules or "chess960")
    return rules.data if hasattr(rules, "data") else rules


def _setup(data: Mapping[str, Any]) -> Mapping[str, Any]:
    setup = data.get("setup") or {}
    if setup.get("kind") != "chess960":
        raise UsageError(f"ruleset {data.get('id', '?')!r} has no Chess960 setup (setup.kind is {setup.get('kind')!r})")
    return setup


def _letters(data: Mapping[str, Any]) -> dict[str, str]:
    """Piece name -> upper-case letter."""
    return {name: str(row["letter"]).upper() for name, row in (data.get("pieces") or {}).items()}


def _is_dark(file: int, rank: int) -> bool:
    """a1 is dark (Article 2.1: the right-hand corner square is light)."""
    return (file + rank) % 2 == 0


def _satisfies(array: str, constraints: list[Mapping[str, Any]], letters: dict[str, str], rank: int) -> bool:
    for rule in constraints:
        kind = rule["rule"]
        spots = [i for i, c in enumerate(array) if c == letters[rule["piece"]]]
        if kind == "between":
            outer = [i for i, c in enumerate(array) if c == letters[rule["outer"]]]
            if len(outer) < 2 or not all(min(outer) < s < max(outer) for s in spots):
                return False
        elif kind == "opposite_colours":
            colours = [_is_dark(s, rank - 1) for s in spots]
            if len(set(colours)) != len(colours):
                return False
        else:
            raise RulesetError(f"setup.constraints: unknown rule {kind!r}")
    return True


def _key(data: Mapping[str, Any]) -> int:
    return id(data)


_ENUM: dict[int, tuple[Mapping[str, Any], tuple[str, ...]]] = {}
_NUMBERED: dict[int, tuple[Mapping[str, Any], tuple[str, ...]]] = {}


def enumerate_arrays(rules: Any = None) -> list[str]:
    """Every back-rank array the setup constraints allow, sorted."""
    data = _data(rules)
    hit = _ENUM.get(_key(data))
    if hit is not None and hit[0] is data:
        return list(hit[1])
    setup, letters = _setup(data), _letters(data)
    back = setup["back_rank"]
    bag = "".join(letters[name] * int(count) for name, count in back["pieces"].items())
    if len(bag) != WIDTH:
        raise RulesetError(f"setup.back_rank.pieces: {len(bag)} pieces for {WIDTH} squares")
    constraints = list(setup.get("constraints") or [])
    found = sorted({"".join(p) for p in permutations(bag)})
    arrays = tuple(a for a in found if _satisfies(a, constraints, letters, int(back["rank"])))
    _ENUM[_key(data)] = (data, arrays)
    return list(arrays)


def _radix(step: Mapping[str, Any]) -> int:
    if "files" in step:
        return len(step["files"])
    if "nth_empty" in step:
        return int(step["nth_empty"])
    return len(step["fill_empty"])


def _decode(n: int, steps: list[Mapping[str, Any]], letters: dict[str, str]) -> str:
    """Evaluate the numbering steps on ``n`` (already offset to start at 0)."""
    squares: list[str | None] = [None] * WIDTH
    for step in steps:
        n, digit = divmod(n, _radix(step))
        empty = [i for i, s in enumerate(squares) if s is None]
        if "files" in step:
            target = FILES.index(step["files"][digit])
            if squares[target] is not None:
                raise RulesetError(f"setup.numbering: file {step['files'][digit]} is already taken")
            squares[target] = letters[step["place"]]
        elif "nth_empty" in step:
            squares[empty[digit]] = letters[step["place"]]
        else:
            code = str(step["fill_empty"][digit])
            if len(code) != len(empty):
                raise RulesetError(f"setup.numbering: code {code!r} for {len(empty)} empty squares")
            for square, letter in zip(empty, code):
                squares[square] = letter
    if any(s is None for s in squares):
        raise RulesetError("setup.numbering: the steps leave squares empty")
    return "".join(s for s in squares if s is not None)


def _numbered(data: Mapping[str, Any]) -> tuple[str, ...]:
    hit = _NUMBERED.get(_key(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    numbering = _setup(data)["numbering"]
    steps, letters = list(numbering["steps"]), _letters(data)
    count = int(numbering["count"])
    if prod(_radix(s) for s in steps) != count:
        raise RulesetError("setup.numbering: the steps do not give exactly 'count' numbers")
    arrays = tuple(_decode(n, steps, letters) for n in range(count))
    allowed = set(enumerate_arrays(data))
    if set(arrays) != allowed:  # the numbering must number exactly the arrays the constraints allow
        stray = sorted(set(arrays) - allowed) or sorted(allowed - set(arrays))
        what = "numbers arrays the constraints forbid" if set(arrays) - allowed else \
            "leaves out arrays the constraints allow"
        raise RulesetError(f"setup.numbering {what} ({len(allowed)} allowed, e.g. {stray[0]}); "
                           "setup.constraints and setup.numbering disagree")
    _NUMBERED[_key(data)] = (data, arrays)
    return arrays


def number_range(rules: Any = None) -> range:
    """The valid start numbers (0..959 under Scharnagl's scheme)."""
    numbering = _setup(_data(rules))["numbering"]
    first = int(numbering.get("first", 0))
    return range(first, first + int(numbering["count"]))


def array_from_number(number: int, rules: Any = None) -> str:
    """The White back rank of start position ``number``; UsageError when out of range."""
    data = _data(rules)
    valid = number_range(data)
    if not isinstance(number, int) or isinstance(number, bool) or number not in valid:
        raise UsageError(f"Chess960 start number {number!r} is out of range {valid.start}..{valid.stop - 1}")
    return _numbered(data)[number - valid.start]


def number_from_array(array: str, rules: Any = None) -> int:
    """The start number of a White back rank (``"RNBQKBNR"`` -> 518)."""
    data = _data(rules)
    arrays = _numbered(data)
    try:
        return arrays.index(array.upper()) + number_range(data).start
    except ValueError:
        raise UsageError(f"{array!r} is not a Chess960 start array") from None


def start_fen(number: int, rules: Any = None, castling: str = "xfen") -> str:
    """The FEN of start position ``number``; castling as X-FEN (``KQkq``) or Shredder (``HAha``)."""
    if castling not in ("xfen", "shredder"):
        raise UsageError(f"castling dialect {castling!r}: expected 'xfen' or 'shredder'")
    data = _data(rules)
    setup, letters = _setup(data), _letters(data)
    array = array_from_number(number, data)
    back_rank, pawn_rank = int(setup["back_rank"]["rank"]), int(setup["pawns"]["rank"])
    pawn = next(letters[n] for n, row in (data.get("pieces") or {}).items() if row.get("pawn"))
    rows = {back_rank: array, pawn_rank: pawn * WIDTH}
    if setup.get("black", "mirror") == "mirror":
        rows[9 - back_rank] = array.lower()
        rows[9 - pawn_rank] = pawn.lower() * WIDTH
    placement = "/".join(rows.get(rank, str(WIDTH)) for rank in range(8, 0, -1))
    return f"{placement} w {_castling_field(array, data, castling)} - 0 1"


def _castling_field(array: str, data: Mapping[str, Any], dialect: str) -> str:
    table = data.get("castling")
    if not table:
        return "-"
    letters = _letters(data)
    king = next(letters[n] for n, row in (data.get("pieces") or {}).items() if row.get("royal"))
    rook = letters[table.get("rook", "rook")]
    k = array.index(king)
    rooks = [i for i, c in enumerate(array) if c == rook]
    sides = [(max(r for r in rooks if r > k), "K"), (min(r for r in rooks if r < k), "Q")]
    white = "".join(FILES[f].upper() if dialect == "shredder" else tag for f, tag in sides)
    return white + white.lower()
