"""The harness core: load and select fixtures, run them through an adapter, compare."""
