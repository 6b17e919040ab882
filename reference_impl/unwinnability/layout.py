"""The one description of the arrays the compiled searches receive from Python.

The move layer and the FEN reader's information reach C as arrays of unsigned 64-bit
integers (negative numbers in two's complement). Each array is made of *records*, each
field of a record at a fixed offset within it:

* the tables (:func:`~.native.pack_tables`): :data:`HEAD`, then :data:`PIECE` for each
  piece type and, within it, each colour (white first), then :data:`PAWN` for each colour;
* the FEN information (:func:`~.native.pack_fen_info`): :data:`FEN`.

:mod:`.native` packs each record by its fields' names (:func:`pack`); the C code reads
each slot by a named constant of ``csrc/layout.h``, which :func:`header` writes from these
tables (``setup.py`` regenerates it at every build). The compiled module exports the
constants it was built with, and :mod:`.native` refuses a module that disagrees
(:func:`mismatch`). This module uses the standard library only, so that ``setup.py`` can
load it without the package's dependencies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: Layout versions, the first slot of each array (a bump when the layout changes).
TABLES_VERSION = 2
FEN_INFO_VERSION = 1

#: Sizes the C structures are built for: name in C -> value.
LIMITS: dict[str, int] = {
    "MAXT": 16,  # piece types
    "MAXDIR": 16,  # rider directions per piece type and colour
    "MAXPROMO": 8,  # promotion types
    "MAXSIDES": 2,  # castling sides
}
MAX_TYPES = LIMITS["MAXT"]
MAX_DIRECTIONS = LIMITS["MAXDIR"]
MAX_PROMOTIONS = LIMITS["MAXPROMO"]
MAX_SIDES = LIMITS["MAXSIDES"]

#: The batch's answers: C's ``BATCH_<VERDICT>`` and ``BATCH_STAGE_<STAGE>`` are the indexes.
BATCH_VERDICTS = ("can", "cannot", "open")
BATCH_STAGES = ("terminal", "static", "helpmate", "none")


@dataclass(frozen=True)
class Field:
    """``count`` consecutive slots, or ``count`` records ``of`` one after another."""

    name: str
    doc: str
    count: int = 1
    of: Record | None = None

    @property
    def size(self) -> int:
        return self.count * (self.of.size if self.of else 1)


@dataclass(frozen=True)
class Record:
    """Fields one after another; ``prefix`` names its constants in C (``PREFIX_FIELD``,
    the field's first slot within the record, and ``PREFIX_SIZE``)."""

    prefix: str
    doc: str
    fields: tuple[Field, ...]

    @property
    def size(self) -> int:
        return sum(f.size for f in self.fields)

    def offsets(self) -> dict[str, int]:
        """Each field's first slot within the record, by name."""
        out, at = {}, 0
        for f in self.fields:
            out[f.name] = at
            at += f.size
        return out


SIDE = Record("SIDE", "a castling side", (
    Field("king_side", "1 on the king's side"),
    Field("king_to_file", "the king's destination file"),
    Field("rook_to_file", "the rook's destination file"),
))

DIRECTION = Record("DIR", "a rider direction", (
    Field("df", "file step"),
    Field("dr", "rank step"),
))

HEAD = Record("HEAD", "the tables' first record: the move layer's scalars", (
    Field("version", "the layout's version, TABLES_VERSION"),
    Field("ntypes", "piece types"),
    Field("royal", "the royal type"),
    Field("pawn", "the pawn's type, -1 without one"),
    Field("en_passant", "1 when en passant is allowed"),
    Field("npromo", "promotion types"),
    Field("promo", "the promotion types", MAX_PROMOTIONS),
    Field("castling", "1 when the ruleset castles"),
    Field("rook_type", "the castling rook's type"),
    Field("empty_king_path", "1 when the king's path must be empty"),
    Field("empty_rook_path", "1 when the rook's path must be empty"),
    Field("safe_king_from", "1 when the king may not castle out of check"),
    Field("safe_king_path", "1 when the king may not pass an attacked square"),
    Field("safe_king_to", "1 when the king may not castle into check"),
    Field("rook_removed", "1 when the safe squares are judged with the rook lifted off"),
    Field("nsides", "castling sides"),
    Field("sides", "the castling sides", MAX_SIDES, SIDE),
    Field("push_delta", "a pawn push's square step per colour", 2),
    Field("rights_lost_from", "castling.rights_lost.by: a move from these squares loses the right there"),
    Field("rights_lost_by_king", "1 when the king's move loses its colour's rights"),
))

PIECE = Record("PIECE", "one piece type for one colour, after HEAD (per type, per colour)", (
    Field("leaps", "the leaps' target squares from each square (0 for the pawn)", 64),
    Field("ndirs", "rider directions"),
    Field("dirs", "the rider directions", MAX_DIRECTIONS, DIRECTION),
))

PAWN = Record("PAWN", "one colour's pawn, after the piece types (per colour)", (
    Field("push", "the push's target from each square", 64),
    Field("double", "the double step's target from each square", 64),
    Field("captures", "the capture targets from each square", 64),
    Field("promotion_ranks", "the squares where a pawn promotes"),
))

FEN = Record("FEN", "what the FEN reader needs besides the move layer (an array of its own)", (
    Field("version", "the layout's version, FEN_INFO_VERSION"),
    Field("uci_king_takes_rook", "1 when UCI writes castling as the king taking its rook"),
    Field("require_initial", "1 when castling rights need the initial squares"),
    Field("piece_of", "the piece code (colour << 4 | type, 255 none) of each ASCII byte", 128),
    Field("letter", "each type's lower-case letter (0 without one)", MAX_TYPES),
    Field("initial", "the initial array's count per colour and type", 2 * MAX_TYPES),
    Field("forbidden_pawn", "the ranks a pawn may not stand on, per colour", 2),
    Field("initial_kings", "the initial king squares, per colour", 2),
    Field("initial_rooks", "the initial rook squares, per colour", 2),
))

#: Every record, in the order the header defines them.
RECORDS = (HEAD, SIDE, PIECE, DIRECTION, PAWN, FEN)


def constants() -> dict[str, int]:
    """Every constant ``csrc/layout.h`` defines, by its C name."""
    out = dict(LIMITS, TABLES_VERSION=TABLES_VERSION, FEN_INFO_VERSION=FEN_INFO_VERSION)
    out |= {f"BATCH_{v.upper()}": i for i, v in enumerate(BATCH_VERDICTS)}
    out |= {f"BATCH_STAGE_{s.upper()}": i for i, s in enumerate(BATCH_STAGES)}
    for record in RECORDS:
        out |= {f"{record.prefix}_{name.upper()}": at for name, at in record.offsets().items()}
        out[f"{record.prefix}_SIZE"] = record.size
    return out


def pack(record: Record, **values: int | Sequence[int] | Sequence[Sequence[int]]) -> list[int]:
    """``record``'s slots from each field's value by name: a number for a one-slot field,
    ``count`` numbers for a longer one, ``count`` packed records for a field ``of`` one.

    Raises ValueError when a field is missing, unknown or of the wrong size."""
    names = {f.name for f in record.fields}
    if set(values) != names:
        raise ValueError(f"{record.prefix}: fields {sorted(set(values) ^ names)} missing or unknown")
    out: list[int] = []
    for f in record.fields:
        value = values[f.name]
        items: Sequence[int | Sequence[int]] = [value] if isinstance(value, int) else value
        sizes = {1 if isinstance(item, int) else len(item) for item in items}
        if len(items) != f.count or sizes - {f.of.size if f.of else 1}:
            raise ValueError(f"{record.prefix}.{f.name}: {len(items)} items of {sorted(sizes)} slots,"
                             f" the layout has {f.count} of {f.of.size if f.of else 1}")
        for item in items:
            if isinstance(item, int):
                out.append(item)
            else:
                out += item
    return out


def mismatch(compiled: Mapping[str, int]) -> str | None:
    """Why the compiled module's constants are not :func:`constants` (one line naming
    the first difference), or None when they are."""
    expected = constants()
    for name in sorted(set(expected) | set(compiled)):
        if expected.get(name) != compiled.get(name):
            return (f"the compiled module was built with another layout ({name}: {compiled.get(name)} compiled,"
                    f" {expected.get(name)} in reference_impl/unwinnability/layout.py); rebuild it"
                    " (python setup.py build_ext --inplace, or reinstall)")
    return None


def header() -> str:
    """The text of ``csrc/layout.h``."""
    lines = [
        "/* Generated from reference_impl/unwinnability/layout.py by setup.py at every build: do not edit.",
        " * The arrays the compiled searches receive: layout.py says how they are made of these records. */",
        "",
        *(f"#define {name} {value}" for name, value in LIMITS.items()),
        f"#define TABLES_VERSION {TABLES_VERSION}",
        f"#define FEN_INFO_VERSION {FEN_INFO_VERSION}",
        *(f"#define BATCH_{v.upper()} {i}" for i, v in enumerate(BATCH_VERDICTS)),
        *(f"#define BATCH_STAGE_{s.upper()} {i}" for i, s in enumerate(BATCH_STAGES)),
    ]
    for record in RECORDS:
        lines += ["", f"/* {record.prefix}: {record.doc} */"]
        offsets = record.offsets()
        for f in record.fields:
            size = f" ({f.count} {f.of.prefix} records)" if f.of else f" ({f.count} slots)" if f.count > 1 else ""
            lines.append(f"#define {record.prefix}_{f.name.upper()} {offsets[f.name]} /* {f.doc}{size} */")
        lines.append(f"#define {record.prefix}_SIZE {record.size}")
    lines += [
        "",
        "/* Every constant above, which the compiled module exports as LAYOUT for native.py to check. */",
        "static const struct { const char *name; long long value; } layout_constants[] = {",
        *(f'    {{"{name}", {name}}},' for name in constants()),
        "};",
        "",
    ]
    return "\n".join(lines)
