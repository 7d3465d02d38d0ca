"""Scenario tests for wins: yaku requirement, haitei/houtei, tenhou/chiihou, multiple ron, sanchahou
and pao.

Rules (Mahjong Soul rules, docs/rules.md "Multiple ron", "Houtei", "Pao", "Ippatsu, double riichi, tenhou,
chiihou"): a win needs a yaku; on the last discard only ron is offered; chiihou is broken by any
call; every ron winner is paid in full by the discarder, honba and sticks go to the first winner in
turn order after the discarder; a triple ron aborts only under the sanchahou rule (Tenhou preset);
pao: on tsumo the liable player pays the whole yakuman, on ron by another player the liable player
and the discarder pay half each; other yakuman and all honba are paid the normal way.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    PINLESS,
    QUIET,
    A,
    act,
    assert_legal,
    assert_not_legal,
    describe,
    discard,
    hand_deltas,
    last_draw_kind,
    last_wins,
    live_left,
    pass_claims,
    pon_three,
    start_hand,
    t34,
    table,
    tsumogiri,
    tsumogiri_each,
    tsumogiri_pass,
    yaku_of,
)
from scenario_helpers import (
    discard_id as discard_id_,
)

from engine.events import DRAW_SANCHAHOU
from engine.rules import MAHJONGSOUL, TENHOU

# ------------------------------------------------------------------------------ yaku required


def test_tsumo_needs_a_yaku():
    """S1 chis 5m and waits 1s-9s shanpon with no yaku: drawing 1s offers no tsumo."""
    hands = [
        "5m147p147s123456z",
        "46m123p789p11s99s5z",
        "258m258p258s1237z",
        "369m369p369s1234z",
    ]
    g = start_hand(hands=hands, draws="9m 8m 1m 6z 1s", dora="3z")
    discard(g, 0, "5m")
    act(g, 1, A.CHI_MID)
    discard(g, 1, "5z")
    tsumogiri_each(g, (2, 3, 0))
    assert g.actor == 1 and g.state.closed34[0, 1, t34("1s")] == 3, describe(g)
    assert_not_legal(g, 1, A.TSUMO, "(open hand, 111s 99s 123p 789p + chi: no yaku)")


def test_ron_needs_a_yaku():
    """S1 waits 1p (no yaku) / 4p (tanyao): S0's 1p offers no ron (a chi only), 4p does."""
    hands = [PINLESS[0], "234m567p888p23p55s", PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, draws="1p", dora="9s")
    tsumogiri(g, 0)
    assert_not_legal(g, 1, A.RON, "(123p 234m 567p 888p 55s: no yaku)")
    g = start_hand(hands=hands, draws="4p", dora="9s")
    tsumogiri(g, 0)
    assert_legal(g, 1, A.RON, "(tanyao on 4p)")


# --------------------------------------------------------------------------- haitei and houtei

# S2 waits 2p-5p; every 2p and the spare 5p are hidden in the dead wall, so nothing before the last
# tile can make S2 furiten.


def _last_draw(g, seat: int):
    for _ in range(300):
        pass_claims(g)
        if g.phase == "turn" and live_left(g) == 0:
            break
        tsumogiri(g)
    assert g.actor == seat and live_left(g) == 0, describe(g, f"S{seat} should draw the last tile")


def _s1_draws_the_last(hands: list[str], last: str, **kwargs):
    """A hand (dora 9s) whose last live tile is ``last``, played until S1 has drawn it."""
    g = start_hand(hands=hands, draws=["?"] * 69 + [last], dora="9s", **kwargs)
    _last_draw(g, 1)
    return g


def test_haitei_tsumo():
    hands = [PINLESS[0], "34p234m567m234s88s", PINLESS[1], PINLESS[2]]
    g = _s1_draws_the_last(hands, "2p", rinshan="5p 5p 5p 0p", ura="2p 2p 2p", seed=1)
    act(g, 1, A.TSUMO)
    assert "haitei_raoyue" in yaku_of(g, 1), describe(g)


def _houtei_discard():
    """S1 draws the last live tile, 5p, and discards it: S2 waits on it, S3 holds 55p."""
    hands = [PINLESS[0], PINLESS[1], "34p234m567m234s88s", "369m369s55p12345z"]
    g = _s1_draws_the_last(hands, "5p", rinshan="2p 2p 2p 2p", ura="0p", seed=2)
    tsumogiri(g, 1)
    return g


def test_houtei_ron_only_no_chi_or_pon_on_the_last_discard():
    """S1 discards the last tile 5p: S2 (34p, left of it S1) may ron but not chi; S3 (55p) no pon."""
    g = _houtei_discard()
    assert g.actor == 2 and g.phase == "claim", describe(g, "S2 waits on 5p")
    assert_not_legal(g, 2, A.CHI_HIGH, "(houtei: only ron)")
    assert_not_legal(g, 2, A.CHI_LOW, "(houtei: only ron)")
    act(g, 2, A.PASS)
    assert g.actor != 3 or g.phase != "claim", describe(g, "houtei: S3 must not be asked to pon")
    assert int(g.state.hand_index[0]) == 2, describe(g, "the hand ends in an exhaustive draw")


def test_houtei_ron():
    g = _houtei_discard()
    act(g, 2, A.RON)
    assert "houtei_raoyui" in yaku_of(g, 2), describe(g)


# ---------------------------------------------------------------------------- tenhou, chiihou

TENPAI_5S_1Z = "123m456p789s55s11z"


@pytest.mark.nojit
def test_tenhou():
    g = table({0: TENPAI_5S_1Z}, draws="0s", dora="9p")
    act(g, 0, A.TSUMO)
    assert "tenhou" in yaku_of(g, 0), describe(g)
    assert hand_deltas(g) == [48000, -16000, -16000, -16000], describe(g, "dealer yakuman tsumo")


def test_chiihou():
    g = table({1: TENPAI_5S_1Z}, draws="9m 0s", dora="9p")
    tsumogiri(g, 0)
    act(g, 1, A.TSUMO)
    assert "chiihou" in yaku_of(g, 1), describe(g)
    assert hand_deltas(g) == [-16000, 32000, -8000, -8000], describe(g)


def test_chiihou_broken_by_a_call():
    """S3 pons S0's first discard; S1's first draw then wins without chiihou."""
    g = table({1: TENPAI_5S_1Z, 2: QUIET[1], 3: "3699m147p258s247z"}, draws="9m 9p 0s", dora="9p")
    tsumogiri(g, 0)
    act(g, 3, A.PON)
    discard(g, 3, "2z")
    tsumogiri(g, 0)
    act(g, 1, A.TSUMO)
    yaku = yaku_of(g, 1)
    assert "chiihou" not in yaku and "menzen_tsumo" in yaku, describe(g, f"yaku {yaku}")


# ------------------------------------------------------------------------------- multiple ron

PINFU_TANYAO_3P = "45p234m567m234s88s"  # ron 3p: 2 han 30 fu
PINFU_3P = "45p678m678s456p99s"  # ron 3p: pinfu only, 1 han 30 fu


def _s0_deals_3p_to_s1_and_s3():
    """S0 discards 3p at two honba and one stick: S1 (pinfu tanyao) and S3 (pinfu) may ron."""
    hands = ["3p147m147s123456z", PINFU_TANYAO_3P, "39m19p15s1234567z", PINFU_3P]
    g = start_hand(hands=hands, draws="9p", dora="9s", honba=2, kyotaku=1)
    discard(g, 0, "3p")
    return g


@pytest.mark.nojit
def test_double_ron_honba_and_sticks_to_the_first_winner_after_the_discarder():
    g = _s0_deals_3p_to_s1_and_s3()
    act(g, 1, A.RON)
    act(g, 3, A.RON)
    assert hand_deltas(g) == [-3600, 3600, 0, 1000], describe(
        g, "S1 (first after S0): 2000 + 600 honba + 1000 stick; S3: 1000; S0 pays 2600 + 1000"
    )
    assert int(g.state.kyoku[0]) == 1 and int(g.state.honba[0]) == 0, describe(
        g, "non-dealer wins: the deal passes, honba reset"
    )


def _s2_deals_in_to_s3_and_s0(**kwargs):
    """S2 discards 3p at two honba: S3 (pinfu tanyao) and S0 (dealer, pinfu) both ron."""
    hands = [PINFU_3P, "39m19p15s1234567z", "3p147m147s123456z", PINFU_TANYAO_3P]
    g = start_hand(hands=hands, draws="1m 9m 2z", dora="9s", honba=2, **kwargs)
    tsumogiri_pass(g, (0, 1))
    discard(g, 2, "3p")
    act(g, 3, A.RON)
    act(g, 0, A.RON)
    return g


def test_double_ron_first_winner_wraps_around():
    """S2 deals in to S3 and S0 (dealer): S3 comes first after S2 and takes honba and stick."""
    g = _s2_deals_in_to_s3_and_s0(kyotaku=1)
    assert hand_deltas(g) == [1500, 0, -4100, 3600], describe(
        g, "S3: 2000 + 600 + 1000 stick; dealer S0: 1500; S2 pays 2600 + 1500"
    )


TRIPLE_HANDS = [
    "3p147m147s12345z9p",
    PINFU_TANYAO_3P,  # 2000
    "45p678m678s456s99s",  # pinfu 1000
    "45p345m678s666z77z",  # hatsu 40 fu: 1300
]


def test_triple_ron_pays_three_winners_in_mahjong_soul():
    g = start_hand(hands=TRIPLE_HANDS, draws="9m", dora="9s")
    discard(g, 0, "3p")
    for s in (1, 2, 3):
        act(g, s, A.RON)
    assert hand_deltas(g) == [-4300, 2000, 1000, 1300], describe(g, "no sanchahou: all paid")


def test_triple_ron_aborts_under_tenhou_rules():
    g = start_hand(hands=TRIPLE_HANDS, draws="9m", dora="9s", rules=TENHOU)
    discard(g, 0, "3p")
    for s in (1, 2, 3):
        act(g, s, A.RON)
    assert last_draw_kind(g) == DRAW_SANCHAHOU and hand_deltas(g) == [0, 0, 0, 0], describe(g)
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1, describe(
        g, "abortive draw: dealer keeps the seat, honba +1"
    )


# ------------------------------------------------------------------------------------- pao

# S1 pons S0's 5z and S2's 6z, then S2's 7z (the third dragon set): S2 is liable for daisangen.
# (Only called sets count towards pao here; see the report.)
PAO_OTHERS = {0: "147m147p147s1235z", 2: "258m258p258s1367z", 3: "369m369p369s1234z"}


def _pao_table(hand1: str, draws: str, **kwargs):
    return table({**PAO_OTHERS, 1: hand1}, draws=draws, dora="8p", **kwargs)


def _pon_dragons_no_check(g):
    pon_three(g, ("5z", "6z", "7z"), ("9m", "1s", "9s"))


def _pon_three_dragons(g):
    _pon_dragons_no_check(g)
    assert int(g.state.pao_seat[0, 1]) == 2, describe(g, "S2 is liable for S1's daisangen")


def _pao_tsumo(hand1: str, draws: str, pon=_pon_three_dragons, **kwargs):
    """``_pao_table``; S1 pons the three dragons, S2, S3 and S0 tsumogiri, S1 wins by tsumo."""
    g = _pao_table(hand1, draws, **kwargs)
    pon(g)
    tsumogiri_each(g, (2, 3, 0))
    act(g, 1, A.TSUMO)
    return g


def _pao_ron_on_s3(hand1: str, draws: str, **kwargs):
    """``_pao_table``; S1 pons the three dragons, S2 tsumogiris, S1 rons S3's tsumogiri."""
    g = _pao_table(hand1, draws, **kwargs)
    _pon_three_dragons(g)
    tsumogiri_each(g, (2, 3))
    act(g, 1, A.RON)
    return g


@pytest.mark.parametrize(
    ("rules", "expected", "why"),
    [
        (
            MAHJONGSOUL,
            [-100, 32300, -32100, -100],
            "daisangen tsumo: S2 pays the whole 32,000; the honba (100 each) is paid normally",
        ),
        (
            MAHJONGSOUL.replace(pao_honba="liable"),
            [0, 32300, -32300, 0],
            "daisangen tsumo, pao_honba liable: S2 pays 32,000 + 300 honba",
        ),
    ],
    ids=["honba_normal", "with_pao_honba_liable"],
)
def test_pao_tsumo_liable_pays_all(rules, expected, why):
    """S2 pays the whole 32,000; the honba is paid normally, or all by S2 under Tenhou's
    pao_honba="liable" (the others then pay nothing)."""
    g = _pao_tsumo("55z66z77z234m5p19s9m", "9p 9m 8m 1m 1p 9s 5p", honba=1, rules=rules)
    assert hand_deltas(g) == expected, describe(g, why)


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        (
            MAHJONGSOUL,
            "daisangen ron on S3: S2 (liable) and S3 pay 16,000 each; S3 pays the 300 honba",
        ),
        (
            MAHJONGSOUL.replace(pao_honba="liable"),
            "pao_honba only changes tsumo: on ron the discarder pays the honba",
        ),
    ],
    ids=["honba_normal", "split_is_the_same_with_pao_honba_liable"],
)
def test_pao_ron_liable_and_discarder_split(rules, why):
    g = _pao_ron_on_s3("55z66z77z234m5p19s9m", "9p 9m 8m 1m 5p", honba=1, rules=rules)
    assert hand_deltas(g) == [0, 32300, -16000, -16300], describe(g, why)


def test_pao_other_yakuman_paid_normally():
    """Daisangen + tsuuiisou by tsumo: S2 pays daisangen whole; tsuuiisou is paid by everyone."""
    g = _pao_tsumo(
        "55z66z77z444z2z19s9m", "9p 9m 8m 1m 1p 9s 2z", points=[25000, 20000, 45000, 10000]
    )
    assert hand_deltas(g) == [-16000, 64000, -40000, -8000], describe(
        g, "S2: 32,000 (pao daisangen) + 8,000 (tsuuiisou share); dealer 16,000; S3 8,000"
    )


def test_no_pao_without_the_rule():
    g = _pao_tsumo(
        "55z66z77z234m5p19s9m",
        "9p 9m 8m 1m 1p 9s 5p",
        pon=_pon_dragons_no_check,
        rules=MAHJONGSOUL.replace(pao=False),
    )
    assert hand_deltas(g) == [-16000, 32000, -8000, -8000], describe(g, "pao off: normal tsumo")


def test_pao_ron_by_the_liable_player_pays_all():
    """S2, liable, deals in itself: S2 pays the whole ron, honba included."""
    g = _pao_table("55z66z77z234m5p19s9m", "9p 9m 8m 5p", honba=1)
    _pon_three_dragons(g)
    tsumogiri(g, 2)
    act(g, 1, A.RON)
    assert hand_deltas(g) == [0, 32300, -32300, 0], describe(g)


# S1 pons all four winds, the 4th (4z) from S2; S1 then waits 1m tanki.
DAISUUSHII_HANDS = {
    0: "147m147p147s1567z",
    1: "11z22z33z44z5z9m9s9p1m",
    2: "258m258p258s2347z",
    3: "369m369p369s5667z",
}


def _daisuushii(rules):
    g = table(DAISUUSHII_HANDS, draws="8s 8m 8p 5m 7p 1p 4s 1m", dora="8p", rules=rules)
    discard(g, 0, "1z")
    act(g, 1, A.PON)
    discard(g, 1, "9m")
    for k, out in (("2z", "9s"), ("3z", "9p"), ("4z", "5z")):
        discard(g, 2, k)
        act(g, 1, A.PON)
        discard(g, 1, out)
    assert int(g.state.pao_seat[0, 1]) == 2, describe(g, "S2 fed the fourth wind set")
    tsumogiri_each(g, (2, 3, 0))
    act(g, 1, A.TSUMO)
    return g


def test_pao_daisuushii_double_yakuman_liable_pays_the_double():
    g = _daisuushii(MAHJONGSOUL)
    assert hand_deltas(g) == [0, 64000, -64000, 0], describe(
        g, "daisuushii is a double yakuman (Mahjong Soul): the liable S2 pays 64,000"
    )


def test_pao_daisuushii_single_under_tenhou():
    g = _daisuushii(TENHOU)
    assert hand_deltas(g) == [0, 32000, -32000, 0], describe(g, "Tenhou: single yakuman")


# ------------------------------------------------------------------------- rule options in play

QUIET_X = "39m19p15s1234567z"
KIRIAGE_HANDS = ["3p147m147s123456z", PINFU_TANYAO_3P, QUIET_X, "258m147p258s4567z"]


@pytest.mark.parametrize("kiriage, paid", [(False, 7700), (True, 8000)])
def test_kiriage_mangan_option(kiriage, paid):
    """Pinfu tanyao + dora 2 (88s, indicator 7s) is 4 han 30 fu: 7,700, or 8,000 with kiriage."""
    rules = MAHJONGSOUL.replace(kiriage_mangan=kiriage)
    g = start_hand(hands=KIRIAGE_HANDS, draws="9p", dora="7s", rules=rules)
    discard(g, 0, "3p")
    act(g, 1, A.RON)
    assert hand_deltas(g) == [-paid, paid, 0, 0], describe(g, f"kiriage={kiriage}")


@pytest.mark.parametrize("rules, mult", [(MAHJONGSOUL, 3), (TENHOU, 2)])
def test_double_yakuman_option(rules, mult):
    """Tenhou with a 13-sided kokushi: 1 + 2 yakuman (Mahjong Soul) or 1 + 1 (Tenhou)."""
    g = table({0: "19m19p19s1234567z"}, draws="1m", dora="5m", rules=rules)
    act(g, 0, A.TSUMO)
    win = last_wins(g)[0]
    assert win["yakuman"] == mult, describe(g, f"yakuman multiplier {win}")


def test_red_five_counts_as_dora():
    """The same ron with a red 5p in hand: 3 han (aka dora 1) instead of 2."""
    hands = ["3p147m147s123456z", "40p234m567m234s88s", QUIET_X, "258m147p258s4567z"]
    g = start_hand(hands=hands, draws="9p", dora="9s")
    discard(g, 0, "3p")
    act(g, 1, A.RON)
    win = last_wins(g)[0]
    assert win["yaku"].get("aka_dora") == 1 and hand_deltas(g)[1] == 3900, describe(g, f"{win}")


def test_dealer_among_double_ron_winners_keeps_the_deal():
    g = _s2_deals_in_to_s3_and_s0()
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 3, describe(
        g, "the dealer won: renchan, honba +1"
    )


def test_sticks_go_to_the_first_actual_winner():
    """S1 declines its ron; S3 alone wins and takes honba and the stick."""
    g = _s0_deals_3p_to_s1_and_s3()
    act(g, 1, A.PASS)
    act(g, 3, A.RON)
    assert hand_deltas(g) == [-1600, 0, 0, 2600], describe(g, "S3: 1000 + 600 honba + stick")


def test_illegal_step_raises_and_explains():
    g = table({0: TENPAI_5S_1Z}, draws="9m", dora="9p")
    assert g.explain(A.TSUMO) != "" and g.explain(discard_id_("9m")) == "", describe(g)
    with pytest.raises(ValueError, match="seat 0"):
        g.step(A.TSUMO)
    act(g, 0, discard_id_("9m"))


def test_render_reads_a_whole_hand():
    g = table({0: TENPAI_5S_1Z}, draws="0s", dora="9p")
    act(g, 0, A.TSUMO)
    text = "\n".join(g.render())
    assert "S0 wins by tsumo on 0s" in text and "tenhou" in text, text


def test_no_step_after_game_over():
    g = start_hand(
        hands=[TENPAI_5S_1Z, *QUIET], draws="0s", dora="9p", points=[20100, 15900, 48000, 16000]
    )
    act(g, 0, A.TSUMO)
    assert g.done and g.legal_actions() == [], describe(g)
    with pytest.raises(ValueError):
        g.step(A.PASS)


KUITAN_HANDS = [
    "5m147p147s123456z",
    "46m234p567p345s8s9s",
    "258m258p258s1237z",
    "369m369p369s1234z",
]


@pytest.mark.parametrize("kuitan", [True, False])
def test_open_tanyao_option(kuitan):
    """S1 chis 5m and waits 8s tanki with open tanyao only: ron only where kuitan is allowed."""
    rules = MAHJONGSOUL.replace(open_tanyao=kuitan)
    g = start_hand(hands=KUITAN_HANDS, draws="9m 9p", dora="1z", rules=rules)
    discard(g, 0, "5m")
    act(g, 1, A.CHI_MID)
    discard(g, 1, "9s")
    discard(g, 2, "8s")
    if kuitan:
        assert_legal(g, 1, A.RON, "(open tanyao allowed)")
    else:
        assert_not_legal(g, 1, A.RON, "(kuitan off: an open all-simples hand has no yaku)")


def test_chiihou_broken_by_a_closed_kan():
    """S0 (dealer) ankans 1p on its first turn; S1's first draw then wins without chiihou."""
    hands = ["1111p47m789p147s9s", TENPAI_5S_1Z, PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, draws="2p 0s", rinshan="3p", dora="9m")
    act(g, 0, A.KAN + t34("1p"))
    discard(g, 0, "2p")
    pass_claims(g)
    act(g, 1, A.TSUMO)
    yaku = yaku_of(g, 1)
    assert "chiihou" not in yaku, describe(g, f"a closed kan breaks chiihou; yaku {yaku}")


def test_pao_ron_other_yakuman_paid_by_the_discarder():
    """Daisangen + tsuuiisou ron on S3: S2 pays half the daisangen (16,000); S3 pays the other
    half and the whole tsuuiisou (16,000 + 32,000)."""
    g = _pao_ron_on_s3(
        "55z66z77z444z2z19s9m", "9p 9m 8m 1m 2z", points=[25000, 20000, 45000, 10000]
    )
    assert hand_deltas(g) == [0, 64000, -16000, -48000], describe(g)


def test_two_red_5p_under_red_fives_121():
    """red_fives=(1, 2, 1) (the variant rules): both red 5p in the winning hand count as aka dora."""
    rules = MAHJONGSOUL.replace(red_fives=(1, 2, 1))
    hands = ["2p147m147s123456z", "3400p234m567m234s", QUIET_X, "258m147p258s4567z"]
    g = start_hand(hands=hands, draws="9p", dora="9s", rules=rules)
    discard(g, 0, "2p")
    act(g, 1, A.RON)
    win = last_wins(g)[0]
    assert win["yaku"].get("aka_dora") == 2, describe(g, f"{win}")


# S2 holds 222z (South) and waits 6s-9s; the dealer discards 9s on its first turn.
WINNER_222Z = "222z345m567p678s9s"
DEALER_9S = "9s147m147p134567z"
WIND_QUIET = ("369m369p369s1457z", "258m258p25s1367z8s")


@pytest.mark.parametrize(
    "kyoku, yaku_keys",
    [
        (1, {"seat_wind_south"}),
        (4, {"round_wind_south"}),
        (5, {"seat_wind_south", "round_wind_south"}),
    ],
    ids=["East2-seat", "South1-round", "South2-double"],
)
def test_wind_yakuhai_follow_seat_and_round(kyoku, yaku_keys):
    """S2's 222z: East 2 (dealer S1) S2 sits South; South 1 (dealer S0) S2 sits West in the
    South round; South 2 (dealer S1) both."""
    d = kyoku % 4
    others = iter(WIND_QUIET)
    hands = [DEALER_9S if s == d else WINNER_222Z if s == 2 else next(others) for s in range(4)]
    g = start_hand(hands=hands, draws="8m", dora="9p", kyoku=kyoku)
    discard(g, d, "9s")
    act(g, 2, A.RON)
    yaku = yaku_of(g, 2)
    wind_yaku = {k for k in yaku if "wind" in k}
    assert wind_yaku == yaku_keys, describe(g, f"yaku {yaku}")


def test_pinfu_tsumo_is_20_fu():
    hands = [PINLESS[0], "234m678s234p45p88s", PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, draws="1z 9m 9s 2z 3z 3p", dora="9p")
    tsumogiri_pass(g, (0, 1, 2, 3, 0))
    act(g, 1, A.TSUMO)
    win = last_wins(g)[0]
    assert (win["han"], win["fu"]) == (3, 20), describe(g, f"pinfu tanyao tsumo: {win}")
    assert hand_deltas(g) == [-1300, 2700, -700, -700], describe(g)


SHANPON_SANANKOU = "111m222p333s44z55z"


def test_ron_on_shanpon_is_not_suuankou():
    g = table({1: SHANPON_SANANKOU}, draws="5z", dora="9p")
    tsumogiri(g, 0)
    act(g, 1, A.RON)
    yaku = yaku_of(g, 1)
    assert "suuankou" not in yaku and "sanankou" in yaku, describe(g, f"yaku {yaku}")


def test_tsumo_on_shanpon_is_suuankou():
    g = table({1: SHANPON_SANANKOU}, draws="9m 9p 9s 8m 7z 5z", dora="9p")
    tsumogiri_pass(g, (0, 1, 2, 3, 0))
    act(g, 1, A.TSUMO)
    yaku = yaku_of(g, 1)
    assert "suuankou" in yaku, describe(g, f"yaku {yaku}")
