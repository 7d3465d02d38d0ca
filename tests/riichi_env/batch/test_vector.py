"""The vector env: each table is the AEC env's game, autoreset, rewards, bytes, bad input; four and
three players (issue 26: 86-entry masks, rewards and final info over three seats, the three-seat
encoders' bytes)."""

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import riichi_env
from engine.actions import KITA
from riichi_env.batch.vector import RiichiVectorEnv
from riichi_env.core.encoders import bounds


def _random_actions(rng, mask):
    a = (rng.random(mask.shape) * mask).argmax(axis=1)
    if mask.shape[1] > KITA:  # three players: kita more often than uniform play would
        kita = mask[:, KITA] == 1
        take = kita & (rng.random(mask.shape[0]) < 0.7)
        a[take] = KITA
    return a


def _aec_trace(seed, actions_by_step, encoder, reward, skip_forced, **opts):
    """The AEC env's (obs, mask, seat, rewards) before each of ``actions_by_step``."""
    env = riichi_env.raw_env(encoder=encoder, reward=reward, skip_forced=skip_forced, **opts)
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


# per player count: the options besides the encoder (four players: the defaults), the step limit
# and the width of the action mask
TABLE_GAMES = {
    4: ({}, 3000, 85),
    3: ({"rank_points": (2, 0, -2)}, 4000, 86),
}


@pytest.mark.parametrize(
    ("players", "rules", "encoder", "reward", "skip_forced"),
    [
        (4, None, "basic_v0", "hand", False),
        (4, None, "rich_v0", "placement", True),
        (4, None, "basic_v1", "rank", False),
        (3, "mahjongsoul-3p", "basic3_v0", "hand", False),
        (3, "tenhou-3p", "rich3_v0", "placement", True),
        (3, "mahjongsoul-3p", "oracle3_v0", "rank", False),
    ],
)
def test_each_table_plays_the_aec_game(players, rules, encoder, reward, skip_forced):
    """Table i with game seed s: the observations, masks, seats and rewards of env.reset(seed=s)."""
    n = 3
    opts, limit, width = TABLE_GAMES[players]
    if rules is not None:
        opts = {**opts, "rules": rules}
    venv = riichi_env.vector_env(
        num_tables=n, encoder=encoder, reward=reward, skip_forced=skip_forced, seed=1, **opts
    )
    obs, info = venv.reset(seed=100)
    assert list(info["game_seed"]) == [100, 101, 102]
    rng = np.random.default_rng(5)
    steps = {i: [] for i in range(n)}  # table -> [(obs, mask, seat, action, reward, term)]
    seeds = info["game_seed"].copy()
    for _ in range(limit):
        actions = _random_actions(rng, obs["action_mask"])
        before = (obs["observation"].copy(), obs["action_mask"].copy(), info["seat"].copy())
        assert (info["seat"] < players).all()
        obs, rewards, terms, truncs, info = venv.step(actions)
        assert not truncs.any()
        assert rewards.shape == (n, players)
        for i in range(n):
            if seeds[i] == 100 + i:  # only the first game of each table is compared
                steps[i].append(
                    (before[0][i], before[1][i], before[2][i], actions[i], rewards[i], terms[i])
                )
        if terms.any():
            fi = info["final_info"]
            for key in ("points", "final_score", "rank"):
                assert fi[key].shape == (n, players)
            for i in np.flatnonzero(terms):
                assert info["final_info"]["game_seed"][i] == seeds[i]
                assert info["game_seed"][i] == seeds[i] + n  # the next game, same step
                assert sorted(fi["rank"][i]) == list(range(players))
                assert fi["final_score"][i].sum() == pytest.approx(0.0, abs=1e-9)
                assert info["final_obs"][i]["action_mask"].shape == (width,)
            seeds = info["game_seed"].copy()
        if (seeds >= 100 + n).all():
            break
    for i in range(n):
        trace = _aec_trace(100 + i, [s[3] for s in steps[i]], encoder, reward, skip_forced, **opts)
        assert len(trace) == len(steps[i])
        assert steps[i][-1][5] and trace[-1][4]  # both games ended on the same action
        for (o, m, seat, _a, r, term), (o2, m2, seat2, r2, term2) in zip(
            steps[i], trace, strict=True
        ):
            np.testing.assert_array_equal(o, o2)
            np.testing.assert_array_equal(m, m2)
            assert seat == seat2
            np.testing.assert_allclose(r, r2, rtol=0, atol=1e-6)
            assert term == term2


def test_final_info_and_autoreset():
    """A finished game: final info as the AEC env's infos, the next game's first observation."""
    venv = riichi_env.vector_env(num_tables=2, game_length="tonpuusen", reward="placement")
    obs, info = venv.reset(seed=7)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    rng = np.random.default_rng(0)
    actions_0 = []
    for _ in range(5000):
        a = _random_actions(rng, obs["action_mask"])
        actions_0.append(a[0])
        obs, rewards, terms, _, info = venv.step(a)
        if terms[0]:
            break
    assert terms[0]
    assert info["_final_info"][0] and info["_final_obs"][0]
    fin = info["final_info"]
    env = riichi_env.raw_env(game_length="tonpuusen", reward="placement")
    env.reset(seed=7)
    for a in actions_0:
        env.step(int(a))
    assert list(fin["points"][0]) == env.points()
    np.testing.assert_allclose(fin["final_score"][0], env.final_scores())
    np.testing.assert_allclose(rewards[0], env.final_scores(), atol=1e-5)
    assert [env.infos[a]["rank"] for a in env.possible_agents] == list(fin["rank"][0])
    assert fin["game_seed"][0] == 7
    final = info["final_obs"][0]
    assert final["observation"].shape == obs["observation"].shape[1:]
    assert not final["action_mask"].any()
    # the new game at table 0 is seed 9 (7 + B) from its start
    assert info["game_seed"][0] == 9
    fresh = riichi_env.raw_env(game_length="tonpuusen")
    fresh.reset(seed=9)
    np.testing.assert_array_equal(
        obs["observation"][0], fresh.observe(fresh.agent_selection)["observation"]
    )


def test_same_seed_same_run_and_seed_lists():
    def run(seed):
        venv = riichi_env.vector_env(num_tables=4)
        obs, info = venv.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(200):
            obs, r, t, _, info = venv.step(_random_actions(rng, obs["action_mask"]))
            out.append((obs["observation"].sum(), r.sum(), info["seat"].tolist()))
        return out

    assert run(3) == run(3)
    venv = riichi_env.vector_env(num_tables=3)
    _, info = venv.reset(seed=[10, 20, 30])
    assert info["game_seed"].tolist() == [10, 20, 30]
    with pytest.raises(ValueError, match="list of 3"):
        venv.reset(seed=[1, 2])
    unseeded = riichi_env.vector_env(num_tables=2, seed=5)
    _, a = unseeded.reset()
    again = riichi_env.vector_env(num_tables=2, seed=5)
    _, b = again.reset()
    assert a["game_seed"].tolist() == b["game_seed"].tolist()


@pytest.mark.parametrize(
    ("players", "rules", "encoder"),
    [(4, {}, "rich_v0"), (3, {"rules": "mahjongsoul-3p"}, "rich3_v0")],
)
def test_uint8_observations(players, rules, encoder):
    f = riichi_env.vector_env(num_tables=3, encoder=encoder, **rules)
    q = riichi_env.vector_env(num_tables=3, encoder=encoder, obs_dtype=np.uint8, **rules)
    of, _ = f.reset(seed=2)
    oq, _ = q.reset(seed=2)
    rng = np.random.default_rng(3)
    low, high = bounds(encoder)
    for _ in range(300):
        assert oq["observation"].dtype == np.uint8
        np.testing.assert_array_equal(of["action_mask"], oq["action_mask"])
        x = of["observation"]
        expect = np.clip(np.rint((x - low) / (high - low) * 255), 0, 255).astype(np.uint8)
        assert np.abs(oq["observation"].astype(int) - expect.astype(int)).max() <= 1
        back = q.dequantize(oq["observation"])
        assert np.abs(back - x).max() <= (high - low).max() / 255 + 1e-6
        binary = (x == 0) | (x == 1)
        assert ((oq["observation"] == 255) == (binary & (x == 1)))[binary].all()
        a = _random_actions(rng, of["action_mask"])
        of, *_ = f.step(a)
        oq, *_ = q.step(a)
    assert q.single_observation_space["observation"].dtype == np.uint8


def test_spaces_and_copy():
    venv = riichi_env.vector_env(num_tables=5, encoder="basic_v0")
    assert venv.num_envs == 5
    assert venv.observation_space["observation"].shape == (5, 157, 34)
    assert venv.observation_space["action_mask"].shape == (5, 85)
    assert venv.single_action_space.n == 85
    obs, info = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    assert info["seat"].dtype == np.int64
    nocopy = riichi_env.vector_env(num_tables=2, copy=False)
    o1, _ = nocopy.reset(seed=0)
    o2, *_ = nocopy.step(o1["action_mask"].argmax(axis=1))
    assert o1["observation"] is o2["observation"]  # the env's own buffer


def test_illegal_action_names_table_seat_and_action():
    venv = riichi_env.vector_env(num_tables=3)
    obs, info = venv.reset(seed=0)
    actions = obs["action_mask"].argmax(axis=1)
    illegal = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    actions[2] = illegal
    before = venv.state.records.copy()
    with pytest.raises(ValueError, match=rf"table 2 \(seat {info['seat'][2]}\): illegal action"):
        venv.step(actions)
    for name in before.dtype.names:  # nothing was applied (fields compared: padding is not copied)
        np.testing.assert_array_equal(venv.state.records[name], before[name], err_msg=name)
    with pytest.raises(ValueError, match="outside 0..84"):
        venv.step(np.array([0, 0, 85]))
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        venv.step([0, 0])
    with pytest.raises(TypeError, match="integers"):
        venv.step(np.array([0.0, 1.0, 2.0]))
    with pytest.raises(TypeError, match="integers"):
        venv.step(np.array([True, False, True]))


def test_bad_options():
    with pytest.raises(ValueError, match="obs_dtype"):
        RiichiVectorEnv(2, obs_dtype=np.float64)
    with pytest.raises(ValueError, match="encoder"):
        RiichiVectorEnv(2, encoder="nope")
    with pytest.raises(ValueError, match="reward"):
        RiichiVectorEnv(2, reward="score")
    with pytest.raises(TypeError, match="num_tables"):
        RiichiVectorEnv(2.0)
    with pytest.raises(ValueError, match="num_tables"):
        RiichiVectorEnv(0)
    with pytest.raises(TypeError, match="unknown env option"):
        RiichiVectorEnv(2, kan_dora=True)
    with pytest.raises(gymnasium.error.ResetNeeded):
        RiichiVectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_gymnasium_per_table_reward_wrappers_are_refused_naming_the_learner_env():
    """``(B, 4)`` rewards broke RecordEpisodeStatistics / NormalizeReward with NumPy broadcasting
    errors at their first step (or, with 4 tables, silently); they are refused as they are built."""
    from gymnasium.wrappers.vector import (
        ClipReward,
        DictInfoToList,
        NormalizeReward,
        RecordEpisodeStatistics,
    )

    from riichi_env.batch.vector import PerSeatRewardsError

    venv = riichi_env.vector_env(4)
    for wrap, name in [
        (RecordEpisodeStatistics, "RecordEpisodeStatistics"),
        (NormalizeReward, "NormalizeReward"),
        (lambda e: NormalizeReward(DictInfoToList(e)), "NormalizeReward"),  # through another
        (lambda e: RecordEpisodeStatistics(ClipReward(e, -1.0, 1.0)), "RecordEpisodeStatistics"),
    ]:
        with pytest.raises(PerSeatRewardsError) as info:
            wrap(venv)
        message = str(info.value)
        assert message.startswith(f"gymnasium.wrappers.vector.{name} cannot wrap riichi_env's")
        assert "per seat, shape (num_tables, 4)" in message
        assert "riichi_env.learner_vector_env(" in message
        assert isinstance(info.value, TypeError)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP  # plain reads work
    assert RiichiVectorEnv.metadata["name"] == "riichi_v0"
    clipped = ClipReward(DictInfoToList(venv), -0.5, 0.5)  # elementwise ones work on (B, 4)
    obs, infos = clipped.reset(seed=0)
    assert isinstance(infos, list) and len(infos) == 4
    rng = np.random.default_rng(0)
    for _ in range(300):
        obs, rewards, *_ = clipped.step(_random_actions(rng, obs["action_mask"]))
        assert rewards.shape == (4, 4) and np.abs(rewards).max() <= 0.5


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


@pytest.mark.usefixtures("small_shares")
@pytest.mark.parametrize(
    ("opts", "encoder", "threads"),
    [
        ({"rules": "mahjongsoul", "open_riichi": True}, "rich_v1", 1),
        ({"rules": "mahjongsoul"}, "oracle_v0", 2),
        ({"rules": "mahjongsoul-3p"}, "oracle3_v0", 2),
    ],
)
def test_uint8_observations_are_the_float_ones_quantized(opts, encoder, threads):
    """The encoder writes the bytes itself: at every step each table's are exactly
    ``quantize_reference._quantize`` of the float32 env's observation (same games, same
    actions), calls at once included."""
    from quantize_reference import QUANT_INV, QUANT_LO, _quantize

    from riichi_env.core.encoders import ENCODER_IDS

    f = riichi_env.vector_env(num_tables=40, encoder=encoder, threads=threads, **opts)
    q = riichi_env.vector_env(
        num_tables=40, encoder=encoder, threads=threads, obs_dtype=np.uint8, **opts
    )
    of, _ = f.reset(seed=8)
    oq, _ = q.reset(seed=8)
    i, rows = ENCODER_IDS[encoder], of["observation"].shape[1]
    lo, inv = QUANT_LO[i, :rows], QUANT_INV[i, :rows]
    want = np.zeros((rows, 34), np.uint8)
    rng = np.random.default_rng(6)
    for _ in range(150):
        for t in range(40):
            _quantize(of["observation"][t], lo, inv, want)
            np.testing.assert_array_equal(oq["observation"][t], want)
        a = _random_actions(rng, of["action_mask"])
        of, *_ = f.step(a)
        oq, *_ = q.step(a)
    assert (q._batch._pool is not None) == (threads > 1)


def _threaded_run(threads, players, dtype, opts, steps, split=True):
    """What a vector env of 48 tables shows over ``steps`` random steps: every array of every
    step, the final observations and infos of the games that ended."""
    venv = riichi_env.vector_env(num_tables=48, threads=threads, obs_dtype=dtype, **opts)
    obs, info = venv.reset(seed=11)
    rng = np.random.default_rng(4)
    out = [obs["observation"].tobytes(), info["seat"].tobytes()]
    ended = 0
    for _ in range(steps):
        obs, r, t, _, info = venv.step(_random_actions(rng, obs["action_mask"]))
        out += [
            obs["observation"].tobytes(),
            obs["action_mask"].tobytes(),
            r.tobytes(),
            t.tobytes(),
        ]
        out += [info["seat"].tobytes(), info["game_seed"].tobytes()]
        if t.any():
            ended += int(t.sum())
            out += [x["observation"].tobytes() for x in info["final_obs"][t]]
            out += [a.tobytes() for a in info["final_info"].values()]
    assert (venv._batch._pool is not None) == (threads > 1 and split)  # the run was split
    out += [int(venv._batch.opt["games_done"]), int(venv._batch.opt["played"])]  # every call's
    venv.close()
    return out, ended


@pytest.fixture
def small_shares(monkeypatch):
    """Split runs from 16 tables a thread, so that small batches run in threads too."""
    monkeypatch.setattr(riichi_env.batch.tables, "MIN_SHARE", 16)


@pytest.mark.usefixtures("small_shares")
@pytest.mark.parametrize(
    ("players", "dtype", "opts"),
    [
        (4, np.float32, {}),
        (4, np.uint8, {"reward": "rank", "skip_forced": True}),
        (3, np.float32, {"rules": "mahjongsoul-3p", "reward": "placement"}),
    ],
)
def test_threads_give_the_same_run(players, dtype, opts):
    """``threads=K`` steps the tables in K calls at once: every observation, mask, reward,
    termination, seat, seed and final observation is the one-thread run's, byte for byte."""
    one, ended = _threaded_run(1, players, dtype, opts, 1200)
    assert ended > 0  # the comparison covers games that ended and the next games' starts
    assert _threaded_run(2, players, dtype, opts, 1200) == (one, ended)
    assert _threaded_run(3, players, dtype, opts, 1200) == (one, ended)


@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_threads_with_too_few_tables_to_split_play_the_same(dtype):
    """Below ``MIN_SHARE`` tables a call, ``threads=2`` runs one call (no thread started) and
    plays the one-thread run."""
    assert _threaded_run(2, 4, dtype, {}, 300, split=False) == _threaded_run(1, 4, dtype, {}, 300)


@pytest.mark.usefixtures("small_shares")
def test_threads_option_and_errors():
    with pytest.raises(TypeError, match="threads"):
        RiichiVectorEnv(2, threads=1.5)
    with pytest.raises(ValueError, match="threads"):
        RiichiVectorEnv(2, threads=0)
    venv = riichi_env.vector_env(num_tables=40, threads=2)
    obs, info = venv.reset(seed=0)
    actions = obs["action_mask"].argmax(axis=1)
    actions[37] = int(np.flatnonzero(obs["action_mask"][37] == 0)[0])
    before = venv.state.records.copy()
    with pytest.raises(ValueError, match=rf"table 37 \(seat {info['seat'][37]}\): illegal action"):
        venv.step(actions)
    for name in before.dtype.names:  # nothing was applied at any table
        np.testing.assert_array_equal(venv.state.records[name], before[name], err_msg=name)
    venv.step(obs["action_mask"].argmax(axis=1))
    venv.close()
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        venv.step(actions)
