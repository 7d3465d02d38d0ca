"""Rule scenarios on constructed walls: kans and dora timing, rinshan, chankan, furiten, pao, abortive draws."""

import pytest

from engine.actions import KAN, PASS, RON, TSUMO
from engine.events import (
    DRAW_EXHAUSTIVE,
    EV_DISCARD,
    EV_DORA,
    EV_RYUUKYOKU,
    EV_WIN,
    EV_YAKU,
    event_rows,
)
from engine.harness.invariants import validate
from engine.harness.scenario import describe, play, start_hand
from engine.scoring.yaku import YAKU_ID
from engine.state import LIVE_END
from engine.tiles import tile136_to_str


def _rows(g):
    return event_rows(g.state)


def _live(g):
    return LIVE_END - int(g.state.n_kans[0]) - int(g.state.wall_pos[0])


def _yaku(g):
    ids = []
    for r in _rows(g):
        if r[0] == EV_YAKU:
            ids += [int(y) for y in (r[2], r[4], r[6]) if y >= 0]
    return ids


S1_FILL = "268m268p268s5677z"
S2_FILL = "3447m347p37s5566z"
S3_FILL = "48m48p48s1234567z"


def test_ankan_reveals_dora_at_once_draws_rinshan_and_shrinks_the_live_wall():
    g = start_hand(
        hands=["1111m234p567s78s1z", S1_FILL, S2_FILL, S3_FILL],
        draws="9s",
        rinshan="2z",
        dora="9p9m",
    )
    assert _live(g) == 69
    play(g, "kan 1m")
    st = g.state
    assert int(st.n_kans[0]) == 1 and int(st.n_dora[0]) == 2
    assert tile136_to_str(int(st.drawn[0])) == "2z" and int(st.rinshan[0]) == 1
    assert _live(g) == 68  # one tile moved from the live wall to the dead wall
    doras = [r for r in _rows(g) if r[0] == EV_DORA]
    assert [int(r[3]) for r in doras] == [0, 1] and tile136_to_str(int(doras[1][2])) == "9m"
    validate(st)


def test_daiminkan_dora_waits_for_the_replacement_discard():
    g = start_hand(
        hands=["1111m234p567s78s1z", "999m268p268s5677z", S2_FILL, S3_FILL],
        draws="9m",
        rinshan="2z",
    )
    play(g, "9m", "kan 9m")
    st = g.state
    assert int(st.turn[0]) == 1 and int(st.n_dora[0]) == 1 and int(st.pending_dora[0]) == 1
    play(g, "2z")
    rows = _rows(g)
    i_disc = max(i for i, r in enumerate(rows) if r[0] == EV_DISCARD)
    i_dora = max(i for i, r in enumerate(rows) if r[0] == EV_DORA)
    assert i_dora > i_disc and int(st.n_dora[0]) == 2 and int(st.pending_dora[0]) == 0
    validate(st)


@pytest.mark.nojit
def test_rinshan_tsumo_reveals_the_pending_kan_dora_first():
    g = start_hand(
        hands=["1111m234p567s78s1z", "999m234p234s5566z", "3447m347p37s1234z", S3_FILL],
        draws="9m",
        rinshan="5z",
        dora="9p7z",
    )
    play(g, "9m", "kan 9m")
    assert g.legal_mask()[TSUMO], describe(g)
    play(g, "tsumo")
    (win,) = [r for r in _rows(g) if r[0] == EV_WIN]
    # rinshan 1 + haku 1 + three dora from the kan's indicator (7z -> 5z) = 5 han: mangan
    assert int(win[4]) == 5
    assert YAKU_ID["rinshan_kaihou"] in _yaku(g)
    assert list(g.state.last_delta[0]) == [-4000, 8000, -2000, -2000], describe(g)


@pytest.mark.nojit
def test_chankan_robs_an_added_kan():
    g = start_hand(
        hands=[
            "88p123m567s78s1z2z9s",
            "268m269p268s5677z",
            "234m567m234s11s79p",
            "48m47p48s1234567z",
        ],
        draws="3z8p4z5z6z8p",
        dora="1p",
    )
    play(g, "3z", "8p", "pass", "pon", "1z", "4z", "5z", "6z")
    assert int(g.state.actor[0]) == 0 and g.legal_mask()[KAN + 16], describe(g)
    play(g, "kan 8p")
    assert int(g.state.actor[0]) == 2 and g.legal_mask()[RON], describe(g)
    play(g, "ron")
    (win,) = [r for r in _rows(g) if r[0] == EV_WIN]
    assert int(win[1]) == 2 and int(win[2]) == 0
    assert YAKU_ID["chankan"] in _yaku(g)
    assert int(g.state.n_kans[0]) == 0  # the robbed kan never completed


def test_permanent_furiten_blocks_ron_on_a_discarded_wait():
    hands = ["2468m2468p2468s7z", "234m567p678s9s555z", "111m111p111s3z4z77z", "345m456p789s1z666z"]
    g = start_hand(hands=hands, draws="9p9s9s", dora="1z")
    play(g, "9p")
    assert g.legal_mask()[TSUMO]  # seat 1 could win; it discards the wait instead
    play(g, "9s")
    play(g, "9s")  # seat 2 discards 9s: seat 1 is furiten and never asked
    assert not (g.phase == "claim" and int(g.state.actor[0]) == 1)


def test_temporary_furiten_after_passing_a_win_clears_on_own_discard():
    hands = ["2468m2468p2468s7z", "234m567p678s9s555z", "111m111p111s3z4z77z", "345m456p789s1z666z"]
    g = start_hand(hands=hands, draws="9s1m", dora="1z")
    play(g, "9s")
    assert int(g.state.actor[0]) == 1 and g.legal_mask()[RON], describe(g)
    play(g, "pass")
    assert int(g.state.furiten_temp[0, 1]) == 1
    play(g, "1m")
    assert int(g.state.furiten_temp[0, 1]) == 0


def test_riichi_furiten_lasts_the_hand():
    hands = ["2468m2468p2468s7z", "234m567p678s9s555z", "111m111p111s3z4z77z", "345m456p789s1z666z"]
    g = start_hand(hands=hands, draws="9p2z9s3z", dora="1z")
    play(g, "9p", "riichi", "2z", "9s", "pass")  # seat 2 discards 9s; seat 3 passes a chi
    assert int(g.state.actor[0]) == 1 and g.legal_mask()[RON], describe(g)
    play(g, "pass", "3z")
    assert int(g.state.furiten_riichi[0, 1]) == 1
    st = g.state
    assert int(st.riichi[0, 1]) == 2  # a first-turn declaration: double riichi


@pytest.mark.nojit
def test_pao_daisangen_tsumo_is_paid_by_the_liable_seat():
    hands = ["2468m2468p2468s3m", "55z66z77z123m456p9s", "3579m3579p3579s1m", "1379m1379p1379s2m"]
    g = start_hand(hands=hands, draws="5z6z1z2z7z3z4z1z4p", dora="9m")
    play(g, "5z", "pon", "9s")  # seat 0 discards haku, seat 1 pons it
    play(g, "6z", "pon", "6p", "pass")  # seat 2 discards hatsu, seat 1 pons; seat 2 passes a chi
    play(g, "1z", "2z", "7z", "pon", "5p")  # seat 0's chun completes the third dragon set
    assert int(g.state.pao_seat[0, 1]) == 0
    play(g, "3z", "4z", "1z", "tsumo")
    (win,) = [r for r in _rows(g) if r[0] == EV_WIN]
    assert int(win[7]) == 0 and int(win[6]) == 1
    assert list(g.state.last_delta[0]) == [-32000, 32000, 0, 0], describe(g)


def test_suufon_renda_aborts():
    hands = ["2468m2468p2468s7z", "268m268p268s5667z", S2_FILL, "489m48p48s234577z"]
    g = start_hand(hands=hands, draws="1z1z1z1z")
    play(g, "1z", "1z", "1z", "1z")
    (r,) = [r for r in _rows(g) if r[0] == EV_RYUUKYOKU]
    assert int(r[2]) == 3
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1


def test_suucha_riichi_aborts_after_the_fourth_stick_is_paid():
    hands = ["123m456m789m111p2z", "123p456p789p111s3z", "234s567s888s999m4z", "222m333p444s555z6z"]
    g = start_hand(hands=hands, draws="7z7z7z7z")
    for _ in range(4):
        play(g, "riichi", "7z")
    (r,) = [r for r in _rows(g) if r[0] == EV_RYUUKYOKU]
    assert int(r[2]) == 4
    assert g.points == [24000] * 4 and int(g.state.kyotaku[0]) == 4
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1


def test_suukaikan_aborts_after_the_fourth_kans_discard():
    hands = [
        "1111m2222m3333m4m",
        "1111p234s567s89s1z",
        "5679m5679p5679s1z",
        "8m8p8s2p3p4p9p2s3s4z3z2z1z",
    ]
    g = start_hand(hands=hands, draws="9m6s", rinshan="5z6z7z2z")
    play(g, "kan 1m", "kan 2m", "kan 3m", "7z", "kan 1p")
    assert int(g.state.n_kans[0]) == 4 and int(g.state.suukaikan_pending[0]) == 1
    assert not any(g.legal_mask()[KAN : KAN + 34])  # no fifth kan
    play(g, "2z")
    (r,) = [r for r in _rows(g) if r[0] == EV_RYUUKYOKU]
    assert int(r[2]) == 5


def test_houtei_discard_can_only_be_ronned():
    """Seat 1 discards the last tile, a 4m seat 2 could pon: no pon is offered (docs/rules.md)."""
    hands = ["1359m1359p1359s7z", S1_FILL, S2_FILL, S3_FILL]
    g = start_hand(hands=hands, draws=["?"] * 69 + ["4m"], seed=8)
    while _live(g) > 0:
        if g.phase == "claim":
            g.step(PASS)
        else:
            d = int(g.state.drawn[0])
            g.step(d // 4 if d not in (16, 52, 88) else 34 + d // 36)
    assert int(g.state.turn[0]) == 1 and tile136_to_str(int(g.state.drawn[0])) == "4m"
    assert int(g.state.closed34[0, 2, 3]) == 2
    play(g, "4m")
    # nobody waits on 4m, and seat 2's pon is not offered: the hand ends in an exhaustive draw
    (r,) = [r for r in _rows(g) if r[0] == EV_RYUUKYOKU]
    assert int(r[2]) == DRAW_EXHAUSTIVE
    assert int(g.state.hand_index[0]) == 2 and g.phase == "turn"


def _tsumogiri_until_live(g, live):
    while _live(g) > live:
        if g.phase == "claim":
            g.step(PASS)
        else:
            d = int(g.state.drawn[0])
            g.step(d // 4 if d not in (16, 52, 88) else 34 + d // 36)


def test_tenhou():
    g = start_hand(hands=["123m456p789s1122z", S1_FILL, S2_FILL, S3_FILL], draws="2z")
    play(g, "tsumo")
    assert YAKU_ID["tenhou"] in _yaku(g)
    assert list(g.state.last_delta[0]) == [48000, -16000, -16000, -16000], describe(g)


def test_chiihou_and_not_after_a_call():
    hands = [S1_FILL, "123m456p789s1122z", S2_FILL, S3_FILL]
    g = start_hand(hands=hands, draws="9m2z")
    play(g, "9m", "tsumo")
    assert YAKU_ID["chiihou"] in _yaku(g)
    assert list(g.state.last_delta[0]) == [-16000, 32000, -8000, -8000], describe(g)


def test_haitei_tsumo_on_the_last_live_tile():
    hands = [S1_FILL, "123m456p789s1122z", S2_FILL, S3_FILL]
    g = start_hand(hands=hands, draws=["?"] * 69 + ["1z"], seed=2)
    _tsumogiri_until_live(g, 0)
    assert int(g.state.turn[0]) == 1 and g.legal_mask()[TSUMO], describe(g)
    play(g, "tsumo")
    assert YAKU_ID["haitei_raoyue"] in _yaku(g)


def test_only_kokushi_may_rob_an_ankan():
    hands = ["1111m234p567s78s1z", "9m19p19s12345677z", S2_FILL, "2468m468p48s2345z"]
    g = start_hand(hands=hands, draws="9s")
    play(g, "kan 1m")
    assert int(g.state.actor[0]) == 1 and g.legal_mask()[RON], describe(g)
    play(g, "ron")
    (win,) = [r for r in _rows(g) if r[0] == EV_WIN]
    assert int(win[6]) == 1 and YAKU_ID["kokushi_musou"] in _yaku(g)  # single wait on 1m
    assert list(g.state.last_delta[0]) == [-32000, 32000, 0, 0], describe(g)


def test_pao_on_ron_splits_the_yakuman_with_the_discarder():
    hands = ["2468m2468p2468s3m", "55z66z77z123m456p9s", "3579m3579p3579s1m", "1379m1379p1379s2m"]
    g = start_hand(hands=hands, draws="5z6z1z2z7z4p", dora="9m")
    play(g, "5z", "pon", "9s", "6z", "pon", "6p", "pass", "1z", "2z", "7z", "pon", "5p")
    play(g, "4p")
    assert int(g.state.actor[0]) == 1 and g.legal_mask()[RON], describe(g)
    play(g, "ron")
    assert list(g.state.last_delta[0]) == [-16000, 32000, -16000, 0], describe(g)


def test_a_wait_on_a_kind_held_four_times_is_not_tenpai():
    g = start_hand(hands=["1111m234p567s789s", S1_FILL, S2_FILL, S3_FILL], seed=6)
    assert int(g.state.n_waits[0, 0]) == 0
    _tsumogiri_until_live(g, 0)
    d = int(g.state.drawn[0])
    g.step(d // 4 if d not in (16, 52, 88) else 34 + d // 36)
    while g.phase == "claim":
        g.step(PASS)
    (r,) = [r for r in _rows(g) if r[0] == EV_RYUUKYOKU]
    assert int(r[3]) & 1 == 0


def test_honba_reset_option_after_a_draw_that_passes_the_deal():
    from engine.rules import MAHJONGSOUL

    hands = ["159m159p159s1234z", S1_FILL, S2_FILL, S3_FILL]
    for rules, honba in ((MAHJONGSOUL, 3), (MAHJONGSOUL.replace(honba_on_pass="reset"), 0)):
        g = start_hand(hands=hands, honba=2, seed=4, rules=rules)
        _tsumogiri_until_live(g, 0)
        d = int(g.state.drawn[0])
        g.step(d // 4 if d not in (16, 52, 88) else 34 + d // 36)
        while g.phase == "claim":
            g.step(PASS)
        assert int(g.state.kyoku[0]) == 1 and int(g.state.honba[0]) == honba


def test_agari_yame_when_the_dealer_wins_the_last_hand_in_first_place():
    g = start_hand(hands=[S1_FILL, S2_FILL, S3_FILL, "123m456p789s1122z"], kyoku=7, draws="2z")
    play(g, "tsumo")
    assert g.done
