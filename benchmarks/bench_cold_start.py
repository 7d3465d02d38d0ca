"""Cold start: seconds from a fresh interpreter to the first result, with and without caches.

Run: ``.venv/bin/python benchmarks/bench_cold_start.py``. Each row is a new Python process; "cold"
uses an empty cache directory (``RIICHI_ENV_CACHE``: Numba machine code and shanten tables are
built), "warm" runs the same step again with that directory filled. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

STEPS = {
    "import engine": "import engine",
    "import + first shanten": "import engine; engine.shanten('123m456p789s1122z')",
    "import + first scored hand": (
        "import engine; engine.score_hand('123m456p789s11z222z', '2z', win_type='ron', "
        "seat_wind='S', round_wind='E', dora_indicators=['9m'])"
    ),
    "import + first env step": (
        "import riichi_env; e = riichi_env.env(); e.reset(seed=0); "
        "a = e.agent_selection; m = e.observe(a)['action_mask']; e.step(int(m.nonzero()[0][0]))"
    ),
    "first self-play hanchan (compiled)": (
        "from riichi_env.cli import main; main(['selfplay', '--games', '1'])"
    ),
}


def run(code: str, cache: str) -> float:
    """Wall seconds of ``python -c code`` with ``RIICHI_ENV_CACHE=cache``."""
    env = {**os.environ, "RIICHI_ENV_CACHE": cache}
    env.pop("NUMBA_CACHE_DIR", None)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", nargs="*", default=list(STEPS), choices=list(STEPS))
    args = parser.parse_args(argv)
    print("| step | cold cache (s) | warm cache (s) |")
    print("|---|---:|---:|")
    for name in args.steps:
        with tempfile.TemporaryDirectory() as cache:
            cold = run(STEPS[name], cache)
            warm = min(run(STEPS[name], cache) for _ in range(2))
        print(f"| {name} | {cold:.2f} | {warm:.2f} |", flush=True)


if __name__ == "__main__":
    main()
