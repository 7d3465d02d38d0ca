"""The Numba lower bound: an older Numba is one clear ImportError, not a ten times slower compile."""

import re
from pathlib import Path

import pytest

from engine._numba import MIN_NUMBA, numba_version_problem

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)


@pytest.mark.nojit
def test_older_numba_is_refused_naming_both_versions():
    problem = numba_version_problem("0.58.1")
    assert problem is not None
    assert "numba 0.59 or newer, found 0.58.1" in problem
    assert "pip install 'numba>=0.59'" in problem
    assert numba_version_problem("0.57.1") is not None
    for ok in ("0.59.0", "0.59.1", "0.68.1", "1.0.0"):
        assert numba_version_problem(ok) is None
    assert numba_version_problem("0.60.0dev0+12.g1234") is None


def test_pyproject_declares_the_same_lower_bound():
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    bound = re.search(r'"numba>=([0-9.]+)"', text).group(1)
    assert tuple(int(p) for p in bound.split(".")) == MIN_NUMBA
