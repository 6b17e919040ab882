"""The chess implementations Arbiter ships adapters for, installed by ``arbiter adapters install``.

Three ways in, by what the implementation is:

* a **library** (npm, PyPI) or a **tool** with no protocol of its own (pgn-extract,
  pychess's rules core): a small protocol v1 program in this package (``node/adapter.cjs``,
  ``programs/*_adapter.py``) run as a ``cmd:`` adapter is, under the runtime it needs
  (``node``, this Python, a Python >= 3.13, Debian's ``python3``);
* a **UCI engine** from Debian: the ``uci:`` transport (``go perft``, or MultiPV root moves);
* an **XBoard engine** from Debian: the ``xboard:`` transport, asked the kinds listed here.

Running them out of process keeps one that crashes (a Rust panic) or hangs from taking
the harness with it: the transport restarts it and charges the fixture.

``arbiter adapters install NAME`` puts the pinned package in place: ``npm install
--prefix`` and ``pip install --target`` into Arbiter's cache folder (:func:`cache_dir`),
``apt-get install PKG=VERSION`` for Debian packages (as root; otherwise the exact line
to run is printed). A missing runtime or package is one line naming the fix
(:class:`AdapterStartError`). What each kind maps to is in ``docs/adapters.md``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from conformance.adapters.base import AdapterStartError, StartInfo
from conformance.harness.transports.process import DEFAULT_TIMEOUT, ProcessAdapter
from conformance.harness.transports.uci import DEFAULT_TIMEOUT as UCI_TIMEOUT
from conformance.harness.transports.uci import UciAdapter
from conformance.harness.transports.xboard import XboardAdapter

HERE = Path(__file__).resolve().parent

#: The kinds of software, as the matrix counts them.
SOFTWARE: tuple[str, ...] = ("library", "engine", "pgn-tool", "gui")


@dataclass(frozen=True)
class Library:
    """One shipped implementation: the spec name, its package and how it runs."""

    name: str  #: the ``--adapter`` spec
    registry: str  #: "npm", "pypi" or "apt" (Debian)
    package: str  #: the pinned package ``arbiter adapters install`` installs
    module: str  #: the import name (PyPI), package name (npm) or executable (apt)
    program: str = ""  #: the adapter program, relative to this package ("" for engines)
    min_python: tuple[int, int] = (3, 10)  #: for Python programs: the interpreter they need
    python_env: str = ""  #: environment variable naming that interpreter
    software: str = "library"  #: one of :data:`SOFTWARE`
    transport: str = "program"  #: "program" (protocol v1), "uci" or "xboard"
    args: tuple[str, ...] = ()  #: engine arguments
    kinds: tuple[str, ...] = ()  #: XBoard: the kinds its replies answer soundly
    features: tuple[tuple[str, str], ...] = ()  #: XBoard: features known beforehand
    python: str = ""  #: "debian": the program runs under Debian's python3 (its dist-packages)
    title: str = ""  #: Debian engines: the name reported (the engine's own carries its version)
    shredder_960: bool = False  #: UCI: reads only Shredder-FEN castling under Chess960

    @property
    def debian_package(self) -> str:
        """``fairy-stockfish`` of ``fairy-stockfish=11.1-1+b1``."""
        return self.package.split("=")[0]

    @property
    def pinned_version(self) -> str:
        """The version of the pin: after ``=`` (Debian), ``==`` (PyPI) or the last ``@`` (npm)."""
        if self.registry == "apt":
            return self.package.split("=", 1)[1]
        return self.package.rsplit("@", 1)[-1].split("==")[-1]


_LEGAL, _GAME_END = "legal_moves", "game_end"


def _engine(transport: str, name: str, package: str, title: str, **more: object) -> Library:
    """A Debian engine: its executable is named as its package (``ethereal-chess`` too)."""
    return Library(name, "apt", package, package.split("=")[0], software="engine", transport=transport, title=title,
                   **more)  # type: ignore[arg-type]


#: The shipped implementations, in matrix order. Versions are pinned so that the matrix
#: and docs/findings.md describe the same releases; change a pin here.
LIBRARIES: dict[str, Library] = {lib.name: lib for lib in (
    Library("chess.js", "npm", "chess.js@1.4.0", "chess.js", "node/adapter.cjs"),
    Library("chessops", "npm", "chessops@0.15.1", "chessops", "node/adapter.cjs"),
    Library("kokopu", "npm", "kokopu@4.13.4", "kokopu", "node/adapter.cjs"),
    Library("npm-chess", "npm", "chess@1.5.1", "chess", "node/adapter.cjs"),
    Library("cozy-chess", "pypi", "cozy-chess-py==0.1.1", "cozy_chess", "programs/cozy_adapter.py"),
    Library("bulletchess", "pypi", "bulletchess==0.4.0", "bulletchess", "programs/bulletchess_adapter.py",
            (3, 13), "ARBITER_BULLETCHESS_PYTHON"),
    Library("shakmaty", "pypi", "shakmaty-python-binding==0.1.5", "shakmaty_python_binding",
            "programs/shakmaty_adapter.py", (3, 11)),
    _engine("uci", "stockfish", "stockfish=15.1-4", "Stockfish"),
    _engine("uci", "fairy-stockfish", "fairy-stockfish=11.1-1+b1", "Fairy-Stockfish"),
    _engine("uci", "ethereal", "ethereal-chess=12.00+ds1-1", "Ethereal"),
    # Glaurung reads X-FEN's KQkq as the corner rooks under Chess960: it is sent Shredder-FEN.
    _engine("uci", "glaurung", "glaurung=2.2-4", "Glaurung", shredder_960=True),
    _engine("xboard", "phalanx", "phalanx=25-1", "Phalanx", kinds=(_LEGAL, _GAME_END)),
    _engine("xboard", "sjaakii", "sjaakii=1.4.1-2", "Sjaak II", kinds=(_LEGAL, _GAME_END)),
    # Sjeng announces no result in force mode: only its move refusals are asked.
    _engine("xboard", "sjeng", "sjeng=11.2-8.2", "Sjeng", kinds=(_LEGAL,)),
    # HoiChess exits on the first move it refuses: only game ends (legal moves) are asked.
    _engine("xboard", "hoichess", "hoichess=0.22.0-3", "HoiChess", args=("-x",), kinds=(_GAME_END,)),
    # Fairy-Max has no setboard: asked about the initial position only.
    _engine("xboard", "fairymax", "fairymax=5.0b-1+b1", "Fairy-Max", kinds=(_LEGAL, _GAME_END)),
    Library("pgn-extract", "apt", "pgn-extract=19.04-1", "pgn-extract", "programs/pgn_extract_adapter.py",
            software="pgn-tool"),
    Library("pychess", "apt", "pychess=1.0.3-1", "pychess", "programs/pychess_adapter.py", software="gui",
            python="debian"),
)}
#: Environment variables: the cache folder, and the ``node`` to run.
CACHE_ENV = "ARBITER_CACHE"
NODE_ENV = "ARBITER_NODE"
#: Interpreter names tried on PATH for a library that needs a newer Python.
PYTHON_NAMES: tuple[str, ...] = ("python3.13", "python3.14", "python3.15", "python3")
#: Where Debian installs game binaries, besides PATH; and its own Python.
DEBIAN_GAMES = "/usr/games"
DEBIAN_PYTHON = "/usr/bin/python3"
APT_INSTALL: tuple[str, ...] = ("apt-get", "install", "-y", "-qq", "--no-install-recommends")


def cache_dir() -> Path:
    """``$ARBITER_CACHE``, else ``$XDG_CACHE_HOME/arbiter``, else ``~/.cache/arbiter``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "arbiter"


def install_dir(lib: Library) -> Path:
    """Where ``arbiter adapters install`` puts ``lib``: one npm prefix, one folder per PyPI
    library; Debian packages go where Debian puts them (``/usr/games``)."""
    if lib.registry == "apt":
        return Path(DEBIAN_GAMES)
    return cache_dir() / "node" if lib.registry == "npm" else cache_dir() / "python" / lib.name


def installed_version(lib: Library) -> str | None:
    """The version installed for ``lib`` (Debian's, or the package's), or None if absent."""
    if lib.registry == "apt":
        if find_executable(lib.module) is None:
            return None
        try:
            done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", lib.debian_package],
                                  capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            return "?"
        return (done.stdout.strip() or "?") if done.returncode == 0 else "?"
    folder = install_dir(lib)
    if lib.registry == "npm":
        found = folder / "node_modules" / lib.module / "package.json"
        if not found.is_file():
            return None
        import json

        return str(json.loads(found.read_text(encoding="utf-8")).get("version", "?"))
    metadata = sorted(folder.glob(f"{lib.package.split('==')[0].replace('-', '_')}-*.dist-info"))
    if not (folder / lib.module).is_dir():
        return None
    # ``<name>-<version>.dist-info`` (wheel names hold no other hyphen)
    return metadata[-1].name.removesuffix(".dist-info").split("-", 1)[-1] if metadata else "?"


def upstream(version: str) -> str:
    """The upstream part of a Debian version: ``12.00+ds1-1`` -> ``12.00``, ``1:4.7.4-2`` -> ``4.7.4``."""
    version = version.split(":", 1)[-1]
    version = version.rsplit("-", 1)[0] if "-" in version else version
    return version.split("+", 1)[0]


def find_executable(name: str) -> str | None:
    """``name`` on PATH or in Debian's ``/usr/games``."""
    found = shutil.which(name)
    if found:
        return found
    candidate = Path(DEBIAN_GAMES) / name
    return str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None


def apt_line(libs: list[Library]) -> str:
    """The exact command that installs ``libs``' Debian packages, pinned."""
    return " ".join(APT_INSTALL[:2] + ("--no-install-recommends",) + tuple(lib.package for lib in libs))


def _require_executable(lib: Library) -> str:
    found = find_executable(lib.module)
    if found is None:
        raise AdapterStartError(f"{lib.name}: {lib.module} is not installed (Debian package {lib.debian_package}); "
                                f"run: arbiter adapters install {lib.name}   (or as root: {apt_line([lib])})")
    return found


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
    """The interpreter for a Python program: Debian's, its variable, this Python, or one on PATH."""
    if lib.python == "debian":
        if not os.access(DEBIAN_PYTHON, os.X_OK):
            raise AdapterStartError(f"{lib.name} runs under Debian's {DEBIAN_PYTHON}, which is not there")
        return DEBIAN_PYTHON
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
        return [find_node(), program, lib.module, str(install_dir(lib)), lib.name], env
    if lib.registry == "apt":
        env["ARBITER_TOOL"] = _require_executable(lib)
        version = installed_version(lib)
        env["ARBITER_TOOL_VERSION"] = upstream(version) if version and version != "?" else ""
    else:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(install_dir(lib)), env.get("PYTHONPATH")) if p)
        env.setdefault("RUST_BACKTRACE", "0")
    return [find_python(lib), "-u", program], env


class LibraryAdapter(ProcessAdapter):
    """A shipped implementation's adapter program; the runtime is looked up when it starts."""

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


class DebianUciAdapter(UciAdapter):
    """A UCI engine from a Debian package, looked up when it starts."""

    def __init__(self, lib: Library, timeout: float | None = None) -> None:
        super().__init__(lib.module, spec=lib.name, timeout=timeout or UCI_TIMEOUT,
                         shredder_960=lib.shredder_960)
        self.library = lib

    def start(self) -> StartInfo:
        self.path = _require_executable(self.library)
        return _titled(self.library, super().start())


class DebianXboardAdapter(XboardAdapter):
    """An XBoard engine from a Debian package, looked up when it starts."""

    def __init__(self, lib: Library, timeout: float | None = None) -> None:
        super().__init__([lib.module, *lib.args], spec=lib.name, timeout=timeout or DEFAULT_TIMEOUT,
                         kinds=lib.kinds, features=dict(lib.features) or None)
        self.library = lib

    def start(self) -> StartInfo:
        self.argv = [_require_executable(self.library), *self.library.args]
        self.info = _titled(self.library, super().start())
        return self.info


def _titled(lib: Library, info: StartInfo) -> StartInfo:
    """``info`` named by the catalog's title and the Debian package's upstream version (an
    engine's own name often carries its version, or a build tag: ``Fairy-Stockfish 11.1 LB 64``)."""
    version = installed_version(lib)
    shown = upstream(version) if version and version != "?" else info.version
    return StartInfo(name=lib.title or info.name, version=shown, capabilities=info.capabilities,
                     rulesets=info.rulesets, unclassified_errors=info.unclassified_errors)


def create(name: str, timeout: float | None = None,
           validate: bool = False) -> ProcessAdapter | UciAdapter | XboardAdapter:
    """The adapter of the shipped implementation ``name`` (a key of :data:`LIBRARIES`)."""
    lib = LIBRARIES[name]
    if lib.transport == "uci":
        return DebianUciAdapter(lib, timeout)
    if lib.transport == "xboard":
        return DebianXboardAdapter(lib, timeout)
    return LibraryAdapter(lib, timeout or DEFAULT_TIMEOUT, validate)


def install(lib: Library) -> list[str]:
    """Install ``lib`` (npm, PyPI) into the cache folder; returns the command run.

    Debian packages go through :func:`install_debian`. AdapterStartError if it fails.
    """
    if lib.registry == "apt":
        return install_debian([lib])
    target = install_dir(lib)
    target.mkdir(parents=True, exist_ok=True)
    if lib.registry == "npm":
        npm = shutil.which("npm")
        if npm is None:
            raise AdapterStartError(f"installing {lib.name} needs npm, which was not found on PATH")
        argv = [npm, "install", "--no-audit", "--no-fund", "--prefix", str(target), lib.package]
    else:
        argv = [find_python(lib), "-m", "pip", "install", "--quiet", "--upgrade", "--target", str(target), lib.package]
    _run_install(lib.name, argv)
    return argv


def install_debian(libs: list[Library]) -> list[str]:
    """``apt-get install`` the pinned Debian packages of ``libs`` in one command (after one
    ``apt-get update``); AdapterStartError with the exact line when this cannot run it."""
    line = apt_line(libs)
    names = ", ".join(lib.name for lib in libs)
    apt = shutil.which("apt-get")
    if apt is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        why = "apt-get was not found" if apt is None else "installing Debian packages needs root"
        raise AdapterStartError(f"{names}: {why}; run as root: {line}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    _run_install(names, [apt, "update", "-qq"], env)
    argv = [apt, *APT_INSTALL[1:], *(lib.package for lib in libs)]
    try:
        _run_install(names, argv, env, hint=f"; the line was: {line}")
    except AdapterStartError as pinned:
        # A Debian point release replaces a version in place: the pin is gone from the
        # archive, the package is not. Install the archive's version then, and say so
        # (the matrix names the version each row ran).
        bare = [lib.debian_package for lib in libs if _candidate(apt, lib) not in (None, lib.pinned_version)]
        if not bare:
            raise pinned from None
        print(f"warning: not in the archive at their pins, installed at Debian's current version: "
              f"{', '.join(bare)}", file=sys.stderr)
        argv = [apt, *APT_INSTALL[1:], *(lib.debian_package if lib.debian_package in bare else lib.package
                                        for lib in libs)]
        _run_install(names, argv, env, hint=f"; the line was: {' '.join(argv)}")
    return argv


def _candidate(apt: str, lib: Library) -> str | None:
    """The version ``apt-get`` would install for ``lib``'s Debian package, or None."""
    policy = shutil.which("apt-cache") or str(Path(apt).with_name("apt-cache"))
    try:
        done = subprocess.run([policy, "policy", lib.debian_package], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for row in done.stdout.splitlines():
        label, _, value = row.strip().partition(":")
        if label == "Candidate" and value.strip() not in ("", "(none)"):
            return value.strip()
    return None


def _run_install(name: str, argv: list[str], env: dict[str, str] | None = None, hint: str = "") -> None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env)
    except OSError as error:
        raise AdapterStartError(f"installing {name}: cannot run {argv[0]!r}: {error.strerror or error}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or ["no output"])[-1]
        raise AdapterStartError(f"installing {name} failed (exit status {done.returncode}): {last}{hint}")
