"""Adapters: how the harness talks to an implementation under test.

See :mod:`conformance.adapters.base` for the contract and
:func:`conformance.adapters.registry.resolve` for the spec strings.
"""

from .base import KINDS, PROTOCOL_VERSION, Adapter, AdapterStartError, Skip, StartInfo

__all__ = ["KINDS", "PROTOCOL_VERSION", "Adapter", "AdapterStartError", "Skip", "StartInfo"]
