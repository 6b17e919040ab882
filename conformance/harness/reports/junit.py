"""JUnit XML for CI systems: a ``testsuite`` per kind, a ``testcase`` per fixture × ruleset.

Status mapping (CI tools know only pass, failure, error and skipped):

==============  ====================================================
``passed``      plain ``testcase``
``failed``      ``<failure type="failed">``
``xpassed``     ``<failure type="xpassed">`` (an expected failure passed)
``errored``     ``<error type="errored">``
``skipped``     ``<skipped type="skipped">``
``xfailed``     ``<skipped type="xfailed">`` (as pytest reports expected failures)
``unsupported`` no testcase: never sent, since the implementation did not claim
                it; counted in the suite property ``unsupported``
==============  ====================================================

The adapter and run metadata go into ``<properties>`` of every suite, with the run's
``verdict`` (never "all expectations met" while a result was not judged, a shard is
missing or the run was cut short) and the suite's ``not_judged`` count (its skips).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from . import save_text
from .summary import NOT_JUDGED_STATUSES, Record, cites_of, compact, seconds_of, status_of, summarize

#: (element, counter attribute) per status; None means a plain passing testcase
ELEMENT_BY_STATUS: dict[str, tuple[str, str] | None] = {
    "passed": None,
    "failed": ("failure", "failures"),
    "xpassed": ("failure", "failures"),
    "errored": ("error", "errors"),
    "skipped": ("skipped", "skipped"),
    "xfailed": ("skipped", "skipped"),
}
#: header fields copied into each suite's properties
HEADER_PROPERTIES: tuple[str, ...] = (
    "harness_version", "protocol_version", "corpus_revision", "started",
)

# characters XML 1.0 cannot carry at all, even escaped
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(value: object) -> str:
    """Text safe for an XML 1.0 document (forbidden characters become U+FFFD)."""
    return _INVALID_XML.sub("\ufffd", str(value))


def _properties(parent: ET.Element, pairs: Iterable[tuple[str, object]]) -> None:
    props = ET.SubElement(parent, "properties")
    for name, value in pairs:
        if value is not None:
            ET.SubElement(props, "property", name=_clean(name), value=_clean(value))


def _run_properties(header: Mapping[str, Any]) -> list[tuple[str, object]]:
    adapter = header.get("adapter") or {}
    pairs: list[tuple[str, object]] = []
    if isinstance(adapter, Mapping):
        pairs += [(f"adapter.{key}", adapter.get(key)) for key in ("name", "version", "spec")]
    pairs += [(key, header.get(key)) for key in HEADER_PROPERTIES]
    return pairs


def _detail(result: Mapping[str, Any]) -> str:
    return (f"cites:    {', '.join(cites_of(result)) or '-'}\n"
            f"input:    {compact(result.get('input'))}\n"
            f"expected: {compact(result.get('expect'))}\n"
            f"actual:   {compact(result.get('actual'))}\n")


def _testcase(suite: ET.Element, result: Mapping[str, Any]) -> str | None:
    """Append one testcase; return the counter attribute it increments, if any."""
    seconds = seconds_of(result)
    case = ET.SubElement(
        suite, "testcase",
        name=_clean(f"{result.get('id')}[{result.get('ruleset')}]"),
        classname=_clean(f"arbiter.{result.get('kind')}"),
        time=f"{seconds:.6f}",
    )
    status = str(result.get("status"))
    element = ELEMENT_BY_STATUS.get(status, ("error", "errors"))
    if element is None:
        return None
    tag, counter = element
    message = result.get("message") or status
    child = ET.SubElement(case, tag, message=_clean(message), type=_clean(status))
    if tag != "skipped":
        child.text = _clean(_detail(result))
    return counter


def build(records: Iterable[Record]) -> ET.Element:
    """The ``<testsuites>`` element for a report (pure; no file access)."""
    summary = summarize(records)
    root = ET.Element("testsuites", name="arbiter")
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    total_time = 0.0
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for result in summary.results:
        by_kind.setdefault(str(result.get("kind")), []).append(result)
    for kind in sorted(by_kind):
        tests = [r for r in by_kind[kind] if r.get("status") != "unsupported"]
        if not tests:
            continue
        suite = ET.SubElement(root, "testsuite", name=_clean(kind))
        if summary.header.get("started"):
            suite.set("timestamp", _clean(summary.header["started"]))
        _properties(suite, _run_properties(summary.header)
                    + [("unsupported", len(by_kind[kind]) - len(tests)),
                       ("not_judged", sum(status_of(r) in NOT_JUDGED_STATUSES for r in tests)),
                       ("verdict", summary.verdict().text)])
        counts = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
        seconds = 0.0
        for result in tests:
            counter = _testcase(suite, result)
            counts["tests"] += 1
            if counter is not None:
                counts[counter] += 1
            seconds += seconds_of(result)
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", f"{seconds:.6f}")
        total_time += seconds
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{total_time:.6f}")
    return root


def to_string(records: Iterable[Record]) -> str:
    """The JUnit XML document as text, with an XML declaration."""
    root = build(records)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write(records: Iterable[Record], path: str | Path) -> None:
    """Write the JUnit XML document for a report to ``path``; ReportError if it cannot."""
    save_text(to_string(records), path)
