"""``validate`` checks the rule facts derived from the tiles, not only the bookkeeping.

Each test builds a legal state with a scenario, checks that it validates, breaks one fact and
expects ``validate`` to name it: a riichi hand is tenpai, the stored waits are the hand's waits,
the discarded kinds match the river, the temporary and riichi furiten flags match the tiles passed
(replayed from the event log), the claim masks match the hands and the asked seats.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenario_helpers import (
    PINLESS,
    QUIET,
    A,
    act,
    discard,
    pass_claims,
    start_hand,
    t34,
    tsumogiri,
    tsumogiri_each,
)

from engine.game import Game
from engine.harness.invariants import validate
from engine.rules import RULE_KARATEN_MELDS
from engine.shanten import shanten
from engine.state import CLAIM_BIT_CHI_MID, CLAIM_BIT_PON, CLAIM_BIT_RON, LIVE_END

pytestmark = pytest.mark.nojit  # also run without JIT (tests/test_nojit.py)

TANYAO_36P = "234m678s234p45p88s"
"""Pinfu tanyao, waiting 3p-6p."""
KAKAN_HANDS = ["147m147s123456z7p", "77p258m258s12345z", "56p234m567m234s88s", PINLESS[2]]
"""S0 holds 7p; S1 may pon it, S2 may ron it (tanyao 4p-7p)."""


def _swap_with_wall(g: Game, seat: int, held_kind: int) -> None:
    """Exchange one held tile of ``held_kind`` with the first live-wall honor the seat lacks."""
    st = g.state
    held = next(x for x in np.flatnonzero(st.closed[0, seat]) if x // 4 == held_kind)
    for i in range(int(st.wall_pos[0]), LIVE_END - int(st.n_kans[0])):
        new = int(st.wall[0, i])
        if new // 4 >= 27 and st.closed34[0, seat, new // 4] == 0:
            break
    st.wall[0, i] = held
    st.closed[0, seat, held] = 0
    st.closed34[0, seat, held_kind] -= 1
    st.closed[0, seat, new] = 1
    st.closed34[0, seat, new // 4] += 1


def _riichi_game() -> Game:
    """S0 in riichi on 123m 33456p 789s 55s (waits 3p / 5s); S1 to draw."""
    hands = ["123m33456p789s5s9m", *QUIET]
    g = start_hand(hands=hands, draws="5s", dora="1z")
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    pass_claims(g)
    validate(g.state)
    return g


def _s1_table(hand1: str, draws: str) -> Game:
    return start_hand(hands=[PINLESS[0], hand1, PINLESS[1], PINLESS[2]], draws=draws, dora="9s")


def test_a_riichi_hand_must_be_tenpai():
    g = _riichi_game()
    _swap_with_wall(g, 0, t34("1m"))
    assert shanten(g.hand(0)) > 0
    with pytest.raises(ValueError, match=r"a riichi hand is not tenpai \(seat 0\)"):
        validate(g.state)


def test_a_riichi_hand_must_be_tenpai_as_the_draw_counts_it():
    """A riichi hand waiting on 3p beside its own ankan of 3p is tenpai by default; the same
    table read with ``karaten_melds`` (the four 3p counted dead) holds a riichi hand in karaten."""
    others = ["258m147p147s2346z", "368m258p268s2467z", "247m469p379s3567z"]
    g = start_hand(hands=["3333p12p456m789m5s", *others], draws="5s", rinshan="1z", dora="9p")
    act(g, 0, A.KAN + t34("3p"))
    pass_claims(g)
    act(g, 0, A.RIICHI)
    discard(g, 0, "1z")
    pass_claims(g)
    validate(g.state)
    g.state.rules[0, RULE_KARATEN_MELDS] = 1
    with pytest.raises(ValueError, match=r"a riichi hand is not tenpai \(seat 0\)"):
        validate(g.state)


def test_stored_waits_must_be_the_waits_of_the_hand():
    g = _s1_table(TANYAO_36P, "1z")
    validate(g.state)
    st = g.state
    st.waits[0, 1, t34("3p")] = 0
    st.n_waits[0, 1] -= 1
    with pytest.raises(ValueError, match=r"stored waits differ .* \(seat 1\) \(kind 3p\)"):
        validate(st)
    st.waits[0, 1, t34("3p")] = 1
    st.waits[0, 1, t34("9m")] = 1
    st.n_waits[0, 1] += 2
    with pytest.raises(ValueError, match=r"stored waits differ .* \(seat 1\) \(kind 9m\)"):
        validate(st)


def test_discarded_kinds_must_match_the_river():
    g = _s1_table(TANYAO_36P, "1z 2z")
    tsumogiri(g, 0)
    validate(g.state)
    g.state.discarded34[0, 0, t34("5z")] = 1
    with pytest.raises(ValueError, match=r"discarded34 does not match the river \(seat 0\)"):
        validate(g.state)


def _fresh_state_with(flag: str, seat: int):
    """A new game's state with ``flag[0, seat]`` set, though the seat has passed no tile."""
    fresh = Game(seed=8)
    getattr(fresh.state, flag)[0, seat] = 1
    return fresh.state


def test_temporary_furiten_flag_must_match_the_passed_tiles():
    g = _s1_table(TANYAO_36P, "1z 2z 3p 6p 6p 3z 6p")
    tsumogiri_each(g, (0, 1, 2))
    act(g, 1, A.PASS, "(S1 declines ron on S2's 3p)")
    validate(g.state)
    assert int(g.state.furiten_temp[0, 1]) == 1
    g.state.furiten_temp[0, 1] = 0
    with pytest.raises(ValueError, match=r"temporary furiten flag .* \(seat 1\)"):
        validate(g.state)
    fresh = _fresh_state_with("furiten_temp", 2)
    with pytest.raises(ValueError, match=r"temporary furiten flag .* \(seat 2\)"):
        validate(fresh)


def test_riichi_furiten_flag_must_match_the_passes_after_riichi():
    g = _s1_table(TANYAO_36P, "1z 2z 3p 9m 9s 1s")
    tsumogiri(g, 0)
    act(g, 1, A.RIICHI)
    discard(g, 1, "2z")
    tsumogiri(g, 2)
    act(g, 1, A.PASS, "(S1 in riichi declines ron on 3p)")
    tsumogiri_each(g, (3, 0))
    tsumogiri(g, 1)  # clears the temporary flag, not the riichi one
    validate(g.state)
    assert int(g.state.furiten_riichi[0, 1]) == 1 and int(g.state.furiten_temp[0, 1]) == 0
    g.state.furiten_riichi[0, 1] = 0
    with pytest.raises(ValueError, match=r"riichi furiten flag .* \(seat 1\)"):
        validate(g.state)
    fresh = _fresh_state_with("furiten_riichi", 3)
    with pytest.raises(ValueError, match=r"riichi furiten flag .* \(seat 3\)"):
        validate(fresh)


ANKAN_HANDS = ["258m258p258s1234z", "111m47m47p47s1567z", "99m19p19s1234567z", "369m369p369s2347z"]
"""S1 ankans the drawn 4th 1m; S2 is kokushi tenpai on 1m."""


def test_passing_a_robbable_closed_kan_is_temporary_furiten():
    """S2 (kokushi on 1m) passes S1's ankan: furiten until its discard, also while it holds the
    tile it drew next (the replay reads its hand as it was at the kan)."""
    g = start_hand(hands=ANKAN_HANDS, draws="5p 1m 2s", rinshan="9p", dora="8p")
    tsumogiri(g, 0)
    act(g, 1, A.KAN + t34("1m"))
    act(g, 2, A.PASS, "(S2 may rob the closed kan: kokushi)")
    tsumogiri(g, 1)
    assert g.phase == "turn" and g.actor == 2 and int(g.state.furiten_temp[0, 2]) == 1
    validate(g.state)
    g.state.furiten_temp[0, 2] = 0
    with pytest.raises(ValueError, match=r"temporary furiten flag .* \(seat 2\)"):
        validate(g.state)


def _claim_on_7p() -> Game:
    """S0 discards 7p: S1 is asked (pon), then S2 (ron)."""
    g = start_hand(hands=KAKAN_HANDS, draws="9p", dora="6z")
    discard(g, 0, "7p")
    st = g.state
    assert g.phase == "claim" and [int(x) for x in st.claim_queue[0, :2]] == [1, 2]
    assert int(st.claim_mask[0, 1]) == CLAIM_BIT_PON and int(st.claim_mask[0, 2]) == CLAIM_BIT_RON
    validate(st)
    return g


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (
            lambda st: st.claim_mask.__setitem__((0, 2), CLAIM_BIT_RON | CLAIM_BIT_CHI_MID),
            r"offers a call the hand cannot make \(seat 2\)",  # chi from a seat not on the left
        ),
        (
            lambda st: st.claim_mask.__setitem__((0, 1), CLAIM_BIT_PON | CLAIM_BIT_RON),
            r"offers a call the hand cannot make \(seat 1\)",  # ron without the wait
        ),
        (
            lambda st: st.claim_mask.__setitem__((0, 3), CLAIM_BIT_PON),
            r"offers a call the hand cannot make \(seat 3\)",  # pon without a pair
        ),
        (
            lambda st: st.claim_queue.__setitem__((0, slice(0, 2)), [2, 1]),
            r"seats asked about a claim .* \(seat 1\)",
        ),
        (
            lambda st: st.claim_n.__setitem__(0, 1),
            r"seats asked about a claim",
        ),
    ],
)
def test_claim_masks_must_match_the_hands(corrupt, message):
    g = _claim_on_7p()
    corrupt(g.state)
    with pytest.raises(ValueError, match=message):
        validate(g.state)


def test_a_claim_the_hand_can_make_must_be_in_its_mask():
    g = _claim_on_7p()
    act(g, 1, A.PASS)  # S1 declines its pon; S2 is asked about the ron
    validate(g.state)
    g.state.claim_mask[0, 1] = 0
    with pytest.raises(ValueError, match=r"lacks a pon, daiminkan or chi .* \(seat 1\)"):
        validate(g.state)


def test_validate_refuses_a_bad_table_index():
    g = Game(seed=1)
    with pytest.raises(ValueError, match="table index t must be an int 0-0"):
        validate(g.state, 1)
