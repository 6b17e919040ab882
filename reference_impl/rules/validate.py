"""Validate ruleset files: the JSON Schema, then what a schema cannot express.

Checks: the schema over each file as written and over the resolved ruleset; every
``cite`` (and ``*_cite``) names an article of the registry; ``extends`` names a known
ruleset (no cycles); piece letters are unique; exactly one royal piece; promotion
targets, the castling rook and the Chess960 setup name defined pieces; the Chess960
numbering is consistent with its back rank; a built-in file is named after its id;
ids and aliases are unique across files. Each violation reads
``FILE:LINE: key.path: message``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from reference_impl.errors import RulesetError

from .articles import known_cites
from .files import RawFile, Ruleset, library, read_ruleset_file, resolve
from .merge import strip_nulls
from .yamlio import format_path

KeyPath = tuple[str | int, ...]


@dataclass(frozen=True, order=True)
class Violation:
    """One problem in one file; ``str()`` is the one-line report."""

    file: str
    line: int
    path: str
    message: str

    def __str__(self) -> str:
        if not self.path and not self.line:
            return self.message
        if not self.line:
            return f"{self.file}: {self.path}: {self.message}"
        return f"{self.file}:{self.line}: {self.path}: {self.message}"


def _from_error(error: RulesetError) -> Violation:
    return Violation("", 0, "", str(error))


def _display(path: Path | None) -> str:
    if path is None:
        return "(derived ruleset)"
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _at(raw: RawFile, path: KeyPath, message: str) -> Violation:
    return Violation(_display(raw.path), raw.lines.line(path), format_path(path), message)


def _walk(value: Any, path: KeyPath = ()) -> Iterator[tuple[KeyPath, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _walk(child, path + (str(key),))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _walk(child, path + (index,))


def _cite_values(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


_FILE_CACHE: dict[tuple[str, int, int], list[Violation]] = {}


def validate_file(raw: RawFile) -> list[Violation]:
    """Problems of one file as written (no inheritance applied); cached while unchanged."""
    try:
        stat = raw.path.stat()
        key: tuple[str, int, int] | None = (str(raw.path.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    if key is not None and key in _FILE_CACHE:
        return list(_FILE_CACHE[key])
    out = _validate_file(raw)
    if key is not None:
        _FILE_CACHE[key] = out
    return list(out)


def _validate_file(raw: RawFile) -> list[Violation]:
    out = [_at(raw, p, m) for p, m in _schema_errors(strip_nulls(raw.data), partial=True)]
    for path, line in raw.lines.duplicate_keys():
        out.append(Violation(_display(raw.path), line, format_path(path), "duplicate key (only the last one counts)"))
    cites = known_cites()
    for path, value in _walk(raw.data):
        if path and isinstance(path[-1], str) and (path[-1] == "cite" or path[-1].endswith("_cite")):
            for cite in _cite_values(value):
                if cite not in cites:
                    out.append(_at(raw, path, f"unknown article {cite!r} (not in spec/articles/)"))
    lib = library()
    if raw.path.resolve().parent == lib.directory.resolve() and raw.id != raw.path.stem:
        out.append(_at(raw, ("id",), f"id {raw.id!r} differs from the file name {raw.path.stem!r}"))
    return out


def _schema_errors(instance: Any, partial: bool) -> list[tuple[KeyPath, str]]:
    from .schema import schema_errors

    return schema_errors(instance, partial)


def _locate(ruleset: Ruleset, path: KeyPath, message: str) -> Violation:
    """Attribute a problem of the resolved ruleset to the file that set the key."""
    if ruleset.path is None:
        return Violation(f"derived ruleset {ruleset.id!r}", 0, format_path(path), message)
    best: tuple[int, RawFile] | None = None
    for raw in reversed(ruleset.files):
        depth, node = 0, raw.data
        for key in path:
            if isinstance(node, dict) and key in node:
                node, depth = node[key], depth + 1
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                node, depth = node[key], depth + 1
            else:
                break
        if depth and (best is None or depth > best[0]):
            best = (depth, raw)
    raw = best[1] if best else ruleset.files[-1]
    return _at(raw, path, message)


def semantic_problems(data: dict[str, Any]) -> list[tuple[KeyPath, str]]:
    """Problems of a resolved mapping that the schema cannot express."""
    out: list[tuple[KeyPath, str]] = []
    pieces: dict[str, Any] = data["pieces"] if isinstance(data.get("pieces"), dict) else {}
    letters: dict[str, str] = {}
    royals = []
    for name, row in pieces.items():
        if not isinstance(row, dict):
            continue
        letter = str(row.get("letter", "")).upper()
        if letter in letters:
            out.append((("pieces", name, "letter"), f"letter {letter!r} already used by {letters[letter]}"))
        letters.setdefault(letter, name)
        if row.get("royal"):
            royals.append(name)
        if row.get("royal") and row.get("pawn"):
            out.append((("pieces", name), "a piece cannot be both royal and a pawn"))
    if pieces and len(royals) != 1:
        out.append((("pieces",), f"exactly one royal piece is needed, found {len(royals)}"))

    def need_piece(path: KeyPath, name: Any) -> None:
        if name not in pieces:
            out.append((path, f"{name!r} is not a piece defined in 'pieces'"))

    pawn: dict[str, Any] = data["pawn"] if isinstance(data.get("pawn"), dict) else {}
    promotion: dict[str, Any] = pawn["promotion"] if isinstance(pawn.get("promotion"), dict) else {}
    for index, target in enumerate(promotion.get("to") or []):
        need_piece(("pawn", "promotion", "to", index), target)
    castling: dict[str, Any] = data["castling"] if isinstance(data.get("castling"), dict) else {}
    if "rook" in castling:
        need_piece(("castling", "rook"), castling["rook"])
    for side, row in (castling.get("sides") or {}).items():
        if isinstance(row, dict) and row.get("king_to") is not None and row.get("king_to") == row.get("rook_to"):
            out.append((("castling", "sides", side), "king and rook cannot end on the same file"))
    setup: dict[str, Any] = data["setup"] if isinstance(data.get("setup"), dict) else {}
    fen = setup.get("initial_fen")
    if isinstance(fen, str) and fen.split():
        bad = sorted({c for c in fen.split()[0] if c.isalpha() and c.upper() not in letters})
        if bad:
            out.append((("setup", "initial_fen"), f"letters {''.join(bad)!r} are not pieces of this ruleset"))
    if setup.get("kind") == "chess960":
        out.extend(_chess960_problems(setup, pieces, letters, need_piece))
    return out


def _chess960_problems(setup: dict[str, Any], pieces: dict[str, Any], letters: dict[str, str], need_piece: Any) -> list[tuple[KeyPath, str]]:
    out: list[tuple[KeyPath, str]] = []
    back = (setup.get("back_rank") or {}).get("pieces") or {}
    for name in back:
        need_piece(("setup", "back_rank", "pieces", name), name)
    for index, rule in enumerate(setup.get("constraints") or []):
        for key in ("piece", "outer"):
            if isinstance(rule, dict) and key in rule:
                need_piece(("setup", "constraints", index, key), rule[key])
    numbering = setup.get("numbering") or {}
    steps = numbering.get("steps") or []
    placed: Counter[str] = Counter()
    radices: list[int] = []
    for index, step in enumerate(steps):
        if not isinstance(step, dict):
            continue
        if "place" in step:
            need_piece(("setup", "numbering", "steps", index, "place"), step["place"])
            placed[str(step["place"])] += 1
            radices.append(len(step.get("files") or []) or int(step.get("nth_empty") or 0))
        elif "fill_empty" in step:
            codes = step["fill_empty"]
            radices.append(len(codes))
            for code_index, code in enumerate(codes):
                filled = Counter(letters.get(c, f"?{c}") for c in str(code))
                if filled + placed != Counter({str(k): int(v) for k, v in back.items()}):
                    out.append((("setup", "numbering", "steps", index, "fill_empty", code_index),
                                f"{code!r} with the pieces placed before does not make the back rank {dict(back)}"))
    if radices and "count" in numbering and prod(radices) != numbering["count"]:
        out.append((("setup", "numbering", "steps"),
                    f"the steps give {prod(radices)} numbers, not count {numbering['count']}"))
    return out


def validate_ruleset(ruleset: Ruleset) -> list[Violation]:
    """Problems of every file in the chain and of the resolved result."""
    out: list[Violation] = []
    for raw in ruleset.files:
        out.extend(validate_file(raw))
    if not ruleset.abstract:
        for path, message in _schema_errors(ruleset.data, partial=False):
            out.append(_locate(ruleset, path, message))
    else:
        for path, message in _schema_errors(ruleset.data, partial=True):
            out.append(_locate(ruleset, path, message))
    for path, message in semantic_problems(ruleset.data):
        out.append(_locate(ruleset, path, message))
    own = _display(ruleset.path) if ruleset.path is not None else None
    return sorted(set(out), key=lambda v: (v.file != own, v))


def _start_position_problems(ruleset: Ruleset) -> list[tuple[KeyPath, str]]:
    """``setup.initial_fen`` read as a position under the ruleset itself (every field,
    bounded numbers included), so that ``rules validate`` rejects a file rather than the
    first command that sets up a board. (Loading does not ask this: a test may derive a
    ruleset whose start position it never sets up.)"""
    from ..core.board import Board
    from ..errors import ArbiterError

    fen = (ruleset.data.get("setup") or {}).get("initial_fen")
    if not isinstance(fen, str):
        return []
    try:
        Board(ruleset, fen)
    except ArbiterError as error:
        return [(("setup", "initial_fen"), str(error))]
    return []


def raise_for(violations: Sequence[Violation]) -> None:
    """Raise RulesetError naming the first violation (and how many more) if any."""
    if violations:
        more = f" (and {len(violations) - 1} more; run 'arbiter rules validate')" if len(violations) > 1 else ""
        raise RulesetError(f"{violations[0]}{more}")


def _unique_names(raws: Iterable[RawFile]) -> list[Violation]:
    out: list[Violation] = []
    owner: dict[str, RawFile] = {}
    for raw in raws:
        names: list[tuple[KeyPath, str]] = [(("id",), raw.id)]
        names += [(("aliases", i), str(a)) for i, a in enumerate(raw.data.get("aliases") or [])]
        for path, name in names:
            other = owner.get(name)
            if other is not None and other.path.resolve() != raw.path.resolve():
                out.append(_at(raw, path, f"{name!r} is already the id or an alias of {_display(other.path)}"))
            owner.setdefault(name, raw)
    return out


ARTICLE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def validate_articles(directory: Path | None = None) -> list[Violation]:
    """Problems of the citation registry files (``spec/articles/*.yaml``)."""
    from .paths import spec_dir
    from .yamlio import read_yaml

    out: list[Violation] = []
    for path in sorted((directory or spec_dir() / "articles").glob("*.yaml")):
        try:
            data, lines = read_yaml(path)
        except RulesetError as error:
            out.append(_from_error(error))
            continue
        raw = RawFile(path, data if isinstance(data, dict) else {}, lines)
        if not isinstance(data, dict):
            out.append(_at(raw, (), "a registry file must be a YAML mapping"))
            continue
        if data.get("document") != path.stem:
            out.append(_at(raw, ("document",), f"document must be the file name {path.stem!r}"))
        for key in ("title", "source"):
            if not isinstance(data.get(key), str) or not data[key].strip():
                out.append(_at(raw, (key,), "a non-empty string is required"))
        articles = data.get("articles")
        if not isinstance(articles, dict) or not articles:
            out.append(_at(raw, ("articles",), "a non-empty mapping of article -> {title: ...} is required"))
            continue
        out.extend(_borrowing_problems(raw, data, directory or spec_dir() / "articles"))
        for number, entry in articles.items():
            where = ("articles", str(number))
            if not ARTICLE_ID.match(str(number)):
                out.append(_at(raw, where, f"article id {number!r} must match {ARTICLE_ID.pattern}"))
            if not isinstance(entry, dict) or not isinstance(entry.get("title"), str) or not entry["title"].strip():
                out.append(_at(raw, where, "each article needs a non-empty title"))
            elif set(entry) - {"title", "note"}:
                out.append(_at(raw, where, f"unknown keys {sorted(set(entry) - {'title', 'note'})}"))
    return out


def _borrowing_problems(raw: RawFile, data: dict[str, Any], directory: Path) -> list[Violation]:
    """``unchanged`` names a registered document and articles registered there;
    ``elsewhere`` maps registered documents to a non-empty reason."""
    from .yamlio import read_yaml

    out: list[Violation] = []
    registered = {p.stem for p in directory.glob("*.yaml")}
    unknown = set(data) - {"document", "title", "source", "note", "articles", "unchanged", "elsewhere"}
    if unknown:
        out.append(_at(raw, (), f"unknown keys {sorted(unknown)}"))
    same = data.get("unchanged")
    if same is not None:
        other = same.get("document") if isinstance(same, dict) else None
        if other not in registered or set(same) != {"document", "articles"} \
                or not isinstance(same.get("articles"), list):
            out.append(_at(raw, ("unchanged",), "needs 'document' (a registry file) and 'articles' (a list)"))
        else:
            theirs, _ = read_yaml(directory / f"{other}.yaml")
            for index, number in enumerate(same["articles"]):
                if str(number) not in (theirs.get("articles") or {}):
                    out.append(_at(raw, ("unchanged", "articles", index), f"{other}:{number} is not registered"))
                elif str(number) in data.get("articles", {}):
                    out.append(_at(raw, ("unchanged", "articles", index),
                                   f"{number} is also an article of this document: cite one or the other"))
    for other, reason in (data.get("elsewhere") or {}).items():
        if other not in registered or not isinstance(reason, str) or not reason.strip():
            out.append(_at(raw, ("elsewhere", str(other)), "needs a registry document and a reason"))
    return out


def validate_paths(paths: Sequence[Path] | None = None) -> list[Violation]:
    """Validate the given files, or every built-in file and the registry when ``paths`` is empty."""
    lib = library()
    targets = list(paths) if paths else sorted(lib.directory.glob("*.yaml"))
    out: list[Violation] = []
    raws: list[RawFile] = []
    for path in targets:
        try:
            raw = read_ruleset_file(path)
            raws.append(raw)
            builtin = path.resolve().parent == lib.directory.resolve()
            ruleset = resolve(raw, builtin)
            found = validate_ruleset(ruleset)
            if not found and not ruleset.abstract:
                found = [_locate(ruleset, path, message) for path, message in _start_position_problems(ruleset)]
            out.extend(found)
        except RulesetError as error:
            out.append(_from_error(error))
    builtins = [lib.files[i] for i in sorted(lib.files)]
    extra = [r for r in raws if all(r.path.resolve() != b.path.resolve() for b in builtins)]
    out.extend(_unique_names(builtins + extra))
    if not paths:
        out.extend(validate_articles())
    return list(dict.fromkeys(out))
