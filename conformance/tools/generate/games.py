"""``game`` fixtures: whole games as events, judged by hand from the Laws, per ruleset.

Each case is one sequence of events (moves with their times, claims with or without an
intended move, offers, resignations, flags, touches, completed illegal moves) and the
verdict the Laws give under each ruleset: the result, the reason, the clocks where a
time control is given, or ``rejected`` for an event the rules forbid. Where the FIDE
editions or US Chess differ, one case carries every ruleset's expectation.

Clock times are worked out by hand in milliseconds: a move's time is taken from the
mover's clock and the increment added after it (FIDE 6.3.1, US Chess 5B1b); under a
simple delay only the time beyond the delay counts, under a Bronstein delay the time
used up to the delay is given back (FIDE 6.3.2, US Chess 5B1a); a completed period
adds the next period's time to what is left (FIDE 6.3.2, US Chess 5D). The regime of
the penalties follows the time control's speed class (FIDE A.1/B.1: base plus 60
increments; US Chess 5C: base plus delay or increment): ``5400+30`` standard, ``900+10``
rapid (US Chess quick, penalised as regular), ``180+2`` blitz; without a time control,
the ruleset's own speed.

Nothing here asks the reference implementation; python-chess checks every FEN.

Run: ``python -m conformance.tools.generate.games --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import Fixture, checked_board, fixture, main

F23, F23R, F23B, F18, F14 = "fide-2023", "fide-2023-rapid", "fide-2023-blitz", "fide-2018", "fide-2014"
US, USB = "uscf-7", "uscf-7-blitz"
FIDE = (F23, F23R, F23B, F18, F14)
FIDE_2017 = (F23, F23R, F23B, F18)  #: the editions since the 2017 renumbering
ALL = FIDE + (US, USB)
Expect = dict[str, Any]
REJECTED: Expect = {"error": "rejected"}
ONGOING: Expect = {"result": "*", "reason": None}


def res(result: str, reason: str | None, white: int | None = None, black: int | None = None) -> Expect:
    """An expected result; clocks in milliseconds when given."""
    out: Expect = {"result": result, "reason": reason}
    if white is not None:
        out["clock_ms"] = {"white": white, "black": black}
    return out


def mv(*moves: str) -> list[dict[str, Any]]:
    return [{"move": m} for m in moves]


def timed(*pairs: tuple[str, float]) -> list[dict[str, Any]]:
    return [{"move": m, "seconds": s} for m, s in pairs]


@dataclass(frozen=True)
class Case:
    """One game and its verdicts: ``by`` maps ruleset ids to expectations (all rulesets
    not named get ``default``)."""

    name: str
    description: str
    events: list[dict[str, Any]]
    cites: tuple[str, ...]
    tags: tuple[str, ...]
    detail: str
    default: Expect | None = None
    by: tuple[tuple[tuple[str, ...], Expect], ...] = ()
    fen: str | None = None
    time_control: str | None = None
    rulesets: tuple[str, ...] = ALL
    #: the optional ``supervised`` input key (an addition to the pinned input); None: absent
    supervised: bool | None = None
    #: how the verdict was established (``source.method``)
    method: str = "laws"
    #: check ``fen`` as a Chess960 position (castling rights by rook file)
    chess960: bool = False


def verdicts(case: Case) -> dict[str, Expect]:
    out = {r: case.default for r in case.rulesets if case.default is not None}
    for names, expect in case.by:
        out.update({r: expect for r in names if r in case.rulesets})
    missing = [r for r in case.rulesets if r not in out]
    if missing:
        raise ValueError(f"{case.name}: no expectation for {missing}")
    return out


def case_fixture(case: Case) -> Fixture:
    if case.fen is not None:
        checked_board(case.fen, chess960=case.chess960)
    inp: dict[str, Any] = {"fen": case.fen, "time_control": case.time_control, "events": case.events}
    if case.supervised is not None:
        inp["supervised"] = case.supervised
    found = verdicts(case)
    same = all(v == found[case.rulesets[0]] for v in found.values())
    common: dict[str, Any] = dict(cites=case.cites, tags=("hand-built",) + case.tags,
                                  method=case.method, detail=case.detail)
    fid = f"game.{case.name}"
    if same and set(case.rulesets) == set(ALL):
        return fixture(fid, "game", case.description, ["*"], inp, expect=found[case.rulesets[0]], **common)
    if same:
        return fixture(fid, "game", case.description, list(case.rulesets), inp,
                       expect=found[case.rulesets[0]], **common)
    return fixture(fid, "game", case.description, list(case.rulesets), inp, expect_by_ruleset=found, **common)


# --- touch-move -----------------------------------------------------------------------

TOUCH_OWN = ("fide-2023:4.3.1", "fide-2014:4.3.a", "uscf-7:10B")
TOUCH_THEIRS = ("fide-2023:4.3.2", "fide-2014:4.3.b", "uscf-7:10B")
TOUCH_BOTH = ("fide-2023:4.3.3", "fide-2014:4.3.c", "uscf-7:10C")
TOUCH_NONE = ("fide-2023:4.5", "fide-2014:4.5", "uscf-7:10D")
TOUCH_CASTLE = ("fide-2023:4.4.1", "fide-2014:4.4.a", "uscf-7:10I1")
TOUCH_ROOK = ("fide-2023:4.4.2", "fide-2014:4.4.b", "uscf-7:10I2")
TOUCH_KING_ELSE = ("fide-2023:4.4.3", "fide-2014:4.4.c", "uscf-7:10I1")
Q_OWN = ("4.3.1: 'if the player having the move touches one or more of his/her own pieces, "
         "he/she must move the first piece touched that can be moved' (2014 4.3 a; US Chess 10B)")
Q_THEIRS = ("4.3.2: 'one or more of his/her opponent's pieces, he/she must capture the first piece "
            "touched that can be captured' (2014 4.3 b; US Chess 10B)")
Q_BOTH = ("4.3.3: 'one piece of each colour, he/she must capture the opponent's piece with his/her piece "
          "or, if this is illegal, move or capture the first piece touched that can be moved or "
          "captured' (2014 4.3 c; US Chess 10C)")
Q_NONE = ("4.5: 'if none of the pieces touched in accordance with Article 4.3 or Article 4.4 can be "
          "moved or captured, the player may make any legal move' (2014 4.5; US Chess 10D)")
Q_CASTLE = ("4.4.1: 'if a player having the move touches his/her king and a rook, he/she must castle on "
            "that side if it is legal to do so' (2014 4.4 a; US Chess 10I1)")
Q_ROOK = ("4.4.2: 'if a player deliberately touches a rook and then his/her king he/she is not allowed "
          "to castle on that side on that move and the situation shall be governed by Article 4.3.1' "
          "(2014 4.4 b; US Chess 10I2)")
Q_KING_ELSE = ("4.4.3: 'if a player, intending to castle, touches the king and then a rook, but castling "
               "with this rook is illegal, the player must make another legal move with his/her king "
               "(which may include castling with the other rook)' (2014 4.4 c; US Chess 10I1)")
TOUCH_TAGS = ("touch-move",)
CASTLE_FEN = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
#: Black's rook on f8 attacks f1: White may castle only on the queen's side.
NO_SHORT_FEN = "r3kr2/ppppp1pp/8/8/8/8/PPPPP1PP/R3K2R w KQq - 0 1"
PIN_FEN = "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"


def touch(square: str, by: str = "white") -> dict[str, Any]:
    return {"touch": square, "by": by}


def touch_cases() -> list[Case]:
    def case(name: str, description: str, events: list[dict[str, Any]], expect: Expect,
             cites: tuple[str, ...], quote: str, fen: str | None = None) -> Case:
        verdict = "the move breaks the obligation, so it is rejected" if expect == REJECTED else \
            "the move meets the obligation and the game goes on"
        return Case(name, description, events, cites, TOUCH_TAGS, f"{quote}; {verdict}",
                    default=expect, fen=fen)

    opening = mv("e2e4", "d7d5")
    lopez = mv("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6")
    return [
        case("touch.own.other-piece-moved", "White touches the g1 knight, then plays e2e4",
             [touch("g1"), {"move": "e2e4"}], REJECTED, TOUCH_OWN, Q_OWN),
        case("touch.own.touched-piece-moved", "White touches the g1 knight and moves it",
             [touch("g1"), {"move": "g1f3"}], ONGOING, TOUCH_OWN, Q_OWN),
        case("touch.own.first-movable", "White touches the c1 bishop (it cannot move), then the "
             "g1 knight, and moves the knight", [touch("c1"), touch("g1"), {"move": "g1f3"}],
             ONGOING, TOUCH_OWN, Q_OWN),
        case("touch.own.first-movable-not-second", "White touches the b1 knight, then the g1 "
             "knight, and moves the second", [touch("b1"), touch("g1"), {"move": "g1f3"}],
             REJECTED, TOUCH_OWN, Q_OWN),
        case("touch.own.black", "Black touches the b8 knight after 1.e4 and plays ...e5",
             mv("e2e4") + [touch("b8", "black"), {"move": "e7e5"}], REJECTED, TOUCH_OWN, Q_OWN),
        case("touch.theirs.other-move", "After 1.e4 d5 White touches the d5 pawn and plays Nf3",
             opening + [touch("d5"), {"move": "g1f3"}], REJECTED, TOUCH_THEIRS, Q_THEIRS),
        case("touch.theirs.captured", "After 1.e4 d5 White touches the d5 pawn and takes it",
             opening + [touch("d5"), {"move": "e4d5"}], ONGOING, TOUCH_THEIRS, Q_THEIRS),
        case("touch.theirs.bishop-takes", "In the Ruy Lopez White touches the a6 pawn and "
             "retreats the bishop instead of taking", lopez + [touch("a6"), {"move": "b5c4"}],
             REJECTED, TOUCH_THEIRS, Q_THEIRS),
        case("touch.theirs.bishop-takes-a6", "In the Ruy Lopez White touches the a6 pawn and "
             "takes it", lopez + [touch("a6"), {"move": "b5a6"}], ONGOING, TOUCH_THEIRS, Q_THEIRS),
        case("touch.both.capture-required", "After 1.e4 d5 White touches the e4 pawn and the d5 "
             "pawn, then pushes e4e5", opening + [touch("e4"), touch("d5"), {"move": "e4e5"}],
             REJECTED, TOUCH_BOTH, Q_BOTH),
        case("touch.both.captured", "After 1.e4 d5 White touches e4 and d5 and takes",
             opening + [touch("e4"), touch("d5"), {"move": "e4d5"}], ONGOING, TOUCH_BOTH, Q_BOTH),
        case("touch.both.cannot-capture", "After 1.e4 d5 White touches the g1 knight, then the "
             "d5 pawn the knight cannot take; the knight must move, so exd5 is rejected",
             opening + [touch("g1"), touch("d5"), {"move": "e4d5"}], REJECTED, TOUCH_BOTH, Q_BOTH),
        case("touch.both.cannot-capture-knight-moves", "After 1.e4 d5 White touches the g1 "
             "knight, then the d5 pawn, and moves the knight",
             opening + [touch("g1"), touch("d5"), {"move": "g1f3"}], ONGOING, TOUCH_BOTH, Q_BOTH),
        case("touch.none-movable.bishop", "White touches the c1 bishop, which cannot move, and "
             "plays e2e4", [touch("c1"), {"move": "e2e4"}], ONGOING, TOUCH_NONE, Q_NONE),
        case("touch.none-movable.rook", "White touches the a1 rook, which cannot move, and plays "
             "Nf3", [touch("a1"), {"move": "g1f3"}], ONGOING, TOUCH_NONE, Q_NONE),
        case("touch.none-movable.queen-uncapturable", "After 1.e4 d5 2.exd5 Qxd5 White touches "
             "the queen on d5, which nothing can take, and plays Nc3",
             mv("e2e4", "d7d5", "e4d5", "d8d5") + [touch("d5"), {"move": "b1c3"}], ONGOING,
             TOUCH_NONE, Q_NONE),
        case("touch.castle.short", "White touches king then h1 rook and castles short",
             [touch("e1"), touch("h1"), {"move": "e1g1"}], ONGOING, TOUCH_CASTLE, Q_CASTLE,
             CASTLE_FEN),
        case("touch.castle.king-steps", "White touches king then h1 rook and steps the king to f1",
             [touch("e1"), touch("h1"), {"move": "e1f1"}], REJECTED, TOUCH_CASTLE, Q_CASTLE,
             CASTLE_FEN),
        case("touch.castle.long", "White touches king then a1 rook and castles long",
             [touch("e1"), touch("a1"), {"move": "e1c1"}], ONGOING, TOUCH_CASTLE, Q_CASTLE,
             CASTLE_FEN),
        case("touch.castle.rook-moves", "White touches king then a1 rook and moves the rook",
             [touch("e1"), touch("a1"), {"move": "a1b1"}], REJECTED, TOUCH_CASTLE, Q_CASTLE,
             CASTLE_FEN),
        case("touch.rook-first.no-castling", "White touches the h1 rook, then the king, and "
             "castles short", [touch("h1"), touch("e1"), {"move": "e1g1"}], REJECTED, TOUCH_ROOK,
             Q_ROOK, CASTLE_FEN),
        case("touch.rook-first.rook-moves", "White touches the h1 rook, then the king, and moves "
             "the rook", [touch("h1"), touch("e1"), {"move": "h1f1"}], ONGOING, TOUCH_ROOK, Q_ROOK,
             CASTLE_FEN),
        case("touch.rook-first.long", "White touches the a1 rook, then the king, and castles long",
             [touch("a1"), touch("e1"), {"move": "e1c1"}], REJECTED, TOUCH_ROOK, Q_ROOK, CASTLE_FEN),
        case("touch.king-else.rook-moves", "Castling short is illegal (f1 attacked); White touches "
             "king then h1 rook and moves the rook", [touch("e1"), touch("h1"), {"move": "h1g1"}],
             REJECTED, TOUCH_KING_ELSE, Q_KING_ELSE, NO_SHORT_FEN),
        case("touch.king-else.king-steps", "Castling short is illegal; White touches king then h1 "
             "rook and plays Kd1", [touch("e1"), touch("h1"), {"move": "e1d1"}], ONGOING,
             TOUCH_KING_ELSE, Q_KING_ELSE, NO_SHORT_FEN),
        case("touch.king-else.other-rook-moves", "Castling short is illegal; White touches king "
             "then h1 rook and moves the a1 rook", [touch("e1"), touch("h1"), {"move": "a1b1"}],
             REJECTED, TOUCH_KING_ELSE, Q_KING_ELSE, NO_SHORT_FEN),
    ]


# --- draw claims ----------------------------------------------------------------------

SHUFFLE = ("g1f3", "g8f6", "f3g1", "f6g8")
#: Start position 3rd time with White to move after these 8 plies.
THREE_TIMES = mv(*SHUFFLE, *SHUFFLE)
CLAIM_NOW = ("fide-2023:9.2", "fide-2018:9.2", "fide-2014:9.2", "uscf-7:14C")
CLAIM_INTENDED = ("fide-2023:9.2.1", "fide-2018:9.2.1", "fide-2014:9.2", "uscf-7:14C2")
FIFTY_NOW = ("fide-2023:9.3", "fide-2018:9.3", "fide-2014:9.3", "uscf-7:14F")
FIFTY_INTENDED = ("fide-2023:9.3.1", "fide-2014:9.3", "uscf-7:9G1")
INCORRECT = ("fide-2023:9.5.3", "fide-2014:9.5.c", "uscf-7:14C6", "uscf-7:14F2")
AS_OFFER = ("fide-2023:9.1.2.3", "fide-2014:9.1.b", "uscf-7:14")
TOUCH_FORFEITS = ("fide-2023:9.4", "fide-2014:9.4", "uscf-7:10B", "uscf-7:9G1")
Q_CLAIM = ("9.2: 'the game is drawn, upon a correct claim by a player having the move, when the same "
           "position ... appears at least three times' (2018 9.2; 2014 9.2; US Chess 14C)")
Q_INTENDED = ("9.2.1: the position 'is about to appear, if he/she first writes his/her move, which cannot "
              "be changed, on paper ... and declares to the arbiter his/her intention to make this move' "
              "(2018 9.2.1; 2014 9.2; US Chess 14C2: write the move, do not play it, stop the clocks)")
Q_FIFTY = ("9.3: 'upon a correct claim by a player having the move, if ... the last 50 moves by each "
           "player have been completed without the movement of any pawn and without any capture' "
           "(2018 9.3; 2014 9.3; US Chess 14F)")
Q_FIFTY_INTENDED = ("9.3.1: 'he/she writes his/her move, which cannot be changed, on paper and declares "
                    "to the arbiter his/her intention to make this move which will result in the last 50 "
                    "moves ... without the movement of any pawn and without any capture' (2014 9.3; "
                    "US Chess 9G1)")
Q_INCORRECT = ("9.5.3: if the claim is found to be incorrect 'the arbiter shall add two minutes to the "
               "opponent's remaining thinking time. Then the game shall continue. If the claim was based "
               "on an intended move, this move must be made' (2014 9.5 c; US Chess 14C6 and 14F2: two "
               "minutes; A.3/B.3 2023: one minute in rapid and blitz; 2018 B.2 and 2014 B.2: one "
               "minute in blitz)")
#: A quiet position with a halfmove clock the fifty-move fixtures count from.
FIFTY_FEN = "8/8/4k3/8/8/3K4/3R4/8 w - - {half} 80"
#: Black's only move Kh7 allows Rh1 mate; Black to move claims fifty (US Chess 14F3).
MATE_THREAT_FEN = "7k/8/5K2/8/8/8/8/6R1 b - - 100 90"


def claim(kind: str, by: str, intended: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"claim": kind, "by": by}
    if intended is not None:
        out["intended_move"] = intended
    return out


def claim_cases() -> list[Case]:
    draw_rep = res("1/2-1/2", "threefold_repetition")
    draw_fifty = res("1/2-1/2", "fifty_moves")
    tags_rep = ("threefold-repetition", "draw-claim")
    tags_fifty = ("fifty-moves", "draw-claim")
    cases = [
        Case("claim.threefold.now", "White claims the start position standing a third time",
             THREE_TIMES + [claim("threefold_repetition", "white")], CLAIM_NOW, tags_rep,
             Q_CLAIM + "; the position on the board is its third occurrence: a draw", draw_rep),
        Case("claim.threefold.now-after-e4", "After 1.e4 e5 both king's knights go out and back twice; "
             "White claims the third occurrence",
             mv("e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8")
             + [claim("threefold_repetition", "white")], CLAIM_NOW, tags_rep,
             Q_CLAIM + "; the position after 1...e5 stands for the third time", draw_rep),
        Case("claim.threefold.now-black", "Black claims a third occurrence with Black to move",
             mv("e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1")
             + [claim("threefold_repetition", "black")], CLAIM_NOW, tags_rep,
             Q_CLAIM + "; the position after 1.e4 with Black to move stands for the third time",
             draw_rep),
        Case("claim.threefold.intended", "Black writes Ng8, which repeats the start position a "
             "third time, and claims", mv(*SHUFFLE, *SHUFFLE[:3])
             + [claim("threefold_repetition", "black", "f6g8")], CLAIM_INTENDED,
             tags_rep + ("intended-move",), Q_INTENDED + "; the written move completes the third "
             "occurrence: a draw, and the move is not played", draw_rep),
        Case("claim.threefold.intended-kings", "Black writes Nb8 completing a third occurrence "
             "and claims", mv("e2e4", "e7e5", "b1c3", "b8c6", "c3b1", "c6b8", "b1c3", "b8c6", "c3b1")
             + [claim("threefold_repetition", "black", "c6b8")], CLAIM_INTENDED,
             tags_rep + ("intended-move",), Q_INTENDED, draw_rep),
        Case("claim.threefold.intended-white", "White writes Ng1 completing a third occurrence of "
             "the position after 1.e4 and claims",
             mv("e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8")
             + [claim("threefold_repetition", "white", "f3g1")], CLAIM_INTENDED,
             tags_rep + ("intended-move",), Q_INTENDED, draw_rep),
        Case("claim.threefold.wrong-intended", "Black writes a move that does not repeat and "
             "claims; the claim is incorrect and the written move is played",
             mv(*SHUFFLE, *SHUFFLE[:3]) + [claim("threefold_repetition", "black", "e7e5"),
                                           {"move": "g1f3"}], CLAIM_INTENDED + INCORRECT,
             tags_rep + ("intended-move", "incorrect-claim"), Q_INCORRECT +
             "; no clock, so no time to add; after ...e5 (played) White's Nf3 is legal and the "
             "game goes on", ONGOING),
        Case("claim.threefold.too-early", "White claims after only two occurrences",
             mv(*SHUFFLE) + [claim("threefold_repetition", "white")], CLAIM_NOW + INCORRECT,
             tags_rep + ("incorrect-claim",), Q_CLAIM + "; " + Q_INCORRECT, ONGOING),
        Case("claim.threefold.not-to-move", "Black claims while White has the move",
             THREE_TIMES + [claim("threefold_repetition", "black")], CLAIM_NOW,
             tags_rep + ("rejected",), Q_CLAIM + "; only the player having the move may claim: "
             "the claim is rejected", REJECTED),
        Case("claim.threefold.named-fifty", "White claims under the fifty-move rule where only the "
             "repetition holds", THREE_TIMES + [claim("fifty_moves", "white")],
             FIFTY_NOW + INCORRECT, tags_rep + ("incorrect-claim",),
             Q_FIFTY + "; no fifty moves were played, so the claim made is incorrect", ONGOING),
        Case("claim.fifty.now", "White claims with 100 plies played without capture or pawn move",
             mv("d2d1", "e6e5") + [claim("fifty_moves", "white")], FIFTY_NOW, tags_fifty,
             Q_FIFTY + "; the FEN's halfmove clock 98 reaches 100 after two quiet moves", draw_fifty,
             fen=FIFTY_FEN.format(half=98)),
        Case("claim.fifty.now-black", "Black claims with 100 plies played",
             mv("d3e3") + [claim("fifty_moves", "black")], FIFTY_NOW, tags_fifty,
             Q_FIFTY + "; halfmove clock 99 plus one quiet move", draw_fifty,
             fen=FIFTY_FEN.format(half=99)),
        Case("claim.fifty.one-short", "Black claims at 99 plies", mv("d3e3", "e6e5", "e3d3")
             + [claim("fifty_moves", "black")], FIFTY_NOW + INCORRECT,
             tags_fifty + ("one-ply-short", "incorrect-claim"),
             Q_FIFTY + "; halfmove clock 96 plus three quiet moves is 99: one ply short; " + Q_INCORRECT,
             ONGOING, fen=FIFTY_FEN.format(half=96)),
        Case("claim.fifty.intended", "White writes a quiet move that completes the fifty moves and "
             "claims", [claim("fifty_moves", "white", "d2d1")], FIFTY_INTENDED,
             tags_fifty + ("intended-move",), Q_FIFTY_INTENDED, draw_fifty,
             fen=FIFTY_FEN.format(half=99)),
        Case("claim.fifty.intended-king", "White writes a king move that completes the fifty moves",
             [claim("fifty_moves", "white", "d3c3")], FIFTY_INTENDED, tags_fifty + ("intended-move",),
             Q_FIFTY_INTENDED, draw_fifty, fen=FIFTY_FEN.format(half=99)),
        Case("claim.fifty.intended-black", "Black writes a quiet move that completes the fifty moves",
             mv("d3c3") + [claim("fifty_moves", "black", "e6e5")], FIFTY_INTENDED,
             tags_fifty + ("intended-move",), Q_FIFTY_INTENDED, draw_fifty,
             fen=FIFTY_FEN.format(half=98)),
        Case("claim.fifty.intended-capture", "White writes a capture and claims fifty moves; the "
             "claim is incorrect and the capture is played",
             [claim("fifty_moves", "white", "a2a6")], FIFTY_INTENDED + INCORRECT,
             tags_fifty + ("intended-move", "incorrect-claim"),
             Q_FIFTY_INTENDED + "; the written Rxa6+ is a capture, so it completes nothing: the claim "
             "is incorrect and the capture is played; " + Q_INCORRECT, ONGOING,
             fen="8/8/p3k3/8/8/3K4/R7/8 w - - 99 80"),
        Case("claim.fifty.against-mate", "Black, facing mate in one, claims fifty moves",
             [claim("fifty_moves", "black")], FIFTY_NOW + ("uscf-7:14F3",), tags_fifty,
             Q_FIFTY + "; US Chess 14F3: the claim draws 'even if the opponent can show an immediate "
             "checkmate'; FIDE 9.3 draws at once on a correct claim", draw_fifty, fen=MATE_THREAT_FEN),
        Case("claim.fifty.against-mate-intended", "Black, facing mate in one, writes a king move "
             "completing the fifty moves and claims", [claim("fifty_moves", "black", "h8h7")],
             FIFTY_INTENDED + ("uscf-7:14F3",), tags_fifty + ("intended-move",),
             Q_FIFTY_INTENDED + "; US Chess 14F3: even against an immediate checkmate", draw_fifty,
             fen="7k/8/5K2/8/8/8/8/6R1 b - - 99 90"),
        Case("claim.fifty.against-mate-rook", "Black, facing Rh1 mate, claims fifty moves",
             [claim("fifty_moves", "black")], FIFTY_NOW + ("uscf-7:14F3",), tags_fifty,
             Q_FIFTY + "; US Chess 14F3", draw_fifty, fen="k7/8/1K6/8/8/8/8/7R b - - 100 90"),
    ]
    forfeit = {"fide": ONGOING, "uscf": draw_rep}
    touch_detail = ("FIDE 9.4: 'if the player touches a piece as in Article 4.3, he/she loses the right "
                    "to claim a draw under Article 9.2 or 9.3 on that move' (2014 9.4); US Chess: no "
                    "rule takes the claim away on a touch, 10B binds the touched piece for the move "
                    "('must move or capture the first piece touched'), and 14C4 and 9G1 keep the claim "
                    "open until the clock is pressed")
    cases += [
        Case("claim.touch.threefold", "White touches the g1 knight, then claims the third occurrence",
             THREE_TIMES + [touch("g1"), claim("threefold_repetition", "white")],
             TOUCH_FORFEITS + CLAIM_NOW, tags_rep + ("touch-move",), touch_detail,
             by=((FIDE, forfeit["fide"]), ((US, USB), forfeit["uscf"]))),
        Case("claim.touch.threefold-black", "Black touches the f6 knight, then claims the third "
             "occurrence", mv("e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1")
             + [touch("g8", "black"), claim("threefold_repetition", "black")],
             TOUCH_FORFEITS + CLAIM_NOW, tags_rep + ("touch-move",), touch_detail,
             by=((FIDE, forfeit["fide"]), ((US, USB), forfeit["uscf"]))),
        Case("claim.touch.fifty", "White touches the rook, then claims fifty moves",
             [touch("d2"), claim("fifty_moves", "white")], TOUCH_FORFEITS + FIFTY_NOW,
             tags_fifty + ("touch-move",), touch_detail,
             by=((FIDE, ONGOING), ((US, USB), draw_fifty)), fen=FIFTY_FEN.format(half=100)),
    ]
    offer = res("1/2-1/2", "agreement")
    offer_detail = ("FIDE 9.1.2.3: 'a claim of a draw under Article 9.2 or 9.3 shall be considered to be "
                    "an offer of a draw' (2014 9.1 b; US Chess 14: every claim is also an offer); the "
                    "offer stands until the opponent moves, and its acceptance draws the game (5.2.3; "
                    "2014 5.2 c; US Chess 14B)")
    agreement = ("fide-2023:5.2.3", "fide-2018:5.2.3", "fide-2014:5.2.c", "uscf-7:14B")
    cases += [
        Case("claim.incorrect-accepted", "White's incorrect threefold claim is accepted as a draw "
             "offer", mv(*SHUFFLE) + [claim("threefold_repetition", "white"), {"accept": "black"}],
             AS_OFFER + agreement + INCORRECT, tags_rep + ("incorrect-claim", "draw-offer"),
             offer_detail, offer),
        Case("claim.incorrect-accepted-after-move", "White's incorrect claim with an intended move; "
             "the move is played, then Black accepts", mv("e2e4", "e7e5")
             + [claim("threefold_repetition", "white", "g1f3"), {"accept": "black"}],
             AS_OFFER + agreement + INCORRECT, tags_rep + ("incorrect-claim", "draw-offer", "intended-move"),
             offer_detail, offer),
        Case("claim.incorrect-offer-lapses", "White's incorrect fifty-move claim; Black moves, then "
             "tries to accept", mv("e2e4", "e7e5") + [claim("fifty_moves", "white"), {"move": "g1f3"},
                                                        {"move": "b8c6"}, {"accept": "black"}],
             AS_OFFER + INCORRECT, tags_fifty + ("incorrect-claim", "draw-offer", "rejected"),
             offer_detail + "; Black moved, so no offer stands and the acceptance is rejected", REJECTED),
    ]
    return cases


def penalty_cases() -> list[Case]:
    """Incorrect claims with a clock: the time added per edition and speed."""
    std = ("5400+30", 5400_000, "standard")
    rapid = ("900+10", 900_000, "rapid")
    blitz = ("180+2", 180_000, "blitz")
    cases = []
    for control, base, speed in (std, rapid, blitz):
        inc = int(control.split("+")[1]) * 1000
        white = base - 10_000 + inc
        black = base - 20_000 + inc

        def add(seconds: int) -> Expect:
            return res("*", None, white, black + seconds * 1000)

        by: tuple[tuple[tuple[str, ...], Expect], ...]
        cites: tuple[str, ...]
        if speed == "standard":
            by = ((ALL, add(120)),)
            cites = ("fide-2023:7.5.5", "fide-2018:7.5.5", "fide-2014:7.5.b", "uscf-7:1C2a")
        elif speed == "rapid":
            by = (((F23, F23R, F23B), add(60)), ((F18, F14), add(120)), ((US, USB), add(120)))
            cites = ("fide-2023:A.3", "fide-2018:A.4.2", "fide-2014:A.3", "uscf-7:1C2a")
        else:
            by = (((F23, F23R, F23B), add(60)), ((F18, F14), add(60)), ((US, USB), add(120)))
            cites = ("fide-2023:B.3", "fide-2018:B.2", "fide-2014:B.2", "uscf-7:1C2a")
        clock_cites = ("fide-2023:6.3.1", "fide-2014:6.3.a", "uscf-7:5B1b")
        for which, events in (
            ("threefold", [claim("threefold_repetition", "white")]),
            ("fifty", [claim("fifty_moves", "white")]),
        ):
            cases.append(Case(
                f"claim.penalty.{speed}.{which}", f"{control}: White's incorrect {which} claim after "
                "1.e4 (10 s) e5 (20 s)", timed(("e2e4", 10), ("e7e5", 20)) + events,
                INCORRECT + cites + clock_cites, ("incorrect-claim", "clocks", "increment", "draw-claim"),
                Q_INCORRECT + f"; {control} is {speed} (FIDE A.1/B.1; US Chess 5C, where 900+10 is "
                "quick and penalised as regular): each clock after its move is base - time + "
                "increment, and Black receives the penalty", by=by, time_control=control))
        # The intended move is then played, taking no time: its increment is added.
        after = res("*", None, white + inc, black)
        cases.append(Case(
            f"claim.penalty.{speed}.intended", f"{control}: White's incorrect claim with an intended "
            "move; the move is played", timed(("e2e4", 10), ("e7e5", 20))
            + [claim("threefold_repetition", "white", "g1f3")], INCORRECT + cites + clock_cites,
            ("incorrect-claim", "clocks", "increment", "intended-move", "draw-claim"),
            Q_INCORRECT + f"; the written move Nf3 is then made (taking no time, so White gains the "
            "increment); Black receives the penalty",
            by=tuple((names, res("*", None, after["clock_ms"]["white"], e["clock_ms"]["black"]))
                     for names, e in by),
            time_control=control))
    return cases


# --- offers, agreement, resignation ---------------------------------------------------

AGREE = ("fide-2023:5.2.3", "fide-2018:5.2.3", "fide-2014:5.2.c", "uscf-7:14B")
RESIGN = ("fide-2023:5.1.2", "fide-2018:5.1.2", "fide-2014:5.1.b", "uscf-7:13B")
Q_AGREE = ("5.2.3: 'the game is drawn upon agreement between the two players during the game, provided "
           "both players have made at least one move' (2018 5.2.3; 2014 5.2 c sets no minimum; "
           "US Chess 14B none)")
Q_RESIGN = ("5.1.2 (2023): the game is lost by the player who declares he/she resigns, 'however, if the "
            "opponent cannot checkmate the player's king by any series of legal moves, the game is "
            "drawn'; 2018 5.1.2 and 2014 5.1 b: resignation 'immediately ends the game' as a loss; "
            "US Chess 13B: resignation loses")


def offer_cases() -> list[Case]:
    draw = res("1/2-1/2", "agreement")
    two = mv("e2e4", "e7e5")
    return [
        Case("offer.accepted", "After 1.e4 e5 White offers a draw and Black accepts",
             two + [{"offer": "white"}, {"accept": "black"}], AGREE, ("draw-offer",), Q_AGREE, draw),
        Case("offer.accepted-after-move", "White offers with 2.Nf3; Black accepts before replying",
             two + [{"move": "g1f3"}, {"offer": "white"}, {"accept": "black"}], AGREE, ("draw-offer",),
             Q_AGREE + "; the offer stands until Black moves", draw),
        Case("offer.black-offers", "Black offers after 1.e4 e5 2.Nf3 Nc6 and White accepts",
             two + mv("g1f3", "b8c6") + [{"offer": "black"}, {"accept": "white"}], AGREE,
             ("draw-offer",), Q_AGREE, draw),
        Case("offer.withdrawn-by-move", "White offers; Black answers with a move, then accepts",
             two + [{"move": "g1f3"}, {"offer": "white"}, {"move": "b8c6"}, {"accept": "black"}], AGREE,
             ("draw-offer", "rejected"), Q_AGREE + "; FIDE 9.1.2.2 and US Chess 14B: an offer the "
             "opponent answers with a move is declined, so no offer is left to accept", REJECTED),
        Case("offer.none-standing", "Black accepts a draw nobody offered", two + [{"accept": "black"}],
             AGREE, ("draw-offer", "rejected"), Q_AGREE + "; there is no offer to accept", REJECTED),
        Case("offer.before-any-move", "Black accepts White's offer before either side has moved",
             [{"offer": "white"}, {"accept": "black"}], AGREE, ("draw-offer",),
             Q_AGREE + ": rejected under FIDE 2018 and 2023, a draw under FIDE 2014 and US Chess",
             by=((FIDE_2017, REJECTED), ((F14, US, USB), draw))),
        Case("offer.after-white-only", "After 1.e4 White offers and Black accepts at once",
             mv("e2e4") + [{"offer": "white"}, {"accept": "black"}], AGREE, ("draw-offer",),
             Q_AGREE + ": Black has made no move yet, so rejected under FIDE 2018 and 2023",
             by=((FIDE_2017, REJECTED), ((F14, US, USB), draw))),
        Case("offer.from-fen-after-moves", "From a FEN at move 20 Black accepts White's offer at once",
             [{"offer": "white"}, {"accept": "black"}], AGREE, ("draw-offer",),
             Q_AGREE + ": the FEN's move number says both players have moved", draw,
             fen="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 4 20"),
    ]


def resign_cases() -> list[Case]:
    def cannot_mate(name: str, fen: str, who: str, what: str) -> Case:
        loss = res("0-1" if who == "white" else "1-0", "resignation")
        return Case(f"resign.opponent-cannot-mate.{name}", f"{who.capitalize()} resigns against {what}",
                    [{"resign": who}], RESIGN, ("resignation", "lone-king" if "lone" in what else "dead-position"),
                    Q_RESIGN, by=(((F23, F23R, F23B), res("1/2-1/2", "resignation")),
                                  ((F18, F14, US, USB), loss)), fen=fen)

    return [
        Case("resign.white", "White resigns after 1.e4 e5", mv("e2e4", "e7e5") + [{"resign": "white"}],
             RESIGN, ("resignation",), Q_RESIGN, res("0-1", "resignation")),
        Case("resign.black", "Black resigns at once", [{"resign": "black"}], RESIGN, ("resignation",),
             Q_RESIGN, res("1-0", "resignation")),
        Case("resign.after-game-over", "White resigns after being mated", mv("f2f3", "e7e5", "g2g4", "d8h4")
             + [{"resign": "white"}], RESIGN + ("fide-2023:5.1.1", "uscf-7:13A"), ("resignation", "rejected"),
             Q_RESIGN + "; the checkmate already ended the game (5.1.1), so nothing can follow", REJECTED),
        cannot_mate("lone-king", "4k3/8/8/8/8/8/8/3QK3 w - - 0 40", "white", "a lone king"),
        cannot_mate("lone-king-rook", "4k3/8/8/8/8/8/PPP5/R3K3 w - - 0 40", "white", "a lone king"),
        cannot_mate("lone-king-black", "r2qk3/8/8/8/8/8/8/4K3 b - - 0 40", "black", "a lone king"),
    ]


# --- flag fall ------------------------------------------------------------------------

FLAG_FIDE = ("fide-2023:6.9", "fide-2018:6.9", "fide-2014:6.9")
FLAG_US = ("uscf-7:14E", "uscf-7:13C1")
SEEN = ("fide-2023:6.8", "fide-2014:6.8")
Q_FLAG = ("FIDE 6.9: 'if a player does not complete the prescribed number of moves in the allotted time, "
          "the game is lost by the player. However, the game is drawn if the position is such that the "
          "opponent cannot checkmate the player's king by any series of legal moves' (2018 and 2014 "
          "6.9); US Chess 14E: drawn when the opponent has insufficient material to win on time (14E1 "
          "a lone king; 14E2 king and bishop or king and knight without a forced win; 14E3 king and two "
          "knights against no pawns without a forced win); 13C1: only the players may call a flag")
Q_SEEN = ("FIDE 6.8: 'a flag is considered to have fallen when the arbiter observes the fact or when "
          "either player has made a valid claim to that effect' (2014 6.8): the overstepping move "
          "ends the game as soon as it is seen; US Chess 13C1: only a player's claim does")


def flag_cases() -> list[Case]:
    def flag(name: str, description: str, fen: str, who: str, fide: Expect, us: Expect,
             cites: tuple[str, ...], tags: tuple[str, ...], detail: str) -> Case:
        return Case(f"flag.{name}", description, [{"flag": who}], FLAG_FIDE + FLAG_US + cites,
                    ("flag-fall",) + tags, Q_FLAG + "; " + detail, by=((FIDE, fide), ((US, USB), us)), fen=fen)

    w_loses, b_loses, draw = res("0-1", "flag_fall"), res("1-0", "flag_fall"), res("1/2-1/2", "flag_fall")
    cases = [
        Case("flag.start", "White's flag falls in the opening", mv("e2e4", "e7e5") + [{"flag": "white"}],
             FLAG_FIDE + FLAG_US, ("flag-fall",), Q_FLAG + "; Black has all its pieces", w_loses),
        Case("flag.black", "Black's flag falls in the opening", mv("d2d4") + [{"flag": "black"}],
             FLAG_FIDE + FLAG_US, ("flag-fall",), Q_FLAG, b_loses),
        flag("lone-king", "White's flag falls; Black has a lone king", "4k3/8/8/8/8/8/4P3/3QK3 w - - 0 40",
             "white", draw, draw, ("uscf-7:14E1",), ("lone-king",), "Black cannot checkmate: a draw "
             "under both"),
        flag("lone-king-black", "Black's flag falls; White has a lone king",
             "3qk3/4p3/8/8/8/8/8/4K3 b - - 0 40", "black", draw, draw, ("uscf-7:14E1",), ("lone-king",),
             "White cannot checkmate"),
        flag("lone-king-rook", "White's flag falls with White's rook and pawns against a lone king",
             "4k3/8/8/8/8/8/PPP5/R3K3 w - - 0 40", "white", draw, draw, ("uscf-7:14E1",), ("lone-king",),
             "Black cannot checkmate"),
        flag("knight-helpmate", "White's flag falls; Black has king and knight, White a cornered king "
             "that a knight can smother", "7k/8/8/7n/8/8/PP6/KB6 w - - 0 40", "white", w_loses, draw,
             ("uscf-7:14E2",), ("python-chess-differs",), "FIDE: Black can mate (a knight on c2 against "
             "Ka1, Bb1, a2, b2), so White loses; US Chess 14E2: Black has only king and knight and no "
             "forced win (the knight is four moves from c2 and White's bishop leaves b1), so a draw"),
        flag("bishop-helpmate", "White's flag falls; Black has king and bishop, White a king boxed in "
             "by its own pawns", "k7/8/8/8/8/6b1/6PP/7K w - - 0 40", "white", w_loses, draw,
             ("uscf-7:14E2",), ("python-chess-differs",), "FIDE: Black can mate (Bb7 or Bd5 along the "
             "long diagonal once g2 has moved, h2 and g1 boxed), so White loses; US Chess 14E2: king and "
             "bishop with no forced win in the position, a draw"),
        flag("knight-helpmate-black", "Black's flag falls; White has king and knight, Black a "
             "cornered king", "kb6/pp6/8/8/7N/8/8/7K b - - 0 40", "black", b_loses, draw,
             ("uscf-7:14E2",), ("python-chess-differs",), "FIDE: White can mate (Nc7 against Ka8, Bb8, a7, "
             "b7); US Chess 14E2: no forced win, a draw"),
        flag("two-knights", "White's flag falls with a lone rook; Black has two knights",
             "4k3/8/8/8/3nn3/8/8/R3K3 w - - 0 40", "white", w_loses, draw, ("uscf-7:14E3",), (),
             "FIDE: two knights can mate a king whose rook blocks a flight square, so White loses; US "
             "Chess 14E3: king and two knights against a player without pawns and no forced win: a draw"),
        flag("two-knights-pawn", "White's flag falls with a pawn; Black has two knights",
             "4k3/8/8/8/3nn3/8/7P/4K3 w - - 0 40", "white", w_loses, w_loses, ("uscf-7:14E3",), (),
             "FIDE: Black can mate; US Chess 14E3 needs a player without pawns, so White loses under "
             "both"),
        flag("two-knights-bare", "Black's flag falls; White has two knights against a bare king",
             "4k3/8/8/8/8/8/8/1N2K1N1 b - - 0 40", "black", b_loses, draw, ("uscf-7:14E3",),
             ("python-chess-differs",), "FIDE: two knights cannot force mate, but a series of legal "
             "moves (the lone king walking into a corner) mates, so Black loses; US Chess 14E3: king "
             "and two knights against a player without pawns and no forced win: a draw"),
    ]
    return cases


def clock_cases() -> list[Case]:
    """Clocks run by the move times: increments, delays, periods, overstepping."""
    inc_c = ("fide-2023:6.3.1", "fide-2014:6.3.a", "uscf-7:5B1b")
    delay_c = ("fide-2023:6.3.2", "fide-2014:6.3.b", "uscf-7:5B1a")
    period_c = ("fide-2023:6.3.2", "fide-2014:6.3.b", "uscf-7:5D")
    q_inc = ("FIDE 6.3.1: the allotted time 'including any additional time with each move' (2014 6.3 a; "
             "US Chess 5B1b increment): after each move the increment is added")
    q_delay = ("FIDE 6.3.2 and US Chess 5B1a: under a delay the main time runs only after the delay "
               "(simple); a Bronstein clock gives back the time used up to the delay")
    q_period = ("FIDE 6.3.2: 'any unused time in a period is added to the next period' (2014 6.3 b; US "
                "Chess 5D)")
    cases = [
        Case("clock.increment", "60+5: three moves of 10, 20 and 3 s", timed(
            ("e2e4", 10), ("e7e5", 20), ("g1f3", 3)), inc_c, ("clocks", "increment"),
            q_inc + "; White 60 - 10 + 5 - 3 + 5 = 57 s, Black 60 - 20 + 5 = 45 s",
            res("*", None, 57_000, 45_000), time_control="60+5"),
        Case("clock.increment.long", "5400+30: two moves each", timed(
            ("d2d4", 100), ("d7d5", 200), ("c2c4", 0), ("e7e6", 1.5)), inc_c, ("clocks", "increment"),
            q_inc + "; White 5400 - 100 + 30 + 30 = 5360 s, Black 5400 - 200 + 30 - 1.5 + 30 = 5258.5 s",
            res("*", None, 5_360_000, 5_258_500), time_control="5400+30"),
        Case("clock.increment.no-time", "300+2: moves without a time count as instant", mv(
            "e2e4", "e7e5", "g1f3"), inc_c, ("clocks", "increment"),
            q_inc + "; White 300 + 2 + 2, Black 300 + 2", res("*", None, 304_000, 302_000),
            time_control="300+2"),
        Case("clock.delay.simple", "60d5 (simple delay): moves of 4 and 8 s",
             timed(("e2e4", 4), ("e7e5", 8)), delay_c, ("clocks", "delay"),
             q_delay + "; White used 4 s of a 5 s delay: 60 s left; Black 8 - 5 = 3 s: 57 s",
             res("*", None, 60_000, 57_000), time_control="60d5"),
        Case("clock.delay.bronstein", "60b5 (Bronstein delay): moves of 4 and 8 s",
             timed(("e2e4", 4), ("e7e5", 8)), delay_c, ("clocks", "delay"),
             q_delay + "; White gets back all 4 s: 60 s; Black gets back 5 of 8 s: 57 s",
             res("*", None, 60_000, 57_000), time_control="60b5"),
        Case("clock.delay.simple-saves-flag", "60d5: White spends 64 s on a move, within time plus "
             "delay", timed(("e2e4", 64)), delay_c, ("clocks", "delay", "flag-fall"),
             q_delay + "; under a simple delay the flag falls only when 65 s are used: White has 1 s left",
             res("*", None, 1_000, 60_000), time_control="60d5"),
        Case("clock.periods", "2/60:60: both complete two moves, the second period's 60 s is added to "
             "what is left", timed(("e2e4", 10), ("e7e5", 20), ("g1f3", 10), ("b8c6", 20), ("f1c4", 5)),
             period_c, ("clocks", "periods"),
             q_period + "; White 60 - 10 - 10 + 60 - 5 = 95 s, Black 60 - 20 - 20 + 60 = 80 s",
             res("*", None, 95_000, 80_000), time_control="2/60:60"),
        Case("clock.periods.increment", "1/30+10:60+10: the first period ends after one move",
             timed(("e2e4", 5), ("e7e5", 25)), period_c + inc_c, ("clocks", "periods", "increment"),
             q_period + "; " + q_inc + "; White 30 - 5 + 10 + 60 = 95 s, Black 30 - 25 + 10 + 60 = 75 s",
             res("*", None, 95_000, 75_000), time_control="1/30+10:60+10"),
        Case("clock.periods.three", "1/10:1/10:10: three periods of one move and 10 s",
             timed(("e2e4", 9), ("e7e5", 1), ("g1f3", 10.5)), period_c, ("clocks", "periods"),
             q_period + "; White 10 - 9 + 10 = 11 s, then 11 - 10.5 + 10 = 10.5 s; Black 10 - 1 + 10 = 19 s",
             res("*", None, 10_500, 19_000), time_control="1/10:1/10:10"),
    ]
    w_flag = "0-1"
    over = [("60", "sudden death 60 s", timed(("e2e4", 10), ("e7e5", 5), ("g1f3", 51)), 0, 55_000,
             "White had 50 s and used 51"),
            ("60+5", "60+5", timed(("e2e4", 10), ("e7e5", 5), ("g1f3", 56)), 0, 60_000,
             "White had 55 s and used 56"),
            ("60d5", "60d5 (simple delay)", timed(("e2e4", 10), ("e7e5", 5), ("g1f3", 60)), 0, 60_000,
             "White had 55 s plus the 5 s delay and used 60")]
    for control, text, events, white, black, why in over:
        name = control.replace("+", "-inc").replace("d", "-delay")
        cites = FLAG_FIDE + SEEN + ("uscf-7:13C1",) + (inc_c if "+" in control else delay_c if "d" in control else ())
        cases.append(Case(
            f"clock.overstep.{name}", f"{text}: White oversteps on the third move", events, cites,
            ("clocks", "flag-fall"), Q_SEEN + f"; {why}: under FIDE the game is lost at once; under US "
            "Chess it goes on until Black claims", by=((FIDE, res(w_flag, "flag_fall", white, black)),
                                                      ((US, USB), res("*", None, white, black))),
            time_control=control))
        cases.append(Case(
            f"clock.overstep.{name}.claimed", f"{text}: White oversteps; Black then claims the flag",
            events + [{"flag": "white"}], cites + FLAG_US, ("clocks", "flag-fall"),
            Q_SEEN + f"; {why}: FIDE already ended the game, so the claim is rejected; under US "
            "Chess the claim wins", by=((FIDE, REJECTED), ((US, USB), res(w_flag, "flag_fall", white, black))),
            time_control=control))
    cases += [
        Case("clock.flag-with-time-left", "60: Black claims White's flag while White has time",
             timed(("e2e4", 10)) + [{"flag": "white"}], FLAG_FIDE + FLAG_US + SEEN, ("clocks", "flag-fall", "rejected"),
             Q_SEEN + "; White's clock shows 50 s: no flag has fallen", REJECTED, time_control="60"),
        Case("clock.mate-before-flag", "60: Black mates with a move that took longer than its time",
             timed(("f2f3", 1), ("e7e5", 1), ("g2g4", 1), ("d8h4", 70)), FLAG_FIDE + SEEN + ("fide-2023:5.1.1", "uscf-7:13A", "uscf-7:13C1"),
             ("clocks", "flag-fall", "checkmate"), Q_SEEN + "; the flag was neither seen nor claimed before "
             "the mate, and checkmate 'immediately ends the game' (5.1.1; US Chess 13A)",
             res("0-1", "checkmate", 58_000, 0), time_control="60"),
        Case("clock.flag-after-mate", "60: after a mate made with the flag down, White claims Black's flag",
             timed(("f2f3", 1), ("e7e5", 1), ("g2g4", 1), ("d8h4", 70)) + [{"flag": "black"}],
             FLAG_FIDE + SEEN + ("fide-2023:5.1.1", "uscf-7:13A", "uscf-7:13C1"),
             ("clocks", "flag-fall", "checkmate", "rejected"), Q_SEEN + "; the mate ended the game "
             "first, so the later claim is rejected", REJECTED, time_control="60"),
    ]
    # Both flags down (US Chess only: under FIDE the first overstep is seen at once).
    both = timed(("e2e4", 70), ("e7e5", 70)) + [{"flag": "white"}]
    q_both = ("US Chess 14G: both flags down in sudden death, a draw; 16T: both down in an earlier "
              "control, play continues; FIDE 6.8: the first overstep is seen and ends the game, so "
              "Black's move is rejected (FIDE III.3.1 applies only when nobody saw which fell first)")
    cases += [
        Case("clock.both-flags.sudden-death", "60: both players overstep, then the flag is claimed", both,
             SEEN + ("uscf-7:14G", "uscf-7:13C1"), ("clocks", "flag-fall", "both-flags"), q_both,
             by=((FIDE, REJECTED), ((US, USB), res("1/2-1/2", "flag_fall", 0, 0))), time_control="60"),
        Case("clock.both-flags.sudden-death-black-claims", "300+2: both overstep, the claim names "
             "Black's flag", timed(("e2e4", 310), ("e7e5", 400)) + [{"flag": "black"}],
             SEEN + ("uscf-7:14G", "uscf-7:13C1"), ("clocks", "flag-fall", "both-flags"), q_both,
             by=((FIDE, REJECTED), ((US, USB), res("1/2-1/2", "flag_fall", 0, 0))), time_control="300+2"),
        Case("clock.both-flags.delay", "60d5: both overstep time and delay, then the claim",
             timed(("e2e4", 65), ("e7e5", 66)) + [{"flag": "white"}],
             SEEN + ("uscf-7:14G", "uscf-7:13C1", "uscf-7:5B1a"), ("clocks", "flag-fall", "both-flags", "delay"),
             q_both, by=((FIDE, REJECTED), ((US, USB), res("1/2-1/2", "flag_fall", 0, 0))), time_control="60d5"),
        Case("clock.both-flags.first-period", "2/60:60: both overstep in the first control",
             both, SEEN + ("uscf-7:14G", "uscf-7:16T", "uscf-7:13C1"),
             ("clocks", "flag-fall", "both-flags", "periods"), q_both,
             by=((FIDE, REJECTED), ((US, USB), res("*", None, 0, 0))), time_control="2/60:60"),
        Case("clock.both-flags.first-period-black", "40/120:60: both overstep in the first control; "
             "the claim names Black", timed(("e2e4", 130), ("e7e5", 121)) + [{"flag": "black"}],
             SEEN + ("uscf-7:16T", "uscf-7:13C1"), ("clocks", "flag-fall", "both-flags", "periods"), q_both,
             by=((FIDE, REJECTED), ((US, USB), res("*", None, 0, 0))), time_control="40/120:60"),
        Case("clock.both-flags.first-period-inc", "1/60+5:60+5: both overstep in the first control",
             both, SEEN + ("uscf-7:16T", "uscf-7:13C1", "uscf-7:5B1b"),
             ("clocks", "flag-fall", "both-flags", "periods"), q_both,
             by=((FIDE, REJECTED), ((US, USB), res("*", None, 0, 0))), time_control="1/60+5:60+5"),
    ]
    return cases


# --- completed illegal moves ------------------------------------------------------------

Q_ILLEGAL = ("FIDE 7.5.1: an illegal move is completed once the clock is pressed; 7.5.5 (2018 7.5.5; "
             "2014 7.5 b): 'for the first completed illegal move by a player, the arbiter shall give two "
             "minutes extra time to his/her opponent; for the second completed illegal move by the same "
             "player the arbiter shall declare the game lost by this player. However, the game is drawn "
             "if the position is such that the opponent cannot checkmate the player's king by any series "
             "of legal moves'; A.3 and B.3 (2023): one minute in rapid and blitz; A.4 (2023): 'the "
             "Competition Rules shall apply if: A.4.1 one arbiter supervises at most three games and "
             "A.4.2 each game is recorded', and B.2 alike for blitz, so 7.5.5's loss; 2018 A.3.1 (the "
             "same words) and 2014 A.3: the Competition Rules, two minutes in rapid; 2018 B.2 and 2014 "
             "B.2: one minute in blitz; "
             "FIDE 7.5.3 (2018 7.5.3, from 1 July 2017): 'if the player presses the clock without making "
             "a move, it shall be considered and penalized as if an illegal move' (an 'illegal' event "
             "without a move), while under the 2014 text that is improper clock handling (6.2), not an "
             "illegal move, so nothing is counted; US Chess 11D: two minutes (1C2a) every time, no "
             "forfeit; US Chess blitz: the first completed illegal move loses on a claim, if the "
             "claimant has mating material (else a draw)")
ILL_STD = ("fide-2023:7.5.1", "fide-2023:7.5.5", "fide-2018:7.5.1", "fide-2018:7.5.5", "fide-2014:7.5.a",
           "fide-2014:7.5.b", "uscf-7:11D")
ILL_RAPID = ("fide-2023:A.3", "fide-2023:A.4", "fide-2018:A.3.1", "fide-2014:A.3")
ILL_BLITZ = ("fide-2023:B.2", "fide-2023:B.3", "fide-2018:B.3.1", "fide-2018:B.2", "fide-2014:B.3",
             "fide-2014:B.2", "uscf-7:blitz.illegal-move")
#: A clock pressed without a move (an ``illegal`` event without one): FIDE 7.5.3 since 2017.
CLOCK_PRESS = ("fide-2023:7.5.3",)


def illegal(by: str = "white", move: str | None = None) -> dict[str, Any]:
    return {"illegal": move, "by": by}


def illegal_cases() -> list[Case]:
    w_loses, b_loses = res("0-1", "illegal_moves"), res("1-0", "illegal_moves")
    draw = res("1/2-1/2", "illegal_moves")
    tags = ("illegal-move",)
    no_clock = ILL_STD + ILL_RAPID + ILL_BLITZ
    cases = [
        Case("illegal.first.no-clock", "White completes one illegal move (no time control)",
             mv("e2e4", "e7e5") + [illegal("white", "e1e3")], no_clock, tags,
             Q_ILLEGAL + "; without a time control the ruleset's own speed decides",
             by=((FIDE + (US,), ONGOING), ((USB,), w_loses))),
        Case("illegal.second.no-clock", "White completes two illegal moves (no time control)",
             mv("e2e4", "e7e5") + [illegal("white", "e1e3"), {"move": "g1f3"}, {"move": "b8c6"},
                                   illegal("white", None)], no_clock + CLOCK_PRESS, tags,
             Q_ILLEGAL + "; the second is a clock pressed without a move: an illegal move since 2017, "
             "under 2014 none, so the game goes on; the first illegal move already lost under US Chess "
             "blitz, so the game is over", by=((FIDE_2017, w_loses), ((F14, US), ONGOING), ((USB,), REJECTED))),
        Case("illegal.second.black", "Black completes two illegal moves in a row",
             mv("e2e4") + [illegal("black", "e8e6"), illegal("black", "d8h4")], no_clock, tags,
             Q_ILLEGAL, by=((FIDE, b_loses), ((US,), ONGOING), ((USB,), REJECTED))),
        Case("illegal.second.opponent-cannot-mate", "White completes two illegal moves; Black has a "
             "lone king", [illegal("white", "e1e3"), illegal("white", None)],
             no_clock + CLOCK_PRESS + ("uscf-7:14E1",), tags + ("lone-king",), Q_ILLEGAL
             + "; the second is a clock pressed without a move; Black cannot checkmate: a draw under FIDE "
             "since 2017, while under 2014 the clock press is no illegal move and the game goes on; under "
             "US Chess blitz the claimant's lone king is no mating material, a draw after the first",
             by=((FIDE_2017, draw), ((F14, US), ONGOING), ((USB,), REJECTED)),
             fen="4k3/8/8/8/8/8/4P3/3QK3 w - - 0 40"),
        Case("illegal.second-on-the-board.opponent-cannot-mate", "White completes two illegal moves on the "
             "board; Black has a lone king", [illegal("white", "e1e3"), illegal("white", "e2e5")],
             no_clock + ("uscf-7:14E1",), tags + ("lone-king",), Q_ILLEGAL + "; the second illegal move "
             "would lose, but Black cannot checkmate: a draw under every FIDE edition (2014 7.5 b alike); "
             "under US Chess blitz the claimant's lone king is no mating material, a draw after the first",
             by=((FIDE, draw), ((US,), ONGOING), ((USB,), REJECTED)), fen="4k3/8/8/8/8/8/4P3/3QK3 w - - 0 40"),
        Case("illegal.first.opponent-cannot-mate", "White completes one illegal move; Black has a lone "
             "king", [illegal("white", "e1c3")], no_clock + ("uscf-7:14E1",), tags + ("lone-king",),
             Q_ILLEGAL, by=((FIDE + (US,), ONGOING), ((USB,), draw)), fen="4k3/8/8/8/8/8/4P3/3QK3 w - - 0 40"),
        Case("illegal.second.black-cannot-mate", "Black completes two illegal moves; White has king "
             "and knight", [illegal("black", "d8d1"), illegal("black")], no_clock + CLOCK_PRESS
             + ("uscf-7:14E2",), tags, Q_ILLEGAL + "; the second is a clock pressed without a move; White "
             "can mate with a knight only with Black's help: Black's queen and pawns can block, so White "
             "wins under FIDE since 2017 (under 2014 the clock press is no illegal move: the game goes "
             "on); US Chess blitz: king and knight are not mating material (14E2), a draw",
             by=((FIDE_2017, b_loses), ((F14, US), ONGOING), ((USB,), REJECTED)),
             fen="3qk3/3pp3/8/8/8/8/8/4KN2 b - - 0 40"),
        Case("illegal.legal-move-named", "White reports as illegal a move that is legal",
             [illegal("white", "e2e4")], ILL_STD, tags + ("rejected",), Q_ILLEGAL + "; e2e4 is legal, "
             "so the event is rejected", REJECTED),
        Case("illegal.not-to-move", "An illegal move by Black while White has the move",
             [illegal("black", "e8e6")], ILL_STD, tags + ("rejected",), Q_ILLEGAL + "; only the player "
             "having the move can complete a move", REJECTED),
        Case("illegal.after-end", "White's illegal move after Black's mate", mv("f2f3", "e7e5", "g2g4", "d8h4")
             + [illegal("white", None)], ILL_STD + ("fide-2023:5.1.1", "uscf-7:13A"), tags + ("rejected", "checkmate"),
             Q_ILLEGAL + "; the game already ended by checkmate", REJECTED),
    ]
    cases += clock_press_cases()
    for control, speed, base, inc in (("5400+30", "standard", 5_400_000, 30_000),
                                      ("900+10", "rapid", 900_000, 10_000),
                                      ("180+2", "blitz", 180_000, 2_000)):
        white, black = base - 5_000 + inc, base - 5_000 + inc

        def plus(seconds: int) -> Expect:
            return res("*", None, white, black + seconds * 1000)

        clock_cites = ("fide-2023:6.3.1", "fide-2014:6.3.a", "uscf-7:5B1b")
        one: tuple[tuple[tuple[str, ...], Expect], ...]
        two: tuple[tuple[tuple[str, ...], Expect], ...]
        cites: tuple[str, ...]
        if speed == "standard":
            one = ((ALL, plus(120)),)
            cites = ILL_STD + ("fide-2023:7.5.5", "uscf-7:1C2a")
        elif speed == "rapid":
            one = (((F23, F23R, F23B), plus(60)), ((F18, F14, US, USB), plus(120)))
            cites = ILL_STD + ILL_RAPID + ("uscf-7:1C2a",)
        else:
            one = ((FIDE, plus(60)), ((US, USB), res("0-1", "illegal_moves", white, black)))
            cites = ILL_STD + ILL_BLITZ
        events = timed(("e2e4", 5), ("e7e5", 5)) + [illegal("white", "e1e3")]
        cases.append(Case(f"illegal.first.{speed}", f"{control}: White's first completed illegal move",
                          events, cites + clock_cites, tags + ("clocks", "increment"),
                          Q_ILLEGAL + f"; {control} is {speed} (US Chess: 900+10 quick, penalised as regular; "
                          "180+2 blitz)", by=one, time_control=control))
        second = events + timed(("g1f3", 5), ("b8c6", 5)) + [illegal("white", None)]
        white2, black2 = white - 5_000 + inc, black - 5_000 + inc
        first = {"standard": 120_000, "rapid": 120_000, "blitz": 60_000}[speed]  # FIDE 2014's penalty
        if speed == "standard":
            two = ((FIDE_2017, res("0-1", "illegal_moves", white2, black2 + 120_000)),
                   ((US, USB), res("*", None, white2, black2 + 240_000)))
        elif speed == "rapid":
            two = (((F23, F23R, F23B), res("0-1", "illegal_moves", white2, black2 + 60_000)),
                   ((F18,), res("0-1", "illegal_moves", white2, black2 + 120_000)),
                   ((US, USB), res("*", None, white2, black2 + 240_000)))
        else:
            two = ((FIDE_2017, res("0-1", "illegal_moves", white2, black2 + 60_000)), ((US, USB), REJECTED))
        two += (((F14,), res("*", None, white2, black2 + first)),)
        cases.append(Case(f"illegal.second.{speed}", f"{control}: White's second completed illegal move "
                          "(a clock pressed without a move)", second, cites + clock_cites + CLOCK_PRESS,
                          tags + ("clocks", "increment"),
                          Q_ILLEGAL + "; the second illegal move loses under FIDE since 2017, US Chess adds "
                          "two minutes again; under 2014 the clock press is no illegal move, so only the "
                          "first penalty stands", by=two, time_control=control))
        # The same with a second illegal move made on the board: it loses under every FIDE edition.
        moved = events + timed(("g1f3", 5), ("b8c6", 5)) + [illegal("white", "d1d5")]
        lost = {"standard": 120_000, "rapid": 0, "blitz": 60_000}[speed]
        by_move: tuple[tuple[tuple[str, ...], dict[str, Any]], ...]
        if speed == "standard":
            by_move = ((FIDE, res("0-1", "illegal_moves", white2, black2 + lost)),
                       ((US, USB), res("*", None, white2, black2 + 240_000)))
        elif speed == "rapid":
            by_move = (((F23, F23R, F23B), res("0-1", "illegal_moves", white2, black2 + 60_000)),
                       ((F18, F14), res("0-1", "illegal_moves", white2, black2 + 120_000)),
                       ((US, USB), res("*", None, white2, black2 + 240_000)))
        else:
            by_move = ((FIDE, res("0-1", "illegal_moves", white2, black2 + lost)), ((US, USB), REJECTED))
        cases.append(Case(f"illegal.second-on-the-board.{speed}", f"{control}: White's second completed "
                          "illegal move, Qd1-d5 through the pawn on d2", moved, cites + clock_cites,
                          tags + ("clocks", "increment"),
                          Q_ILLEGAL + "; the second illegal move loses under every FIDE edition (2014 7.5 b "
                          "as 2018 and 2023 7.5.5), US Chess adds two minutes again", by=by_move,
                          time_control=control))
    return cases


Q_CLOCK_PRESS = (
    "FIDE 7.5.3 (2018 7.5.3, since 1 July 2017): 'if the player presses the clock without making a "
    "move, it shall be considered and penalized as if an illegal move', so 7.5.5 counts it (two minutes "
    "to the opponent, one in 2023 rapid and blitz by A.3 and B.3 and in 2018 blitz by B.2; the second "
    "loses); FIDE 2014 6.2: pressing the clock before moving is improper clock handling, penalised by "
    "the arbiter (12.9), and 7.5 b counts only moves: no illegal move is counted and no fixed penalty "
    "follows")


def clock_press_cases() -> list[Case]:
    """A clock pressed without a move (``{"illegal": null}``): an illegal move since 2017 only."""
    tags = ("illegal-move", "clock-press")
    cites = CLOCK_PRESS + ("fide-2023:7.5.5",)
    press = illegal("white", None)
    w, b = 5_400_000 - 5_000 + 30_000, 5_400_000 - 5_000 + 30_000
    wb, bb = 180_000 - 5_000 + 2_000, 180_000 - 5_000 + 2_000
    return [
        Case("illegal.clock-press.twice", "White presses the clock without moving, twice (no time control)",
             mv("e2e4", "e7e5") + [press, {"move": "g1f3"}, {"move": "b8c6"}, press], cites, tags,
             Q_CLOCK_PRESS + "; the second such press loses since 2017; under 2014 the game goes on",
             by=((FIDE_2017, res("0-1", "illegal_moves")), ((F14,), ONGOING)), rulesets=FIDE),
        Case("illegal.clock-press.then-illegal-move", "White presses the clock without moving, then "
             "completes an illegal move (no time control)", mv("e2e4", "e7e5") + [press, {"move": "g1f3"},
             {"move": "b8c6"}, illegal("white", "e1e3")], cites + ("fide-2023:7.5.1",), tags,
             Q_CLOCK_PRESS + "; since 2017 the illegal move is White's second and loses; under 2014 it is "
             "White's first: the game goes on", by=((FIDE_2017, res("0-1", "illegal_moves")), ((F14,), ONGOING)),
             rulesets=FIDE),
        Case("illegal.clock-press.standard", "5400+30: White presses the clock without moving after 1.e4 e5",
             timed(("e2e4", 5), ("e7e5", 5)) + [press], cites + ("fide-2023:6.3.1",),
             tags + ("clocks", "increment"), Q_CLOCK_PRESS + "; 5400+30 is standard: two minutes to Black "
             "since 2017, nothing under 2014",
             by=((FIDE_2017, res("*", None, w, b + 120_000)), ((F14,), res("*", None, w, b))),
             time_control="5400+30", rulesets=FIDE),
        Case("illegal.clock-press.blitz", "180+2: White presses the clock without moving after 1.e4 e5",
             timed(("e2e4", 5), ("e7e5", 5)) + [press], cites + ILL_BLITZ[:4] + ("fide-2023:6.3.1",),
             tags + ("clocks", "increment"), Q_CLOCK_PRESS + "; 180+2 is blitz (B.1): one minute to Black "
             "since 2017, nothing under 2014",
             by=((FIDE_2017, res("*", None, wb, bb + 60_000)), ((F14,), res("*", None, wb, bb))),
             time_control="180+2", rulesets=FIDE),
    ]


# --- speed bands at their edges, and the fast regimes' exceptions -----------------------

Q_RAPID = ("FIDE A.1 (2023; 2018 and 2014 A.1 alike): 'a rapid chess game is one where either all the "
           "moves must be completed in a fixed time of more than 10 minutes but less than 60 minutes "
           "for each player; or the time allotted plus 60 times any increment is of more than 10 "
           "minutes but less than 60 minutes for each player' (a delay is not counted); US Chess 5C: "
           "base plus delay or increment, 30 to 65 minutes is dual (penalised as regular)")
SPEED_CITES = ("fide-2023:A.1", "fide-2018:A.1", "fide-2014:A.1", "uscf-7:5C")


def speed_cases() -> list[Case]:
    """Incorrect claims whose penalty shows the speed class of a control at a band's edge."""
    cases = []
    for name, control, minutes, white, black, rapid in (
        ("sixty-minutes", "1800+30", "30 + 60 x 0.5 = 60 minutes: not less than 60, so standard",
         1_820_000, 1_810_000, False),
        ("fifty-nine-and-a-half", "1770+30", "29.5 + 60 x 0.5 = 59.5 minutes: rapid",
         1_790_000, 1_780_000, True),
        ("delay-not-counted", "1800d30", "a 30 s delay is no increment: 30 minutes, rapid (US Chess "
         "counts it: 60 minutes, dual)", 1_800_000, 1_800_000, True),
    ):
        def add(seconds: int) -> Expect:
            return res("*", None, white, black + seconds * 1000)

        by = (((F23, F23R, F23B), add(60 if rapid else 120)), ((F18, F14, US, USB), add(120)))
        clock = ("fide-2023:6.3.2", "fide-2014:6.3.b", "uscf-7:5B1a") if "d" in control else \
            ("fide-2023:6.3.1", "fide-2014:6.3.a", "uscf-7:5B1b")
        cases.append(Case(
            f"claim.penalty.speed-edge.{name}", f"{control}: White's incorrect claim after 1.e4 (10 s) "
            "e5 (20 s); the penalty shows the speed class", timed(("e2e4", 10), ("e7e5", 20))
            + [claim("threefold_repetition", "white")], INCORRECT + SPEED_CITES + ("fide-2023:A.3", "uscf-7:1C2a")
            + clock, ("incorrect-claim", "clocks", "speed-band", "draw-claim"),
            Q_RAPID + f"; {control}: {minutes}; " + Q_INCORRECT, by=by, time_control=control))
    return cases


def fast_illegal_cases() -> list[Case]:
    """The second illegal move against a lone king in rapid and blitz: the draw exception."""
    fen = "4k3/8/8/8/8/8/4P3/3QK3 w - - 0 40"
    events = [illegal("white", "e1e3"), illegal("white", None)]
    rapid = ("900+10", "rapid", 900_000, (((F23, F23R, F23B), 60), ((F18,), 120)), 120,
             ((US, USB), res("*", None, 900_000, 1_140_000)))
    blitz = ("180+2", "blitz", 180_000, ((FIDE_2017, 60),), 60, ((US, USB), REJECTED))
    cases = []
    for control, speed, base, penalties, first_2014, us in (rapid, blitz):
        by = tuple((names, res("1/2-1/2", "illegal_moves", base, base + seconds * 1000))
                   for names, seconds in penalties) + (us, ((F14,), res("*", None, base, base + first_2014 * 1000)))
        cases.append(Case(
            f"illegal.second.{speed}.opponent-cannot-mate", f"{control}: White completes two illegal "
            "moves; Black has a lone king", events, ILL_STD + (ILL_RAPID if speed == "rapid" else ILL_BLITZ)
            + CLOCK_PRESS + ("uscf-7:14E1",), ("illegal-move", "lone-king", "clocks"),
            Q_ILLEGAL + f"; {control} is {speed}: the first illegal move gives Black the penalty, the "
            "second (a clock pressed without a move) would lose but Black cannot checkmate, so a draw "
            "under FIDE since 2017; under 2014 the clock press is no illegal move; US Chess adds two "
            "minutes each time" + ("" if speed == "rapid" else ", and in blitz the first already ended "
            "the game (a draw: the claimant's lone king is no mating material), so the second is "
            "rejected"), by=by, fen=fen, time_control=control))
    return cases


# --- additions to the pinned input: both flags down unseen, play without supervision ----

ADDITION = "protocol-addition"
BOTH_UNSEEN = ("fide-2023:III.3.1", "fide-2014:6.11")
Q_BOTH_UNSEEN = (
    "FIDE 2023 Guidelines III.3.1 (2018 alike): 'if both flags have fallen and it is impossible to "
    "establish which flag fell first then: III.3.1.1 the game shall continue if it occurs in any period "
    "of the game except the last period; III.3.1.2 the game is drawn if it occurs in the period of a "
    "game in which all remaining moves must be completed' (III.2.1: where announced, assumed here); "
    "FIDE 2014 6.11 a and b: the same, in the Laws proper; US Chess 14G: both flags down in sudden "
    "death, a draw; 16T: in an earlier control, play continues. Both flags down: both clocks show 0")
Q_NOT_BLITZ = ("FIDE 2023 III.2.2 (2018 alike): 'these Guidelines shall apply only to standard chess and "
               "rapid chess games without increment and not to blitz games', and since 2017 the Laws "
               "proper have no both-flags rule: the event gets no outcome, so it is rejected")
#: III.2.2, where no control here is blitz or has an increment: the time control decides the
#: regime (A.1, B.1), so under fide-2023-blitz these games are standard or rapid games.
Q_CONTROL_DECIDES = ("III.2.2: standard and rapid games without increment only; no control here is "
                     "blitz or has an increment, and the control decides the regime (A.1, B.1), so "
                     "fide-2023-blitz judges these games as standard or rapid ones")


def both_flags_unseen_cases() -> list[Case]:
    """``{"flags": "both"}``: both flags seen down together, which fell first unknown."""
    both: list[dict[str, Any]] = [{"flags": "both"}]
    draw, going = res("1/2-1/2", "flag_fall", 0, 0), res("*", None, 0, 0)
    tags = ("clocks", "flag-fall", "both-flags", "order-unknown", ADDITION)
    last, earlier = BOTH_UNSEEN + ("uscf-7:14G",), BOTH_UNSEEN + ("uscf-7:16T",)
    q = Q_BOTH_UNSEEN

    def case(name: str, description: str, events: list[dict[str, Any]], cites: tuple[str, ...],
             detail: str, expect: Expect, control: str, fen: str | None = None) -> Case:
        return Case(f"flags.both.{name}", description, events, cites + ("fide-2023:III.2.2",), tags,
                    f"{q}; {Q_CONTROL_DECIDES}; {detail}", expect, time_control=control, fen=fen)

    not_2017 = (F23, F23R, F23B, F18)
    no_guidelines = BOTH_UNSEEN + ("fide-2023:III.2.2",)
    return [
        Case("flags.both.blitz", "600 (blitz, sudden death): after 1.e4 e5 both flags are seen down, "
             "order unknown", mv("e2e4", "e7e5") + both, no_guidelines + ("uscf-7:14G",), tags,
             f"B.1: blitz, 'all the moves must be completed in a fixed time of 10 minutes or less'; "
             f"{Q_NOT_BLITZ}; FIDE 2014 6.11 b covers every game: the last period, a draw; US Chess 14G: "
             f"sudden death, a draw; {q}", draw, by=((not_2017, REJECTED),), time_control="600"),
        Case("flags.both.rapid-edge", "660 (rapid, sudden death): after 1.e4 e5 both flags are seen down, "
             "order unknown", mv("e2e4", "e7e5") + both, last + ("fide-2023:III.2.2",), tags,
             f"A.1: rapid, 'more than 10 minutes but less than 60 minutes', without increment, so III.3.1 "
             f"applies (III.2.2); one period only, the last: a draw; {q}", draw, time_control="660"),
        Case("flags.both.increment", "5400+30 (standard, increment): after 1.e4 e5 both flags are seen "
             "down, order unknown", mv("e2e4", "e7e5") + both, no_guidelines, tags,
             f"{Q_NOT_BLITZ}; FIDE 2014 6.11 b covers every game: the last period, a draw; {q}", draw,
             by=((not_2017, REJECTED),), time_control="5400+30", rulesets=FIDE),
        Case("flags.both.no-control", "No time control given: after 1.e4 e5 both flags are seen down, "
             "order unknown", mv("e2e4", "e7e5") + both, no_guidelines + ("uscf-7:14G",),
             tags, f"{q}; with no control given there is no later period, so this is the last one: a draw; "
             f"fide-2023-blitz: the game is the blitz game its ruleset says (B.1), and {Q_NOT_BLITZ}",
             res("1/2-1/2", "flag_fall"), by=(((F23B,), REJECTED),)),
        case("sudden-death", "1800 (sudden death): after 1.e4 e5 both flags are seen down, order unknown",
             mv("e2e4", "e7e5") + both, last, "one period only, the last: a draw", draw, "1800"),
        case("sudden-death-black-to-move", "1800: after 1.e4 both flags are seen down, order unknown",
             mv("e2e4") + both, last, "the last period whoever is to move: a draw", draw, "1800"),
        case("sudden-death-endgame", "3600 from a rook endgame: both flags are seen down",
             mv("a1a7") + both, last, "a draw whatever the position: the flag fall is not decided by "
             "who could mate", draw, "3600", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 60"),
        case("first-period", "40/5400:1800: after 1.e4 e5 2.Nf3 both flags are seen down",
             mv("e2e4", "e7e5", "g1f3") + both, earlier, "the first control is not the last period: "
             "play continues", going, "40/5400:1800"),
        case("first-period-then-resign", "40/5400:1800: both flags down after 1.e4 e5, play continues and "
             "Black resigns", mv("e2e4", "e7e5") + both + [{"resign": "black"}],
             earlier + ("fide-2023:5.1.2", "fide-2014:5.1.b", "uscf-7:13B"),
             "play continues, so the resignation that follows ends the game", res("1-0", "resignation", 0, 0),
             "40/5400:1800"),
        case("second-period-of-two", "2/1800:1800: both flags down after 1.e4 e5 (both still in the "
             "first control)", mv("e2e4", "e7e5") + both, earlier,
             "two moves each are due in the first control: it is not the last period, play continues",
             going, "2/1800:1800"),
        case("last-of-two", "2/1800:1800: both flags down after 1.e4 e5 2.Nf3 Nc6 (both in the last "
             "control)", mv("e2e4", "e7e5", "g1f3", "b8c6") + both, last,
             "both completed the first control: the period in which all remaining moves must be made, "
             "a draw", draw, "2/1800:1800"),
        case("after-mate", "1800: after Black's mate both flags are seen down",
             mv("f2f3", "e7e5", "g2g4", "d8h4") + both, last + ("fide-2023:5.1.1", "uscf-7:13A"),
             "checkmate 'immediately ends the game' (5.1.1; US Chess 13A), so the later event is rejected",
             REJECTED, "1800"),
    ]


Q_UNSUPERVISED = (
    "FIDE 2014 A.4 b (rapid without adequate supervision): after a completed illegal move the arbiter "
    "shall declare the game lost, if the opponent has not yet moved, and drawn if the opponent cannot "
    "checkmate the player's king by any series of legal moves; 2014 B.4: blitz otherwise follows the "
    "rapid A.4, so the first completed illegal move loses there too; 2014 A.3 and B.3: with adequate "
    "supervision the Competition Rules apply (the second loses). Later editions keep 7.5.5 without "
    "supervision while the opponent has not moved (2018 A.4.2 and B.4; 2023 A.5.2 and B.3): the first "
    "completed illegal move gives the opponent the penalty, one minute in 2023 rapid and blitz (A.3), "
    "two in 2018 rapid, one in 2018 blitz (B.2); US Chess has no supervision switch: 11D two minutes "
    "every time (1C2a), and in blitz the first completed illegal move loses on a claim, a draw if the "
    "claimant has no mating material")


def unsupervised_cases() -> list[Case]:
    """``supervised: false``: the illegal-move regimes of play without adequate supervision."""
    tags = ("illegal-move", "clocks", "supervision", ADDITION)
    clock_cites = ("fide-2023:6.3.1", "fide-2014:6.3.a", "uscf-7:5B1b")
    lone = "4k3/8/8/8/8/8/4P3/3QK3 w - - 0 40"
    cases = []
    for control, speed, base, inc in (("900+10", "rapid", 900_000, 10_000), ("180+2", "blitz", 180_000, 2_000)):
        rule = "fide-2014:A.4.b" if speed == "rapid" else "fide-2014:B.4"
        unsupervised = ("fide-2023:A.5.2", "fide-2018:A.4.2") if speed == "rapid" else ("fide-2018:B.4",)
        cites = ILL_STD + (ILL_RAPID if speed == "rapid" else ILL_BLITZ) + (rule, "uscf-7:1C2a") + clock_cites \
            + unsupervised
        p23, p18 = 60, (120 if speed == "rapid" else 60)
        us_loses = speed == "blitz"  # US Chess: 180+2 is blitz, 900+10 quick (penalised as regular)

        def split(white: int, black: int, f14: Expect, us_end: Expect,
                  penalised: str = "black") -> tuple[tuple[tuple[str, ...], Expect], ...]:
            """2014 ends the game; the later editions add the penalty; US Chess per its speed."""
            def plus(seconds: int) -> Expect:
                extra = seconds * 1000
                return res("*", None, white + (extra if penalised == "white" else 0),
                           black + (extra if penalised == "black" else 0))

            return (((F14,), f14), ((F23, F23R, F23B), plus(p23)), ((F18,), plus(p18)),
                    ((US, USB), us_end if us_loses else plus(120)))

        w, b = base - 5_000 + inc, base - 5_000 + inc
        cases.append(Case(
            f"unsupervised.{speed}.first", f"{control}, no adequate supervision: White's first completed "
            "illegal move", timed(("e2e4", 5), ("e7e5", 5)) + [illegal("white", "e1e3")], cites, tags,
            Q_UNSUPERVISED + f"; {control} is {speed}: under 2014 the first illegal move loses",
            by=split(w, b, res("0-1", "illegal_moves", w, b), res("0-1", "illegal_moves", w, b)),
            time_control=control, supervised=False))
        cases.append(Case(
            f"unsupervised.{speed}.black", f"{control}, no adequate supervision: Black's first completed "
            "illegal move after 1.e4", timed(("e2e4", 5)) + [illegal("black", "e8e6")], cites, tags,
            Q_UNSUPERVISED + f"; {control} is {speed}: under 2014 Black's first illegal move loses",
            by=split(w, base, res("1-0", "illegal_moves", w, base), res("1-0", "illegal_moves", w, base),
                     penalised="white"),
            time_control=control, supervised=False))
        cases.append(Case(
            f"unsupervised.{speed}.opponent-cannot-mate", f"{control}, no adequate supervision: White's "
            "first completed illegal move; Black has a lone king", [illegal("white", "e1c3")],
            cites + ("uscf-7:14E1",), tags + ("lone-king",),
            Q_UNSUPERVISED + f"; {control} is {speed}: under 2014 the first illegal move would lose, but "
            "Black cannot checkmate, so a draw; under US Chess blitz the claimant's lone king is no "
            "mating material, a draw", by=split(base, base, res("1/2-1/2", "illegal_moves", base, base),
                                                res("1/2-1/2", "illegal_moves", base, base)),
            fen=lone, time_control=control, supervised=False))
    w = 900_000 - 5_000 + 10_000
    cases.append(Case(
        "supervised.rapid.first", "900+10, adequate supervision stated: White's first completed illegal "
        "move", timed(("e2e4", 5), ("e7e5", 5)) + [illegal("white", "e1e3")],
        ILL_STD + ILL_RAPID + ("uscf-7:1C2a",) + clock_cites, ("illegal-move", "clocks", "supervision", ADDITION),
        Q_UNSUPERVISED + "; supervised: true is what an input without the key means: 2014 A.3 applies, the "
        "first illegal move gives Black two minutes", by=(((F23, F23R, F23B), res("*", None, w, w + 60_000)),
                                                          ((F18, F14, US, USB), res("*", None, w, w + 120_000))),
        time_control="900+10", supervised=True))
    wb = 180_000 - 5_000 + 2_000
    q_full = ("FIDE 2023 B.2: 'the Competition Rules shall apply if B.2.1 one arbiter supervises one game "
              "and B.2.2 each game is recorded'; their penalty is two minutes (7.5.5, 9.5.3), and the one "
              "minute of A.3 ('the penalties mentioned in Articles 7 and 9 of the Competitive Rules of Play "
              "shall be one minute instead of two minutes') reaches blitz only through B.3, without "
              "supervision: a reading the text leaves open. The fide-2023 tables encode one minute "
              "(clocks.penalty.blitz.full_supervision: this_regime); the literal reading, "
              "competition_rules, would give two. FIDE 2018 B.2 and 2014 B.2: 'the penalties mentioned "
              "in Articles 7 and 9 of the Competition Rules shall be one minute instead of two minutes', "
              "supervised or not")
    cases.append(Case(
        "supervised.blitz.first", "180+2, adequate supervision stated: White's first completed illegal "
        "move", timed(("e2e4", 5), ("e7e5", 5)) + [illegal("white", "e1e3")],
        ILL_STD + ILL_BLITZ + ("fide-2023:B.1",) + clock_cites,
        ("illegal-move", "clocks", "supervision", "open-reading", ADDITION),
        q_full + "; 180+2 is blitz (B.1): one minute to Black under every FIDE edition, as the tables read",
        res("*", None, wb, wb + 60_000), time_control="180+2", supervised=True, rulesets=FIDE))
    cases.append(Case(
        "supervised.blitz.incorrect-claim", "180+2, adequate supervision stated: White claims a threefold "
        "repetition that is not there", timed(("e2e4", 5), ("e7e5", 5)) + [claim("threefold_repetition", "white")],
        INCORRECT + ILL_BLITZ[:4] + ("fide-2023:B.1",) + clock_cites,
        ("incorrect-claim", "clocks", "supervision", "open-reading", "draw-claim", ADDITION),
        q_full + "; " + Q_INCORRECT + "; 180+2 is blitz (B.1): one minute to Black, as the tables read",
        res("*", None, wb, wb + 60_000), time_control="180+2", supervised=True, rulesets=FIDE))
    w = 5_400_000 - 5_000 + 30_000
    cases.append(Case(
        "unsupervised.standard.first", "5400+30, no adequate supervision: White's first completed illegal "
        "move", timed(("e2e4", 5), ("e7e5", 5)) + [illegal("white", "e1e3")],
        ILL_STD + ("uscf-7:1C2a",) + clock_cites, ("illegal-move", "clocks", "supervision", ADDITION),
        Q_UNSUPERVISED + "; 5400+30 is standard, where Appendix A and B do not reach: 7.5.5 (2014 7.5 b), "
        "two minutes to Black under every ruleset", res("*", None, w, w + 120_000),
        time_control="5400+30", supervised=False))
    return cases


CASE_GROUPS = (touch_cases, claim_cases, penalty_cases, offer_cases, resign_cases, flag_cases, clock_cases,
               illegal_cases, speed_cases, fast_illegal_cases, both_flags_unseen_cases, unsupervised_cases)


def build(data: Path) -> dict[str, list[Fixture]]:
    """game fixtures: whole games with claims, offers, flags, touches and illegal moves."""
    del data
    return {"game.jsonl": [case_fixture(case) for group in CASE_GROUPS for case in group()]}


if __name__ == "__main__":
    sys.exit(main("games", build))
