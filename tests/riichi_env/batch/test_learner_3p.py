"""The single-learner vector env with three players (issue 26): the learner's games are
three-player self-play's games, seats 0-2, rewards, 86-entry masks, expert actions."""

import numpy as np
import pytest

from engine.actions import KITA
from riichi_env import learner_vector_env, selfplay
from riichi_env.batch.learner import learner_seat_of


def first_legal(obs, mask, seat):
    return mask.argmax(axis=1)


def play_out(venv, games, seed):
    obs, info = venv.reset(seed=seed)
    done, rewards = {}, {}
    while len(done) < games:
        assert obs["action_mask"].shape[1] == 86 and (info["seat"] < 3).all()
        actions = first_legal(obs["observation"], obs["action_mask"], info["seat"])
        game_seeds = info["game_seed"].copy()
        obs, reward, term, trunc, info = venv.step(actions)
        assert reward.shape == (venv.num_envs,)
        for t in range(venv.num_envs):
            g = int(game_seeds[t])
            rewards[g] = rewards.get(g, 0.0) + float(reward[t])
        for t in np.flatnonzero(term):
            fi = info["final_info"]
            assert info["final_obs"][t]["action_mask"].shape == (86,)
            done[int(fi["game_seed"][t])] = (
                int(fi["seat"][t]),
                int(fi["rank"][t]),
                int(fi["points"][t]),
            )
    return done, rewards


@pytest.mark.parametrize("opponents", ["random", "efficiency", ["greedy", "simple"]])
def test_the_learner_plays_selfplays_games(opponents):
    venv = learner_vector_env(
        num_tables=3, opponents=opponents, learner_seat=1, rules="mahjongsoul-3p"
    )
    assert venv.single_action_space.n == 86
    assert venv.single_observation_space["observation"].shape == (125, 34)
    done, _ = play_out(venv, 5, seed=20)
    opp = opponents if isinstance(opponents, list) else [opponents] * 2
    ref = selfplay([opp[1], first_legal, opp[0]], games=5, seed=20, rules="mahjongsoul-3p")
    for r in ref["results"]:
        if r["seed"] in done:
            seat, rank, points = done[r["seed"]]
            assert seat == 1
            assert (rank, points) == (r["ranks"][1], r["points"][1])
    assert len(done) >= 5


def test_random_seats_and_rewards():
    venv = learner_vector_env(
        num_tables=4, opponents="random", rules="tenhou-3p", reward="hand", reward_scale=1.0
    )
    done, rewards = play_out(venv, 8, seed=3)
    seats = {g: s for g, (s, _, _) in done.items()}
    assert all(seats[g] == learner_seat_of(g, 3) for g in seats)
    assert set(seats.values()) <= {0, 1, 2} and len(set(seats.values())) > 1
    for g, (_s, _rank, points) in done.items():
        assert rewards[g] == pytest.approx(points - 35000)
    assert {learner_seat_of(g, 3) for g in range(200)} == {0, 1, 2}


def test_expert_actions_and_bad_arguments():
    venv = learner_vector_env(num_tables=3, opponents="efficiency", rules="mahjongsoul-3p")
    obs, _ = venv.reset(seed=5)
    for _ in range(30):
        a = venv.expert_actions("efficiency")
        assert obs["action_mask"][np.arange(3), a].all()
        obs, *_ = venv.step(a)
    with pytest.raises(ValueError, match="a list of two"):
        learner_vector_env(num_tables=1, opponents=["random"] * 3, rules="tenhou-3p")
    with pytest.raises(ValueError, match="learner_seat"):
        learner_vector_env(num_tables=1, learner_seat=3, rules="tenhou-3p")
    with pytest.raises(ValueError, match="'basic_v0' is for four-player rules"):
        learner_vector_env(num_tables=1, encoder="basic_v0", rules="tenhou-3p")
    assert KITA == 85
