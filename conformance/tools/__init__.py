"""Tools built on the harness, none of which the harness needs.

* :mod:`.generate` -- the scripts that (re)build the fixture corpus from independent oracles;
* :mod:`.mutate` -- ``arbiter mutate``: mutants of the rule and notation tables, run against the corpus;
* :mod:`.matrix` -- ``arbiter matrix``: every shipped implementation over the corpus, one page;
* :mod:`.audit` -- ``arbiter audit`` and ``adjudicate``: game records judged under the Laws.
"""
