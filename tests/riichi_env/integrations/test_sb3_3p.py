"""The SB3 adapter with three players (issue 26): 86-entry masks, a checkpoint of a three-seat
encoder plays three-player self-play."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402

from riichi_env import selfplay  # noqa: E402
from riichi_env.integrations.sb3 import MaskablePPOAgent, RiichiSB3VecEnv, encoder_of  # noqa: E402


def test_maskable_ppo_on_three_players(tmp_path):
    venv = RiichiSB3VecEnv(4, opponents="random", seed=1, rules="tenhou-3p", encoder="rich3_v0")
    assert venv.observation_space.shape == (131, 34) and venv.action_space.n == 86
    obs = venv.reset()
    masks = get_action_masks(venv)
    assert obs.shape == (4, 131, 34) and masks.shape == (4, 86)
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    model.save(tmp_path / "sanma.zip")
    agent = MaskablePPOAgent(tmp_path / "sanma.zip")
    assert agent.encoder == "rich3_v0" == encoder_of(venv.observation_space)
    out = selfplay([agent, "random", "random"], games=1, seed=3, rules="tenhou-3p")
    assert len(out["results"][0]["points"]) == 3
    action, _ = model.predict(venv.reset(), action_masks=get_action_masks(venv))
    assert all(get_action_masks(venv)[i, a] for i, a in enumerate(np.asarray(action)))
