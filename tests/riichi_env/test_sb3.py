"""The SB3 adapter: a VecEnv MaskablePPO trains on, masks per table, episode infos."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402

from riichi_env.sb3 import RiichiSB3VecEnv  # noqa: E402


def test_masks_dones_and_infos():
    venv = RiichiSB3VecEnv(4, opponents="random", seed=5)
    assert is_masking_supported(venv)
    obs = venv.reset()
    assert obs.shape == (4, *venv.observation_space.shape)
    finished = []
    for _ in range(3000):
        masks = get_action_masks(venv)
        assert masks.shape == (4, 85) and masks.any(axis=1).all()
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        assert rewards.shape == (4,) and rewards.dtype == np.float32
        for i in np.flatnonzero(dones):
            info = infos[i]
            assert info["terminal_observation"].shape == venv.observation_space.shape
            assert 0 <= info["rank"] <= 3 and 0 <= info["seat"] <= 3
            assert info["episode"]["l"] > 0
            finished.append(info)
        if len(finished) >= 4:
            break
    assert len(finished) >= 4


def test_maskable_ppo_learns_a_few_steps():
    venv = RiichiSB3VecEnv(8, opponents="efficiency", seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    obs = venv.reset()
    action, _ = model.predict(obs, action_masks=get_action_masks(venv), deterministic=True)
    masks = get_action_masks(venv)
    assert all(masks[i, a] for i, a in enumerate(action))  # masked actions only
