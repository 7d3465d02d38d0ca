"""The SB3 adapter: a VecEnv MaskablePPO trains on, masks per table, episode infos; three players
(issue 26: 86-entry masks, a checkpoint of a three-seat encoder plays three-player self-play)."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402

from riichi_env import selfplay  # noqa: E402
from riichi_env.integrations.sb3 import MaskablePPOAgent, RiichiSB3VecEnv, encoder_of  # noqa: E402


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


def test_tile_conv_network_trains_saves_and_plays_with_its_encoder(tmp_path):
    """The 1D CNN over tile kinds: logits for masked actions, a checkpoint that knows its encoder."""
    import torch

    from riichi_env import selfplay
    from riichi_env.integrations.sb3 import MaskablePPOAgent, TileConvExtractor, encoder_of

    venv = RiichiSB3VecEnv(4, opponents="simple", seed=1, encoder="rich_v0")
    assert venv.observation_space.shape == (163, 34)
    extractor = TileConvExtractor(venv.observation_space, channels=8, hidden=16)
    features = extractor(torch.zeros((3, 163, 34)))
    assert features.shape == (3, 4 * 34 + 16) == (3, extractor.features_dim)
    kwargs = {
        "features_extractor_class": TileConvExtractor,
        "features_extractor_kwargs": {"channels": 8, "hidden": 16},
        "net_arch": {"pi": [], "vf": [16]},
    }
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=16, batch_size=32, n_epochs=1, seed=0, policy_kwargs=kwargs
    )
    model.learn(64)
    model.save(tmp_path / "conv.zip")
    agent = MaskablePPOAgent(tmp_path / "conv.zip")
    assert agent.encoder == "rich_v0" == encoder_of(venv.observation_space)
    out = selfplay([agent, "random", "random", "random"], games=2, seed=3)
    assert len(out["results"]) == 2  # selfplay observed with rich_v0 (163 rows) for it
    with pytest.raises(ValueError, match="reads encoder 'rich_v0' observations"):
        selfplay([agent, "random", "random", "random"], games=1, encoder="basic_v0")
    with pytest.raises(ValueError, match="no encoder's"):
        encoder_of(type("S", (), {"shape": (100, 34)})(), "checkpoint x")


def test_expert_actions_through_the_adapter():
    venv = RiichiSB3VecEnv(3, opponents="random", learner_seat=0, seed=2)
    venv.reset()
    actions = venv.expert_actions("efficiency")
    assert actions.shape == (3,) and get_action_masks(venv)[np.arange(3), actions].all()


def test_shared_training_helpers(tmp_path):
    """maskable_ppo / masked_logits / freeze_policy / evaluate_in_arena, as the examples use them."""
    import torch

    from riichi_env.integrations.sb3 import (
        MASKED_LOGIT,
        evaluate_in_arena,
        freeze_policy,
        maskable_ppo,
        masked_logits,
        policy_kwargs,
    )

    venv = RiichiSB3VecEnv(2, opponents="random", seed=4, encoder="basic_v0")
    model = maskable_ppo(venv, net="conv", cloned=True, n_steps=8, batch_size=16)
    assert model.learning_rate == 1e-4 and model.ent_coef == 0.0
    assert maskable_ppo(venv, net="mlp", lr=5e-4).learning_rate == 5e-4
    with pytest.raises(ValueError, match="net must be one of"):
        policy_kwargs("resnet")
    with pytest.raises(ValueError, match="lr must be a positive number"):
        maskable_ppo(venv, lr=0)

    obs = torch.as_tensor(venv.reset())
    masks = get_action_masks(venv)
    logits = masked_logits(model.policy, obs, masks)
    assert logits.shape == (2, 85)
    assert (logits[torch.as_tensor(~masks)] == MASKED_LOGIT).all()
    assert (logits[torch.as_tensor(masks)] > MASKED_LOGIT).all()
    dist = model.policy.get_distribution(obs, action_masks=masks)
    torch.testing.assert_close(
        torch.log_softmax(logits, 1), torch.log_softmax(dist.distribution.logits, 1)
    )
    with pytest.raises(ValueError, match="masks must have shape"):
        masked_logits(model.policy, obs, masks[:, :10])
    with pytest.raises(ValueError, match="obs must have shape"):
        masked_logits(model.policy, obs[:, :5], masks)
    with pytest.raises(TypeError, match="float torch.Tensor"):
        masked_logits(model.policy, venv.reset(), masks)

    freeze_policy(model, True)
    assert not any(p.requires_grad for p in model.policy.action_net.parameters())
    assert all(p.requires_grad for p in model.policy.value_net.parameters())
    freeze_policy(model, False)
    assert all(p.requires_grad for p in model.policy.parameters())

    row = evaluate_in_arena(model, "random", 4, seed=1, name="clone")
    assert row["name"] == "clone" and row["games"] == 4 and 1 <= row["avg_rank"] <= 4
    with pytest.raises(ValueError, match="games must be a positive int"):
        evaluate_in_arena(model, "random", 0)


# Three players (issue 26)


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
