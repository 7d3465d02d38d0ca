"""Numba options for every engine kernel, kept in one place.

All hot paths are ``@njit`` with an on-disk cache so that a second process loads machine code
instead of compiling. With ``NUMBA_DISABLE_JIT=1`` the decorator returns the plain Python
function, so any rule can be stepped through in a debugger.
"""

from __future__ import annotations

import numba

NJIT_OPTIONS = {"cache": True, "nogil": True, "boundscheck": False}


def njit(*args, **kwargs):
    """``numba.njit`` with the project's options; usable bare or with extra options."""
    options = {**NJIT_OPTIONS, **kwargs}
    if args and callable(args[0]):
        return numba.njit(**options)(args[0])
    return numba.njit(*args, **options)


def jit_disabled() -> bool:
    """True when ``NUMBA_DISABLE_JIT=1`` turned kernels into plain Python."""
    return bool(numba.config.DISABLE_JIT)
