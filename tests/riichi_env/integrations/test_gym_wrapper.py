"""The Gymnasium single-agent wrapper: env_checker and whole episodes against given policies."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents.efficiency_agent import EfficiencyAgent
from agents.random_agent import RandomAgent
from riichi_env.integrations.gym import RiichiGymEnv


def test_check_env_passes():
    check_env(RiichiGymEnv(game_length="tonpuusen"), skip_render_check=False)


def test_check_env_passes_with_a_random_seat_and_efficiency_opponents():
    env = RiichiGymEnv(opponents=[EfficiencyAgent() for _ in range(3)], seat="random")
    check_env(env)


def test_episode_reward_is_the_learner_point_change():
    env = RiichiGymEnv(seat=2, reward="hand", reward_scale=1.0, game_length="tonpuusen")
    obs, info = env.reset(seed=3)
    total = info["reward_before_first_decision"]
    agent = RandomAgent(0)
    done = False
    steps = 0
    while not done:
        assert env.observation_space.contains(obs)
        obs, reward, done, truncated, info = env.step(agent.act(None, env.action_masks()))
        total += reward
        steps += 1
    assert not truncated
    start = env.aec.rules.start_points
    assert total == env.aec.points()[2] - start
    assert len(info["final_scores"]) == 4
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_action_penalty_and_raise():
    env = RiichiGymEnv(illegal_reward=-5.0)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-5.0, True, True)
    strict = RiichiGymEnv(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(illegal)


def test_ansi_render_from_the_learner_seat():
    env = RiichiGymEnv(seat=1, render_mode="ansi")
    env.reset(seed=0)
    assert "hand of seat 1" in env.render()


def test_registered_with_gymnasium():
    import gymnasium

    env = gymnasium.make("riichi_env/Riichi-v0", seat=3, game_length="tonpuusen")
    obs, info = env.reset(seed=0)
    assert info["seat"] == 3
    assert env.observation_space.contains(obs)
    check_env(env.unwrapped)
