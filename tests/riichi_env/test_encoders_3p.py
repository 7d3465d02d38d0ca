"""The three-seat encoders (issue 26): layout tables, bounds, the rows against the state (seat 3
absent, the kita rows, the 1m -> 9m dora wrap, 55 live draws), and that only the oracle sees
hidden tiles."""

import copy

import numpy as np
import pytest

import riichi_env.core.encoders as enc
from engine.actions import KITA
from engine.rules import MAHJONGSOUL_3P
from engine.scenario import start_hand
from engine.state import DORA_START, LIVE_END_3P, RINSHAN_START, URA_START
from riichi_env.aec.raw_env import raw_env


def _choose(mask, rng, kita_first=True):
    if kita_first and mask[KITA]:
        return KITA
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


@pytest.mark.parametrize("name", enc.ENCODERS_3P)
def test_row_table_covers_every_row_once(name):
    covered = []
    for first, count, meaning in enc.ROWS[name]:
        assert meaning
        covered.extend(range(first, first + count))
    assert covered == list(range(enc.N_ROWS[name]))
    assert enc.table_markdown(name).count("\n") == len(enc.ROWS[name]) + 1


def test_names_ids_and_the_four_player_encoders_unchanged():
    assert enc.ENCODERS == ("basic_v0", "rich_v0", "oracle_v0", "basic_v1", "rich_v1")
    assert enc.ENCODERS_3P == ("basic3_v0", "rich3_v0", "oracle3_v0")
    assert [enc.ENCODER_IDS[n] for n in enc.ALL_ENCODERS] == list(range(8))
    assert (enc.N_BASIC, enc.N_RICH, enc.N_ORACLE) == (157, 163, 184)
    assert (enc.N_BASIC3, enc.N_RICH3, enc.N_ORACLE3) == (125, 131, 148)
    assert enc.encoder_for(None, 4) == "basic_v0" and enc.encoder_for(None, 3) == "basic3_v0"
    assert enc.check_encoder("rich3_v0", 3) == "rich3_v0"
    with pytest.raises(ValueError, match="choose from \\['basic3_v0', 'rich3_v0', 'oracle3_v0'\\]"):
        enc.check_encoder("rich_v1", 3)


def test_docs_page_shows_the_tables():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "environment.md").read_text()
    for name, start in {
        "basic3_v0": 0,
        "rich3_v0": enc.N_BASIC3,
        "oracle3_v0": enc.N_RICH3,
    }.items():
        table = enc.table_markdown(name, start)
        assert table in doc, f"docs/environment.md is missing the {name} table:\n{table}"


@pytest.mark.parametrize("name", enc.ENCODERS_3P)
def test_bounds(name):
    low, high = enc.bounds(name)
    assert low.shape == high.shape == (enc.N_ROWS[name], 34)
    assert (low[enc.SCORES3 : enc.SCORES3 + 3] == -2).all()
    assert (high[enc.SCORES3 : enc.SCORES3 + 3] == 2).all()
    assert (low[enc.SCORES3 + 3 :] == 0).all() and (high[: enc.SCORES3] == 1).all()


@pytest.mark.parametrize("name", enc.ENCODERS_3P)
@pytest.mark.parametrize("preset", ["mahjongsoul-3p", "tenhou-3p"])
def test_observations_stay_in_bounds(name, preset):
    e = raw_env(rules=preset, encoder=name, game_length="tonpuusen")
    e.reset(seed=21)
    space = e.observation_space("player_0")
    rng = np.random.default_rng(5)
    while not e.terminations[e.agent_selection]:
        for agent in e.possible_agents:
            assert space.contains(e.observe(agent))
        e.step(_choose(e.action_mask(), rng, kita_first=rng.random() < 0.7))


@pytest.mark.nojit
def test_basic3_rows_match_the_state():
    e = raw_env(rules="mahjongsoul-3p")
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    st = e.state_arrays
    seen_kita = 0
    for _ in range(400):
        if e.terminations[e.agent_selection]:
            break
        e.step(_choose(e.action_mask(), rng))
        if e.terminations[e.agent_selection]:
            break
        agent = e.agent_selection
        seat = int(agent[-1])
        obs = e.observe(agent)["observation"]
        assert np.array_equal(obs[enc.HAND3 : enc.HAND3 + 4].sum(axis=0), st.closed34[0, seat])
        dealer = int(st.kyoku[0]) % 4
        for r in range(3):
            s = (seat + r) % 3
            n = min(int(st.n_river[0, s]), enc.RIVER_SLOTS)
            rows = obs[enc.RIVER3 + 24 * r : enc.RIVER3 + 24 * r + n]
            assert list(rows.argmax(axis=1)) == [int(x) // 4 for x in st.river[0, s, :n]]
            assert obs[enc.SCORES3 + r, 0] == pytest.approx(st.points[0, s] / 100000)
            assert obs[enc.KITA3 + r, 7] == pytest.approx(st.n_kita[0, s] / 4)
            seen_kita += int(st.n_kita[0, s] > 0)
        assert obs[enc.SEAT_WIND3, 27 + (seat - dealer) % 3] == 1
        assert obs[enc.SEAT_WIND3].sum() == 1 and obs[enc.SEAT_WIND3, 30] == 0
        repl = int(st.n_kans[0]) + int(st.n_kita[0].sum())
        left = LIVE_END_3P - repl - int(st.wall_pos[0])
        assert obs[enc.TILES_LEFT3, 5] == pytest.approx(left / 55)
        assert obs[enc.SEAT3, seat] == 1 and obs[enc.SEAT3].sum() == 1
        assert obs[enc.DORA_INDICATORS3, st.wall[0, DORA_START] // 4] >= 0.25
    assert seen_kita > 0


HANDS_3P = ["119m123p456s1234z", "19m11p23457s5566z", "9m258p258s135677z"]


@pytest.mark.nojit
def test_scenario_rows_dora_wrap_and_kita():
    """Indicator 1m makes 9m dora (the four-player 2m is not a tile); a kita shows in the
    kita row of its seat, relative to the observer."""
    game = start_hand(hands=HANDS_3P, draws="4z 9p 1s", dora="1m", rules=MAHJONGSOUL_3P, dealer=0)
    e = raw_env(rules="mahjongsoul-3p", encoder="rich3_v0")
    e.load_state(game.state)
    assert e.agent_selection == "player_0" and e.action_mask()[KITA]
    obs = e.observe("player_0")["observation"]
    assert obs[enc.DORA3, 8] == 0.25 and obs[enc.DORA3].sum() == 0.25
    assert obs[enc.DORA_INDICATORS3, 0] == 0.25
    assert obs[enc.DRAWN3, 30] == 1 and obs[enc.DECISION3, 0] == 1
    assert obs[enc.KYOKU3, 0] == 1 and obs[enc.SEAT_WIND3, 27] == 1
    e.step(KITA)
    while e.agent_selection != "player_0":  # a ron offer on the North: everyone passes
        e.step(80)
    assert e.state_arrays.n_kita[0, 0] == 1
    me = e.observe("player_0")["observation"]
    assert (me[enc.KITA3] == [0.25] * 34).all() and (me[enc.KITA3 + 1 : enc.KITA3 + 3] == 0).all()
    kamicha = e.observe("player_1")["observation"]  # seat 0 sits at r = 2 of seat 1
    assert (kamicha[enc.KITA3 + 2] == 0.25).all() and (kamicha[enc.KITA3] == 0).all()
    assert me[enc.TILES_LEFT3, 0] == pytest.approx((55 - 2) / 55)  # a draw and a replacement
    # rich3_v0: seen counts the North set aside; ukeire never counts 2m-8m
    assert me[enc.N_BASIC3 + enc.SEEN - enc.N_BASIC, 30] == pytest.approx(2 / 4)


def _hidden_slots_3p(st):
    """Wall slots of a three-player hand whose tiles no seat sees (layout: docs/internals.md)."""
    pos, n_dora = int(st.wall_pos[0]), int(st.n_dora[0])
    repl = int(st.n_kans[0]) + int(st.n_kita[0].sum())
    taken_tail = {LIVE_END_3P - 1 - (k - 4) for k in range(4, repl)}
    slots = [i for i in range(pos, LIVE_END_3P) if i not in taken_tail]
    slots += list(range(RINSHAN_START + min(repl, 4), DORA_START))
    slots += list(range(DORA_START + n_dora, URA_START))
    slots += list(range(URA_START, 136))
    return slots


def _scramble_hidden(e, seat, rng):
    """A copy of ``e`` where every tile hidden from ``seat`` is relabelled by a random bijection."""
    f = copy.deepcopy(e)
    st = f.state_arrays
    slots = _hidden_slots_3p(st)
    others = [s for s in range(3) if s != seat]
    pool = [int(st.wall[0, i]) for i in slots]
    hidden = {s: [int(x) for x in np.flatnonzero(st.closed[0, s])] for s in others}
    for s in others:
        pool += hidden[s]
    perm = dict(zip(pool, rng.permutation(pool).tolist(), strict=True))
    for i in slots:
        st.wall[0, i] = perm[int(st.wall[0, i])]
    for s in others:
        for x in hidden[s]:
            st.closed[0, s, x] = 0
            st.closed34[0, s, x // 4] -= 1
        for x in hidden[s]:
            y = perm[x]
            st.closed[0, s, y] = 1
            st.closed34[0, s, y // 4] += 1
        st.waits[0, s] = rng.integers(0, 2, 34)
        st.n_waits[0, s] = rng.integers(0, 5)
        st.furiten_temp[0, s] = rng.integers(0, 2)
        st.furiten_riichi[0, s] = rng.integers(0, 2)
    if int(st.turn[0]) != seat and int(st.drawn[0]) in perm:
        st.drawn[0] = perm[int(st.drawn[0])]
    return f


@pytest.mark.parametrize("name", enc.ENCODERS_3P)
def test_only_the_oracle_sees_other_hands_and_the_wall(name):
    rng = np.random.default_rng(7)
    changed = 0
    for game in range(3):
        e = raw_env(rules="tenhou-3p", encoder=name)
        e.reset(seed=100 + game)
        for _ in range(6):
            for _ in range(int(rng.integers(5, 40))):
                if e.terminations[e.agent_selection]:
                    break
                e.step(_choose(e.action_mask(), rng, kita_first=rng.random() < 0.7))
            if e.terminations[e.agent_selection]:
                break
            for seat, agent in enumerate(e.possible_agents):
                f = _scramble_hidden(e, seat, rng)
                a = e.observe(agent)["observation"]
                b = f.observe(agent)["observation"]
                if enc.HIDDEN_INFORMATION[name]:
                    changed += not np.array_equal(a, b)
                    assert np.array_equal(a[: enc.N_RICH3], b[: enc.N_RICH3])
                else:
                    assert np.array_equal(a, b), f"{name} of seat {seat} leaks hidden tiles"
    if enc.HIDDEN_INFORMATION[name]:
        assert changed > 0


@pytest.mark.nojit
def test_oracle3_rows_match_the_state():
    e = raw_env(rules="mahjongsoul-3p", encoder="oracle3_v0")
    e.reset(seed=9)
    rng = np.random.default_rng(1)
    for _ in range(60):
        e.step(_choose(e.action_mask(), rng))
    agent = e.agent_selection
    seat = int(agent[-1])
    obs = e.observe(agent)["observation"]
    st = e.state_arrays
    for r in (1, 2):
        s = (seat + r) % 3
        rows = obs[enc.HIDDEN_HANDS3 + 4 * (r - 1) : enc.HIDDEN_HANDS3 + 4 * r]
        assert np.array_equal(rows.sum(axis=0), st.closed34[0, s])
    pos = int(st.wall_pos[0])
    end = LIVE_END_3P - int(st.n_kans[0]) - int(st.n_kita[0].sum())
    kinds = np.bincount(st.wall[0, pos:end] // 4, minlength=34)
    assert np.array_equal(obs[enc.WALL_KINDS3 : enc.WALL_KINDS3 + 4].sum(axis=0), kinds)
    assert kinds[1:8].sum() == 0  # no 2m-8m in the live wall
    for j in range(4):
        assert obs[enc.NEXT_DRAWS3 + j, st.wall[0, pos + j] // 4] == 1
