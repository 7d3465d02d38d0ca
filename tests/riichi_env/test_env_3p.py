"""The three-player AEC env (issue 26): three agents, ``Discrete(86)`` with kita, api_test,
random games with masks respected, seeds, rewards over three seats, rendering."""

import copy
import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from engine.actions import KITA, N_ACTIONS, N_ACTIONS_3P
from engine.game import Game
from engine.rules import MAHJONGSOUL_3P, TENHOU_3P
from riichi_env.aec.raw_env import env, raw_env
from riichi_env.core.encoders import N_ROWS

PRESETS_3P = ["mahjongsoul-3p", "tenhou-3p"]
AGENTS_3P = ["player_0", "player_1", "player_2"]

DICT_OBS = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array", "ignore:Observation space for each agent"
)


def _choose(mask, rng, kita_first=False):
    legal = np.flatnonzero(mask)
    if kita_first and mask[KITA]:
        return KITA
    return int(legal[rng.integers(legal.size)])


@DICT_OBS
@pytest.mark.parametrize("preset", PRESETS_3P)
def test_api_test_passes(preset):
    api_test(env(rules=preset), num_cycles=3000)


@DICT_OBS
def test_api_test_passes_with_rich3_and_rank_reward():
    api_test(env(rules="tenhou-3p", encoder="rich3_v0", reward="rank"), num_cycles=300)


def test_seed_test_passes():
    seed_test(lambda: env(rules="mahjongsoul-3p"), num_cycles=300)


@pytest.mark.nojit
@pytest.mark.parametrize("rules", [*PRESETS_3P, MAHJONGSOUL_3P.replace(game_length="tonpuusen")])
def test_three_agents_86_actions(rules):
    e = raw_env(rules=rules)
    assert e.possible_agents == AGENTS_3P and e.players == 3
    assert e.encoder == "basic3_v0"
    space = e.observation_space("player_2")
    assert space["action_mask"].shape == (N_ACTIONS_3P,) == (86,)
    assert space["observation"].shape == (N_ROWS["basic3_v0"], 34)
    assert e.action_space("player_1").n == 86
    with pytest.raises(ValueError, match="agent must be one of player_0, player_1, player_2"):
        e.observation_space("player_3")
    e.reset(seed=3)
    assert e.agents == AGENTS_3P
    obs = e.observe(e.agent_selection)
    assert space.contains(obs) and obs["action_mask"].sum() > 0


def test_four_player_env_unchanged():
    e = raw_env()
    assert e.players == 4 and e.encoder == "basic_v0" and len(e.possible_agents) == 4
    assert e.action_space("player_3").n == N_ACTIONS == 85
    assert e.rank_points == (0.9, 0.45, 0.0, -1.35)


def test_encoder_must_fit_the_players():
    with pytest.raises(ValueError, match="'basic_v0' is for four-player rules"):
        raw_env(rules="mahjongsoul-3p", encoder="basic_v0")
    with pytest.raises(ValueError, match="'rich3_v0' is for three-player rules"):
        raw_env(encoder="rich3_v0")
    with pytest.raises(ValueError, match="unknown encoder 'nope'"):
        raw_env(rules="tenhou-3p", encoder="nope")
    with pytest.raises(ValueError, match="rank_points must be a tuple of three numbers"):
        raw_env(rules="tenhou-3p", rank_points=(1, 0, 0, -1))


@pytest.mark.nojit
@pytest.mark.parametrize("preset", PRESETS_3P)
def test_reset_seed_plays_the_engine_game_of_that_seed(preset):
    e = raw_env(rules=preset)
    e.reset(seed=11)
    g = Game(preset, seed=11)
    rng = np.random.default_rng(0)
    kitas = 0
    while not g.done:
        assert e.agent_selection == f"player_{g.actor}"
        assert np.array_equal(e.action_mask().astype(bool), g.legal_mask())
        a = _choose(g.legal_mask(), rng, kita_first=True)
        kitas += a == KITA
        e.step(a)
        g.step(a)
    assert e.points() == g.points and e.points()[3] == 0
    assert all(e.terminations.values()) and kitas > 0


@pytest.mark.parametrize("preset", PRESETS_3P)
def test_masked_actions_are_accepted_and_the_others_refused(preset):
    """At sampled decisions of random games every masked action steps (on a copy of the env)
    and every other id 0-85 raises ``ValueError`` without changing anything."""
    rng = np.random.default_rng(4)
    checked = kita_checked = 0
    for game in range(2):
        e = raw_env(rules=preset, game_length="tonpuusen")
        e.reset(seed=50 + game)
        while not all(e.terminations.values()):
            mask = e.action_mask()
            if rng.random() < 0.08 or mask[KITA]:
                before = e.state_arrays.records.copy()
                for a in range(N_ACTIONS_3P):
                    if mask[a]:
                        copy.deepcopy(e).step(a)
                    else:
                        with pytest.raises(ValueError, match="illegal action"):
                            e.step(a)
                assert (e.state_arrays.records == before).all()
                checked += 1
                kita_checked += bool(mask[KITA])
            e.step(_choose(mask, rng, kita_first=rng.random() < 0.5))
    assert checked > 20 and kita_checked > 0


def test_out_of_space_and_wrapped_illegal_action(caplog):
    e = env(rules="mahjongsoul-3p")
    e.reset(seed=2)
    with pytest.raises(ValueError, match=r"Discrete\(86\) \(ids 0-85\)"):
        e.step(86)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = e.agent_selection
    e.step(illegal)
    assert "Illegal move" in caplog.text and all(e.terminations.values())
    assert e._cumulative_rewards[agent] == -1 and len(e.terminations) == 3


@pytest.mark.parametrize("preset", PRESETS_3P)
def test_hand_rewards_add_up_to_the_point_change(preset):
    e = raw_env(rules=preset, reward="hand", reward_scale=1.0, game_length="tonpuusen")
    e.reset(seed=8)
    total = dict.fromkeys(AGENTS_3P, 0.0)
    rng = np.random.default_rng(2)
    for _agent in e.agent_iter():
        _, _, term, trunc, _ = e.last(observe=False)
        if term or trunc:
            e.step(None)
            continue
        e.step(_choose(e.action_mask(), rng, kita_first=True))
        assert set(e.rewards) == set(AGENTS_3P)
        for a, r in e.rewards.items():
            total[a] += r
    st = e.state_arrays
    start = e.rules.start_points
    assert [total[a] for a in AGENTS_3P] == [float(p - start) for p in st.points[0, :3]]


@pytest.mark.parametrize("mode", ["placement", "rank"])
@pytest.mark.parametrize("preset", PRESETS_3P)
def test_terminal_rewards_over_three_seats(preset, mode):
    e = raw_env(rules=preset, reward=mode, game_length="tonpuusen", rank_points=(2, 0.5, -2.5))
    e.reset(seed=4)
    rng = np.random.default_rng(3)
    seen = dict.fromkeys(AGENTS_3P, 0.0)
    while not all(e.terminations.values()):
        e.step(_choose(e.action_mask(), rng, kita_first=True))
        for a, r in e.rewards.items():
            seen[a] += r
    st = e.state_arrays
    for i, a in enumerate(AGENTS_3P):
        rank = int(st.final_ranks[0, i])
        want = st.final_scores[0, i] if mode == "placement" else (2, 0.5, -2.5)[rank]
        assert seen[a] == pytest.approx(want)
        assert e.infos[a]["rank"] == rank
    assert sorted(e.infos[a]["rank"] for a in AGENTS_3P) == [0, 1, 2]
    # the preset's uma and oka: the three final scores sum to zero
    assert sum(e.final_scores()[:3]) == pytest.approx(0.0, abs=1e-9)


def test_default_rank_points_and_placement_uma():
    e = raw_env(rules="tenhou-3p", reward="rank")
    assert e.rank_points == (1.0, 0.0, -1.0)


def test_pickle_round_trip_mid_game():
    e = raw_env(rules=TENHOU_3P, encoder="oracle3_v0")
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(120):
        e.step(_choose(e.action_mask(), rng, kita_first=True))
    clone = pickle.loads(pickle.dumps(e))
    for _ in range(200):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        o1, o2 = e.observe(agent), clone.observe(agent)
        assert np.array_equal(o1["observation"], o2["observation"])
        assert np.array_equal(o1["action_mask"], o2["action_mask"])
        a = _choose(o1["action_mask"], rng)
        e.step(a)
        clone.step(a)
    assert e.points() == clone.points()


def test_render_shows_three_seats_and_kita(capsys):
    e = raw_env(rules="mahjongsoul-3p", render_mode="ansi")
    e.reset(seed=6)
    rng = np.random.default_rng(0)
    while not e.state_arrays.n_kita[0].any():
        e.step(_choose(e.action_mask(), rng, kita_first=True))
    text = e.render()
    seat_lines = [line for line in text.splitlines() if line[1:2].isdigit()]
    assert len(seat_lines) == 3 and "kita x" in text
    assert not any(line.startswith((" 3", "*3")) for line in seat_lines)
    assert "wall " in text.splitlines()[0]


def test_make_rules_refuses_three_players_unless_asked():
    from riichi_env.core.options import _make_rules

    with pytest.raises(ValueError, match="this tool plays four players only yet"):
        _make_rules("tenhou-3p", {})
    assert _make_rules("tenhou-3p", {}, None, None) is TENHOU_3P
