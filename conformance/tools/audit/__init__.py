"""``arbiter audit``: every game of a PGN database checked against the Laws.

:mod:`.judge` judges one game (pure); :mod:`.sources` cuts plain and compressed files
into partitions of whole games; :mod:`.execute` runs the partitions here, in local
processes or on a Dask cluster, results in order; :mod:`.log` numbers the games per file,
writes the JSON Lines output and resumes an interrupted audit.
"""
