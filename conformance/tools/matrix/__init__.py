"""The compliance matrix: several implementations run over one fixture selection.

:mod:`.model` turns each implementation's report records into one row (pure);
:mod:`.run` runs the adapters, skipping with the reason those that cannot start;
:mod:`.render` writes the matrix as Markdown, HTML and JSON. ``arbiter matrix`` is the
command line (``conformance/cli/commands/matrix.py``).
"""
