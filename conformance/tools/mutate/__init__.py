"""``arbiter mutate``: which rule entries the fixture corpus actually guards.

Each mutant changes one entry of a resolved ruleset (:mod:`.mutants`); the reference
built from the mutant runs the fixtures of that ruleset (:mod:`.run`), and a mutant no
fixture fails on survives: the corpus would not notice that change to the Laws.
"""
