"""The shipped library adapters (chess.js, chessops, cozy-chess, bulletchess, shakmaty).

Each runs over a sample of the corpus when its library is installed in the cache folder
(``arbiter adapters install all``; CI does it) and is skipped, saying why, when it is
not. The start-up failures (no node, no package, a Python too old) need no library.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.adapters import AdapterStartError, resolve
from conformance.adapters.implementations.catalog import LIBRARIES, NODE_ENV, find_python
from conformance.harness.select import Selection
from conformance.harness.session import Config, execute, plan

STANDARD = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#: A Chess960 position: king d1, castling rooks b1 and h1 (X-FEN KQkq = Shredder HBhb).
ARRAY_960 = "1r1k3r/8/8/8/8/8/8/1R1K3R w KQkq - 0 1"


def started(name: str) -> Any:
    """The adapter, started; the test is skipped with the reason if its library is missing."""
    adapter = resolve(name)
    try:
        adapter.start()
    except AdapterStartError as error:
        pytest.skip(f"{name} not available here: {error}")
    return adapter


@pytest.fixture(params=list(LIBRARIES))
def library(request: pytest.FixtureRequest) -> Any:
    adapter = started(request.param)
    yield adapter
    adapter.stop()


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_corpus_sample_runs_without_adapter_errors(library: Any) -> None:
    """One shard in 150 of the corpus: every declared kind answered, no adapter fault,
    and the move generators agree with the corpus on legal moves, perft and status."""
    config = Config(library.spec, selection=Selection(shard=(1, 150)))
    records = execute(config, plan(config), lambda record: None)
    results = [r for r in records if r["type"] == "result"]
    judged = [r for r in results if r["status"] != "unsupported"]
    assert judged, "the sample holds fixtures of the declared kinds"
    assert not [r for r in judged if r["status"] == "errored"], "the adapter itself never fails"
    movegen = [r for r in judged if r["kind"] in ("legal_moves", "perft", "status")]
    assert movegen and all(r["status"] == "passed" for r in movegen)
    header = records[0]["adapter"]
    assert header["version"] and "fide-2014" not in header["rulesets"] and "uscf-7" not in header["rulesets"]


def test_castling_is_the_kings_move_outside_chess960(library: Any) -> None:
    moves = set(library.run("legal_moves", "fide-2023", {"fen": STANDARD})["moves"])
    assert {"e1g1", "e1c1"} <= moves and not {"e1h1", "e1a1"} & moves
    after = library.run("apply_moves", "fide-2023", {"fen": STANDARD, "moves": ["e1g1"]})["fen"]
    assert after.startswith("r3k2r/8/8/8/8/8/8/R4RK1 b")


def test_castling_is_king_takes_rook_under_chess960() -> None:
    for name in ("chessops", "cozy-chess"):
        adapter = started(name)
        try:
            moves = set(adapter.run("legal_moves", "fide-2023-chess960", {"fen": ARRAY_960})["moves"])
        finally:
            adapter.stop()
        assert {"d1h1", "d1b1"} <= moves and "d1g1" not in moves  # the king takes its rook


def test_missing_package_names_the_install_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_CACHE", str(tmp_path))
    adapter = resolve("chessops")
    try:
        with pytest.raises(AdapterStartError, match="arbiter adapters install chessops"):
            adapter.start()
    except AdapterStartError as error:  # no node at all on this machine: that message instead
        assert "Node.js" in str(error)
    finally:
        adapter.stop()


def test_missing_node_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(NODE_ENV, str(tmp_path / "no-node"))
    with pytest.raises(AdapterStartError, match=r"need Node\.js") as caught:
        resolve("chess.js").start()
    assert "\n" not in str(caught.value)


def test_a_python_too_old_for_bulletchess_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    if sys.version_info >= (3, 13):
        pytest.skip("this interpreter is new enough for bulletchess")
    monkeypatch.setenv("ARBITER_BULLETCHESS_PYTHON", sys.executable)
    with pytest.raises(AdapterStartError, match=r"bulletchess needs Python >= 3\.13"):
        find_python(LIBRARIES["bulletchess"])
