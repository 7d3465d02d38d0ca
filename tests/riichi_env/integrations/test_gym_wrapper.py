"""The Gymnasium single-agent wrapper: env_checker and whole episodes against given policies; four
and three players (issue 26)."""

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


# per player count: the rules of the episode, the rules of the random seats (four players: the
# default rules)
EPISODE_RULES = {
    4: ({}, {}),
    3: ({"rules": "tenhou-3p"}, {"rules": "mahjongsoul-3p"}),
}


@pytest.mark.parametrize("players", [4, 3])
def test_episode_reward_is_the_learner_point_change(players):
    rules, seat_rules = EPISODE_RULES[players]
    env = RiichiGymEnv(seat=2, reward="hand", reward_scale=1.0, game_length="tonpuusen", **rules)
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
    assert len(info["final_scores"]) == players
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    seats = set()
    for seed in range(12):
        e = RiichiGymEnv(seat="random", **seat_rules)
        seats.add(e.reset(seed=seed)[1]["seat"])
    assert seats == set(range(players))


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


def test_gym_check_env_with_three_players():
    check_env(RiichiGymEnv(rules="mahjongsoul-3p", game_length="tonpuusen"))
    env = RiichiGymEnv(opponents=[RandomAgent(1), RandomAgent(2)], seat="random", rules="tenhou-3p")
    check_env(env)
    assert env.action_space.n == 86 and env.players == 3


def test_gym_bad_seats_and_opponents():
    with pytest.raises(ValueError, match="seat must be 0-2"):
        RiichiGymEnv(seat=3, rules="tenhou-3p")
    with pytest.raises(ValueError, match="opponents must be two policies"):
        RiichiGymEnv(opponents=[RandomAgent()] * 3, rules="tenhou-3p")
    with pytest.raises(ValueError, match="opponents must be three policies"):
        RiichiGymEnv(opponents=[RandomAgent()] * 2)
