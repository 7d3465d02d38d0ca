"""Where a step's time goes: the AEC env's and the vector env's, in microseconds.

    python benchmarks/profile_step.py [--games 20] [--steps 600] [--tables 256]

AEC env (``basic_v0``, random masked play in PettingZoo's loop, the action drawn with Python's
``random``): per decision, the agent iterator, ``last()`` (of which the observation: the encoder
kernel's call, its own work, the arrays), ``step()`` through ``env()``'s three wrappers and
through ``raw_env`` alone (of which the runner kernel's call), and the draw of the action. Vector
env (``--tables`` tables, float32 and uint8, ``copy`` True and False): per step, the NumPy policy,
the runner kernel, and the rest of ``step()`` (checking and queueing the actions, the info and
reward arrays, copies of the observations). One process, one core; timings with
``time.perf_counter`` around each part (a few tenths of a microsecond each of their own).
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

import numpy as np

pc = time.perf_counter


def _runner_timer(module, name: str):
    """Wrap ``module.name`` (a kernel) to add its seconds and calls to a counter."""
    kernel = getattr(module, name)
    acc = [0.0, 0]

    def timed(*args):
        t = pc()
        r = kernel(*args)
        acc[0] += pc() - t
        acc[1] += 1
        return r

    setattr(module, name, timed)
    return acc, lambda: setattr(module, name, kernel)


def aec(games: int) -> None:
    import riichi_env
    import riichi_env.aec.raw_env as raw_module

    def loop(env, n_games: int) -> tuple[int, dict[str, float]]:
        rng = random.Random(0)
        t = dict.fromkeys(("iter", "last", "draw", "step"), 0.0)
        n = 0
        for g in range(n_games):
            env.reset(seed=g)
            it = iter(env.agent_iter())
            while True:
                a = pc()
                try:
                    next(it)
                except StopIteration:
                    break
                b = pc()
                obs, _, term, trunc, _ = env.last()
                c = pc()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(rng.random() * legal.size)])
                d = pc()
                env.step(action)
                e = pc()
                t["iter"] += b - a
                t["last"] += c - b
                t["draw"] += d - c
                t["step"] += e - d
                n += 1
        return n, t

    wrapped, raw = riichi_env.env(), riichi_env.raw_env()
    loop(wrapped, 1)
    loop(raw, 1)
    rows = {}
    for name, env in (("env() wrapped", wrapped), ("raw_env", raw)):
        acc, undo = _runner_timer(raw_module, "_run_random")
        n, t = loop(env, games)
        undo()
        rows[name] = (n, t, acc[0] / max(acc[1], 1), acc[1] / n)
    env = riichi_env.raw_env()
    env.reset(seed=1)
    agent = env.agent_selection
    args = (env._rec, 0, 0, env._suit, env._honor, np.empty(env._obs_shape, np.float32))
    kernel = env._encode_kernel

    def per_call(f, number: int = 20000) -> float:
        return min(timeit.repeat(f, number=number, repeat=3)) / number * 1e6

    observe = per_call(lambda: env.observe(agent))
    encode = per_call(lambda: kernel(*args))
    empty = per_call(lambda: np.empty(env._obs_shape, np.float32))
    mask = per_call(lambda: env._mask.copy())
    print(f"AEC env, basic_v0, {games} hanchan, microseconds per decision\n")
    print("| part | env() wrapped | raw_env |")
    print("|---|---:|---:|")
    w, r = rows["env() wrapped"], rows["raw_env"]
    for part in ("iter", "last", "draw", "step"):
        label = {
            "iter": "agent_iter() (the next agent)",
            "last": "last() (observation dict, reward, flags)",
            "draw": "the loop's own draw (np.flatnonzero, random)",
            "step": "step(action)",
        }[part]
        print(f"| {label} | {w[1][part] / w[0] * 1e6:.2f} | {r[1][part] / r[0] * 1e6:.2f} |")
    print(f"| of step: the runner kernel's call | {w[2] * 1e6:.2f} | {r[2] * 1e6:.2f} |")
    total_w = sum(w[1].values()) / w[0] * 1e6
    total_r = sum(r[1].values()) / r[0] * 1e6
    print(f"| total | {total_w:.2f} | {total_r:.2f} |")
    print(
        f"\nobserve() alone: {observe:.2f} us (the encoder kernel's call {encode:.2f}, "
        f"a new float32 array {empty:.2f}, the mask's copy {mask:.2f}, the rest: the seat and "
        "the dict)\n"
    )


def vector(steps: int, tables: int) -> None:
    import riichi_env

    print(f"vector env, {tables} tables, basic_v0, microseconds per step ({tables} decisions)\n")
    print("| observations | copy | decisions/s | policy | runner kernel | rest of step() |")
    print("|---|---|---:|---:|---:|---:|")
    for dtype, copy in ((np.float32, False), (np.float32, True), (np.uint8, False)):
        venv = riichi_env.vector_env(num_tables=tables, obs_dtype=dtype, copy=copy)
        obs, _ = venv.reset(seed=0)
        rng = np.random.default_rng(0)
        b = venv._batch
        acc = [0.0]
        call = b.call_runner

        def timed(teacher=False, call=call, acc=acc):
            t = pc()
            out = call(teacher)
            acc[0] += pc() - t
            return out

        b.call_runner = timed
        for _ in range(20):
            mask = obs["action_mask"]
            obs, *_ = venv.step((rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1))
        acc[0] = 0.0
        t_policy = t_step = 0.0
        for _ in range(steps):
            a = pc()
            mask = obs["action_mask"]
            actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
            b_ = pc()
            obs, *_ = venv.step(actions)
            t_policy += b_ - a
            t_step += pc() - b_
        rate = steps * tables / (t_policy + t_step)
        us = 1e6 / steps
        print(
            f"| {np.dtype(dtype).name} | {copy} | {rate:,.0f} | {t_policy * us:.0f} | "
            f"{acc[0] * us:.0f} | {(t_step - acc[0]) * us:.0f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--tables", type=int, default=256)
    args = parser.parse_args()
    aec(args.games)
    vector(args.steps, args.tables)


if __name__ == "__main__":
    main()
