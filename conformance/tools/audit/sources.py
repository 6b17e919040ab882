"""PGN files as partitions of whole games: byte ranges of plain files, text of compressed ones.

A plain file is cut into byte ranges of about ``size`` bytes, each boundary moved
forward to the start of a game (:class:`Boundary`), so a task can seek to its range and
stream it. A compressed stream cannot be entered in the middle: it is decompressed once,
in order, and cut at game boundaries into partitions that carry their text. Either way
the partitions of a file, read in order, hold exactly its games, and the same file and
``size`` always give the same partitions (an interrupted audit resumes by them).

A truncated or corrupt compressed file yields the partitions before the damage and then
a :class:`Damage` naming the file and the byte where it was found.
"""

from __future__ import annotations

import bz2
import zlib
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from reference_impl.records import record

#: Bytes read from a file at a time.
CHUNK = 1 << 16
#: Compressed bytes given to a decompressor at a time: what a damage in them costs of the
#: text before it (a decompressor that meets damage returns nothing of that call).
FEED = 1 << 10
#: Default partition size (decompressed bytes).
PARTITION_BYTES = 4 << 20
#: Largest zstd window accepted (databases are compressed with long windows).
ZSTD_MAX_WINDOW = 1 << 31


def _stream_chunks(make: Callable[[], Any], name: str) -> Callable[[IO[bytes]], Iterator[bytes]]:
    """Decompressed chunks of a raw file, for a decompressor with ``eof`` and ``unused_data``
    (zlib, bz2, zstandard): every byte before a damage comes out before the error."""
    def chunks(raw: IO[bytes]) -> Iterator[bytes]:
        obj, fed = make(), False
        while block := raw.read(CHUNK):
            for at in range(0, len(block), FEED):
                data = block[at:at + FEED]
                while data:
                    out = obj.decompress(data)
                    fed = True
                    if out:
                        yield out
                    if obj.eof:  # a member or frame ends here; another may follow
                        data = obj.unused_data
                        obj, fed = make(), False
                    else:
                        data = b""
        if fed:
            raise EOFError(f"compressed data ends inside a {name} stream")
    return chunks


def _zstd() -> Any:
    import zstandard

    return zstandard.ZstdDecompressor(max_window_size=ZSTD_MAX_WINDOW).decompressobj()


#: Compression by file suffix: the decompressed chunks of the raw file.
FORMATS: dict[str, Callable[[IO[bytes]], Iterator[bytes]]] = {
    ".gz": _stream_chunks(lambda: zlib.decompressobj(wbits=zlib.MAX_WBITS | 16), "gzip"),
    ".bz2": _stream_chunks(bz2.BZ2Decompressor, "bzip2"),
    ".zst": _stream_chunks(_zstd, "zstd"),
}
#: What the decompressors raise on a damaged stream (and zstandard.ZstdError).
DAMAGE: tuple[type[BaseException], ...] = (EOFError, OSError, zlib.error, ValueError)


def _damage_errors() -> tuple[type[BaseException], ...]:
    import zstandard

    return DAMAGE + (zstandard.ZstdError,)


def compression(path: Path) -> str | None:
    return path.suffix.lower() if path.suffix.lower() in FORMATS else None


@record
class Partition:
    """Part ``number`` of ``path``: the bytes ``start``..``end`` of a plain file, or for
    a compressed one its decompressed ``text``; ``size`` raw bytes of the file it covers."""

    path: str
    number: int
    start: int
    end: int
    size: int
    text: bytes | None = None

    @property
    def key(self) -> str:
        return f"{self.path}#{self.number}"


@record
class Damage:
    """A compressed file found truncated or corrupt after ``at`` raw bytes."""

    path: str
    at: int
    message: str


class Boundary:
    """Finds game starts in a stream of lines: a line that begins with ``[`` after a
    blank line, when the last other line was not a tag (so movetext or a comment)."""

    def __init__(self) -> None:
        self.blank = False
        self.after_moves = False

    def starts_game(self, line: bytes) -> bool:
        stripped = line.strip()
        if not stripped:
            self.blank = True
            return False
        found = stripped.startswith(b"[") and self.blank and self.after_moves
        self.after_moves = not stripped.startswith(b"[") and not stripped.startswith(b"%")
        self.blank = False
        return found


def plain_partitions(path: Path, size: int = PARTITION_BYTES) -> Iterator[Partition]:
    """Byte ranges of a plain PGN file, each starting at a game (the first at 0)."""
    total = path.stat().st_size
    start, number = 0, 0
    with path.open("rb") as handle:
        while start < total:
            end = _next_start(handle, start + size, total)
            yield Partition(str(path), number, start, end, end - start)
            start, number = end, number + 1


def _next_start(handle: IO[bytes], pos: int, total: int) -> int:
    """The offset of the first game start at or after the line that follows ``pos``."""
    if pos >= total:
        return total
    handle.seek(pos)
    handle.readline()  # the line ``pos`` falls in belongs to the partition before
    boundary = Boundary()
    while True:
        offset = handle.tell()
        line = handle.readline()
        if not line:
            return total
        if boundary.starts_game(line):
            return offset


def compressed_partitions(path: Path, size: int = PARTITION_BYTES) -> Iterator[Partition | Damage]:
    """The decompressed text of a compressed PGN file, cut at games into partitions."""
    chunks = FORMATS[path.suffix.lower()]
    piece: list[bytes] = []
    number, length, used = 0, 0, 0
    boundary, rest = Boundary(), b""
    with path.open("rb") as raw:
        try:
            for data in chunks(raw):
                lines = (rest + data).split(b"\n")
                rest = lines.pop()
                for line in lines:
                    line += b"\n"
                    if boundary.starts_game(line) and length >= size:
                        consumed = raw.tell()
                        yield Partition(str(path), number, 0, length, consumed - used, b"".join(piece))
                        number, piece, length, used = number + 1, [], 0, consumed
                    piece.append(line)
                    length += len(line)
        except _damage_errors() as error:
            # Keep the whole games read so far: cut the text at its last game start.
            text = b"".join(piece)
            cut = _last_start(text)
            if cut:
                yield Partition(str(path), number, 0, cut, raw.tell() - used, text[:cut])
            yield Damage(str(path), raw.tell(), f"{error}")
            return
        text = b"".join(piece) + rest
        if text:
            yield Partition(str(path), number, 0, len(text), raw.tell() - used, text)


def _last_start(text: bytes) -> int:
    """The offset of the last game start in ``text`` (0 when the text holds one game)."""
    boundary, offset, last = Boundary(), 0, 0
    for line in text.splitlines(keepends=True):
        if boundary.starts_game(line):
            last = offset
        offset += len(line)
    return last


def partitions(paths: list[Path], size: int = PARTITION_BYTES) -> Iterator[Partition | Damage]:
    """Every partition of every file, in order (compressed files by their suffix)."""
    for path in paths:
        if compression(path):
            yield from compressed_partitions(path, size)
        else:
            yield from plain_partitions(path, size)


def partition_lines(part: Partition) -> Iterator[bytes]:
    """The lines of a partition (a task streams a plain file's range from disk)."""
    if part.text is not None:
        yield from part.text.splitlines(keepends=True)
        return
    with open(part.path, "rb") as handle:
        handle.seek(part.start)
        left = part.end - part.start
        while left > 0:
            line = handle.readline(left)
            if not line:
                return
            left -= len(line)
            yield line


def stream_lines(path: Path, damage: list[Damage]) -> Iterator[bytes]:
    """The lines of a plain or compressed PGN file (or a pipe) in order, read as they
    come; a damaged compressed stream stops at the damage, which is appended to ``damage``
    (the lines before it are all yielded)."""
    with path.open("rb") as raw:
        if not compression(path):
            yield from raw
            return
        rest = b""
        try:
            for data in FORMATS[path.suffix.lower()](raw):
                lines = (rest + data).split(b"\n")
                rest = lines.pop()
                for line in lines:
                    yield line + b"\n"
        except _damage_errors() as error:
            damage.append(Damage(str(path), raw.tell(), f"{error}"))
            return
        if rest:
            yield rest
