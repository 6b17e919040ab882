"""Shared pytest configuration: the ``--deep`` switch for long exhaustive checks."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--deep", action="store_true", default=False, help="also run tests marked 'deep' (slow)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--deep"):
        return
    skip = pytest.mark.skip(reason="deep check: run with --deep")
    for item in items:
        if "deep" in item.keywords:
            item.add_marker(skip)
