"""``game_end`` fixtures: hand-built sequences judged by the Laws, per ruleset family.

Each case states the expected verdict for the FIDE 2018/2023 family, for FIDE 2014
and for US Chess 7 (where the text decides), written from the articles: checkmate,
stalemate and dead positions end the game; threefold and fifty are claims (also with
an intended move, FIDE 9.2.1/9.3.1); fivefold and seventy-five are automatic under
FIDE (2014: five *consecutive alternate* moves); under US Chess 14K both are left to
the director's discretion, so they are not automatic. The FIDE verdicts are checked
against python-chess (``outcome()``, ``can_claim_*``); where python-chess differs
from the Laws the fixture says which is right and is tagged ``python-chess-differs``.

Run: ``python -m conformance.tools.generate.game_end --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess

from .common import ORACLE, Fixture, OracleMismatch, checked_board, fixture, main

FIDE_NEW = ["fide-2023", "fide-2023-rapid", "fide-2023-blitz", "fide-2018"]
FAMILIES: dict[str, list[str]] = {"fide": FIDE_NEW, "fide-2014": ["fide-2014"],
                                  # US Chess blitz states no game-ending rule of its own
                                  "uscf": ["uscf-7", "uscf-7-blitz"], "uscf-blitz": ["uscf-7-blitz"],
                                  "chess960": ["fide-2023-chess960"]}
START = chess.STARTING_FEN
SHUFFLE = "Nf3 Nf6 Ng1 Ng8"
Verdict = tuple[str, str | None, tuple[str, ...]]
ONGOING: Verdict = ("*", None, ())
THREEFOLD: Verdict = ("*", None, ("threefold_repetition",))
FIFTY: Verdict = ("*", None, ("fifty_moves",))
BOTH: Verdict = ("*", None, ("threefold_repetition", "fifty_moves"))
DRAW_DEAD: Verdict = ("1/2-1/2", "dead_position", ())
FIVEFOLD: Verdict = ("1/2-1/2", "fivefold_repetition", ())
Q_INTENDED = ("FIDE 2023 9.2.1: the position 'is about to appear, if he/she first indicates his/her move, "
              "which cannot be changed, by writing it on the paper scoresheet or entering it on the "
              "electronic scoresheet and declares to the arbiter his/her intention to make this move'; "
              "2018 9.2.1.1: 'is about to appear, if he first writes his move, which cannot be changed, on "
              "his scoresheet and declares to the arbiter his intention to make this move'; 2014 9.2 a "
              "alike; US Chess 14C: 'about to appear for at least the third time', 14C2: 'write this move "
              "on the scoresheet but not play the move on the board'")
Q_FIFTY_INTENDED = ("FIDE 2023 9.3.1: 'he/she indicates his/her move, which cannot be changed, by writing it "
                    "on the paper scoresheet or entering it on the electronic scoresheet and declares to "
                    "the arbiter his/her intention to make this move which will result in the last 50 "
                    "moves by each player having been made without the movement of any pawn and without "
                    "any capture'; 2018 9.3.1: 'he writes his move, which cannot be changed, on his "
                    "scoresheet' and the rest alike; 2014 9.3 a alike")
Q_SEVENTY_FIVE = ("FIDE 2023 9.6.2: 'any series of at least 75 moves have been made by each player without "
                  "the movement of any pawn and without any capture. If the last move resulted in "
                  "checkmate, that shall take precedence'; 2018 9.6.2: '... If the last move results in "
                  "mate, it has priority'; 2014 9.6 b: 'any consecutive series of 75 moves'; US Chess "
                  "14K2: the director 'may' declare the draw, 'if the last move resulted in checkmate, "
                  "that shall take precedence'")
Q_14D4 = ("US Chess 14D: 'the game is drawn when one of the following endings exists as of the most "
          "recently determined legal move, in which the possibility of a win is excluded for either "
          "side'; 14D4: 'there are no legal moves that could lead to the player being checkmated by the "
          "opponent'. Read literally 14D4 is one-sided (a draw once one player can no longer be mated); "
          "the heading and 14D1-14D3 read two-sided. The uscf-7 table encodes the two-sided reading "
          "(termination.dead_position.test: neither_can_checkmate): the side with the lone king can "
          "still be mated, so the game goes on; FIDE 5.2.2 is two-sided: 'neither player can checkmate'")
SEVENTY_FIVE: Verdict = ("1/2-1/2", "seventy_five_moves", ())


@dataclass(frozen=True)
class Case:
    """One sequence and its verdict per ruleset family (a missing family is omitted)."""

    name: str
    fen: str
    san: str
    description: str
    verdicts: dict[str, Verdict]
    cites: tuple[str, ...]
    tags: tuple[str, ...] = ()
    python_chess: str = ""  # non-empty: python-chess differs, and why the Laws win
    extra: dict[str, Any] = field(default_factory=dict)
    quote: str = ""  # the article's words that decide, added to source.detail


def every(verdict: Verdict, uscf_blitz: bool = False, chess960: bool = True) -> dict[str, Verdict]:
    """The same verdict under every family."""
    out = {"fide": verdict, "fide-2014": verdict, "uscf": verdict}
    if uscf_blitz:
        out["uscf-blitz"] = verdict
    if chess960:
        out["chess960"] = verdict
    return out


CASES: list[Case] = [
    Case("fools-mate", START, "f3 e5 g4 Qh4#", "Black mates on move 2",
         every(("0-1", "checkmate", ()), uscf_blitz=True), ("fide-2023:5.1.1", "uscf-7:13A"),
         ("checkmate",)),
    Case("scholars-mate", START, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#", "White mates on move 4",
         every(("1-0", "checkmate", ()), uscf_blitz=True), ("fide-2023:5.1.1", "uscf-7:13A"),
         ("checkmate",)),
    Case("loyd-stalemate", START,
         "e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6",
         "the ten-move stalemate (S. Loyd)", every(("1/2-1/2", "stalemate", ()), uscf_blitz=True),
         ("fide-2023:5.2.1", "uscf-7:14A"), ("stalemate",)),
    Case("queen-stalemate", "7k/5Q2/8/8/8/8/8/K7 w - - 0 1", "Qg6", "Qg6 leaves Black no move",
         every(("1/2-1/2", "stalemate", ()), uscf_blitz=True), ("fide-2023:5.2.1", "uscf-7:14A"),
         ("stalemate",)),
    Case("capture-to-k-v-k", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "Kxd2",
         "the last capture leaves king against king", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D1"), ("dead-position", "insufficient-material")),
    Case("capture-to-k-v-k-black", "4k3/3Q4/8/8/8/8/8/4K3 b - - 0 1", "Kxd7",
         "Black takes the checking queen: king against king", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D1"), ("dead-position", "insufficient-material")),
    Case("exchange-to-k-v-k", "8/8/8/3k4/3r4/8/3R4/4K3 w - - 0 1", "Rxd4+ Kxd4",
         "rooks exchanged: king against king", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D1"), ("dead-position", "insufficient-material")),
    Case("capture-to-kb-v-k", "4k3/8/8/8/8/8/3n4/4KB2 w - - 0 1", "Kxd2",
         "the capture leaves king and bishop against king", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D2"), ("dead-position", "insufficient-material")),
    Case("capture-to-kn-v-k", "4k3/8/8/8/8/8/3n4/4K1N1 w - - 0 1", "Kxd2",
         "the capture leaves king and knight against king", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D2"), ("dead-position", "insufficient-material")),
    Case("capture-to-k-v-kb-black", "4k3/3Q4/8/8/8/8/8/4K1b1 b - - 0 1", "Kxd7",
         "Black takes the checking queen: king against king and bishop", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D2"), ("dead-position", "insufficient-material")),
    Case("capture-to-same-colour-bishops", "4k3/8/5b2/8/8/8/3n4/4K1B1 w - - 0 1", "Kxd2",
         "bishops on squares of one colour remain", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D3"), ("dead-position", "insufficient-material")),
    Case("same-colour-bishops-black-captures", "4k3/3Q4/2b5/8/8/8/8/4KB2 b - - 0 1", "Kxd7",
         "after Kxd7 one bishop each, both on light squares", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D3"), ("dead-position", "insufficient-material")),
    Case("same-colour-bishops-light", "4k3/8/8/8/2b5/8/3n4/4KB2 w - - 0 1", "Kxd2",
         "after Kxd2 one bishop each, c4 and f1 both light", every(DRAW_DEAD),
         ("fide-2023:5.2.2", "uscf-7:14D3"), ("dead-position", "insufficient-material")),
    Case("opposite-bishops-live", "4k3/8/4b3/8/8/8/3n4/4K1B1 w - - 0 1", "Kxd2",
         "bishops on opposite colours: not dead", every(ONGOING),
         ("fide-2023:5.2.2",), ("insufficient-material",)),
    Case("blocked-pawns-dead", "8/2k5/8/1p1p2p1/1P1P2P1/8/2K5/8 w - - 0 1", "",
         "a locked pawn wall no king can pass: dead (labelled '--' in the unwinnability data)",
         {"fide": DRAW_DEAD, "fide-2014": DRAW_DEAD, "chess960": DRAW_DEAD},
         ("fide-2023:5.2.2",), ("dead-position", "blocked-pawns"),
         python_chess="python-chess reports only material draws; FIDE 5.2.2 makes any "
                      "position dead in which neither side can checkmate (labelled data)"),
    Case("threefold-start", START, f"{SHUFFLE} {SHUFFLE}",
         "the initial position for the third time (it counts as an occurrence)",
         every(THREEFOLD), ("fide-2023:9.2.2", "fide-2023:9.2.3", "uscf-7:14C"),
         ("threefold-repetition",)),
    Case("threefold-intended-move", START, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1",
         "Black may claim by writing Ng8, which repeats the position a third time",
         every(THREEFOLD), ("fide-2023:9.2.1", "uscf-7:14C"), ("threefold-repetition",), quote=Q_INTENDED),
    Case("threefold-intended-move-white",
         "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
         "Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
         "White may claim by writing Nf3, which repeats the FEN's position a third time",
         every(THREEFOLD), ("fide-2023:9.2.1", "uscf-7:14C"), ("threefold-repetition",), quote=Q_INTENDED),
    Case("threefold-intended-move-endgame", "4k3/8/8/8/8/8/8/4K1NR w - - 10 80",
         "Nf3 Ke7 Ng1 Ke8 Nf3 Ke7 Ng1",
         "Black may claim by writing Ke8, which repeats the FEN's position a third time",
         every(THREEFOLD), ("fide-2023:9.2.1", "uscf-7:14C"), ("threefold-repetition",), quote=Q_INTENDED),
    Case("twofold-only", START, SHUFFLE, "the initial position twice: no claim",
         every(ONGOING), ("fide-2023:9.2",), ("threefold-repetition",)),
    Case("twofold-black-to-move", START, "Nf3 Nf6 Ng1 Ng8 Nf3",
         "the position after 1.Nf3 twice: no claim, and ...Nf6 makes only a second",
         every(ONGOING), ("fide-2023:9.2",), ("threefold-repetition",)),
    Case("twofold-endgame", "4k3/8/8/8/8/8/8/4K1NR w - - 10 80", "Nf3 Ke7 Ng1 Ke8",
         "the FEN's position twice: no claim", every(ONGOING), ("fide-2023:9.2",),
         ("threefold-repetition",)),
    Case("threefold-ep-unavailable", START, "e4 e5 Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8",
         "the e.p. square written after 1...e5 allows no capture, so the position "
         "after 1...e5 occurs three times; the two cycles differ, so no intended move "
         "repeats anything a third time", every(THREEFOLD),
         ("fide-2023:9.2.3", "fide-2023:9.2.3.1"), ("threefold-repetition",
                                                     "repetition-en-passant")),
    Case("threefold-ep-pinned", "8/8/8/8/4p3/8/R2P3k/K7 w - - 0 37",
         "d4 Kh3 Ra3 Kh2 Ra2 Kh1 Ra3 Kh2 Ra2",
         "the e.p. capture after d4 was illegal (pinned), so it does not count",
         every(THREEFOLD), ("fide-2023:9.2.3.1",), ("threefold-repetition",
                                                    "repetition-en-passant")),
    Case("ep-first-position-differs", "4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1",
         "e4 Kd7 Nf3 Ke8 Ng1 Kf7 Nh3 Ke8 Ng1",
         "the same placement three times, but the first had a legal e.p. capture: only two "
         "occurrences in law, and no move makes a third", every(ONGOING),
         ("fide-2023:9.2.3.1",), ("threefold-repetition", "repetition-en-passant")),
    Case("ep-first-position-then-third", "4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1",
         "e4 Kd7 Nf3 Ke8 Ng1 Kf7 Nh3 Ke8 Ng1 Kd7 Nf3 Ke8 Ng1",
         "after one more cycle the position without e.p. occurs a third time",
         every(THREEFOLD), ("fide-2023:9.2.3.1",),
         ("threefold-repetition", "repetition-en-passant")),
    Case("ep-fivefold-needs-law", "4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1",
         "e4 " + " ".join(["Kd7 Nf3 Ke8 Ng1"] * 4),
         "five identical placements, the first with a legal e.p. capture: four in law, "
         "so no automatic draw", every(THREEFOLD),
         ("fide-2023:9.2.3.1", "fide-2023:9.6.1"), ("fivefold-repetition",
                                                    "repetition-en-passant")),
    Case("castling-rights-differ", START, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Rg1 Rg8 Rh1 Rh8",
         "the rooks went back, but castling rights were lost: only two occurrences",
         every(ONGOING), ("fide-2023:9.2.3.2",), ("repetition-castling",)),
    Case("castling-rights-differ-third", START,
         "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Rg1 Rg8 Rh1 Rh8 Rg1 Rg8 Rh1 Rh8",
         "without castling rights the position occurs a third time", every(THREEFOLD),
         ("fide-2023:9.2.3.2",), ("repetition-castling", "threefold-repetition")),
    Case("castling-rights-differ-black", START, "Nf3 Nf6 Ng1 Rg8 Nf3 Rh8 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
         "the initial placement three times, but Black's king-side right was lost after the "
         "first: two occurrences, and no move makes a third", every(ONGOING),
         ("fide-2023:9.2.3.2",), ("repetition-castling",)),
    Case("fivefold-consecutive", START, " ".join([SHUFFLE] * 4),
         "the initial position five times in consecutive alternate moves",
         {"fide": FIVEFOLD, "fide-2014": FIVEFOLD, "uscf": THREEFOLD, "chess960": FIVEFOLD},
         ("fide-2023:9.6.1", "fide-2014:9.6.a", "uscf-7:14K1"),
         ("fivefold-repetition", "discretionary")),
    Case("fivefold-not-consecutive", START,
         f"{SHUFFLE} {SHUFFLE} Nf3 Nf6 Nc3 Nc6 Nb1 Nb8 Ng1 Ng8 {SHUFFLE}",
         "five occurrences with a longer cycle in between: fivefold since 2017, but not "
         "'five consecutive alternate moves' (FIDE 2014, US Chess 14K1)",
         {"fide": FIVEFOLD, "fide-2014": THREEFOLD, "uscf": THREEFOLD, "chess960": FIVEFOLD},
         ("fide-2023:9.6.1", "fide-2014:9.6.a", "uscf-7:14K1"),
         ("fivefold-repetition", "discretionary")),
    Case("fourfold-start", START, " ".join([SHUFFLE] * 3),
         "the initial position four times: a threefold claim, not yet the automatic draw",
         every(THREEFOLD), ("fide-2023:9.6.1", "fide-2023:9.2.2", "fide-2014:9.6.a"),
         ("fivefold-repetition", "threefold-repetition")),
    Case("fourfold-black-to-move", START, "Nf3 " + " ".join(["Nf6 Ng1 Ng8 Nf3"] * 3),
         "the position after 1.Nf3 four times: Black may claim; not yet automatic",
         every(THREEFOLD), ("fide-2023:9.6.1", "fide-2023:9.2.2", "fide-2014:9.6.a"),
         ("fivefold-repetition", "threefold-repetition")),
    Case("fivefold-endgame", "4k3/8/8/8/8/8/8/4K1NR w - - 10 80", " ".join(["Nf3 Ke7 Ng1 Ke8"] * 4),
         "the FEN's position five times in consecutive alternate moves",
         {"fide": FIVEFOLD, "fide-2014": FIVEFOLD, "uscf": THREEFOLD, "chess960": FIVEFOLD},
         ("fide-2023:9.6.1", "fide-2014:9.6.a", "uscf-7:14K1"),
         ("fivefold-repetition", "discretionary")),
    Case("fivefold-black-to-move", START, "Nf3 " + " ".join(["Nf6 Ng1 Ng8 Nf3"] * 4),
         "the position after 1.Nf3 five times in consecutive alternate moves",
         {"fide": FIVEFOLD, "fide-2014": FIVEFOLD, "uscf": THREEFOLD, "chess960": FIVEFOLD},
         ("fide-2023:9.6.1", "fide-2014:9.6.a", "uscf-7:14K1"),
         ("fivefold-repetition", "discretionary")),
    Case("seventy-five", "7k/8/6K1/8/8/8/8/1Q6 w - - 149 150", "Qb7",
         "the 75th move by each player without pawn move or capture",
         {"fide": SEVENTY_FIVE, "fide-2014": SEVENTY_FIVE, "uscf": FIFTY,
          "chess960": SEVENTY_FIVE},
         ("fide-2023:9.6.2", "fide-2014:9.6.b", "uscf-7:14K2"),
         ("seventy-five-moves", "discretionary"), quote=Q_SEVENTY_FIVE),
    Case("mate-on-75th", "7k/8/6K1/8/8/8/8/1Q6 w - - 149 150", "Qb8#",
         "checkmate on the move that completes 75 moves takes precedence",
         every(("1-0", "checkmate", ()), uscf_blitz=True),
         ("fide-2023:9.6.2", "fide-2023:5.1.1", "uscf-7:14K2"),
         ("seventy-five-moves", "mate-beats-move-rule", "checkmate"), quote=Q_SEVENTY_FIVE),
    Case("mate-on-75th-black", "1q6/8/8/8/8/6k1/8/7K b - - 149 150", "Qb1#",
         "Black mates on the move that completes 75 moves: the mate stands",
         every(("0-1", "checkmate", ()), uscf_blitz=True),
         ("fide-2023:9.6.2", "fide-2023:5.1.1", "uscf-7:14K2"),
         ("seventy-five-moves", "mate-beats-move-rule", "checkmate"), quote=Q_SEVENTY_FIVE),
    Case("mate-on-75th-after-moves", "7k/8/6K1/8/8/8/8/1Q6 w - - 145 148", "Qc1 Kg8 Qb1 Kh8 Qb8#",
         "four quiet plies, then mate on the 150th ply without pawn move or capture",
         every(("1-0", "checkmate", ()), uscf_blitz=True),
         ("fide-2023:9.6.2", "fide-2023:5.1.1", "uscf-7:14K2"),
         ("seventy-five-moves", "mate-beats-move-rule", "checkmate"), quote=Q_SEVENTY_FIVE),
    Case("mate-on-50th", "7k/8/6K1/8/8/8/8/1Q6 w - - 99 150", "Qb8#",
         "checkmate on the 100th ply ends the game before any fifty-move claim",
         every(("1-0", "checkmate", ()), uscf_blitz=True), ("fide-2023:5.1.1", "fide-2023:9.3"),
         ("fifty-moves", "mate-beats-move-rule", "checkmate")),
    Case("fifty-completed", "8/7k/8/6R1/1r3B2/5K2/8/8 b - - 100 119", "",
         "fifty moves by each player completed: the player to move may claim",
         every(FIFTY), ("fide-2023:9.3.2", "uscf-7:14F1"), ("fifty-moves",)),
    Case("fifty-completed-after-moves", "6R1/7k/8/8/1r3B2/5K2/8/8 w - - 98 119", "Ke3 Rb5",
         "two quiet plies complete fifty moves by each player: the player to move may claim",
         every(FIFTY), ("fide-2023:9.3.2", "uscf-7:14F1"), ("fifty-moves",)),
    Case("fifty-intended-move", "6R1/7k/8/8/1r3B2/5K2/8/8 w - - 99 119", "",
         "White may claim by writing a move that completes the fifty",
         {"fide": FIFTY, "fide-2014": FIFTY, "chess960": FIFTY}, ("fide-2023:9.3.1",),
         ("fifty-moves",), quote=Q_FIFTY_INTENDED),
    Case("fifty-intended-move-black", "8/7k/8/6R1/1r3B2/5K2/8/8 b - - 99 119", "",
         "Black may claim by writing a move that completes the fifty",
         {"fide": FIFTY, "fide-2014": FIFTY, "chess960": FIFTY}, ("fide-2023:9.3.1",),
         ("fifty-moves",), quote=Q_FIFTY_INTENDED),
    Case("fifty-intended-after-moves", "6R1/7k/8/8/1r3B2/5K2/8/8 w - - 97 118", "Ke3 Rb5",
         "after two quiet plies White may claim by writing a move that completes the fifty",
         {"fide": FIFTY, "fide-2014": FIFTY, "chess960": FIFTY}, ("fide-2023:9.3.1",),
         ("fifty-moves",), quote=Q_FIFTY_INTENDED),
    Case("fifty-not-yet", "6R1/7k/8/8/1r3B2/5K2/8/8 w - - 98 119", "",
         "one ply short even with an intended move", every(ONGOING), ("fide-2023:9.3",),
         ("fifty-moves", "one-ply-short")),
    Case("fifty-not-yet-black", "8/7k/8/6R1/1r3B2/5K2/8/8 b - - 98 119", "",
         "Black is one ply short even with an intended move", every(ONGOING),
         ("fide-2023:9.3",), ("fifty-moves", "one-ply-short")),
    Case("fifty-not-yet-after-moves", "4k3/8/8/8/8/8/8/4K1NR w - - 94 80", "Nf3 Ke7 Ng1 Kf7",
         "four quiet plies bring the count to 98: one ply short even with an intended move",
         every(ONGOING), ("fide-2023:9.3",), ("fifty-moves", "one-ply-short")),
    Case("fifty-and-threefold", "4k3/8/8/8/8/8/8/4K1NR w - - 96 80",
         "Nf3 Ke7 Ng1 Ke8 Nf3 Ke7 Ng1 Ke8",
         "both a threefold repetition and fifty moves may be claimed", every(BOTH),
         ("fide-2023:9.2.2", "fide-2023:9.3.2", "uscf-7:14C", "uscf-7:14F1"),
         ("fifty-moves", "threefold-repetition")),
    Case("fischer-petrosian-1971", "8/pp3p1k/2p2q1p/3r1P2/5R2/7P/P1P1QP2/7K b - - 2 30",
         "Qe5 Qh5 Qf6 Qe2 Re5 Qd3 Rd5 Qe2",
         "Fischer-Petrosian, Buenos Aires 1971: after 34.Qe2 the starting position occurs "
         "for the third time", every(THREEFOLD),
         ("fide-2023:9.2.2", "fide-2023:9.2.3"), ("threefold-repetition",)),
    Case("pinned-ep-repetition", "6k1/1p2p1rp/rP1pR3/2pP1pP1/p1P2P1P/R5K1/8/8 b - - 0 1",
         "h5 Rh6 Rh7 Re6 Rg7 Rb3 Ra5 Ra3 Ra6",
         "after ...h5 the e.p. capture gxh6 would expose the king, so the position after "
         "...h5 counts with the two later ones: threefold; the two cycles differ, so no "
         "intended move repeats anything a third time", every(THREEFOLD),
         ("fide-2023:9.2.3", "fide-2023:9.2.3.1"),
         ("threefold-repetition", "repetition-en-passant", "pin")),
    Case("pinned-ep-repetition-diagonal", "n7/8/2k5/8/4p3/8/3P2B1/4K2N w - - 0 1",
         "d4 Nb6 Nf2 Na8 Nh1 Nc7 Ng3 Na8 Nh1",
         "after d4 the e.p. capture exd3 would open the bishop's diagonal to the king, so "
         "the position after d4 counts with the two later ones: threefold", every(THREEFOLD),
         ("fide-2023:9.2.3", "fide-2023:9.2.3.1"),
         ("threefold-repetition", "repetition-en-passant", "pin")),
    Case("pinned-ep-repetition-rank", "b7/8/8/8/k3p2R/8/3P4/4K3 w - - 0 1",
         "d4 Bb7 Kf1 Ba8 Ke1 Bc6 Kd1 Ba8 Ke1",
         "after d4 the e.p. capture exd3 would take both pawns off the fourth rank and open "
         "it to the rook, so the position after d4 counts with the two later ones: threefold",
         every(THREEFOLD), ("fide-2023:9.2.3", "fide-2023:9.2.3.1"),
         ("threefold-repetition", "repetition-en-passant", "pin")),
    Case("checkmated-past-fifty", "k7/8/NKB5/8/8/8/8/8 b - - 105 176", "",
         "checkmate stands however high the halfmove clock", every(("1-0", "checkmate", ())),
         ("fide-2023:5.1.1", "uscf-7:13A"), ("checkmate", "fifty-moves",
                                              "mate-beats-move-rule")),
    Case("stalemated-at-99", "k7/3N4/1K6/1B6/8/8/8/8 b - - 99 60", "",
         "stalemate ends the game; no fifty-move claim remains", every(("1/2-1/2", "stalemate",
                                                                        ())),
         ("fide-2023:5.2.1", "uscf-7:14A"), ("stalemate", "fifty-moves")),
    *[Case(f"uscf-14d4-two-sided.{name}", fen, san, f"{what}: one player can no longer be checkmated, "
           "the other can: not dead under the two-sided reading of 14D4 the US Chess table encodes",
           every(ONGOING, uscf_blitz=True), ("fide-2023:5.2.2", "uscf-7:14D", "uscf-7:14D4"),
           ("insufficient-material", "open-reading"), quote=Q_14D4)
      for name, fen, san, what in (
          ("rook", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra7", "king and rook against a lone king"),
          ("queen", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qd5", "king and queen against a lone king"),
          ("pawn", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e4", "king and pawn against a lone king"),
          ("black-rook", "r3k3/8/8/8/8/8/8/4K3 b - - 0 1", "Ra2", "Black's king and rook against a lone "
           "king"))],
    Case("fifty-reset-by-capture", "4k3/8/8/8/8/8/3q4/4K1NR w - - 99 80", "Kxd2",
         "a capture on the 100th ply resets the count", every(ONGOING),
         ("fide-2023:9.3",), ("fifty-moves",)),
]


def _outcome(board: chess.Board) -> Verdict:
    """python-chess's verdict in the kind's vocabulary."""
    reasons = {chess.Termination.CHECKMATE: "checkmate", chess.Termination.STALEMATE: "stalemate",
               chess.Termination.INSUFFICIENT_MATERIAL: "dead_position",
               chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition",
               chess.Termination.SEVENTYFIVE_MOVES: "seventy_five_moves"}
    outcome = board.outcome()
    if outcome is not None:
        return outcome.result(), reasons[outcome.termination], ()
    claims = []
    if board.can_claim_threefold_repetition():
        claims.append("threefold_repetition")
    if board.can_claim_fifty_moves():
        claims.append("fifty_moves")
    return "*", None, tuple(claims)


def _as_result(verdict: Verdict) -> dict[str, Any]:
    return {"result": verdict[0], "reason": verdict[1], "claimable": list(verdict[2])}


def case_fixture(case: Case) -> Fixture:
    """One fixture per case, cross-checked against python-chess for FIDE 2018/2023."""
    board = checked_board(case.fen)
    moves = []
    for san in case.san.split():
        move = board.parse_san(san)
        moves.append(move.uci())
        board.push(move)
    oracle = _outcome(board)
    fide = case.verdicts["fide"]
    if (oracle != fide) != bool(case.python_chess):
        raise OracleMismatch(f"game.{case.name}: Laws {fide}, {ORACLE} {oracle}")
    by_ruleset = {r: _as_result(v) for family, v in case.verdicts.items()
                  for r in FAMILIES[family]}
    # python-chess implements FIDE 2017+; other editions and US Chess may differ from it.
    differs = bool(case.python_chess) or any(v != _as_result(oracle)
                                             for v in by_ruleset.values())
    rulesets = list(by_ruleset)
    same = len({str(v) for v in by_ruleset.values()}) == 1
    detail = ("Laws' text applied by hand; " + (
        f"{ORACLE} outcome()/can_claim_* agree for FIDE 2018/2023" if not case.python_chess
        else f"{ORACLE} says {oracle}: {case.python_chess}"))
    if case.quote:
        detail = f"{case.quote}; {detail}"
    if differs and not case.python_chess:
        detail += ("; python-chess follows FIDE 2017+ only, so it differs where FIDE 2014 "
                   "or US Chess 14K decide otherwise (the Laws' text is right for them)")
    return fixture(f"game.{case.name}", "game_end", case.description, rulesets,
                   {"fen": case.fen, "moves": moves},
                   expect=_as_result(fide) if same else None,
                   expect_by_ruleset=None if same else by_ruleset,
                   cites=case.cites, tags=set(case.tags) | {"hand-built"}
                   | ({"python-chess-differs"} if differs else set()),
                   method="laws+oracle" if not case.python_chess else "laws+labelled",
                   detail=detail)


#: Plies of each random game kept in its fixture (the FEN is the position before them).
TAIL = 16
#: How many random games to keep per python-chess termination.
RANDOM_QUOTA = {"checkmate": 60, "stalemate": 30, "dead_position": 50,
                "seventy_five_moves": 40, "fivefold_repetition": 0}  # fivefold: too rare


def random_fixtures(seed: int = 70, games: int = 3000) -> list[Fixture]:
    """Random games played until python-chess's ``outcome()`` ends them.

    FIDE 2018/2023 take python-chess's verdict (it implements 5.1.1, 5.2.1, 9.6.1,
    9.6.2 and a sound subset of 5.2.2). FIDE 2014 agrees except on fivefold (omitted
    there); US Chess agrees on mate, stalemate and dead positions, while 14K leaves
    fivefold and seventy-five moves to the director: "*" with the claims open.
    """
    rng = random.Random(seed)
    kept: dict[str, int] = {k: 0 for k in RANDOM_QUOTA}
    out = []
    for game in range(games):
        played = chess.Board()
        while played.outcome() is None:
            played.push(rng.choice(list(played.legal_moves)))
        reason = str(_outcome(played)[1])
        if kept[reason] >= RANDOM_QUOTA[reason]:
            continue
        kept[reason] += 1
        # The fixture starts TAIL plies before the end; history before its FEN is unknown,
        # so the verdict is recomputed from that FEN on.
        tail = played.move_stack[-TAIL:]
        start = chess.Board()
        for move in played.move_stack[:-TAIL]:
            start.push(move)
        start_fen = start.fen()
        board = chess.Board(start_fen)
        for move in tail:
            board.push(move)
        verdict = _outcome(board)
        if str(verdict[1]) != reason:
            raise OracleMismatch(f"game.random.s{seed}-{game:04d}: {verdict} after the cut")
        moves = [m.uci() for m in tail]
        castled = any(_replay_is_castling(chess.Board(start_fen), tail))
        fide = _as_result(verdict)
        by_ruleset = {r: fide for r in FIDE_NEW}
        if reason != "fivefold_repetition":
            by_ruleset["fide-2014"] = fide
        if reason in ("fivefold_repetition", "seventy_five_moves"):
            claims = [name for name, ok in (
                ("threefold_repetition", board.can_claim_threefold_repetition()),
                ("fifty_moves", board.can_claim_fifty_moves())) if ok]
            by_ruleset["uscf-7"] = {"result": "*", "reason": None, "claimable": claims}
        else:
            by_ruleset["uscf-7"] = fide
        if not castled:
            by_ruleset["fide-2023-chess960"] = fide
        same = len({str(v) for v in by_ruleset.values()}) == 1
        differs = not same  # python-chess gives the FIDE 2018+ verdict for every ruleset
        cites = {"checkmate": ["fide-2023:5.1.1", "uscf-7:13A"],
                 "stalemate": ["fide-2023:5.2.1", "uscf-7:14A"],
                 "dead_position": ["fide-2023:5.2.2", "uscf-7:14D"],
                 "seventy_five_moves": ["fide-2023:9.6.2", "fide-2014:9.6.b", "uscf-7:14K2"],
                 "fivefold_repetition": ["fide-2023:9.6.1", "uscf-7:14K1"]}[reason]
        tags = {"random", {"checkmate": "checkmate", "stalemate": "stalemate",
                           "dead_position": "dead-position",
                           "seventy_five_moves": "seventy-five-moves",
                           "fivefold_repetition": "fivefold-repetition"}[reason]}
        if differs:
            tags |= {"python-chess-differs", "discretionary"}
        out.append(fixture(
            f"game.random.s{seed}-{game:04d}", "game_end",
            f"last {len(moves)} plies of a random game of {len(played.move_stack)} plies "
            f"ending by {reason}", list(by_ruleset), {"fen": start_fen, "moves": moves},
            expect=fide if same else None, expect_by_ruleset=None if same else by_ruleset,
            cites=cites, tags=tags, method="oracle+laws",
            detail=f"{ORACLE} outcome() for FIDE 2018/2023; other rulesets by hand from "
                   "their articles (2014 fivefold omitted; US Chess 14K not automatic)"))
        if all(kept[k] >= q for k, q in RANDOM_QUOTA.items()):
            break
    return out


def _replay_is_castling(board: chess.Board, moves: list[chess.Move]) -> list[bool]:
    flags = []
    for move in moves:
        flags.append(board.is_castling(move))
        board.push(move)
    return flags


def build(data: Path) -> dict[str, list[Fixture]]:
    """game_end fixtures: hand-built cases and random games."""
    del data
    return {"game_end.jsonl": [case_fixture(case) for case in CASES] + random_fixtures()}


if __name__ == "__main__":
    sys.exit(main("game_end", build))
