"""The PettingZoo env: API conformance, seeding, pickling, illegal actions, rewards, options; four
and three players (issue 26: three agents, ``Discrete(86)`` with kita, rewards over three seats,
rendering)."""

import copy
import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import engine.actions as act
from engine.actions import KITA, N_ACTIONS, N_ACTIONS_3P
from engine.game import Game
from engine.rules import MAHJONGSOUL_3P, TENHOU_3P
from engine.state import PHASE_RIICHI_DISCARD, PHASE_TURN
from riichi_env.aec.raw_env import ENV_NAME, env, raw_env
from riichi_env.core.encoders import N_ROWS

# the four-player tests also run at the Numba lower bound (.ci/run); the three-player ones do not
QUICK = pytest.mark.quick

PRESETS_3P = ["mahjongsoul-3p", "tenhou-3p"]
AGENTS_3P = ["player_0", "player_1", "player_2"]
AGENTS = {4: ["player_0", "player_1", "player_2", "player_3"], 3: AGENTS_3P}

# the env's options per case: four players with the default rules (quick), three with each preset
PLAYERS_RULES = [
    pytest.param(4, {}, id="4-default", marks=QUICK),
    *(pytest.param(3, {"rules": p}, id=f"3-{p}") for p in PRESETS_3P),
]


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


def _choose(mask, rng, kita_first=False):
    """A random legal action (kita first if asked and legal: three players)."""
    legal = np.flatnonzero(mask)
    if kita_first and mask.size > KITA and mask[KITA]:
        return KITA
    return int(legal[rng.integers(legal.size)])


def _play_alike(e, clone, rng, moves, *, turns_and_rewards=False):
    """Up to ``moves`` random moves made in ``e`` and its ``clone`` alike, both observing the same
    before each (with ``turns_and_rewards`` also the same rewards so far, and the same seat to move
    after each move)."""
    for _ in range(moves):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        o1, o2 = e.observe(agent), clone.observe(agent)
        assert np.array_equal(o1["observation"], o2["observation"])
        assert np.array_equal(o1["action_mask"], o2["action_mask"])
        if turns_and_rewards:
            assert e._cumulative_rewards == clone._cumulative_rewards
        a = _choose(o1["action_mask"], rng)
        e.step(a)
        clone.step(a)
        if turns_and_rewards:
            assert clone.agent_selection == e.agent_selection


# api_test warns about Dict observations for envs outside PettingZoo's own list of classic envs
DICT_OBS = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array", "ignore:Observation space for each agent"
)


# per player count: api_test's cycles, seed_test's cycles
CYCLES = {4: (10_000, 500), 3: (3000, 300)}


@DICT_OBS
@pytest.mark.parametrize(("players", "rules"), PLAYERS_RULES)
def test_api_test_passes(players, rules):
    api_test(env(**rules), num_cycles=CYCLES[players][0])


@QUICK
@DICT_OBS
def test_api_test_passes_with_rich_encoder_and_placement_reward():
    api_test(env(encoder="rich_v0", reward="placement", game_length="tonpuusen"), num_cycles=300)


@pytest.mark.parametrize(
    ("players", "rules"),
    [
        pytest.param(4, {}, id="4-default", marks=QUICK),
        pytest.param(3, {"rules": "mahjongsoul-3p"}, id="3-mahjongsoul-3p"),
    ],
)
def test_seed_test_passes(players, rules):
    seed_test(lambda: env(**rules), num_cycles=CYCLES[players][1])


@QUICK
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


@QUICK
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


@QUICK
def test_pickle_round_trip_mid_game():
    e = raw_env(encoder="rich_v0")
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    _random_steps(e, 150, rng)
    clone = pickle.loads(pickle.dumps(e))
    assert clone.agent_selection == e.agent_selection
    _play_alike(e, clone, rng, 400, turns_and_rewards=True)
    assert e.points() == clone.points()


@QUICK
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


@QUICK
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


@pytest.mark.parametrize(("players", "rules"), PLAYERS_RULES)
def test_hand_rewards_add_up_to_the_point_change(players, rules):
    e = raw_env(reward="hand", reward_scale=1.0, game_length="tonpuusen", **rules)
    e.reset(seed=8)
    agents = AGENTS[players]
    assert e.possible_agents == agents
    total = dict.fromkeys(agents, 0.0)
    rng = np.random.default_rng(2)
    for _agent in e.agent_iter():
        _, _, term, trunc, _ = e.last(observe=False)
        if term or trunc:
            e.step(None)
            continue
        e.step(_choose(e.action_mask(), rng, kita_first=True))
        assert set(e.rewards) == set(agents)
        for a, r in e.rewards.items():
            total[a] += r
    st = e.state_arrays
    start = e.rules.start_points
    assert [total[a] for a in agents] == [float(p - start) for p in st.points[0, :players]]


# per player count: the rank points of the rank reward
RANK_POINTS = {4: (3, 1, -1, -3), 3: (2, 0.5, -2.5)}


@pytest.mark.parametrize("mode", ["placement", "rank"])
@pytest.mark.parametrize(("players", "rules"), PLAYERS_RULES)
def test_terminal_rewards(players, rules, mode):
    points = RANK_POINTS[players]
    e = raw_env(reward=mode, game_length="tonpuusen", rank_points=points, **rules)
    e.reset(seed=4)
    rng = np.random.default_rng(3)
    agents = AGENTS[players]
    seen = dict.fromkeys(agents, 0.0)
    while not all(e.terminations.values()):
        e.step(_choose(e.action_mask(), rng, kita_first=True))
        for a, r in e.rewards.items():
            seen[a] += r
    st = e.state_arrays
    for i, a in enumerate(agents):
        rank = int(st.final_ranks[0, i])
        want = st.final_scores[0, i] if mode == "placement" else points[rank]
        assert seen[a] == pytest.approx(want)
        assert e.infos[a]["rank"] == rank
    assert sorted(e.infos[a]["rank"] for a in agents) == list(range(players))
    # the preset's uma and oka: the final scores sum to zero
    assert sum(e.final_scores()[:players]) == pytest.approx(0.0, abs=1e-9)


@QUICK
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


@QUICK
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


@QUICK
def test_seat_view():
    e = raw_env()
    e.reset(seed=1)
    agent = e.agent_selection
    view = e.view(agent)
    assert view.hand34.sum() == 14
    assert view.visible34.sum() == 1  # the dora indicator
    assert list(view.points) == [25000] * 4


@QUICK
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


@QUICK
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


@QUICK
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


@QUICK
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


@QUICK
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


@QUICK
@DICT_OBS
def test_api_test_passes_with_skip_forced():
    api_test(env(skip_forced=True), num_cycles=1000)


# Three players only


@DICT_OBS
def test_api_test_passes_with_rich3_and_rank_reward():
    api_test(env(rules="tenhou-3p", encoder="rich3_v0", reward="rank"), num_cycles=300)


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
def test_reset_seed_plays_the_engine_game_of_that_seed_three_players(preset):
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


def test_default_rank_points_and_placement_uma():
    e = raw_env(rules="tenhou-3p", reward="rank")
    assert e.rank_points == (1.0, 0.0, -1.0)


def test_pickle_round_trip_mid_game_three_players():
    e = raw_env(rules=TENHOU_3P, encoder="oracle3_v0")
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(120):
        e.step(_choose(e.action_mask(), rng, kita_first=True))
    clone = pickle.loads(pickle.dumps(e))
    _play_alike(e, clone, rng, 200)
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
