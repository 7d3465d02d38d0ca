"""AEC decisions per second with random masked actions, next to RiichiEnv's own Python loop.

    .venv/bin/python benchmarks/bench_env.py [--games 20] [--repeats 3] [--riichienv-python PATH]

Rows: ``raw_env`` with and without encoding the observation (``env.last()`` vs ``action_mask()``),
the wrapped ``env()`` (PettingZoo's three wrappers) with encoding, the ``rich_v0`` encoder, and
RiichiEnv (PyPI ``riichienv``, Rust core) playing the same number of hanchan with random legal
actions, with and without ``Observation.encode()``; each side draws the action with Python's
``random`` (RiichiEnv's own loop). The "NumPy choice" rows draw it as a user's loop often does,
``rng.choice(np.flatnonzero(mask))`` with NumPy's generator (RiichiEnv's with ``encode()`` and
``mask()``): that draw alone costs about as much as a whole step of either env. RiichiEnv runs in its own virtual environment
(default ``/tmp/riichienv-bench``, created with ``python3 -m venv`` + ``pip install riichienv numpy``
unless ``--no-install``); it is skipped with a note when it cannot be installed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _peers import riichienv_python, run_riichienv  # noqa: E402


def _best(
    make_env, games: int, seed: int, encode: bool, repeats: int, chooser: str = "python"
) -> tuple[int, int, float]:
    """The fastest of ``repeats`` runs of ``_play``."""
    runs = (_play(make_env, games, seed, encode, chooser) for _ in range(repeats))
    return min(runs, key=lambda r: r[2])


def _play(
    make_env, games: int, seed: int, encode: bool, chooser: str = "python"
) -> tuple[int, int, float]:
    """(decisions, games, seconds) of random masked play; ``chooser`` ``"python"`` draws the
    action with ``random.Random`` over ``np.flatnonzero(mask)`` (RiichiEnv's own loop draws with
    it too), ``"numpy"`` as ``rng.choice(np.flatnonzero(mask))`` with NumPy's generator."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    env = make_env()
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            if encode:
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                mask = obs["action_mask"]
            else:
                _, _, term, trunc, _ = env.last(observe=False)
                if term or trunc:
                    env.step(None)
                    continue
                mask = env.unwrapped.action_mask()
            if chooser == "numpy":
                env.step(int(nrng.choice(np.flatnonzero(mask))))
            else:
                legal = np.flatnonzero(mask)
                env.step(int(legal[int(rng.random() * legal.size)]))
            decisions += 1
    return decisions, games, time.perf_counter() - start


def _riichienv(args: argparse.Namespace) -> tuple[dict | None, str]:
    python, note = riichienv_python(args.riichienv_python, args.no_install)
    if python is None:
        return None, note
    out, why = run_riichienv(python, args.games, args.seed, args.repeats)
    return out, note if out is not None else why


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="hanchan per row (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3, help="runs per row, best kept (3)")
    parser.add_argument("--riichienv-python", help="a Python that can import riichienv")
    parser.add_argument("--no-install", action="store_true", help="do not create the venv")
    args = parser.parse_args()

    from riichi_env.aec.raw_env import env, raw_env

    t0 = time.perf_counter()
    _play(raw_env, 1, 10_000, True)
    _play(lambda: raw_env(encoder="rich_v0"), 1, 10_000, True)
    _play(env, 1, 10_000, True)
    warm = time.perf_counter() - t0

    def rich():
        return raw_env(encoder="rich_v0")

    g, s, r = args.games, args.seed, args.repeats
    rows = [
        ("riichi_env raw_env, no encoding", _best(raw_env, g, s, False, r)),
        ("riichi_env raw_env + basic_v0", _best(raw_env, g, s, True, r)),
        ("riichi_env env() wrapped + basic_v0", _best(env, g, s, True, r)),
        ("riichi_env raw_env + rich_v0", _best(rich, g, s, True, r)),
        ("riichi_env env() + basic_v0, NumPy choice", _best(env, g, s, True, r, "numpy")),
        ("riichi_env raw_env + basic_v0, NumPy choice", _best(raw_env, g, s, True, r, "numpy")),
    ]
    other, note = _riichienv(args)
    ref = None
    if other is not None:
        p, e = other["plain"], other["encode"]
        rows.append(
            (f"RiichiEnv {other['version']} loop", (p["decisions"], p["games"], p["seconds"]))
        )
        rows.append(
            (f"RiichiEnv {other['version']} + encode()", (e["decisions"], e["games"], e["seconds"]))
        )
        ref = e["decisions"] / e["seconds"]
        if "numpy" in other:
            n = other["numpy"]
            name = f"RiichiEnv {other['version']} + encode() + mask(), NumPy choice"
            rows.append((name, (n["decisions"], n["games"], n["seconds"])))

    print(
        f"random masked actions, {args.games} hanchan per row, best of {args.repeats}, seed {args.seed} "
        f"(warm-up incl. any compilation: {warm:.1f} s)"
    )
    print(
        f"{'implementation':<40} {'decisions':>10} {'dec/s':>10} {'hanchan/s':>10} {'vs RE+enc':>9}"
    )
    for name, (d, g, s) in rows:
        rate = d / s
        ratio = f"{rate / ref:.2f}x" if ref else "-"
        print(f"{name:<40} {d:>10} {rate:>10.0f} {g / s:>10.1f} {ratio:>9}")
    if other is None:
        print(f"RiichiEnv skipped: {note}")
    else:
        print(f"RiichiEnv from {note}")


if __name__ == "__main__":
    sys.exit(main())
