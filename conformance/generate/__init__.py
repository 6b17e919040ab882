"""Generators that (re)build the fixture corpus from independent oracles.

Each module is runnable as ``python -m conformance.generate.<name> --data DIR --out
DIR``. ``python -m conformance.generate.all --data conformance/generate/data --out
conformance/fixtures`` runs the move-layer, FEN, SAN, Chess960, unwinnability and
game-end generators, whose source data is kept in ``conformance/generate/data/``; the
notation generator reads the notation tables instead (``--data spec/notation``).
Shared plumbing (the fixture record, JSON Lines output, the command line) are in
``common``.
"""
