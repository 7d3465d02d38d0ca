"""Shared pytest configuration."""

import os

import pytest


def pytest_collection_modifyitems(config, items):
    """Under NUMBA_DISABLE_JIT=1 only the ``nojit`` subset runs (plain Python is slow)."""
    if os.environ.get("NUMBA_DISABLE_JIT") != "1":
        return
    skip = pytest.mark.skip(reason="only @pytest.mark.nojit tests run with NUMBA_DISABLE_JIT=1")
    for item in items:
        if "nojit" not in item.keywords:
            item.add_marker(skip)
