"""Game results (PGN termination markers) and the ``+W −L =D`` match-score form."""

from __future__ import annotations

import re
from typing import NamedTuple

from .tables import table

def parse_result(text: str) -> str:
    """A result marker or printed alias -> the PGN marker; ``ValueError`` otherwise."""
    t = table("results")
    text = text.strip()
    if text in t["results"]:
        return text
    if text in t.get("aliases", {}):
        return str(t["aliases"][text])
    raise ValueError(f"not a result: {text!r} (expected 1-0, 0-1, 1/2-1/2 or *)")


def result_points(result: str) -> tuple[float, float] | None:
    """(White's points, Black's points), or ``None`` for ``*``."""
    entry = table("results")["results"][parse_result(result)]
    white, black = entry["white"], entry["black"]
    if white is None or black is None:
        return None
    return float(white), float(black)


class Score(NamedTuple):
    """A match score from one player's side."""

    wins: int
    losses: int
    draws: int

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2


def format_score(score: Score) -> str:
    """``Score(3, 1, 4)`` -> ``"+3 −1 =4"``."""
    t = table("results")["score"]
    marks = t["marks"]
    parts = {name: f"{marks[name]}{getattr(score, name)}" for name in t["order"]}
    return str(t["separator"]).join(parts[name] for name in t["order"])


def parse_score(text: str) -> Score:
    """``"+3 −1 =4"`` (any order, hyphen or minus sign) -> ``Score(3, 1, 4)``."""
    t = table("results")["score"]
    marks = dict(t["marks"])
    loss = [marks["losses"], *t.get("loss_aliases", [])]
    found: dict[str, int] = {}
    rest = text.strip()
    pattern = re.compile(r"\s*([+=]|" + "|".join(re.escape(m) for m in loss) + r")\s*(\d+)")
    while rest:
        m = pattern.match(rest)
        if not m:
            raise ValueError(f"not a match score: {text!r} (expected like +3 −1 =4)")
        mark, value = m.group(1), int(m.group(2))
        name = "wins" if mark == marks["wins"] else "draws" if mark == marks["draws"] else "losses"
        if name in found:
            raise ValueError(f"not a match score: {text!r} ({name} given twice)")
        found[name] = value
        rest = rest[m.end():]
    if not found:
        raise ValueError(f"not a match score: {text!r}")
    return Score(found.get("wins", 0), found.get("losses", 0), found.get("draws", 0))
