"""Numeric Annotation Glyphs and move suffix annotations (``spec/notation/nags.yaml``)."""

from __future__ import annotations


from .tables import derived, table


def nag_meaning(nag: int) -> str:
    """The standard's meaning of ``$nag``; ``"reserved"`` for $140-$255."""
    t = table("nags")
    if not 0 <= nag <= t["max"]:
        raise ValueError(f"NAG out of range 0..{t['max']}: {nag}")
    entry = t["nags"].get(nag)
    return entry["meaning"] if entry else "reserved"


def nag_glyph(nag: int) -> str | None:
    """The first (print) glyph of ``$nag``, if a convention exists."""
    entry = table("nags")["nags"].get(nag)
    glyphs = entry.get("glyphs") if entry else None
    return glyphs[0] if glyphs else None


@derived
def suffix_to_nag() -> dict[str, int]:
    """``{"!": 1, "?": 2, ...}`` from the marks table (pgn:8.2.3.8)."""
    return dict(table("marks")["suffix_annotations"]["map"])


@derived
def glyph_to_nag() -> dict[str, int]:
    """Every glyph or suffix -> its NAG (the lowest NAG when a glyph is shared)."""
    out: dict[str, int] = {}
    for nag, entry in sorted(table("nags")["nags"].items()):
        for glyph in entry.get("glyphs", []):
            out.setdefault(glyph, nag)
    out.update(suffix_to_nag())
    return out


def parse_nag(token: str) -> int:
    """``"$14"`` -> 14; ``ValueError`` for a malformed or out-of-range NAG."""
    if not token.startswith("$") or not token[1:].isdigit():
        raise ValueError(f"not a NAG: {token!r}")
    value = int(token[1:])
    if value > table("nags")["max"]:
        raise ValueError(f"NAG out of range 0..{table('nags')['max']}: {token}")
    return value
