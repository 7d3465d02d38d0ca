"""RiichiEnv's own Python loop with random legal actions; run by ``bench_env.py`` in its own venv.

Arguments: games, seed, repeats. Prints one JSON line: decisions, games and seconds (the best of
the repeats), with and without ``Observation.encode()``. Kept free of project imports: it runs under another interpreter.
"""

import json
import random
import sys
import time


def run(games: int, encode: bool, seed: int, chooser: str = "python") -> dict:
    """Random legal actions; ``chooser`` ``"numpy"``: with ``encode()`` and ``mask()``, the action
    drawn as ``rng.choice(np.flatnonzero(mask))`` (NumPy's generator), the loop of the issue that
    measured the AEC env; ``"python"``: ``random.Random`` over ``legal_actions()``."""
    from riichienv import RiichiEnv

    rng = random.Random(seed)
    if chooser == "numpy":
        import numpy as np

        nrng = np.random.default_rng(seed)
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
                if chooser == "numpy":
                    mask = np.frombuffer(obs.mask(), dtype=np.uint8)
                    action_id = int(nrng.choice(np.flatnonzero(mask)))
                    action = next((a for a in legal if a.encode() == action_id), legal[0])
                else:
                    action = legal[int(rng.random() * len(legal))]
                actions[pid] = action
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
    for key, encode, chooser in (
        ("plain", False, "python"),
        ("encode", True, "python"),
        ("numpy", True, "numpy"),
    ):
        out[key] = min((run(games, encode, seed, chooser) for _ in range(repeats)), key=_seconds)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
