"""Scenario tests for riichi: conditions, the stick, forced tsumogiri, ankan, ippatsu, double and
open riichi.

Rules (Mahjong Soul rules "Riichi", docs/rules.md "Riichi stick", "Riichi and ankan", "Ippatsu, double riichi"):
riichi needs a closed hand, tenpai after the discard, 1,000+ points and 4+ live tiles; the stick is
paid once the declaration tile passes without ron, a ronned declaration is void and pays no stick;
after riichi every discard is the drawn tile; an ankan is allowed only with the drawn tile, waits
unchanged and the tile a triplet in every reading; ippatsu and double riichi are broken by any
call, a closed kan included.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    QUIET,
    A,
    act,
    advance_to,
    assert_legal,
    assert_not_legal,
    describe,
    discard,
    discard_id,
    hand_deltas,
    hand_events,
    last_wins,
    live_left,
    pass_claims,
    t34,
    table,
    tsumogiri,
    tsumogiri_each,
    yaku_of,
)

from engine.events import EV_RIICHI, EV_RIICHI_ACCEPTED
from engine.rules import MAHJONGSOUL
from engine.shanten import waits

# S0's riichi hand: after drawing 5s, discarding 9m leaves 123m 33456p 789s 55s, waiting 3p / 5s.
RIICHI_HAND = "123m33456p789s5s9m"
# Seats 1-3 holding no 1m, so that S0 can hold or draw all four 1m.
NO_1M = {1: "478m258p369s1234z", 2: QUIET[1], 3: QUIET[2]}


def riichi_table(**kwargs):
    hands = kwargs.pop("hands", {})
    return table({0: RIICHI_HAND, **hands}, **kwargs)


def _riichi_round(g, tile: str) -> None:
    """S0 declares riichi discarding ``tile``; S1, S2 and S3 tsumogiri back to S0's turn."""
    act(g, 0, A.RIICHI)
    discard(g, 0, tile)
    tsumogiri_each(g, (1, 2, 3))


# --------------------------------------------------------------------------------- conditions


@pytest.mark.nojit
def test_riichi_offered_on_closed_tenpai_and_discard_masked_to_tenpai():
    g = riichi_table(draws="5s", dora="1z")
    assert_legal(g, 0, A.RIICHI, "(closed, tenpai after discarding 9m)")
    assert_not_legal(g, 0, A.OPEN_RIICHI, "(open riichi is off in Mahjong Soul rules)")
    act(g, 0, A.RIICHI)
    assert g.phase == "riichi discard" and g.actor == 0, describe(g)
    legal = g.legal_actions()
    assert legal == [discard_id("9m")], describe(
        g, "only 9m keeps tenpai: the declaration discard is masked to tenpai-keeping discards"
    )


def test_riichi_not_offered_when_not_tenpai():
    g = table({0: "2468m2468p2468s7z"}, draws="5s", dora="1z")
    assert_not_legal(g, 0, A.RIICHI, "(S0 holds a quiet hand, far from tenpai)")


def test_riichi_needs_1000_points():
    g = riichi_table(draws="5s", dora="1z", points=[900, 33000, 33000, 33100])
    assert_not_legal(g, 0, A.RIICHI, "(S0 has 900 points)")
    g = riichi_table(draws="5s", dora="1z", points=[1000, 33000, 33000, 33000])
    assert_legal(g, 0, A.RIICHI, "(S0 has exactly 1000 points)")


def test_riichi_not_offered_with_an_open_hand():
    """S1 pons 5z and is tenpai on 4s tanki: no riichi with an open hand."""
    g = table(
        {0: "5z147m258p369s123z", 1: "55z123m456p789s4s6z"},
        draws="9m 7z",
        dora="1z",
    )
    discard(g, 0, "5z")
    act(g, 1, A.PON)
    discard(g, 1, "6z")
    assert waits("123m456p789s4s") == [t34("4s")]
    advance_to(g, 1)
    assert_not_legal(g, 1, A.RIICHI, "(S1's hand is open: pon 5z)")


def test_riichi_needs_four_live_tiles():
    """S1 draws the 66th tile (4 left): riichi legal; S2 draws the 67th (3 left): not legal."""
    g = table(
        {1: "123m33456p789s55s", 2: "456m789p123s66s44z"},
        dora="1z",
        seed=3,
    )
    for _ in range(400):
        pass_claims(g)
        if g.phase == "turn" and live_left(g) == 4:
            break
        tsumogiri(g)
    assert g.actor == 1 and live_left(g) == 4 and g.state.n_melds[0].sum() == 0, describe(g)
    assert_legal(g, 1, A.RIICHI, "(4 tiles left in the live wall)")
    tsumogiri(g, 1)
    pass_claims(g)
    assert g.actor == 2 and live_left(g) == 3, describe(g)
    assert_not_legal(g, 2, A.RIICHI, "(3 tiles left in the live wall)")


# ---------------------------------------------------------------------------------- the stick


def test_stick_paid_only_after_the_declaration_tile_passes():
    """S1 may pon the declaration tile: while S1 is asked no stick is paid; after its pass it is."""
    g = riichi_table(hands={1: "14799m258p369s12z"}, draws="5s", dora="1z")
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    assert g.phase == "claim" and g.actor == 1, describe(g, "S1 holds 99m and may pon")
    assert g.points[0] == 25000 and int(g.state.kyotaku[0]) == 0, describe(
        g, "the stick is paid only once the declaration tile passes"
    )
    act(g, 1, A.PASS)
    assert g.points[0] == 24000 and int(g.state.kyotaku[0]) == 1, describe(
        g, "declaration tile passed: 1000 points to the table"
    )
    rows = g.events()
    assert any(r[0] == EV_RIICHI_ACCEPTED and r[1] == 0 for r in rows), describe(g)


def test_stick_paid_when_the_declaration_tile_is_ponned():
    g = riichi_table(hands={1: "14799m258p369s12z"}, draws="5s", dora="1z")
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    act(g, 1, A.PON)
    assert g.points[0] == 24000 and int(g.state.kyotaku[0]) == 1, describe(
        g, "a pon is not a ron: the riichi stands and the stick is paid"
    )
    assert int(g.state.riichi[0, 0]) > 0, describe(g)


def test_ronned_declaration_is_void_and_pays_no_stick():
    """S1 rons the declaration 9m (pinfu, 1000): S0 loses 1000, no stick is paid or won."""
    g = riichi_table(hands={1: "78m234p567p234s88s"}, draws="5s", dora="1z")
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    act(g, 1, A.RON)
    rows = hand_events(g)
    assert not any(r[0] == EV_RIICHI_ACCEPTED for r in rows), describe(g, "riichi was ronned")
    assert [int(x) for x in g.state.last_delta[0]] == [-1000, 1000, 0, 0], describe(
        g, "ron on the declaration tile: pinfu 1 han 30 fu = 1000, no stick"
    )
    assert g.points == [24000, 26000, 25000, 25000] and int(g.state.kyotaku[0]) == 0, describe(g)


# ------------------------------------------------------------------------ after the declaration


def test_riichi_player_is_not_offered_chi_or_pon():
    """S0 in riichi holds 456p: S3's 7p could be chi'd before riichi, never after."""
    g = riichi_table(draws="5s 9m 9p 7p", dora="1z")
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    tsumogiri_each(g, (1, 2, 3))
    assert g.actor == 0 and g.phase == "turn", describe(
        g, "a seat in riichi may only ron: it must not be asked about S3's 7p"
    )


def test_riichi_forces_tsumogiri():
    g = riichi_table(draws="5s 1z 2z 3z 9p", dora="1z")
    _riichi_round(g, "9m")
    assert g.actor == 0 and g.phase == "turn", describe(g)
    discards = [a for a in g.legal_actions() if a < A.RIICHI]
    assert discards == [t34("9p")], describe(g, "after riichi only the drawn 9p may be discarded")
    assert A.RIICHI not in g.legal_actions(), describe(g)


def test_riichi_ankan_with_the_drawn_tile_keeping_waits():
    """111m 456p 789s 23s 55z waits 1s-4s; drawing the 4th 1m allows the ankan."""
    g = table({**NO_1M, 0: "111m456p789s23s55z"}, draws="7z 1z 2z 3z 1m", dora="9p")
    _riichi_round(g, "7z")
    assert_legal(g, 0, A.KAN + t34("1m"), "(riichi: drawn 4th 1m, waits 1s-4s unchanged)")
    act(g, 0, A.KAN + t34("1m"))
    assert g.actor == 0 and int(g.state.rinshan[0]) == 1, describe(g)


def test_riichi_ankan_refused_when_waits_change():
    """1112m 456p 789s 567s waits 2m-3m; an ankan of a drawn 1m would leave only 2m: refused."""
    g = table({**NO_1M, 0: "1112m456p789s567s"}, draws="7z 1z 2z 3z 1m", dora="9p")
    _riichi_round(g, "7z")
    assert g.actor == 0 and g.state.closed34[0, 0, t34("1m")] == 4, describe(g)
    assert_not_legal(g, 0, A.KAN + t34("1m"), "(ankan 1m would drop the 3m wait)")


def test_riichi_no_okurikan_of_a_quad_held_before():
    """S0 declares with 1111m 23m 456p 789s 5s (tanki 5s): the held quad can never be kanned."""
    g = table({**NO_1M, 0: "1111m23m456p789s5s"}, draws="7z 1z 2z 3z 9p", dora="9s")
    assert_legal(g, 0, A.KAN + t34("1m"), "(before riichi the ankan is legal)")
    _riichi_round(g, "7z")
    assert g.actor == 0 and g.state.closed34[0, 0, t34("1m")] == 4, describe(g)
    assert_not_legal(g, 0, A.KAN + t34("1m"), "(riichi: the drawn tile is 9p, not 1m)")


# ------------------------------------------------------------------- ippatsu and double riichi


def test_double_riichi_and_ippatsu_tsumo():
    g = riichi_table(draws="5s 9m 9p 9s 3p", dora="1z")
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    assert int(g.state.riichi[0, 0]) == 2, describe(g, "first discard, no calls: double riichi")
    tsumogiri_each(g, (1, 2, 3))
    act(g, 0, A.TSUMO)
    yaku = yaku_of(g, 0)
    assert "double_riichi" in yaku and "ippatsu" in yaku and "riichi" not in yaku, describe(
        g, f"yaku {yaku}"
    )


def test_riichi_on_second_discard_is_single():
    g = riichi_table(draws="7z 9m 9p 1z 5s", dora="1z")
    discard(g, 0, "7z")
    tsumogiri_each(g, (1, 2, 3))
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    assert int(g.state.riichi[0, 0]) == 1, describe(g, "second discard: plain riichi")


def test_ippatsu_broken_by_a_pon():
    """S2 pons S1's 8m between S0's riichi and S0's winning draw: no ippatsu."""
    g = riichi_table(hands={2: "2588m69p147s1567z"}, draws="5s 8m 9s 3p", dora="1z")
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    tsumogiri(g, 1)
    act(g, 2, A.PON)
    discard(g, 2, "6z")
    tsumogiri(g, 3)
    act(g, 0, A.TSUMO)
    yaku = yaku_of(g, 0)
    assert "ippatsu" not in yaku and "double_riichi" in yaku, describe(g, f"yaku {yaku}")


def test_ippatsu_broken_by_another_players_ankan():
    g = riichi_table(
        hands={1: "4447m258p369s234z", 2: QUIET[1], 3: QUIET[2]},
        draws="5s 4m 9p 9s 3p",
        rinshan="9m",
        dora="1z",
    )
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    act(g, 1, A.KAN + t34("4m"))
    tsumogiri_each(g, (1, 2, 3))
    act(g, 0, A.TSUMO)
    yaku = yaku_of(g, 0)
    assert "ippatsu" not in yaku, describe(g, f"a closed kan breaks ippatsu; yaku {yaku}")


def test_double_riichi_broken_by_an_earlier_closed_kan():
    """S0 ankans 1m on its first turn, then declares: riichi, not double riichi."""
    g = table({**NO_1M, 0: "1111m456p789s3p5s7z"}, draws="3p", rinshan="5s", dora="1z")
    act(g, 0, A.KAN + t34("1m"))
    act(g, 0, A.RIICHI)
    discard(g, 0, "7z")
    assert int(g.state.riichi[0, 0]) == 1, describe(g, "a closed kan breaks double riichi")
    rows = [r for r in g.events() if r[0] == EV_RIICHI and r[1] == 0]
    assert rows and int(rows[-1][2]) == 0, describe(g, "RIICHI event must not say double")


# ------------------------------------------------------------------------------- open riichi


def test_open_riichi_deal_in_pays_yakuman():
    """Open riichi (rule on): S1, not in riichi, deals in 3p and pays a dealer yakuman (48,000)."""
    rules = MAHJONGSOUL.replace(open_riichi=True)
    g = riichi_table(draws="5s 3p", dora="1z", rules=rules, points=[25000, 60000, 10000, 5000])
    assert_legal(g, 0, A.OPEN_RIICHI)
    act(g, 0, A.OPEN_RIICHI)
    discard(g, 0, "9m")
    assert int(g.state.open_riichi[0, 0]) == 1, describe(g)
    tsumogiri(g, 1)
    act(g, 0, A.RON)
    assert g.points[1] == 60000 - 48000, describe(g, "dealing into an open riichi pays yakuman")
    assert g.points[0] == 25000 + 48000, describe(g, "dealer gets 48,000 and its own stick back")


def test_ura_dora_counts_for_the_riichi_winner():
    """Ura indicator 2p makes 3p ura dora: S0 wins with 333p after riichi, 3 ura dora."""
    g = riichi_table(draws="5s 9m 9p 9s 3p", dora="1z", ura="2p")
    _riichi_round(g, "9m")
    act(g, 0, A.TSUMO)
    yaku = yaku_of(g, 0)
    assert yaku.get("ura_dora") == 3, describe(g, f"yaku {yaku}")


def test_no_ura_dora_without_riichi():
    g = riichi_table(draws="5s 9m 9p 9s 3p", dora="1z", ura="2p")
    discard(g, 0, "9m")
    tsumogiri_each(g, (1, 2, 3))
    pass_claims(g)
    act(g, 0, A.TSUMO)
    yaku = yaku_of(g, 0)
    assert "ura_dora" not in yaku and "riichi" not in yaku, describe(g, f"yaku {yaku}")


def test_double_open_riichi_is_worth_four_han():
    """Spec 000: double riichi and open riichi combine for +4 han."""
    rules = MAHJONGSOUL.replace(open_riichi=True)
    g = riichi_table(draws="5s 9m 9p 9s 3p", dora="1z", rules=rules)
    act(g, 0, A.OPEN_RIICHI)
    discard(g, 0, "9m")
    tsumogiri_each(g, (1, 2, 3))
    act(g, 0, A.TSUMO)
    yaku = yaku_of(g, 0)
    riichi_han = sum(yaku.get(k, 0) for k in ("riichi", "double_riichi", "open_riichi"))
    assert riichi_han == 4, describe(g, f"double + open riichi = 4 han; yaku {yaku}")


def test_open_riichi_deal_in_by_a_riichi_player_pays_normally():
    """S1, itself in riichi, is forced to discard S0's winning 3p: an ordinary ron, no yakuman.

    The exception for a riichi discarder is docs/internals.md's (CTX_YAKUMAN_PAY: "by a non-riichi
    player"); the variant rules and docs/rules.md only say that dealing into an open riichi pays yakuman.
    """
    rules = MAHJONGSOUL.replace(open_riichi=True)
    g = riichi_table(
        hands={1: "789m234s678s46p11s"}, draws="5s 1z 2z 3z 4z 3p", dora="9p", rules=rules
    )
    act(g, 0, A.OPEN_RIICHI)
    discard(g, 0, "9m")
    pass_claims(g)
    act(g, 1, A.RIICHI)
    discard(g, 1, "1z")
    tsumogiri_each(g, (2, 3, 0, 1))
    act(g, 0, A.RON)
    wins = [w for w in last_wins(g) if w["winner"] == 0]
    assert wins and wins[0]["yakuman"] == 0, describe(g, f"not a yakuman payment: {wins}")
    assert hand_deltas(g)[1] > -48000, describe(g)


@pytest.mark.parametrize(
    "hand, waits_",
    [("1112444m456p789s", "2m 3m"), ("1112344m456p789s", "1m 4m")],
)
def test_riichi_ankan_refused_when_a_reading_breaks_the_triplet(hand, waits_):
    """Waits stay the same after an ankan of 1m, but some winning reading uses 1m as a pair or a
    run (11m + 123m ...): docs/rules.md allows the riichi ankan only if every reading has 111m."""
    assert waits(hand) == [t34(w) for w in waits_.split()]
    g = table({**NO_1M, 0: hand}, draws="7z 1z 2z 3z 1m", dora="9p")
    _riichi_round(g, "7z")
    assert g.actor == 0 and g.state.closed34[0, 0, t34("1m")] == 4, describe(g)
    assert_not_legal(g, 0, A.KAN + t34("1m"), "(a reading without the 111m triplet)")


def test_ura_dora_under_a_kan_indicator_counts_no_ippatsu_after_own_kan():
    """S0 in riichi ankans the drawn 1m and wins on the replacement 1s: the second ura indicator
    (7z, making 5z) counts twice for 55z; the own closed kan broke ippatsu."""
    g = table(
        {**NO_1M, 0: "111m456p789s23s55z"},
        draws="7z 1z 2z 3z 1m",
        rinshan="1s",
        dora="9p 8p",
        ura="9p 7z",
    )
    _riichi_round(g, "7z")
    act(g, 0, A.KAN + t34("1m"))
    act(g, 0, A.TSUMO)
    yaku = yaku_of(g, 0)
    assert yaku.get("ura_dora") == 2 and "rinshan_kaihou" in yaku, describe(g, f"yaku {yaku}")
    fu = last_wins(g)[0]["fu"]
    assert fu == 60, describe(
        g, f"20 + 32 (1m ankan) + 2 (5z pair) + 2 (tsumo) = 56 -> 60; got {fu}"
    )
    assert "ippatsu" not in yaku, describe(g, f"own closed kan breaks ippatsu; yaku {yaku}")


def test_riichi_tsumogiri_of_a_drawn_red_five():
    g = riichi_table(draws="5s 1z 2z 3z 0m", dora="1z")
    _riichi_round(g, "9m")
    discards = [a for a in g.legal_actions() if a < A.RIICHI]
    assert discards == [discard_id("0m")], describe(g, "after riichi only the drawn red 5m")


def test_riichi_discard_cannot_leave_a_wait_only_on_a_held_quad():
    """1111m 234p 567p 789s + 5z: discarding 5z would wait only on a fifth 1m (noten), so the
    declaration discard must be a 1m (then 5z tanki)."""
    g = table({**NO_1M, 0: "1111m234p567p789s"}, draws="5z", dora="9p")
    assert_legal(g, 0, A.RIICHI)
    act(g, 0, A.RIICHI)
    assert g.legal_actions() == [discard_id("1m")], describe(g, "only 1m keeps a real tenpai")
