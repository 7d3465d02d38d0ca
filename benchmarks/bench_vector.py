"""Vector env and batched self-play: decisions per second by batch size and observation type.

    .venv/bin/python benchmarks/bench_vector.py [--steps 1500] [--tables 1,16,64,256,1024]

Each row steps ``riichi_env.vector_env`` with random legal actions chosen in NumPy (one
``rng.random`` and ``argmax`` per step over the whole batch), ``basic_v0`` observations, for about
``--steps`` steps (scaled down for large batches); 256 tables in two threads (``threads=2``);
a row of 256 three-player tables (``basic3_v0``) per three-player preset. Then
``riichi_env.selfplay`` with a NumPy policy for every seat (the batched-policy path) and with
compiled random play, for the same batch of tables. One process, one core (two for the ``threads=2`` rows); prints a markdown table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def vector_rate(
    tables: int,
    steps: int,
    dtype,
    copy: bool,
    encoder: str,
    rules: str = "mahjongsoul",
    threads: int = 1,
) -> float:
    import riichi_env

    venv = riichi_env.vector_env(
        num_tables=tables,
        obs_dtype=dtype,
        copy=copy,
        encoder=encoder,
        rules=rules,
        threads=threads,
    )
    obs, _ = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(steps):
        mask = obs["action_mask"]
        obs, *_ = venv.step((rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1))
    return steps * tables / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--tables", default="1,16,64,256,1024")
    parser.add_argument("--games", type=int, default=256, help="games of the self-play rows")
    args = parser.parse_args()
    import riichi_env

    t0 = time.perf_counter()
    vector_rate(2, 20, np.float32, True, "basic_v0")
    vector_rate(2, 20, np.uint8, True, "basic_v0")
    print(f"warm-up incl. any compilation: {time.perf_counter() - t0:.1f} s\n")
    print("| tables | observation | copy | decisions/s |")
    print("|---:|---|---|---:|")
    for b in [int(x) for x in args.tables.split(",")]:
        steps = max(20, min(args.steps, args.steps * 256 // b))
        for dtype, copy in ((np.float32, True), (np.float32, False), (np.uint8, False)):
            rate = vector_rate(b, steps, dtype, copy, "basic_v0")
            print(f"| {b} | basic_v0 {np.dtype(dtype)} | {copy} | {rate:,.0f} |")
    b = 256
    for dtype in (np.float32, np.uint8):
        rate = vector_rate(b, args.steps, dtype, False, "basic_v0", threads=2)
        print(f"| {b} | basic_v0 {np.dtype(dtype)}, threads=2 | False | {rate:,.0f} |")
    for dtype, copy in ((np.float32, False),):
        rate = vector_rate(b, args.steps, dtype, copy, "rich_v0")
        print(f"| {b} | rich_v0 {np.dtype(dtype)} | {copy} | {rate:,.0f} |")
    for rules in ("mahjongsoul-3p", "tenhou-3p"):  # three players: 86 actions
        rate = vector_rate(b, args.steps, np.float32, False, "basic3_v0", rules)
        print(f"| {b} | basic3_v0 float32, {rules} | False | {rate:,.0f} |")

    rng = np.random.default_rng(0)

    def numpy_random(obs, mask, seat):
        return (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)

    print("\n| self-play, 256 tables | games | decisions/s | hanchan/s |")
    print("|---|---:|---:|---:|")
    riichi_env.selfplay(numpy_random, games=2, num_tables=2, progress=False)
    for name, policy in (("NumPy policy, every seat", numpy_random), ("compiled random", "random")):
        out = riichi_env.selfplay(policy, games=args.games, num_tables=256, seed=0, progress=False)
        sec = out["seconds"]
        print(
            f"| {name} | {out['games']} | {out['decisions'] / sec:,.0f} | {out['games'] / sec:,.1f} |"
        )


if __name__ == "__main__":
    main()
