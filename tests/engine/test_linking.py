"""Separately linked kernels (engine/_linking.py): one compiled copy, called by symbol, and a
disk cache that never loads a caller whose callee's machine code was replaced."""

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from engine._linking import STALE_NOTICE, KernelLoader, StaleKernelError
from engine._numba import jit_disabled
from engine.settlement import _can_win, _score_win

ROOT = Path(__file__).resolve().parents[2]

KERNELS = """
from engine._numba import njit


@njit(separate=True)
def callee(x):
    return x + 1


@njit
def caller(x):
    return callee(x) * 2


@njit
def outer(x):
    return caller(x) + 1
"""

pytestmark = pytest.mark.skipif(jit_disabled(), reason="linking is a compiled-code matter")


def _run(tmp_path: Path, code: str, stderr: list | None = None) -> str:
    """Run ``code`` in a fresh process with ``kern.py`` importable and its own Numba cache (its
    stderr appended to ``stderr``)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
    }
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    if stderr is not None:
        stderr.append(out.stderr)
    return out.stdout.strip()


@pytest.fixture
def kern(tmp_path):
    (tmp_path / "kern.py").write_text(KERNELS)
    return tmp_path


def test_a_caller_calls_the_separate_kernel_by_symbol(kern):
    out = _run(
        kern,
        """
        import numba
        from kern import callee, caller
        assert caller(1) == 4
        (sig,) = caller.signatures
        llvm = caller.inspect_llvm(sig)
        symbol = callee.overloads[sig].fndesc.mangled_name
        print(f"declare" in [l.split()[0] for l in llvm.splitlines() if symbol in l and l.split()])
        print(any(l.startswith("define") and symbol in l for l in llvm.splitlines()))
        """,
    )
    assert out.split() == ["True", "False"]  # declared, not defined: no copy in the caller


def test_a_cached_caller_loads_its_callee_first(kern):
    assert _run(kern, "from kern import caller; print(caller(1))") == "4"
    out = _run(
        kern,
        """
        from kern import callee, caller
        print(caller(20), caller.stats.cache_hits.most_common(1)[0][1], callee.stats.cache_hits)
        """,
    )
    value, hits, callee_hits = out.split(" ", 2)
    assert (value, hits) == ("42", "1")
    assert "1" in callee_hits  # the caller's reload step loaded the callee from the cache


def test_a_kernel_linking_a_cached_caller_also_loads_the_separate_callee_first(kern):
    """``outer`` links the code of ``caller``, loaded from the cache, which calls ``callee`` by
    symbol: ``outer``'s own cache entry must load ``callee`` first too."""
    assert _run(kern, "from kern import caller; print(caller(1))") == "4"
    assert _run(kern, "from kern import outer; print(outer(1))") == "5"  # caller from the cache
    out = _run(
        kern, "from kern import outer; print(outer(2), sum(outer.stats.cache_hits.values()))"
    )
    assert out == "7 1"  # loaded, and the callee's symbol resolved


def test_a_caller_whose_callee_was_compiled_again_is_compiled_again(kern):
    symbol = (
        "from kern import callee; print(next(iter(callee.overloads.values())).fndesc.mangled_name)"
    )
    first = _run(kern, "from kern import caller; caller(1)\n" + symbol)
    for path in (kern / "cache").rglob("kern.callee-*"):
        path.unlink()
    # another process compiles the callee again, with another Numba function id in its symbol
    second = _run(kern, "from kern import callee; callee(1)\n" + symbol)
    assert first != second
    said = []
    out = _run(
        kern,
        """
        from kern import caller
        print(caller(3), sum(caller.stats.cache_misses.values()))
        """,
        said,
    )
    assert out == "8 1"  # no crash on a missing symbol: the stale caller was compiled again
    assert said == [STALE_NOTICE + "\n"]  # and said so, once
    out = _run(
        kern,
        "from kern import caller; print(caller(3), sum(caller.stats.cache_misses.values()))",
        said,
    )
    assert out == "8 0"  # and cached again, against the callee's current code
    assert said[1] == ""


def test_the_loader_pickles_and_names_a_stale_symbol(kern, monkeypatch):
    monkeypatch.syspath_prepend(str(kern))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(kern / "cache"))
    import kern as module  # noqa: PLC0415 (written by the fixture)

    module.caller(1)
    (sig,) = module.callee.signatures
    symbol = module.callee.overloads[sig].fndesc.mangled_name
    loader = pickle.loads(pickle.dumps(KernelLoader("kern", "callee", sig, symbol)))
    assert loader == KernelLoader("kern", "callee", sig, symbol)
    loader()  # loaded already: nothing to do
    with pytest.raises(StaleKernelError, match="kern.callee"):
        KernelLoader("kern", "callee", sig, symbol + "x")()
    sys.modules.pop("kern")


def test_the_scorer_is_separate_and_the_hot_path_is_not():
    assert _score_win.separate and _can_win.separate
    from engine.turn import _apply

    assert not _apply.separate  # called every decision: linked (and inlined) as usual
