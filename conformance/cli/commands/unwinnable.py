"""``arbiter unwinnable FEN``: can a side still checkmate (FIDE 5.2.2, 6.9)? With the proof.

A thin shell over :func:`reference_impl.unwinnability.analyse`. The analysis runs in a
worker process, one side after the other, so that a time limit or Ctrl-C stops it at
once (the compiled search does not look at signals until its node budget is spent)
and the sides already answered are still printed.
"""

from __future__ import annotations

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

from reference_impl.adjudication.tables import optional
from reference_impl.adjudication.verdicts import dead_position_node_limit
from reference_impl.errors import ArbiterError, UsageError
from reference_impl.notation.san import to_san
from reference_impl.unwinnability import Analysis, Verdict, analyse

from ..common import console, load_rules, parse_position

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


def san_line(board: Any, line: tuple[str, ...]) -> list[str]:
    """The UCI moves of ``line`` as SAN, played from ``board`` (left unchanged)."""
    work, sans = board.copy(), []
    for text in line:
        move = work.parse_uci(text)
        sans.append(to_san(work, move))
        work.push(move)
    return sans


def movetext(board: Any, sans: list[str]) -> str:
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


def terminal_of(board: Any) -> str | None:
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


def as_json(board: Any, rules: Any, reports: dict[int, SideReport], node_limit: int,
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
            "cite": optional(rules, "termination", rule, "cite"), "sides": sides}


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


def print_text(board: Any, rules: Any, reports: dict[int, SideReport], node_limit: int,
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
        cite = optional(rules, "termination", terminal, "cite")
        out.print(Text(f"game over {terminal} ({cite}): answered by the Laws, no search"))
        return
    dead = dead_of(reports, terminal)
    cite = optional(rules, "termination", "dead_position", "cite")
    if dead is True:
        out.print(Text(f"dead      yes: neither side can checkmate ({cite})"))
    elif dead is False:
        mater = next(SIDES[c] for c, r in sorted(reports.items()) if r.analysis.verdict is Verdict.CAN)
        out.print(Text(f"dead      no: {mater} can checkmate ({cite})"))
    elif len(reports) == 2:
        out.print(Text(f"dead      undetermined ({cite})"))


# --- the command ------------------------------------------------------------------------


@click.command(name="unwinnable", epilog=JSON_HELP)
@click.argument("fen", nargs=-1, required=True)
@click.option("--side", type=click.Choice(SIDES), default=None, help="Analyse this side only [default: both].")
@click.option("--rules", "rules_id", default="fide-2023", show_default=True, help="Ruleset id, alias or file.")
@click.option("--json", "json_output", is_flag=True, help="Print one JSON object (fields below).")
@click.option("--node-limit", type=int, default=None,
              help="Moves the search may make per side [default: dead_position.node_limit of spec/limits.yaml].")
@click.option("--time-limit", type=float, default=None, help="Stop after this many seconds (wall clock).")
@click.option("-v", "--verbose", is_flag=True, help="Say on stderr when each side's analysis starts.")
def command(fen: tuple[str, ...], side: str | None, rules_id: str, json_output: bool, node_limit: int | None,
            time_limit: float | None, verbose: bool) -> None:
    """Can White, Black or neither still checkmate from FEN by any series of legal moves?

    Answers FIDE 5.2.2 (dead position: neither side can) and the question of 6.9 and
    5.1.2 for one side with --side. Each side's verdict is "can" with a helpmate (UCI
    and SAN), "cannot" with its proof, or "undetermined" when the node or time limit
    ran out first; a position already checkmate or stalemate is answered by the Laws.

    Exit status: 0 the analysis ran (whatever the verdict, including a time limit
    reached); 1 bad input (FEN, ruleset); 2 usage error; 130 interrupted by Ctrl-C
    (the sides already answered are printed first).
    """
    text = " ".join(fen)
    if node_limit is not None and not 0 <= node_limit <= MAX_NODE_LIMIT:
        raise UsageError(f"--node-limit {node_limit} is out of range 0..{MAX_NODE_LIMIT}")
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
