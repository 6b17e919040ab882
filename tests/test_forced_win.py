"""US Chess 14E "forced win": the proof-number search the ruling uses, and the bounded one.

Mate distances were established independently with Stockfish 15.1 (Debian package),
``position fen ...`` then ``go depth N``: the reported ``score mate M`` is the shortest
mate in moves, i.e. ``2M - 1`` plies for the side to move (``mate -M``, the side to move
mated: ``2M`` plies). The positions are the material 14E2 is about (the opponent has only
K+N or K+B; the defender's own pawns box its king in). The forced mates of 5 to 12 moves
with the flagged side to move are ``conformance/tools/generate/data/forced-win-mates.txt``, drawn
by ``conformance/tools/generate/forced_win_search.py`` and verified there with Stockfish (each
line names the engine, the depth and the score); the tests with the ``stockfish`` marker
ask Stockfish again. Negative cases are the Laws' material facts (K+N cannot mate a bare
king at all) or positions where Stockfish reports no mate and the minor piece's side is
not winning.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from reference_impl import BLACK, WHITE, Board, load_ruleset
from reference_impl.adjudication import verdicts
from reference_impl.rules.limits import limits_of
from reference_impl.unwinnability.forced_win import forced_mate, forced_mate_distance, has_forced_win

ROOT = Path(__file__).resolve().parent.parent
RULES = load_ruleset("fide-2023")
USCF = load_ruleset("uscf-7")
#: The budget the limits table gives the ruling's search (14E2).
NODE_LIMIT = limits_of(USCF).forced_win.node_limit
#: The bounded search's tests: nine plies (every mate in 5) and a budget that proves
#: "no mate within nine plies" in the hardest case here (300,000 moves made).
MAX_PLIES, BOUNDED_NODES = 9, 1_000_000
STOCKFISH = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
MATES_FILE = ROOT / "conformance" / "tools" / "generate" / "data" / "forced-win-mates.txt"


def _data() -> list[tuple[str, str, int | None, str, int, str]]:
    """(FEN, flagged, mate moves or None, engine, depth, score) per line of the data file."""
    out = []
    for line in MATES_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            fen, flagged, moves, engine, depth, score = line.split(";")
            out.append((fen, flagged, None if moves == "-" else int(moves), engine, int(depth), score))
    return out


DATA = _data()
FORCED = [(fen, flagged, moves) for fen, flagged, moves, *_ in DATA if moves is not None]
NO_MATE = [(fen, flagged) for fen, flagged, moves, *_ in DATA if moves is None]

#: (FEN, shortest forced mate for White in moves, per Stockfish) - 14E2 material.
MATES = [
    ("k7/p1K5/8/8/8/8/4B3/8 w - - 0 1", 1),      # K+B: Bf3#
    ("k7/p7/B1K5/1p6/1p6/8/8/8 w - - 0 1", 2),   # K+B: Kc7 b3 Bb7#
    ("k7/p7/B2K4/8/p7/8/8/8 w - - 0 1", 2),      # K+B: Kc7 a3 Bb7#
    ("1k6/8/BK6/8/1N6/8/8/8 w - - 0 1", 2),      # (K+B+N, not 14E2: the search alone)
    ("8/8/2p5/8/8/8/p7/k1K2N2 w - - 0 1", 2),    # K+N: Ne3 c5 Nc2#
    ("8/8/p7/8/8/2N5/p7/k1K5 w - - 0 1", 3),     # K+N: Nd1 a5 Ne3 a4 Nc2#
    ("8/8/8/8/p7/3N4/2K5/k7 w - - 0 1", 3),      # K+N
    ("8/8/p7/8/8/8/p4N2/k2K4 w - - 0 1", 4),     # K+N: Kc1 a5 Nd3 a4 Ne1 a3 Nc2#
    ("3N4/8/1p6/8/8/2K5/p7/k7 w - - 0 1", 4),    # K+N: Kc2 b5 Ne6 b4 Nd4 b3 Nxb3#
    ("8/8/2p5/8/8/2K5/p7/kN6 w - - 0 1", 4),     # K+N
    ("8/8/8/4N3/p7/p7/8/k1K5 w - - 0 1", 5),     # K+N: Nc6 Ka2 Kc2 Ka1 Nb4 a2 Kc1 a3 Nc2#
    ("8/7N/2p5/8/8/8/p7/k2K4 w - - 0 1", 5),     # K+N: Kc1 c5 Nf8 c4 Ne6 c3 Nd4 c2 Nxc2#
    ("8/8/8/N7/p7/p1K5/8/k7 w - - 0 1", 5),      # K+N
]

#: Mates Stockfish finds beyond nine plies (mate in 6, and mate in 11 against two rook's pawns).
LONGER = ["8/8/8/8/p7/p7/4N3/k2K4 w - - 0 1", "8/8/p7/8/8/p7/7N/k2K4 w - - 0 1"]
#: The reported flag fall: Black's flag falls, White forces Nb3# on its fifth move
#: (Stockfish 15.1, go depth 30: mate -5 for Black to move).
REPORTED = "7N/7p/8/8/8/8/p1K5/k7 b - - 0 1"


def board(fen: str) -> Board:
    return Board.from_fen(fen, RULES)


@pytest.mark.parametrize(("fen", "moves"), MATES)
def test_shortest_forced_mate_matches_stockfish(fen: str, moves: int) -> None:
    plies = 2 * moves - 1
    b = board(fen)
    found = forced_mate(b, WHITE, MAX_PLIES, BOUNDED_NODES)
    assert (found.found, found.plies) == (True, plies)
    assert found.nodes <= BOUNDED_NODES
    if plies > 2:
        assert has_forced_win(b, WHITE, plies - 2, BOUNDED_NODES) is False
    assert forced_mate_distance(b, WHITE, MAX_PLIES, BOUNDED_NODES) == plies


@pytest.mark.parametrize(("fen", "moves"), MATES)
def test_the_mating_line_replays_to_mate(fen: str, moves: int) -> None:
    line = forced_mate(board(fen), WHITE, MAX_PLIES, BOUNDED_NODES).line
    assert len(line) == 2 * moves - 1
    replay = chess.Board(fen)
    for uci in line:
        replay.push_uci(uci)
    assert replay.is_checkmate() and replay.turn == chess.BLACK


@pytest.mark.parametrize("fen", LONGER)
def test_mates_beyond_a_bound_are_found_without_one(fen: str) -> None:
    # The bounded search proves "no mate within 9 plies"; the rule's question has no
    # bound, and the proof-number search finds the longer forced win.
    assert has_forced_win(board(fen), WHITE, MAX_PLIES, BOUNDED_NODES) is False
    found = forced_mate(board(fen), WHITE, None, NODE_LIMIT)
    assert found.found is True and found.plies is not None and found.plies > MAX_PLIES
    _assert_mates(fen, found.line, chess.WHITE)


def test_mate_in_six_found_with_a_larger_bound() -> None:
    assert forced_mate_distance(board(LONGER[0]), WHITE, 11, BOUNDED_NODES) == 11


@pytest.mark.stockfish
@pytest.mark.skipif(STOCKFISH is None, reason="stockfish not installed")
@pytest.mark.parametrize(("fen", "moves"), MATES[4:])
def test_stockfish_agrees_on_the_mate_distance(fen: str, moves: int) -> None:
    import chess.engine

    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=24))
    finally:
        engine.quit()
    assert info["score"].white().mate() == moves
    assert forced_mate_distance(board(fen), WHITE, MAX_PLIES, BOUNDED_NODES) == 2 * moves - 1


def test_uscf_7_14E2_knight_alone_has_no_forced_win() -> None:
    # K+N v K: no checkmate exists at all (static proof), whatever the bound.
    assert has_forced_win(board("8/8/8/4k3/8/8/8/3NK3 w - - 0 1"), WHITE, 99, BOUNDED_NODES) is False


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4k3/4p3/8/3BK3/8/8 w - - 0 60",     # K+B v K+P in the middle (Stockfish: no mate)
        "k7/p1K5/1p6/8/8/8/8/4B3 w - - 0 60",    # the boxed king, bishop on the wrong diagonal
        "8/8/8/4k3/8/8/8/2NNK3 w - - 0 1",       # 14E3: K+N+N v K (Stockfish: cp -43, no mate)
    ],
)
@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_no_forced_mate_within_the_bound_is_proven_within_budget(fen: str) -> None:
    found = forced_mate(board(fen), WHITE, MAX_PLIES, BOUNDED_NODES)
    assert found.found is False and found.nodes <= BOUNDED_NODES


def test_uscf_7_14E3_two_knights_helpmate_is_not_a_forced_win() -> None:
    # Black to move, in check from Nf6: Kh8?? allows Nd6-f7#, but Kf8 escapes (Stockfish
    # 15.1, depth 15: Kf8 with a score, no mate). (An earlier version of this test checked
    # g8 with two knights at once, a double check no single move gives: FIDE 3.10.3.)
    assert has_forced_win(board("6k1/8/3N1NK1/8/8/8/8/8 b - - 0 1"), WHITE, 6, BOUNDED_NODES) is False


def test_forced_win_for_the_side_not_to_move() -> None:
    # Black to move, then White mates: 14E asks about the opponent of the flagged player.
    b = board("8/8/8/8/8/p2N4/2K5/k7 w - - 0 1")
    b.push(b.parse_uci("d3c1"))
    assert has_forced_win(b, WHITE, 2, BOUNDED_NODES) is True
    # Black's only legal move is a3a2, after which Nb3 mates: Black never mates.
    assert [b.uci(m) for m in b.legal_moves()] == ["a3a2"]
    assert has_forced_win(b, BLACK, 10, BOUNDED_NODES) is False


def test_already_mated_and_stalemate_need_no_search() -> None:
    mated = forced_mate(board("k7/p1K5/8/8/8/5B2/8/8 b - - 0 1"), WHITE, MAX_PLIES, BOUNDED_NODES)
    assert (mated.found, mated.plies, mated.nodes) == (True, 0, 0)
    stalemate = forced_mate(board("k7/P7/1K6/8/8/8/8/8 b - - 0 1"), WHITE, MAX_PLIES, BOUNDED_NODES)
    assert (stalemate.found, stalemate.nodes) == (False, 0)


def test_budget_exhausted_is_none() -> None:
    b = board("8/8/8/4k3/8/8/8/2NNK3 w - - 0 1")
    assert has_forced_win(b, WHITE, 15, node_limit=50) is None


def test_negative_bound_rejected() -> None:
    with pytest.raises(ValueError):
        has_forced_win(board("8/8/8/4k3/8/8/8/2NNK3 w - - 0 1"), WHITE, -1, BOUNDED_NODES)


def test_reexported_where_the_adjudicator_looks_for_it() -> None:
    from reference_impl import unwinnability

    assert unwinnability.has_forced_win is has_forced_win


def test_unbounded_stalemate_and_bare_king_are_proofs() -> None:
    # No search needed: K+N v K can never mate (static proof); a stalemate is no win.
    assert forced_mate(board("8/8/8/4k3/8/8/8/3NK3 w - - 0 1"), WHITE, None, NODE_LIMIT).found is False
    assert forced_mate(board("k7/P7/1K6/8/8/8/8/8 b - - 0 1"), WHITE, None, NODE_LIMIT).found is False


def test_unbounded_budget_exhausted_is_none() -> None:
    # K+N+N v K: a helpmate exists, a forced mate does not; the search cannot close the
    # tree and says so rather than guess.
    found = forced_mate(board("8/8/8/4k3/8/8/8/2NNK3 w - - 0 1"), WHITE, None, 500)
    assert (found.found, found.nodes) == (None, 500)


@pytest.mark.parametrize(("fen", "moves"), MATES)
def test_unbounded_search_finds_every_short_mate(fen: str, moves: int) -> None:
    # The strategy found is never shorter than the shortest mate (Stockfish's), and its
    # line is a real mate.
    found = forced_mate(board(fen), WHITE, None, NODE_LIMIT)
    assert found.found is True and found.plies is not None and found.plies >= 2 * moves - 1
    _assert_mates(fen, found.line, chess.WHITE)


def _assert_mates(fen: str, line: tuple[str, ...], winner: chess.Color) -> None:
    """``line`` (UCI) replays legally, by python-chess, to ``winner`` giving checkmate."""
    replay = chess.Board(fen)
    for uci in line:
        move = chess.Move.from_uci(uci)
        assert move in replay.legal_moves, (fen, line, uci)
        replay.push(move)
    assert replay.is_checkmate() and replay.turn != winner, (fen, line)


def _flag_fall(fen: str, flagged: str) -> verdicts.Ruling:
    """US Chess 14E's ruling when ``flagged``'s flag falls in ``fen`` (uscf-7)."""
    return verdicts.flag_fall(USCF, Board.from_fen(fen, USCF), 0 if flagged == "white" else 1)


def test_the_data_holds_mates_of_five_to_twelve_moves() -> None:
    assert {moves for _, _, moves in FORCED} >= set(range(5, 13))
    assert {flagged for _, flagged, _ in FORCED} == {"white", "black"}
    assert len(NO_MATE) >= 2
    for fen, flagged, moves, engine, depth, score in DATA:
        assert chess.Board(fen).turn == (chess.WHITE if flagged == "white" else chess.BLACK)
        assert engine.startswith("Stockfish") and depth >= 20
        if moves is None:
            assert not score.startswith("mate")
        else:
            assert score == f"mate -{moves}"


@pytest.mark.parametrize(("fen", "flagged", "moves"), FORCED, ids=[f"mate-in-{m}-{f}" for _, f, m in FORCED])
def test_uscf_7_14E2_forced_mate_of_five_to_twelve_moves_loses_on_time(fen: str, flagged: str, moves: int) -> None:
    # Stockfish: the flagged side to move is mated in `moves` moves against any defence,
    # so the opponent "has a forced win" and 14E2 does not save the game.
    ruling = _flag_fall(fen, flagged)
    assert (ruling.result, ruling.undetermined) == ("0-1" if flagged == "white" else "1-0", False)
    assert ruling.cite == "uscf-7:14E2" and "forced win" in (ruling.note or "")
    winner = chess.BLACK if flagged == "white" else chess.WHITE
    found = forced_mate(Board.from_fen(fen, USCF), 1 - (0 if flagged == "white" else 1), None, NODE_LIMIT)
    assert found.plies is not None and found.plies >= 2 * moves and found.nodes <= NODE_LIMIT
    _assert_mates(fen, found.line, winner)


@pytest.mark.parametrize(("fen", "flagged"), NO_MATE)
def test_uscf_7_14E2_no_forced_mate_is_a_draw(fen: str, flagged: str) -> None:
    # Stockfish finds no mate and the minor piece's side is not winning: 14E2's draw.
    ruling = _flag_fall(fen, flagged)
    assert (ruling.result, ruling.cite) == ("1/2-1/2", "uscf-7:14E2")


def test_uscf_7_14E2_the_reported_flag_fall_loses() -> None:
    # Black's flag falls; White forces Nb3# on its fifth move, beyond the nine plies the
    # table once searched: a forced win, so 1-0 (FIDE 6.9 agrees).
    ruling = _flag_fall(REPORTED, "black")
    assert (ruling.result, ruling.undetermined) == ("1-0", False)
    found = forced_mate(Board.from_fen(REPORTED, USCF), WHITE, None, NODE_LIMIT)
    assert found.plies is not None and found.plies >= 10
    _assert_mates(REPORTED, found.line, chess.WHITE)
    assert _flag_fall(REPORTED.replace("7N/", "8/"), "black").result == "1/2-1/2"  # a lone king: 14E1


def test_the_generator_reproduces_the_forced_win_fixtures_byte_for_byte(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "conformance.tools.generate.forced_win", "--data",
                          str(MATES_FILE.parent), "--out", str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert out.returncode == 0, out.stderr
    name = "timeout-forced-win.jsonl"
    assert (tmp_path / name).read_bytes() == (ROOT / "conformance" / "fixtures" / name).read_bytes()


def _stockfish_score(fen: str, depth: int) -> str:
    import chess.engine

    assert STOCKFISH is not None
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        engine.configure({"Threads": 1, "Hash": 64})
        score = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=depth))["score"].relative
    finally:
        engine.quit()
    return f"mate {score.mate()}" if score.mate() is not None else f"cp {score.score()}"


@pytest.mark.stockfish
@pytest.mark.slow
@pytest.mark.skipif(STOCKFISH is None, reason="stockfish not installed")
@pytest.mark.parametrize(("fen", "flagged", "moves", "engine", "depth", "score"),
                         [row for row in DATA if row[2] is not None])
def test_stockfish_still_reports_a_forced_mate(fen: str, flagged: str, moves: int, engine: str,
                                              depth: int, score: str) -> None:
    # A fresh engine at the recorded depth: a mate against the side to move (the flagged
    # player). Its distance may differ by a move from the recorded one, which came from
    # an engine whose hash table was warm from the positions analysed before.
    assert score == f"mate -{moves}"
    fresh = _stockfish_score(fen, depth)
    assert fresh.startswith("mate -") and abs(int(fresh.split()[1]) + moves) <= 1, fresh


@pytest.mark.stockfish
@pytest.mark.skipif(STOCKFISH is None, reason="stockfish not installed")
def test_stockfish_reports_the_reported_flag_fall_as_mate_in_five() -> None:
    assert _stockfish_score(REPORTED, 24) == "mate -5"
