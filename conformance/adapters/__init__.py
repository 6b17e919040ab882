"""The adapter contract: what every implementation under test meets, in process or
through a transport (:mod:`.base`). Implementations and the spec strings that name them
are in :mod:`conformance.implementations`."""

from .base import KINDS, PROTOCOL_VERSION, Adapter, AdapterStartError, Skip, StartInfo

__all__ = ["KINDS", "PROTOCOL_VERSION", "Adapter", "AdapterStartError", "Skip", "StartInfo"]
