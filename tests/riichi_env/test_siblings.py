"""``import riichi_env`` refuses a foreign ``engine`` or ``agents`` module with one clear message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _import_in(directory: Path) -> subprocess.CompletedProcess:
    """``import riichi_env`` from a script in ``directory`` (its folder is first on sys.path)."""
    script = directory / "train.py"
    script.write_text("import riichi_env\nprint('imported', riichi_env.__version__)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(script)], cwd=directory, env=env, capture_output=True, text=True
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda d: (d / "engine.py").write_text("SPEED = 1\n") and d / "engine.py",
        lambda d: _package(d, "agents"),
        lambda d: _package(d, "engine"),
    ],
    ids=["engine.py", "agents-package", "engine-package"],
)
def test_a_shadowing_module_is_named(tmp_path, make):
    shadow = make(tmp_path)
    proc = _import_in(tmp_path)
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("riichi_env._siblings.ShadowedPackageError: "), proc.stderr[-2000:]
    assert str(shadow) in last and "rename that file or folder" in last, last


def test_no_shadow_imports(tmp_path):
    proc = _import_in(tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("imported")


def _package(directory: Path, name: str) -> Path:
    folder = directory / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    return folder / "__init__.py"
