"""The PettingZoo env: API conformance, seeding, pickling, illegal actions, rewards, options."""

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import engine.actions as act
from engine.actions import N_ACTIONS
from engine.game import Game
from engine.state import PHASE_RIICHI_DISCARD, PHASE_TURN
from riichi_env.aec.raw_env import ENV_NAME, env, raw_env

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)


def _random_steps(e, n, rng):
    """Play ``n`` random legal actions (fewer if the game ends); returns the actions."""
    played = []
    for _ in range(n):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        legal = np.flatnonzero(e.action_mask(agent))
        a = int(legal[rng.integers(legal.size)])
        e.step(a)
        played.append(a)
    return played


# api_test warns about Dict observations for envs outside PettingZoo's own list of classic envs
DICT_OBS = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array", "ignore:Observation space for each agent"
)


@DICT_OBS
def test_api_test_passes():
    api_test(env(), num_cycles=10_000)


@DICT_OBS
def test_api_test_passes_with_rich_encoder_and_placement_reward():
    api_test(env(encoder="rich_v0", reward="placement", game_length="tonpuusen"), num_cycles=300)


def test_seed_test_passes():
    seed_test(env, num_cycles=500)


def test_metadata_and_spaces():
    e = raw_env()
    assert e.metadata["name"] == ENV_NAME == "riichi_v0"
    assert set(e.metadata["render_modes"]) == {"ansi", "human"}
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    space = e.observation_space("player_2")
    assert space["action_mask"].shape == (act.N_ACTIONS,)
    assert space["action_mask"].dtype == np.int8
    assert e.action_space("player_1").n == act.N_ACTIONS
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    assert space.contains(obs)
    assert obs["action_mask"].sum() > 0
    other = e.possible_agents[(e.possible_agents.index(e.agent_selection) + 1) % 4]
    assert e.observe(other)["action_mask"].sum() == 0


def test_reset_seed_plays_the_engine_game_of_that_seed():
    e = raw_env()
    e.reset(seed=11)
    g = Game(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(300):
        assert e.agent_selection == f"player_{g.actor}"
        assert np.array_equal(e.action_mask().astype(bool), g.legal_mask())
        legal = np.flatnonzero(g.legal_mask())
        a = int(legal[rng.integers(legal.size)])
        e.step(a)
        g.step(a)
        if g.done:
            break
    assert e.points() == g.points


def test_pickle_round_trip_mid_game():
    e = raw_env(encoder="rich_v0")
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    _random_steps(e, 150, rng)
    clone = pickle.loads(pickle.dumps(e))
    assert clone.agent_selection == e.agent_selection
    for _ in range(400):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        o1, o2 = e.observe(agent), clone.observe(agent)
        assert np.array_equal(o1["observation"], o2["observation"])
        assert np.array_equal(o1["action_mask"], o2["action_mask"])
        assert e._cumulative_rewards == clone._cumulative_rewards
        legal = np.flatnonzero(o1["action_mask"])
        a = int(legal[rng.integers(legal.size)])
        e.step(a)
        clone.step(a)
        assert clone.agent_selection == e.agent_selection
    assert e.points() == clone.points()


def test_raw_env_raises_a_clear_error_on_an_illegal_action():
    e = raw_env()
    e.reset(seed=2)
    illegal = int(np.flatnonzero(e.action_mask() == 0)[0])
    with pytest.raises(ValueError, match=r"illegal action .* for player_0"):
        e.step(illegal)
    with pytest.raises(ValueError, match=f"0-{N_ACTIONS - 1}"):
        e.step(N_ACTIONS)
    with pytest.raises(ValueError, match="must act"):
        e.step(None)


def test_wrapped_env_ends_the_game_on_an_illegal_action(caplog):
    e = env()
    e.reset(seed=2)
    agent = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert "Illegal move" in caplog.text
    assert all(e.terminations.values())
    assert e._cumulative_rewards[agent] == -1


def test_hand_rewards_add_up_to_the_point_change():
    e = raw_env(reward="hand", reward_scale=1.0, game_length="tonpuusen")
    e.reset(seed=8)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(2)
    for _agent in e.agent_iter():
        _, _, term, trunc, _ = e.last(observe=False)
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
        for a, r in e.rewards.items():
            total[a] += r
    st = e.state_arrays
    start = e.rules.start_points
    assert [total[a] for a in e.possible_agents] == [float(p - start) for p in st.points[0]]


@pytest.mark.parametrize("mode", ["placement", "rank"])
def test_terminal_rewards(mode):
    e = raw_env(reward=mode, game_length="tonpuusen", rank_points=(3, 1, -1, -3))
    e.reset(seed=4)
    rng = np.random.default_rng(3)
    seen = dict.fromkeys(e.possible_agents, 0.0)
    while not all(e.terminations.values()):
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
        for a, r in e.rewards.items():
            seen[a] += r
    st = e.state_arrays
    for i, a in enumerate(e.possible_agents):
        want = (
            st.final_scores[0, i] if mode == "placement" else (3, 1, -1, -3)[st.final_ranks[0, i]]
        )
        assert seen[a] == pytest.approx(want)
        assert e.infos[a]["rank"] == int(st.final_ranks[0, i])
    assert sorted(e.infos[a]["rank"] for a in e.possible_agents) == [0, 1, 2, 3]


def test_rule_options_and_errors():
    e = raw_env(rules="tenhou", game_length="tonpuusen", red_fives=(0, 0, 0))
    assert e.rules.sanchahou and e.rules.game_length == "tonpuusen"
    assert e.rules.red_fives == (0, 0, 0)
    assert raw_env(rules="tenhou", game_length="hanchan").rules.name == "tenhou"
    with pytest.raises(TypeError, match="unknown env option"):
        raw_env(no_such_rule=True)
    with pytest.raises(ValueError, match="unknown encoder"):
        raw_env(encoder="basic_v9")
    with pytest.raises(ValueError, match="unknown reward"):
        raw_env(reward="points")
    with pytest.raises(ValueError, match="unknown rules preset"):
        raw_env(rules="nope")


def test_render_ansi_and_human(capsys):
    e = raw_env(render_mode="ansi")
    e.reset(seed=9)
    _random_steps(e, 40, np.random.default_rng(4))
    text = e.render()
    assert isinstance(text, str)
    assert "to act: seat" in text and "legal:" in text and "dora indicators" in text
    assert f"hand of seat {e.agent_selection[-1]}" in text
    h = raw_env(render_mode="human")
    h.reset(seed=9)
    assert h.render() is None
    assert "East 1" in capsys.readouterr().out


def test_seat_view():
    e = raw_env()
    e.reset(seed=1)
    agent = e.agent_selection
    view = e.view(agent)
    assert view.hand34.sum() == 14
    assert view.visible34.sum() == 1  # the dora indicator
    assert list(view.points) == [25000] * 4


def test_wrapped_env_enforces_order_and_bounds():
    e = env()
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    e.reset(seed=1)
    assert e.agent_selection == "player_0"
    with pytest.raises(AssertionError, match="action space"):
        e.step(N_ACTIONS)
    with pytest.raises(AssertionError, match="action space"):
        e.step(-1)
    legal = int(np.flatnonzero(e.last()[0]["action_mask"])[0])
    e.step(np.int64(legal))


@pytest.mark.nojit
def test_short_game_prefix_with_every_encoder():
    """Also run without JIT (tests/test_nojit.py): the kernels work as plain Python."""
    from riichi_env.core.encoders import ENCODERS

    for name in ENCODERS:
        e = raw_env(encoder=name)
        e.reset(seed=1)
        rng = np.random.default_rng(0)
        space = e.observation_space("player_0")
        for _ in range(25):
            obs = e.observe(e.agent_selection)
            assert space.contains(obs)
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(legal.size)]))
        st, seat = e.state_arrays, int(e.agent_selection[-1])
        on_turn = int(st.phase[0]) in (PHASE_TURN, PHASE_RIICHI_DISCARD)
        held = (14 if on_turn else 13) - 3 * int(st.n_melds[0, seat])
        assert e.view(e.agent_selection).hand34.sum() == held


def test_wrapped_env_pickles_mid_game():
    e = env()
    e.reset(seed=3)
    for _ in range(50):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    clone = pickle.loads(pickle.dumps(e))
    for _ in range(200):
        o1, o2 = e.last()[0], clone.last()[0]
        assert np.array_equal(o1["observation"], o2["observation"])
        a = int(np.flatnonzero(o1["action_mask"])[-1])
        e.step(a)
        clone.step(a)
    assert e.unwrapped.points() == clone.unwrapped.points()


def test_encode_into_a_preallocated_buffer():
    e = raw_env(encoder="rich_v0")
    e.reset(seed=6)
    _random_steps(e, 30, np.random.default_rng(0))
    batch = np.zeros((4, *e.observation_space("player_0")["observation"].shape), np.float32)
    for i, agent in enumerate(e.possible_agents):
        slot = batch[i]
        assert e.encode(agent, out=slot) is slot
        assert np.array_equal(batch[i], e.observe(agent)["observation"])
    with pytest.raises(ValueError, match="float32"):
        e.encode("player_0", out=np.zeros((3, 34), np.float32))
    with pytest.raises(ValueError, match="contiguous"):
        e.encode("player_0", out=np.zeros((34, 163), np.float32).T)


def test_skip_forced_never_asks_a_decision_with_one_legal_action():
    from agents.simple_efficiency_agent import SimpleEfficiencyAgent

    agent = SimpleEfficiencyAgent()  # riichi whenever tenpai: many forced tsumogiri turns
    counts = []
    for skip in (False, True):
        e = raw_env(skip_forced=skip, reward_scale=1.0, game_length="tonpuusen")
        forced = 0
        for seed in range(2):
            e.reset(seed=seed)
            total = 0.0
            while not all(e.terminations.values()):
                mask = e.action_mask()
                forced += int(mask.sum() == 1)
                e.step(agent.act(None, mask, e.view(e.agent_selection)))
                total += sum(e.rewards.values())
            assert total == 0.0  # points are conserved; leftover sticks go to first place
            assert sum(e.points()) == 4 * e.rules.start_points
        counts.append(forced)
    assert counts[0] > 0 and counts[1] == 0


@DICT_OBS
def test_api_test_passes_with_skip_forced():
    api_test(env(skip_forced=True), num_cycles=1000)
