"""The chess libraries Arbiter ships adapters for, run as protocol v1 programs.

Each library's adapter is a small program in this package (``node/adapter.cjs`` for the
npm libraries, ``programs/*_adapter.py`` for the Python ones) started under the
runtime its library needs: the user's ``node``, this Python, or a Python >= 3.13.
Running them out of process keeps a library that crashes (a Rust panic) or hangs from
taking the harness with it: the ``cmd:`` machinery restarts it and charges the fixture.

``arbiter adapters install NAME`` puts the pinned package into Arbiter's cache folder
(:func:`cache_dir`): ``npm install --prefix`` for npm, ``pip install --target`` for PyPI.
A missing runtime or package is one line naming the fix (:class:`AdapterStartError`).
What each kind maps to is in ``docs/adapters.md``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..base import AdapterStartError, StartInfo
from ..transports.process import DEFAULT_TIMEOUT, ProcessAdapter

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Library:
    """One shipped library adapter: the spec name, its package and how it runs."""

    name: str  #: the ``--adapter`` spec
    registry: str  #: "npm" or "pypi"
    package: str  #: the pinned requirement installed by ``arbiter adapters install``
    module: str  #: the import name (PyPI) or the package name (npm)
    program: str  #: the adapter program, relative to this package
    min_python: tuple[int, int] = (3, 10)  #: for PyPI libraries: the interpreter they need
    python_env: str = ""  #: environment variable naming that interpreter


#: The shipped library adapters, in matrix order. Versions are pinned so that the
#: matrix and docs/findings.md describe the same releases; change a pin here.
LIBRARIES: dict[str, Library] = {lib.name: lib for lib in (
    Library("chess.js", "npm", "chess.js@1.4.0", "chess.js", "node/adapter.cjs"),
    Library("chessops", "npm", "chessops@0.15.1", "chessops", "node/adapter.cjs"),
    Library("cozy-chess", "pypi", "cozy-chess-py==0.1.1", "cozy_chess", "programs/cozy_adapter.py"),
    Library("bulletchess", "pypi", "bulletchess==0.4.0", "bulletchess", "programs/bulletchess_adapter.py",
            (3, 13), "ARBITER_BULLETCHESS_PYTHON"),
    Library("shakmaty", "pypi", "shakmaty-python-binding==0.1.5", "shakmaty_python_binding",
            "programs/shakmaty_adapter.py", (3, 11)),
)}
#: Environment variables: the cache folder, and the ``node`` to run.
CACHE_ENV = "ARBITER_CACHE"
NODE_ENV = "ARBITER_NODE"
#: Interpreter names tried on PATH for a library that needs a newer Python.
PYTHON_NAMES: tuple[str, ...] = ("python3.13", "python3.14", "python3.15", "python3")


def cache_dir() -> Path:
    """``$ARBITER_CACHE``, else ``$XDG_CACHE_HOME/arbiter``, else ``~/.cache/arbiter``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "arbiter"


def install_dir(lib: Library) -> Path:
    """Where ``arbiter adapters install`` puts ``lib``: one npm prefix, one folder per PyPI library."""
    return cache_dir() / "node" if lib.registry == "npm" else cache_dir() / "python" / lib.name


def find_node() -> str:
    """The ``node`` to run (``$ARBITER_NODE`` or PATH); AdapterStartError naming the fix."""
    named = os.environ.get(NODE_ENV)
    found = shutil.which(named or "node")
    if found is None:
        where = f"{NODE_ENV}={named!r} is not an executable" if named else "`node` was not found on PATH"
        raise AdapterStartError(f"the npm adapters need Node.js: {where} (install Node.js 18 or newer)")
    return found


def python_version(interpreter: str) -> tuple[int, int] | None:
    """The (major, minor) of ``interpreter``, or None if it does not run."""
    try:
        done = subprocess.run([interpreter, "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    parts = done.stdout.split()
    return (int(parts[0]), int(parts[1])) if done.returncode == 0 and len(parts) == 2 else None


def find_python(lib: Library) -> str:
    """The interpreter for a PyPI library: its variable, this Python, or one on PATH."""
    named = os.environ.get(lib.python_env) if lib.python_env else None
    if named:
        if (python_version(named) or (0, 0)) < lib.min_python:
            raise AdapterStartError(f"{lib.name} needs Python >= {'.'.join(map(str, lib.min_python))}: "
                                    f"{lib.python_env}={named!r} is not one")
        return named
    if sys.version_info[:2] >= lib.min_python:
        return sys.executable
    for path in [shutil.which(name) for name in PYTHON_NAMES] + _pyenv_pythons():
        if path and (python_version(path) or (0, 0)) >= lib.min_python:
            return path
    hint = f" or set {lib.python_env}" if lib.python_env else ""
    raise AdapterStartError(f"{lib.name} needs Python >= {'.'.join(map(str, lib.min_python))}: none found on "
                            f"PATH ({', '.join(PYTHON_NAMES[:-1])}) or through pyenv{hint}")


def _pyenv_pythons() -> list[str]:
    """The interpreters pyenv manages, newest first (its shims run only the selected one)."""
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return []
    try:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True, timeout=30).stdout.strip()
        names = subprocess.run([pyenv, "versions", "--bare"], capture_output=True, text=True, timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return []
    found = [Path(root) / "versions" / n / "bin" / "python3" for n in names if n[:1].isdigit()]
    return [str(p) for p in sorted(found, key=lambda p: _numbers(p.parent.parent.name), reverse=True) if p.is_file()]


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def command(lib: Library) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that run ``lib``'s adapter program."""
    program = str(HERE / lib.program)
    env = dict(os.environ)
    if lib.registry == "npm":
        return [find_node(), program, lib.module, str(install_dir(lib))], env
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(install_dir(lib)), env.get("PYTHONPATH")) if p)
    env.setdefault("RUST_BACKTRACE", "0")
    return [find_python(lib), "-u", program], env


class LibraryAdapter(ProcessAdapter):
    """A shipped library's adapter program; the runtime is looked up when it starts."""

    def __init__(self, lib: Library, timeout: float | None = DEFAULT_TIMEOUT, validate: bool = False) -> None:
        super().__init__([lib.name], spec=lib.name, timeout=timeout, validate=validate)
        self.library = lib

    def start(self) -> StartInfo:
        """Find the runtime, then start the program (it refuses with the fix when the package is missing)."""
        self.argv, self.env = command(self.library)
        try:
            return super().start()
        except AdapterStartError as error:
            text = str(error)
            marker = "refused to start: "
            raise AdapterStartError(f"{self.library.name}: {text.split(marker, 1)[1]}" if marker in text
                                    else text) from None


def create(name: str, timeout: float | None = None, validate: bool = False) -> LibraryAdapter:
    """The adapter of the shipped library ``name`` (a key of :data:`LIBRARIES`)."""
    return LibraryAdapter(LIBRARIES[name], timeout or DEFAULT_TIMEOUT, validate)


def install(lib: Library) -> list[str]:
    """Install ``lib`` into the cache folder; returns the command run. AdapterStartError if it fails."""
    target = install_dir(lib)
    target.mkdir(parents=True, exist_ok=True)
    if lib.registry == "npm":
        npm = shutil.which("npm")
        if npm is None:
            raise AdapterStartError(f"installing {lib.name} needs npm, which was not found on PATH")
        argv = [npm, "install", "--no-audit", "--no-fund", "--prefix", str(target), lib.package]
    else:
        argv = [find_python(lib), "-m", "pip", "install", "--quiet", "--upgrade", "--target", str(target), lib.package]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    except OSError as error:
        raise AdapterStartError(f"installing {lib.name}: cannot run {argv[0]!r}: {error.strerror or error}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or ["no output"])[-1]
        raise AdapterStartError(f"installing {lib.name} failed (exit status {done.returncode}): {last}")
    return argv
