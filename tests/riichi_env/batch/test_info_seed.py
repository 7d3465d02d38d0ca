"""``info_seed=False``: the vector env and the learner view leave the game seed (which determines
every wall) out of ``info`` and ``final_info`` for a fair evaluation, and play the same games."""

from __future__ import annotations

import numpy as np
import pytest

import riichi_env


def _play(venv, seed: int):
    """Random legal play until some table's game ends: every info and the rewards."""
    rng = np.random.default_rng(seed)
    obs, info = venv.reset(seed=seed)
    infos, rewards = [info], []
    for _ in range(20_000):
        mask = obs["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, reward, terms, _, info = venv.step(actions)
        infos.append(info)
        rewards.append(reward)
        if terms.any():
            return infos, np.array(rewards)
    raise AssertionError("no game ended")


@pytest.mark.parametrize("kind", ["vector", "learner"])
def test_info_seed_false_leaves_the_seed_out(kind):
    def make(**kw):
        if kind == "vector":
            return riichi_env.vector_env(num_tables=3, skip_forced=True, **kw)
        return riichi_env.learner_vector_env(num_tables=3, opponents="random", **kw)

    shown, shown_rewards = _play(make(), 11)
    hidden, hidden_rewards = _play(make(info_seed=False), 11)
    assert len(shown) == len(hidden)
    np.testing.assert_array_equal(shown_rewards, hidden_rewards)  # the same games
    assert all("game_seed" in i for i in shown)
    assert shown[0]["game_seed"].tolist() == [11, 12, 13]
    assert not any("game_seed" in i for i in hidden)
    assert "game_seed" in shown[-1]["final_info"]
    assert "game_seed" not in hidden[-1]["final_info"]
    assert set(hidden[-1]["final_info"]) == set(shown[-1]["final_info"]) - {"game_seed"}
    for a, b in zip(shown, hidden, strict=True):
        np.testing.assert_array_equal(a["seat"], b["seat"])
    with pytest.raises(TypeError, match="info_seed must be True or False, got"):
        make(info_seed=0)
