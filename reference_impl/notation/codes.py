"""Board-independent square codes: ICCF digits, the Uedemann syllables, descriptive names.

Squares are ints ``a1 = 0 .. h8 = 63``. Every code is derived from the tables in
``spec/notation/`` (``iccf.yaml``, ``uedemann.yaml``, ``descriptive.yaml``).
"""

from __future__ import annotations


from .tables import derived, table

FILES = "abcdefgh"
RANKS = "12345678"


def _file_rank(sq: int) -> tuple[str, str]:
    return FILES[sq & 7], RANKS[sq >> 3]


# --- ICCF -------------------------------------------------------------------------------


@derived
def _iccf_maps() -> tuple[tuple[str, ...], dict[str, int]]:
    t = table("iccf")
    codes = tuple(f"{t['files'][f]}{t['ranks'][r]}" for r in RANKS for f in FILES)
    return codes, {code: sq for sq, code in enumerate(codes)}


def iccf_square(sq: int) -> str:
    """``e4`` -> ``"54"``."""
    return _iccf_maps()[0][sq]


def parse_iccf_square(code: str) -> int:
    """``"54"`` -> e4; ``ValueError`` if not two digits 1-8."""
    try:
        return _iccf_maps()[1][code]
    except KeyError:
        raise ValueError(f"not an ICCF square: {code!r}") from None


def iccf_promotion_digit(piece: str) -> str:
    """``"queen"`` -> ``"1"``."""
    return str(table("iccf")["promotion_digits"]["digits"][piece])


def iccf_piece_for_digit(digit: str) -> str | None:
    """``"1"`` -> ``"queen"``; ``None`` for an unknown digit."""
    for piece, value in table("iccf")["promotion_digits"]["digits"].items():
        if str(value) == digit:
            return str(piece)
    return None


def iccf_piece_for_original_square(code: str, color: int) -> str | None:
    """The older ``(41)`` form: the piece whose initial square is ``code`` for ``color``."""
    side = table("iccf")["promotion_original_square"]["white" if color == 0 else "black"]
    for piece, squares in side.items():
        if code in (str(s) for s in squares):
            return str(piece)
    return None


# --- Uedemann ---------------------------------------------------------------------------


@derived
def _uedemann_maps() -> tuple[tuple[str, ...], dict[str, int]]:
    t = table("uedemann")
    codes = []
    for r in RANKS:
        half = "ranks_1_4" if r in "1234" else "ranks_5_8"
        for f in FILES:
            codes.append(t["consonants"][half][f] + t["vowels"][r])
    if len(set(codes)) != 64:
        raise ValueError("uedemann.yaml gives two squares the same code")
    return tuple(codes), {code: sq for sq, code in enumerate(codes)}


def uedemann_square(sq: int) -> str:
    """a1 -> ``"ba"``, h8 -> ``"za"``."""
    return _uedemann_maps()[0][sq]


def parse_uedemann_square(code: str) -> int:
    """``"go"`` -> e4 (case-insensitive); ``ValueError`` otherwise."""
    try:
        return _uedemann_maps()[1][code.lower()]
    except KeyError:
        raise ValueError(f"not a Uedemann square: {code!r}") from None


def uedemann_promotion_letter(piece: str) -> str:
    return str(table("uedemann")["promotion_suffix"][piece])


def uedemann_piece_for_letter(letter: str) -> str | None:
    for piece, value in table("uedemann")["promotion_suffix"].items():
        if value == letter.lower():
            return str(piece)
    return None


@derived
def _hooper_whyld_maps() -> tuple[tuple[str, ...], dict[str, int]]:
    t = table("uedemann")["hooper_whyld"]
    codes = tuple(
        t["files"][f] + t["ranks"][r] if f in "abcd" else t["ranks"][r] + t["files"][f]
        for r in RANKS for f in FILES
    )
    if len(set(codes)) != 64:
        raise ValueError("uedemann.yaml hooper_whyld gives two squares the same code")
    return codes, {code: sq for sq, code in enumerate(codes)}


def hooper_whyld_square(sq: int) -> str:
    """The Uedemann code as Hooper and Whyld describe it: a1 = ``AB``, h1 = ``BA``."""
    return _hooper_whyld_maps()[0][sq]


def parse_hooper_whyld_square(code: str) -> int:
    try:
        return _hooper_whyld_maps()[1][code.upper()]
    except KeyError:
        raise ValueError(f"not a Uedemann (Hooper-Whyld) square: {code!r}") from None


# --- Descriptive ------------------------------------------------------------------------


def descriptive_square(sq: int, color: int) -> str:
    """The descriptive name of ``sq`` seen from ``color``: e4 -> ``K4`` (White), ``K5`` (Black)."""
    f, r = _file_rank(sq)
    rank = int(r) if color == 0 else 9 - int(r)
    return f"{table('descriptive')['files'][f]}{rank}"


@derived
def descriptive_file_names() -> dict[str, tuple[int, ...]]:
    """Every file name or alias -> the 0-based files it may mean (``B`` -> c and f)."""
    t = table("descriptive")
    names: dict[str, set[int]] = {}
    for f, name in t["files"].items():
        index = FILES.index(f)
        names.setdefault(name, set()).add(index)
        if len(name) == 2:  # QB, KB, ...: the short form B means either side
            names.setdefault(name[1], set()).add(index)
    for alias, f in t.get("file_aliases", {}).items():
        names.setdefault(alias, set()).add(FILES.index(f))
        names.setdefault(alias[1:], set()).add(FILES.index(f))
    return {name: tuple(sorted(files)) for name, files in names.items()}


def parse_descriptive_square(text: str, color: int) -> list[int]:
    """All squares ``text`` may name for ``color`` (``B3`` -> c3 and f3 for White)."""
    text = text.strip()
    if not text or not text[-1].isdigit():
        raise ValueError(f"not a descriptive square: {text!r}")
    rank = int(text[-1])
    files = descriptive_file_names().get(text[:-1])
    if files is None or not 1 <= rank <= 8:
        raise ValueError(f"not a descriptive square: {text!r}")
    rank_index = rank - 1 if color == 0 else 8 - rank
    return [rank_index * 8 + f for f in files]
