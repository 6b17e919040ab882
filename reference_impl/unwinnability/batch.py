"""Many flag-fall questions at once: "can this side still checkmate?" per position.

The per-position work of :func:`~reference_impl.unwinnability.analyse` that is not
search (building a :class:`Board` from the FEN, the terminal check, the first helpmate
probe, the replay of its line, the UCI text) is done here for a whole list in one
compiled call (``csrc/batch.c``); only what that call leaves open reaches the Python
schedule. Two modes:

* **screening** (``quick=True``): the Laws' answer when the side to move has no legal
  move, then the compiled static stage, skipped where a cheaper compiled test shows it
  would prove nothing (``native.static_open``). ``CANNOT`` only with its proof, ``CAN`` only
  with a line (the position already the winner's checkmate), everything else
  ``UNDETERMINED``: nothing is guessed. For databases, where almost every position is
  winnable and the rare dead one is what matters.
* **full** (``quick=False``): the terminal check and the first helpmate probe of
  :func:`analyse`'s schedule (``PROBE_NODES``, the same compiled search with the same
  parameters, so the same line and node count) for every position in the compiled
  call; :func:`analyse` itself for each position the probe leaves open. The answers are
  :func:`analyse`'s (a test compares them on the shipped Lichess sample).

What verifies a line: the compiled legal-move generator replays it in the same call
(each move must be in the legal list of the position it is played in; the end must be
the winner's checkmate) and writes its UCI; that generator's perft counts are checked
against the interpreter's in the tests. Lines :func:`analyse` gives are replayed by the
interpreter, as always. ``verify=True`` replays every line with the interpreter too.

FEN text is read by the compiled reader only when it is sure the interpreter's
validator accepts it (``csrc/batch.c`` says which FENs are plain: the common ones);
every other FEN goes to :meth:`Board.from_fen`, which accepts it or gives the error.

The API for a caller holding boards (``arbiter audit``)::

    from reference_impl.unwinnability import batch
    answers = batch.screen([(board, color), ...])                # quick, compiled
    answers = batch.analyse_many([(board, color), ...], limit)   # screen, then full where open

Both return one :class:`~reference_impl.unwinnability.Analysis` per item, in order.
:func:`analyse_many` runs the full analysis (:func:`analyse` with ``node_limit``) for
every item the screening leaves ``UNDETERMINED``, so no finding of the full analysis is
lost. For FEN text, :func:`run_lines` answers numbered lines and reports bad ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from functools import partial
from typing import NamedTuple

from reference_impl.records import record

from ..collector import collector_paused
from ..core.board import Board
from ..errors import FenError
from . import PROBE_NODES, PROOFS, Analysis, Verdict, analyse, analyse_after_probe, native
from . import QUICK_PROBE_NODES as QUICK_MATE_NODES

__all__ = ["LineAnswer", "LineError", "QUICK_PROBE_NODES", "analyse_many", "answer_json", "json_lines",
           "mates_found_quickly", "run_lines", "screen"]

#: Nodes of the helpmate probe in screening mode: none. A median real position needs
#: about 56 moves of the probe (about 1,700 instructions each) and its line's replay,
#: several times the rest of the screening (about 23,000 instructions a position).
QUICK_PROBE_NODES = 0
#: Side names in the output, by colour.
_SIDES = ("white", "black")
#: Positions per compiled call: answers are handed on (and printed) after each call, so
#: that Ctrl-C loses at most what one call was doing.
CHUNK = 512

#: The compiled answers' verdicts and stages (native.BATCH_VERDICTS, BATCH_STAGES) here.
_VERDICTS = (Verdict.CAN, Verdict.CANNOT, Verdict.UNDETERMINED)
_STAGES = native.BATCH_STAGES
_PROOFS = tuple(PROOFS.get(stage, "") for stage in _STAGES)
_CAN, _OPEN = 0, 2
#: Each stage's proof as JSON text, for the answers the compiled call writes itself.
_PROOFS_JSON = tuple(json.dumps(proof) if proof else "null" for proof in _PROOFS)


#: The analyses of the answers without a line or nodes (nearly all of a screening), by
#: verdict and stage: an :class:`Analysis` is immutable, so one object serves them all.
_PLAIN: dict[tuple[int, int], Analysis] = {}


def _analysis(answer: native.BatchAnswer) -> Analysis:
    """A compiled answer as :func:`analyse` writes it (``UNDETERMINED`` for an open one)."""
    if not answer.line and not answer.nodes:
        plain = _PLAIN.get((answer.verdict, answer.stage))
        if plain is not None:
            return plain
    verdict = _VERDICTS[answer.verdict]
    proof = _PROOFS[answer.stage] if verdict is Verdict.CANNOT else ""
    made = Analysis(verdict, tuple(answer.line or ()), answer.nodes, _STAGES[answer.stage], proof)
    if not answer.line and not answer.nodes:
        _PLAIN[answer.verdict, answer.stage] = made
    return made


def _compiled(
    template: Board, items: list[native.BatchItem], side: int | None, quick: bool, node_limit: int,
    numbers: list[int] | None = None,
) -> tuple[list[native.BatchAnswer | bool | None], BaseException | None, list[str]]:
    """native.batch in the mode asked; with ``numbers`` the final answers' lines written
    whole, in blocks (see native.batch)."""
    probe = QUICK_PROBE_NODES if quick else min(PROBE_NODES, node_limit)
    return native.batch(template, items, side, probe=probe, full=not quick,
                        proofs=_PROOFS_JSON if numbers is not None else None, numbers=numbers)


def _replay(board: Board, line: Sequence[str], color: int) -> None:
    """``line`` (UCI) replayed by the interpreter, ending in ``color``'s checkmate."""
    work = board.copy(stack=False)
    for text in line:
        work.push_uci(text)
    if not (work.turn != color and work.is_checkmate()):
        raise native.UnverifiedLine(f"the line does not end in mate: {work.fen()}")


def _by_color(items: Sequence[tuple[Board, int]]) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for index, (_, color) in enumerate(items):
        groups.setdefault(color, []).append(index)
    return groups


def screen(items: Sequence[tuple[Board, int]]) -> list[Analysis]:
    """The screening answer for each (board, colour): ``CAN`` (the position already that
    colour's checkmate), ``CANNOT`` with a proof (terminal, static), else
    ``UNDETERMINED``. Boards of one ruleset; compiled throughout."""
    out: list[Analysis | None] = [None] * len(items)
    with collector_paused():
        for color, indices in _by_color(items).items():
            template = items[indices[0]][0]
            answers, stopped, _ = native.batch(template, [items[i][0] for i in indices], color,
                                               probe=QUICK_PROBE_NODES, full=False)
            if stopped is not None:
                raise stopped
            for index, answer in zip(indices, answers):
                out[index] = _analysis(answer)
    return out  # type: ignore[return-value]


def mates_found_quickly(items: Sequence[tuple[Board, int]], node_limit: int = QUICK_MATE_NODES) -> list[bool]:
    """:func:`~reference_impl.unwinnability.mate_found_quickly` for each (board, colour)
    of boards with a legal move, in one compiled call per colour: the same helpmate
    search with the same parameters (so the same mates found), the line checked by the
    compiled generator instead of the interpreter. Boards of one ruleset."""
    out = [False] * len(items)
    if node_limit <= 0:
        return out
    with collector_paused():
        for color, indices in _by_color(items).items():
            answers, stopped, _ = native.batch(items[indices[0]][0], [items[i][0] for i in indices], color,
                                               probe=node_limit, full=True)
            if stopped is not None:
                raise stopped
            for index, answer in zip(indices, answers):
                out[index] = answer.verdict == _CAN
    return out


def analyse_many(items: Sequence[tuple[Board, int]], node_limit: int, *, verify: bool = False) -> list[Analysis]:
    """:func:`analyse`'s verdict and line for each (board, colour) with ``node_limit``:
    the screening first, then the full analysis (compiled first probe, then
    :func:`analyse`) for every item it leaves ``UNDETERMINED``. A ``CANNOT`` the
    screening proved carries its nodes (0), not those :func:`analyse` would have spent
    on its probe first. ``verify``: replay every line with the interpreter too."""
    out = screen(items)
    pending = [i for i, a in enumerate(out) if a.verdict is Verdict.UNDETERMINED]
    probed: dict[int, int] = {}  # the moves of a probe that found no mate, by item
    with collector_paused():
        for color, indices in _by_color([items[i] for i in pending]).items():
            chosen = [pending[i] for i in indices]
            answers, stopped, _ = _compiled(items[chosen[0]][0], [items[i][0] for i in chosen], color, False,
                                            node_limit)
            if stopped is not None:
                raise stopped
            for index, answer in zip(chosen, answers):
                out[index] = _analysis(answer)
                if answer.verdict == _OPEN:
                    probed[index] = answer.nodes
    for index, (board, color) in enumerate(items):
        if out[index].verdict is Verdict.UNDETERMINED:
            # analyse()'s first stage is the probe just made: not made again
            out[index] = analyse_after_probe(board, color, node_limit, probed[index])
        elif verify and out[index].line:
            _replay(board, out[index].line, color)
    return out


# --- numbered lines of FEN text -----------------------------------------------------------


class LineAnswer(NamedTuple):
    """The answer for input line ``number`` (1-based): its FEN (the six fields), the
    colour asked and the :class:`Analysis` (a tuple: they are made by the thousand)."""

    number: int
    fen: str
    color: int
    analysis: Analysis


@record
class LineError:
    """Input line ``number`` could not be asked: ``message`` says why."""

    number: int
    message: str


#: A :class:`LineAnswer` from its four fields, made without its Python-level ``__new__``.
_line_answer = partial(tuple.__new__, LineAnswer)


def answer_json(answer: LineAnswer) -> str:
    """The JSON Lines object of ``answer`` (``arbiter unwinnable --batch``'s output):
    input_line, fen, side, verdict, line_uci (null unless ``can``), proof (null unless
    ``cannot``), nodes. Written by hand: the same text as ``json.dumps``, for less."""
    found = answer.analysis
    verdict = found.verdict
    line = json.dumps(list(found.line)) if verdict is Verdict.CAN else "null"
    proof = json.dumps(found.proof) if found.proof else "null"
    return (f'{{"input_line": {answer.number}, "fen": {json.dumps(answer.fen)}, "side": "{_SIDES[answer.color]}", '
            f'"verdict": "{verdict.value}", "line_uci": {line}, "proof": {proof}, "nodes": {found.nodes}}}')


def json_lines(
    template: Board, lines: Sequence[tuple[int, str]], side: int | None, *, quick: bool, node_limit: int,
    verify: bool = False,
) -> Iterator[str | LineError]:
    """:func:`run_lines`, the answers as :func:`answer_json` text: each str yielded is one
    or more whole output lines joined by newlines, in order (the compiled call writes
    most of them itself, a run of lines at a time)."""
    for start in range(0, len(lines), CHUNK):
        for item in _run_chunk(template, lines[start:start + CHUNK], side, quick, node_limit, verify, not verify):
            yield answer_json(item) if isinstance(item, LineAnswer) else item


def _fen_of(text: str) -> str:
    return " ".join(text.split()[:6])


def run_lines(
    template: Board, lines: Sequence[tuple[int, str]], side: int | None, *, quick: bool, node_limit: int,
    verify: bool = False,
) -> Iterator[LineAnswer | LineError]:
    """Answer each numbered line (a FEN; words after its six fields ignored), in order:
    "can ``side`` (the side not to move when None) still checkmate?" under
    ``template``'s ruleset, screening (``quick``) or full with ``node_limit``.

    Each answer is yielded as soon as it and those before it are made; a line that is
    empty or not a valid FEN yields a :class:`LineError` and the others still run. On
    Ctrl-C the answers already made are yielded (in order, leaving out the lines not
    answered) before :class:`KeyboardInterrupt`."""
    for start in range(0, len(lines), CHUNK):
        yield from _run_chunk(template, lines[start:start + CHUNK], side, quick, node_limit, verify)


def _run_chunk(template: Board, chunk: Sequence[tuple[int, str]], side: int | None, quick: bool,
               node_limit: int, verify: bool, text: bool = False) -> Iterator[LineAnswer | LineError | str]:
    """The answers of one compiled call over ``chunk`` (with ``text``: those the call
    wrote as JSON text, as that text, a run of consecutive lines in one str), then what
    the interpreter must do."""
    with collector_paused():
        answers, stopped, blocks = _compiled(template, [line for _, line in chunk], side, quick, node_limit,
                                             [number for number, _ in chunk] if text else None)
    written = iter(blocks)
    boards: dict[int, Board] = {}
    retry: list[int] = []
    errors: dict[int, LineError] = {}
    for index, answer in enumerate(answers):
        if answer is not None:
            continue
        number, text = chunk[index]
        if not text.strip():
            errors[index] = LineError(number, "empty line")
            continue
        try:
            boards[index] = Board.from_fen(_fen_of(text), template.rules)
        except FenError as error:
            errors[index] = LineError(number, str(error))
            continue
        retry.append(index)
    if retry and stopped is None:  # the interpreter validated them: the compiled stages again
        with collector_paused():
            again, stopped, _ = _compiled(template, [boards[i] for i in retry], side, quick, node_limit)
        for index, answer in zip(retry, again):
            answers[index] = answer
    for index, answer in enumerate(answers):
        number, text = chunk[index]
        if index in errors:
            yield errors[index]
            continue
        if answer is None:
            break  # stopped before its second pass
        if answer is True:  # written by the compiled call: its run's lines at the run's first
            if index == 0 or answers[index - 1] is not True:
                yield next(written)
            continue
        color = answer.side
        if answer.verdict == _OPEN and not quick:
            if stopped is not None:
                continue  # Ctrl-C came: the answers already made follow, this one is not
            board = boards.get(index) or Board.from_fen(_fen_of(text), template.rules)
            try:  # analyse()'s first stage is the probe just made: not made again
                analysis = analyse_after_probe(board, color, node_limit, answer.nodes)
            except KeyboardInterrupt as interrupt:
                stopped = interrupt
                continue
        else:
            analysis = _analysis(answer)
            if verify and analysis.line:
                _replay(boards.get(index) or Board.from_fen(_fen_of(text), template.rules), analysis.line, color)
        yield _line_answer((number, _fen_of(text), color, analysis))
    if stopped is not None:
        raise stopped
