"""Many tables driven by one batched policy: the vector env, then ``riichi_env.selfplay``.

python examples/vector_selfplay.py [tables] [steps]

The policy here is NumPy (a random legal action per table); a torch model plugs in the same way:
it gets every table's observation in one array and returns one action per table.
"""

import sys

import numpy as np

import riichi_env


def random_legal(obs: np.ndarray, mask: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """A batched policy: one random legal action id per row of ``mask``."""
    rng = np.random.default_rng(int(obs.sum()) % 2**32)  # a function of its inputs: reproducible
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def main(tables: int = 64, steps: int = 2000) -> None:
    venv = riichi_env.vector_env(num_tables=tables, encoder="basic_v0", reward="placement")
    obs, info = venv.reset(seed=0)
    games = 0
    totals = np.zeros(4)
    for _ in range(steps):
        actions = random_legal(obs["observation"], obs["action_mask"], info["seat"])
        obs, rewards, terminations, truncations, info = venv.step(actions)
        totals += rewards.sum(axis=0)
        games += int(terminations.sum())
    print(f"vector env: {tables} tables, {steps} steps, {games} games finished")
    print("placement reward per seat, summed:", np.round(totals, 1).tolist())

    out = riichi_env.selfplay(
        [random_legal, "random", "random", "random"], games=32, num_tables=16, seed=0
    )
    ranks = np.array([r["ranks"][0] for r in out["results"]])
    print(f"selfplay: {out['games']} games, {out['hands']} hands, {out['decisions']} decisions")
    print(f"seat 0 (the NumPy policy) average rank {1 + ranks.mean():.2f} against compiled random")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]))
