"""Random legal play through the PettingZoo AEC API: one hanchan, then the final scores.

python examples/random_play.py [seed]
"""

import sys

import numpy as np

import riichi_env


def main(seed: int = 0) -> None:
    env = riichi_env.env(seed=seed)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(rng.choice(legal))
            decisions += 1
        env.step(action)
    print(f"{decisions} decisions")
    for agent, ret in returns.items():
        print(f"{agent}: return {ret:+.1f} (thousands of points)")
    print("final scores:", env.unwrapped.final_scores())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
