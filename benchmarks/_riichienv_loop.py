"""RiichiEnv's own Python loop with random legal actions; run by ``bench_env.py`` in its own venv.

Arguments: games, seed, repeats. Prints one JSON line: decisions, games and seconds (the best of
the repeats), with and without ``Observation.encode()``. Kept free of project imports: it runs under another interpreter.
"""

import json
import random
import sys
import time


def run(games: int, encode: bool, seed: int) -> dict:
    from riichienv import RiichiEnv

    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        env = RiichiEnv(game_mode="4p-red-half", seed=seed + g, skip_mjai_logging=True)
        obs_dict = env.reset()
        while not env.done():
            actions = {}
            for pid, obs in obs_dict.items():
                legal = obs.legal_actions()
                if encode:
                    obs.encode()
                actions[pid] = legal[int(rng.random() * len(legal))]
                decisions += 1
            obs_dict = env.step(actions)
    return {"decisions": decisions, "games": games, "seconds": time.perf_counter() - start}


def _seconds(result: dict) -> float:
    return result["seconds"]


def main() -> None:
    from importlib.metadata import version

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    run(1, True, seed)  # warm-up
    out = {"version": version("riichienv")}
    for key, encode in (("plain", False), ("encode", True)):
        out[key] = min((run(games, encode, seed) for _ in range(repeats)), key=_seconds)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
