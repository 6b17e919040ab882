"""Draw the forced-win positions of ``data/forced-win-mates.txt`` with Stockfish.

US Chess 14E2 draws a flag fall against king and knight (or bishop) only when that side
has no forced win. The positions that decide such a ruling are the ones where it has one:
the defender's own pawns box its king in. This script searches for them by a seeded
walk from known forced mates (:data:`SEEDS`, each also colour-flipped, so White's flag
falls too): a neighbour moves the winner's king or piece, sets a defender's pawn back,
adds or removes one, and goes to Stockfish (``go depth``); a neighbour scored ``mate -M``
for the side to move (the defender) joins the walk, and one with ``M`` in the wanted
range is analysed again at a greater depth and kept when the second score is a mate in
the range as well, the deeper score recorded.
A few positions Stockfish scores without a mate, at the deeper depth, and not won for the
minor piece's side (a score of at most +1.00 for it), are kept as the other case.

The walk met no bishop's forced mate of five moves or more, so ``--bishop`` searches for
them apart, in the bishop's cage (:func:`cage`): the defender's king in the corner behind
its own rook's pawn, the winner's king two files away guarding the rest of its squares,
a bishop of the corner's colour, and three to seven of the defender's pawns, most where
they block the long diagonal or spend tempi. A cage Stockfish scores ``mate -M`` (M from
5 to 12) at the first depth is analysed again by new Stockfish processes at
:data:`CONFIRM_DEPTH` and :data:`DEEP_DEPTH` and kept, with the shorter of the two mates
and its depth, when both report one in the range (a search that stops early may report
a longer mate than the shortest: a mate in 8 was a mate in 9 at depth 30); every second
one kept is stored colour-flipped (White's flag falls). ``--bishop`` replaces the
bishop's lines of ``--out`` and keeps the rest.

Each line of the output: ``FEN;flagged;mate moves or -;engine;depth;score`` (the score
as Stockfish printed it, from the side to move). Found lines are also appended to
``OUT.progress`` as they come, since a bishop's forced mate of five moves or more is
rare enough that the walk may use all its tries without one. The generator
(:mod:`.forced_win`) reads the file; it needs no engine.

Run: ``python -m conformance.tools.generate.forced_win_search --engine /usr/games/stockfish
--out conformance/tools/generate/data/forced-win-mates.txt`` (then the same with ``--bishop``).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import chess
import chess.engine

#: Mate distances wanted, in the winner's moves (the defender to move).
MATES = range(5, 13)
#: Positions kept per mate distance and minor piece, and positions without a mate.
PER_DISTANCE, NO_MATE = 1, 4
#: Depth of the first look and of the confirming one, and the deeper look at the bishop's mates.
FIRST_DEPTH, CONFIRM_DEPTH, DEEP_DEPTH = 14, 30, 40
#: The bishop's cages tried, and their seed.
BISHOP_TRIES, BISHOP_SEED = 6_000, 7
#: "Not won" for the minor piece's side: at most this many centipawns for it.
NOT_WON_CP = 100
SEED = 14_02
HEADER = """\
# US Chess 14E2 forced wins: king and knight (or bishop) against king and pawns, the
# flagged player (the pawns' side) to move. Drawn by
# conformance/tools/generate/forced_win_search.py (a seeded walk from known mates, seed 1402),
# each verified with Stockfish: `position fen FEN` then `go depth N`, the score from the
# side to move. `mate -M`: the flagged player is mated in M moves against any defence
# (a forced win, so 14E2 does not save the game); no mate score: no forced mate seen at
# that depth and the position not won by the minor piece's side. The walk met no forced
# mate of five moves or more for a lone bishop; the bishop's come from a search of its
# cage (seed 7: the defender's king in the corner behind its own rook's pawn, the
# winner's king two files away, the defender's other pawns blocking the long diagonal or
# spending tempi), each kept with the shorter mate of two new Stockfish processes at
# depths 30 and 40. Every score was checked again by a new Stockfish process (no hash
# table from earlier positions); the mate in 12 comes from a scan of the knight's
# squares in K+N against king and two rook's pawns, 8/p7/8/8/8/p7/8/k1K5 b, the first
# walk's warm-hash one having been a mate in 10.
# FEN;flagged;mate moves (- for none);engine;depth;score
"""


#: Forced mates to start from, the winner to move (the project's mates of
#: tests/test_forced_win.py, and K+B ones built on the same box: the defender's king in
#: the corner behind its own rook's pawn); the winner's first move is played first.
SEEDS = (
    "k7/p1K5/8/8/8/8/4B3/8 w - - 0 1", "k7/p7/B1K5/1p6/1p6/8/8/8 w - - 0 1",
    "k7/p7/B2K4/8/p7/8/8/8 w - - 0 1", "k7/p7/2K5/1p6/8/8/8/7B w - - 0 1",
    "k7/p7/1p1K4/8/8/8/8/5B2 w - - 0 1", "k7/p7/p2K4/8/8/8/5B2/8 w - - 0 1", "8/8/2p5/8/8/8/p7/k1K2N2 w - - 0 1",
    "8/8/p7/8/8/2N5/p7/k1K5 w - - 0 1", "8/8/p7/8/8/8/p4N2/k2K4 w - - 0 1",
    "3N4/8/1p6/8/8/2K5/p7/k7 w - - 0 1", "8/8/8/4N3/p7/p7/8/k1K5 w - - 0 1",
)


def mutate(rng: random.Random, board: chess.Board) -> chess.Board | None:
    """A neighbour of ``board`` (the defender to move): the winner's king or minor piece
    moved, a defender's pawn set back a rank, added or removed; ``None`` if not legal."""
    out = board.copy(stack=False)
    defender = out.turn
    winner = not defender
    empty = [s for s in chess.SQUARES if out.piece_at(s) is None]
    pawns = list(out.pieces(chess.PAWN, defender))
    kind = rng.randrange(5)
    if kind == 0:
        king = out.king(winner)
        assert king is not None
        near = [s for s in empty if chess.square_distance(s, king) <= 2]
        if not near:
            return None
        out.remove_piece_at(king)
        out.set_piece_at(rng.choice(near), chess.Piece(chess.KING, winner))
    elif kind == 1:
        minor = next(s for s, p in out.piece_map().items() if p.color == winner and p.piece_type != chess.KING)
        piece = out.remove_piece_at(minor)
        out.set_piece_at(rng.choice(empty), piece)
    elif kind == 2 and pawns:
        pawn = rng.choice(pawns)
        back = pawn + (8 if defender == chess.BLACK else -8)
        if not 8 <= back < 56 or out.piece_at(back) is not None:
            return None
        out.remove_piece_at(pawn)
        out.set_piece_at(back, chess.Piece(chess.PAWN, defender))
    elif kind == 3 and len(pawns) < 4:
        spots = [s for s in empty if 8 <= s < 56]
        out.set_piece_at(rng.choice(spots), chess.Piece(chess.PAWN, defender))
    elif kind == 4 and len(pawns) > 1:
        out.remove_piece_at(rng.choice(pawns))
    else:
        return None
    out.ep_square = None
    out.halfmove_clock, out.fullmove_number = 0, 1
    if not out.is_valid() or out.is_game_over():
        return None
    return out


def _minor(board: chess.Board) -> int:
    """The winner's one piece besides the king (the defender is to move)."""
    return chess.KNIGHT if board.pieces(chess.KNIGHT, not board.turn) else chess.BISHOP


def score(engine: chess.engine.SimpleEngine, board: chess.Board, depth: int) -> chess.engine.Score:
    """Stockfish's score from the side to move, each position a new game (``ucinewgame``:
    no hash kept from the positions before, so a fresh engine reports the same)."""
    return engine.analyse(board, chess.engine.Limit(depth=depth), game=object())["score"].relative


def search(engine_path: str, seed: int, tries: int, progress: Path | None = None) -> list[str]:
    """The output lines: mates for each distance and minor piece, then positions without.

    A walk through the neighbourhood of the seeds: a neighbour whose first score is a
    forced mate of the defender (any distance from three moves) joins the pool walked
    from; one in the wanted range is confirmed at the deeper depth and kept. A neighbour
    without a mate and not won by the minor side is kept as a negative (a few)."""
    rng = random.Random(seed)
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    name = engine.id.get("name", engine_path)
    engine.configure({"Threads": 1, "Hash": 64})
    wanted = {(moves, minor): PER_DISTANCE for moves in MATES for minor in (chess.KNIGHT, chess.BISHOP)}
    quiet: list[str] = []
    found: dict[tuple[int, int], list[str]] = {}
    pool: list[chess.Board] = []
    for fen in SEEDS:
        board = chess.Board(fen)
        board.push(engine.play(board, chess.engine.Limit(depth=FIRST_DEPTH)).move)  # type: ignore[arg-type]
        pool.append(board.copy(stack=False))
        pool.append(board.mirror())
    seen = {b.epd() for b in pool}
    try:
        for _ in range(tries):
            if not any(wanted.values()) and len(quiet) >= NO_MATE:
                break
            needed = {minor for (_, minor), left in wanted.items() if left}
            parents = [b for b in pool if _minor(b) in needed] or pool
            child = mutate(rng, rng.choice(parents))
            if child is None or child.epd() in seen:
                continue
            board = child
            seen.add(board.epd())
            minor = _minor(board)
            first = score(engine, board, FIRST_DEPTH)
            mate = first.mate()
            flagged = chess.COLOR_NAMES[board.turn]
            if mate is not None and mate <= -3:
                pool.append(board)
                if not wanted.get((-mate, minor)):
                    continue
                deep = score(engine, board, CONFIRM_DEPTH)
                key = (-(deep.mate() or 0), minor)
                if wanted.get(key):
                    wanted[key] -= 1
                    found.setdefault(key, []).append(
                        f"{board.fen()};{flagged};{key[0]};{name};{CONFIRM_DEPTH};mate {deep.mate()}")
                    _note(progress, found[key][-1])
            elif mate is None and len(quiet) < NO_MATE and -(first.score() or 0) <= NOT_WON_CP:
                deep = score(engine, board, CONFIRM_DEPTH)
                if deep.mate() is None and -(deep.score() or 0) <= NOT_WON_CP:
                    quiet.append(f"{board.fen()};{flagged};-;{name};{CONFIRM_DEPTH};cp {deep.score()}")
                    _note(progress, quiet[-1])
    finally:
        engine.quit()
    return [line for key in sorted(found) for line in found[key]] + quiet


#: The squares of the bishop's cage, the corner a1 (the defender is Black): its king and
#: rook's pawn, where the winner's king may stand, where the defender's other pawns go
#: most often (the long diagonal and the squares next to it).
CAGE_KING, CAGE_PAWN = chess.A1, chess.A2
CAGE_WINNER_KING = (chess.C2, chess.C2, chess.C1, chess.D2, chess.D1, chess.C3)
CAGE_PAWNS = (chess.C3, chess.D4, chess.E5, chess.F6, chess.G7, chess.D3, chess.E3, chess.C4, chess.E4, chess.D5,
              chess.F5, chess.E6, chess.C5, chess.C6, chess.C7, chess.D6, chess.D7, chess.F4, chess.F3)


def cage(rng: random.Random) -> chess.Board | None:
    """A bishop's cage (Black to move and mated if any), or ``None`` if not a legal position."""
    board = chess.Board(None)
    board.set_piece_at(CAGE_KING, chess.Piece(chess.KING, chess.BLACK))
    board.set_piece_at(CAGE_PAWN, chess.Piece(chess.PAWN, chess.BLACK))
    board.set_piece_at(rng.choice(CAGE_WINNER_KING), chess.Piece(chess.KING, chess.WHITE))
    for _ in range(rng.randint(3, 7)):
        square = rng.choice(CAGE_PAWNS) if rng.random() < 0.7 else rng.randrange(chess.A3, chess.A8)
        if chess.square_file(square) >= 2 and board.piece_at(square) is None:
            board.set_piece_at(square, chess.Piece(chess.PAWN, chess.BLACK))
    dark = [s for s in chess.SQUARES if chess.BB_DARK_SQUARES >> s & 1 and board.piece_at(s) is None]
    board.set_piece_at(rng.choice(dark), chess.Piece(chess.BISHOP, chess.WHITE))
    board.turn = chess.BLACK
    return board if board.is_valid() and not board.is_game_over() else None


def fresh_score(engine_path: str, board: chess.Board, depth: int) -> chess.engine.Score:
    """Stockfish's score from the side to move, from a new process (nothing kept from before)."""
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    try:
        engine.configure({"Threads": 1, "Hash": 64})
        return score(engine, board, depth)
    finally:
        engine.quit()


def bishop_search(engine_path: str, seed: int, tries: int, progress: Path | None = None) -> list[str]:
    """The bishop's lines: per mate distance in :data:`MATES`, :data:`PER_DISTANCE` cages
    Stockfish mates at two depths (the shorter mate kept), every second one colour-flipped."""
    rng = random.Random(seed)
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    name = engine.id.get("name", engine_path)
    engine.configure({"Threads": 1, "Hash": 64})
    wanted = dict.fromkeys(MATES, PER_DISTANCE)
    kept: list[tuple[int, str]] = []
    seen: set[str] = set()
    try:
        for _ in range(tries):
            board = cage(rng)
            if board is None or board.epd() in seen:
                continue
            seen.add(board.epd())
            first = score(engine, board, FIRST_DEPTH).mate()
            if first is None or first > -4:
                continue
            mates = [(-(fresh_score(engine_path, board, depth).mate() or 0), depth) for depth in (CONFIRM_DEPTH, DEEP_DEPTH)]
            moves, depth = min(mates)
            if not all(m in MATES for m, _ in mates) or not wanted.get(moves):
                continue
            wanted[moves] -= 1
            if len(kept) % 2:
                board = board.mirror()
            kept.append((moves, f"{board.fen()};{chess.COLOR_NAMES[board.turn]};{moves};{name};{depth};mate -{moves}"))
            _note(progress, kept[-1][1])
    finally:
        engine.quit()
    return [line for _, line in sorted(kept)]


def _bishop(line: str) -> bool:
    """Is the winner's minor piece in this data line a bishop?"""
    board = chess.Board(line.split(";")[0])
    return bool(board.pieces(chess.BISHOP, not board.turn))


def _note(progress: Path | None, line: str) -> None:
    """Append ``line`` to the progress file (the output comes only at the end)."""
    print(line, file=sys.stderr, flush=True)
    if progress is not None:
        with progress.open("a", encoding="utf-8") as out:
            out.write(line + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="a UCI engine (Stockfish)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--tries", type=int, default=200_000)
    parser.add_argument("--bishop", action="store_true",
                        help="search the bishop's cages and replace the bishop's lines of --out")
    args = parser.parse_args(argv)
    if args.bishop:
        old = [line for line in args.out.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
        found = bishop_search(args.engine, BISHOP_SEED, BISHOP_TRIES, args.out.with_suffix(".progress"))
        mates = [line for line in old if line.split(";")[2] != "-" and not _bishop(line)]
        lines = sorted(mates + found, key=lambda line: (int(line.split(";")[2]), _bishop(line)))
        lines += [line for line in old if line.split(";")[2] == "-"]
    else:
        lines = search(args.engine, args.seed, args.tries, args.out.with_suffix(".progress"))
    args.out.write_text(HEADER + "".join(line + "\n" for line in lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
