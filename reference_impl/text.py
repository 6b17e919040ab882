"""Reading user text safely: bounded integers, bounded quotes in messages, bounded JSON.

Every number a user writes (FEN clocks, PGN clock comments, ``TimeControl`` fields,
fixture values) goes through :func:`parse_int`, which refuses more than
:data:`MAX_INT_DIGITS` digits before Python converts anything (a 4,301-digit number
would otherwise raise from inside the conversion). Every piece of user text an error
message repeats goes through :func:`quote`: at most :data:`QUOTE_LIMIT` characters,
control characters and lone surrogates escaped. :func:`loads_json` is ``json.loads``
with limits on nesting, number length and string content.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import QUOTE_LIMIT, ArbiterError, quote

__all__ = ["MAX_INT_DIGITS", "MAX_JSON_DEPTH", "QUOTE_LIMIT", "JsonError", "NumberError",
           "loads_json", "parse_int", "quote"]

#: Longest integer accepted in user text (fits a signed 64-bit integer).
MAX_INT_DIGITS = 18
#: Deepest nesting of arrays and objects accepted in JSON input.
MAX_JSON_DEPTH = 64

_DIGITS = re.compile(r"[0-9]+")
_BRACKET_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_ZERO_DIGITS = bytes.maketrans(b"123456789", b"000000000")


def _has_long_digit_run(text: str) -> bool:
    """Whether ``text`` holds more than MAX_INT_DIGITS digits in a row (fast: C loops)."""
    data = text.encode("utf-8", "surrogatepass").translate(_ZERO_DIGITS)
    return b"0" * (MAX_INT_DIGITS + 1) in data


class NumberError(ArbiterError, ValueError):
    """A numeric field is not a bounded non-negative integer; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class JsonError(ArbiterError, ValueError):
    """JSON text is malformed or beyond the limits; ``reason`` names where."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_int(text: str, what: str, *, max_digits: int = MAX_INT_DIGITS) -> int:
    """The non-negative integer written as ASCII digits in ``text``.

    Raises :class:`NumberError` naming ``what`` when ``text`` is not only digits or has
    more than ``max_digits`` of them (the check comes before any conversion).
    """
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        raise NumberError(f"{what} {quote(text)} is not a non-negative integer")
    if len(text) > max_digits:
        raise NumberError(f"{what} has {len(text):,} digits (at most {max_digits})")
    return int(text)


def _bounded_int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise NumberError(f"a number has {len(digits):,} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def json_depth_error(text: str, limit: int = MAX_JSON_DEPTH) -> str | None:
    """Why ``text`` nests arrays/objects deeper than ``limit`` (``None`` if it does not).

    Linear, and at C speed for ordinary text: only text with more than ``limit`` brackets
    is scanned (string contents skipped), so ``json`` never recurses too deep.
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for match in _BRACKET_OR_STRING.finditer(text):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                return f"nested deeper than {limit} levels at column {match.start() + 1}"
        elif char in "]}":
            depth -= 1
    return None


def _check_strings(value: Any) -> None:
    """Raise if a string (key or value) holds a lone surrogate (not encodable text)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise JsonError(f"string {quote(item)} holds a lone surrogate (not Unicode text)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def loads_json(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` within limits: nesting, integer length, Unicode strings, finite floats.

    Every failure is a :class:`JsonError` whose message is one line.
    """
    problem = json_depth_error(text, max_depth)
    if problem is not None:
        raise JsonError(problem)
    try:
        decoder = _BOUNDED if _has_long_digit_run(text) else _PLAIN  # the hook costs per number
        value = decoder.decode(text)
    except json.JSONDecodeError as error:
        raise JsonError(f"not JSON ({error.msg} at column {error.colno})") from None
    except NumberError as error:
        raise JsonError(error.reason) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JsonError(f"nested deeper than {max_depth} levels") from None
    if _SURROGATE_ESCAPE.search(text) or not _encodable(text):
        _check_strings(value)
    return value


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _no_constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON number")


_PLAIN = json.JSONDecoder(parse_constant=_no_constant)
_BOUNDED = json.JSONDecoder(parse_constant=_no_constant, parse_int=_bounded_int)
