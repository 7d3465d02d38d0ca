"""Compile cost of each part of the warm-ups (``riichi_env.core.compiling.STAGES``), from an empty cache.

Run: ``python benchmarks/bench_compile_stages.py [--cache DIR]``. Each part is compiled by a fresh
process (one job, ``RIICHI_ENV_COMPILE_JOBS=1``) on one cache, in the order a new user meets them
(the game's core, the env's step, self-play, the agents, the vector env, the checked loop, the
other encoders), so each row is the cost of that part with the ones above it cached; ``score`` is
measured alone on a second empty cache (once the game is compiled, its scorer is cached). CPU
seconds are the process's user + system time less that of a process that only imports (so a
busy machine changes them less than the wall seconds); ``STAGES`` holds them. Prints a markdown
table.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from riichi_env.core.compiling import STAGES  # noqa: E402

PART = "from riichi_env.core.compiling import compile_stage; compile_stage({!r})"
WARM = "from riichi_env.core.compiling import ensure_compiled; ensure_compiled({!r})"
STEPS = {
    "deal": PART.format("deal"),
    "scoring": PART.format("scoring"),
    "mask": PART.format("mask"),
    "apply": PART.format("apply"),
    "step": WARM.format("env"),
    "selfplay": WARM.format("selfplay"),
    "agents": PART.format("agents"),
    "agents_loop": WARM.format("agents"),
    "vector": WARM.format("vector"),
    "checked": WARM.format("checked"),
    "encoders": WARM.format("encoders"),
}
IMPORTS = "import engine.compile_parts, riichi_env.aec.raw_env, riichi_env.batch.vector, riichi_env.core.compiling"
LEFT = "from riichi_env.core.compiling import _part_cached; print(_part_cached({!r}))"


def run(code: str, cache: str) -> tuple[float, float, str]:
    """CPU and wall seconds of ``python -c code`` with ``RIICHI_ENV_CACHE=cache``, and its stdout."""
    env = {**os.environ, "RIICHI_ENV_CACHE": cache, "RIICHI_ENV_COMPILE_JOBS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall, out.stdout.strip()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cache", help="an empty cache directory to use (default: a temporary one)"
    )
    args = parser.parse_args(argv)
    print("| part | CPU s | wall s | in `STAGES` (s) |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as tmp2:
        cache = args.cache or tmp
        base = min(run(IMPORTS, cache)[0] for _ in range(2))
        for stage, code in [*STEPS.items(), ("score", WARM.format("score"))]:
            where = tmp2 if stage == "score" else cache
            if stage == "score":
                run(IMPORTS, where)  # the tables, outside the measurement
            cpu, wall, _ = run(code, where)
            cached = run(LEFT.format(stage), where)[2] == "True"
            note = "" if cached else " (kernels not all cached!)"
            print(
                f"| {stage}{note} | {cpu - base:.1f} | {wall:.1f} | {STAGES[stage][1]:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
