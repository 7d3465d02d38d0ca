"""Cold start: seconds from a fresh interpreter to the first result, with and without caches.

Run: ``python benchmarks/bench_cold_start.py [--only env,selfplay]``. Every row is a new Python
process. The rows run in order against ONE cache directory (``RIICHI_ENV_CACHE``, emptied at the
start), the way a new user meets the project: the first env step from an empty cache, then the
first compiled self-play game, then the first use of each other CLI command. "cold" is that first
run; "warm" is the same command again with the cache filled (best of two). The last line sums
the first two rows, the figure of "a new user's first env step and first self-play game".
Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "tests" / "data" / "logs" / "tenhou6" / "chankan.json"
ENV_STEP = (
    "import riichi_env; e = riichi_env.env(); e.reset(seed=0); "
    "a = e.agent_selection; m = e.observe(a)['action_mask']; e.step(int(m.nonzero()[0][0]))"
)
STEPS = {
    "env": ("import + first env step", ["-c", ENV_STEP]),
    "selfplay": (
        "first compiled self-play hanchan",
        ["-m", "riichi_env", "selfplay", "--games", "1"],
    ),
    "demo": ("first `riichi-env demo`", ["-m", "riichi_env", "demo"]),
    "replay": ("first `riichi-env replay`", ["-m", "riichi_env", "replay", str(LOG)]),
    "score": ("first `riichi-env score`", ["-m", "riichi_env", "score", "123m456p789s11z555z"]),
    "convert": (
        "first `riichi-env convert`",
        ["-m", "riichi_env", "convert", str(LOG), "--to", "mjai", "-o", os.devnull],
    ),
    "arena": (
        "first `riichi-env arena --games 40`",
        ["-m", "riichi_env", "arena", "--games", "40"],
    ),
}


def run(args: list[str], cache: str) -> float:
    """Wall seconds of ``python *args`` with ``RIICHI_ENV_CACHE=cache``."""
    env = {**os.environ, "RIICHI_ENV_CACHE": cache}
    env.pop("NUMBA_CACHE_DIR", None)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, *args],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tempfile.gettempdir(),  # not the checkout: the installed (or PYTHONPATH) package runs
    )
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        default=",".join(STEPS),
        help=f"comma-separated rows, in order ({','.join(STEPS)})",
    )
    parser.add_argument(
        "--cache",
        help="cache directory to use and keep (must be empty or absent; default: a temporary one)",
    )
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    unknown = sorted(set(names) - set(STEPS))
    if unknown:
        parser.error(f"unknown rows {unknown}; choose from {list(STEPS)}")
    print("| step (one cache, in this order) | cold cache (s) | warm cache (s) |")
    print("|---|---:|---:|")
    cold_sum = warm_sum = 0.0
    if args.cache:
        Path(args.cache).mkdir(parents=True, exist_ok=True)
        if any(Path(args.cache).iterdir()):
            parser.error(f"--cache {args.cache} is not empty: a cold start needs an empty cache")
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or tmp
        for name in names:
            label, cmd = STEPS[name]
            cold = run(cmd, cache)
            warm = min(run(cmd, cache) for _ in range(2))
            if name in ("env", "selfplay"):
                cold_sum += cold
                warm_sum += warm
            print(f"| {label} | {cold:.1f} | {warm:.1f} |", flush=True)
    if "env" in names and "selfplay" in names:
        print(
            f"| **first env step + first self-play game** | **{cold_sum:.1f}** | **{warm_sum:.1f}** |"
        )


if __name__ == "__main__":
    main()
