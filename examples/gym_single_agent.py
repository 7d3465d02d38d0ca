"""One learning seat against three efficiency agents through the Gymnasium wrapper.

The "policy" here is a stand-in (a random legal action); plug a trained model in its place.

    python examples/gym_single_agent.py [episodes]
"""

import sys

import numpy as np

from agents import EfficiencyAgent
from riichi_env.integrations.gym import RiichiGymEnv


def main(episodes: int = 2) -> None:
    env = RiichiGymEnv(
        opponents=[EfficiencyAgent() for _ in range(3)],
        seat="random",
        reward="placement",
        game_length="tonpuusen",
    )
    rng = np.random.default_rng(0)
    for ep in range(episodes):
        obs, info = env.reset(seed=ep)
        total, steps, done = 0.0, 0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
            total += reward
            steps += 1
        print(
            f"episode {ep}: seat {env.seat}, {steps} decisions, final score {total:+.1f}, "
            f"all scores {info['final_scores']}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
