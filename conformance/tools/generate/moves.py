"""Move-layer fixtures: ``legal_moves``, ``apply_moves`` and ``status``.

Positions come from seeded random playouts (standard and Chess960), from playouts
filtered for rare features (legal en passant, castling, promotion, checks, mates,
stalemates) and from hand-built special cases. Every expectation is python-chess's
answer; Chess960 fixtures are computed with ``chess960=True`` (king-takes-rook UCI).

Run: ``python -m conformance.tools.generate.moves --data conformance/tools/generate/data
--out conformance/fixtures`` (``--data`` is not read; it is accepted for symmetry).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import chess

from .common import (CHESS960, ORACLE, STANDARD, STANDARD_AND_960, Fixture, checked_board,
                     fixture, main, position_tags, tag_cites)
from .illegal import illegal_fixtures
from .playout import Sample, find_samples, random_samples

#: Hand-built positions: (name, FEN, what it tests). Expectations still come from the oracle.
SPECIAL: list[tuple[str, str, str]] = [
    ("ep-rank-pin", "8/8/8/r2Pp2K/8/8/4k3/8 w - e6 0 2",
     "en passant would expose the king along the rank (both pawns leave it)"),
    ("ep-diagonal-pin", "8/8/2k5/8/3Pp3/8/6B1/4K3 b - d3 0 1",
     "the capturing pawn is pinned on a diagonal; e.p. is illegal"),
    ("ep-resolves-check", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
     "the double-stepped pawn gives check; capturing it en passant is legal"),
    ("ep-not-resolving-discovered-check", "8/8/8/6k1/3Pp3/8/8/2B1K3 b - d3 0 1",
     "d2-d4 uncovered the bishop's check; the en passant capture does not help"),
    ("ep-rank-pin-black", "8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1",
     "Black's e.p. capture would open the rank to the rook on h4"),
    ("ep-two-capturers", "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2",
     "two pawns may capture en passant"),
    ("castle-through-check", "4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1",
     "f1 attacked: no king-side castling; queen-side still legal"),
    ("castle-out-of-check", "4k3/8/8/8/8/4r3/8/R3K2R w KQ - 0 1",
     "king in check: no castling"),
    ("castle-into-check", "4k3/8/8/8/8/6r1/8/R3K2R w KQ - 0 1",
     "g1 attacked: no king-side castling"),
    ("castle-rook-attacked", "4k3/8/8/8/8/7r/8/R3K2R w KQ - 0 1",
     "the rook's square is attacked: castling is still legal (3.8.2.2.1)"),
    ("castle-b1-attacked", "4k3/8/8/8/8/1r6/8/R3K2R w KQ - 0 1",
     "b1 attacked but the king does not cross it: queen-side castling legal"),
    ("castle-blocked-b1", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1",
     "a knight on b1 blocks queen-side castling (3.8.2.2.2)"),
    ("castle-black-both", "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "Black castles either side"),
    ("promotion-capture", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
     "promotion by push and by capture, four pieces each"),
    ("promotion-black", "4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1", "Black promotes on the first rank"),
    ("promotion-pinned", "8/8/8/k7/8/8/3p4/4B1K1 b - - 0 1",
     "a pawn pinned by the bishop may only promote by capturing the pinner"),
    ("double-check", "4k3/8/8/8/1b6/8/4r3/4K3 w - - 0 1", "double check: only king moves"),
    ("knight-pinned", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "a pinned knight cannot move"),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     "the classic move-generator test position"),
]
#: Chess960 hand-built positions (X-FEN or Shredder-FEN castling fields).
SPECIAL_960: list[tuple[str, str, str]] = [
    ("hidden-checker", "4k3/8/8/8/8/8/8/qRK5 w B - 0 1",
     "K c1, R b1, enemy queen a1: c-side castling would leave the king in check"),
    ("rook-left-of-king-on-g1", "4k3/8/8/8/8/8/8/5RK1 w F - 0 1",
     "K g1, R f1: the rook is on the king's c-side, so castling takes the king to c1"),
    ("rook-stays", "4k3/8/8/8/8/8/8/3RK3 w D - 0 1",
     "c-side castling where the rook already stands on d1 (king-move-only)"),
    ("swap", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
     "K f1, R g1: g-side castling swaps king and rook (transposition castling)"),
    ("king-b1-castles-right", "4k3/8/8/8/8/8/8/RK6 w A - 0 1",
     "K b1, R a1: c-side castling moves the king right to c1 (UCI b1a1)"),
    ("long-king-walk", "4k3/8/8/8/8/8/8/1K5R w H - 0 1",
     "K b1 castles g-side: crosses c1-f1"),
    ("attacked-crossing", "4k3/8/8/8/8/3r4/8/1K5R w H - 0 1",
     "d1 is attacked and on the king's path: no g-side castling"),
    ("destination-occupied", "4k3/8/8/8/8/8/8/R1N1K3 w A - 0 1",
     "a knight on c1 stands on the king's destination: no c-side castling"),
]


def _fen(board: chess.Board, shredder: bool = False) -> str:
    return board.fen(shredder=shredder, en_passant="fen")


def legal_fixture(fid: str, board: chess.Board, description: str, tags: set[str],
                  method: str = "oracle", detail: str = "",
                  shredder: bool = False) -> list[Fixture]:
    """A legal_moves fixture; a Chess960 twin when castling UCI differs."""
    detail = detail or f"{ORACLE} Board.legal_moves"
    if board.chess960:
        ptags = position_tags(board) | tags
        return [fixture(fid, "legal_moves", description, CHESS960,
                        {"fen": _fen(board, shredder=shredder)},
                        expect={"moves": sorted(board.uci(m) for m in board.legal_moves)},
                        cites=tag_cites(ptags) + ["uci:chess960"], tags=ptags,
                        method=method, detail=detail + " (chess960=True)")]
    ptags = position_tags(board) | tags
    moves = sorted(board.uci(m) for m in board.legal_moves)
    fen = _fen(board)
    if "castling" not in ptags:
        return [fixture(fid, "legal_moves", description, STANDARD_AND_960, {"fen": fen},
                        expect={"moves": moves}, cites=tag_cites(ptags), tags=ptags,
                        method=method, detail=detail)]
    twin = chess.Board(board.fen(), chess960=True)
    return [
        fixture(fid, "legal_moves", description, STANDARD, {"fen": fen},
                expect={"moves": moves}, cites=tag_cites(ptags) + ["uci:moves"], tags=ptags,
                method=method, detail=detail),
        fixture(fid + ".960", "legal_moves", description + "; castling as king takes rook",
                CHESS960, {"fen": fen},
                expect={"moves": sorted(twin.uci(m) for m in twin.legal_moves)},
                cites=tag_cites(ptags) + ["uci:chess960"], tags=ptags | {"chess960"},
                method=method, detail=detail + " (chess960=True)"),
    ]


FEATURES: dict[str, object] = {
    "ep": lambda b: b.has_legal_en_passant(),
    "castle": lambda b: any(b.is_castling(m) for m in b.legal_moves),
    "promo": lambda b: any(m.promotion for m in b.legal_moves),
    "check": lambda b: b.is_check(),
}


def build_legal() -> list[Fixture]:
    """About 1,300 legal_moves fixtures."""
    out: list[Fixture] = []
    for sample in random_samples(1, 800, 160):
        out += legal_fixture(f"legal.random.{sample.key}", sample.board(),
                             f"random playout, {len(sample.moves)} plies", {"random"})
    for sample in random_samples(2, 200, 60, chess960=True):
        out += legal_fixture(f"legal.random960.{sample.key}", sample.board(),
                             f"Chess960 random playout, {len(sample.moves)} plies",
                             {"random", "chess960"}, shredder=len(sample.moves) % 2 == 1)
    for offset, (name, wanted) in enumerate(FEATURES.items()):
        for sample in find_samples(10 + offset, 40, wanted):  # type: ignore[arg-type]
            out += legal_fixture(f"legal.{name}.{sample.key}", sample.board(),
                                 f"random playout filtered for {name}", {"random"})
    for sample in find_samples(20, 40, FEATURES["castle"], chess960=True):  # type: ignore[arg-type]
        out += legal_fixture(f"legal.castle960.{sample.key}", sample.board(),
                             "Chess960 playout filtered for a legal castle", {"random"})
    for name, fen, what in SPECIAL:
        out += legal_fixture(f"legal.special.{name}", checked_board(fen), what, {"hand-built"},
                             method="laws+oracle",
                             detail=f"hand-built from the article text; moves from {ORACLE}")
    for name, fen, what in SPECIAL_960:
        out += legal_fixture(f"legal.special960.{name}", checked_board(fen, True), what,
                             {"hand-built", "chess960"}, method="laws+oracle",
                             detail=f"hand-built from Guidelines II; moves from {ORACLE}")
    return out


def apply_fixture(fid: str, sample: Sample, description: str) -> list[Fixture]:
    """An apply_moves fixture for a whole playout; a Chess960 twin if it castles."""
    start, end = sample.start(), sample.board()
    ucis = [m.uci() for m in sample.moves]  # python-chess standard mode: e1g1
    tags = {"random", "clocks"}
    probe = sample.start()
    for move in sample.moves:
        if probe.is_castling(move):
            tags.add("castling")
        if probe.is_en_passant(move):
            tags.add("en-passant")
        if move.promotion:
            tags.add("promotion")
        before = probe.castling_rights
        probe.push(move)
        if probe.castling_rights != before:
            tags.add("castling-rights-lost")
    cites = tag_cites(tags) + ["pgn:16.1.3.5", "pgn:16.1.3.6"]
    if sample.chess960:
        b960 = sample.start()
        moves960 = []
        for move in sample.moves:
            moves960.append(b960.uci(move))
            b960.push(move)
        return [fixture(fid, "apply_moves", description, CHESS960,
                        {"fen": start.fen(shredder=True), "moves": moves960},
                        expect={"fen": end.fen(shredder=True)}, cites=cites + ["uci:chess960"],
                        tags=tags | {"chess960"}, method="oracle",
                        detail=f"{ORACLE} Board.push, Board.fen (chess960=True)")]
    if "castling" not in tags:
        return [fixture(fid, "apply_moves", description, STANDARD_AND_960,
                        {"fen": start.fen(), "moves": ucis}, expect={"fen": end.fen()},
                        cites=cites, tags=tags, method="oracle",
                        detail=f"{ORACLE} Board.push, Board.fen")]
    twin = chess.Board(start.fen(), chess960=True)
    moves960 = []
    for move in sample.moves:
        moves960.append(twin.uci(move))
        twin.push(move)
    return [
        fixture(fid, "apply_moves", description, STANDARD, {"fen": start.fen(), "moves": ucis},
                expect={"fen": end.fen()}, cites=cites + ["uci:moves"], tags=tags,
                method="oracle", detail=f"{ORACLE} Board.push, Board.fen"),
        fixture(fid + ".960", "apply_moves", description + "; castling as king takes rook",
                CHESS960, {"fen": start.fen(), "moves": moves960},
                expect={"fen": twin.fen(shredder=True)}, cites=cites + ["uci:chess960"],
                tags=tags | {"chess960"}, method="oracle",
                detail=f"{ORACLE} Board.push, Board.fen (chess960=True)"),
    ]


def _illegal_variant(rng: random.Random, sample: Sample) -> tuple[list[str], str] | None:
    """The playout with one move replaced by an illegal one, or None if none exists."""
    board = sample.start()
    ucis: list[str] = []
    for move in sample.moves:
        bad = [m for m in board.pseudo_legal_moves if not board.is_legal(m)]
        if bad:
            choice = rng.choice(bad)
            return ucis + [board.uci(choice)], "leaves its own king in check"
        ucis.append(board.uci(move))
        board.push(move)
    return None


def build_apply() -> list[Fixture]:
    """About 550 apply_moves fixtures, some ending in an illegal move: random ones (the king
    left in check) and hand-built ones per rule (``illegal.py``)."""
    out: list[Fixture] = []
    for sample in random_samples(3, 300, 60):
        out += apply_fixture(f"apply.random.{sample.key}", _from_middle(sample),
                             f"{len(sample.moves)} random plies")
    for sample in random_samples(4, 80, 40, chess960=True):
        out += apply_fixture(f"apply.random960.{sample.key}", sample,
                             f"Chess960: {len(sample.moves)} random plies")
    for sample in find_samples(5, 40, lambda b: any(m.promotion for m in b.move_stack[-1:]),
                               max_plies=250):
        out += apply_fixture(f"apply.promotion.{sample.key}", _last(sample, 30),
                             "random plies ending in a promotion")
    for sample in find_samples(6, 40, lambda b: bool(b.move_stack) and _was_ep(b)):
        out += apply_fixture(f"apply.ep.{sample.key}", _last(sample, 12),
                             "random plies ending in an en passant capture")
    rng = random.Random(7)
    for sample in random_samples(7, 60, 50):
        found = _illegal_variant(rng, sample)
        if found is None:
            continue
        moves, why = found
        out.append(fixture(f"apply.illegal.{sample.key}", "apply_moves",
                           f"the last move {why}: an illegal sequence", STANDARD,
                           {"fen": sample.start().fen(), "moves": moves},
                           expect={"fen": None, "error": "illegal"},
                           cites=["fide-2023:3.10.2", "fide-2023:3.9.2"],
                           tags={"illegal-sequence", "random"}, method="oracle",
                           detail=f"{ORACLE} Board.is_legal is False for the last move"))
    return out + illegal_fixtures()


def _was_ep(board: chess.Board) -> bool:
    move = board.pop()
    result = board.is_en_passant(move)
    board.push(move)
    return result


def _last(sample: Sample, plies: int) -> Sample:
    """The sample restarted ``plies`` plies before its end."""
    cut = max(0, len(sample.moves) - plies)
    start = sample.start()
    for move in sample.moves[:cut]:
        start.push(move)
    return Sample(sample.key, start.fen(), sample.chess960, sample.moves[cut:])


def _from_middle(sample: Sample) -> Sample:
    """Start half-way through, so the start FEN has non-trivial clocks."""
    return _last(sample, len(sample.moves) - len(sample.moves) // 3)


def status_fixture(fid: str, board: chess.Board, description: str, tags: set[str],
                   method: str = "oracle", detail: str = "") -> Fixture:
    """A status fixture; status does not depend on castling notation."""
    result = {"check": board.is_check(), "checkmate": board.is_checkmate(),
              "stalemate": board.is_stalemate()}
    extra = {k for k in ("check", "checkmate", "stalemate") if result[k]}
    cites = {"fide-2023:3.9.1"}
    if result["checkmate"]:
        cites.add("fide-2023:5.1.1")
    if result["stalemate"]:
        cites.add("fide-2023:5.2.1")
    rulesets = CHESS960 if board.chess960 else STANDARD_AND_960
    return fixture(fid, "status", description, rulesets,
                   {"fen": board.fen(shredder=board.chess960, en_passant="fen")},
                   expect=result, cites=cites, tags=tags | extra, method=method,
                   detail=detail or f"{ORACLE} is_check, is_checkmate, is_stalemate")


def build_status() -> list[Fixture]:
    """Status fixtures: random positions plus playout-found mates and stalemates."""
    out = [status_fixture(f"status.random.{s.key}", s.board(), "random playout", {"random"})
           for s in random_samples(8, 250, 160)]
    out += [status_fixture(f"status.random960.{s.key}", s.board(), "Chess960 random playout",
                           {"random", "chess960"}) for s in random_samples(9, 50, 80, True)]
    for name, wanted in (("checkmate", chess.Board.is_checkmate),
                         ("stalemate", chess.Board.is_stalemate),
                         ("check", chess.Board.is_check)):
        out += [status_fixture(f"status.{name}.{s.key}", s.board(), f"playout ending in {name}",
                               {"random"})
                for s in find_samples(30 + len(name), 60, wanted, max_plies=400)]
    for name, fen, what in SPECIAL:
        out.append(status_fixture(f"status.special.{name}", checked_board(fen), what,
                                  {"hand-built"}))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """legal_moves, apply_moves and status fixtures from seeded playouts."""
    del data
    return {"legal_moves.jsonl": build_legal(), "apply_moves.jsonl": build_apply(),
            "status.jsonl": build_status()}


if __name__ == "__main__":
    sys.exit(main("moves", build))
