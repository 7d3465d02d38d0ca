"""A damaged Numba cache file (truncated ``.nbc`` entry or ``.nbi`` index) empties the cache
folder, the kernel is compiled again and cached afresh, with one line on stderr
(``engine._numba.compile_kernel``, what the compile entry points call)."""

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

RUN = """
import numba
from engine._numba import compile_kernel
from kern import twice
compile_kernel(twice, (numba.typeof(21),))
print(twice(21), sum(twice.stats.cache_hits.values()))
"""

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


@pytest.mark.quick
@pytest.mark.parametrize("suffix", [".nbc", ".nbi"])
def test_a_truncated_cache_file_is_dropped_and_compiled_again(kern, suffix):
    (path,) = (kern / "cache").rglob(f"kern.twice-*{suffix}")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    out, err = _run(kern)
    assert out == "42 0"  # no UnpicklingError: compiled again
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"riichi_env: dropped a damaged Numba cache, {kern / 'cache'} (")
    assert lines[0].endswith("compiling kern.twice again")
    assert path.stat().st_size > len(data) // 2  # the folder emptied, the entry written afresh
    assert _run(kern) == ("42 1", "")  # cached afresh: loaded, and nothing said


@pytest.mark.quick
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


VECTOR = """
import riichi_env
venv = riichi_env.vector_env(2)
obs, _ = venv.reset(seed=0)
venv.step(obs["action_mask"].argmax(axis=1))
print("ok")
"""


def test_a_truncated_entry_of_the_vector_env_is_compiled_again(
    tmp_path, monkeypatch, numba_folder, run_python
):
    """The issue's case: a truncated ``.nbc`` made every ``vector_env()`` fail with an
    ``UnpicklingError`` until the cache was deleted. A copy of this session's warm cache, with
    the entry of the kernel ``reset`` calls cut in half, still works and says so once (having
    emptied that cache folder: the kernels left are compiled again)."""
    import os
    import shutil

    import riichi_env
    from engine._numba import cache_roots, source_digest
    from riichi_env.core import runner

    if os.environ.get("NUMBA_CACHE_DIR"):
        pytest.skip("the project's cache layout is used only without NUMBA_CACHE_DIR")
    riichi_env.vector_env(2).reset(seed=0)  # this session's cache holds the vector env's kernels
    root = cache_roots()[0]
    for item in root.glob("*.npy"):  # the tables and these sources' kernels, with their markers
        shutil.copy(item, tmp_path / item.name)
    writing = shutil.ignore_patterns("*.tmp.*")  # another test process may be saving an entry
    digest = source_digest()
    shutil.copytree(root / "numba" / digest, tmp_path / "numba" / digest, ignore=writing)
    folder = tmp_path / "numba" / digest / numba_folder(Path(runner.__file__).parent)
    (entry,) = folder.glob("runner._run_random-*.nbc")
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) // 2])
    out = run_python(VECTOR, tmp_path, RIICHI_ENV_CACHE=str(tmp_path))  # reads that folder
    assert out.stdout.strip() == "ok"
    # (a caller of the recompiled kernel may be compiled again too, with its own notice)
    damaged = [line for line in out.stderr.splitlines() if "dropped a damaged" in line]
    assert damaged == [
        f"riichi_env: dropped a damaged Numba cache, {tmp_path / 'numba' / digest} "
        "(UnpicklingError: pickle data was truncated); compiling "
        "riichi_env.core.runner._run_random again"
    ], out.stderr
