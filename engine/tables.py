"""Lookup tables for the kernels: built on first use, cached on disk, loaded once per process.

The cache directory is the project's cache root (``engine._numba.cache_roots()``):
``$RIICHI_ENV_CACHE`` if set, else ``$XDG_CACHE_HOME/riichi_env`` (default ``~/.cache/riichi_env``),
else the system temp dir. Nothing is ever written into the installed package. If no directory is
writable the tables are simply rebuilt in memory in each process. Files are
written atomically and checked for shape and dtype on load; bump ``CACHE_VERSION`` whenever a
builder's output changes (the table tests compare the loaded tables with a brute force, so a stale
cache fails them).
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

from engine._numba import cache_roots
from engine.shanten import N_COLS, N_HONOR_CODES, N_SUIT_CODES, build_shanten_tables

CACHE_VERSION = 1
"""Bump when a builder's output changes, so stale cache files are ignored."""


class Tables(NamedTuple):
    """Lookup tables passed to kernels as arguments."""

    shanten_suit: np.ndarray
    """``int8[5**9, 10]``: per suit pattern, tiles to add for m sets (col m) / m sets + pair (5+m)."""
    shanten_honor: np.ndarray
    """``int8[5**7, 10]``: the same for the seven honor kinds (no runs)."""


def _spec() -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """File stem → expected shape and dtype of each cached table."""
    return {
        "shanten_suit": ((N_SUIT_CODES, N_COLS), np.dtype(np.int8)),
        "shanten_honor": ((N_HONOR_CODES, N_COLS), np.dtype(np.int8)),
    }


def _file(directory: Path, name: str) -> Path:
    return directory / f"{name}_v{CACHE_VERSION}.npy"


def _mkdir(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return True


def _writable(directory: Path) -> bool:
    return _mkdir(directory) and os.access(directory, os.W_OK | os.X_OK)


cache_dirs = cache_roots
"""Directories searched for cached tables, in order: the project's one cache-root function."""


def _read(directory: Path) -> dict[str, np.ndarray] | None:
    """All tables from ``directory``, or None if any is missing or malformed."""
    out = {}
    for name, (shape, dtype) in _spec().items():
        path = _file(directory, name)
        try:
            arr = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        if arr.shape != shape or arr.dtype != dtype or not arr.flags.c_contiguous:
            return None
        out[name] = arr
    return out


def _write(directory: Path, arrays: dict[str, np.ndarray]) -> bool:
    """Write atomically (temp file + rename), so concurrent processes never see half a file."""
    if not _writable(directory):
        return False
    for name, arr in arrays.items():
        try:
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                np.save(fh, arr, allow_pickle=False)
            os.chmod(tmp, 0o644)
            os.replace(tmp, _file(directory, name))
        except OSError:
            return False
    return True


def build_tables() -> Tables:
    """Build every table from scratch (no cache)."""
    suit, honor = build_shanten_tables()
    return Tables(shanten_suit=suit, shanten_honor=honor)


@functools.cache
def load_tables() -> Tables:
    """The tables, from the disk cache if present, else built once and cached (see module doc)."""
    dirs = cache_dirs()
    for directory in dirs:
        arrays = _read(directory)
        if arrays is not None:
            return Tables(**arrays)
    tables = build_tables()
    for directory in dirs:
        if _write(directory, tables._asdict()):
            break
    return tables
