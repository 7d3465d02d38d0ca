"""The Gymnasium single-agent wrapper and the RLlib adapter with three players (issue 26)."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents.random_agent import RandomAgent
from riichi_env import raw_env
from riichi_env.integrations.gym import RiichiGymEnv


def test_gym_check_env_with_three_players():
    check_env(RiichiGymEnv(rules="mahjongsoul-3p", game_length="tonpuusen"))
    env = RiichiGymEnv(opponents=[RandomAgent(1), RandomAgent(2)], seat="random", rules="tenhou-3p")
    check_env(env)
    assert env.action_space.n == 86 and env.players == 3


def test_gym_episode_reward_is_the_learner_point_change():
    env = RiichiGymEnv(
        seat=2, reward="hand", reward_scale=1.0, game_length="tonpuusen", rules="tenhou-3p"
    )
    obs, info = env.reset(seed=3)
    total = info["reward_before_first_decision"]
    agent = RandomAgent(0)
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        obs, reward, done, truncated, info = env.step(agent.act(None, env.action_masks()))
        total += reward
    assert total == env.aec.points()[2] - env.aec.rules.start_points
    assert len(info["final_scores"]) == 3
    seats = set()
    for seed in range(12):
        e = RiichiGymEnv(seat="random", rules="mahjongsoul-3p")
        seats.add(e.reset(seed=seed)[1]["seat"])
    assert seats == {0, 1, 2}


def test_gym_bad_seats_and_opponents():
    with pytest.raises(ValueError, match="seat must be 0-2"):
        RiichiGymEnv(seat=3, rules="tenhou-3p")
    with pytest.raises(ValueError, match="opponents must be two policies"):
        RiichiGymEnv(opponents=[RandomAgent()] * 3, rules="tenhou-3p")
    with pytest.raises(ValueError, match="opponents must be three policies"):
        RiichiGymEnv(opponents=[RandomAgent()] * 2)


def test_rllib_three_players():
    pytest.importorskip("ray.rllib")
    from riichi_env.integrations.rllib import RiichiMultiAgentEnv

    menv = RiichiMultiAgentEnv({"rules": "mahjongsoul-3p", "reward": "hand"})
    assert menv.possible_agents == ["player_0", "player_1", "player_2"]
    assert menv.get_action_space("player_1").n == 86
    assert menv.get_observation_space("player_1")["observations"].shape == (125 * 34,)
    aec = raw_env(rules="mahjongsoul-3p", reward="hand")
    rng = np.random.default_rng(0)
    obs, _ = menv.reset(seed=9)
    aec.reset(seed=9)
    while True:
        (agent,) = obs
        assert agent == aec.agent_selection
        mask = obs[agent]["action_mask"]
        np.testing.assert_array_equal(mask, aec.observe(agent)["action_mask"])
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, rewards, terms, _, infos = menv.step({agent: action})
        aec.step(action)
        assert set(rewards) == set(menv.possible_agents)
        if terms["__all__"]:
            break
    assert {a: infos[a]["rank"] for a in infos} == {a: aec.infos[a]["rank"] for a in aec.infos}
