"""The vector env with three players (issue 26): each table is the three-player AEC game,
86-entry masks, rewards and final info over three seats, bytes of the three-seat encoders."""

import numpy as np
import pytest

import riichi_env
from engine.actions import KITA
from riichi_env.core.encoders import bounds


def _random_actions(rng, mask):
    a = (rng.random(mask.shape) * mask).argmax(axis=1)
    kita = mask[:, KITA] == 1
    take = kita & (rng.random(mask.shape[0]) < 0.7)  # kita more often than uniform play would
    a[take] = KITA
    return a


def _aec_trace(seed, actions_by_step, encoder, reward, skip_forced, rules):
    env = riichi_env.raw_env(
        rules=rules, encoder=encoder, reward=reward, skip_forced=skip_forced, rank_points=(2, 0, -2)
    )
    env.reset(seed=seed)
    trace = []
    for a in actions_by_step:
        agent = env.agent_selection
        obs = env.observe(agent)
        trace.append((obs["observation"], obs["action_mask"], env.possible_agents.index(agent)))
        env.step(int(a))
        trace[-1] += (np.array([env.rewards[x] for x in env.possible_agents], np.float32),)
        trace[-1] += (all(env.terminations.values()),)
        if all(env.terminations.values()):
            break
    return trace


@pytest.mark.parametrize(
    ("rules", "encoder", "reward", "skip_forced"),
    [
        ("mahjongsoul-3p", "basic3_v0", "hand", False),
        ("tenhou-3p", "rich3_v0", "placement", True),
        ("mahjongsoul-3p", "oracle3_v0", "rank", False),
    ],
)
def test_each_table_plays_the_aec_game(rules, encoder, reward, skip_forced):
    n = 3
    venv = riichi_env.vector_env(
        num_tables=n,
        rules=rules,
        encoder=encoder,
        reward=reward,
        skip_forced=skip_forced,
        rank_points=(2, 0, -2),
        seed=1,
    )
    obs, info = venv.reset(seed=100)
    rng = np.random.default_rng(5)
    steps = {i: [] for i in range(n)}
    seeds = info["game_seed"].copy()
    for _ in range(4000):
        actions = _random_actions(rng, obs["action_mask"])
        before = (obs["observation"].copy(), obs["action_mask"].copy(), info["seat"].copy())
        assert (info["seat"] < 3).all()
        obs, rewards, terms, truncs, info = venv.step(actions)
        assert rewards.shape == (n, 3)
        for i in range(n):
            if seeds[i] == 100 + i:
                steps[i].append(
                    (before[0][i], before[1][i], before[2][i], actions[i], rewards[i], terms[i])
                )
        if terms.any():
            fi = info["final_info"]
            for key in ("points", "final_score", "rank"):
                assert fi[key].shape == (n, 3)
            for i in np.flatnonzero(terms):
                assert sorted(fi["rank"][i]) == [0, 1, 2]
                assert fi["final_score"][i].sum() == pytest.approx(0.0, abs=1e-9)
                assert info["final_obs"][i]["action_mask"].shape == (86,)
            seeds = info["game_seed"].copy()
        if (seeds >= 100 + n).all():
            break
    for i in range(n):
        trace = _aec_trace(100 + i, [s[3] for s in steps[i]], encoder, reward, skip_forced, rules)
        assert len(trace) == len(steps[i])
        assert steps[i][-1][5] and trace[-1][4]
        for (o, m, seat, _a, r, term), (o2, m2, seat2, r2, term2) in zip(
            steps[i], trace, strict=True
        ):
            np.testing.assert_array_equal(o, o2)
            np.testing.assert_array_equal(m, m2)
            assert seat == seat2
            np.testing.assert_allclose(r, r2, rtol=0, atol=1e-6)
            assert term == term2


def test_spaces_masks_and_kita():
    venv = riichi_env.vector_env(num_tables=4, rules="tenhou-3p")
    assert venv.players == 3 and venv.encoder == "basic3_v0"
    assert venv.observation_space["observation"].shape == (4, 125, 34)
    assert venv.observation_space["action_mask"].shape == (4, 86)
    assert venv.single_action_space.n == 86
    assert venv.rank_points == (1.0, 0.0, -1.0)
    obs, info = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    kitas = 0
    for _ in range(600):
        a = _random_actions(rng, obs["action_mask"])
        kitas += int((a == KITA).sum())
        obs, *_ = venv.step(a)
    assert kitas > 0


def test_uint8_observations_of_a_three_seat_encoder():
    f = riichi_env.vector_env(num_tables=3, rules="mahjongsoul-3p", encoder="rich3_v0")
    q = riichi_env.vector_env(
        num_tables=3, rules="mahjongsoul-3p", encoder="rich3_v0", obs_dtype=np.uint8
    )
    of, _ = f.reset(seed=2)
    oq, _ = q.reset(seed=2)
    rng = np.random.default_rng(3)
    low, high = bounds("rich3_v0")
    for _ in range(300):
        x = of["observation"]
        expect = np.clip(np.rint((x - low) / (high - low) * 255), 0, 255).astype(np.uint8)
        assert np.abs(oq["observation"].astype(int) - expect.astype(int)).max() <= 1
        back = q.dequantize(oq["observation"])
        assert np.abs(back - x).max() <= (high - low).max() / 255 + 1e-6
        a = _random_actions(rng, of["action_mask"])
        of, *_ = f.step(a)
        oq, *_ = q.step(a)


def test_bad_actions_and_options():
    venv = riichi_env.vector_env(num_tables=2, rules="mahjongsoul-3p")
    obs, _ = venv.reset(seed=1)
    with pytest.raises(ValueError, match=r"action 86 is outside 0\.\.85"):
        venv.step(np.array([86, 0]))
    bad = obs["action_mask"].argmin(axis=1)
    with pytest.raises(ValueError, match="illegal action"):
        venv.step(bad)
    with pytest.raises(ValueError, match="'basic_v0' is for four-player rules"):
        riichi_env.vector_env(num_tables=2, rules="mahjongsoul-3p", encoder="basic_v0")
    with pytest.raises(ValueError, match="rank_points must be a tuple of three numbers"):
        riichi_env.vector_env(num_tables=2, rules="tenhou-3p", rank_points=(1, 0, 0, -1))
