import numba
import pytest

from engine import _numba
from engine.shanten import _shanten


def test_project_kernels_cache_under_the_source_hash(monkeypatch, tmp_path):
    monkeypatch.setenv("RIICHI_ENV_CACHE", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    locator = _numba.SourceHashCacheLocator.from_function(
        _shanten.py_func, _shanten.py_func.__code__.co_filename
    )
    path = locator.get_cache_path()
    assert path.startswith(str(tmp_path / "numba" / _numba.source_digest()))
    assert path.endswith("engine")


def test_foreign_files_and_numba_cache_dir_use_numba_defaults(monkeypatch, tmp_path):
    def f():
        return 1

    assert _numba.SourceHashCacheLocator.from_function(f, numba.__file__) is None
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    assert (
        _numba.SourceHashCacheLocator.from_function(
            _shanten.py_func, _shanten.py_func.__code__.co_filename
        )
        is None
    )


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


def test_constants_at_call_sites_do_not_multiply_compiles():
    if _numba.jit_disabled():
        pytest.skip("no compilation without JIT")

    @_numba.njit(cache=False)
    def callee(x, k):
        return x + k

    @_numba.njit(cache=False)
    def caller(x):
        return callee(x, 1) + callee(x, 2) + callee(x, 3)

    assert caller(10) == 36
    assert len(callee.signatures) == 1
