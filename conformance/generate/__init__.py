"""Generators that (re)build the fixture corpus from independent oracles.

Each module is runnable as ``python -m conformance.generate.<name> --data DIR --out
DIR``; ``python -m conformance.generate.all`` runs every one of them. The source data
they read is kept in ``conformance/generate/data/``.
"""
