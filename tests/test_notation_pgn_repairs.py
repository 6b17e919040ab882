"""The departures from the PGN standard that real exports make and the reader repairs
(``REPAIRS``), and coordinate movetext (UCI, LAN without letters) in the audit.

Each excerpt is written here after the exports it names (cutechess and fastchess match
files, ChessBase and TWIC databases, Lichess and chess.com downloads, engine logs in UCI
notation). The expected moves and final position are python-chess's: ``chess.pgn.read_game``
on the same game written in standard form, which python-chess reads without a repair;
where python-chess reads the departure itself too, it must agree. Read with
``strict=True`` the same text must fail, with an error naming the repair's kind.
"""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from conformance.tools.audit.judge import audit_game
from reference_impl import Board, load_ruleset
from reference_impl.notation.errors import NotationError
from reference_impl.notation.game import replay
from reference_impl.notation.pgn import REPAIRS, PgnGame, read_games, repair_fen
from reference_impl.notation.san import read_san

FIDE = load_ruleset("fide-2023")
FIDE960 = load_ruleset("fide-2023-chess960")


def pgn(moves: str, result: str = "*", **tags: str) -> str:
    """A game with the seven tag roster, ``tags`` after it, and ``moves`` then ``result``."""
    head = {"Event": "e", "Site": "s", "Date": "2024.01.02", "Round": "1", "White": "w", "Black": "b",
            "Result": result, **tags}
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + f"\n{moves}\n\n"


ITALIAN = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5"
EN_PASSANT = "1. e4 a6 2. e5 d5 3. exd6"
START_BLACK = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
AFTER_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
F5_PASSED = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
PAWN_ENDING = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"

#: (repair kind, the departure as an export writes it, the same game in standard form).
CASES: list[tuple[str, str, str]] = [
    # Hand-edited and converted databases: the marker typed onto the last move.
    ("result_on_move", pgn(ITALIAN + "*"), pgn(ITALIAN + " *")),
    ("result_on_move", pgn("1. f3 e5 2. g4 Qh4#0-1", "0-1"), pgn("1. f3 e5 2. g4 Qh4# 0-1", "0-1")),
    # ChessBase: the NAG of a variation's first move written before it.
    ("nag_before_move", pgn("1. e4 e5 2. Nf3 ($1 2. d4 exd4) 2... Nc6 *"), pgn("1. e4 e5 2. Nf3 (2. d4 $1 exd4) 2... Nc6 *")),
    ("nag_before_move", pgn("$146 1. e4 e5 *"), pgn("1. e4 $146 e5 *")),
    # Printed results where the marker stands, and in the Result tag.
    ("printed_result", pgn("1. e4 e5 ½-½", "1/2-1/2"), pgn("1. e4 e5 1/2-1/2", "1/2-1/2")),
    ("printed_result", pgn("1. e4 e5 1/2", "1/2-1/2"), pgn("1. e4 e5 1/2-1/2", "1/2-1/2")),
    ("printed_result", pgn("1. e4 e5 1/2-1/2", "½-½"), pgn("1. e4 e5 1/2-1/2", "1/2-1/2")),
    ("printed_result", pgn("1. f3 e5 2. g4 Qh4# 0:1", "0-1"), pgn("1. f3 e5 2. g4 Qh4# 0-1", "0-1")),
    ("printed_result", pgn("1. f3 e5 2. g4 Qh4# 0−1", "0-1"), pgn("1. f3 e5 2. g4 Qh4# 0-1", "0-1")),
    # Typed scoresheets: the mate mark apart from the move; a comment after the marker.
    ("check_mark_token", pgn("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 # 1-0", "1-0"),
     pgn("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", "1-0")),
    ("comment_after_result", pgn("1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0 {Black is mated}", "1-0") + pgn("1. d4 *"),
     pgn("1. e4 e5 2. Qh5 Ke7 3. Qxe5# {Black is mated} 1-0", "1-0") + pgn("1. d4 *")),
    # Movetext without a marker; the Result tag says it, the next game follows.
    ("missing_result", pgn(ITALIAN, "1-0") + pgn("1. d4 *"), pgn(ITALIAN + " 1-0", "1-0") + pgn("1. d4 *")),
    # cutechess and fastchess TimeControl values (with their per-move comments).
    ("time_control_dialect", pgn("1. d4 {+0.13/12 0.29s} d5 {-0.17/15 0.30s} *", TimeControl="10+0.05"),
     pgn("1. d4 {+0.13/12 0.29s} d5 {-0.17/15 0.30s} *", TimeControl="10+1")),
    ("time_control_dialect", pgn("1. d4 {+0.03/8 5.0s} e6 {3.4s} *", TimeControl="inf"),
     pgn("1. d4 {+0.03/8 5.0s} e6 {3.4s} *", TimeControl="-")),
    ("time_control_dialect", pgn("1. d4 d5 *", TimeControl="40/60+0.6"), pgn("1. d4 d5 *", TimeControl="40/60")),
    ("time_control_dialect", pgn("1. d4 d5 *", TimeControl="0.5/move"), pgn("1. d4 d5 *", TimeControl="-")),
    # FEN tags: EPD style without clocks, fullmove 0, an e.p. square with a running clock.
    ("fen_missing_clocks", pgn("1. e4 Kd7 *", SetUp="1", FEN=PAWN_ENDING.rsplit(" ", 2)[0]),
     pgn("1. e4 Kd7 *", SetUp="1", FEN=PAWN_ENDING)),
    ("fen_fullmove_zero", pgn("1... e5 2. Nf3 *", SetUp="1", FEN=START_BLACK[:-1] + "0"),
     pgn("1... e5 2. Nf3 *", SetUp="1", FEN=START_BLACK)),
    ("fen_en_passant_clock", pgn("2. Nf3 Nc6 *", SetUp="1", FEN=AFTER_E5.replace(" - ", " e6 ")),
     pgn("2. Nf3 Nc6 *", SetUp="1", FEN=AFTER_E5)),
    ("fen_en_passant_clock", pgn("3. exf6 Nxf6 *", SetUp="1", FEN=F5_PASSED.replace(" 0 3", " 2 3")),
     pgn("3. exf6 Nxf6 *", SetUp="1", FEN=F5_PASSED)),
    # Scoresheet habits: e.p. as its own token, the ellipsis character for '...'.
    ("en_passant_token", pgn(EN_PASSANT + " e.p. *"), pgn(EN_PASSANT + " *")),
    ("ellipsis_number", pgn("1. e4 1… e5 2. Nf3 2…Nc6 *"), pgn("1. e4 1... e5 2. Nf3 2... Nc6 *")),
    # ChessBase analysis: a null move in a side line.
    ("null_move_in_variation", pgn("1. e4 e5 2. Nf3 (2. -- Nc6 3. Nf3) 2... Nc6 *"),
     pgn("1. e4 e5 2. Nf3 (2. Nc3) 2... Nc6 *")),
    # Tags copied from event pages with their quotes.
    ("tag_inner_quotes", pgn("1. e4 e5 *").replace('[Event "e"]', '[Event "The "Big" Open"]'),
     pgn("1. e4 e5 *").replace('[Event "e"]', '[Event "The \\"Big\\" Open"]')),
    # Two UTF-8 exports joined: the second one's byte-order mark.
    ("byte_order_mark", pgn("1. e4 e5 *") + "\ufeff" + pgn("1. d4 d5 *"), pgn("1. e4 e5 *") + pgn("1. d4 d5 *")),
]


def python_chess_games(text: str) -> list[chess.pgn.Game]:
    stream, out = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        out.append(game)
    return out


def line_and_position(game: PgnGame) -> tuple[list[str], str]:
    """The main line in UCI and the final FEN, replayed on the reference Board."""
    played = replay(game)
    assert played.error is None, played.error
    board, moves = played.start.copy(), []
    for move in played.moves:
        moves.append(board.uci(move))
        board.push(move)
    return moves, board.fen()


def theirs(game: chess.pgn.Game) -> tuple[list[str], str]:
    board = game.board()
    moves = []
    for move in game.mainline_moves():
        moves.append(move.uci())
        board.push(move)
    return moves, board.fen()


@pytest.mark.parametrize("kind, text, standard", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_departure_is_repaired_as_python_chess_reads_the_standard_form(kind: str, text: str, standard: str) -> None:
    ours = list(read_games(text))
    expected = python_chess_games(standard)
    assert len(ours) == len(expected)
    assert [g.errors for g in ours] == [[]] * len(ours)
    assert {k for g in ours for k in g.repairs} == {kind}
    assert all(len(g.repairs) == len(set(g.repairs)) for g in ours)  # each kind once per game
    for game, reference in zip(ours, expected):
        assert not reference.errors
        assert line_and_position(game) == theirs(reference)
        assert game.result == reference.headers["Result"] and game.tags["Result"] == reference.headers["Result"]
        assert audit_game(game, FIDE).error is None
    # Where python-chess reads the departure as written too, it reads the same moves.
    for game, reference in zip(ours, python_chess_games(text)):
        if not reference.errors and len(ours) == len(expected):
            assert line_and_position(game)[0] == theirs(reference)[0]


@pytest.mark.parametrize("kind, text, standard", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_under_strict_reading_each_departure_is_an_error_naming_it(kind: str, text: str, standard: str) -> None:
    games = list(read_games(text, strict=True))
    messages = [str(e) for g in games for e in g.errors]
    assert any(f"not repaired under strict reading: {kind}" in m for m in messages), messages
    assert all("\n" not in m for m in messages)
    assert all(g.repairs == () for g in games)
    assert any(audit_game(g, FIDE).error for g in games)
    # The standard form has nothing to refuse.
    assert all(g.errors == [] and g.repairs == () for g in read_games(standard, strict=True))


def test_every_repair_kind_has_a_case_and_a_description() -> None:
    assert {kind for kind, _, _ in CASES} == set(REPAIRS)
    assert all(isinstance(text, str) and len(text) > 20 for text in REPAIRS.values())


def test_the_repaired_fen_is_what_the_strict_fen_reader_accepts() -> None:
    # The repair is the PGN reader's: the FEN reader itself stays strict.
    for fen in (START_BLACK[:-1] + "0", AFTER_E5.replace(" - ", " e6 "), PAWN_ENDING.rsplit(" ", 2)[0]):
        with pytest.raises(Exception):
            Board.from_fen(fen, FIDE)
        fixed, kinds = repair_fen(fen)
        assert kinds and Board.from_fen(fixed, FIDE).fen() == chess.Board(fen).fen()
    assert repair_fen(PAWN_ENDING) == (PAWN_ENDING, [])
    # The e.p. square kept where a pawn can take, the clock read as 0 (python-chess keeps both).
    fixed, _ = repair_fen(F5_PASSED.replace(" 0 3", " 2 3"))
    assert fixed == F5_PASSED


def test_what_is_not_a_harmless_departure_stays_an_error() -> None:
    cases = [
        (pgn("1. e4 -- 2. d4 *"), "'--' is a null move (as ChessBase and Scid write it), not a PGN move", "1. e4"),
        (pgn("1. e4 0000 2. d4 *"), "'0000' is a null move (UCI notation), not a PGN move", "1. e4"),
        # no Result tag to take the result from
        ('[Event "e"]\n\n1. e4 e5\n\n[Event "f"]\n\n1. d4 *\n', "movetext ends without a result", "1... e5"),
        # a NAG before a move that never comes
        (pgn("1. e4 ($1) e5 *"), "NAG '$1' before any move", "1. e4"),
        (pgn("1. e4 e5 *", TimeControl="40 moves in 2h"), "TimeControl tag '40 moves in 2h' is malformed", None),
    ]
    for text, reason, move in cases:
        game = next(read_games(text))
        assert any(reason in e.reason and (move is None or move in (e.move or "")) for e in game.errors), game.errors
    # a truncated record (no newline at its end) is not given the Result tag's result
    game = next(read_games(pgn(ITALIAN, "1-0").rstrip("\n")))
    assert game.repairs == () and "without a result" in game.errors[0].reason


def test_a_fen_the_repairs_cannot_save_keeps_the_fen_readers_reason() -> None:
    game = next(read_games(pgn("1. Kd2 *", SetUp="1", FEN="4k3/8/8/8/8/8/8/4K3 w - - 7 1")))
    found = audit_game(game, FIDE)
    assert game.repairs == () and "halfmove clock 7 exceeds" in (found.error or "")


# --- coordinate movetext ---------------------------------------------------------------


def uci_game(moves: list[str], fen: str | None = None, chess960: bool = False) -> tuple[str, chess.Board]:
    """PGN with ``moves`` in UCI as movetext, and python-chess's board after them."""
    board = chess.Board(fen or chess.STARTING_FEN, chess960=chess960)
    numbered = []
    for move in moves:
        if board.turn == chess.WHITE:
            numbered.append(f"{board.fullmove_number}.")
        board.push_uci(move)
        numbered.append(move)
    outcome = board.outcome()
    result = outcome.result() if outcome else "*"
    tags = {"SetUp": "1", "FEN": fen} if fen else {}
    if chess960:
        tags["Variant"] = "Chess960"
    return pgn(" ".join(numbered) + f" {result}", result, **tags), board


COORDINATE_GAMES = [
    # Scholar's mate, as an engine log writes it
    (["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"], None, False),
    # both sides castle as UCI writes it (e1g1, e8c8), a capture, a check
    (["e2e4", "d7d5", "e4d5", "d8d5", "g1f3", "c8g4", "f1e2", "b8c6", "e1g1", "e8c8", "b1c3", "d5a5", "e2b5"],
     None, False),
    # under-promotion and promotion in lower case (e7e8q), from a position
    (["e7e8q", "g7h7", "e8e7", "h7g8", "a7a8n"], "8/P3P1k1/8/8/8/8/8/4K3 w - - 0 1", False),
    # en passant and castling by king-takes-rook notation in standard chess (e1h1)
    (["e2e4", "a7a6", "e4e5", "d7d5", "e5d6", "g8f6", "g1f3", "e7d6", "f1e2", "f8e7", "e1h1"], None, False),
    # Chess960: castling as the king taking its rook (lichess and cutechess UCI)
    (["g1h3", "g8h6", "e1f1", "e8f8", "c1b3", "c8b6", "a2a3", "a7a6"],
     "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1", True),
    (["c1b3", "c8b6", "e1d1", "e8d8"], "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1", True),
]


@pytest.mark.parametrize("moves, fen, chess960", COORDINATE_GAMES)
def test_legal_coordinate_notation_games_are_audited_with_no_finding(moves: list[str], fen: str | None,
                                                                     chess960: bool) -> None:
    text, board = uci_game(moves, fen, chess960)
    (game,) = read_games(text)
    assert game.errors == [] and game.san() == moves
    rules = FIDE960 if chess960 else FIDE
    found = audit_game(game, rules)
    assert found.error is None and found.findings == []
    played = replay(game, rules)
    assert played.error is None
    ours = played.start.copy()
    for move in played.moves:
        ours.push(move)
    assert ours.fen() == board.fen()
    assert any("coordinate_move" in used for used in played.leniencies)


def test_a_coordinate_game_is_really_judged() -> None:
    text, _ = uci_game(["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"])
    (game,) = read_games(text.replace('"1-0"', '"0-1"').replace(" 1-0", " 0-1"))
    assert [(f.rule, f.correct) for f in audit_game(game, FIDE).findings] == [("automatic_end", "1-0")]
    (game,) = read_games(pgn("1. e2e4 e7e5 2. e1e3 *"))
    assert [f.rule for f in audit_game(game, FIDE).findings] == ["illegal_move"]
    (game,) = read_games(pgn("1. g1f3 g8f6 2. f3g1 f6g8 3. g1e2 *"))
    assert [f.rule for f in audit_game(game, FIDE).findings] == ["illegal_move"]


def test_coordinate_moves_in_the_lenient_reader_only() -> None:
    board = Board(FIDE)
    parsed = read_san(board, "g1f3", lenient=True)
    assert board.uci(parsed.move) == "g1f3" and parsed.leniencies == ["coordinate_move"]
    assert read_san(board, "g1f3+", lenient=True).leniencies == ["coordinate_move", "wrong_check_mark"]
    with pytest.raises(NotationError, match="not a move|illegal"):
        read_san(board, "g1f3")
    with pytest.raises(NotationError, match="no legal move from g1 to g3"):
        read_san(board, "g1g3", lenient=True)
    # pawn moves keep the long algebraic reading they had
    assert read_san(board, "e2e4", lenient=True).leniencies == ["long_algebraic"]


def test_repaired_annotations_land_on_their_moves() -> None:
    # The NAG opening a variation is its first move's; a comment after the marker the last move's.
    game = next(read_games(CASES[2][1]))
    (variation,) = game.moves[2].variations
    assert [m.text for m in variation] == ["d4", "exd4"] and variation[0].nags == [1]
    game = next(read_games(pgn("$146 1. e4 e5 *")))
    assert game.moves[0].nags == [146]
    game = next(read_games(pgn("1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0 {Black is mated}", "1-0")))
    assert game.moves[-1].comments == ["Black is mated"] and game.repairs == ("comment_after_result",)
    # kept in a variation, the null move is written back as it was read
    game = next(read_games(CASES[[k for k, _, _ in CASES].index("null_move_in_variation")][1]))
    assert [m.text for m in game.moves[2].variations[0]] == ["--", "Nc6", "Nf3"]
