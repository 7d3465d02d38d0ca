"""RiichiEnv in its own virtual environment, for the benchmarks that compare against it.

RiichiEnv (PyPI ``riichienv``, Rust core) is installed into ``/tmp/riichienv-bench`` (``python3 -m
venv`` + ``pip install riichienv numpy``) the first time, never into the project's environment;
``_riichienv_loop.py`` runs there and prints one JSON line.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_VENV = Path("/tmp/riichienv-bench")


def riichienv_python(given: str | None, no_install: bool) -> tuple[str | None, str]:
    """Path of a Python with riichienv, or None and why not."""
    if given:
        try:
            ok = subprocess.run([given, "-c", "import riichienv, numpy"], capture_output=True)
        except OSError as exc:
            return None, f"--riichienv-python {given!r} cannot run ({exc.strerror})"
        if ok.returncode != 0:
            return None, f"--riichienv-python {given!r} cannot import riichienv and numpy"
        return given, "given"
    python = DEFAULT_VENV / "bin" / "python"
    check = [str(python), "-c", "import riichienv, numpy"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return str(python), f"venv {DEFAULT_VENV}"
    if no_install:
        return None, "not installed (--no-install)"
    try:
        subprocess.run(
            ["python3", "-m", "venv", str(DEFAULT_VENV)], check=True, capture_output=True
        )
        subprocess.run(
            [str(DEFAULT_VENV / "bin" / "pip"), "install", "-q", "riichienv", "numpy"],
            check=True,
            capture_output=True,
            timeout=600,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"could not install riichienv ({exc.__class__.__name__})"
    if subprocess.run(check, capture_output=True).returncode != 0:
        return None, "riichienv does not import after install"
    return str(python), f"venv {DEFAULT_VENV} (installed now)"


def run_riichienv(python: str, games: int, seed: int, repeats: int) -> tuple[dict | None, str]:
    """``_riichienv_loop.py``'s result (``plain`` and ``encode`` rows), or None and why not."""
    try:
        proc = subprocess.run(
            [python, str(HERE / "_riichienv_loop.py"), str(games), str(seed), str(repeats)],
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        )
    except OSError as exc:
        return None, f"riichienv run failed: {python!r} cannot run ({exc.strerror})"
    if proc.returncode != 0:
        return None, f"riichienv run failed: {proc.stderr.strip().splitlines()[-1:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1]), "ok"
