"""Scenario tests for karaten: tenpai at an exhaustive draw and for riichi.

Rule (docs/rules.md, Draws, "Tenpai at an exhaustive draw"): tenpai at an exhaustive draw is
formal, except a hand whose every wait is a kind of which all four copies are among the seat's own
*concealed* tiles (123456789m5555p waits only on a fifth 5p: noten). Copies in the seat's own
melds (pon, daiminkan, kakan, ankan) do not make a wait dead: 789m123p8s with pons of 999s and
888s is tenpai on 8s. Riichi uses the same definition (``engine.seats._is_tenpai``). The rule
option ``karaten_melds`` (off in both presets) counts the melds' copies too.

In the meld cases S1 ends the hand waiting only on 8s while its own melds and concealed tiles hold
all four 8s, and S3 (``TB``) is tenpai on 3z-4z: by default S1 and S3 are both tenpai (1,500 each
way); with ``karaten_melds`` S1 is noten and S3 takes 3,000 from the three noten seats.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    A,
    act,
    assert_legal,
    assert_not_legal,
    describe,
    discard,
    discard_id,
    hand_deltas,
    last_draw_kind,
    pass_claims,
    play_out,
    ryuukyoku_row,
    start_hand,
    t34,
    tsumogiri,
)

from engine.events import DRAW_EXHAUSTIVE
from engine.rules import MAHJONGSOUL, TENHOU
from engine.shanten import waits

pytestmark = pytest.mark.nojit  # cheap without JIT too: the rule can be stepped through

S0 = "147m258p369s1357z"  # discards 9s; far from tenpai
S2_WITH_8S = "258m369p1478s246z"  # discards the fourth 8s
S2_PLAIN = "258m369p147s2467z"
TB = "123p456p789p33z44z"  # S3: tenpai on 3z-4z
PON_HAND = "789m123p88899s12z"  # pons 9s and 8s: 789m123p8s + pon 999s + pon 888s
KAN_HAND = "789m123p11p79s888s"  # kans 8s: 789m123p11p79s + kan 8888s (kanchan 8s only)


def _claim(g, seat: int, action: int) -> None:
    """Pass every other asked seat until ``seat`` is asked, then take ``action``."""
    while g.phase == "claim" and g.actor != seat:
        act(g, g.actor, A.PASS)
    act(g, seat, action)


def _until_s2_discards_8s(g, dealer_is_karaten: bool) -> None:
    """S0 (unless S1 deals) and S1 tsumogiri, claims passed; then S2 discards 8s."""
    if not dealer_is_karaten:
        tsumogiri(g, 0)
        pass_claims(g)
    tsumogiri(g, 1)
    pass_claims(g)
    discard(g, 2, "8s")


def _build(kind: str, dealer_is_karaten: bool, rules=MAHJONGSOUL):
    """Play S1 into the karaten shape; return the game at S1's last discard decision."""
    kyoku = 1 if dealer_is_karaten else 0
    if kind == "pon":
        g = start_hand(
            hands=[S0, PON_HAND, S2_WITH_8S, TB], kyoku=kyoku, dora="9p", seed=21, rules=rules
        )
        if dealer_is_karaten:  # S1 deals: 9s comes from S0 at the end of the first go-around
            _until_s2_discards_8s(g, dealer_is_karaten)
            _claim(g, 1, A.PON)
            discard(g, 1, "1z")
            for seat in (2, 3):  # play resumes after the caller
                pass_claims(g)
                tsumogiri(g, seat)
            pass_claims(g)
            discard(g, 0, "9s")
            _claim(g, 1, A.PON)
            discard(g, 1, "2z")
        else:
            discard(g, 0, "9s")
            _claim(g, 1, A.PON)
            discard(g, 1, "1z")
            pass_claims(g)
            discard(g, 2, "8s")
            _claim(g, 1, A.PON)
            discard(g, 1, "2z")
    elif kind == "daiminkan":
        g = start_hand(
            hands=[S0, KAN_HAND, S2_WITH_8S, TB], kyoku=kyoku, dora="9p", seed=22, rules=rules
        )
        _until_s2_discards_8s(g, dealer_is_karaten)
        _claim(g, 1, A.KAN + t34("8s"))
        tsumogiri(g, 1)  # the replacement tile
    elif kind == "ankan":
        draws = "8s" if dealer_is_karaten else "? 8s"
        g = start_hand(
            hands=[S0, KAN_HAND, S2_PLAIN, TB],
            kyoku=kyoku,
            draws=draws,
            dora="9p",
            seed=23,
            rules=rules,
        )
        if not dealer_is_karaten:
            tsumogiri(g, 0)
            pass_claims(g)
        act(g, 1, A.KAN + t34("8s"))
        pass_claims(g)
        tsumogiri(g, 1)  # the replacement tile
    elif kind == "kakan":
        # S1 pons the third 8s from S2, later draws the fourth and adds it.
        hand = "789m123p11p79s88s1z"
        draws = "? ? ? ? ? 8s" if dealer_is_karaten else "? ? ? ? ? ? 8s"
        g = start_hand(
            hands=[S0, hand, S2_WITH_8S, TB], kyoku=kyoku, draws=draws, dora="9p", rules=rules
        )
        _until_s2_discards_8s(g, dealer_is_karaten)
        _claim(g, 1, A.PON)
        discard(g, 1, "1z")
        pass_claims(g)
        while not (g.phase == "turn" and g.actor == 1):
            tsumogiri(g)
            pass_claims(g)
        assert int(g.state.drawn[0]) // 4 == t34("8s"), describe(g, "S1 should draw the 4th 8s")
        act(g, 1, A.KAN + t34("8s"))
        pass_claims(g)  # nobody can rob it
        tsumogiri(g, 1)
    else:
        raise AssertionError(kind)
    return g


KINDS = ["pon", "daiminkan", "ankan", "kakan"]
DEALER = pytest.mark.parametrize("dealer_is_karaten", [False, True], ids=["non-dealer", "dealer"])


def _draw_with_s1_waiting_on_its_own_8s(kind, dealer_is_karaten, rules):
    g = _build(kind, dealer_is_karaten, rules)
    closed = g.hand(1)
    assert waits(closed) == [t34("8s")], describe(g, f"S1's concealed {closed} waits on 8s only")
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE, describe(g, "expected an exhaustive draw")
    return g


@DEALER
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("rules", [MAHJONGSOUL, TENHOU], ids=["mahjongsoul", "tenhou"])
def test_a_wait_beside_its_own_melded_copies_is_tenpai(kind, dealer_is_karaten, rules):
    g = _draw_with_s1_waiting_on_its_own_8s(kind, dealer_is_karaten, rules)
    assert int(ryuukyoku_row(g)[3]) == 0b1010, describe(g, "S1 and S3 are tenpai (tenpai mask)")
    assert hand_deltas(g) == [-1500, 1500, -1500, 1500], describe(
        g, "S1's only wait is the 8s its melds hold: only concealed copies make a wait dead"
    )
    dealer_before = 1 if dealer_is_karaten else 0
    if dealer_is_karaten:
        assert int(g.state.kyoku[0]) == dealer_before, describe(g, "the dealer was tenpai: renchan")
    else:
        assert int(g.state.kyoku[0]) == dealer_before + 1, describe(g, "S0 dealt noten: it passes")
    assert int(g.state.honba[0]) == 1, describe(g, "honba goes up on every draw")


@DEALER
@pytest.mark.parametrize("kind", KINDS)
def test_karaten_melds_option_counts_the_melded_copies(kind, dealer_is_karaten):
    rules = MAHJONGSOUL.replace(karaten_melds=True)
    g = _draw_with_s1_waiting_on_its_own_8s(kind, dealer_is_karaten, rules)
    assert int(ryuukyoku_row(g)[3]) == 0b1000, describe(g, "only S3 is tenpai (tenpai mask)")
    assert hand_deltas(g) == [-1000, -1000, -1000, 3000], describe(
        g, "karaten_melds: S1's only wait is the 8s it holds all four of (melds counted): noten"
    )
    dealer_before = 1 if dealer_is_karaten else 0
    assert int(g.state.kyoku[0]) == dealer_before + 1, describe(
        g, "the dealer was noten: the deal passes"
    )
    assert int(g.state.honba[0]) == 1, describe(g, "honba goes up on every draw")


@pytest.mark.parametrize("karaten_melds", [False, True])
def test_a_wait_only_on_a_fifth_concealed_copy_is_noten(karaten_melds):
    """123456789m5555p waits only on a fifth 5p: noten with or without the option."""
    hand = "123456789m0555p"  # the four 5p, one of them red
    assert waits(hand) == []
    rules = MAHJONGSOUL.replace(karaten_melds=karaten_melds)
    s0 = "123s456s789s33z44z"  # tenpai on 3z-4z
    g = start_hand(hands=[s0, hand, "258m369p147s1256z", "369m147p258s2567z"], rules=rules)
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE, describe(g, "expected an exhaustive draw")
    assert int(ryuukyoku_row(g)[3]) == 0b0001, describe(g, "only S0 is tenpai")
    assert hand_deltas(g) == [3000, -1000, -1000, -1000], describe(g, "S1 is noten: karaten")


# --------------------------------------------------------------- riichi: the same definition

QUADS_HAND = "1111m999m234p567p"
"""Dealt to S0, which draws the fourth 9m: 1111m9999m234p567p. Discarding a 1m or a 9m leaves a
wait only on a fifth copy (formal shape, no live wait); no other discard is tenpai."""
ANKAN_HAND = "3333p12p456m789m5s"
"""Dealt to S0, which draws 5s, ankans 3p and draws 1z from the dead wall: 12p456m789m55s1z plus the
ankan. Discarding 1z leaves a penchan on 3p, whose four copies are all in S0's own ankan."""
OTHERS = ["258m147p147s2346z", "368m258p268s2467z", "247m469p379s3567z"]
"""S1-S3: no 1m, 9m, 3p, 5s or 1z, far from tenpai."""


def test_no_riichi_when_every_tenpai_discard_waits_on_a_fifth_concealed_copy():
    g = start_hand(hands=[QUADS_HAND, *OTHERS], draws="9m", dora="9p")
    assert g.hand(0) == "11119999m234567p", describe(g)
    assert_not_legal(g, 0, A.RIICHI, "every discard leaves noten: the draw would not count it")
    g = start_hand(hands=[QUADS_HAND, *OTHERS], draws="9m", dora="9p")
    discard(g, 0, "9m")
    play_out(g)
    assert int(ryuukyoku_row(g)[3]) & 1 == 0, describe(g, "and the draw counts S0 noten")


def _ankan_table(rules):
    g = start_hand(hands=[ANKAN_HAND, *OTHERS], draws="5s", rinshan="1z", dora="9p", rules=rules)
    act(g, 0, A.KAN + t34("3p"))
    pass_claims(g)
    assert g.hand(0) == "456789m12p55s1z", describe(g, "after the ankan and the rinshan draw")
    return g


@pytest.mark.parametrize("rules", [MAHJONGSOUL, TENHOU], ids=["mahjongsoul", "tenhou"])
def test_riichi_on_a_wait_beside_its_own_ankan(rules):
    """By default the ankan's copies do not make the 3p wait dead: riichi is legal, and a hand
    that declares it is tenpai at the draw."""
    g = _ankan_table(rules)
    assert_legal(g, 0, A.RIICHI, "12p waits on 3p; the four 3p are in S0's own ankan")
    act(g, 0, A.RIICHI)
    assert g.legal_actions() == [discard_id("1z")], describe(g, "only 1z keeps it tenpai")
    discard(g, 0, "1z")
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE, describe(g)
    assert int(ryuukyoku_row(g)[3]) & 1 == 1, describe(g, "the riichi hand is tenpai at the draw")


def test_no_riichi_on_a_wait_beside_its_own_ankan_when_melds_count():
    g = _ankan_table(MAHJONGSOUL.replace(karaten_melds=True))
    assert_not_legal(g, 0, A.RIICHI, "karaten_melds: the 3p wait is dead, as at the draw")
    g = _ankan_table(MAHJONGSOUL.replace(karaten_melds=True))
    discard(g, 0, "1z")
    play_out(g)
    assert int(ryuukyoku_row(g)[3]) & 1 == 0, describe(g, "and the draw counts S0 noten")
