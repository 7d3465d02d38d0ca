"""Shared pytest configuration."""

import hashlib
import os
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# Tests import shared helpers by module name (``from test_records_helpers import LOGS``): pytest
# puts each test file's own folder on sys.path (no __init__.py, so the folders named after the
# packages never shadow them); the dataset tests use the record tests' helpers and the vector env's
# tests the core tests' byte reference, so those folders are on the path too (appended: they never
# come before an installed package).
sys.path.append(str(TESTS / "riichi_env" / "records"))
sys.path.append(str(TESTS / "riichi_env" / "core"))


def pytest_sessionstart(session):
    session.config._riichi_start = time.time()


def pytest_sessionfinish(session, exitstatus):
    """Fail the run if it wrote Numba cache files into tests/ (a test kernel with cache=True)."""
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller checks once all workers are done
    start = getattr(session.config, "_riichi_start", None)
    if start is None:
        return
    written = sorted(p for p in TESTS.rglob("*.nb[ic]") if p.stat().st_mtime >= start - 1)
    if written:
        names = ", ".join(str(p.relative_to(TESTS)) for p in written)
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(
                f"Numba cache files were written into tests/: {names}; kernels defined in "
                "tests must use njit(cache=False) or a temporary NUMBA_CACHE_DIR",
                red=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_collection_modifyitems(config, items):
    """Under NUMBA_DISABLE_JIT=1 only the ``nojit`` subset runs (plain Python is slow)."""
    if os.environ.get("NUMBA_DISABLE_JIT") != "1":
        return
    skip = pytest.mark.skip(reason="only @pytest.mark.nojit tests run with NUMBA_DISABLE_JIT=1")
    for item in items:
        if "nojit" not in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def numba_folder():
    """``numba_folder(folder)``: the folder, under a Numba cache directory, of the kernels of the
    modules in ``folder`` (a package's folder as imported). Numba names it after that folder's
    name and the SHA-1 of its absolute path, symlinks kept, so a checkout reached by two paths
    (CI's) has two such folders."""

    def folder_of(folder) -> str:
        folder = os.path.abspath(folder)
        return f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"

    return folder_of


@pytest.fixture(scope="session")
def run_python():
    """``run_python(code, cwd, root=None, **env)``: ``python -c code`` in ``cwd`` importing the
    project from ``root``, by default this process's path (``engine._numba.import_root()``, so it
    shares this process's kernel cache folders), the extra environment variables set; its
    completed process, checked."""
    import subprocess
    import sys

    from engine._numba import import_root

    def run(code: str, cwd, root=None, **env: str) -> subprocess.CompletedProcess:
        root = import_root() if root is None else root
        env = {**os.environ, "PYTHONPATH": str(root), **env}
        out = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert out.returncode == 0, out.stderr
        return out

    return run


@pytest.fixture(scope="session")
def ray_local():
    """A local Ray instance with 2 CPUs, once per test process (the ``ray`` extra's tests)."""
    ray = pytest.importorskip("ray")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level="ERROR",
        log_to_driver=False,
        ignore_reinit_error=True,
    )
    yield ray
    ray.shutdown()
