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
            if not value.signatures:
                print("NONE", f"{value.py_func.__module__}.{value.py_func.__qualname__}")
"""

pytestmark = pytest.mark.xdist_group("cold-run")  # one worker: the cold compile runs once

EXCEPTIONS: dict[str, str] = {
    # kernel -> why it is compiled for more than one signature (none today)
}


@pytest.fixture(scope="module")
def cold_run(tmp_path_factory):
    """What ``RUN`` prints, from an empty cache, in one process (no compile helper)."""
    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    tmp_path = tmp_path_factory.mktemp("cache")
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
    return out.stdout


@pytest.mark.slow
def test_no_kernel_is_compiled_for_two_signatures(cold_run):
    """From an empty cache, in one process (no compile helper): the env's first step and one
    self-play game; any kernel with more than one compiled signature is listed."""
    many = [line.split()[1:] for line in cold_run.splitlines() if line.startswith("MANY ")]
    assert [m for m in many if m[0] not in EXCEPTIONS] == []


@pytest.mark.slow
def test_the_env_and_random_self_play_compile_neither_the_agents_nor_every_encoder(cold_run):
    """The runner they share (``_run_random``) writes no observation and plays no compiled
    agent: ``_encode`` (every encoder, by id) and the agents' choice are never compiled for the
    env's first step and a random self-play game (docs/internals.md, "One runner")."""
    never = {line.split()[1] for line in cold_run.splitlines() if line.startswith("NONE ")}
    assert "riichi_env.core.encoders._encode" in never
    assert "engine.harness.selfplay._choose" in never
    assert "engine.harness.policies._efficiency_action" in never
    assert "riichi_env.core.runner._run" in never
    assert "riichi_env.core.runner._run_random" not in never
