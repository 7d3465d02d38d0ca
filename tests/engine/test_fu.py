"""Fu: the fu tables of docs/rules.md (Scoring), through whole hands and the helpers."""

import pytest

from engine.scoring.fu import (
    WAIT_KANCHAN,
    WAIT_PENCHAN,
    WAIT_RYANMEN,
    _pair_fu,
    _round_fu,
    _seq_wait,
    _set_fu,
)
from engine.scoring.hand_score import score_hand
from engine.tiles import CHUN, EAST, M1, M2, M5, M7, M9, SOUTH, WEST

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)


def fu_of(closed, win, **kwargs):
    result = score_hand(closed, win, **kwargs)
    assert result.valid, result
    return result.fu


@pytest.mark.parametrize(
    "tile,is_kan,concealed,fu",
    [
        (M5, False, False, 2),
        (M5, False, True, 4),
        (M1, False, False, 4),
        (CHUN, False, True, 8),
        (M5, True, False, 8),
        (M5, True, True, 16),
        (M9, True, False, 16),
        (EAST, True, True, 32),
    ],
)
def test_set_fu_table(tile, is_kan, concealed, fu):
    assert _set_fu(tile, is_kan, concealed) == fu


def test_pair_fu():
    assert _pair_fu(M5, EAST, EAST) == 0
    assert _pair_fu(CHUN, SOUTH, EAST) == 2
    assert _pair_fu(SOUTH, SOUTH, EAST) == 2
    assert _pair_fu(EAST, SOUTH, EAST) == 2
    assert _pair_fu(EAST, EAST, EAST) == 4
    assert _pair_fu(WEST, SOUTH, EAST) == 0


def test_sequence_waits():
    assert _seq_wait(M2, M2) == WAIT_RYANMEN  # 34 waiting on 2
    assert _seq_wait(M2, 2) == WAIT_KANCHAN  # 2_4
    assert _seq_wait(M1, 2) == WAIT_PENCHAN  # 12 waiting on 3
    assert _seq_wait(M7, M7) == WAIT_PENCHAN  # 89 waiting on 7
    assert _seq_wait(M7, M9) == WAIT_RYANMEN  # 78 waiting on 9
    assert _seq_wait(M1, M1) == WAIT_RYANMEN  # 23 waiting on 1


def test_round_fu():
    assert _round_fu(0, True, True, True) == 20
    assert _round_fu(0, True, False, True) == 30
    assert _round_fu(0, False, False, False) == 30
    assert _round_fu(4, False, True, False) == 30
    assert _round_fu(12, True, False, False) == 50


def test_pinfu_tsumo_is_20_and_ron_30():
    assert fu_of("234m456p678s22s345m", "5m", win_type="tsumo") == 20
    assert fu_of("234m456p678s22s345m", "5m") == 30


def test_open_hand_with_no_fu_is_30():
    assert fu_of("234m456p22s345m", "5m", melds=[("chi", "678s")]) == 30
    assert fu_of("234m456p22s345m", "5m", melds=[("chi", "678s")], win_type="tsumo") == 30


def test_chiitoitsu_is_25():
    assert fu_of("1133m5577p99s1122z", "1z", win_type="tsumo") == 25
    assert fu_of("1133m5577p99s1122z", "1z") == 25


def test_double_wind_pair_is_4():
    # 20 + 10 closed ron + 8 concealed 999m + pair; ryanmen wait on 2s.
    assert fu_of("999m456p789s234s11z", "2s", riichi=True, seat_wind="E", round_wind="E") == 50
    assert fu_of("999m456p789s234s11z", "2s", riichi=True, seat_wind="S", round_wind="E") == 40
    assert fu_of("999m456p789s234s22z", "2s", riichi=True, seat_wind="W", round_wind="E") == 40


@pytest.mark.nojit
@pytest.mark.parametrize("dragon", ["5z", "6z", "7z"], ids=["haku", "hatsu", "chun"])
def test_dragon_pair_is_2(dragon):
    """A dragon pair is a value pair: 2 fu, and the hand is not pinfu."""
    hand = f"234m456p789s234s{dragon[0] * 2}z"
    # 20 + 10 closed ron + dragon pair 2, ryanmen 2s: 32 -> 40 (a non-value pair: pinfu, 30)
    assert fu_of(hand, "2s", riichi=True) == 40
    # tsumo: 20 + 2 tsumo + 2 = 24 -> 30 (a non-value pair: pinfu tsumo, 20)
    assert fu_of(hand, "2s", riichi=True, win_type="tsumo") == 30
    # open: 20 + pons of 999m and another dragon 4 + 4 + kanchan 4p 2 + 2 = 32 -> 40 (else 30)
    other = "7z" if dragon != "7z" else "5z"
    melds = [("pon", "999m"), ("pon", f"{other[0] * 3}z")]
    assert fu_of(f"345p678s{dragon[0] * 2}z", "4p", melds=melds) == 40


def test_ron_completed_triplet_counts_open():
    # Shanpon on 1m/5p: ron on 1m makes 111m an open terminal triplet (4), tsumo keeps it (8).
    assert fu_of("111m456p789s234s55p", "1m", riichi=True) == 40  # 30 + 4 → 34
    assert fu_of("111m456p789s234s55p", "1m", riichi=True, win_type="tsumo") == 30  # 22 + 8


def test_kan_fu():
    # Open: 20 + ankan 9m 32 + daiminkan 5p 8 + seat-wind pair 2 + tanki 2 = 64 → 70.
    # (a kan of 5p holds the ruleset's red 5p: "0555p"; "5555p" is refused as impossible)
    melds = [("ankan", "9999m"), ("daiminkan", "0555p")]
    assert fu_of("234s678s22z", "2z", melds=melds, seat_wind="S", houtei=True) == 70


def test_wait_fu_kanchan_penchan_tanki():
    assert fu_of("234m456p789s234s55p", "3m", riichi=True) == 40  # kanchan 2_4
    assert fu_of("123m456p789s234s55p", "3m", riichi=True) == 40  # penchan 12 + 3
    assert fu_of("123m456p789s234s55p", "5p", riichi=True) == 40  # tanki
    assert fu_of("123m456p789s234s55p", "4s", riichi=True) == 30  # ryanmen 23 + 4 (pinfu)


def test_wait_reading_that_pays_more_wins():
    # 4m can be ryanmen in 234m (pinfu, 2 han 30 fu) or kanchan in 345m (1 han 40 fu).
    r = score_hand("234m456p678s22s345m", "4m")
    assert {y["key"] for y in r.yaku} == {"pinfu", "tanyao"} and r.fu == 30
    # Open: no pinfu to gain, so the penchan reading (+2 fu) wins over ryanmen.
    r = score_hand(
        "123345m99p",
        "3m",
        melds=[("daiminkan", "0555p"), ("pon", "222s")],
        houtei=True,
    )
    assert r.fu == 40


def test_spec_004_worked_examples():
    # Closed ron, riichi + tanyao, concealed 777p, kanchan: 36 → 40 fu, 2 han, 2,600.
    r = score_hand("234m345s678s777p22p", "4s", riichi=True, seat_wind="S")
    assert (r.han, r.fu, r.payments) == (2, 40, {"ron": 2600})
    # Open tsumo, haku pung: 26 → 30 fu, 1 han; 500 + 300 + 300 = 1,100.
    r = score_hand(
        "234m678p345s99p", "9p", melds=[("pon", "555z")], win_type="tsumo", seat_wind="W"
    )
    assert (r.han, r.fu) == (1, 30)
    assert r.payments == {"tsumo_dealer": 500, "tsumo_nondealer": 300} and r.winner_gain == 1100


@pytest.mark.nojit
def test_fu_without_jit():
    assert fu_of("234m456p678s22s345m", "5m", win_type="tsumo") == 20
    assert fu_of("111m456p789s234s55p", "1m", riichi=True) == 40
