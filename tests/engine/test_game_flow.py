"""Game flow: deal and wall layout, draws and discards, the facade's errors, hand and game end."""

import pickle

import numpy as np
import pytest

from engine.actions import DISCARD_RED, KYUUSHU, N_ACTIONS, PASS, RIICHI, TSUMO
from engine.events import (
    EV_DEAL,
    EV_DISCARD,
    EV_DORA,
    EV_DRAW,
    EV_HAND_START,
    EV_RIICHI_ACCEPTED,
    EV_RYUUKYOKU,
    event_rows,
    render,
    unpack_tiles,
    wall_from_events,
)
from engine.game import Game
from engine.harness.invariants import validate
from engine.harness.scenario import build_wall, play, start_hand
from engine.rules import MAHJONGSOUL
from engine.state import (
    DORA_START,
    LIVE_END,
    LIVE_START,
    copy_state,
)
from engine.tiles import tiles136_to_str

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)

NOTEN = ["159m159p159s1234z", "268m268p268s5677z", "3447m347p37s5566z", "48m48p48s1234567z"]


def _drawn_action(g: Game) -> int:
    d = int(g.state.drawn[0])
    k = d // 4
    if d in (16, 52, 88):
        return DISCARD_RED + k // 9
    return k


def tsumogiri_to_end_of_hand(g: Game) -> None:
    """Every seat passes every claim and discards the tile it drew, until the hand ends."""
    hand = int(g.state.hand_index[0])
    while not g.done and int(g.state.hand_index[0]) == hand:
        if g.phase == "claim":
            g.step(PASS)
        else:
            g.step(_drawn_action(g))
        validate(g.state)


def test_deal_follows_the_wall_layout():
    g = Game(seed=3)
    st = g.state
    wall = st.wall[0]
    assert sorted(wall.tolist()) == list(range(136))
    for i in range(4):
        seat = i  # East 1: dealer is seat 0
        want = set(wall[13 * i : 13 * i + 13].tolist())
        held = set(np.flatnonzero(st.closed[0, seat]).tolist())
        if seat == 0:
            assert held == want | {int(wall[LIVE_START])}
        else:
            assert held == want
    assert int(st.drawn[0]) == int(wall[LIVE_START])
    assert int(st.wall_pos[0]) == LIVE_START + 1
    assert LIVE_END - LIVE_START == 70
    rows = event_rows(st)
    dora = [r for r in rows if r[0] == EV_DORA]
    assert len(dora) == 1 and dora[0][2] == wall[DORA_START]
    deals = [r for r in rows if r[0] == EV_DEAL]
    assert [int(r[1]) for r in deals] == [0, 1, 2, 3]
    assert sorted(unpack_tiles(deals[1][2:6])) == sorted(wall[13:26].tolist())
    assert np.array_equal(wall_from_events(rows, 0), wall)
    validate(st)


def test_same_seed_same_wall_different_hand_different_wall():
    a, b = Game(seed=11), Game(seed=11)
    assert np.array_equal(a.state.wall, b.state.wall)
    c = Game(seed=12)
    assert not np.array_equal(a.state.wall, c.state.wall)


def test_scenario_wall_places_hands_draws_and_dead_wall():
    wall = build_wall(NOTEN, draws="1m2m?3m", dora="3z", ura="4z", rinshan="9m", dealer=1)
    assert tiles136_to_str(wall[0:13]) == "268m268p268s5677z"  # dealer seat 1 first
    assert tiles136_to_str(wall[39:52]) == "159m159p159s1234z"  # seat 0 last
    assert [int(x) // 4 for x in wall[52:54]] == [0, 1]
    assert int(wall[55]) // 4 == 2
    assert int(wall[126]) // 4 == 29 and int(wall[131]) // 4 == 30 and int(wall[122]) // 4 == 8
    assert sorted(wall.tolist()) == list(range(136))


def test_scenario_rejects_bad_input_in_mpsz():
    with pytest.raises(ValueError, match="hand of seat 2 must have 13 tiles"):
        build_wall(["123m456p789s1234z", NOTEN[1], "123m", NOTEN[3]])
    with pytest.raises(ValueError, match="more than four 1m"):
        build_wall(NOTEN, draws="1111m")
    with pytest.raises(ValueError, match="no red 5m left"):
        build_wall(NOTEN, draws="00m")


def test_tsumogiri_and_discard_events():
    g = start_hand(hands=NOTEN, draws="9m1z")
    play(g, "9m")  # seat 0 discards the 9m it drew
    rows = event_rows(g.state)
    disc = [r for r in rows if r[0] == EV_DISCARD][0]
    assert disc[1] == 0 and int(disc[2]) // 4 == 8 and disc[3] == 1
    assert int(g.state.actor[0]) == 1 and g.phase == "turn"
    assert int(g.state.drawn[0]) // 4 == 27


def test_illegal_action_names_seat_action_and_reason():
    g = start_hand(hands=NOTEN, draws="9m1z")
    with pytest.raises(ValueError, match=r"seat 0 cannot discard 7m: no 7m in hand"):
        g.step(6)
    with pytest.raises(ValueError, match=r"seat 0 cannot pon: there is no tile to claim"):
        g.step(44)
    with pytest.raises(ValueError, match=r"seat 0 cannot tsumo"):
        g.step(TSUMO)
    with pytest.raises(ValueError, match=f"action must be 0-{N_ACTIONS - 1}"):
        g.step(N_ACTIONS)
    with pytest.raises(TypeError, match="action must be an int"):
        g.step("5m")


def test_exhaustive_draw_pays_formal_tenpai():
    hands = ["123m456p789s1122z", NOTEN[1], NOTEN[2], NOTEN[3]]
    g = start_hand(hands=hands, seed=4)
    assert int(g.state.n_waits[0, 0]) == 2
    tsumogiri_to_end_of_hand(g)
    rows = event_rows(g.state)
    ryuu = [r for r in rows if r[0] == EV_RYUUKYOKU][0]
    assert ryuu[2] == 0 and ryuu[3] == 0b0001
    assert g.points == [28000, 24000, 24000, 24000]
    # dealer tenpai: renchan with one honba
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1


def test_exhaustive_draw_nobody_tenpai_passes_the_deal():
    g = start_hand(hands=NOTEN, seed=4)
    tsumogiri_to_end_of_hand(g)
    assert g.points == [25000] * 4
    assert int(g.state.kyoku[0]) == 1 and int(g.state.honba[0]) == 1


def test_kyuushu_kyuuhai_aborts_and_keeps_the_dealer():
    g = start_hand(hands=NOTEN, draws="9m")  # seat 0: 1m9m1p9p1s9s1234z = 10 kinds
    assert g.legal_mask()[KYUUSHU]
    play(g, "kyuushu")
    rows = event_rows(g.state)
    assert any(r[0] == EV_RYUUKYOKU and r[2] == 2 and r[1] == 0 for r in rows)
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1
    assert g.points == [25000] * 4


def test_kyuushu_not_after_a_call_or_on_a_later_turn():
    g = start_hand(hands=NOTEN, draws="9m2m")
    play(g, "9m")
    assert not g.legal_mask()[KYUUSHU]


def test_double_riichi_stick_is_paid_when_the_discard_passes():
    hands = ["123m456p789s1122z", NOTEN[1], NOTEN[2], NOTEN[3]]
    g = start_hand(hands=hands, draws="9m")
    assert g.legal_mask()[RIICHI]
    play(g, "riichi")
    assert g.phase == "riichi discard"
    mask = g.legal_mask()
    assert mask[8] and not mask[27]  # 9m keeps tenpai, 1z does not
    play(g, "9m")
    assert int(g.state.riichi[0, 0]) == 2
    assert g.points[0] == 24000 and int(g.state.kyotaku[0]) == 1
    assert any(r[0] == EV_RIICHI_ACCEPTED for r in event_rows(g.state))
    validate(g.state)


def test_state_copies_and_pickles():
    g = Game(seed=5)
    s2 = copy_state(g.state)
    s3 = pickle.loads(pickle.dumps(g.state))
    for a, b, c in zip(g.state, s2, s3, strict=False):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    g.step(g.legal_actions()[0])
    assert not np.array_equal(g.state.n_decisions, s2.n_decisions)


def test_render_reads_in_mpsz():
    g = start_hand(hands=NOTEN, draws="9m1z")
    play(g, "9m")
    lines = render(event_rows(g.state), MAHJONGSOUL.red_fives)
    assert any("S0 dealt 159m159p159s1234z" in line for line in lines)
    assert any("S0 discards 9m tsumogiri" in line for line in lines)
    assert any(line.startswith("hand 1: East 1") for line in lines)
    assert [r[0] for r in event_rows(g.state)].count(EV_HAND_START) == 1
    assert EV_DRAW in [r[0] for r in event_rows(g.state)]


@pytest.mark.nojit
def test_small_scenario_without_jit():
    g = start_hand(hands=NOTEN, draws="9m1z")
    play(g, "9m")
    validate(g.state)
    # nobody can claim the 9m: seat 1 draws the 1z
    assert g.phase == "turn" and g.actor == 1
    assert tiles136_to_str([int(g.state.drawn[0])]) == "1z"


@pytest.mark.nojit
def test_wall_shuffle_is_fixed_by_seed_and_hand_with_or_without_jit():
    from engine.wall import _shuffle_wall

    wall = np.empty(136, dtype=np.int32)
    _shuffle_wall(wall, np.int64(123456789), 3)
    assert wall[:12].tolist() == [82, 96, 107, 7, 87, 86, 54, 41, 20, 129, 29, 12]
    assert sorted(wall.tolist()) == list(range(136))


def test_every_unmasked_action_is_refused_with_a_message_naming_seat_and_action():
    from engine.actions import action_name

    g = Game(seed=21)
    rng = np.random.default_rng(0)
    for _ in range(400):
        if g.done:
            break
        mask = g.legal_mask()
        seat = g.actor
        for a in rng.choice(np.flatnonzero(~mask), size=6, replace=False):
            with pytest.raises(ValueError) as info:
                g.step(int(a))
            text = str(info.value)
            assert f"seat {seat} cannot {action_name(int(a))}" in text, text
            assert g.explain(int(a)) == text
        assert all(g.explain(int(a)) == "" for a in np.flatnonzero(mask))
        g.step(int(rng.choice(np.flatnonzero(mask))))
        validate(g.state)


@pytest.mark.parametrize(
    "corrupt, message",
    [
        (lambda st: st.points.__setitem__((0, 1), 26000), "points plus riichi sticks"),
        (
            lambda st: st.closed.__setitem__((0, 1, int(st.wall[0, 60])), 1),
            "closed34 does not match",
        ),
        (lambda st: st.wall.__setitem__((0, 100), st.wall[0, 101]), "not in exactly one place"),
        (lambda st: st.n_dora.__setitem__(0, 2), "dora indicators"),
        (lambda st: st.phase.__setitem__(0, 7), "phase"),
        (lambda st: st.n_waits.__setitem__((0, 2), 3), "n_waits"),
        (lambda st: st.kyotaku.__setitem__(0, -1), "points plus riichi sticks"),
    ],
)
def test_validate_names_a_broken_invariant(corrupt, message):
    g = Game(seed=8)
    validate(g.state)
    corrupt(g.state)
    with pytest.raises(ValueError, match=message):
        validate(g.state)
