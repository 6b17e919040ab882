"""pytest plugin: the corpus as pytest items, so a chess library can run it in its CI.

    pytest --arbiter-adapter=module:mylib.arbiter_adapter:Adapter [--arbiter-kind perft]
           [--shard 2/4] [--arbiter-xfail known.yaml] [--arbiter-only] [-n auto]

One item per fixture and ruleset, named ``<fixture id>[<ruleset>]``, in corpus order;
a fixture the adapter does not declare is skipped as unsupported, an expected failure
is reported as xfail, an unexpected pass fails. Each process (also each pytest-xdist
worker) starts its own adapter on its first item and stops it at the end. Without
``--arbiter-adapter`` the plugin does nothing: it is installed for every pytest run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # the harness is imported only when the plugin is active
    from .adapters.base import Adapter, StartInfo
    from .harness.runner import Options
    from .harness.select import Case, Selection

_STATE = pytest.StashKey[dict[str, Any]]()

_FILTERS = (
    ("--arbiter-kind", "kind", "only this kind (repeatable)"),
    ("--arbiter-ruleset", "ruleset", "only this ruleset id (repeatable)"),
    ("--arbiter-tag", "tag", "only fixtures with this tag (repeatable)"),
    ("--arbiter-exclude-tag", "exclude_tag", "leave out fixtures with this tag (repeatable)"),
    ("--arbiter-id", "id", "only fixture ids matching this glob (repeatable)"),
    ("--arbiter-cite", "cite", "only fixtures citing an article matching this glob (repeatable)"),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("arbiter", "Arbiter conformance corpus")
    group.addoption("--arbiter-adapter", default=None, metavar="SPEC",
                    help="run the Arbiter corpus through this adapter (reference, python-chess, "
                         "uci:PATH, cmd:COMMAND, module:pkg.mod:Class)")
    group.addoption("--arbiter-fixtures", action="append", default=[], metavar="PATH",
                    help="fixture files or directories (default: the shipped corpus)")
    for flag, dest, text in _FILTERS:
        group.addoption(flag, action="append", default=[], dest=f"arbiter_{dest}", help=text)
    group.addoption("--arbiter-xfail", action="append", default=[], metavar="FILE",
                    help="expected-failure file (fixture id -> reason)")
    group.addoption("--arbiter-timeout", type=float, default=None, metavar="SECONDS",
                    help="per-fixture timeout")
    group.addoption("--arbiter-only", action="store_true", default=False,
                    help="run only the corpus items, not the project's own tests")
    group.addoption("--arbiter-shard", default=None, metavar="K/N",
                    help="run only shard K of N of the corpus")
    try:
        group.addoption("--shard", default=None, dest="arbiter_shard_alias", metavar="K/N",
                        help="same as --arbiter-shard")
    except ValueError:  # another plugin owns --shard
        pass


def _active(config: pytest.Config) -> bool:
    return bool(config.getoption("arbiter_adapter", default=None))


class ArbiterFailure(Exception):
    """A fixture failed or errored; carries the result record."""

    def __init__(self, record: dict[str, Any]) -> None:
        super().__init__(record.get("message"))
        self.record = record


class ArbiterCorpus(pytest.Collector):
    """The parent of the corpus items (node id ``arbiter``); collected by the hook below."""

    def collect(self) -> list[pytest.Item]:
        return []


class ArbiterItem(pytest.Item):
    """One fixture under one ruleset."""

    def __init__(self, *, case: Case, origin: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.origin = origin
        # -k matches tags, kind and ruleset as well as the name
        self.extra_keyword_matches.update(case.fixture.get("tags", []))
        self.extra_keyword_matches.update((case.kind, case.ruleset))

    def runtest(self) -> None:
        from .harness.runner import run_one

        adapter, info, options = _adapter(self.config)
        record = run_one(adapter, info, self.case, options)
        self.user_properties.append(("arbiter_status", record["status"]))
        status = record["status"]
        if status in ("unsupported", "skipped"):
            pytest.skip(f"{status}: {record['message']}")
        if status == "xfailed":
            pytest.xfail(record["message"])
        if status in ("failed", "errored", "xpassed"):
            raise ArbiterFailure(record)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ArbiterFailure):
            r = excinfo.value.record
            lines = [
                f"{r['status']}: {r['message']}",
                f"fixture {r['id']} ({r['kind']}) under {r['ruleset']}, from {self.origin}",
                f"input:  {json.dumps(r['input'])}",
                f"expect: {json.dumps(r['expect'])}",
                f"actual: {json.dumps(r['actual'])}",
            ]
            if r.get("cites"):
                lines.append("cites:  " + ", ".join(r["cites"]))
            return "\n".join(lines)
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        path, _, line = self.origin.rpartition(":")
        return Path(path), int(line) - 1 if line.isdigit() else None, f"arbiter {self.name}"


def _adapter(config: pytest.Config) -> tuple[Adapter, StartInfo, Options]:
    """This process's adapter, started on first use; a start failure fails every item."""
    state = config.stash[_STATE]
    if state.get("start_error"):
        pytest.fail(state["start_error"], pytrace=False)
    if "adapter" not in state:
        from .implementations import resolve
        from .adapters.base import AdapterStartError

        adapter = resolve(state["spec"], timeout=state["timeout"])
        try:
            info = adapter.start()
        except AdapterStartError as error:
            state["start_error"] = f"adapter could not start: {error}"
            pytest.fail(state["start_error"], pytrace=False)
        state.update(adapter=adapter, info=info)
        config.add_cleanup(adapter.stop)
    return state["adapter"], state["info"], state["options"]


def _selection(config: pytest.Config) -> Selection:
    from .harness import rulesets
    from .harness.select import Selection, parse_shard
    shard = config.getoption("arbiter_shard") or config.getoption("arbiter_shard_alias", default=None)
    values = {dest: list(config.getoption(f"arbiter_{dest}")) for _, dest, _ in _FILTERS}
    values["ruleset"] = [rulesets.canonical(r) for r in values["ruleset"]]
    return Selection(shard=parse_shard(shard) if shard else None, **values)


def pytest_configure(config: pytest.Config) -> None:
    if not _active(config):
        return
    from .harness import xfail
    from .harness.runner import Options

    entries: list[xfail.Entry] = []
    for path in config.getoption("arbiter_xfail"):
        entries.extend(xfail.load(path))
    timeout = config.getoption("arbiter_timeout")
    config.stash[_STATE] = {
        "spec": config.getoption("arbiter_adapter"),
        "timeout": timeout,
        "options": Options(timeout=timeout, xfails=entries),
    }


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Append the corpus items (before -k and -m deselection run)."""
    if not _active(config):
        return
    from .harness import fixtures, rulesets
    from .harness.select import expand

    corpus = fixtures.load(config.getoption("arbiter_fixtures") or None)
    selection = _selection(config)
    star = rulesets.orthodox_rulesets()
    # "*" fixtures run once (see select.narrow_star): under the selected rulesets if
    # any, else under the preferred one; the adapter is not started yet.
    cases = expand(corpus.fixtures, selection, star if selection.ruleset else star[:1])
    parent = ArbiterCorpus.from_parent(session, name="arbiter", nodeid="arbiter")
    new = [
        ArbiterItem.from_parent(
            parent, name=f"{case.id}[{case.ruleset}]", case=case, origin=corpus.origins[case.id]
        )
        for case in cases
    ]
    if config.getoption("arbiter_only"):
        items[:] = new
    else:
        items.extend(new)
