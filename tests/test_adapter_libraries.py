"""The shipped implementations of the catalog: libraries, engines, pgn-extract, PyChess.

Each is tested when its package is installed (``arbiter adapters install all``; CI does
it) and skipped, naming it, only when it is not: an installed implementation that does
not start fails. The samples are small (one fixture in 300); the corpus runs are in
docs/findings.md. The start-up failures (no node, no package, a Python too old) need
nothing installed.
"""

from __future__ import annotations

import os

from pathlib import Path
from typing import Any

import pytest

from conformance.adapters import AdapterStartError
from conformance.implementations import resolve
from conformance.adapters.base import KINDS
from conformance.implementations.catalog import (LIBRARIES, NODE_ENV, SOFTWARE, apt_line, find_python,
                                                          install_debian, install_dir, installed_version, upstream)
from conformance.harness.select import Selection
from conformance.harness.session import Config, execute, plan
from reference_impl.rules import list_rulesets

STANDARD = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#: A Chess960 position: king d1, castling rooks b1 and h1 (X-FEN KQkq = Shredder HBhb).
ARRAY_960 = "1r1k3r/8/8/8/8/8/8/1R1K3R w KQkq - 0 1"
#: What the corpus found (docs/findings.md) that a sample may show: move generation the
#: Laws contradict (legal_moves, perft and status not asserted clean), and an engine that
#: exits on purpose after a game it calls over (its restarts are not adapter faults).
MOVEGEN_BUGS = frozenset({"npm-chess", "phalanx"})
EXITS = frozenset({"hoichess"})
#: What a transport says when it had to kill the program: an adapter fault, not an answer.
FAULTS = ("killed", "timed out", "not bounded JSON", "answered with id", "answered this request twice")
#: The adapters that declare legal_moves and apply_moves, and those playing Chess960.
#: Fairy-Max has no setboard: its sample is fixtures played from the initial position.
SAMPLE_IDS = {"fairymax": ["game.fools-mate", "game.scholars-mate"]}
CASTLING = ("chess.js", "chessops", "kokopu", "cozy-chess", "bulletchess", "shakmaty", "pychess")
CHESS960 = ("chessops", "cozy-chess", "kokopu")


def started(name: str) -> Any:
    """The adapter, started; skipped (naming it) only when its package is not installed."""
    lib = LIBRARIES[name]
    if installed_version(lib) is None:
        pytest.skip(f"{name} ({lib.package}) is not installed: arbiter adapters install {name}")
    adapter = resolve(name)
    adapter.start()  # installed: a failure to start fails the test
    return adapter


@pytest.fixture(params=list(LIBRARIES))
def implementation(request: pytest.FixtureRequest) -> Any:
    adapter = started(request.param)
    yield adapter
    adapter.stop()


def test_an_installed_implementation_starts_and_declares_what_it_answers(implementation: Any) -> None:
    info = implementation.info
    known = {name for ruleset in list_rulesets() for name in (ruleset.id, *ruleset.aliases)}
    assert info.name and info.version
    assert info.capabilities and set(info.capabilities) <= set(KINDS)
    assert "*" not in info.rulesets and set(info.rulesets) <= known


@pytest.mark.slow  # among the longest tests: left out of `tox -e fast`
def test_corpus_sample_runs_without_adapter_faults(implementation: Any) -> None:
    """One shard in 300 of the corpus: every declared kind answered without the transport
    killing the program, and the move generators agree with the corpus."""
    name = implementation.spec
    selection = Selection(id=SAMPLE_IDS[name]) if name in SAMPLE_IDS else Selection(shard=(1, 300))
    config = Config(name, selection=selection)
    records = execute(config, plan(config), lambda record: None)
    results = [r for r in records if r["type"] == "result"]
    judged = [r for r in results if r["status"] not in ("unsupported", "skipped")]
    assert judged, "the sample holds fixtures of the declared kinds"
    faults = [r for r in judged if r["status"] == "errored" and any(f in r["message"] for f in FAULTS)]
    assert name in EXITS or not faults, faults[:3]
    if name not in MOVEGEN_BUGS:
        movegen = [r for r in judged if r["kind"] in ("legal_moves", "perft", "status")]
        assert all(r["status"] == "passed" for r in movegen), [r["id"] for r in movegen if r["status"] != "passed"]
    assert records[0]["adapter"]["version"]


@pytest.mark.parametrize("name", CASTLING)
def test_castling_is_the_kings_move_outside_chess960(name: str) -> None:
    adapter = started(name)
    try:
        moves = set(adapter.run("legal_moves", "fide-2023", {"fen": STANDARD})["moves"])
        assert {"e1g1", "e1c1"} <= moves and not {"e1h1", "e1a1"} & moves
        after = adapter.run("apply_moves", "fide-2023", {"fen": STANDARD, "moves": ["e1g1"]})["fen"]
        assert after.startswith("r3k2r/8/8/8/8/8/8/R4RK1 b")
    finally:
        adapter.stop()


@pytest.mark.parametrize("name", CHESS960)
def test_castling_is_king_takes_rook_under_chess960(name: str) -> None:
    adapter = started(name)
    try:
        moves = set(adapter.run("legal_moves", "fide-2023-chess960", {"fen": ARRAY_960})["moves"])
    finally:
        adapter.stop()
    assert {"d1h1", "d1b1"} <= moves and "d1g1" not in moves  # the king takes its rook


def test_kokopu_counts_the_clocks_its_positions_do_not_keep() -> None:
    adapter = started("kokopu")
    try:
        fen = "r3k2r/8/8/8/8/8/P7/R3K2R w KQkq - 7 30"
        after = adapter.run("apply_moves", "fide-2023", {"fen": fen, "moves": ["e1e2", "e8e7", "a2a3"]})["fen"]
    finally:
        adapter.stop()
    assert after.endswith(" b - - 0 31")  # 7 -> 8 -> 9 -> 0 (a pawn move); move 30 -> 31 after Black


def test_the_catalog_holds_three_kinds_of_software_and_pins_every_package() -> None:
    assert {lib.software for lib in LIBRARIES.values()} >= {"library", "engine", "pgn-tool"}
    assert {lib.software for lib in LIBRARIES.values()} <= set(SOFTWARE)
    for lib in LIBRARIES.values():
        assert ("=" if lib.registry == "apt" else "==" if lib.registry == "pypi" else "@") in lib.package
        assert lib.pinned_version and lib.pinned_version[0].isdigit()


def test_an_installed_pypi_library_reads_as_its_pinned_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What pip --target leaves: the module's folder and <name>-<version>.dist-info.
    monkeypatch.setenv("ARBITER_CACHE", str(tmp_path))
    for lib in (l for l in LIBRARIES.values() if l.registry == "pypi"):
        folder = install_dir(lib)
        assert installed_version(lib) is None
        (folder / lib.module).mkdir(parents=True)
        (folder / f"{lib.package.split('==')[0].replace('-', '_')}-{lib.pinned_version}.dist-info").mkdir()
        assert installed_version(lib) == lib.pinned_version, lib.name


def test_debian_versions_read_as_their_upstream_part() -> None:
    assert [upstream(v) for v in ("12.00+ds1-1", "11.1-1+b1", "1:4.7.4+dfsg1-2", "25-1", "5.0b")] == [
        "12.00", "11.1", "4.7.4", "25", "5.0b"]


def test_without_root_the_apt_line_is_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    libs = [LIBRARIES["fairy-stockfish"], LIBRARIES["pgn-extract"]]
    with pytest.raises(AdapterStartError) as caught:
        install_debian(libs)
    line = "apt-get install --no-install-recommends fairy-stockfish=11.1-1+b1 pgn-extract=19.04-1"
    assert apt_line(libs) == line and line in str(caught.value) and "needs root" in str(caught.value)


def test_a_pin_gone_from_the_archive_installs_debians_current_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A Debian point release replaces a pinned version: the install still succeeds, at the
    archive's version, and says which packages left their pins."""
    log = tmp_path / "calls"
    apt_get = tmp_path / "apt-get"
    apt_get.write_text(f"""#!/bin/sh
echo "$@" >> {log}
case "$*" in *=*) echo "E: Version '11.1-1+b1' for 'fairy-stockfish' was not found" >&2; exit 100;; esac
exit 0
""")
    apt_cache = tmp_path / "apt-cache"
    apt_cache.write_text("#!/bin/sh\necho \"$2:\"\necho \"  Installed: (none)\"\necho \"  Candidate: 11.1-2\"\n")
    apt_get.chmod(0o755)
    apt_cache.chmod(0o755)
    monkeypatch.setattr("os.geteuid", lambda: 0)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    argv = install_debian([LIBRARIES["fairy-stockfish"]])
    calls = log.read_text().splitlines()
    assert calls[0].startswith("update") and "fairy-stockfish=11.1-1+b1" in calls[1]
    assert calls[2].endswith("fairy-stockfish") and argv[-1] == "fairy-stockfish"
    assert "not in the archive at their pins" in capsys.readouterr().err


def test_a_missing_debian_engine_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.implementations import catalog

    monkeypatch.setattr(catalog, "find_executable", lambda name: None)
    with pytest.raises(AdapterStartError, match=r"glaurung is not installed .*arbiter adapters install glaurung"):
        resolve("glaurung").start()


def test_missing_package_names_the_install_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_CACHE", str(tmp_path))
    adapter = resolve("npm-chess")
    try:
        with pytest.raises(AdapterStartError, match="arbiter adapters install npm-chess"):
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
