"""Generators that (re)build the fixture corpus from independent oracles.

Each module is runnable as ``python -m conformance.tools.generate.<name> --data DIR --out
DIR``. ``python -m conformance.tools.generate.all --data conformance/tools/generate/data --out
conformance/fixtures`` runs the move-layer, FEN, SAN, Chess960, unwinnability and
game-end generators, whose source data is kept in ``conformance/tools/generate/data/``; the
notation generator reads the notation tables instead (``--data spec/notation``).
Shared plumbing (the fixture record, JSON Lines output, the command line) are in
``common``.
"""
