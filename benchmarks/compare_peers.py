"""riichi_env next to RiichiEnv in one run: the same kind of work, rates and their ratios.

    .venv/bin/python benchmarks/compare_peers.py [--rounds 3] [--riichienv-python PATH]

RiichiEnv (PyPI ``riichienv``, Rust core) plays hanchan with random legal actions in its own Python
loop, with and without ``Observation.encode()``, in its own virtual environment (``_peers.py``).
riichi_env rows: compiled random self-play (1 and 2 workers), the vector env (``basic_v0``, 256
tables, random legal actions chosen in NumPy, float32 and uint8 observations, one thread and
``threads=2``), and the PettingZoo
AEC env (raw and wrapped, ``basic_v0``) in the same kind of loop as RiichiEnv's. Every round runs
every row once, rounds interleave, and each row keeps its best round, so a slow spell of a shared
machine hits all rows alike. Prints a markdown table with each row's ratio to its reference and
the target it is held to.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _peers import riichienv_python, run_riichienv  # noqa: E402
from bench_env import _play  # noqa: E402


def _aec(make_env, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, hanchan, seconds) of the AEC loop with encoding: ``bench_env``'s loop."""
    return _play(make_env, games, seed, True)


def _vector(tables: int, steps: int, dtype, seed: int, threads: int = 1) -> tuple[int, int, float]:
    """(decisions, hanchan finished, seconds) of the vector env with NumPy random legal actions."""
    import riichi_env

    venv = riichi_env.vector_env(num_tables=tables, obs_dtype=dtype, copy=False, threads=threads)
    obs, _ = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    games = 0
    start = time.perf_counter()
    for _ in range(steps):
        mask = obs["action_mask"]
        actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
        obs, _, terms, _, _ = venv.step(actions)
        games += int(terms.sum())
    return steps * tables, games, time.perf_counter() - start


def _selfplay(games: int, workers: int, seed: int) -> tuple[int, int, float]:
    import riichi_env

    out = riichi_env.selfplay("random", games=games, seed=seed, workers=workers, progress=False)
    return out["decisions"], out["games"], out["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--games", type=int, default=20, help="hanchan per AEC/RiichiEnv row")
    parser.add_argument(
        "--selfplay-games", type=int, default=2000, help="hanchan per self-play row"
    )
    parser.add_argument("--vector-steps", type=int, default=1500, help="steps per vector row")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--riichienv-python", help="a Python that can import riichienv")
    parser.add_argument("--no-install", action="store_true", help="do not create the venv")
    args = parser.parse_args()

    import riichi_env

    python, note = riichienv_python(args.riichienv_python, args.no_install)
    t0 = time.perf_counter()  # compile or load everything before any clock starts
    _aec(riichi_env.env, 1, 10_000)
    _vector(4, 50, np.float32, 1)
    _vector(4, 50, np.uint8, 1)
    _vector(64, 50, np.float32, 1, 2)
    _selfplay(2, 2, 1)
    warm = time.perf_counter() - t0

    g, s = args.games, args.seed
    jobs = {
        "sp1": (
            "riichi_env compiled self-play, 1 worker",
            lambda: _selfplay(args.selfplay_games, 1, s),
        ),
        "sp2": (
            "riichi_env compiled self-play, 2 workers",
            lambda: _selfplay(args.selfplay_games, 2, s),
        ),
        "vec": (
            "riichi_env vector env, 256 tables, basic_v0 float32",
            lambda: _vector(256, args.vector_steps, np.float32, s),
        ),
        "vec8": (
            "riichi_env vector env, 256 tables, basic_v0 uint8",
            lambda: _vector(256, args.vector_steps, np.uint8, s),
        ),
        "vec_t2": (
            "riichi_env vector env, 256 tables, basic_v0 float32, threads=2",
            lambda: _vector(256, args.vector_steps, np.float32, s, 2),
        ),
        "vec8_t2": (
            "riichi_env vector env, 256 tables, basic_v0 uint8, threads=2",
            lambda: _vector(256, args.vector_steps, np.uint8, s, 2),
        ),
        "raw": ("riichi_env raw_env + basic_v0", lambda: _aec(riichi_env.raw_env, g, s)),
        "wrapped": ("riichi_env env() wrapped + basic_v0", lambda: _aec(riichi_env.env, g, s)),
    }
    best: dict[str, tuple[int, int, float]] = {}
    version = None
    for _ in range(args.rounds):
        for key, (_, job) in jobs.items():
            r = job()
            if key not in best or r[0] / r[2] > best[key][0] / best[key][2]:
                best[key] = r
        if python is not None:
            other, why = run_riichienv(python, g, s, 1)
            if other is None:
                python, note = None, why
                continue
            version = other["version"]
            for key in ("plain", "encode"):
                row = other[key]
                r = (row["decisions"], row["games"], row["seconds"])
                k = "re_" + key
                if k not in best or r[0] / r[2] > best[k][0] / best[k][2]:
                    best[k] = r

    def rate(key: str, per: str) -> float | None:
        if key not in best:
            return None
        d, n, sec = best[key]
        return (d if per == "dec" else n) / sec

    rows = [
        # (row, unit of the ratio, reference row, target ratio)
        ("sp1", "game", "re_plain", 10.0),
        ("sp2", "game", "sp1", 1.8),
        ("vec", "dec", "re_encode", 10.0),
        ("vec8", "dec", "re_encode", 10.0),
        ("vec_t2", "dec", "re_encode", 10.0),
        ("vec8_t2", "dec", "re_encode", 10.0),
        ("raw", "dec", "re_encode", None),
        ("wrapped", "dec", "re_encode", 1.5),
        ("re_plain", "game", None, None),
        ("re_encode", "dec", None, None),
    ]
    names = {k: v[0] for k, v in jobs.items()}
    names["re_plain"] = f"RiichiEnv {version} loop, random actions"
    names["re_encode"] = f"RiichiEnv {version} loop + encode()"
    print(
        f"best of {args.rounds} interleaved rounds, seed {s}; "
        f"warm-up incl. any compilation {warm:.1f} s"
    )
    print()
    print("| row | decisions/s | hanchan/s | ratio | to | target |")
    print("|---|---:|---:|---:|---|---|")
    for key, unit, ref, target in rows:
        if key not in best:
            continue
        d, n, sec = best[key]
        ratio = ""
        goal = ""
        if ref is not None and ref in best:
            x = rate(key, unit) / rate(ref, unit)
            ratio = f"{x:.2f}x"
            goal = f">= {target}x {'met' if x >= target else 'NOT met'}" if target else ""
        unit_name = "hanchan/s" if unit == "game" else "decisions/s"
        to = f"{names[ref]} ({unit_name})" if ref in names else ""
        print(f"| {names[key]} | {d / sec:,.0f} | {n / sec:,.1f} | {ratio} | {to} | {goal} |")
    if python is None:
        print(f"\nRiichiEnv skipped: {note}")
    else:
        print(f"\nRiichiEnv from {note}")


if __name__ == "__main__":
    sys.exit(main())
