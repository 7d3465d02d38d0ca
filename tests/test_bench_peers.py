"""The benchmarks' peer runner refuses a bad ``--riichienv-python`` with a reason, not a crash."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from _peers import riichienv_python, run_riichienv  # noqa: E402


def test_a_given_python_that_cannot_run_is_refused():
    python, why = riichienv_python("/nonexistent/python", no_install=True)
    assert python is None
    assert why.startswith("--riichienv-python '/nonexistent/python' cannot run")
    result, why = run_riichienv("/nonexistent/python", 1, 0, 1)
    assert result is None and "cannot run" in why


def test_a_given_python_without_riichienv_is_refused():
    if importlib.util.find_spec("riichienv") is not None:
        pytest.skip("riichienv is installed here")
    python, why = riichienv_python(sys.executable, no_install=True)
    assert python is None and "cannot import riichienv and numpy" in why
