"""Custom rules: the Tenhou preset, East-only, no red fives, open riichi, rank-point rewards.

Prints the ansi table at the first decision of each hand, from the seat to act.

    python examples/custom_rules.py
"""

import numpy as np

from riichi_env import raw_env


def main() -> None:
    env = raw_env(
        rules="tenhou",
        game_length="tonpuusen",
        red_fives=(0, 0, 0),
        open_riichi=True,
        reward="rank",
        rank_points=(1.0, 0.5, -0.5, -1.0),
        render_mode="ansi",
    )
    print(env.rules)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    hand = -1
    st = env.state_arrays
    while not all(env.terminations.values()):
        if int(st.hand_index[0]) != hand:
            hand = int(st.hand_index[0])
            print(env.render(), end="\n\n")
        legal = np.flatnonzero(env.action_mask())
        env.step(int(rng.choice(legal)))
    print({agent: env.rewards[agent] for agent in env.possible_agents})
    print({agent: env.infos[agent] for agent in env.possible_agents})


if __name__ == "__main__":
    main()
