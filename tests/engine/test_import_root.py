"""A checkout reached through a symlink (as CI's is): a child process started with
``python_argv`` imports the project from this process's path, so Numba files its kernels in the
folders this process reads (Numba names a folder after its source file's path as imported)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine._numba import import_root, jit_disabled


@pytest.fixture
def link(tmp_path) -> Path:
    """A symlink to the checkout this process imports."""
    path = tmp_path / "checkout"
    path.symlink_to(import_root(), target_is_directory=True)
    return path


def test_import_root_keeps_the_symlinked_path(link, tmp_path, run_python):
    code = "from engine._numba import import_root; print(import_root())"
    assert run_python(code, tmp_path, root=link).stdout.strip() == str(link)


def test_a_part_compiled_by_a_child_lands_where_this_process_reads(
    link, tmp_path, run_python, numba_folder
):
    """The grandchild runs in the checkout's real folder, whose copy of the project its working
    directory would otherwise put first on ``sys.path``: its kernels land in the folders of the
    path its parent imported from."""
    if jit_disabled() or os.environ.get("NUMBA_CACHE_DIR"):
        pytest.skip("the project's cache layout, with JIT")
    real = import_root().resolve()
    cache = tmp_path / "cache"
    code = (
        "import subprocess; from engine._numba import python_argv; "
        "subprocess.run(python_argv('riichi_env.core.compile_helper', 'score'), check=True, "
        f"cwd={str(real)!r}, stdout=subprocess.DEVNULL)"
    )
    run_python(code, tmp_path, root=link, RIICHI_ENV_CACHE=str(cache))
    folders = {p.name for p in (cache / "numba").glob("*/*") if p.is_dir()}
    assert numba_folder(link / "engine") in folders
    assert numba_folder(real / "engine") not in folders, folders
