"""Observation encoders: layout tables, bounds, and that only the oracle sees hidden tiles."""

import copy
import hashlib

import numpy as np
import pytest

import riichi_env.core.encoders as enc
from engine.state import (
    DORA_START,
    LIVE_END,
    PHASE_GAME_OVER,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RINSHAN_START,
    URA_START,
)
from riichi_env.aec.raw_env import raw_env


@pytest.mark.parametrize("name", enc.ENCODERS)
def test_row_table_covers_every_row_once(name):
    covered = []
    for first, count, meaning in enc.ROWS[name]:
        assert meaning
        covered.extend(range(first, first + count))
    assert covered == list(range(enc.N_ROWS[name]))
    assert enc.table_markdown(name).count("\n") == len(enc.ROWS[name]) + 1


def test_docs_page_shows_the_tables():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "environment.md").read_text()
    starts = {
        "basic_v0": 0,
        "rich_v0": enc.N_BASIC,
        "oracle_v0": enc.N_RICH,
        "basic_v1": enc.N_BASIC,
        "rich_v1": enc.DISCARD_UKEIRE,
    }
    for name, start in starts.items():
        table = enc.table_markdown(name, start)
        assert table in doc, f"docs/environment.md is missing the {name} table:\n{table}"


def _play(e, steps, seed):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if e.terminations[e.agent_selection]:
            break
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))


@pytest.mark.parametrize("name", enc.ENCODERS)
def test_observations_stay_in_bounds(name):
    e = raw_env(encoder=name, game_length="tonpuusen")
    e.reset(seed=21)
    space = e.observation_space("player_0")
    rng = np.random.default_rng(5)
    while not e.terminations[e.agent_selection]:
        for agent in e.possible_agents:
            assert space.contains(e.observe(agent))
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))


def test_basic_rows_match_the_state():
    e = raw_env()
    e.reset(seed=3)
    _play(e, 30, 0)
    agent = e.agent_selection
    seat = int(agent[-1])
    obs = e.observe(agent)["observation"]
    st = e.state_arrays
    hand = st.closed34[0, seat]
    assert np.array_equal(obs[enc.HAND : enc.HAND + 4].sum(axis=0), hand)
    for r in range(4):
        s = (seat + r) % 4
        n = min(int(st.n_river[0, s]), enc.RIVER_SLOTS)
        rows = obs[enc.RIVER + 24 * r : enc.RIVER + 24 * r + n]
        assert list(rows.argmax(axis=1)) == [int(x) // 4 for x in st.river[0, s, :n]]
        assert obs[enc.SCORES + r, 0] == pytest.approx(st.points[0, s] / 100000)
    assert obs[enc.DORA_INDICATORS, st.wall[0, DORA_START] // 4] == 0.25
    left = LIVE_END - st.n_kans[0] - st.wall_pos[0]
    assert obs[enc.TILES_LEFT, 5] == pytest.approx(left / 70)
    assert obs[enc.SEAT, seat] == 1


def _hidden_slots(st, seat):
    """Wall indices whose tiles ``seat`` cannot see."""
    n_kans, n_dora, pos = int(st.n_kans[0]), int(st.n_dora[0]), int(st.wall_pos[0])
    slots = list(range(pos, LIVE_END))
    slots += list(range(RINSHAN_START + n_kans, DORA_START))
    slots += list(range(DORA_START + n_dora, URA_START))
    slots += list(range(URA_START, 136))
    return slots


def _open_hand_public(st, s):
    """Seat ``s`` is in open riichi and its declaration discard has been made."""
    if not st.riichi[0, s] or not st.open_riichi[0, s] or int(st.phase[0]) == PHASE_GAME_OVER:
        return False
    return not (int(st.phase[0]) == PHASE_RIICHI_DISCARD and int(st.turn[0]) == s)


def _hidden_ids(st, seat, s, open_public):
    """Concealed ids of seat ``s`` that ``seat`` cannot see: all of them, or, for an open riichi
    hand counted as seen, only the tile its owner just drew."""
    held = [int(x) for x in np.flatnonzero(st.closed[0, s])]
    if not (open_public and _open_hand_public(st, s)):
        return held
    drawn = int(st.drawn[0])
    on_turn = int(st.phase[0]) == PHASE_TURN and int(st.turn[0]) == s
    return [drawn] if on_turn and drawn in held else []


def _scramble_hidden(e, seat, rng, open_public=False):
    """A copy of ``e`` where every tile hidden from ``seat`` is relabelled by a random bijection.

    With ``open_public`` the open riichi hands are seen (the v1 encoders show them).
    """
    f = copy.deepcopy(e)
    st = f.state_arrays
    slots = _hidden_slots(st, seat)
    others = [s for s in range(4) if s != seat]
    pool = [int(st.wall[0, i]) for i in slots]
    hidden = {s: _hidden_ids(st, seat, s, open_public) for s in others}
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
        # hidden-derived fields of the other seats get noise too
        st.waits[0, s] = rng.integers(0, 2, 34)
        st.n_waits[0, s] = rng.integers(0, 5)
        st.furiten_temp[0, s] = rng.integers(0, 2)
        st.furiten_riichi[0, s] = rng.integers(0, 2)
    if int(st.turn[0]) != seat and int(st.drawn[0]) in perm:
        st.drawn[0] = perm[int(st.drawn[0])]
    return f


@pytest.mark.parametrize("name", enc.ENCODERS)
def test_only_the_oracle_sees_other_hands_and_the_wall(name):
    """Random play (riichi rare, never open): relabelling hidden tiles changes no observation."""
    rng = np.random.default_rng(7)
    changed = 0
    for game in range(3):
        e = raw_env(encoder=name)
        e.reset(seed=100 + game)
        for _ in range(6):
            _play(e, int(rng.integers(5, 40)), int(rng.integers(1 << 30)))
            if e.terminations[e.agent_selection]:
                break
            for seat, agent in enumerate(e.possible_agents):
                f = _scramble_hidden(e, seat, rng)
                a = e.observe(agent)["observation"]
                b = f.observe(agent)["observation"]
                if enc.HIDDEN_INFORMATION[name]:
                    changed += not np.array_equal(a, b)
                    assert np.array_equal(a[: enc.N_RICH], b[: enc.N_RICH])
                else:
                    assert np.array_equal(a, b), f"{name} of seat {seat} leaks hidden tiles"
    if enc.HIDDEN_INFORMATION[name]:
        assert changed > 0


SCENARIO_HANDS = [
    "12345m456p789s11z",
    "123m456p789s1122z",
    "6678m1259p2468s3z",
    "99m3378p1357s456z",
]


def test_rows_on_a_scenario_hand():
    from engine.scenario import start_hand

    game = start_hand(hands=SCENARIO_HANDS, draws="7z", dora="9p")
    e = raw_env(encoder="rich_v0")
    e.load_state(game.state)
    assert e.agent_selection == "player_0"
    dealer = e.observe("player_0")["observation"]
    assert dealer[enc.DRAWN, 33] == 1 and dealer[enc.DRAWN].sum() == 1
    assert dealer[enc.DECISION, 0] == 1
    assert dealer[enc.SHANTEN, 0] == pytest.approx(1 / 7)  # 14 tiles, one from complete
    assert dealer[enc.DISCARD_SHANTEN, 33] == pytest.approx(1 / 7)  # 7z keeps tenpai
    assert dealer[enc.DISCARD_SHANTEN, 0] == pytest.approx(2 / 7)
    assert dealer[enc.DISCARD_UKEIRE, 33] == pytest.approx(7 / 80)  # three 3m (one held), four 6m
    assert dealer[enc.DORA_INDICATORS, 17] == 0.25 and dealer[enc.DORA, 9] == 0.25
    assert dealer[enc.SEAT_WIND, 27] == 1 and dealer[enc.ROUND_WIND, 27] == 1
    south = e.observe("player_1")["observation"]
    assert list(np.flatnonzero(south[enc.WAITS])) == [27, 28]
    assert south[enc.SHANTEN, 0] == pytest.approx(1 / 7)
    assert south[enc.FURITEN].sum() == 0
    assert south[enc.DRAWN].sum() == 0 and south[enc.DECISION].sum() == 0
    assert south[enc.SEAT_WIND, 28] == 1
    assert south[enc.SEEN, 17] == 0.25  # the 9p indicator; 9p is not in seat 1's hand
    e.step(33)  # the dealer discards 7z; nobody can claim it
    assert e.agent_selection == "player_1"
    south = e.observe("player_1")["observation"]
    assert south[enc.RIVER + 24 * 3, 33] == 1  # the dealer is seat 1's kamicha (r = 3)
    assert south[enc.RIVER_FLAGS + 3 * 3, 0] == 1  # tsumogiri


def test_load_state_needs_the_same_rules():
    from engine.scenario import start_hand

    game = start_hand(hands=SCENARIO_HANDS, draws="7z")
    with pytest.raises(ValueError, match="rules differ"):
        raw_env(rules="tenhou").load_state(game.state)


def test_meld_and_called_discard_rows_after_a_pon():
    from engine.scenario import play, start_hand

    hands = ["1234m456p789s1z33p", "15599m3p123s4567z", "11z2678m2678p268s", "8m1357p13579s223z"]
    game = play(start_hand(hands=hands, draws="9m", dora="9p"), "1z", "pon")
    e = raw_env()
    e.load_state(game.state)
    assert e.agent_selection == "player_2"
    caller = e.observe("player_2")["observation"]
    assert list(caller[enc.MELDS : enc.MELDS + 4, 27]) == [1, 1, 1, 0]
    assert caller[enc.DRAWN].sum() == 0  # a call draws nothing
    assert caller[enc.DECISION, 0] == 1
    assert caller[enc.RIVER + 24 * 2, 27] == 1  # the dealer sits across (r = 2) from seat 2
    dealer = e.observe("player_0")["observation"]
    assert list(dealer[enc.MELDS + 8 : enc.MELDS + 12, 27]) == [1, 1, 1, 0]
    assert dealer[enc.RIVER_FLAGS + 2, 0] == 1  # the dealer's first discard was called
    assert dealer[enc.RIVER_FLAGS, 0] == 0  # 1z was held from the deal, not tsumogiri
    assert dealer[enc.RIVER_KINDS, 27] == 0.25
    text = e.render_text("player_0")
    assert "pon 1z-11z<0" in text and "1z>" in text


V0_DIGESTS = {
    "basic_v0": "b1a22813c4e0d9ce",
    "rich_v0": "003d38aa71897bb3",
    "oracle_v0": "3568796c1b4e1e29",
}
"""sha256 (first 16 hex digits) of every seat's observation over 400 random decisions of a
tonpuusen (seed 5, actions from default_rng(11)), taken before the v1 encoders were added."""


@pytest.mark.parametrize("name", sorted(V0_DIGESTS))
def test_v0_encoders_are_unchanged(name):
    digest = hashlib.sha256()
    e = raw_env(encoder=name, game_length="tonpuusen")
    e.reset(seed=5)
    rng = np.random.default_rng(11)
    for _ in range(400):
        for agent in e.possible_agents:
            digest.update(e.observe(agent)["observation"].tobytes())
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
    assert digest.hexdigest()[:16] == V0_DIGESTS[name]


OPEN_RIICHI_HANDS = ["123m33456p789s5s9m", *SCENARIO_HANDS[1:]]
"""S0 draws 5s and declares open riichi discarding 9m: 123m 33456p 789s 55s, waits 3p / 5s."""
S0_OPEN = "123m33456p55789s"


def _open_riichi_env(encoder, **extra):
    from engine.rules import MAHJONGSOUL
    from engine.scenario import start_hand

    rules = MAHJONGSOUL.replace(open_riichi=True)
    game = start_hand(hands=OPEN_RIICHI_HANDS, draws="5s 7z 1m 6s 2z", dora="1z", rules=rules)
    e = raw_env(encoder=encoder, open_riichi=True, **extra)
    e.load_state(game.state)
    return e


def _open_rows(obs, name, r):
    base = (enc.N_BASIC if name == "basic_v1" else enc.N_RICH) + enc.OPEN_HANDS + 4 * (r - 1)
    return obs[base : base + 4].sum(axis=0).astype(int)


@pytest.mark.parametrize("name", enc.OPEN_HAND_ENCODERS)
def test_v1_shows_the_open_riichi_hand_and_v0_does_not(name):
    from engine.actions import DISCARD, OPEN_RIICHI, PASS
    from engine.tiles import parse_hand34

    e = _open_riichi_env(name)
    v0 = _open_riichi_env(name.replace("v1", "v0"))
    base = enc.N_BASIC if name == "basic_v1" else enc.N_RICH
    for env_ in (e, v0):
        env_.step(OPEN_RIICHI)
    # declared, the declaration discard not made yet: the flag is public, the hand not yet
    other = e.observe("player_1")["observation"]
    assert other[base + enc.OPEN_RIICHI + 3].min() == 1  # seat 0 is seat 1's kamicha (r = 3)
    assert _open_rows(other, name, 3).sum() == 0
    for env_ in (e, v0):
        env_.step(DISCARD + 8)  # 9m
        while env_.agent_selection != "player_1":
            env_.step(PASS)
    hand = parse_hand34(S0_OPEN).astype(int)
    for seat, r in ((1, 3), (2, 2), (3, 1)):
        obs = e.observe(f"player_{seat}")["observation"]
        assert np.array_equal(_open_rows(obs, name, r), hand), f"seat {seat} sees S0's hand"
        assert obs[base + enc.OPEN_RIICHI + r].min() == 1
        old = v0.observe(f"player_{seat}")["observation"]
        assert np.array_equal(obs[: old.shape[0]][: enc.N_BASIC], old[: enc.N_BASIC])
    own = e.observe("player_0")["observation"]
    assert own[base + enc.OPEN_RIICHI].min() == 1 and own[base : base + 12].sum() == 0
    if name == "rich_v1":
        # rows 161-162 count the open hand as seen; rich_v0 does not
        seen = e.observe("player_1")["observation"][enc.SEEN]
        seen_v0 = v0.observe("player_1")["observation"][enc.SEEN]
        assert (seen >= seen_v0).all() and (seen - seen_v0).sum() == pytest.approx(13 / 4)
    # on S0's next turn the tile it just drew stays hidden
    for env_ in (e, v0):
        while env_.agent_selection != "player_0":
            legal = np.flatnonzero(env_.action_mask())
            env_.step(PASS if PASS in legal else int(legal[0]))
    assert e.state_arrays.drawn[0] >= 0 and e.state_arrays.closed34[0, 0].sum() == 14
    assert np.array_equal(_open_rows(e.observe("player_1")["observation"], name, 3), hand)
    text = e.render_text("player_1")
    assert f"open hand of seat 0: {S0_OPEN}" in text and " open double |" in text  # first go
    assert "open hand of seat 0" not in e.render_text("player_0")


@pytest.mark.parametrize("name", ["basic_v0", "rich_v0", *enc.OPEN_HAND_ENCODERS])
def test_open_riichi_hands_are_the_only_extra_tiles_v1_sees(name):
    """After an open riichi: relabelling the tiles hidden from a seat (the open hand counted as
    seen for v1, as hidden for v0) changes no observation."""
    from engine.actions import DISCARD, OPEN_RIICHI

    rng = np.random.default_rng(3)
    e = _open_riichi_env(name)
    e.step(OPEN_RIICHI)
    e.step(DISCARD + 8)
    checked = 0
    for _ in range(12):
        if e.terminations[e.agent_selection]:
            break
        for seat, agent in enumerate(e.possible_agents):
            f = _scramble_hidden(e, seat, rng, open_public=name in enc.OPEN_HAND_ENCODERS)
            a = e.observe(agent)["observation"]
            b = f.observe(agent)["observation"]
            assert np.array_equal(a, b), f"{name} of seat {seat} leaks hidden tiles"
            checked += 1
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
    assert checked >= 24


@pytest.mark.parametrize("name", enc.ENCODERS)
def test_each_encoders_own_kernel_writes_what_encode_writes(name):
    """The env observes through ``ENCODE_KERNELS[id]``; the vector env through ``_encode``."""
    e = raw_env(encoder=name, game_length="tonpuusen")
    e.reset(seed=5)
    i = enc.ENCODER_IDS[name]
    for _ in range(6):
        _play(e, 9, seed=i)
        for seat, agent in enumerate(e.possible_agents):
            mine = np.full((enc.N_ROWS[name], 34), -7.0, dtype=np.float32)
            shared = mine.copy()
            enc.ENCODE_KERNELS[i](e._rec, 0, seat, e._suit, e._honor, mine)
            enc._encode(e._rec, 0, seat, i, e._suit, e._honor, shared)
            np.testing.assert_array_equal(mine, shared)
            np.testing.assert_array_equal(e.observe(agent)["observation"], shared)
