"""The implementations Arbiter ships adapters for.

* :mod:`.reference` -- the reference interpreter, in-process;
* :mod:`.python_chess` -- the python-chess package, in-process;
* :mod:`.example` -- a complete in-process adapter, written to be copied out;
* :mod:`.catalog` -- the chess libraries, engines and tools installed by
  ``arbiter adapters install`` (their programs in ``node/`` and ``programs/``).

:func:`resolve` turns an ``--adapter`` spec string into an adapter: one of these, a
transport (``uci:``, ``xboard:``, ``cmd:``) or a third party's in-process class
(``module:``). The harness never imports this package; the command line hands
:func:`resolve` to it.
"""

from __future__ import annotations

from conformance.adapters.base import Adapter, AdapterStartError

__all__ = ["resolve"]


def resolve(
    spec: str,
    *,
    timeout: float | None = None,
    validate_protocol: bool = False,
    rulesets: list[str] | None = None,
) -> Adapter:
    """Build the adapter an ``--adapter`` spec string names (not started yet).

    * ``reference`` -- the reference implementation, in-process (the default);
    * ``python-chess`` -- the ``chess`` package, in-process;
    * ``uci:PATH`` -- a UCI engine (perft and legal moves through ``go perft``);
    * ``xboard:COMMAND`` -- an XBoard engine (legal moves and game ends, in force mode);
    * ``cmd:COMMAND`` -- any program speaking protocol v1 on stdio (shell quoting);
    * ``module:package.module:ClassName`` -- an in-process :class:`Adapter` subclass,
      constructed without arguments.

    ``rulesets`` restricts the reference adapter to those ids (``arbiter serve --rules``).
    """
    from reference_impl.errors import UsageError

    spec = spec.strip()
    adapter: Adapter
    if spec == "reference":
        from conformance.implementations.reference import ReferenceAdapter

        adapter = ReferenceAdapter(rulesets=rulesets)
    elif spec.startswith("cmd:"):
        from conformance.harness.transports.process import DEFAULT_TIMEOUT, ProcessAdapter

        command = spec[4:].strip()
        if len(command) >= 2 and command[0] == command[-1] and command[0] in "\"'":
            command = command[1:-1]
        adapter = ProcessAdapter(
            command, spec=spec, timeout=timeout or DEFAULT_TIMEOUT, validate=validate_protocol
        )
    elif spec in _libraries():
        from conformance.implementations.catalog import create

        adapter = create(spec, timeout, validate_protocol)
    elif spec == "python-chess":
        adapter = _from_module("conformance.implementations.python_chess", None, spec)
    elif spec.startswith("uci:"):
        if not spec[4:]:
            raise UsageError("uci: adapter needs an engine path, for example uci:/usr/bin/stockfish")
        adapter = _from_module("conformance.harness.transports.uci", spec[4:], spec)
    elif spec.startswith("xboard:"):
        from conformance.harness.transports.xboard import XboardAdapter

        adapter = XboardAdapter(spec[len("xboard:"):].strip(), spec=spec)
    elif spec.startswith("module:"):
        target = spec[len("module:"):]
        module_name, _, class_name = target.partition(":")
        if not module_name or not class_name:
            raise UsageError(f"adapter {spec!r}: write module:package.module:ClassName")
        adapter = _from_module(module_name, None, spec, class_name)
    else:
        raise UsageError(
            f"unknown adapter {spec!r}: use reference, python-chess, {', '.join(_libraries())}, "
            "uci:PATH, xboard:COMMAND, cmd:COMMAND or module:package.module:ClassName"
        )
    adapter.spec = spec
    if timeout is not None and getattr(adapter, "own_timeout", False):
        adapter.timeout = timeout  # type: ignore[attr-defined]
    return adapter


def _libraries() -> tuple[str, ...]:
    """The shipped library adapters' spec names (``conformance.implementations.catalog``)."""
    from conformance.implementations.catalog import LIBRARIES

    return tuple(LIBRARIES)


def _from_module(module_name: str, argument: str | None, spec: str, class_name: str | None = None) -> Adapter:
    """Instantiate the adapter a module provides: ``class_name``, ``create(arg)`` or its one subclass."""
    import importlib
    import inspect

    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise AdapterStartError(f"adapter {spec!r}: cannot import {module_name} ({error})") from None
    args = () if argument is None else (argument,)
    try:
        if class_name is not None:
            factory = getattr(module, class_name, None)
            if factory is None:
                raise AdapterStartError(f"adapter {spec!r}: {module_name} has no {class_name}")
        elif callable(getattr(module, "create", None)):
            factory = module.create
        else:
            found = [
                obj
                for obj in vars(module).values()
                if inspect.isclass(obj) and issubclass(obj, Adapter) and obj is not Adapter
                and obj.__module__ == module.__name__ and not inspect.isabstract(obj)
            ]
            if len(found) != 1:
                raise AdapterStartError(f"adapter {spec!r}: {module_name} defines no single Adapter class")
            factory = found[0]
        adapter = factory(*args)
    except AdapterStartError:
        raise
    except Exception as error:  # a third-party constructor failing is a start failure
        raise AdapterStartError(f"adapter {spec!r} could not be created: {error}") from None
    if not isinstance(adapter, Adapter):
        raise AdapterStartError(f"adapter {spec!r}: {module_name} did not give an Adapter instance")
    return adapter
