"""The checkout's modules byte-compiled before a timed run, as ``pip install`` leaves them.

With ``PYTHONDONTWRITEBYTECODE`` set (some shells and containers set it), Python never writes a
``.pyc``: a module edited since its last one, or every module of a new git worktree, is compiled
from source again by every timed process (0.02-0.03 s for a large module), which a user's
installed copy never pays.
"""

from __future__ import annotations

import compileall
from pathlib import Path

PACKAGES = ("engine", "riichi_env", "agents")


def byte_compile(root: Path) -> None:
    """Write the ``.pyc`` of every module of the project's packages under ``root``."""
    for package in PACKAGES:
        compileall.compile_dir(root / package, quiet=1)
