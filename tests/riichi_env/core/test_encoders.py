"""Observation encoders: layout tables, bounds, and that only the oracle sees hidden tiles; the
four-player encoders and the three-seat ones (issue 26: the rows against the state, seat 3 absent,
the kita rows, the 1m -> 9m dora wrap, 55 live draws)."""

import copy
import hashlib

import numpy as np
import pytest

import riichi_env.core.encoders as enc
from engine.state import (
    DORA_START,
    LIVE_END,
    LIVE_END_3P,
    PHASE_GAME_OVER,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RINSHAN_START,
    URA_START,
)
from riichi_env.aec.raw_env import raw_env


@pytest.mark.parametrize("name", [*enc.ENCODERS, *enc.ENCODERS_3P])
def test_row_table_covers_every_row_once(name):
    covered = []
    for first, count, meaning in enc.ROWS[name]:
        assert meaning
        covered.extend(range(first, first + count))
    assert covered == list(range(enc.N_ROWS[name]))
    assert enc.table_markdown(name).count("\n") == len(enc.ROWS[name]) + 1


# per player count: each encoder's table in docs/environment.md, from the row it starts at
DOC_TABLES = {
    4: {
        "basic_v0": 0,
        "rich_v0": enc.N_BASIC,
        "oracle_v0": enc.N_RICH,
        "basic_v1": enc.N_BASIC,
        "rich_v1": enc.DISCARD_UKEIRE,
    },
    3: {
        "basic3_v0": 0,
        "rich3_v0": enc.N_BASIC3,
        "oracle3_v0": enc.N_RICH3,
    },
}


@pytest.mark.parametrize("players", [4, 3])
def test_docs_page_shows_the_tables(players):
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "environment.md").read_text()
    for name, start in DOC_TABLES[players].items():
        table = enc.table_markdown(name, start)
        assert table in doc, f"docs/environment.md is missing the {name} table:\n{table}"


def _play(e, steps, seed):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if e.terminations[e.agent_selection]:
            break
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))


def _choose(mask, rng, kita_first=True):
    """A random legal action; kita first if asked and legal (three players)."""
    from engine.actions import KITA

    if kita_first and mask[KITA]:
        return KITA
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def _random_or_kita(mask, rng):
    """Four players: a random legal action. Three: kita 70 % of the times it is legal."""
    if mask.size == 85:
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(legal.size)])
    return _choose(mask, rng, kita_first=rng.random() < 0.7)


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        *((name, {}) for name in enc.ENCODERS),
        *(
            (name, {"rules": preset})
            for name in enc.ENCODERS_3P
            for preset in ("mahjongsoul-3p", "tenhou-3p")
        ),
    ],
    ids=lambda x: x if isinstance(x, str) else "-".join(x.values()) or "default",
)
def test_observations_stay_in_bounds(name, rules):
    e = raw_env(encoder=name, game_length="tonpuusen", **rules)
    e.reset(seed=21)
    space = e.observation_space("player_0")
    rng = np.random.default_rng(5)
    while not e.terminations[e.agent_selection]:
        for agent in e.possible_agents:
            assert space.contains(e.observe(agent))
        e.step(_random_or_kita(e.action_mask(), rng))


def _assert_rivers_and_scores(obs, st, seat, players, river, scores):
    """Every seat's river rows (from ``river``) and score row (``scores``), relative to ``seat``."""
    for r in range(players):
        s = (seat + r) % players
        n = min(int(st.n_river[0, s]), enc.RIVER_SLOTS)
        rows = obs[river + 24 * r : river + 24 * r + n]
        assert list(rows.argmax(axis=1)) == [int(x) // 4 for x in st.river[0, s, :n]]
        assert obs[scores + r, 0] == pytest.approx(st.points[0, s] / 100000)


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
    _assert_rivers_and_scores(obs, st, seat, 4, enc.RIVER, enc.SCORES)
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

    With ``open_public`` the open riichi hands are seen (the v1 encoders show them). Three
    players have their own wall layout.
    """
    f = copy.deepcopy(e)
    st = f.state_arrays
    players = len(e.possible_agents)
    slots = _hidden_slots(st, seat) if players == 4 else _hidden_slots_3p(st)
    others = [s for s in range(players) if s != seat]
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


@pytest.mark.parametrize(
    ("players", "name"),
    [*((4, name) for name in enc.ENCODERS), *((3, name) for name in enc.ENCODERS_3P)],
)
def test_only_the_oracle_sees_other_hands_and_the_wall(players, name):
    """Random play (riichi rare, never open; three players on tenhou-3p, kita 70 % of the times it
    is legal): relabelling hidden tiles changes no observation."""
    rules = {} if players == 4 else {"rules": "tenhou-3p"}
    public = enc.N_RICH if players == 4 else enc.N_RICH3
    rng = np.random.default_rng(7)
    changed = 0
    for game in range(3):
        e = raw_env(encoder=name, **rules)
        e.reset(seed=100 + game)
        for _ in range(6):
            if players == 4:
                _play(e, int(rng.integers(5, 40)), int(rng.integers(1 << 30)))
            else:
                for _ in range(int(rng.integers(5, 40))):
                    if e.terminations[e.agent_selection]:
                        break
                    e.step(_random_or_kita(e.action_mask(), rng))
            if e.terminations[e.agent_selection]:
                break
            for seat, agent in enumerate(e.possible_agents):
                f = _scramble_hidden(e, seat, rng)
                a = e.observe(agent)["observation"]
                b = f.observe(agent)["observation"]
                if enc.HIDDEN_INFORMATION[name]:
                    changed += not np.array_equal(a, b)
                    assert np.array_equal(a[:public], b[:public])
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
    from engine.harness.scenario import start_hand

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
    from engine.harness.scenario import start_hand

    game = start_hand(hands=SCENARIO_HANDS, draws="7z")
    with pytest.raises(ValueError, match="rules differ"):
        raw_env(rules="tenhou").load_state(game.state)


def test_meld_and_called_discard_rows_after_a_pon():
    from engine.harness.scenario import play, start_hand

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
    from engine.harness.scenario import start_hand
    from engine.rules import MAHJONGSOUL

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


# Three players only


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


@pytest.mark.parametrize("name", enc.ENCODERS_3P)
def test_bounds(name):
    low, high = enc.bounds(name)
    assert low.shape == high.shape == (enc.N_ROWS[name], 34)
    assert (low[enc.SCORES3 : enc.SCORES3 + 3] == -2).all()
    assert (high[enc.SCORES3 : enc.SCORES3 + 3] == 2).all()
    assert (low[enc.SCORES3 + 3 :] == 0).all() and (high[: enc.SCORES3] == 1).all()


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
        _assert_rivers_and_scores(obs, st, seat, 3, enc.RIVER3, enc.SCORES3)
        for r in range(3):
            s = (seat + r) % 3
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
    from engine.actions import KITA
    from engine.harness.scenario import start_hand
    from engine.rules import MAHJONGSOUL_3P

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
