"""The single-learner vector env: the learner's games are selfplay's games, seats, rewards, errors;
four and three players (issue 26: seats 0-2, 86-entry masks)."""

import numpy as np
import pytest

import riichi_env.batch.tables
from engine.actions import KITA
from riichi_env import learner_vector_env, selfplay
from riichi_env.batch.learner import learner_seat_of

# per player count: the width of the action mask
ACTIONS = {4: 85, 3: 86}


def first_legal(obs, mask, seat):
    """A deterministic learner (a function of its inputs): the lowest legal action."""
    return mask.argmax(axis=1)


def play_out(venv, games, seed, players=4):
    """Step the learner with ``first_legal`` until ``games`` games ended; their final infos."""
    obs, info = venv.reset(seed=seed)
    done = {}
    rewards = {}
    while len(done) < games:
        seats = info["seat"]
        assert (obs["action_mask"].sum(axis=1) > 0).all()
        assert obs["action_mask"].shape[1] == ACTIONS[players] and (seats < players).all()
        actions = first_legal(obs["observation"], obs["action_mask"], seats)
        game_seeds = info["game_seed"].copy()
        obs, reward, term, trunc, info = venv.step(actions)
        assert not trunc.any()
        assert reward.shape == (venv.num_envs,)
        for t in range(venv.num_envs):
            g = int(game_seeds[t])
            rewards[g] = rewards.get(g, 0.0) + float(reward[t])
        for t in np.flatnonzero(term):
            fi = info["final_info"]
            g = int(fi["game_seed"][t])
            assert info["_final_obs"][t] and info["final_obs"][t]["observation"].shape[1] == 34
            assert info["final_obs"][t]["action_mask"].shape == (ACTIONS[players],)
            done[g] = (int(fi["seat"][t]), int(fi["rank"][t]), int(fi["points"][t]))
    return done, rewards


# per player count: the rules (four players: the default), the games played, the observation's shape
LEARNER_GAMES = {
    4: ({}, 6, (157, 34)),
    3: ({"rules": "mahjongsoul-3p"}, 5, (125, 34)),
}


@pytest.mark.parametrize(
    ("players", "opponents"),
    [
        (4, "random"),
        (4, "efficiency"),
        (4, ["simple", "random", "greedy"]),
        (3, "random"),
        (3, "efficiency"),
        (3, ["greedy", "simple"]),
    ],
)
def test_the_learner_plays_selfplays_games(players, opponents):
    """A fixed learner seat: each game equals selfplay with the learner's policy in that seat."""
    rules, games, shape = LEARNER_GAMES[players]
    venv = learner_vector_env(num_tables=3, opponents=opponents, learner_seat=1, **rules)
    assert venv.single_action_space.n == ACTIONS[players]
    assert venv.single_observation_space["observation"].shape == shape
    done, _ = play_out(venv, games, seed=20, players=players)
    opp = opponents if isinstance(opponents, list) else [opponents] * (players - 1)
    # the opponents sit after the learner (seat 1): seats 2, 3 (four players) then seat 0
    ref = selfplay([opp[-1], first_legal, *opp[:-1]], games=games, seed=20, **rules)
    for r in ref["results"]:
        if r["seed"] in done:
            seat, rank, points = done[r["seed"]]
            assert seat == 1
            assert (rank, points) == (r["ranks"][1], r["points"][1])
    assert len(done) >= games


def test_random_seats_are_drawn_per_game_and_reproducible():
    venv = learner_vector_env(num_tables=4, opponents="random", learner_seat="random")
    done, _ = play_out(venv, 8, seed=3)
    seats = {g: s for g, (s, _, _) in done.items()}
    assert all(seats[g] == learner_seat_of(g) for g in seats)
    assert len(set(seats.values())) > 1
    for g, (s, rank, points) in list(done.items())[:4]:
        policy = ["random"] * 4
        policy[s] = first_legal
        r = selfplay(policy, games=1, seed=g)["results"][0]
        assert (rank, points) == (r["ranks"][s], r["points"][s])
    again, _ = play_out(learner_vector_env(num_tables=4, opponents="random"), 8, seed=3)
    assert {g: again[g] for g in done if g in again} == {g: done[g] for g in done if g in again}


def test_python_opponents_a_frozen_learner():
    """Opponents given as a batched Python policy play as in selfplay."""
    venv = learner_vector_env(num_tables=2, opponents=first_legal, learner_seat=0)
    done, _ = play_out(venv, 3, seed=7)
    ref = selfplay(first_legal, games=3, seed=7)
    for r in ref["results"]:
        if r["seed"] in done:
            assert done[r["seed"]][1:] == (r["ranks"][0], r["points"][0])


def test_hand_rewards_add_up_to_the_learners_point_change():
    venv = learner_vector_env(num_tables=2, opponents="efficiency", learner_seat=2)
    done, rewards = play_out(venv, 2, seed=11)
    for g, (_, _, points) in done.items():
        # hand deltas / 1000; a riichi stick left on the table at the end is not a hand delta
        assert abs(rewards[g] - (points - 25000) / 1000) <= 1.0 + 1e-6


def test_bad_arguments_and_actions():
    with pytest.raises(ValueError, match="three"):
        learner_vector_env(2, opponents=["random", "random"])
    with pytest.raises(ValueError, match="unknown compiled policy"):
        learner_vector_env(2, opponents="nope")
    with pytest.raises(ValueError, match="learner_seat"):
        learner_vector_env(2, learner_seat=4)
    venv = learner_vector_env(2, opponents="random", learner_seat=0)
    with pytest.raises(Exception, match="reset"):
        venv.step(np.zeros(2, dtype=np.int64))
    obs, _ = venv.reset(seed=0)
    assert venv.action_masks().shape == (2, 85) and venv.action_masks().dtype == np.bool_
    illegal = np.array([80, 80])  # pass, on the learner's own turn
    with pytest.raises(ValueError, match="illegal"):
        venv.step(illegal)


@pytest.mark.parametrize("teacher", ["efficiency", "simple"])
def test_expert_actions_are_the_compiled_agents_moves(teacher):
    """Playing ``expert_actions(p)`` in the learner seat plays the game ``p`` plays there."""
    venv = learner_vector_env(num_tables=3, opponents="random", learner_seat=2)
    obs, info = venv.reset(seed=40)
    done = {}
    while len(done) < 3:
        actions = venv.expert_actions(teacher)
        assert obs["action_mask"][np.arange(3), actions].all()  # legal moves only
        obs, _, term, _, info = venv.step(actions)
        for t in np.flatnonzero(term):
            fi = info["final_info"]
            done[int(fi["game_seed"][t])] = (int(fi["rank"][t]), int(fi["points"][t]))
    ref = selfplay(["random", "random", teacher, "random"], games=3, seed=40)
    for r in ref["results"]:
        assert done[r["seed"]] == (r["ranks"][2], r["points"][2])


def test_expert_actions_leave_the_tables_random_streams_alone():
    """Asking a random teacher draws from the env's own stream: the games are unchanged."""
    plain = learner_vector_env(num_tables=2, opponents="random", learner_seat=0)
    asked = learner_vector_env(num_tables=2, opponents="random", learner_seat=0)
    again = learner_vector_env(num_tables=2, opponents="random", learner_seat=0)
    a, _ = plain.reset(seed=9)
    b, _ = asked.reset(seed=9)
    again.reset(seed=9)
    for _ in range(200):
        teacher = asked.expert_actions("random")
        assert b["action_mask"][np.arange(2), teacher].all()
        assert np.array_equal(teacher, again.expert_actions("random"))  # seeded by reset
        actions = first_legal(a["observation"], a["action_mask"], None)
        a, *_ = plain.step(actions)
        b, *_ = asked.step(actions)
        again.step(actions)
        assert np.array_equal(a["observation"], b["observation"])


def test_expert_actions_errors():
    venv = learner_vector_env(2, opponents="random", learner_seat=0)
    with pytest.raises(Exception, match="reset"):
        venv.expert_actions()
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="expert policy must be a compiled policy"):
        venv.expert_actions("nope")
    with pytest.raises(ValueError, match="expert policy"):
        venv.expert_actions(first_legal)


def test_gymnasium_reward_wrappers_work_on_the_learner_env():
    """The single-learner form is the one for Gymnasium's vector wrappers (README)."""
    from gymnasium.wrappers.vector import NormalizeReward, RecordEpisodeStatistics

    stats = RecordEpisodeStatistics(learner_vector_env(4, opponents="random", seed=0))
    venv = NormalizeReward(stats)
    obs, _ = venv.reset(seed=3)
    raw = learner_vector_env(4, opponents="random", seed=0)
    raw_obs, _ = raw.reset(seed=3)
    returns = np.zeros(4)
    episodes = []
    for _ in range(5000):
        actions = obs["action_mask"].argmax(axis=1)
        assert np.array_equal(actions, raw_obs["action_mask"].argmax(axis=1))
        obs, reward, term, trunc, info = venv.step(actions)
        raw_obs, raw_reward, *_ = raw.step(actions)
        assert reward.shape == (4,) and np.isfinite(reward).all()
        returns += raw_reward
        if term.any():
            done = info["_episode"]
            assert np.array_equal(done, term)
            np.testing.assert_allclose(info["episode"]["r"][done], returns[done], rtol=1e-5)
            episodes += list(info["episode"]["l"][done])
            returns[term] = 0.0
        if len(episodes) >= 3:
            break
    assert len(episodes) >= 3 and min(episodes) > 10
    assert len(stats.return_queue) == len(episodes)


def test_random_seats_and_rewards():
    """Three players: the learner's seat drawn per game among 0-2, hand rewards of 1 per point."""
    venv = learner_vector_env(
        num_tables=4, opponents="random", rules="tenhou-3p", reward="hand", reward_scale=1.0
    )
    done, rewards = play_out(venv, 8, seed=3, players=3)
    seats = {g: s for g, (s, _, _) in done.items()}
    assert all(seats[g] == learner_seat_of(g, 3) for g in seats)
    assert set(seats.values()) <= {0, 1, 2} and len(set(seats.values())) > 1
    for g, (_s, _rank, points) in done.items():
        assert rewards[g] == pytest.approx(points - 35000)
    assert {learner_seat_of(g, 3) for g in range(200)} == {0, 1, 2}


def test_expert_actions_and_bad_arguments():
    """Three players: expert actions legal; two opponents, seats 0-2, a three-seat encoder."""
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


@pytest.mark.parametrize("opponents", ["efficiency", "random"])
def test_threads_give_the_learner_the_same_run(opponents, monkeypatch):
    """``threads=2`` plays the tables in two compiled calls at once: the learner sees exactly
    the one-thread run (observations, masks, rewards, terminations, infos)."""

    def run(threads):
        venv = learner_vector_env(num_tables=40, opponents=opponents, threads=threads, seed=3)
        obs, info = venv.reset(seed=9)
        rng = np.random.default_rng(2)
        out, ended = [], 0
        for _ in range(600):
            a = (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)
            obs, r, t, _, info = venv.step(a)
            out += [obs["observation"].tobytes(), obs["action_mask"].tobytes(), r.tobytes()]
            out += [t.tobytes(), info["seat"].tobytes(), info["game_seed"].tobytes()]
            ended += int(t.sum())
        assert (venv._batch._pool is not None) == (threads > 1)  # the run was split
        venv.close()
        return out, ended

    monkeypatch.setattr(riichi_env.batch.tables, "MIN_SHARE", 16)  # 40 tables: two calls
    one, ended = run(1)
    assert ended > 0
    assert run(2) == (one, ended)
