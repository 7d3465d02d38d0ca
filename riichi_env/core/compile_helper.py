"""The second process of a cold compile on two cores: ``python -m riichi_env.core.compile_helper
KIND`` compiles ``compiling.helper_entries(KIND)`` into the shared on-disk cache, printing each
kernel's qualified name once it is cached (``riichi_env.core.compiling._Helper`` reads them)."""

from __future__ import annotations

import sys

from engine._numba import compile_kernel
from riichi_env.core.compiling import helper_entries, name

if __name__ == "__main__":
    for kernel, types in helper_entries(sys.argv[1]):
        compile_kernel(kernel, types)
        print(name(kernel), flush=True)
