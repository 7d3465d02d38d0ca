"""Scenario tests for furiten.

Rules (Mahjong Soul rules "Furiten", docs/rules.md "Furiten"): permanent furiten when a wait is among your own
discards (called-away ones included); temporary furiten when you pass a winning tile, even one with
no yaku, cleared by your next discard; riichi furiten when you pass a winning tile after riichi,
for the rest of the hand. Furiten blocks ron only: tsumo stays legal.

S1 is the test seat; the others hold ``PINLESS`` hands, so every pin tile is free for S1.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    PINLESS,
    A,
    act,
    assert_legal,
    assert_not_legal,
    describe,
    pass_claims,
    start_hand,
    t34,
    tsumogiri,
    tsumogiri_each,
)

from engine.shanten import waits

TANYAO_36P = "234m678s234p45p88s"
"""Pinfu tanyao, waiting 3p-6p."""


def s1_table(hand1: str, draws: str, seat2: str | None = None, **kwargs):
    hands = [PINLESS[0], hand1, seat2 or PINLESS[1], PINLESS[2]]
    return start_hand(hands=hands, draws=draws, dora="9s", **kwargs)


def test_waits_of_the_test_hand():
    assert waits(TANYAO_36P) == [t34("3p"), t34("6p")]


def test_not_furiten_control_ron_offered():
    g = s1_table(TANYAO_36P, "1z 9m 6p")
    tsumogiri_each(g, (0, 1, 2))
    assert_legal(g, 1, A.RON, "(S1 waits 3p-6p, not furiten; S2 discarded 6p)")


@pytest.mark.nojit
def test_permanent_furiten_blocks_ron_on_every_wait_but_not_tsumo():
    """S1 discards its own wait 3p: furiten on 3p and 6p; S2's 6p is not offered; tsumo 6p is."""
    g = s1_table(TANYAO_36P, "1z 3p 6p 3z 2z 6p")
    tsumogiri_each(g, (0, 1, 2))
    assert g.actor == 3 and g.phase == "turn", describe(
        g, "S1 has 3p in its river (permanent furiten): it must not be asked about S2's 6p"
    )
    tsumogiri_each(g, (3, 0))
    assert g.actor == 1, describe(g)
    assert_legal(g, 1, A.TSUMO, "(furiten blocks ron only)")


def test_permanent_furiten_counts_called_away_discards():
    """S1's 3p is ponned by S2 (gone from S1's river view) yet still makes S1 furiten."""
    g = s1_table(TANYAO_36P, "1z 3p 6p", seat2="258m258s33p12345z")
    tsumogiri_each(g, (0, 1))
    act(g, 2, A.PON)
    act(g, 2, A.DISCARD + t34("1z"))
    tsumogiri(g, 3)
    assert g.actor == 0 and g.phase == "turn", describe(
        g, "S1's called-away 3p still makes it furiten: no ron on S3's 6p"
    )


def test_temporary_furiten_after_a_pass_cleared_by_own_discard():
    g = s1_table(TANYAO_36P, "1z 2z 3p 6p 6p 3z 6p")
    tsumogiri_each(g, (0, 1, 2))
    act(g, 1, A.PASS, "(S1 declines ron on S2's 3p)")
    assert int(g.state.furiten_temp[0, 1]) == 1, describe(g, "passing a winning tile: temp furiten")
    tsumogiri(g, 3)
    assert g.actor == 0 and g.phase == "turn", describe(
        g, "S1 is in temporary furiten: no ron on S3's 6p"
    )
    tsumogiri(g, 0)
    assert_not_legal(g, 1, A.RON, "(S1 is still in temporary furiten: no ron on S0's 6p)")
    pass_claims(g)
    tsumogiri(g, 1)
    assert int(g.state.furiten_temp[0, 1]) == 0, describe(g, "own discard clears temp furiten")
    tsumogiri(g, 2)
    assert_legal(g, 1, A.RON, "(temporary furiten cleared by S1's discard)")


NO_YAKU_ON_1P = "234m567p888p23p55s"
"""Waits 1p (no yaku: no tanyao, not pinfu) and 4p (tanyao)."""


def test_passing_a_winning_tile_without_yaku_makes_temporary_furiten():
    assert waits(NO_YAKU_ON_1P) == [t34("1p"), t34("4p")]
    g = s1_table(NO_YAKU_ON_1P, "1z 2z 1p 4p")
    tsumogiri_each(g, (0, 1, 2))
    assert g.actor == 3 and g.phase == "turn", describe(g, "1p completes S1 without a yaku: no ron")
    tsumogiri(g, 3)
    assert g.actor == 0 and g.phase == "turn", describe(
        g, "S1 let 1p (a winning tile, no yaku) pass: temporary furiten, no ron on S3's 4p"
    )


def test_control_no_yaku_wait_not_passed_ron_on_the_yaku_wait():
    g = s1_table(NO_YAKU_ON_1P, "1z 2z 3z 4p")
    tsumogiri_each(g, (0, 1, 2, 3))
    assert_legal(g, 1, A.RON, "(4p gives tanyao; S1 passed no winning tile)")


def test_riichi_furiten_lasts_the_hand_tsumo_still_allowed():
    g = s1_table(TANYAO_36P, "1z 2z 3p 9m 9s 1s 6p 9m 9s 6p")
    tsumogiri(g, 0)
    act(g, 1, A.RIICHI)
    act(g, 1, A.DISCARD + t34("2z"))
    tsumogiri(g, 2)
    act(g, 1, A.PASS, "(S1 in riichi declines ron on 3p)")
    assert int(g.state.furiten_riichi[0, 1]) == 1, describe(g)
    tsumogiri_each(g, (3, 0, 1, 2))
    assert g.actor == 3 and g.phase == "turn", describe(
        g, "riichi furiten is not cleared by S1's own discard: no ron on S2's 6p"
    )
    tsumogiri_each(g, (3, 0))
    assert_legal(g, 1, A.TSUMO, "(riichi furiten blocks ron only)")
    act(g, 1, A.TSUMO)
    assert g.state.last_delta[0, 1] > 0, describe(g)
