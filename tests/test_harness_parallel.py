"""``-j``: cases on one position share a chunk (one worker's caches serve them all),
and the report still comes in case order."""

from __future__ import annotations

import gc
from pathlib import Path

from conformance.harness.parallel import MAX_CHUNK, chunked
from conformance.harness.select import Case
from conformance.harness.session import Config, execute, plan

FENS = ["8/8/8/8/8/8/8/K1k5 w - - 0 1", "8/8/8/8/8/8/8/k1K5 b - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]


def _case(number: int, fen: str | None) -> Case:
    given = {"fen": fen} if fen is not None else {"moves": []}
    return Case({"id": f"c.{number}", "kind": "status", "input": given, "rulesets": ["*"]}, "fide-2023", None)


def test_cases_on_one_position_share_a_chunk_and_every_case_is_in_exactly_one() -> None:
    # ten positions over and over, as the kinds and rulesets of a corpus ask them
    fens = [f"8/8/8/8/8/8/8/K{n}k{6 - n} w - - 0 1" for n in range(1, 7)]
    fens += FENS
    cases = [_case(i, fens[i % len(fens)] if i % 7 else None) for i in range(60)]
    chunks = chunked(cases, jobs=1)  # chunks of 15: each position's cases fit in one
    assert sorted(i for chunk in chunks for i in chunk) == list(range(60))
    chunk_of = {i: n for n, chunk in enumerate(chunks) for i in chunk}
    assert len(chunks) > 1
    for fen in fens:
        on_it = [i for i, c in enumerate(cases) if c.fixture["input"].get("fen") == fen]
        assert len({chunk_of[i] for i in on_it}) == 1, fen
    flat = [i for chunk in chunks for i in chunk]
    for fen in fens:  # a position's cases keep their order
        on_it = [i for i in flat if cases[i].fixture["input"].get("fen") == fen]
        assert on_it == sorted(on_it)


def test_a_position_asked_more_often_than_a_chunk_holds_is_split() -> None:
    cases = [_case(i, FENS[0]) for i in range(16 * MAX_CHUNK)]
    chunks = chunked(cases, jobs=1)
    assert [len(c) for c in chunks] == [MAX_CHUNK] * 16
    assert [i for chunk in chunks for i in chunk] == list(range(16 * MAX_CHUNK))


def _alternating(tmp_path: Path, wrong: set[int] = frozenset()) -> Path:
    """40 perft fixtures on two positions in turn (3 legal moves each); ``wrong`` expect 4."""
    lines = []
    for i in range(40):
        lines.append(
            '{"id": "p.%02d", "kind": "perft", "cites": ["fide-2023:3.1"], "rulesets": ["*"], '
            '"source": {"method": "test"}, "input": {"fen": "%s", "depth": 1}, "expect": {"nodes": %d}}'
            % (i, FENS[i % 2], 4 if i in wrong else 3)
        )
    corpus = tmp_path / "alternating.jsonl"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return corpus


def _results(corpus: Path, jobs: int, **options: object) -> list[tuple[str, str]]:
    config = Config(fixtures=[str(corpus)], jobs=jobs, **options)  # type: ignore[arg-type]
    return [(r["id"], r["status"]) for r in execute(config, plan(config), lambda record: None) if r["type"] == "result"]


def test_parallel_report_is_in_case_order_when_chunks_regroup_it(tmp_path: Path) -> None:
    # positions alternate, so the chunks hold every other case: the report must not
    corpus = _alternating(tmp_path)
    found = {jobs: _results(corpus, jobs) for jobs in (1, 2)}
    assert [i for i, _ in found[2]] == [f"p.{i:02d}" for i in range(40)]
    assert found[2] == found[1]


def test_fail_fast_and_max_fail_stop_at_the_same_case_when_chunks_regroup_it(tmp_path: Path) -> None:
    # failures on both positions: the first in case order is on the second position
    corpus = _alternating(tmp_path, wrong={7, 12, 25})
    for options in ({"fail_fast": True}, {"max_fail": 2}):
        one, two = _results(corpus, 1, **options), _results(corpus, 2, **options)
        assert two == one, options
        assert one[-1][1] == "failed" and sum(status == "failed" for _, status in one) == (1 if "fail_fast" in options else 2)


def test_parallel_records_are_the_sequential_records_field_by_field(tmp_path: Path) -> None:
    """A worker sends back only what its case does not hold; the record filled in again
    in the main process is the one a sequential run makes (all but the time it took)."""
    corpus = tmp_path / "described.jsonl"
    corpus.write_text("\n".join(
        '{"id": "d.%02d", "kind": "perft", "description": "perft %d", "cites": ["fide-2023:3.1"], '
        '"tags": ["t%d"], "rulesets": ["*"], "source": {"method": "test"}, '
        '"input": {"fen": "%s", "depth": 1}, "expect": {"nodes": %d}}' % (i, i, i % 3, FENS[i % 2], 3 + (i == 5))
        for i in range(12)) + "\n", encoding="utf-8")
    runs = {}
    for jobs in (1, 2):
        config = Config(fixtures=[str(corpus)], jobs=jobs)
        runs[jobs] = [{k: v for k, v in r.items() if k != "duration_ms"}
                      for r in execute(config, plan(config), lambda record: None) if r["type"] == "result"]
    assert runs[2] == runs[1]
    assert [list(r) for r in runs[2]] == [list(r) for r in runs[1]]  # the same fields in the same order
    assert runs[2][5]["status"] == "failed" and runs[2][5]["actual"] != runs[2][5]["expect"]
    assert runs[2][4]["description"] == "perft 4" and runs[2][4]["tags"] == ["t1"]


def test_a_run_leaves_the_cycle_collector_as_it_found_it(tmp_path: Path) -> None:
    """Reading pauses the collector and running freezes the corpus (in the workers too);
    both end with the run, so a process running many (a test session, the pytest
    plugin) keeps collecting what it leaves behind."""
    corpus = _alternating(tmp_path)
    for jobs in (1, 2):
        assert gc.isenabled() and gc.get_freeze_count() == 0
        config = Config(fixtures=[str(corpus)], jobs=jobs)
        the_plan = plan(config)
        assert gc.isenabled()
        frozen_while_running: list[int] = []
        execute(config, the_plan, lambda record: frozen_while_running.append(gc.get_freeze_count()))
        assert min(frozen_while_running[1:-1]) > 0  # the results came while the corpus was frozen
        assert gc.isenabled() and gc.get_freeze_count() == 0
