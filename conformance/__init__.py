"""Conformance suite: run rule fixtures against any chess implementation.

* :mod:`.adapters` -- the contract every implementation meets;
* :mod:`.harness` -- selection, runner, comparison, protocol, transports and reports:
  it knows no implementation;
* :mod:`.implementations` -- what ships to be tested (the reference, python-chess, the
  catalog of libraries and engines) and :func:`~.implementations.resolve` for spec strings;
* :mod:`.tools` -- generate, mutate, matrix and audit, built on the harness;
* :mod:`.cli` -- the ``arbiter`` command, the one place they meet.
"""

__version__ = "0.1.0"
