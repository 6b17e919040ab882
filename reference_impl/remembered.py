"""What a command computes at start-up from the spec and its own code, remembered on disk.

Reading the shipped YAML and compiling the rider tables cost a short command more than
its work. :func:`remembered` gives what ``compute`` gives, from a record on disk when one
was written for the same ``key``: the caller's digest of everything the result depends
on (the input's bytes and the code that computes it), with the Python version. A record
is the result as ``marshal`` writes it, after a digest of it; one that does not match its
digest is passed over, and a result ``marshal`` cannot write is not recorded. Records live
in a folder of :func:`cache_root` (the schema checks' memo, :mod:`.rules.checked`, is
another); ``ARBITER_CHECK_CACHE=0`` turns both off, and a folder that cannot be read or
written is passed over: the result is computed.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, TypeVar, cast


T = TypeVar("T")

#: Environment variables: the cache folder (shared with the schema checks' memo and the
#: adapters' installs), and the switch of both memos (``0``: compute every time).
CACHE_ENV = "ARBITER_CACHE"
SWITCH_ENV = "ARBITER_CHECK_CACHE"

#: The first bytes of a record, before the digest of what follows.
MAGIC = b"arbiter-remembered 1\n"
#: Hex digits of the key naming a record.
NAME_DIGITS = 40


def remembered(folder: str, key: bytes, compute: Callable[[], T]) -> T:
    """``compute()``, or what it gave before for the same ``key`` (see the module)."""
    if os.environ.get(SWITCH_ENV, "1") == "0":
        return compute()
    digest = hashlib.sha256(sys.version.encode() + b"\0" + key).hexdigest()
    record = cache_root() / folder / digest[:NAME_DIGITS]
    try:
        stored = record.read_bytes()
        head, payload = stored[:len(MAGIC) + 32], stored[len(MAGIC) + 32:]
        if head == MAGIC + hashlib.sha256(payload).digest():
            return cast(T, marshal.loads(payload))
    except (OSError, ValueError, EOFError, TypeError):
        pass
    found = compute()
    try:
        payload = marshal.dumps(cast(Any, found))
    except ValueError:
        return found
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        partial = record.with_name(f"{record.name}.{os.getpid()}")
        partial.write_bytes(MAGIC + hashlib.sha256(payload).digest() + payload)
        os.replace(partial, record)
    except OSError:
        pass
    return found


def cache_root() -> Path:
    """``$ARBITER_CACHE``, else ``$XDG_CACHE_HOME/arbiter``, else ``~/.cache/arbiter``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "arbiter"


@lru_cache(maxsize=None)
def code_digest(path: str) -> bytes:
    """The digest of the source file ``path`` (the code that computes a result)."""
    return hashlib.sha256(Path(path).read_bytes()).digest()
