from pathlib import Path

import numba
import pytest

from engine import _numba
from engine.shanten import _shanten

pytestmark = pytest.mark.quick


def test_project_kernels_cache_under_the_source_hash(monkeypatch, tmp_path):
    if _numba.jit_disabled():
        pytest.skip("no cache without JIT")
    monkeypatch.setenv("RIICHI_ENV_CACHE", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    py_file = _shanten.py_func.__code__.co_filename
    assert _numba.kernel_cache_dir(py_file) == tmp_path / "numba" / _numba.source_digest()
    kernel = _numba.njit(_shanten.py_func)  # decorated again: its cache is chosen now
    path = kernel.stats.cache_path
    assert path.startswith(str(tmp_path / "numba" / _numba.source_digest()))
    assert Path(path).name.startswith("engine")  # Numba's folder for the kernel's package
    assert numba.config.CACHE_DIR == ""  # restored after the decoration


def test_foreign_files_and_numba_cache_dir_use_numba_defaults(monkeypatch, tmp_path):
    if _numba.jit_disabled():
        pytest.skip("no cache without JIT")
    assert _numba.kernel_cache_dir(numba.__file__) is None
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    py_file = _shanten.py_func.__code__.co_filename
    assert _numba.kernel_cache_dir(py_file) is None
    kernel = _numba.njit(_shanten.py_func)
    assert kernel.stats.cache_path.startswith(str(tmp_path))


def test_digest_changes_with_any_engine_source(monkeypatch):
    before = _numba.source_digest()
    _numba.source_digest.cache_clear()
    monkeypatch.setattr(_numba, "_PACKAGES", ("engine",))
    try:
        assert _numba.source_digest() != before
    finally:
        _numba.source_digest.cache_clear()


@pytest.mark.nojit
def test_njit_returns_plain_functions_without_jit(monkeypatch, tmp_path):
    # the bare decorator caches (cache=True): keep that cache out of tests/
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))

    @_numba.njit
    def add(a, b):
        return a + b

    assert add(2, 3) == 5
    if _numba.jit_disabled():
        assert not hasattr(add, "py_func")
