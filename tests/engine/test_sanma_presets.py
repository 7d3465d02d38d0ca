"""Three-player rules in both presets (issue 26, docs/rules.md "Three-player riichi"), written
from the rule write-up rather than from what the engine does: suukaikan (kita is no kan), pao with
tsumo loss, ura dora on kita, ippatsu of a kita's robber, extension renchan, placement ties and
leftover sticks, haitei after a kita, furiten after a passed kita, North as a guest wind, the
abortive draws that need four seats, nagashi mangan and double yakuman with three seats.

Every test runs ``mahjongsoul-3p`` and ``tenhou-3p`` (kita on, as the presets play); where the
presets differ the expected values are given per preset.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    A,
    act,
    assert_legal,
    by_rules,
    by_seat,
    describe,
    discard,
    hand_events,
    kyoku_honba,
    last_draw_kind,
    last_wins,
    live_left,
    pass_claims,
    play_out,
    sanma_nagashi,
    sanma_pao_daisangen,
    sanma_ron,
    tsumogiri,
    tsumogiri_pass,
)
from scenario_helpers import hand_deltas as deltas

from engine.actions import KITA
from engine.events import (
    DRAW_EXHAUSTIVE,
    DRAW_KYUUSHU,
    DRAW_NAGASHI,
    DRAW_SUUKAIKAN,
    EV_DRAW,
    EV_GAME_END,
)
from engine.harness.invariants import validate
from engine.harness.scenario import start_hand
from engine.rules import MAHJONGSOUL_3P, TENHOU_3P

pytestmark = pytest.mark.nojit

BOTH = by_rules(MAHJONGSOUL_3P, TENHOU_3P)

TENPAI = "45p789p123s99s555z"  # waits 3p-6p; haku
NORTH_TANKI = "123p456p789p555z4z"  # waits 4z (tanki): haku, ittsu
QA = "19m147p258s12367z"  # quiet hands without North
QB = "19m369p147s12367z"
THIRD = "19m258p369s12367z"
NA = "19m147p258s1236z4z"  # QA with a North for 7z


# -- kans: suukaikan, and kita is not a kan ------------------------------------------------------

KANS = "1111p2222p3333p5p"  # three closed kans for the dealer, then 5p-6p-7p-8p(-9p)
KAN4 = "444p19m258s12356z"  # the fourth kan (4p drawn)
KITA4 = "19m258s12356z4z44p"  # a North to set aside instead


def _three_kans(g) -> None:
    for k in (9, 10, 11):  # 1p, 2p, 3p
        act(g, 0, A.KAN + k)
    discard(g, 0, "9p")
    pass_claims(g)


@BOTH
def test_suukaikan_aborts_with_three_players(rules):
    """docs/rules.md "Calls" (as with four; MP lists 四槓散了 among the three-player aborts): four
    kans by two players abort the hand once the fourth kan's discard passes; dealer keeps it."""
    hands = [KANS, KAN4, "19m147s369s12367z", ""]
    g = start_hand(hands=hands, draws="6p 4p", rinshan="7p 8p 9p 9m", dora="5z", rules=rules)
    _three_kans(g)
    act(g, 1, A.KAN + 12)  # ankan 4p
    assert int(g.state.n_kans[0]) == 4 and int(g.state.hand_index[0]) == 1, describe(g)
    tsumogiri(g, 1)
    pass_claims(g)
    assert last_draw_kind(g) == DRAW_SUUKAIKAN, describe(g)
    assert deltas(g) == [0, 0, 0, 0] and kyoku_honba(g) == (0, 1), describe(g)


@BOTH
def test_three_kans_and_a_kita_do_not_abort(rules):
    """W-Sanma, T-EN: a kita is not a kan; three kans and a kita by another seat play on."""
    hands = [KANS, KITA4, "19m147s369s12367z", ""]
    g = start_hand(hands=hands, draws="6p 9s", rinshan="7p 8p 9p 9m", dora="5z", rules=rules)
    _three_kans(g)
    act(g, 1, KITA)
    assert int(g.state.n_kans[0]) == 3 and int(g.state.n_kita[0, 1]) == 1, describe(g)
    tsumogiri(g, 1)
    pass_claims(g)
    assert int(g.state.hand_index[0]) == 1 and (g.phase, g.actor) == ("turn", 2), describe(
        g, "no suukaikan: seat 2 draws"
    )
    assert not validate(g.state)


# -- pao with tsumo loss -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "expected"),
    [(MAHJONGSOUL_3P, [-100, 24200, -24100, 0]), (TENHOU_3P, [0, 24200, -24200, 0])],
    ids=["mahjongsoul-3p", "tenhou-3p"],
)
def test_pao_tsumo_with_tsumo_loss(rules, expected):
    """Decision (docs/rules.md, "Three-player riichi"): on a pao tsumo the liable seat pays the
    yakuman's tsumo total with tsumo loss, 16,000 + 8,000 = 24,000 for a non-dealer (not the ron
    value 32,000); honba 100 per payer, paid normally (Mahjong Soul) or all by the liable seat
    (Tenhou's ``pao_honba="liable"``)."""
    g = sanma_pao_daisangen(rules, honba=1)
    tsumogiri(g, 0)
    pass_claims(g)
    act(g, 1, A.TSUMO)
    (win,) = last_wins(g)
    assert win["yaku"].get("daisangen") == 1 and win["pao"] == 2, describe(g, str(win))
    assert deltas(g) == expected, describe(g)


@BOTH
def test_pao_ron_from_another_seat_is_split(rules):
    """docs/rules.md "Pao" (as with four): a ron off the third seat is paid half by the liable
    seat and half by the discarder: 16,000 each."""
    g = sanma_pao_daisangen(rules, last="5p")
    tsumogiri(g, 0)
    act(g, 1, A.RON)
    assert deltas(g) == [-16000, 32000, -16000, 0], describe(g)


# -- kita and dora, ippatsu, haitei, furiten ---------------------------------------------------


@pytest.mark.parametrize("ura", ["3z", "1z"])
@BOTH
def test_ura_dora_on_a_kita(rules, ura):
    """Decision (docs/rules.md, kita: dora): a kita is a North for every indicator, the ura
    indicators of a riichi winner too: a West ura indicator makes each kita one ura dora more.
    Dealer riichi on its second turn, kita on the next draw, rinshan tsumo on 3p: riichi, tsumo,
    rinshan, haku, 1 nuki dora (+1 ura with a West ura indicator): 6 han, else 5."""
    g = start_hand(hands=[TENPAI, QA, QB, ""], draws="9m 1s 9s 1p 1s 9s 4z",
                   rinshan="3p", dora="1z", ura=ura, rules=rules)  # fmt: skip
    tsumogiri(g, 0)
    for s in (1, 2):
        pass_claims(g)
        tsumogiri(g, s)
    pass_claims(g)
    act(g, 0, A.RIICHI)
    tsumogiri(g, 0)
    for s in (1, 2):
        pass_claims(g)
        tsumogiri(g, s)
    pass_claims(g)
    act(g, 0, KITA)
    act(g, 0, A.TSUMO)
    (win,) = last_wins(g)
    west = ura == "3z"
    assert win["yaku"].get("dora") == 1 and win["yaku"].get("ura_dora", 0) == int(west), describe(
        g, str(win)
    )
    assert win["han"] == (6 if west else 5) and "ippatsu" not in win["yaku"], str(win)


@BOTH
def test_robbing_a_kita_keeps_ippatsu(rules):
    """Decision (docs/rules.md, kita: ippatsu; RE's note that Mahjong Soul pays ippatsu on it): a
    kita robbed by ron was never completed, so the robber in its ippatsu turn gets ippatsu."""
    g = start_hand(hands=[QA, NORTH_TANKI, QB, ""], draws="9m 9s 1s 1m 9s 9m 4z",
                   rules=rules)  # fmt: skip
    tsumogiri_pass(g, (0, 1, 2, 0))
    act(g, 1, A.RIICHI)  # second turn: riichi, not double riichi
    tsumogiri_pass(g, (1, 2))
    act(g, 0, KITA)
    act(g, 1, A.RON)
    (win,) = last_wins(g)
    assert win["winner"] == 1 and win["tile"] == "4z", describe(g, str(win))
    assert {"riichi", "ippatsu"} <= set(win["yaku"]) and "chankan" not in win["yaku"], str(win)


@BOTH
def test_haitei_after_a_kita(rules):
    """Decision (docs/rules.md, kita: haitei): a kita moves the last live tile into the dead wall,
    so the 54th live draw is the last one, and a tsumo on it is haitei (55 draws in all with the
    replacement draw)."""
    draws = ["?"] * 55
    draws[53] = "3p"  # the 54th draw goes to seat 53 % 3 = 2
    g = start_hand(hands=[NA, QB, TENPAI, ""], draws=["9m"] + draws[1:], rinshan="9s",
                   dora="1z", rules=rules, seed=5)  # fmt: skip
    act(g, 0, KITA)
    while not (g.phase == "turn" and g.actor == 2 and live_left(g) == 0):
        pass_claims(g)
        tsumogiri(g)
    assert int(g.state.drawn[0]) // 4 == 9 + 2, describe(g, "seat 2 drew 3p last")
    assert_legal(g, 2, A.TSUMO)
    act(g, 2, A.TSUMO)
    (win,) = last_wins(g)
    assert "haitei_raoyue" in win["yaku"], describe(g, str(win))
    assert sum(1 for r in hand_events(g) if r[0] == EV_DRAW) == 55


@BOTH
def test_passing_a_kita_is_temporary_furiten_until_the_own_discard(rules):
    """Decision (docs/rules.md, kita: ron on it; as after a passed added kan): seat 1 passes the
    kita, so it may not ron the North seat 0 then discards; after its own discard it may."""
    g = start_hand(hands=[NA, NORTH_TANKI, THIRD, ""], draws="9m 9s 4z", rinshan="4z",
                   rules=rules)  # fmt: skip
    act(g, 0, KITA)
    act(g, 1, A.PASS)
    discard(g, 0, "4z")
    assert (g.phase, g.actor) == ("turn", 1), describe(g, "no ron: temporary furiten")
    tsumogiri(g, 1)
    pass_claims(g)
    discard(g, 2, "4z")
    act(g, 1, A.RON)
    assert last_wins(g)[0]["winner"] == 1, describe(g)


@BOTH
def test_passing_a_kita_in_riichi_is_furiten_for_the_hand(rules):
    """docs/rules.md "Furiten" (riichi): a kita passed after riichi makes the seat furiten for
    the rest of the hand."""
    g = start_hand(hands=[QA, NORTH_TANKI, THIRD, ""], draws="9m 9s 1s 4z 1m 4z",
                   rules=rules)  # fmt: skip
    tsumogiri(g, 0)
    pass_claims(g)
    act(g, 1, A.RIICHI)
    tsumogiri_pass(g, (1, 2))
    act(g, 0, KITA)
    act(g, 1, A.PASS)
    assert int(g.state.furiten_riichi[0, 1]) == 1, describe(g)
    tsumogiri_pass(g, (0, 1))
    discard(g, 2, "4z")
    assert (g.phase, g.actor) == ("turn", 0), describe(g, "riichi furiten: no ron on 4z")


# -- North as a wind ---------------------------------------------------------------------------


@pytest.mark.parametrize("kyoku", [0, 4, 8], ids=["east", "south", "west"])
@BOTH
def test_a_north_triplet_is_no_yaku(rules, kyoku):
    """W-MS19, T-JA, T-EN: North is a guest wind for every seat in every round (no North seat,
    no North round): a North triplet is no yakuhai, so 23p789p123s99s444z has no yaku on 4p;
    with a haku triplet instead the same ron is offered."""
    d = kyoku % 4
    for triplet, offered in (("444z", False), ("555z", True)):
        hands = by_seat(d, ["49p19m147s123567z", "23p789p123s99s" + triplet, THIRD])
        g = start_hand(hands=hands, draws="9m", dora="1z", kyoku=kyoku, rules=rules)
        discard(g, d, "4p")
        asked = (g.phase, g.actor) == ("claim", (d + 1) % 3)
        assert asked == offered, describe(g, f"{triplet}: ron offered {asked}")


@pytest.mark.parametrize("kyoku", [0, 4, 8], ids=["east", "south", "west"])
@BOTH
def test_pinfu_with_a_north_pair(rules, kyoku):
    """A North pair is a guest-wind pair (0 fu), so a North pair does not break pinfu: seat
    on the dealer's right rons 1p with 23p: pinfu 1 han 30 fu, 1,000."""
    d = kyoku % 4
    hands = by_seat(d, ["1p9p19m147s123567z", "23p456p789s123s44z", THIRD])
    g = start_hand(hands=hands, draws="9m", dora="5z", kyoku=kyoku, rules=rules)
    discard(g, d, "1p")
    act(g, (d + 1) % 3, A.RON)
    (win,) = last_wins(g)
    assert win["yaku"] == {"pinfu": 1} and (win["han"], win["fu"]) == (1, 30), describe(g)
    assert deltas(g)[(d + 1) % 3] == 1000


# -- the end of the game: extension renchan, placement ties, leftover sticks -------------------

DEALER = "39p19m147s123567z"  # discards 3p to SANMA_HAKU: haku, 1 han 40 fu (1,300; dealer 2,000)


def nondealer_ron(kyoku: int, rules, **kwargs):
    """The dealer's first discard 3p is ronned by the next seat (1,300)."""
    return sanma_ron(kyoku, rules, discarder=DEALER, third=THIRD, dora="1z", **kwargs)


def dealer_ron(kyoku: int, rules, **kwargs):
    """The next seat's first discard 3p is ronned by the dealer (2,000)."""
    return sanma_ron(
        kyoku, rules, dealer_wins=True, discarder=DEALER, third=THIRD, dora="1z", **kwargs
    )


@pytest.mark.parametrize(
    ("rules", "renchan"), [(MAHJONGSOUL_3P, False), (TENHOU_3P, True)], ids=["ms", "tenhou"]
)
def test_extension_renchan_with_three_players(rules, renchan):
    """docs/rules.md "Extension renchan" (Tenhou's manual: "a dealer renchan takes priority";
    Mahjong Soul ends the extension once someone has the target): West 1, the dealer wins while
    seat 2 has 41,000; West 3 (the extension's last hand with three), the dealer wins with
    nobody at 40,000."""
    g = dealer_ron(8, rules, points=[30000, 34000, 41000, 0])
    assert g.points == [32000, 32000, 41000, 0], describe(g)
    assert g.done != renchan and (renchan is False or kyoku_honba(g) == (8, 1)), describe(g)
    g = dealer_ron(10, rules, points=[36000, 35000, 34000, 0])
    assert g.points == [34000, 35000, 36000, 0], describe(g)
    assert g.done != renchan and (renchan is False or kyoku_honba(g) == (10, 1)), describe(g)


SCORES = {"mahjongsoul-3p": (35, (15, 0, -15), 0), "tenhou-3p": (40, (20, 0, -20), 15)}


def final(rules, points: list[int]) -> list[float]:
    """(points - return) / 1000 + uma by place, oka to first, for points already in place order."""
    ret, uma, oka = SCORES[rules.name]
    return [
        (p / 1000 - ret) + u + (oka if i == 0 else 0)
        for i, (p, u) in enumerate(zip(points, uma, strict=True))
    ]


@BOTH
def test_placement_ties_with_three_players(rules):
    """docs/rules.md "Placement ties" (as with four): ties go to the seat nearer the starting
    dealer. South 3: seat 0 rons the dealer (seat 2), leaving seats 1 and 2 tied at 30,000; then
    seats 0 and 1 tied at 45,000."""
    g = nondealer_ron(6, rules, points=[43700, 30000, 31300, 0])
    assert g.done and g.points == [45000, 30000, 30000, 0], describe(g)
    assert [int(r) for r in g.state.final_ranks[0]] == [0, 1, 2, 3]
    assert g.final_scores == pytest.approx(final(rules, [45000, 30000, 30000]) + [0.0])
    g = nondealer_ron(6, rules, points=[43700, 45000, 16300, 0])
    assert g.done and g.points == [45000, 45000, 15000, 0], describe(g)
    assert [int(r) for r in g.state.final_ranks[0]] == [0, 1, 2, 3]
    assert g.final_scores == pytest.approx(final(rules, [45000, 45000, 15000]) + [0.0])


@BOTH
def test_leftover_sticks_go_to_first_place_with_three_players(rules):
    """docs/rules.md "Placement ties" (as with four): South 3 ends in a draw (dealer seat 2
    noten) with one stick on the table; seat 0 (44,000) takes it."""
    g = start_hand(hands=[TENPAI, QA, QB, ""], dora="7z", kyoku=6, kyotaku=1,
                   points=[42000, 31000, 31000, 0], rules=rules, seed=3)  # fmt: skip
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE and g.done, describe(g)
    end = [r for r in g.events() if r[0] == EV_GAME_END]
    assert [int(x) for x in end[-1][2:6]] == [45000, 30000, 30000, 0], describe(g)
    assert g.final_scores == pytest.approx(final(rules, [45000, 30000, 30000]) + [0.0])


# -- abortive draws ----------------------------------------------------------------------------


@BOTH
def test_three_equal_wind_discards_do_not_abort(rules):
    """W-MS19, MP: no suufon renda with three players (it needs four first discards)."""
    hands = ["1z19m147p258s2367z", "1z19m369p147s2356z", "1z19m258p369s2367z", ""]
    g = start_hand(hands=hands, draws="9p 9s 1s 5z", rules=rules)
    for s in (0, 1, 2):
        discard(g, s, "1z")
        pass_claims(g)
    assert (g.phase, g.actor) == ("turn", 0) and int(g.state.hand_index[0]) == 1, describe(g)


@BOTH
def test_three_riichi_play_on(rules):
    """W-MS19, MP, docs/rules.md (no three-riichi abort): every seat in riichi, the hand goes on."""
    hands = [TENPAI, "123p456s789s1177z", "123456789s1199p", ""]
    g = start_hand(hands=hands, draws="9m 1m 9m 1s", rules=rules)
    for s in (0, 1, 2):
        act(g, s, A.RIICHI)
        tsumogiri(g, s)
        pass_claims(g)
    assert (g.phase, g.actor) == ("turn", 0) and int(g.state.hand_index[0]) == 1, describe(g)
    assert int(g.state.kyotaku[0]) == 3 and g.points == [34000, 34000, 34000, 0]


@BOTH
def test_kyuushu_kyuuhai_in_both_presets(rules):
    """W-MS19, MP; R-tenhou double_nukidora.json S3-3: kyuushu kyuuhai aborts, dealer keeps it."""
    g = start_hand(hands=["19m12569p159s123z", QB, THIRD, ""], draws="9m", rules=rules)
    act(g, 0, A.KYUUSHU)
    assert last_draw_kind(g) == DRAW_KYUUSHU and kyoku_honba(g) == (0, 1)


# -- nagashi mangan, double yakuman ------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "expected"),
    [(0, [8000, -4000, -4000, 0]), (1, [-4000, 6000, -2000, 0])],
    ids=["dealer", "nondealer"],
)
@BOTH
def test_nagashi_mangan_with_tsumo_loss_both_presets(rules, seat, expected):
    """Decision (docs/rules.md): nagashi mangan is a mangan tsumo with tsumo loss: the dealer
    gets 4,000 from each of two, a non-dealer 4,000 + 2,000."""
    hands = ["2345678s234567p", "2345678p234567s", "234567p234567s8p", ""]
    g = sanma_nagashi(seat, hands, "8s", rules)
    assert last_draw_kind(g) == DRAW_NAGASHI, describe(g)
    assert deltas(g) == expected, describe(g)


@pytest.mark.parametrize(
    ("rules", "paid"),
    [(MAHJONGSOUL_3P, 64000), (TENHOU_3P, 32000)],
    ids=["mahjongsoul-3p", "tenhou-3p"],
)
def test_thirteen_sided_kokushi_ron(rules, paid):
    """R-mjs kokushi13_withnuki.json E3-2 (64,000, double yakuman); Tenhou: single yakuman."""
    hands = ["99p147s1234567z9s", "19m19p19s1234567z", "19m147p258s34567z", ""]
    g = start_hand(hands=hands, draws="1s", rules=rules)
    discard(g, 0, "9s")
    act(g, 1, A.RON)
    assert deltas(g) == [-paid, paid, 0, 0], describe(g, str(last_wins(g)))


def test_exhaustive_draw_is_the_same_in_both_presets():
    """Both presets: 2,000 noten payments (W-MS19; R-tenhou sanma2.xml hand 3)."""
    for rules in (MAHJONGSOUL_3P, TENHOU_3P):
        g = start_hand(hands=[TENPAI, QA, QB, ""], dora="5z", rules=rules, seed=3)
        play_out(g)
        assert last_draw_kind(g) == DRAW_EXHAUSTIVE and deltas(g) == [2000, -1000, -1000, 0]
