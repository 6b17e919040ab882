"""The implementations Arbiter ships adapters for.

* :mod:`.reference` -- the reference interpreter, in-process;
* :mod:`.python_chess` -- the python-chess package, in-process;
* :mod:`.example` -- a complete in-process adapter, written to be copied out;
* :mod:`.catalog` -- the chess libraries, engines and tools installed by
  ``arbiter adapters install`` (their programs in ``node/`` and ``programs/``).
"""
