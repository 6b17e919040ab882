"""Running ``arbiter`` as a subprocess the way a user meets it, and reading its one error line.

The subprocess timeout only guards the suite against a hang; no assertion depends on time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def arbiter(*args: str, stdin: str | bytes | None = None, cwd: Path = ROOT,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[Any]:
    """``python -m conformance.cli ARGS`` from the checkout (text unless ``stdin`` is bytes)."""
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=isinstance(stdin, str) or stdin is None,
                          timeout=300, env=env)


def one_error(result: subprocess.CompletedProcess[str], code: int = 1) -> str:
    """The single stderr line of a failed command (asserting the exit status, no traceback)."""
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == code, (result.returncode, result.stderr[-500:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines[:5]
    assert len(lines[0]) < 400, lines[0][:500]
    return lines[0]
