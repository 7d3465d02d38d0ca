"""Runs the ``@pytest.mark.nojit`` subset again with ``NUMBA_DISABLE_JIT=1`` (plain Python kernels)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="already without JIT")
def test_nojit_subset_passes():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-m",
            "nojit",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=-ra",  # without --dist (an xdist option): xdist is off here
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    tail = (proc.stdout + proc.stderr)[-4000:]
    assert proc.returncode == 0, f"nojit subset failed:\n{tail}"
    assert " passed" in proc.stdout, f"nojit subset ran nothing:\n{tail}"
