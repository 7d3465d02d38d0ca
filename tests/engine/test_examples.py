"""Each kernel's warm-up example (``njit(example=...)``) has the types the game's callers pass."""

from __future__ import annotations

import sys

import pytest

import engine.kernels  # noqa: F401 (imports every kernel module of the game)
from engine._numba import jit_disabled, signatures
from engine.harness.selfplay import play_one
from engine.state import examples


def _kernels_with_examples() -> list:
    """Every kernel of ``engine`` that has a warm-up example."""
    found = {}
    for module_name, module in list(sys.modules.items()):
        if module_name.split(".")[0] == "engine":
            for value in vars(module).values():
                if hasattr(value, "py_func") and hasattr(value, "example"):
                    found[id(value)] = value
    return list(found.values())


def test_every_example_kernel_is_compiled_once_under_the_example_signature():
    """Played through the game's own callers, each kernel has exactly the signature its warm-up
    example gives (what the helper and ``riichi_env.compile`` compile): a warm-up's machine code
    is what the game loads, never a second copy."""
    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    play_one(3)  # compiles (or loads) the game and the loop: every example kernel is called
    kernels = _kernels_with_examples()
    assert len(kernels) >= 20
    for kernel in kernels:
        types = signatures([kernel.example(examples())])[0]
        compiled = list(kernel.signatures)
        if not compiled:  # this kernel was only loaded as part of its caller's machine code
            kernel.compile(types)
            compiled = list(kernel.signatures)
        name = kernel.py_func.__qualname__
        assert compiled == [types], f"{name}: compiled {compiled}, example gives {types}"
