"""Random masked actions through the wrapped env: 200 hanchan per rules preset, no error."""

import numpy as np
import pytest

from riichi_env.aec.raw_env import env


@pytest.mark.parametrize("preset", ["mahjongsoul", "tenhou"])
def test_200_hanchan_of_random_masked_actions(preset):
    e = env(rules=preset)
    rng = np.random.default_rng(0)
    decisions = 0
    for game in range(200):
        e.reset(seed=1000 * game + 7)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size > 0, f"{agent} has no legal action"
            e.step(int(legal[int(rng.random() * legal.size)]))
            decisions += 1
        assert not e.agents
        assert sorted(e.unwrapped.state_arrays.final_ranks[0]) == [0, 1, 2, 3]
    assert decisions > 200 * 100
