"""Renderers of a run's report: terminal tables, JUnit XML and static HTML.

The canonical report is JSON Lines (``docs/harness.md``), written and read by
:mod:`conformance.harness.jsonl`; every renderer here is a function of the list of its
records. :func:`load` reads a saved report back; :func:`save_text` writes a rendering.
"""

from __future__ import annotations

from pathlib import Path

from conformance.harness.jsonl import ReportError
from conformance.harness.jsonl import read as load

__all__ = ["ReportError", "load", "save_text"]


def save_text(text: str, path: str | Path) -> None:
    """Write a rendered report (UTF-8); :class:`ReportError` naming the file if it fails."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise ReportError(f"{path}: cannot write ({error.strerror or error})") from None
