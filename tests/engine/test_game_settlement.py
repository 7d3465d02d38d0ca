"""Settlement and game end: ron/tsumo payments, multiple ron, sticks and honba, draws, final scores."""

import numpy as np
import pytest

from engine.actions import PASS, RON
from engine.events import EV_GAME_END, EV_RYUUKYOKU, EV_WIN, event_rows
from engine.hand_end import _end_game
from engine.harness.invariants import validate
from engine.harness.scenario import describe, play, start_hand
from engine.rules import MAHJONGSOUL, TENHOU

NOTEN = ["159m159p159s1234z", "268m268p268s5677z", "3447m347p37s5566z", "48m48p48s1234567z"]


def _wins(g):
    return [r for r in event_rows(g.state) if r[0] == EV_WIN]


def _tsumogiri_to_end_of_hand(g):
    from engine.actions import DISCARD_RED

    hand = int(g.state.hand_index[0])
    while not g.done and int(g.state.hand_index[0]) == hand:
        if g.phase == "claim":
            g.step(PASS)
        else:
            d = int(g.state.drawn[0])
            g.step(DISCARD_RED + d // 36 if d in (16, 52, 88) else d // 4)
        validate(g.state)


def test_double_riichi_ippatsu_ron_with_ura():
    hands = ["123m456p789s1122z", NOTEN[1], NOTEN[2], NOTEN[3]]
    g = start_hand(hands=hands, draws="9m1z", dora="9p", ura="9m")
    play(g, "riichi", "9m", "1z")
    assert g.legal_mask()[RON] and int(g.state.actor[0]) == 0
    play(g, "ron")
    (win,) = _wins(g)
    # double riichi 2, ippatsu 1, East seat 1, East round 1, ura (1m) 1 = 6 han: dealer haneman
    assert win[1] == 0 and win[2] == 1 and win[4] == 6
    assert g.points[:2] == [25000 - 1000 + 18000 + 1000, 25000 - 18000]
    assert int(g.state.kyotaku[0]) == 0
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1  # dealer win: renchan


@pytest.mark.nojit
def test_double_ron_pays_both_and_gives_honba_and_sticks_to_the_first_winner():
    hands = ["2468m2468p2468s7z", "234m567p678s9s555z", "111m111p111s3z4z77z", "345m456p789s9s666z"]
    g = start_hand(hands=hands, draws="9s", dora="1z", honba=2, kyotaku=1)
    play(g, "9s")
    assert int(g.state.actor[0]) == 1 and g.legal_mask()[RON]
    play(g, "ron")
    assert int(g.state.actor[0]) == 3
    play(g, "ron")
    w1, w3 = _wins(g)
    assert (w1[1], w3[1]) == (1, 3)
    assert g.points == [24000 - 1900 - 1300, 25000 + 1900 + 1000, 25000, 25000 + 1300], describe(g)
    # a non-dealer won: the deal passes, honba resets
    assert int(g.state.kyoku[0]) == 1 and int(g.state.honba[0]) == 0


def test_triple_ron_pays_all_three_or_aborts_with_sanchahou():
    hands = ["2468m2468p2468s7z", "234m567p678s9s555z", "123m789p78s11s777z", "345m456p789s9s666z"]
    for rules, aborted in ((MAHJONGSOUL, False), (TENHOU, True)):
        g = start_hand(hands=hands, draws="9s", dora="1z", rules=rules)
        play(g, "9s", "ron", "ron", "ron")
        rows = event_rows(g.state)
        if aborted:
            assert not _wins(g)
            assert any(r[0] == EV_RYUUKYOKU and r[2] == 6 for r in rows)
            assert g.points == [25000] * 4 and int(g.state.kyoku[0]) == 0
            assert int(g.state.honba[0]) == 1
        else:
            assert [int(w[1]) for w in _wins(g)] == [1, 2, 3]
            assert int(g.state.kyoku[0]) == 1


def test_nagashi_mangan_is_paid_like_a_tsumo_mangan():
    terminals = "1m9m1p9p1s9s1z2z3z4z5z6z7z" * 2
    # seat 1 draws only terminals/honors; everybody discards what they draw
    draws = []
    for i in range(70):
        draws.append(terminals[2 * (i // 4 % 13) : 2 * (i // 4 % 13) + 2] if i % 4 == 1 else "?")
    hands = ["2345m2345p2345s6m", "66788m6678p6678s", "3344m3344p3344s7m", "2257m2257p2257s8m"]
    g = start_hand(hands=hands, draws=draws, dora="8s", seed=3)
    _tsumogiri_to_end_of_hand(g)
    rows = event_rows(g.state)
    ryuu = [r for r in rows if r[0] == EV_RYUUKYOKU]
    assert len(ryuu) == 1 and ryuu[0][2] == 1 and ryuu[0][4] == 0b0010
    # non-dealer nagashi: dealer pays 4000, the others 2000 each (no tenpai payments)
    assert int(g.state.last_delta[0, 1]) == 8000 and int(g.state.last_delta[0, 0]) == -4000


def test_busting_ends_the_game():
    hands = ["123m456p789s1122z", NOTEN[1], NOTEN[2], NOTEN[3]]
    g = start_hand(hands=hands, points=[25000, 500, 49500, 25000], kyoku=1, seed=4)
    _tsumogiri_to_end_of_hand(g)  # only seat 0 is tenpai: seat 1 pays 1000 and drops below 0
    assert g.done
    assert g.points[1] == -500
    assert any(r[0] == EV_GAME_END for r in event_rows(g.state))


def test_last_hand_ends_when_the_deal_passes_and_someone_has_30000():
    g = start_hand(hands=NOTEN, kyoku=7, points=[31000, 23000, 23000, 23000], seed=4)
    _tsumogiri_to_end_of_hand(g)
    assert g.done
    assert g.final_scores == [31000 / 1000 - 30 + 15 + 20, 23 - 30 + 5, 23 - 30 - 5, 23 - 30 - 15]


def test_last_hand_goes_to_the_extension_when_nobody_has_30000():
    g = start_hand(hands=NOTEN, kyoku=7, seed=4)
    _tsumogiri_to_end_of_hand(g)
    assert not g.done and int(g.state.kyoku[0]) == 8


def test_extension_ends_after_its_last_hand():
    g = start_hand(hands=NOTEN, kyoku=11, seed=4)
    _tsumogiri_to_end_of_hand(g)
    assert g.done


def test_tonpuusen_extension_goes_to_south():
    rules = MAHJONGSOUL.replace(game_length="tonpuusen")
    g = start_hand(hands=NOTEN, kyoku=3, seed=4, rules=rules)
    _tsumogiri_to_end_of_hand(g)
    assert not g.done and int(g.state.kyoku[0]) == 4


def test_tenpai_yame_ends_the_game_when_the_dealer_is_first():
    hands = [NOTEN[0], NOTEN[1], NOTEN[2], "123m456p789s1122z"]
    g = start_hand(hands=hands, kyoku=7, points=[20000, 20000, 20000, 40000], seed=4)
    _tsumogiri_to_end_of_hand(g)
    assert g.done and g.points[3] == 43000


def test_dealer_tenpai_but_not_first_continues_the_last_hand():
    hands = [NOTEN[0], NOTEN[1], NOTEN[2], "123m456p789s1122z"]
    g = start_hand(hands=hands, kyoku=7, points=[40000, 20000, 20000, 20000], seed=4)
    _tsumogiri_to_end_of_hand(g)
    assert not g.done and int(g.state.kyoku[0]) == 7 and int(g.state.honba[0]) == 1


@pytest.mark.nojit
def test_final_scores_ties_go_to_the_seat_nearer_the_first_dealer_and_sticks_to_first():
    g = start_hand(hands=NOTEN, points=[24000, 24000, 24000, 26000], kyotaku=2)
    st = g.state
    st.points[0] = [24000, 25000, 25000, 24000]
    _end_game(st.records, 0, st.events)
    # seats 1 and 2 tie at 25000: seat 1 is first and takes the 2 sticks
    assert list(st.final_ranks[0]) == [2, 0, 1, 3]
    assert list(st.points[0]) == [24000, 27000, 25000, 24000]
    assert np.allclose(st.final_scores[0], [-6 - 5, -3 + 15 + 20, -5 + 5, -6 - 15])
    assert abs(sum(st.final_scores[0])) < 1e-9
