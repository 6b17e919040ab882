"""Notation: SAN, LAN, UCI, FAN, ICCF, Uedemann, descriptive, localized SAN, PGN.

Tables live in ``spec/notation/``; this package reads them. Board-independent parts
(:mod:`.pgn`, :mod:`.codes`, :mod:`.nags`, :mod:`.results`) import no board;
:mod:`.san` and :mod:`.api` work on :class:`reference_impl.core.Board`.
"""
