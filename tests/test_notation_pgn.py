"""PGN reading and writing (PGN 4.3, 6, 8.1.1, 8.2, 9.7).

The sample file tests/data/notation/mixed.pgn was written by hand; python-chess 1.11.2
``chess.pgn.read_game`` reads the same main lines from it (38, 10 before the bad move,
3, 6 and 5 moves), which these tests compare against.
"""

from __future__ import annotations

import io
from pathlib import Path

import chess
import chess.pgn
import pytest

from reference_impl.notation.game import replay
from reference_impl.notation.pgn import PgnGame, game_from_moves, read_games, write_game

DATA = Path(__file__).parent / "data" / "notation"
MIXED = (DATA / "mixed.pgn").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def games() -> list[PgnGame]:
    return list(read_games(MIXED))


def test_every_game_is_read_even_after_broken_ones(games: list[PgnGame]) -> None:
    assert [g.tags["Event"] for g in games] == [
        "Hand-written sample", "Broken move", "Broken construct", "From a position", "Chess960"]
    assert [g.result for g in games] == ["1-0", "*", "0-1", "1/2-1/2", "*"]


def test_main_lines_match_python_chess(games: list[PgnGame]) -> None:
    stream = io.StringIO(MIXED)
    for game in games:
        theirs = chess.pgn.read_game(stream)
        assert theirs is not None
        played = replay(game)
        board = played.start.copy()
        ours = []
        for move in played.moves:
            ours.append(board.uci(move))
            board.push(move)
        pc = theirs.board()
        expected = []
        for move in theirs.mainline_moves():
            expected.append(pc.uci(move, chess960=pc.chess960))
            pc.push(move)
        assert ours == expected, game.tags["Event"]


def test_pgn_8_2_3_8_suffix_annotations_become_nags_and_variations_nest(games: list[PgnGame]) -> None:
    game = games[0]
    a6 = game.moves[5]
    assert (a6.text, a6.suffix, a6.nags) == ("a6", "!?", [5])
    assert game.moves[2].nags == [1]  # 2. Nf3 $1
    (variation,) = a6.variations
    assert [m.text for m in variation] == ["Nf6", "O-O", "Nxe4"]
    assert variation[1].comments == ["Berlin"]
    assert [[m.text for m in v] for v in variation[1].variations] == [["d3"]]
    assert game.comment == ["Opening comment"]
    assert game.moves[9].comments == ["scoresheet-style castling"]  # after 5... Be7


def test_errors_name_the_game_the_move_number_and_the_reason(games: list[PgnGame]) -> None:
    played = replay(games[1])
    assert played.error is not None
    message = str(played.error)
    assert "game 2" in message and "move 6. Nf9" in message and "invalid move" in message
    assert len(played.moves) == 10
    assert any("inside a variation" in str(e) and "game 3" in str(e) for e in games[2].errors)


def test_syntax_errors_name_the_last_move_read() -> None:
    game = next(read_games('[Event "a"]\n1. e4 e5 2. Nf3 ) Nc6 *\n'))
    assert [str(e) for e in game.errors] == ["PGN game 1, line 2, move after 2. Nf3: ')' without an open variation"]


def test_pgn_9_6_1_time_controls_are_accepted() -> None:
    from reference_impl.notation.pgn import tag_problems

    for control in ("40/7200:3600", "300+5", "*180", "?", "-", "40/9000:1800+30"):
        assert tag_problems({"TimeControl": control}) == []


def test_pgn_9_7_setup_fen_and_move_numbers_from_the_position(games: list[PgnGame]) -> None:
    game = games[3]
    assert game.fen == "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    assert game.move_label(0) == "40..." and game.move_label(1) == "41."
    assert games[4].chess960 and not games[0].chess960
    assert len(replay(games[4]).moves) == 5


@pytest.mark.parametrize(
    "text, reason",
    [
        ('[Event "a"]\n1. e4 {never closed\n', "never closed"),
        ('[Event "a"]\n1. e4 ) e5 *\n', "without an open variation"),
        ('[Event "a"]\n1. e4 $300 *\n', "out of range"),
        ('[Event "a"]\n1. e4 e5\n', "without a result"),
        ('[Event "a"\n1. e4 *\n', "malformed tag"),
        ('[Event "a"]\n[Result "1-0"]\n1. e4 0-1\n', "differs from the Result tag"),
        ('[Event "a"]\n[SetUp "1"]\n1. e4 *\n', "without a FEN tag"),
        ('[Event "a"]\n[Termination "bored"]\n1. e4 *\n', "Termination tag"),
        ('[Event "a"]\n[TimeControl "40 moves in 2h"]\n1. e4 *\n', "TimeControl tag"),
        ('[Event "a"]\n[Result "2-0"]\n1. e4 *\n', "Result tag"),
    ],
)
def test_malformed_constructs_are_reported_and_the_next_game_still_read(text: str, reason: str) -> None:
    games = list(read_games(text + '\n[Event "next"]\n1. d4 *\n'))
    assert any(reason in str(e) for e in games[0].errors)
    assert games[-1].tags.get("Event") == "next" or "never closed" in reason


def test_export_roster_order_line_length_and_nags(games: list[PgnGame]) -> None:
    text = write_game(games[0])
    tag_names = [line[1:].split(" ", 1)[0] for line in text.splitlines() if line.startswith("[")]
    assert tag_names[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert tag_names[7:] == sorted(tag_names[7:]) == ["Termination", "TimeControl", "WhiteElo"]
    assert max(len(line) for line in text.splitlines()) <= 79
    assert all(line == line.strip() for line in text.splitlines())
    assert "a6 $5" in text and "!?" not in text


def test_export_reads_back_the_same_game_in_python_chess_and_here(games: list[PgnGame]) -> None:
    for game in (games[0], games[3]):
        text = write_game(game)
        again = next(read_games(text))
        assert again.san() == game.san() and again.errors == []
        assert [m.nags for m in again.moves] == [m.nags for m in game.moves]
        theirs = chess.pgn.read_game(io.StringIO(text))
        assert theirs is not None and not theirs.errors
        assert len(list(theirs.mainline_moves())) == len(game.moves)


def test_game_from_moves_fills_the_roster_defaults() -> None:
    text = write_game(game_from_moves(["e4", "e5"]))
    assert text.startswith('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]')
    assert text.rstrip().endswith("1. e4 e5 *")


def test_many_games_per_file_and_crlf() -> None:
    text = "".join(f'[Event "g{i}"]\r\n\r\n1. e4 e5 *\r\n\r\n' for i in range(50))
    games = list(read_games(text))
    assert len(games) == 50 and all(g.san() == ["e4", "e5"] and not g.errors for g in games)


def test_export_keeps_multi_line_comments_within_the_line_limit() -> None:
    long_comment = "word " * 60 + "\nsecond line } with a brace"
    game = next(read_games('[Event "c"]\n1. e4 {' + long_comment.replace("}", ")") + "} e5 *\n"))
    text = write_game(game)
    assert max(len(line) for line in text.splitlines()) <= 79
    again = next(read_games(text))
    assert again.san() == ["e4", "e5"] and not again.errors
    assert again.moves[0].comments[0].split() == game.moves[0].comments[0].split()


def test_printed_results_end_the_game_repaired_or_under_strict_reading_with_an_error() -> None:
    text = '[Event "a"]\n1. e4 e5 ½-½\n\n[Event "b"]\n1. d4 *\n'
    games = list(read_games(text))
    assert [g.result for g in games] == ["1/2-1/2", "*"]
    assert games[0].errors == [] and games[0].repairs == ("printed_result",)
    games = list(read_games(text, strict=True))
    assert [g.result for g in games] == ["1/2-1/2", "*"]
    assert any("not PGN; read as 1/2-1/2" in str(e) for e in games[0].errors)
    assert list(read_games("")) == [] and list(read_games("\n% only an escape line\n")) == []


def _random_pgn(seed: int, games: int) -> str:
    """Seeded random games written by python-chess's exporter, with comments, NAGs and variations."""
    import random

    rng = random.Random(seed)
    out = []
    for index in range(games):
        board, game = chess.Board(), chess.pgn.Game()
        game.headers["Round"] = str(index + 1)
        node = game
        for ply in range(rng.randrange(20, 120)):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            if ply % 13 == 4 and len(legal) > 1:
                node.add_variation(rng.choice([m for m in legal if m != move])).comment = "side line"
            node = node.add_main_variation(move)
            if ply % 11 == 2:
                node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 13, 14]))
            board.push(move)
        out.append(str(game))
    return "\n\n".join(out) + "\n"


def test_python_chess_export_reads_the_same_here_and_survives_our_export() -> None:
    text = _random_pgn(3, 25)
    stream = io.StringIO(text)
    for game in read_games(text):
        theirs = chess.pgn.read_game(stream)
        assert theirs is not None and not game.errors
        played = replay(game)
        assert played.error is None
        board, ours = played.start.copy(), []
        for move in played.moves:
            ours.append(board.uci(move))
            board.push(move)
        assert [m.uci() for m in theirs.mainline_moves()] == ours
        assert [sorted(n.nags) for n in theirs.mainline()] == [sorted(m.nags) for m in game.moves]
        again = chess.pgn.read_game(io.StringIO(write_game(game)))
        assert again is not None and not again.errors
        assert list(again.mainline_moves()) == list(theirs.mainline_moves())
        assert len(again.variations) == len(theirs.variations)
