"""One description of the arrays handed to C (reference_impl/unwinnability/layout.py):
the committed header, the Python table and the compiled module agree, and the C loaders
read every slot by its name."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import ROOT, one_error

from reference_impl.core.board import Board
from reference_impl.rules import load_ruleset
from reference_impl.unwinnability import _native, layout, native  # type: ignore[attr-defined]
from reference_impl.unwinnability.layout import FEN, HEAD, PAWN, PIECE, SIDE, pack

CSRC = Path(native.__file__).parent / "csrc"
#: The C functions that read the packed arrays, and their files.
LOADERS = {"load_tables": "board.c", "load_fen_info": "batch.c"}


def _body(file: str, function: str) -> str:
    text = (CSRC / file).read_text(encoding="utf-8")
    start = text.index(f"static int {function}(")
    return text[start:text.index("\n}\n", start)]


def test_the_committed_header_is_the_one_layout_py_writes() -> None:
    assert (CSRC / "layout.h").read_text(encoding="utf-8") == layout.header()


def test_the_compiled_module_was_built_with_the_python_layout() -> None:
    assert _native.LAYOUT == layout.constants()
    assert _native.LAYOUT["HEAD_SIZE"] == HEAD.size and _native.LAYOUT["FEN_SIZE"] == FEN.size


@pytest.mark.parametrize("change", [{"HEAD_PAWN": 4}, {"FEN_SIZE": None}, {"EXTRA_SLOT": 1}])
def test_another_layout_is_named_in_one_line(change: dict[str, int | None]) -> None:
    compiled = {k: v for k, v in {**layout.constants(), **change}.items() if v is not None}
    (name,) = change
    why = layout.mismatch(compiled)
    assert why is not None and f"({name}: " in why and "\n" not in why and "rebuild" in why
    assert layout.mismatch(layout.constants()) is None


#: ``arbiter unwinnable`` with a compiled module built with another layout (one whose
#: LAYOUT is argv[1]), standing in for the real one before the package imports it.
STALE_MODULE = """
import json, sys, types
stale = types.ModuleType("reference_impl.unwinnability._native")
stale.LAYOUT = json.loads(sys.argv[1])
sys.modules[stale.__name__] = stale
sys.argv[1:] = ["unwinnable", "8/8/8/8/8/k7/8/K7 w - - 0 1"]
from conformance.cli import main
main()
"""


def test_a_module_built_with_another_layout_is_refused_in_one_line() -> None:
    stale = {**layout.constants(), "HEAD_PAWN": 4}
    result = subprocess.run([sys.executable, "-c", STALE_MODULE, json.dumps(stale)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert one_error(result, 1) == f"arbiter: {layout.mismatch(stale)}"
    assert issubclass(native.LayoutMismatch, ImportError)


@pytest.mark.parametrize(("function", "file"), LOADERS.items())
def test_the_loaders_read_every_slot_by_its_name(function: str, file: str) -> None:
    indexes = re.findall(r"\bdata\s*\[([^\]]*)\]", _body(file, function))
    assert indexes, f"{function} reads the array"
    assert [i for i in indexes if re.search(r"\b\d+\b", i)] == []


def test_every_field_of_the_layout_is_read_by_the_c_code() -> None:
    c_code = "\n".join(p.read_text(encoding="utf-8") for p in sorted(CSRC.glob("*.c")))
    for record in layout.RECORDS:
        for field in record.fields:
            assert re.search(rf"\b{record.prefix}_{field.name.upper()}\b", c_code), f"{record.prefix}.{field.name}"


def test_pack_refuses_a_field_missing_unknown_or_of_the_wrong_size() -> None:
    side = {"king_side": 1, "king_to_file": 6, "rook_to_file": 5}
    assert pack(SIDE, **side) == [1, 6, 5]
    with pytest.raises(ValueError, match="rook_to_file"):
        pack(SIDE, king_side=1, king_to_file=6)
    with pytest.raises(ValueError, match="queen_side"):
        pack(SIDE, **side, queen_side=0)
    with pytest.raises(ValueError, match="PAWN.push"):
        pack(PAWN, push=[0] * 63, double=[0] * 64, captures=[0] * 64, promotion_ranks=0)
    with pytest.raises(ValueError, match="PIECE.dirs"):
        pack(PIECE, leaps=[0] * 64, ndirs=0, dirs=[0] * 32)  # pairs, not numbers


def test_the_tables_are_head_then_each_piece_per_colour_then_each_pawn() -> None:
    """FIDE 3.8.2: the king goes to g1 castling on the king's side, the rook to f1."""
    board = Board(load_ruleset("fide-2023"))
    tables = board.tables
    packed = native.pack_tables(tables)
    slots = struct.unpack(f"<{len(packed) // 8}Q", packed)
    assert len(slots) == HEAD.size + len(tables.types) * 2 * PIECE.size + 2 * PAWN.size
    at = HEAD.offsets()
    assert slots[at["ntypes"]] == len(tables.types) and slots[at["pawn"]] == tables.pawn
    king_side = at["sides"] + SIDE.size * [s.king_side for s in tables.castling.sides].index(True)
    side = SIDE.offsets()
    assert (slots[king_side + side["king_to_file"]], slots[king_side + side["rook_to_file"]]) == (6, 5)
    knight = tables.by_letter["N"]
    black_knight = HEAD.size + (2 * knight + 1) * PIECE.size + PIECE.offsets()["leaps"]
    assert list(slots[black_knight:black_knight + 64]) == tables.types[knight].leaps[1]
    black_pawn = HEAD.size + len(tables.types) * 2 * PIECE.size + PAWN.size
    assert slots[black_pawn + PAWN.offsets()["promotion_ranks"]] == tables.promotion_ranks[1] == 0xFF
