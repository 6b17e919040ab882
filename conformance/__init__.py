"""Conformance harness: run rule fixtures against any chess implementation."""

__version__ = "0.1.0"
