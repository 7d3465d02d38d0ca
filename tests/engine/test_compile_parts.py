"""The parts a second process compiles are cached under the signatures the game looks up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import compile_parts
from engine._numba import jit_disabled, python_argv
from engine.harness.selfplay import play_one

ROOT = Path(__file__).resolve().parents[2]


def test_every_part_kernel_is_compiled_once_under_the_part_signature():
    """Played through the game's own callers, each kernel has exactly the signature the helper
    compiles it for: a helper's machine code is what the game loads, never a second copy."""
    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    play_one(3)  # compiles (or loads) the game and the loop: every part kernel is called
    parts = [entry for part in compile_parts.PARTS.values() for entry in part()]
    for name, kernel, signature in parts:
        compiled = list(kernel.signatures)
        if not compiled:  # this kernel was only loaded as part of its caller's machine code
            kernel.compile(signature)
            compiled = list(kernel.signatures)
        assert compiled == [signature], f"{name}: compiled {compiled}, part compiles {signature}"


def test_every_piece_kernel_is_compiled_once_under_the_piece_signature():
    """The same for the pieces one process hands to the other on two cores (``PIECES``: the
    tenpai check, the wins, the kans and kita, the random choice): a piece compiled for other
    types than the game's callers pass would be compiled twice, once per process."""
    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    play_one(3)
    pieces = [entry for piece in compile_parts.PIECES.values() for entry in piece()]
    for name, kernel, signature in pieces:
        compiled = list(kernel.signatures)
        if not compiled:  # loaded only as part of its caller's machine code
            kernel.compile(signature)
            compiled = list(kernel.signatures)
        assert compiled == [signature], f"{name}: compiled {compiled}, piece compiles {signature}"


def test_the_helper_prints_each_kernel_once_cached():
    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    play_one(3)  # warm: the helper below loads from the cache
    run = subprocess.run(
        python_argv("engine.compile_parts", "scoring"),  # imports from this process's path
        input="apply\n",  # a further part named on stdin; then stdin closes
        capture_output=True,
        text=True,
        check=True,
    )
    names = compile_parts.scoring_part() + compile_parts.apply_part()
    assert run.stdout.split() == [name for name, _, _ in names]


def test_an_unknown_part_is_refused():
    run = subprocess.run(
        [sys.executable, "-m", "engine.compile_parts", "gpu"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 2
    assert (
        "usage: python -m engine.compile_parts {scoring,deal,mask,apply,selfplay,agents} ..."
        in run.stderr
    )
    run = subprocess.run(
        [sys.executable, "-m", "engine.compile_parts", "deal"],
        input="gpu\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 2 and "unknown part 'gpu'" in run.stderr
