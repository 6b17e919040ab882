"""``san`` and ``parse_san`` fixtures, all from python-chess's SAN writer and reader.

SAN is judged on legal moves only (PGN 8.2.3.4): disambiguation by file, then rank,
then square; ``+`` and ``#`` marks; ``=Q`` promotions; ``O-O``. Samples come from
seeded playouts (random moves, plus moves filtered for each rare SAN feature) and
from hand-built positions (three queens, a pinned knight). ``parse_san`` error cases
are checked against python-chess's exception classes.

Run: ``python -m conformance.tools.generate.san --data conformance/tools/generate/data
--out conformance/fixtures``.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import chess

from .common import (CHESS960, ORACLE, STANDARD, STANDARD_AND_960, Fixture, OracleMismatch,
                     checked_board, fixture, main)
from .moves import SPECIAL_960
from .playout import random_samples

#: SAN features: (tag, pattern on the SAN text, cite).
FEATURES: list[tuple[str, str, str]] = [
    ("disambiguation-file", r"^[NBRQK][a-h]x?[a-h][1-8]", "pgn:8.2.3.4"),
    ("disambiguation-rank", r"^[NBRQK][1-8]x?[a-h][1-8]", "pgn:8.2.3.4"),
    ("disambiguation-square", r"^[NBRQK][a-h][1-8]x?[a-h][1-8]", "pgn:8.2.3.4"),
    ("promotion", r"=", "pgn:8.2.3.3"),
    ("castling", r"^O-O", "pgn:8.2.3.3"),
    ("checkmate", r"#$", "pgn:8.2.3.5"),
    ("check", r"\+$", "pgn:8.2.3.5"),
]
#: Hand-built SAN cases: (name, FEN, UCI move, what).
SPECIAL: list[tuple[str, str, str, str]] = [
    ("pinned-knight", "4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2",
     "the c3 knight is pinned, so Ne2 needs no disambiguation"),
    ("pinned-rook", "4k3/8/8/8/7b/8/R4R2/4K3 w - - 0 1", "a2d2",
     "the f2 rook is pinned by the bishop, so Rd2 needs no disambiguation"),
    ("pinned-bishop", "4k3/8/8/8/8/8/8/2B1K1Br w - - 0 1", "c1e3",
     "the g1 bishop is pinned along the first rank, so Be3 needs no disambiguation"),
    ("pinned-knight-rank", "4k3/8/8/8/8/5N2/8/rN2K3 w - - 0 1", "f3d2",
     "the b1 knight is pinned along the first rank, so Nd2 needs no disambiguation"),
    ("three-queens-square", "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3",
     "three queens reach b3: file and rank both fail, the full square is needed"),
    ("three-queens-file", "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "c4b3",
     "the c4 queen is the only one on its file"),
    ("three-queens-rank", "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a2b3",
     "the a2 queen shares the file with a4 but not the rank"),
    ("rooks-same-file", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "same file: rank needed"),
    ("rooks-same-rank", "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "same rank: file needed"),
    ("castle-check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "castling gives check: O-O+"),
    ("castle-long", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "queen-side castling: O-O-O"),
    ("promote-mate", "k7/7P/1K6/8/8/8/8/8 w - - 0 1", "h7h8q", "promotion with mate: h8=Q#"),
    ("underpromote-check", "8/4P1k1/8/8/8/8/8/K7 w - - 0 1", "e7e8n",
     "underpromotion to a knight with check: e8=N+"),
    ("capture-promote", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8r", "capture and promote"),
    ("en-passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "en passant: exd6, no mark"),
    ("pawn-capture-file", "4k3/8/8/3p1p2/4P3/8/8/4K3 w - - 0 1", "e4d5",
     "pawn captures always name the origin file"),
]
#: parse_san errors: (name, FEN, SAN, error).
ERRORS: list[tuple[str, str, str, str]] = [
    ("king-blocked", chess.STARTING_FEN, "Ke2", "illegal"),
    ("castle-blocked", chess.STARTING_FEN, "O-O", "illegal"),
    ("pawn-too-far", chess.STARTING_FEN, "e5", "illegal"),
    ("wrong-side", chess.STARTING_FEN, "Nf6", "illegal"),
    ("pinned-knight", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", "illegal"),
    ("into-check", "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "Kf1", "illegal"),
    ("knights-d2", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", "ambiguous"),
    ("rooks-d1", "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rd1", "ambiguous"),
    ("queens-b3", "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "Qab3", "ambiguous"),
    ("queens-b3-rank", "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "Q4b3", "ambiguous"),
    ("unknown-piece", chess.STARTING_FEN, "Xe4", "invalid"),
    ("off-board", chess.STARTING_FEN, "e9", "invalid"),
    ("empty", chess.STARTING_FEN, "", "invalid"),
    ("no-square", chess.STARTING_FEN, "Nf", "invalid"),
    ("castle-four", chess.STARTING_FEN, "O-O-O-O", "invalid"),
    ("pawn-letter", chess.STARTING_FEN, "Pe4", "invalid"),
    ("lower-case-castle", chess.STARTING_FEN, "o-o", "invalid"),
]
#: A pawn move written without its origin file is a push (PGN 8.2.3.3): where only a
#: capture lands on the square the text is well formed and matches no legal move, so
#: "illegal" (docs/fixtures.md), not "invalid". (name, FEN, SAN, what the capture is.)
PUSH_NOT_CAPTURE: list[tuple[str, str, str, str]] = [
    ("c4-only-dxc4", "2rq1rk1/pb2bppp/1p2p3/n1ppPn2/2PP4/PP3N2/1B1NQPPP/RB3RK1 b - - 4 13", "c4",
     "dxc4 (and Nxc4) take on c4"),
    ("f6-only-en-passant", "4k3/8/8/4Pp2/8/8/8/4K3 w - f6 0 2", "f6", "exf6 takes en passant"),
    ("d8-only-capture-promotion", "3r4/2P1k3/8/8/8/8/8/4K3 w - - 0 1", "d8=Q", "cxd8=Q takes the rook"),
    ("d3-only-exd3-black", "4k3/8/8/8/4p3/3P4/8/4K3 b - - 0 1", "d3", "exd3 takes the pawn"),
]
PYTHON_CHESS_ERRORS: dict[type, str] = {
    chess.IllegalMoveError: "illegal", chess.AmbiguousMoveError: "ambiguous",
    chess.InvalidMoveError: "invalid",
}


def _tags(san: str) -> set[str]:
    return {tag for tag, pattern, _ in FEATURES if re.search(pattern, san)}


def _cites(san: str) -> list[str]:
    return sorted({"pgn:8.2.3"} | {cite for _, pattern, cite in FEATURES
                                   if re.search(pattern, san)})


def san_pair(fid: str, board: chess.Board, move: chess.Move, description: str,
             tags: set[str], method: str = "oracle",
             cites: tuple[str, ...] = ()) -> list[Fixture]:
    """A ``san`` and a ``parse_san`` fixture for one move (and Chess960 twins); ``cites``
    adds articles the SAN text alone does not show."""
    san = board.san(move)
    ftags = _tags(san) | tags
    detail = f"{ORACLE} Board.san / Board.parse_san" + (" (chess960=True)" if board.chess960
                                                        else "")
    if method != "oracle":
        detail = "built by hand from PGN 8.2.3; " + detail
    fen = board.fen(shredder=board.chess960, en_passant="fen")
    if board.parse_san(san) != move:
        raise OracleMismatch(f"{fid}: {san!r} does not read back as {move.uci()}")
    variants: list[tuple[str, list[str], chess.Board]] = []
    if board.chess960:
        variants.append(("", CHESS960, board))
        ftags.add("chess960")
    elif board.is_castling(move):
        twin = chess.Board(board.fen(), chess960=True)
        variants += [("", STANDARD, board), (".960", CHESS960, twin)]
    else:
        variants.append(("", STANDARD_AND_960, board))
    out = []
    for suffix, rulesets, mode_board in variants:
        mode_move = mode_board.parse_san(san)
        text = mode_board.uci(mode_move)
        twin_tags = ftags | ({"chess960"} if rulesets == CHESS960 else set())
        uci_cite = (["uci:chess960"] if rulesets == CHESS960 else []) + list(cites)
        out.append(fixture(f"san.{fid}{suffix}", "san", description, rulesets,
                           {"fen": fen, "move": text}, expect={"san": san},
                           cites=_cites(san) + uci_cite, tags=twin_tags, method=method,
                           detail=detail))
        out.append(fixture(f"parse-san.{fid}{suffix}", "parse_san", description, rulesets,
                           {"fen": fen, "san": san}, expect={"move": text},
                           cites=_cites(san) + uci_cite, tags=twin_tags, method=method,
                           detail=detail))
    return out


def _feature_samples(seed: int, pattern: str, want: int,
                     chess960: bool = False) -> list[tuple[str, chess.Board, chess.Move]]:
    """Positions and moves whose SAN matches ``pattern``, one per playout."""
    rng = random.Random(seed)
    found: list[tuple[str, chess.Board, chess.Move]] = []
    for game in range(2_000):
        if len(found) >= want:
            break
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(300):
            legal = list(board.legal_moves)
            if not legal:
                break
            hits = [m for m in legal if re.search(pattern, board.san(m))]
            if hits:
                found.append((f"s{seed}-g{game:05d}", board.copy(stack=False), rng.choice(hits)))
                break
            board.push(rng.choice(legal))
    return found


def build_san() -> list[Fixture]:
    """SAN round-trip fixtures: random moves, feature-filtered moves, hand-built cases."""
    out: list[Fixture] = []
    rng = random.Random(50)
    for sample in random_samples(50, 300, 160):
        board = sample.board()
        legal = list(board.legal_moves)
        for index, move in enumerate(rng.sample(legal, min(2, len(legal)))):
            out += san_pair(f"random.{sample.key}-{index}", board, move,
                            "random move in a random position", {"random"})
    for seed, (tag, pattern, _) in enumerate(FEATURES, 51):
        if tag == "disambiguation-square":
            continue  # needs three like pieces: rare in playouts, hand-built below
        for key, board, move in _feature_samples(seed, pattern, 30):
            out += san_pair(f"{tag}.{key}", board, move, f"random position; SAN with {tag}",
                            {"random"})
    for key, board, move in _feature_samples(60, r"^O-O", 30, chess960=True):
        out += san_pair(f"castle960.{key}", board, move, "Chess960 castling SAN", {"random"})
    for name, fen, uci_text, what in SPECIAL:
        board = checked_board(fen)
        out += san_pair(f"special.{name}", board, chess.Move.from_uci(uci_text), what,
                        {"hand-built"} | ({"pinned-piece"} if "pinned" in name else set()),
                        method="laws+oracle",
                        cites=("pgn:8.2.3.4",) if "pinned" in name else ())
    for name, fen, _ in SPECIAL_960:
        board = checked_board(fen, chess960=True)
        for move in board.legal_moves:
            if board.is_castling(move):
                out += san_pair(f"special960.{name}", board, move,
                                f"Chess960 castling: {name}", {"hand-built"},
                                method="laws+oracle")
    return out


def build_errors() -> list[Fixture]:
    """parse_san error fixtures, each confirmed by python-chess's exception class."""
    out = []
    for name, fen, san, error in ERRORS:
        board = checked_board(fen)
        try:
            board.parse_san(san)
        except ValueError as raised:
            got, raised_name = PYTHON_CHESS_ERRORS.get(type(raised)), type(raised).__name__
        else:
            got, raised_name = None, "nothing"
        if got != error:
            raise OracleMismatch(f"parse-san.error.{name}: expected {error}, python-chess {got}")
        out.append(fixture(f"parse-san.error.{name}", "parse_san",
                           f"{san!r} is {error}", STANDARD_AND_960, {"fen": fen, "san": san},
                           expect={"move": None, "error": error},
                           cites=["pgn:8.2.3", "pgn:8.2.3.4"] if error == "ambiguous"
                           else ["pgn:8.2.3"], tags={"parse-error", "hand-built"},
                           method="laws+oracle",
                           detail=f"built by hand; {ORACLE} parse_san raises "
                                  f"{raised_name}"))
    for name, fen, san, capture in PUSH_NOT_CAPTURE:
        board = checked_board(fen)
        try:
            board.parse_san(san)
        except chess.IllegalMoveError:
            pass
        else:
            raise OracleMismatch(f"parse-san.error.push-not-capture.{name}: python-chess reads {san}")
        out.append(fixture(
            f"parse-san.error.push-not-capture.{name}", "parse_san",
            f"{san!r} names a pawn push; only a capture lands there ({capture}): illegal",
            STANDARD_AND_960, {"fen": fen, "san": san}, expect={"move": None, "error": "illegal"},
            cites=["pgn:8.2.3", "pgn:8.2.3.3"], tags={"parse-error", "hand-built"}, method="laws+oracle",
            detail="PGN 8.2.3.3: 'In the case of pawn captures, the file letter of the originating "
                   "square of the capturing pawn is immediately prepended', so a pawn move without it "
                   f"is a push; {capture}, no push reaches the square: well formed, no legal move "
                   f"matches, so 'illegal' (docs/fixtures.md); {ORACLE} parse_san raises "
                   "IllegalMoveError"))
    return out


def build(data: Path) -> dict[str, list[Fixture]]:
    """san and parse_san fixtures."""
    del data
    pairs = build_san()
    return {"san.jsonl": [f for f in pairs if f["kind"] == "san"],
            "parse_san.jsonl": [f for f in pairs if f["kind"] == "parse_san"] + build_errors()}


if __name__ == "__main__":
    sys.exit(main("san", build))
