"""Every kernel is compiled for one signature: the call sites pass the same argument types
(``np.int64(x)``, ``np.bool_(x)`` rather than constants, which Numba compiles a copy for per
value) and tiny helpers are ``inline="always"`` (docs/internals.md, "One signature per kernel")."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine._numba import jit_disabled

ROOT = Path(__file__).resolve().parents[2]

RUN = """
import sys
import riichi_env
from riichi_env.cli.main import main

e = riichi_env.env()
e.reset(seed=0)
mask = e.observe(e.agent_selection)["action_mask"]
e.step(int(mask.nonzero()[0][0]))
try:
    main(["selfplay", "--games", "1"])
except SystemExit:
    pass
seen = set()
for name, module in list(sys.modules.items()):
    if name.split(".")[0] not in ("engine", "riichi_env", "agents"):
        continue
    for value in vars(module).values():
        if hasattr(value, "signatures") and hasattr(value, "py_func") and id(value) not in seen:
            seen.add(id(value))
            if len(value.signatures) > 1:
                fn = value.py_func
                print("MANY", f"{fn.__module__}.{fn.__qualname__}", len(value.signatures))
"""

EXCEPTIONS: dict[str, str] = {
    # kernel -> why it is compiled for more than one signature (none today)
}


@pytest.mark.slow
def test_no_kernel_is_compiled_for_two_signatures(tmp_path):
    """From an empty cache, in one process (no compile helper): the env's first step and one
    self-play game; any kernel with more than one compiled signature is listed."""
    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "RIICHI_ENV_CACHE": str(tmp_path),
        "RIICHI_ENV_COMPILE_JOBS": "1",
    }
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run(
        [sys.executable, "-c", RUN], env=env, capture_output=True, text=True, timeout=900
    )
    assert out.returncode == 0, out.stderr[-4000:]
    many = [line.split()[1:] for line in out.stdout.splitlines() if line.startswith("MANY ")]
    assert [m for m in many if m[0] not in EXCEPTIONS] == []
