"""``arbiter unwinnable FEN``: can a side still checkmate (FIDE 5.2.2, 6.9)? With the proof.

A thin shell over :func:`reference_impl.unwinnability.analyse`. The analysis runs in a
worker process, one side after the other, so that a time limit or Ctrl-C stops it at
once (the compiled search does not look at signals until its node budget is spent)
and the sides already answered are still printed.

``arbiter unwinnable --batch FILE`` answers many positions (one FEN a line) through
:mod:`reference_impl.unwinnability.batch`: one JSON object a line, in input order.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Any

import click
from rich.text import Text

from reference_impl.adjudication.verdicts import dead_position_node_limit, flag_fall_node_limit
from reference_impl.errors import ArbiterError, UsageError
from reference_impl.notation.san import to_san
from reference_impl.core.board import Board
from reference_impl.unwinnability import Analysis, Verdict, analyse
from reference_impl.unwinnability import batch as batch_analysis

from conformance.cli.common import console, load_rules, parse_position
from .run import _jobs

#: Side names on the command line and in the output, by colour (0 = White).
SIDES = ("white", "black")
#: The compiled search counts nodes in a signed 64-bit integer; far beyond any run's reach.
MAX_NODE_LIMIT = 10**15
#: Exit status after Ctrl-C (128 + SIGINT), as every ``arbiter`` command.
EXIT_INTERRUPTED = 130
#: Why an analysis ended without a verdict: its node budget, the time limit, Ctrl-C.
LIMIT_NODES, LIMIT_TIME, LIMIT_INTERRUPT = "nodes", "time", "interrupt"
#: Verdict colours in the terminal.
STYLES = {Verdict.CAN: "green", Verdict.CANNOT: "red", Verdict.UNDETERMINED: "yellow"}

JSON_HELP = """\b
--json prints one object:
  fen, rules, node_limit, time_limit (null when none)
  terminal: "checkmate" / "stalemate" / null (answered by the Laws)
  dead: true (neither side can mate, FIDE 5.2.2), false (a side can),
        null (undetermined, the game already over, or --side
        with a side that cannot)
  cite: the article of the dead-position rule or of the terminal rule
  sides: {"white"/"black": {verdict ("can"/"cannot"/"undetermined"),
        stage, line_uci, line_san, proof (null unless "cannot"),
        nodes, cpu_seconds, wall_seconds, limit ("nodes"/"time"/
        "interrupt"/null)}}; nodes and cpu_seconds are null for a
        side stopped by the time limit or Ctrl-C."""


@dataclass(frozen=True)
class SideReport:
    """One side's answer as the command shows it."""

    analysis: Analysis
    cpu: float | None
    wall: float
    limit: str | None = None


class AnalysisCrashed(ArbiterError):
    """The worker process died without an answer (a bug, or killed from outside)."""


# --- the worker process -----------------------------------------------------------------


def _mask_sigint(block: bool) -> None:
    """Block or unblock SIGINT for this thread (where the platform has signal masks)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK if block else signal.SIG_UNBLOCK, {signal.SIGINT})


def _worker(conn: Any, fen: str, rules_id: str, colors: tuple[int, ...], node_limit: int) -> None:
    """Analyse each colour in turn, sending ``("start", color)`` and ``("done", color,
    analysis, cpu, wall)``; Ctrl-C is the parent's to handle, so it is ignored here."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _mask_sigint(False)
    try:
        board = parse_position(fen, load_rules(rules_id))
        for color in colors:
            conn.send(("start", color))
            cpu, wall = time.process_time(), time.perf_counter()
            found = analyse(board, color, node_limit)
            conn.send(("done", color, found, time.process_time() - cpu, time.perf_counter() - wall))
    except BaseException:  # a bug: hand the traceback to the parent, which reports it
        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


def _start(fen: str, rules_id: str, colors: tuple[int, ...], node_limit: int) -> tuple[Any, Any]:
    """The worker and the end of the pipe it answers on. SIGINT is left blocked: the
    child cannot die of Ctrl-C before it ignores it, and the caller unblocks it (a
    Ctrl-C that came meanwhile is then delivered) once it is ready to stop the child."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(sender, fen, rules_id, colors, node_limit), daemon=True)
    _mask_sigint(True)
    try:
        process.start()
    except BaseException:
        _mask_sigint(False)
        raise
    sender.close()
    return process, receiver


def run_analysis(fen: str, rules_id: str, colors: tuple[int, ...], node_limit: int,
                 time_limit: float | None, verbose: bool) -> tuple[dict[int, SideReport], bool]:
    """Each colour's report, and whether Ctrl-C stopped the run. A colour not answered
    when the time limit passes (or on Ctrl-C) is ``UNDETERMINED`` with that limit;
    answers already in the pipe when the worker is stopped are kept."""
    process, receiver = _start(fen, rules_id, colors, node_limit)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    reports: dict[int, SideReport] = {}
    started: dict[int, float] = {}

    def take(message: tuple[Any, ...]) -> None:
        if message[0] == "error":
            raise RuntimeError(f"the analysis failed:\n{message[1]}")
        if message[0] == "start":
            started[message[1]] = time.perf_counter()
            if verbose:
                click.echo(f"arbiter: analysing {SIDES[message[1]]} (node limit {node_limit:,})", err=True)
            return
        _, color, found, cpu, wall = message
        reports[color] = SideReport(found, cpu, wall, LIMIT_NODES if found.verdict is Verdict.UNDETERMINED else None)

    stopped_by = LIMIT_TIME
    # Ctrl-C becomes a byte on a pipe the loop waits on, never an exception in the middle
    # of reading an answer (which would lose that answer and every one behind it).
    wake_reader, wake_writer = os.pipe()
    os.set_blocking(wake_writer, False)
    previous = signal.signal(signal.SIGINT, lambda *_: os.write(wake_writer, b"\0"))
    try:
        _mask_sigint(False)
        while len(reports) < len(colors):
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = multiprocessing.connection.wait([receiver, wake_reader], wait)
            if receiver in ready:
                try:
                    message = receiver.recv()
                except EOFError:
                    process.join()
                    raise AnalysisCrashed(f"the analysis process ended without an answer "
                                          f"(exit status {process.exitcode})") from None
                take(message)
                continue
            if wake_reader in ready:
                stopped_by = LIMIT_INTERRUPT
            break
    finally:
        signal.signal(signal.SIGINT, previous)
        os.close(wake_reader)
        os.close(wake_writer)
        if process.is_alive():
            process.kill()
        process.join()
    try:
        while len(reports) < len(colors) and receiver.poll(0):
            take(receiver.recv())
    except EOFError:
        pass
    finally:
        receiver.close()
    now = time.perf_counter()
    for color in colors:
        if color not in reports:
            wall = now - started[color] if color in started else 0.0
            reports[color] = SideReport(Analysis(Verdict.UNDETERMINED), None, wall, stopped_by)
    return reports, stopped_by == LIMIT_INTERRUPT


# --- what the answers mean --------------------------------------------------------------


def san_line(board: Board, line: tuple[str, ...]) -> list[str]:
    """The UCI moves of ``line`` as SAN, played from ``board`` (left unchanged)."""
    work, sans = board.copy(), []
    for text in line:
        move = work.parse_uci(text)
        sans.append(to_san(work, move))
        work.push(move)
    return sans


def movetext(board: Board, sans: list[str]) -> str:
    """``1. e4 e5 2. Qh5`` (or ``1... e5``) from the position's move number and side to move."""
    number, turn, words = board.fullmove_number, board.turn, []
    for index, san in enumerate(sans):
        if turn == 0:
            words.append(f"{number}. {san}")
        else:
            words.append(f"{number}... {san}" if index == 0 else san)
            number += 1
        turn ^= 1
    return " ".join(words)


def terminal_of(board: Board) -> str | None:
    """``checkmate`` or ``stalemate`` when the side to move has no legal move."""
    if board.legal_move_count():
        return None
    return "checkmate" if board.is_check() else "stalemate"


def dead_of(reports: dict[int, SideReport], terminal: str | None) -> bool | None:
    """FIDE 5.2.2: dead when neither side can mate; known alive as soon as one side can."""
    if terminal is not None:
        return None
    verdicts = [r.analysis.verdict for r in reports.values()]
    if Verdict.CAN in verdicts:
        return False
    if len(reports) == 2 and all(v is Verdict.CANNOT for v in verdicts):
        return True
    return None


def as_json(board: Board, rules: Any, reports: dict[int, SideReport], node_limit: int,
            time_limit: float | None) -> dict[str, Any]:
    terminal = terminal_of(board)
    rule = terminal or "dead_position"
    sides = {}
    for color, report in sorted(reports.items()):
        found, stopped = report.analysis, report.limit in (LIMIT_TIME, LIMIT_INTERRUPT)
        sides[SIDES[color]] = {
            "verdict": found.verdict.value, "stage": found.stage, "line_uci": list(found.line),
            "line_san": san_line(board, found.line), "proof": found.proof or None,
            "nodes": None if stopped else found.nodes,
            "cpu_seconds": None if report.cpu is None else round(report.cpu, 6),
            "wall_seconds": round(report.wall, 6), "limit": report.limit,
        }
    return {"fen": board.fen(), "rules": rules.id, "node_limit": node_limit, "time_limit": time_limit,
            "terminal": terminal, "dead": dead_of(reports, terminal),
            "cite": termination_cite(rules, rule), "sides": sides}


def termination_cite(rules: Any, end: str) -> str | None:
    """The article of the ruleset's ``termination`` entry for ``end`` (checkmate,
    stalemate, dead_position), if it has one."""
    termination = rules.model.termination
    if termination is None:
        return None
    entry = {"checkmate": termination.checkmate, "stalemate": termination.stalemate,
             "dead_position": termination.dead_position}.get(end)
    return None if entry is None else entry.cite


# --- the text output --------------------------------------------------------------------


def _verdict_text(report: SideReport, terminal: str | None, node_limit: int, time_limit: float | None) -> Text:
    found = report.analysis
    text = Text(f"{found.verdict.value}", style=STYLES[found.verdict])
    if found.verdict is Verdict.CAN and found.stage == "terminal":
        text.append(f" (the position is already {terminal})")
    elif found.verdict is Verdict.CAN:
        text.append(f" (helpmate in {len(found.line)} plies)")
    elif report.limit == LIMIT_NODES:
        text.append(f" (node limit {node_limit:,} reached)")
    elif report.limit == LIMIT_TIME:
        text.append(f" (time limit {time_limit:g} s)")
    elif report.limit == LIMIT_INTERRUPT:
        text.append(" (interrupted)")
    return text


def print_text(board: Board, rules: Any, reports: dict[int, SideReport], node_limit: int,
               time_limit: float | None) -> None:
    out = console()
    terminal = terminal_of(board)
    out.print(Text(f"position  {board.fen()}  ({rules.id}, node limit {node_limit:,})"))
    for color, report in sorted(reports.items()):
        found = report.analysis
        out.print(Text(f"{SIDES[color]:<9} ").append_text(_verdict_text(report, terminal, node_limit, time_limit)))
        if found.line:
            out.print(Text(f"          uci   {' '.join(found.line)}"))
            out.print(Text(f"          san   {movetext(board, san_line(board, found.line))}"))
        if found.proof:
            out.print(Text(f"          proof {found.proof}"))
        nodes = "-" if report.limit in (LIMIT_TIME, LIMIT_INTERRUPT) else f"{found.nodes:,}"
        cpu = "-" if report.cpu is None else f"{report.cpu:.3f}"
        out.print(Text(f"          stage {found.stage}, {nodes} nodes, {cpu} s CPU, {report.wall:.3f} s wall"))
    if terminal is not None:
        cite = termination_cite(rules, terminal)
        out.print(Text(f"game over {terminal} ({cite}): answered by the Laws, no search"))
        return
    dead = dead_of(reports, terminal)
    cite = termination_cite(rules, "dead_position")
    if dead is True:
        out.print(Text(f"dead      yes: neither side can checkmate ({cite})"))
    elif dead is False:
        mater = next(SIDES[c] for c, r in sorted(reports.items()) if r.analysis.verdict is Verdict.CAN)
        out.print(Text(f"dead      no: {mater} can checkmate ({cite})"))
    elif len(reports) == 2:
        out.print(Text(f"dead      undetermined ({cite})"))


# --- --batch ----------------------------------------------------------------------------

BATCH_HELP = """\b
--batch FILE answers, for every line of FILE (one FEN; words after
its six fields are ignored), "can the side NOT to move still
checkmate?" (FIDE 6.9; --side asks one side instead), and prints one
JSON object per answered line, in input order:
  input_line (1-based), fen (the six fields), side ("white"/"black"),
  verdict ("can"/"cannot"/"undetermined"), line_uci (the helpmate,
  a list of UCI moves, or null), proof (for "cannot", else null),
  nodes (moves the searches made).
Full mode decides at the ruleset's flag_fall node limit (--node-limit
overrides). --quick screens: "cannot" only with a proof, "can" only
with a line, everything else "undetermined". A bad line (empty, not
UTF-8, not a valid FEN) is a one-line error on stderr naming the
line; the other lines still run and the exit status is then 1."""
#: Lines per task handed to a worker process with -j: small enough that Ctrl-C finds
#: most tasks finished (their answers are printed), large enough to cost little to send.
BATCH_TASK_LINES = 256
#: How often the -j loop looks for Ctrl-C while it waits for a task.
TASK_POLL_SECONDS = 0.05


def _read_lines(source: str) -> tuple[list[tuple[int, str]], list[batch_analysis.LineError]]:
    """The numbered lines of ``source`` (a path or ``-``), and those that are not UTF-8."""
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(source, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise ArbiterError(f"--batch {source}: {error.strerror or error}") from None
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    lines: list[tuple[int, str]] = []
    bad: list[batch_analysis.LineError] = []
    if text is not None:
        pieces = text.split("\n")[:len(raw)]
        lines = [(n, piece[:-1] if piece.endswith("\r") else piece) for n, piece in enumerate(pieces, 1)]
        return lines, bad
    for number, chunk in enumerate(raw, 1):
        try:
            piece = chunk.decode("utf-8")
        except UnicodeDecodeError as error:
            bad.append(batch_analysis.LineError(number, f"not UTF-8 (byte 0x{chunk[error.start]:02x} at column "
                                                        f"{error.start + 1})"))
            continue
        lines.append((number, piece[:-1] if piece.endswith("\r") else piece))
    return lines, bad


def _batch_task(rules_id: str, lines: list[tuple[int, str]], side: int | None, quick: bool, node_limit: int,
                verify: bool) -> list[str | tuple[int, str]]:
    """A worker's share: the JSON text of each answer, (number, message) for each bad line."""
    template = Board(load_rules(rules_id))
    return [item if isinstance(item, str) else (item.number, item.message)
            for item in batch_analysis.json_lines(template, lines, side, quick=quick, node_limit=node_limit,
                                                  verify=verify)]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_batch(source: str, side_name: str | None, rules_id: str, node_limit: int | None, quick: bool, jobs: int,
              verify: bool) -> None:
    """``--batch``: answer every line of ``source``, print JSON Lines in input order, the
    bad lines on stderr; exit 1 if there were any, 130 on Ctrl-C (after the answers made)."""
    if jobs < 1:
        raise UsageError(f"-j must be at least 1, got {jobs}")
    rules = load_rules(rules_id)
    if node_limit is None:
        node_limit = flag_fall_node_limit(rules)
    side = None if side_name is None else SIDES.index(side_name)
    # The answers hold no reference cycles: the cyclic collector's passes over the
    # growing heap would cost more than the answers.
    enabled = gc.isenabled()
    gc.disable()
    try:
        _batch(source, side, rules, rules_id, node_limit, quick, jobs, verify)
    finally:
        if enabled:
            gc.enable()


def _batch(source: str, side: int | None, rules: Any, rules_id: str, node_limit: int, quick: bool, jobs: int,
           verify: bool) -> None:
    lines, unreadable = _read_lines(source)
    errors = {e.number: e.message for e in unreadable}
    bad = 0
    out = sys.stdout

    def emit(item: str | tuple[int, str]) -> None:
        nonlocal bad
        if isinstance(item, str):
            out.write(item + "\n")
            return
        out.flush()
        bad += 1
        click.echo(f"arbiter: line {item[0]}: {item[1]}", err=True)

    def emit_errors_before(number: int) -> None:
        if errors:  # the lines that were not UTF-8, each in its place
            for n in sorted(k for k in errors if k < number):
                emit((n, errors.pop(n)))

    interrupted = False
    try:
        if jobs == 1:
            template = Board(rules)
            for item in batch_analysis.json_lines(template, lines, side, quick=quick, node_limit=node_limit,
                                                  verify=verify):
                if isinstance(item, str):
                    emit(item)
                else:
                    emit_errors_before(item.number)
                    emit((item.number, item.message))
        else:
            interrupted = _run_batch_pool(rules_id, lines, side, quick, node_limit, verify, jobs, emit,
                                          emit_errors_before)
    except KeyboardInterrupt:
        interrupted = True
    if not interrupted:
        emit_errors_before(len(lines) + len(errors) + 2)
    out.flush()
    if interrupted:
        click.echo("arbiter: interrupted", err=True)
        raise SystemExit(EXIT_INTERRUPTED)
    if bad:
        click.echo(f"arbiter: {bad} bad line{'s' if bad != 1 else ''} of {len(lines) + len(unreadable)}", err=True)
        raise SystemExit(1)


def _run_batch_pool(rules_id: str, lines: list[tuple[int, str]], side: int | None, quick: bool, node_limit: int,
                    verify: bool, jobs: int, emit: Any, emit_errors_before: Any) -> bool:
    """The lines in tasks over ``jobs`` worker processes, printed in input order; True if
    Ctrl-C stopped it (the tasks already finished are printed first, in order)."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    tasks = [lines[i:i + BATCH_TASK_LINES] for i in range(0, len(lines), BATCH_TASK_LINES)]
    pool = context.Pool(min(jobs, max(len(tasks), 1)), initializer=_ignore_sigint)
    pending = [pool.apply_async(_batch_task, (rules_id, task, side, quick, node_limit, verify)) for task in tasks]
    # Ctrl-C sets a flag the loop looks at between tasks, never an exception in the
    # middle of printing one (which would print a line twice or lose it).
    stop: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda *_: stop.append(1))

    def flush(index: int) -> None:
        emit_errors_before(tasks[index][0][0])
        for item in pending[index].get():
            if not isinstance(item, str):
                emit_errors_before(item[0])
            emit(item)

    try:
        for index in range(len(tasks)):
            while not stop and not pending[index].ready():
                pending[index].wait(TASK_POLL_SECONDS)
            if stop:
                for later in range(index, len(tasks)):  # the tasks already finished, in order
                    if pending[later].ready():
                        flush(later)
                return True
            flush(index)
        pool.close()
        return False
    finally:
        signal.signal(signal.SIGINT, previous)
        pool.terminate()
        pool.join()


# --- the command ------------------------------------------------------------------------


@click.command(name="unwinnable", epilog=JSON_HELP + "\n\n" + BATCH_HELP)
@click.argument("fen", nargs=-1, required=False)
@click.option("--side", type=click.Choice(SIDES), default=None, help="Analyse this side only [default: both].")
@click.option("--rules", "rules_id", default="fide-2023", show_default=True, help="Ruleset id, alias or file.")
@click.option("--json", "json_output", is_flag=True, help="Print one JSON object (fields below).")
@click.option("--node-limit", type=int, default=None,
              help="Moves the search may make per side [default: dead_position.node_limit of spec/limits.yaml].")
@click.option("--time-limit", type=float, default=None, help="Stop after this many seconds (wall clock).")
@click.option("-v", "--verbose", is_flag=True, help="Say on stderr when each side's analysis starts.")
@click.option("--batch", "batch_file", default=None, metavar="FILE",
              help="Answer every FEN of FILE (one a line, '-' for stdin); JSON Lines out (below).")
@click.option("--quick", is_flag=True, help="With --batch: screening only (terminal check, static stage).")
@click.option("-j", "--jobs", default="1", show_default=True, help="With --batch: worker processes (or 'auto').")
@click.option("--verify", is_flag=True, help="With --batch: replay every line with the interpreter too.")
def command(fen: tuple[str, ...], side: str | None, rules_id: str, json_output: bool, node_limit: int | None,
            time_limit: float | None, verbose: bool, batch_file: str | None, quick: bool, jobs: str,
            verify: bool) -> None:
    """Can White, Black or neither still checkmate from FEN by any series of legal moves?

    Answers FIDE 5.2.2 (dead position: neither side can) and the question of 6.9 and
    5.1.2 for one side with --side. Each side's verdict is "can" with a helpmate (UCI
    and SAN), "cannot" with its proof, or "undetermined" when the node or time limit
    ran out first; a position already checkmate or stalemate is answered by the Laws.

    With --batch FILE, every line of FILE is a FEN (see below).

    Exit status: 0 the analysis ran (whatever the verdict, including a time limit
    reached); 1 bad input (FEN, ruleset; with --batch: some line was bad, after all
    the others were answered); 2 usage error; 130 interrupted by Ctrl-C (the sides or
    lines already answered are printed first).
    """
    text = " ".join(fen)
    if node_limit is not None and not 0 <= node_limit <= MAX_NODE_LIMIT:
        raise UsageError(f"--node-limit {node_limit} is out of range 0..{MAX_NODE_LIMIT}")
    if batch_file is not None:
        if fen or json_output or time_limit is not None:
            raise UsageError("--batch takes no FEN argument, --json or --time-limit (its output is JSON Lines)")
        run_batch(batch_file, side, rules_id, node_limit, quick, _jobs(jobs), verify)
        return
    if quick or verify or jobs != "1":
        raise UsageError("--quick, --verify and -j go with --batch")
    if not fen:
        raise UsageError("give a FEN, or --batch FILE")
    if time_limit is not None and not time_limit > 0:
        raise UsageError(f"--time-limit {time_limit:g} must be a positive number of seconds")
    rules = load_rules(rules_id)
    board = parse_position(text, rules)
    if node_limit is None:
        node_limit = dead_position_node_limit(rules)
    colors = (SIDES.index(side),) if side else (0, 1)
    reports, interrupted = run_analysis(text, rules_id, colors, node_limit, time_limit, verbose)
    if json_output:
        console().print(json.dumps(as_json(board, rules, reports, node_limit, time_limit)), markup=False)
    else:
        print_text(board, rules, reports, node_limit, time_limit)
    if interrupted:
        sys.stdout.flush()
        click.echo("arbiter: interrupted", err=True)
        raise SystemExit(EXIT_INTERRUPTED)
