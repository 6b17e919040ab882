"""From a field of the move layer to the C lines that play by it: found by changing it.

The compiled searches (``reference_impl/unwinnability/csrc``) receive the move layer as
arrays of numbers (:data:`LAYOUTS`: :func:`reference_impl.unwinnability.native.pack_tables`,
read by ``load_tables`` into a ``Tables`` structure; ``pack_fen_info``, read by
``load_fen_info`` into a ``FenInfo``). For a field of the model, this module:

1. changes the field the way ``arbiter mutate`` does (each change the schema allows; a
   piece name, which ``mutate`` leaves alone, to each other piece), compiles the changed
   ruleset's tables and notes the compiled attributes that differ
   (``castling.empty_king_path``, ``types[].leaps``): what the field feeds;
2. packs both and notes the slots of each array that differ;
3. reads the loader (a small evaluator of its loops, ``at`` counter and ``data[...]``
   reads) to know which member each slot fills, and which members the loader derives
   from those (the reverse attack tables from the leaps);
4. lists the C lines that use those members (``T->member``, ``F->member``).

Nothing here knows a slot number or a member name in advance: both come from the
packed arrays and from the C source, so they follow any change of the layout.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from reference_impl.core.board import Board
from reference_impl.core.tables import CastlingTable, MoveTables, PieceType, compile_move_tables
from reference_impl.errors import ArbiterError
from reference_impl.rules import Ruleset, derive_ruleset
from reference_impl.rules.model import Model
from reference_impl.unwinnability import native

from conformance.tools.mutate.mutants import Mutant, generate, overrides
from conformance.tools.mutate.run import schema_view

#: The C sources of the compiled searches.
CSRC = Path(native.__file__).resolve().parent
#: The name of the array a loader reads.
ARRAY = "data"


@dataclass(frozen=True)
class Layout:
    """A packed array: how Python packs it from a ruleset's board, the C function that
    reads it and the pointer through which the C code uses what it read."""

    loader: str
    pointer: str
    pack: Callable[[Board], bytes]


#: The arrays the compiled searches receive.
LAYOUTS = (
    Layout("load_tables", "T", lambda board: native.pack_tables(board.tables)),
    Layout("load_fen_info", "F", native.pack_fen_info),
)
#: Changes tried per field: enough to see what it feeds (each costs a compilation).
CHANGES_PER_FIELD = 4

KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class CLine:
    file: str
    line: int
    text: str


@dataclass
class Compiled:
    """What a field of the move layer becomes: compiled attributes, packed slots, the C
    members they fill (directly or derived in ``load_tables``) and the C lines using them."""

    attributes: list[str] = dataclasses.field(default_factory=list)
    slots: list[str] = dataclasses.field(default_factory=list)
    members: list[str] = dataclasses.field(default_factory=list)
    derived: list[str] = dataclasses.field(default_factory=list)
    lines: dict[str, list[CLine]] = dataclasses.field(default_factory=dict)
    refused: list[str] = dataclasses.field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"attributes": self.attributes, "slots": self.slots, "members": self.members,
                "derived": self.derived, "refused": self.refused,
                "c": {m: [{"file": c.file, "line": c.line, "text": c.text} for c in lines]
                      for m, lines in self.lines.items()}}


# -- 1 and 2: what changes when the field changes -----------------------------------------


def _attributes(tables: MoveTables) -> dict[str, Any]:
    """Every compiled attribute of ``tables`` by name (piece types' and castling's by their own)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(tables):
        value = getattr(tables, f.name)
        if f.name in ("signature", "signature_without_castling", "leapers_to", "riders_to", "attacker_groups"):
            continue
        if f.name == "types":
            for piece_field in dataclasses.fields(PieceType):
                out[f"types[].{piece_field.name}"] = [_plain(getattr(p, piece_field.name)) for p in value]
        elif f.name == "castling" and isinstance(value, CastlingTable):
            for castling_field in dataclasses.fields(CastlingTable):
                out[f"castling.{castling_field.name}"] = _plain(getattr(value, castling_field.name))
        else:
            out[f.name] = _plain(value)
    return out


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(map(repr, value))
    if isinstance(value, Mapping):
        return {repr(k): _plain(v) for k, v in value.items()}
    return value


def _mutants(ruleset: Ruleset, path: KeyPath) -> list[Mutant]:
    """The changes ``arbiter mutate`` makes at or below ``path``, and for a piece name
    (which it leaves alone) each other piece."""
    view = schema_view()
    found = [m for m in generate(ruleset.data, view) if m.path[: len(path)] == path and not m.equivalent]
    value: Any = ruleset.data
    for step in path:
        value = value[step] if isinstance(value, (dict, list)) else None  # type: ignore[index]  # a list by index
    if isinstance(value, str) and any(str(n.get("$ref", "")).endswith("piece_name") for n in view.nodes(path)):
        found += [Mutant(path, other, f"{value!r} -> {other!r}", path[:-1], "")
                  for other in ruleset.data.get("pieces", {}) if other != value]
    return found


def _board(model: Model) -> Board:
    return Board(model)


def compiled(ruleset: Ruleset, path: KeyPath) -> Compiled:
    """What the field at ``path`` of ``ruleset`` feeds in the compiled tables and in C."""
    found = Compiled()
    base = _board(ruleset.model)
    base_attributes = _attributes(base.tables)
    base_packed = [layout.pack(base) for layout in LAYOUTS]
    attributes: set[str] = set()
    slots: list[set[int]] = [set() for _ in LAYOUTS]
    tried = 0
    for mutant in _mutants(ruleset, path):
        if tried >= CHANGES_PER_FIELD:
            break
        try:
            changed = derive_ruleset(ruleset, overrides(ruleset.data, mutant), id=ruleset.id)
            tables = compile_move_tables(changed.model)
            board = _board(changed.model)
        except ArbiterError as error:
            found.refused.append(f"{mutant.mutation}: {error}")
            continue
        tried += 1
        mine = _attributes(tables)
        attributes |= {name for name, value in mine.items() if base_attributes.get(name) != value}
        for index, layout in enumerate(LAYOUTS):
            try:
                packed = layout.pack(board)
            except ValueError:
                continue
            before = base_packed[index]
            size = min(len(packed), len(before)) if len(packed) == len(before) else 8 * header_size(layout)
            slots[index] |= {i // 8 for i in range(0, size, 8) if packed[i:i + 8] != before[i:i + 8]}
    found.attributes = sorted(attributes)
    members: list[str] = []
    for index, layout in enumerate(LAYOUTS):
        found.slots += [f"{layout.loader}[{n}]" for n in sorted(slots[index])]
        filled = slot_members(layout.loader, layout.pointer, len(base.tables.types))
        mine_members = sorted({filled[s][0] for s in slots[index] if s in filled})
        derived = sorted(derived_members(layout.loader, layout.pointer, set(mine_members)) - set(mine_members))
        members += [f"{layout.pointer}->{m}" for m in mine_members]
        found.derived += [f"{layout.pointer}->{m}" for m in derived]
    found.members = members
    uses = member_lines()
    found.lines = {m: uses.get(m, []) for m in members + found.derived}
    return found


# -- 3: which member each slot fills ------------------------------------------------------------


@lru_cache(maxsize=1)
def sources() -> dict[str, list[str]]:
    """The C files of the compiled searches (relative name -> lines)."""
    root = CSRC.parent.parent
    files = sorted(CSRC.glob("*.c")) + sorted((CSRC / "csrc").glob("*.[ch]"))
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8").splitlines() for p in files}


@lru_cache(maxsize=1)
def defines() -> dict[str, int]:
    """``#define NAME number`` of every C source (the slots' names among them, csrc/layout.h)."""
    out: dict[str, int] = {}
    pattern = re.compile(r"^\s*#define\s+(\w+)\s+\(?(-?\d+)\)?\s*(?:/\*.*\*/)?\s*$")
    for lines in sources().values():
        for line in lines:
            match = pattern.match(line)
            if match:
                out[match.group(1)] = int(match.group(2))
    return out


def header_size(layout: Layout) -> int:
    """The fixed part of a layout's array (its first record): slots compared when a change
    alters the array's length."""
    return native.HEAD.size if layout.loader == "load_tables" else native.FEN.size


@dataclass
class _Stmt:
    text: str
    line: int
    file: str
    kind: str = "simple"          # simple, for, if, block
    head: str = ""                # a for's or an if's parenthesised part
    body: list[_Stmt] = dataclasses.field(default_factory=list)


def _loader(name_: str) -> tuple[str, list[tuple[str, int]]]:
    """The file of the C function ``name_`` and its body as (character, line) pairs, comments out."""
    signature = re.compile(r"\b" + name_ + r"\s*\([^)]*\)\s*\{")
    for name, lines in sources().items():
        text = "\n".join(lines)
        match = signature.search(text)
        if match is None:
            continue
        start = match.end()
        depth, index = 1, start
        while depth and index < len(text):
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            index += 1
        body = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group()), text[start:index - 1], flags=re.S)
        body = re.sub(r"//[^\n]*", lambda m: " " * len(m.group()), body)
        first = text.count("\n", 0, start) + 1
        chars, line = [], first
        for char in body:
            chars.append((char, line))
            line += char == "\n"
        return name, chars
    raise LookupError(f"no {name_} in the C sources")


def _parse(chars: list[tuple[str, int]], file: str) -> list[_Stmt]:
    """The statements of a C block (``for``, ``if``, ``{ }`` and simple ones)."""
    text = "".join(c for c, _ in chars)
    position = 0

    def skip() -> None:
        nonlocal position
        while position < len(text) and text[position].isspace():
            position += 1

    def parens() -> str:
        nonlocal position
        depth, start = 0, position
        while True:
            depth += {"(": 1, ")": -1}.get(text[position], 0)
            position += 1
            if depth == 0:
                return text[start + 1:position - 1]

    def statement() -> _Stmt | None:
        nonlocal position
        skip()
        if position >= len(text):
            return None
        line = chars[position][1]
        if text[position] == "{":
            position += 1
            body = block()
            position += 1
            return _Stmt("{...}", line, file, "block", body=body)
        keyword = re.match(r"(for|if|while)\b", text[position:])
        if keyword:
            position += len(keyword.group())
            skip()
            head = parens()
            inner = statement()
            kind = "for" if keyword.group() == "for" else "if"  # a while reads no slot: as an if
            node = _Stmt("", line, file, kind, head, [inner] if inner else [])
            skip()
            if keyword.group() == "if" and text.startswith("else", position):
                position += 4
                other = statement()
                if other:
                    node.body.append(other)
            return node
        depth, start = 0, position
        while position < len(text) and not (text[position] == ";" and depth == 0):
            depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(text[position], 0)
            position += 1
        position += 1
        return _Stmt(text[start:position - 1].strip(), line, file)

    def block() -> list[_Stmt]:
        out: list[_Stmt] = []
        while True:
            skip()
            if position >= len(text) or text[position] == "}":
                return out
            found = statement()
            if found is None:
                return out
            out.append(found)

    return block()


def _value(expression: str, env: dict[str, int], pointer: str = "T") -> int | None:
    """A C integer expression of numbers, defines and known variables (casts and
    ``sizeof(u64)`` read as one element), or ``None``."""
    text = re.sub(r"sizeof\s*\(\s*u64\s*\)", "1", expression)
    text = re.sub(r"\((?:int|int64_t|u64|Py_ssize_t|unsigned)\)", "", text)
    text = text.replace(f"{pointer}->", f"{pointer}_")
    names = {**defines(), **env}
    if not re.fullmatch(r"[\w\s+\-*/()]*", text):
        return None
    try:
        value = eval(text.replace("/", "//"), {"__builtins__": {}}, names)  # noqa: S307 - digits, names, + - * //
    except Exception:
        return None
    return value if isinstance(value, int) else None


_READ = re.compile(ARRAY + r"\s*\[([^\]]*)\]")


def _copy(pointer: str) -> re.Pattern[str]:
    return re.compile(r"memcpy\s*\(\s*" + pointer + r"->(\w+)[^,]*,\s*" + ARRAY
                      + r"\s*\+\s*(\w+)\s*,\s*([^)]*\)?)\s*\)")


def _member(pointer: str) -> re.Pattern[str]:
    return re.compile(r"\b" + pointer + r"->(\w+)")


@lru_cache(maxsize=8)
def slot_members(loader: str, pointer: str, ntypes: int) -> dict[int, tuple[str, int]]:
    """Slot -> (the member the C function ``loader`` fills from it through ``pointer``,
    the C line), for tables of ``ntypes`` piece types."""
    file, chars = _loader(loader)
    out: dict[int, tuple[str, int]] = {}
    env: dict[str, int] = {f"{pointer}_ntypes": ntypes}
    member_re, copy_re = _member(pointer), _copy(pointer)

    def run(statements: list[_Stmt]) -> None:
        for stmt in statements:
            if stmt.kind == "block":
                run(stmt.body)
            elif stmt.kind == "for":
                match = re.fullmatch(r"\s*(?:\w+\s+)?(\w+)\s*=\s*([^;]+);\s*\w+\s*<\s*([^;]+);\s*\w+\+\+\s*", stmt.head)
                if match is None:
                    continue
                low, high = _value(match.group(2), env, pointer), _value(match.group(3), env, pointer)
                if low is None or high is None:
                    continue  # a loop over the whole array (the digest) reads no slot of its own
                for index in range(low, high):
                    env[match.group(1)] = index
                    run(stmt.body)
            elif stmt.kind == "if":
                member = next((m.group(1) for b in stmt.body for m in [member_re.search(b.text)] if m), None)
                for read in _READ.finditer(stmt.head):
                    _note(read.group(1), member, stmt.line)
                run([b for b in stmt.body if not b.text.startswith("return")])
            else:
                simple(stmt)

    def _note(index: str, member: str | None, line: int) -> None:
        increment = index.strip().endswith("++")
        slot = _value(index.replace("++", ""), env, pointer)
        if slot is not None and member is not None:
            out.setdefault(slot, (member, line))
        if increment:
            name = index.replace("++", "").strip()
            env[name] = env.get(name, 0) + 1

    def simple(stmt: _Stmt) -> None:
        text = stmt.text
        assignment = re.match(r"(?:Py_ssize_t|int|u64)\s+(\w+)\s*=\s*(.+)$", text, re.S)
        if assignment and ARRAY not in assignment.group(2):
            value = _value(assignment.group(2), env, pointer)
            if value is not None:
                env[assignment.group(1)] = value
            return
        step = re.match(r"(\w+)\s*\+=\s*(.+)$", text, re.S)
        if step and step.group(1) in env:
            value = _value(step.group(2), env, pointer)
            if value is not None:
                env[step.group(1)] += value
            return
        copy = copy_re.search(text)
        if copy:
            start, count = _value(copy.group(2), env, pointer), _value(copy.group(3), env, pointer)
            if start is not None and count is not None:
                for slot in range(start, start + count):
                    out.setdefault(slot, (copy.group(1), stmt.line))
            return
        member = member_re.search(text.split("=")[0]) if "=" in text else None
        for read in _READ.finditer(text):
            _note(read.group(1), member.group(1) if member else None, stmt.line)

    run(_parse(chars, file))
    return out


@lru_cache(maxsize=4)
def _derivations(loader: str, pointer: str) -> dict[str, set[str]]:
    """Member -> the members the C function ``loader`` computes it from (after the copy)."""
    file, chars = _loader(loader)
    out: dict[str, set[str]] = {}
    for stmt in _parse(chars, file):
        text = _flatten(stmt)
        if ARRAY in text:
            continue
        written = set(re.findall(r"\b" + pointer + r"->(\w+)(?:\[[^\]]*\])*(?:\.\w+)?\s*(?:\|=|=(?!=))", text))
        read = set(_member(pointer).findall(text)) - written
        for member in written:
            out.setdefault(member, set()).update(read)
    return out


def _flatten(stmt: _Stmt) -> str:
    return " ".join([stmt.text, stmt.head] + [_flatten(s) for s in stmt.body])


def derived_members(loader: str, pointer: str, members: set[str]) -> set[str]:
    """``members`` and every member ``loader`` computes from them, transitively."""
    found = set(members)
    changed = True
    while changed:
        changed = False
        for member, sources_ in _derivations(loader, pointer).items():
            if member not in found and sources_ & found:
                found.add(member)
                changed = True
    return found


@lru_cache(maxsize=1)
def member_lines() -> dict[str, list[CLine]]:
    """``T->member`` (``F->member``, for each layout's pointer) -> the C lines that use it."""
    out: dict[str, list[CLine]] = {}
    for name, lines in sources().items():
        for number, line in enumerate(lines, 1):
            for layout in LAYOUTS:
                for member in sorted(set(_member(layout.pointer).findall(line))):
                    out.setdefault(f"{layout.pointer}->{member}", []).append(CLine(name, number, line.strip()))
    return out


def move_layer_paths(path: KeyPath) -> Iterator[KeyPath]:
    """``path`` if it lies in the move layer the compiled tables hold."""
    if path and path[0] in ("board", "pieces", "pawn", "castling", "setup"):
        yield path
