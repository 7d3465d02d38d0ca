"""A damaged Numba cache file (truncated ``.nbc`` entry or ``.nbi`` index) is dropped, the kernel
compiled again and cached afresh, with one line on stderr (``engine._numba.RepairingCache``)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine._numba import jit_disabled

ROOT = Path(__file__).resolve().parents[2]

KERNEL = """
from engine._numba import njit


@njit
def twice(x):
    return 2 * x
"""

RUN = "from kern import twice; print(twice(21), sum(twice.stats.cache_hits.values()))"

pytestmark = pytest.mark.skipif(jit_disabled(), reason="the disk cache holds compiled code")


def _run(folder: Path) -> tuple[str, str]:
    """``RUN`` in a fresh process with ``kern.py`` importable and its own Numba cache."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)]),
        "NUMBA_CACHE_DIR": str(folder / "cache"),
    }
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(RUN)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip(), out.stderr


@pytest.fixture
def kern(tmp_path):
    (tmp_path / "kern.py").write_text(KERNEL)
    assert _run(tmp_path) == ("42 0", "")  # compiled and cached
    assert _run(tmp_path) == ("42 1", "")  # loaded
    return tmp_path


@pytest.mark.parametrize("suffix", [".nbc", ".nbi"])
def test_a_truncated_cache_file_is_dropped_and_compiled_again(kern, suffix):
    (path,) = (kern / "cache").rglob(f"kern.twice-*{suffix}")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    out, err = _run(kern)
    assert out == "42 0"  # no UnpicklingError: compiled again
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("riichi_env: dropped a damaged Numba cache file ")
    assert path.name in lines[0] and lines[0].endswith("compiling kern.twice again")
    assert _run(kern) == ("42 1", "")  # cached afresh: loaded, and nothing said


def test_an_empty_or_garbage_cache_file_is_dropped_too(kern):
    (entry,) = (kern / "cache").rglob("kern.twice-*.nbc")
    entry.write_bytes(b"")
    out, err = _run(kern)
    assert out == "42 0" and "EOFError" in err and len(err.splitlines()) == 1
    (index,) = (kern / "cache").rglob("kern.twice-*.nbi")
    index.write_bytes(b"\x80\x04not a pickle at all")
    out, err = _run(kern)
    assert out == "42 0" and len(err.splitlines()) == 1, err
    assert _run(kern) == ("42 1", "")
