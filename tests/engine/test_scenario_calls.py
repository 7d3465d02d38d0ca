"""Scenario tests for calls: chi, pon, daiminkan, claim priority, kuikae and red fives.

Rules (Mahjong Soul rules "Calls", docs/rules.md "Kuikae", docs/internals.md "Actions"): chi only from the player
on your left; ron > pon/kan > chi; kuikae forbids the called kind and, after chi from an end, the
tile at the other end; a call that would leave no legal discard is not offered; chi and pon use a
held red five whenever they can (engine rule), and the ``*_PLAIN`` ids make the same call with plain
fives when both a red and a plain copy are held.
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
    pon_three,
    start_hand,
    t34,
    tsumogiri_each,
)

from engine.melds import MELD_CHI, MELD_DAIMINKAN, MELD_PON
from engine.state import RIVER_CALLED

CHI_ALL = (A.CHI_LOW, A.CHI_MID, A.CHI_HIGH)


def _s0_discards(hands: list[str], tile: str):
    """A hand on ``hands`` (S0 draws 9m, dora 9m) in which S0 discards ``tile`` at once."""
    g = start_hand(hands=hands, draws="9m", dora="9m")
    discard(g, 0, tile)
    return g


def _meld_ids(g, seat: int, i: int) -> list[int]:
    return sorted(int(x) for x in g.state.meld_tiles[0, seat, i] if x >= 0)


# -------------------------------------------------------------------------------- chi direction


def test_chi_only_from_the_left_all_three_shapes():
    """Seat 1 (left of it: seat 0) gets all three chi shapes on 3m; seats 2 and 3 are never asked."""
    g = _s0_discards(
        [
            "3m2468p2468s1234z",
            "1245m13579p13s56z",
            "1245m1357p1357s6z",
            "1245m1357p1357s7z",
        ],
        "3m",
    )
    assert g.phase == "claim" and g.actor == 1, describe(g, "seat 1 should be asked about 3m")
    for shape in CHI_ALL:
        assert_legal(g, 1, shape, "(S1 holds 1245m, S0 discarded 3m)")
    act(g, 1, A.PASS)
    assert g.phase == "turn" and g.actor == 1, describe(
        g, "seats 2 and 3 hold 1245m too but are not left of seat 0: nobody else is asked"
    )


def test_chi_wraps_around_seat_3_to_seat_0():
    """Seat 0's left is seat 3: seat 0 may chi seat 3's discard, seat 1 may not."""
    g = start_hand(
        hands=[
            "45m2468p2468s123z",
            "45m13579p1357s56z",
            "19m1357p1357s567z",
            "3m2468p2468s1234z",
        ],
        draws="9p 9s 1p 7z",
        dora="9m",
    )
    tsumogiri_each(g, (0, 1, 2))
    discard(g, 3, "3m")
    assert g.actor == 0 and g.phase == "claim", describe(g, "S0 (left of it: S3) should be asked")
    assert_legal(g, 0, A.CHI_LOW)
    act(g, 0, A.CHI_LOW)
    assert g.state.meld_type[0, 0, 0] == MELD_CHI, describe(g)
    assert g.actor == 0 and g.phase == "turn", describe(g)


# ----------------------------------------------------------------------------------- priority

PRIORITY_HANDS = [
    "3m2468p2468s1234z",
    "45m13579p1357s56z",
    "33m1357p1356779s",  # S2: pon (333m in the kan case)
    "2678m2468p2468s7z",
]


def test_pon_beats_chi():
    """S1 asks chi and S2 asks pon on S0's 3m: the pon is made, S1 gets nothing, S1 is skipped."""
    g = _s0_discards(PRIORITY_HANDS, "3m")
    act(g, 1, A.CHI_LOW, "(S1 holds 45m)")
    act(g, 2, A.PON, "(S2 holds 33m)")
    st = g.state
    assert st.n_melds[0, 1] == 0, describe(g, "chi must lose to pon")
    assert st.meld_type[0, 2, 0] == MELD_PON and st.meld_from[0, 2, 0] == 0, describe(g)
    assert g.actor == 2 and g.phase == "turn", describe(g, "the pon caller discards next")
    assert g.hand(1) == "45m13579p1357s56z", describe(g, "S1's hand must be unchanged")
    assert st.river_flags[0, 0, 0] & RIVER_CALLED, describe(g, "S0's 3m is marked called")
    discard(g, 2, "9s")
    assert g.actor == 3 and g.phase == "turn", describe(g, "after S2's call-discard S3 draws")


def test_daiminkan_beats_chi():
    hands = list(PRIORITY_HANDS)
    hands[2] = "333m1357p135679s"
    g = start_hand(hands=hands, draws="9m", rinshan="8p", dora="9m")
    discard(g, 0, "3m")
    act(g, 1, A.CHI_LOW)
    assert_legal(g, 2, A.PON)
    act(g, 2, A.KAN + t34("3m"), "(S2 holds 333m)")
    st = g.state
    assert st.n_melds[0, 1] == 0, describe(g, "chi must lose to daiminkan")
    assert st.meld_type[0, 2, 0] == MELD_DAIMINKAN, describe(g)
    assert g.actor == 2 and g.phase == "turn" and st.rinshan[0] == 1, describe(
        g, "the kan caller draws a replacement tile"
    )


def test_ron_beats_pon_and_chi():
    """S1 chi, S2 pon, S3 ron on the same 3m: only the ron happens."""
    hands = list(PRIORITY_HANDS)
    hands[3] = "45m234p567p234s88s"  # 345m/6m ryanmen, pinfu tanyao
    g = start_hand(hands=hands, draws="9m", dora="7z")
    discard(g, 0, "3m")
    act(g, 1, A.CHI_LOW)
    act(g, 2, A.PON)
    act(g, 3, A.RON)
    delta = [int(x) for x in g.state.last_delta[0]]
    assert delta == [-2000, 0, 0, 2000], describe(
        g, f"S3's ron on S0 (pinfu tanyao 30 fu: 2000) must be the only result, deltas {delta}"
    )
    assert int(g.state.hand_index[0]) == 2, describe(g, "the hand ended with the ron")


def test_pass_on_a_lower_claim_lets_the_chi_happen():
    g = _s0_discards(PRIORITY_HANDS, "3m")
    act(g, 1, A.CHI_LOW)
    act(g, 2, A.PASS)
    assert g.state.meld_type[0, 1, 0] == MELD_CHI and g.actor == 1, describe(g)
    assert sorted(x // 4 for x in _meld_ids(g, 1, 0)) == [2, 3, 4], describe(g)


# ------------------------------------------------------------------------------------- kuikae

# (called tile, call, seat-1 tiles besides the filler, forbidden kinds, allowed kinds): the variant rules'
# and 003's kuikae examples plus a chi from the high end.
KUIKAE_CASES = [
    ("3p", A.CHI_LOW, "3456p9m9s", {"3p", "6p"}, {"9m", "1z"}),  # 000: chi 3p with 45p
    ("1m", A.CHI_LOW, "1234m9p9s", {"1m", "4m"}, {"9p", "1z"}),  # 000: chi 1m with 23m
    ("5s", A.CHI_MID, "34567s9m", {"5s"}, {"3s", "7s", "9m"}),  # 000: chi 5s with 46s
    ("4m", A.CHI_LOW, "4567m9p9s", {"4m", "7m"}, {"9p"}),  # 003: call 4 with 56
    ("6m", A.CHI_HIGH, "3456m9p9s", {"6m", "3m"}, {"9p"}),  # chi 6m with 45m
    ("7p", A.PON, "777p19m9s", {"7p"}, {"1m", "9m"}),  # 000: pon 7p
]


@pytest.mark.parametrize("called, call, core, forbidden, allowed", KUIKAE_CASES)
def test_kuikae_forbidden_discards(called, call, core, forbidden, allowed):
    """After the call the forbidden kinds are masked out and the others stay legal."""
    others = [s for s in "mps" if s != called[1]]
    seat0 = f"{called}2468{others[0]}2468{others[1]}1234z"
    hand1 = core + "1234567z"
    g = start_hand(
        hands=[seat0, hand1, "1m2m8m1p2p8p1s2s8s4z5z6z7z", "9m3m9p4p9s8s5p6p1z2z3z4z6m"],
        draws="9s",
        dora="1s",
    )
    discard(g, 0, called)
    act(g, 1, call, f"(S1 holds {g.hand(1)}, S0 discarded {called})")
    assert g.actor == 1 and g.phase == "turn", describe(g)
    for tile in sorted(forbidden):
        assert_not_legal(g, 1, discard_id(tile), f"(kuikae after calling {called})")
        assert g.explain(discard_id(tile)) != "", describe(g, f"explain must say why not {tile}")
    for tile in sorted(allowed):
        assert_legal(g, 1, discard_id(tile), f"(kuikae must not forbid {tile})")
    discard(g, 1, sorted(allowed)[0])


# Three pons leave S1 with four tiles; S0 then discards 4m.
NO_DISCARD_HANDS = [
    "1p4m3z4z7z2s3s4s6s7s8s2p3p",
    "1p1p9p9p1s1s5677m9s5z6z",
    "9p1s2m3m8m4p5p6p7p1z2z5s9s",
    "1m2m3m5p6p7p6s7s8s1z2z3z4z",
]


def _three_pons(hand1: str):
    hands = list(NO_DISCARD_HANDS)
    hands[1] = hand1
    g = start_hand(hands=hands, draws="9m 5z 6z 9m 7z 1z", dora="9m")
    pon_three(g, ("1p", "9p", "1s"), ("9s", "5z", "6z"))
    assert g.state.n_melds[0, 1] == 3, describe(g, "S1 should have three pons")
    tsumogiri_each(g, (2, 3))
    discard(g, 0, "4m")
    return g


def test_chi_leaving_only_kuikae_tiles_is_not_offered():
    """S1 holds 5677m after three pons: chi 4m with 56m would leave 77m, all forbidden (4m-7m)."""
    g = _three_pons("1p1p9p9p1s1s5677m9s5z6z")
    assert_not_legal(g, 1, A.CHI_LOW, "(chi 4m with 56m would leave only 77m: kuikae)")
    assert g.phase == "turn" and g.actor == 1, describe(g, "S1 has no legal claim: not asked")


def test_chi_leaving_a_legal_discard_is_offered():
    """Control: with 5678m the same chi leaves 78m, and 8m is a legal discard."""
    g = _three_pons("1p1p9p9p1s1s5678m9s5z6z")
    assert_legal(g, 1, A.CHI_LOW)
    act(g, 1, A.CHI_LOW)
    assert_not_legal(g, 1, discard_id("7m"))
    assert_legal(g, 1, discard_id("8m"))


# ---------------------------------------------------------------------------------- red fives


def _s1_calls(g, call: int) -> list[int]:
    """S1 makes ``call``: the tile ids of its first meld."""
    act(g, 1, call)
    return _meld_ids(g, 1, 0)


def _red_five_offer(hand0: str, hand1: str, tile: str):
    """``_s0_discards`` with S2 and S3 holding no five."""
    return _s0_discards([hand0, hand1, "19m1357p1357s67z9s", "2378m2468p2468s7z"], tile)


def test_pon_uses_the_held_red_five():
    """S1 holds 0m55m and pons 5m: the meld takes the red five, a plain 5m stays in hand."""
    g = _red_five_offer("5m2468p2468s1234z", "055m13579p13s567z", "5m")
    assert_legal(g, 1, A.KAN + t34("5m"), "(S1 holds three 5m)")
    ids = _s1_calls(g, A.PON)
    assert 16 in ids, describe(g, f"pon must use the red 5m (id 16), meld ids {ids}")
    assert "5m" in g.hand(1) and "0m" not in g.hand(1), describe(g)


def test_chi_uses_the_held_red_five():
    """S1 holds 0m5m6m and chis 4m low: the chi takes 0m6m, keeps the plain 5m."""
    g = _red_five_offer("4m2468p2468s1234z", "056m13579p13s567z", "4m")
    ids = _s1_calls(g, A.CHI_LOW)
    assert 16 in ids, describe(g, f"chi must use the red 5m (id 16), meld ids {ids}")
    assert "5m" in g.hand(1) and "0m" not in g.hand(1), describe(g)


def test_called_red_five_is_in_the_meld():
    g = _red_five_offer("0m2468p2468s1234z", "55m13579p139s567z", "0m")
    act(g, 1, A.PON)
    assert int(g.state.meld_called[0, 1, 0]) == 16, describe(g, "the called tile is the red 5m")
    assert 16 in _meld_ids(g, 1, 0), describe(g)


def test_pon_plain_keeps_the_red_five():
    """S1 holds 0m55m and pons 5m with plain fives: the meld is 555m, the red 5m stays in hand."""
    g = _red_five_offer("5m2468p2468s1234z", "055m13579p13s567z", "5m")
    assert_legal(g, 1, A.PON)
    assert_legal(g, 1, A.PON_PLAIN, "(S1 holds the red 5m and two plain 5m)")
    ids = _s1_calls(g, A.PON_PLAIN)
    assert 16 not in ids and len(ids) == 3, describe(g, f"plain pon, meld ids {ids}")
    assert "0m" in g.hand(1), describe(g, "the red 5m stays in hand")
    assert_not_legal(g, 1, discard_id("5m"), "(kuikae: 5m after a 5m pon, red or plain)")
    assert_not_legal(g, 1, discard_id("0m"), "(kuikae: 5m after a 5m pon, red or plain)")


def test_chi_plain_keeps_the_red_five():
    """S1 holds 0m5m6m and chis 4m low with the plain 5m: meld 456m, 0m stays in hand."""
    g = _red_five_offer("4m2468p2468s1234z", "056m13579p13s567z", "4m")
    for shape in (A.CHI_LOW, A.CHI_LOW_PLAIN):
        assert_legal(g, 1, shape)
    ids = _s1_calls(g, A.CHI_LOW_PLAIN)
    assert 16 not in ids and [i // 4 for i in ids] == [3, 4, 5], describe(g, f"meld ids {ids}")
    assert "0m" in g.hand(1) and "5m" not in g.hand(1), describe(g)
    assert_not_legal(g, 1, discard_id("4m"), "(kuikae: the called kind)")
    assert_not_legal(g, 1, discard_id("7m"), "(kuikae: the other end of a low chi)")


PLAIN_CALL_CASES = [
    (
        ["4m2468p2468s1234z", "06m55p13579p3s567z", "19m1347p1357s67z9s", "2378m2468p2468s7z"],
        "4m",
        A.CHI_LOW,
        A.CHI_LOW_PLAIN,
        "(only the red 5m is held)",
    ),
    (
        ["5p2468m2468s1234z", "55p6m13579m3s567z9s", "19m1347p1357s67z9s", "2378m2468p2468s7z"],
        "5p",
        A.PON,
        A.PON_PLAIN,
        "(no red 5p held)",
    ),
    (
        ["5m2468p2468s1234z", "05m6m13579p3s567z9s", "19m1357p1357s67z9s", "2378m2468p2468s7z"],
        "5m",
        A.PON,
        A.PON_PLAIN,
        "(only one plain 5m besides the red one)",
    ),
]


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("hands", "tile", "call", "plain", "note"),
    PLAIN_CALL_CASES,
    ids=["red_only", "no_red", "one_plain_and_red"],
)
def test_plain_calls_are_offered_only_when_both_copies_exist(hands, tile, call, plain, note):
    """Only a red 5m (no plain), or only plain 5m (no red): no *_PLAIN id; the call itself is legal."""
    g = _s0_discards(hands, tile)
    assert_legal(g, 1, call)
    assert_not_legal(g, 1, plain, note)


@pytest.mark.nojit
def test_plain_and_red_five_discards_are_distinct():
    """Only a red 5m held: "discard 5m" is illegal, "discard 0m" legal (actions table)."""
    g = start_hand(
        hands=["0m2468p2468s1234z", "55m13579p139s567z", "19m1357p1357s67z9s", "2378m2468p2468s7z"],
        draws="9m",
        dora="9m",
    )
    assert_not_legal(g, 0, discard_id("5m"), "(S0 holds only the red 5m)")
    assert_legal(g, 0, discard_id("0m"))
