"""Scenario tests for kans: dora timing, rinshan kaihou, chankan, the kan limit and suukaikan.

Rules (Mahjong Soul rules "Calls", docs/rules.md "Kan dora", "Chankan", "Live wall", "Abortive draws"): a closed
kan reveals its indicator at once; an open or added kan reveals it when the replacement draw's
discard is made (a ron on that discard counts it) or before a further kan or a rinshan tsumo by
the same player; any added kan can be robbed, a closed kan only by kokushi musou; no fifth kan;
four kans by more than one player abort the hand after the fourth kan's discard passes, one
player's four kans play on (suukantsu); no kan with an empty live wall; every kan moves one tile
from the live wall to the dead wall.
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
    discard,
    dora_indicators,
    four_kans_by_two,
    hand_deltas,
    last_draw_kind,
    last_wins,
    live_left,
    pass_claims,
    start_hand,
    t34,
    tsumogiri,
    tsumogiri_each,
    yaku_of,
)
from scenario_helpers import (
    hand_events as hand_events_last,
)

from engine.events import DRAW_SUUKAIKAN, EV_CALL, EV_DORA, EV_DRAW, EV_HAND_START
from engine.melds import MELD_KAKAN
from engine.rules import MAHJONGSOUL, TENHOU
from engine.tiles import tile136_to_str


def n_dora(g) -> int:
    return int(g.state.n_dora[0])


def rows_this_hand(g):
    rows = g.events()
    start = max(i for i, r in enumerate(rows) if r[0] == EV_HAND_START)
    return rows[start:]


# ------------------------------------------------------------------------ ankan and the wall

FOUR_QUADS = "1111p2222p3333p4p"


@pytest.mark.nojit
def test_ankan_reveals_dora_at_once_and_live_wall_shrinks():
    g = start_hand(hands=[FOUR_QUADS, *PINLESS], draws="4p", rinshan="4p 4p 7p 9p", dora="1z 9s")
    before = live_left(g)
    act(g, 0, A.KAN + t34("1p"))
    assert n_dora(g) == 2 and dora_indicators(g) == ["1z", "9s"], describe(
        g, "a closed kan reveals its dora indicator at once"
    )
    rows = rows_this_hand(g)
    kinds = [int(r[0]) for r in rows if r[0] in (EV_CALL, EV_DORA, EV_DRAW)]
    assert kinds[-3:] == [EV_CALL, EV_DORA, EV_DRAW], describe(
        g, "ankan: the indicator is turned before the replacement draw"
    )
    assert live_left(g) == before - 1, describe(g, "each kan moves one live tile to the dead wall")
    assert int(g.state.rinshan[0]) == 1 and int(g.state.drawn[0]) // 4 == t34("4p"), describe(g)


def test_one_player_four_kans_play_on_no_fifth_kan_suukantsu():
    """S0 makes four ankans: no abort; S1 (777p) may pon S0's 7p but not kan it; S0 wins suukantsu."""
    hands = [FOUR_QUADS, "777p258m258s1234z", PINLESS[0], PINLESS[2]]
    g = start_hand(hands=hands, draws="4p 9m 9s 3m 9p", rinshan="4p 4p 7p 9p", dora="5z")
    for k in ("1p", "2p", "3p", "4p"):
        act(g, 0, A.KAN + t34(k))
    assert int(g.state.n_kans[0]) == 4 and n_dora(g) == 5, describe(g)
    assert_not_legal(g, 0, A.KAN + t34("9p"), "(no fifth kan)")
    act(g, 0, A.DISCARD + t34("7p"))
    assert g.actor == 1 and g.phase == "claim", describe(g, "S1 holds 777p: may pon")
    assert_legal(g, 1, A.PON)
    assert_not_legal(g, 1, A.KAN + t34("7p"), "(four kans made: no fifth kan)")
    act(g, 1, A.PASS)
    assert g.phase == "turn" and g.actor == 1, describe(g, "one player's four kans: play on")
    tsumogiri_each(g, (1, 2, 3))
    act(g, 0, A.TSUMO)
    assert "suukantsu" in yaku_of(g, 0), describe(g)


def test_suukaikan_aborts_after_the_fourth_kans_discard_passes():
    """S0 makes three ankans, S1 the fourth: the hand is aborted once S1's discard passes."""
    g = four_kans_by_two()
    assert g.phase == "turn" and g.actor == 1 and int(g.state.n_kans[0]) == 4, describe(
        g, "the fourth kan is made; the hand goes on until its discard"
    )
    assert int(g.state.hand_index[0]) == 1, describe(g)
    tsumogiri(g, 1)
    pass_claims(g)
    assert int(g.state.hand_index[0]) == 2, describe(g, "suukaikan: hand aborted")
    assert last_draw_kind(g) == DRAW_SUUKAIKAN, describe(g)
    assert hand_deltas(g) == [0, 0, 0, 0], describe(g)
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1, describe(
        g, "abortive draw: dealer keeps the seat, honba +1"
    )


def test_no_kan_with_an_empty_live_wall():
    """S1 holds 1111p all hand; at its haitei draw (live wall empty) the ankan is not offered."""
    hands = [PINLESS[0], "1111p258m258s123z", PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, dora="9p", seed=5)
    for _ in range(300):
        pass_claims(g)
        if g.phase == "turn" and g.actor == 1 and live_left(g) == 0:
            break
        if g.phase == "turn" and g.actor == 1:
            assert_legal(g, 1, A.KAN + t34("1p"), f"(live wall {live_left(g)} left)")
        tsumogiri(g)
    assert live_left(g) == 0 and g.actor == 1, describe(g, "S1 should draw the last tile")
    assert_not_legal(g, 1, A.KAN + t34("1p"), "(no kan with an empty live wall)")


# ---------------------------------------------------------------------- open kan dora timing

# S0 discards 7p; S1 (777p) daiminkans. The second indicator 3m makes 4m dora.
OPEN_KAN_HANDS = [
    "147m147s123456z7p",
    "777p258m258s1234z",
    "45p234m567m234s88s",  # waits 3p-6p, pinfu tanyao
    PINLESS[2],
]


def test_daiminkan_dora_revealed_on_the_replacement_discard():
    g = start_hand(hands=OPEN_KAN_HANDS, draws="9p", rinshan="9p", dora="1z 3m")
    discard(g, 0, "7p")
    act(g, 1, A.KAN + t34("7p"))
    assert int(g.state.rinshan[0]) == 1 and n_dora(g) == 1, describe(
        g, "an open kan's indicator waits for the replacement draw's discard"
    )
    tsumogiri(g, 1)
    assert n_dora(g) == 2 and dora_indicators(g) == ["1z", "3m"], describe(
        g, "the replacement draw's discard reveals the open kan's indicator"
    )


def test_ron_on_the_discard_after_an_open_kan_counts_its_dora():
    """S2 rons S1's post-kan 3p: pinfu tanyao + dora 1 (4m from the kan's indicator) = 3 han."""
    g = start_hand(hands=OPEN_KAN_HANDS, draws="9p", rinshan="3p", dora="1z 3m")
    discard(g, 0, "7p")
    act(g, 1, A.KAN + t34("7p"))
    tsumogiri(g, 1)
    act(g, 2, A.RON)
    win = last_wins(g)[0]
    assert win["yaku"].get("dora") == 1 and win["han"] == 3, describe(
        g, f"the kan dora revealed by this discard counts for the ron: {win}"
    )
    assert hand_deltas(g) == [0, -3900, 3900, 0], describe(g, "3 han 30 fu ron: 3900")


def test_rinshan_tsumo_after_open_kan_reveals_and_counts_the_kan_dora():
    """S1 daiminkans 7p and wins on the replacement 3p; the kan's indicator 6p makes 7p x4 dora."""
    hands = ["147m147s123456z7p", "777p234m567m88s45p", PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, draws="9p", rinshan="3p", dora="1z 6p")
    discard(g, 0, "7p")
    act(g, 1, A.KAN + t34("7p"))
    assert_legal(g, 1, A.TSUMO)
    act(g, 1, A.TSUMO)
    yaku = yaku_of(g, 1)
    assert "rinshan_kaihou" in yaku and yaku.get("dora") == 4, describe(
        g, f"rinshan tsumo: the pending kan dora is revealed first and counts; yaku {yaku}"
    )


@pytest.mark.nojit
@pytest.mark.parametrize(
    "rules",
    [TENHOU, MAHJONGSOUL.replace(rinshan_kan_dora=False)],
    ids=["tenhou", "mahjongsoul-option-off"],
)
def test_rinshan_tsumo_after_open_kan_does_not_count_the_kan_dora_tenhou(rules):
    """rinshan_kan_dora off (Tenhou): the open kan's 6p indicator would come with the discard, so
    the rinshan tsumo counts only the first indicator (1z: no dora) and the log shows one."""
    hands = ["147m147s123456z7p", "777p234m567m88s45p", PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, draws="9p", rinshan="3p", dora="1z 6p", rules=rules)
    discard(g, 0, "7p")
    act(g, 1, A.KAN + t34("7p"))
    assert_legal(g, 1, A.TSUMO)
    act(g, 1, A.TSUMO)
    yaku = yaku_of(g, 1)
    assert "rinshan_kaihou" in yaku and "dora" not in yaku, describe(
        g, f"the pending kan dora is not revealed for the rinshan tsumo; yaku {yaku}"
    )
    shown = [tile136_to_str(int(r[2])) for r in hand_events_last(g) if r[0] == EV_DORA]
    assert shown == ["1z"], describe(g, f"one indicator in the record, got {shown}")


def test_rinshan_tsumo_after_kakan_does_not_count_the_kan_dora_tenhou():
    """A rinshan tsumo on an added kan's replacement tile: Mahjong Soul reveals and counts the
    kakan's 6p indicator (7777p: dora 4), Tenhou does not."""
    hands = ["147m147s123456z7p", "77p234m567m88s45p9s", PINLESS[1], PINLESS[2]]
    for rules, expect in ((MAHJONGSOUL, 4), (TENHOU, 0)):
        g = start_hand(hands=hands, draws="9p 9m 9s 9p 7p", rinshan="3p", dora="1z 6p", rules=rules)
        discard(g, 0, "7p")
        act(g, 1, A.PON)
        discard(g, 1, "9s")
        for s in (2, 3, 0):
            pass_claims(g)
            tsumogiri(g, s)
        pass_claims(g)
        act(g, 1, A.KAN + t34("7p"))
        pass_claims(g)
        act(g, 1, A.TSUMO)
        yaku = yaku_of(g, 1)
        assert "rinshan_kaihou" in yaku and yaku.get("dora", 0) == expect, describe(
            g, f"{rules.name}: kan dora of the kakan counts {expect}; yaku {yaku}"
        )


def test_pending_open_kan_dora_revealed_before_a_further_kan():
    """S1 daiminkans 7p, draws the 4th 8p and ankans: both indicators are up at once (3 in all)."""
    hands = ["147m147s123456z7p", "777p888p258m258s1z", PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, draws="9p", rinshan="8p 9p", dora="2z 3m 4m")
    discard(g, 0, "7p")
    act(g, 1, A.KAN + t34("7p"))
    assert n_dora(g) == 1, describe(g)
    act(g, 1, A.KAN + t34("8p"))
    assert n_dora(g) == 3 and dora_indicators(g) == ["2z", "3m", "4m"], describe(
        g, "a further kan first reveals the pending open-kan indicator, then its own"
    )


# S1 pons S0's 8p, daiminkans S0's 7s, draws the 4th 8p from the dead wall and adds it to the
# pon; S2 waits 5p-8p (tanyao pinfu) and may rob it. Indicators: 6z, then 3m for the daiminkan.
OPEN_THEN_KAKAN_HANDS = [
    "147m147s12345z7p8p",
    "777s88p258m369p12z",
    "67p234m567m234s88s",
    PINLESS[2],
]


def _daiminkan_then_kakan(rules):
    g = start_hand(
        hands=OPEN_THEN_KAKAN_HANDS,
        draws="9p 9m 9s 9p",
        rinshan="8p",
        dora="6z 3m",
        rules=rules,
    )
    discard(g, 0, "8p")
    act(g, 1, A.PON)
    act(g, 2, A.PASS, "(S2 lets S0's 8p go; the pon is made)")
    discard(g, 1, "1z")
    tsumogiri_each(g, (2, 3))
    discard(g, 0, "7s")
    act(g, 1, A.KAN + t34("7s"))
    assert n_dora(g) == 1, describe(g, "the daiminkan's indicator waits")
    act(g, 1, A.KAN + t34("8p"))
    assert g.phase == "claim" and g.actor == 2, describe(g, "S2 may rob the 8p: chankan")
    return g


def test_pending_open_kan_dora_revealed_before_a_robbed_kakan():
    """docs/rules.md: declaring the kakan first turns the daiminkan's 3m up, so the chankan has dora 1."""
    g = _daiminkan_then_kakan(MAHJONGSOUL)
    assert n_dora(g) == 2 and dora_indicators(g) == ["6z", "3m"], describe(
        g, "the pending indicator shows when the kakan is declared"
    )
    act(g, 2, A.RON)
    yaku = yaku_of(g, 2)
    assert "chankan" in yaku and yaku.get("dora") == 1, describe(g, f"yaku {yaku}")


def test_pending_open_kan_dora_waits_for_the_kakan_to_complete_tenhou():
    """kan_dora_on_declare off (Tenhou): a robbed kakan never turns the pending 3m up."""
    g = _daiminkan_then_kakan(TENHOU)
    assert n_dora(g) == 1 and dora_indicators(g) == ["6z"], describe(
        g, "the pending indicator waits until the kakan completes"
    )
    act(g, 2, A.RON)
    yaku = yaku_of(g, 2)
    assert "chankan" in yaku and "dora" not in yaku, describe(g, f"yaku {yaku}")


def test_pending_open_kan_dora_revealed_when_the_kakan_completes_tenhou():
    """kan_dora_on_declare off: chankan passed, the kakan completes and the 3m shows; its own waits."""
    g = _daiminkan_then_kakan(TENHOU)
    act(g, 2, A.PASS)
    assert n_dora(g) == 2 and dora_indicators(g) == ["6z", "3m"], describe(g)
    assert int(g.state.pending_dora[0]) == 1, describe(g, "the kakan's own indicator is pending")


# ---------------------------------------------------------------------------------- chankan

# S1 pons S0's 7p, later draws the 4th 7p and adds it; S2 waits 4p-7p (pinfu tanyao).
KAKAN_HANDS = [
    "147m147s123456z7p",
    "77p258m258s12345z",
    "56p234m567m234s88s",
    PINLESS[2],
]


def _to_kakan(g):
    discard(g, 0, "7p")
    act(g, 1, A.PON)
    act(g, 2, A.PASS, "(S2 lets S0's 7p go; the pon is made)")
    discard(g, 1, "5z")
    tsumogiri_each(g, (2, 3, 0))
    assert_legal(g, 1, A.KAN + t34("7p"), "(S1 drew the 4th 7p next to its pon)")
    act(g, 1, A.KAN + t34("7p"))


@pytest.mark.nojit
def test_chankan_on_an_added_kan():
    g = start_hand(hands=KAKAN_HANDS, draws="9p 9m 9s 9p 7p", rinshan="9m", dora="6z")
    _to_kakan(g)
    assert g.phase == "claim" and g.actor == 2, describe(g, "S2 waits on 7p: chankan")
    assert_legal(g, 2, A.RON)
    act(g, 2, A.RON)
    yaku = yaku_of(g, 2)
    assert "chankan" in yaku, describe(g, f"yaku {yaku}")
    assert hand_deltas(g)[1] < 0 and hand_deltas(g)[2] > 0, describe(g, "S1 pays the chankan")


def test_passed_chankan_completes_the_added_kan():
    g = start_hand(hands=KAKAN_HANDS, draws="9p 9m 9s 9p 7p", rinshan="9m", dora="6z")
    _to_kakan(g)
    act(g, 2, A.PASS)
    assert g.actor == 1 and g.phase == "turn" and int(g.state.rinshan[0]) == 1, describe(g)
    assert int(g.state.meld_type[0, 1, 0]) == MELD_KAKAN, describe(g)
    assert n_dora(g) == 1, describe(g, "the added kan's indicator waits for the discard")
    tsumogiri(g, 1)
    assert n_dora(g) == 2, describe(g)


# S1 ankans 1m; S2 is kokushi tenpai on 1m (99m pair).
ANKAN_HANDS = [
    "258m258p258s1234z",
    "111m47m47p47s1567z",
    "99m19p19s1234567z",
    "369m369p369s2347z",
]


def test_kokushi_may_rob_a_closed_kan():
    g = start_hand(hands=ANKAN_HANDS, draws="5p 1m", rinshan="9p", dora="8p")
    tsumogiri(g, 0)
    act(g, 1, A.KAN + t34("1m"))
    assert g.phase == "claim" and g.actor == 2, describe(g, "kokushi tenpai on 1m: may rob ankan")
    act(g, 2, A.RON)
    assert last_wins(g)[0]["yakuman"] >= 1, describe(g)
    assert hand_deltas(g) == [0, -32000, 32000, 0], describe(g, "kokushi ron: 32,000")


def test_ordinary_hand_may_not_rob_a_closed_kan():
    hands = list(ANKAN_HANDS)
    hands[2] = "23m456p456s789p99s"
    g = start_hand(hands=hands, draws="5p 1m", rinshan="9p", dora="8p")
    tsumogiri(g, 0)
    act(g, 1, A.KAN + t34("1m"))
    assert g.phase == "turn" and g.actor == 1 and int(g.state.rinshan[0]) == 1, describe(
        g, "S2 waits on 1m (pinfu) but only kokushi may rob a closed kan"
    )


def test_chankan_blocked_by_furiten_and_passing_it_makes_temporary_furiten():
    """S2 tsumogiris 4p (one of its waits): permanent furiten, so the added 7p is not offered."""
    g = start_hand(hands=KAKAN_HANDS, draws="9p 4p 9s 9p 7p", rinshan="9m", dora="6z")
    _to_kakan(g)
    assert g.phase == "turn" and g.actor == 1 and int(g.state.rinshan[0]) == 1, describe(
        g, "S2 has 4p in its river (furiten): no chankan"
    )


def test_passing_chankan_makes_temporary_furiten():
    g = start_hand(hands=KAKAN_HANDS, draws="9p 9m 9s 9p 7p", rinshan="9m", dora="6z")
    _to_kakan(g)
    act(g, 2, A.PASS)
    assert int(g.state.furiten_temp[0, 2]) == 1, describe(g, "passing a chankan ron: furiten")


def test_no_kakan_right_after_the_pon_only_on_a_later_turn():
    """S1 holds 777p and pons 7p: the 4th 7p stays in hand; kakan waits for S1's next draw."""
    hands = ["147m147s123456z7p", "777p258m258s1234z", PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, draws="9p 9m 9s 9p 8m", dora="5z")
    discard(g, 0, "7p")
    act(g, 1, A.PON)
    assert_not_legal(g, 1, A.KAN + t34("7p"), "(no kan right after a call: no draw yet)")
    discard(g, 1, "1z")
    tsumogiri_each(g, (2, 3, 0))
    assert_legal(g, 1, A.KAN + t34("7p"), "(kakan with the 4th 7p held in hand)")


def test_fourth_kan_discard_ronned_is_a_win_not_suukaikan():
    g = four_kans_by_two("78m234s678s345m11s")
    tsumogiri(g, 1)
    act(g, 3, A.RON, "(S3 waits 6m-9m, pinfu)")
    assert last_draw_kind(g) is None and hand_deltas(g)[3] > 0, describe(
        g, "a ron on the fourth kan's discard wins; no suukaikan"
    )


def test_live_wall_has_69_draws_after_one_kan():
    """S0 ankans on its first turn; the hand then has 69 live draws before the exhaustive draw."""
    hands = ["1111p258m258s123z", *PINLESS]
    g = start_hand(hands=hands, rinshan="9p", dora="9s", seed=4)
    act(g, 0, A.KAN + t34("1p"))
    for _ in range(400):
        if int(g.state.hand_index[0]) != 1:
            break
        if g.phase == "claim":
            pass_claims(g)
        else:
            tsumogiri(g)
    rows = hand_events_last(g)
    live_draws = sum(1 for r in rows if r[0] == EV_DRAW and r[3] == 0)
    rinshan_draws = sum(1 for r in rows if r[0] == EV_DRAW and r[3] == 1)
    assert (live_draws, rinshan_draws) == (69, 1), describe(
        g, f"one kan moves one live tile to the dead wall: {live_draws} live draws"
    )


def test_chankan_keeps_ippatsu_of_the_robber():
    """S2 declares riichi, then robs S1's added 7p in the same go-around: chankan + ippatsu."""
    g = start_hand(hands=KAKAN_HANDS, draws="9p 9m 9s 9p 7p", rinshan="9m", dora="6z")
    discard(g, 0, "7p")
    act(g, 1, A.PON)
    act(g, 2, A.PASS)
    discard(g, 1, "5z")
    act(g, 2, A.RIICHI)
    discard(g, 2, "9m")
    tsumogiri_each(g, (3, 0))
    act(g, 1, A.KAN + t34("7p"))
    act(g, 2, A.RON)
    yaku = yaku_of(g, 2)
    assert {"chankan", "ippatsu", "riichi"} <= set(yaku), describe(g, f"yaku {yaku}")
