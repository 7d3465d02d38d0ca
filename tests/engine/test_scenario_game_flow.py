"""Scenario tests for the game flow: renchan and honba, game length, the extension round,
agari-yame / tenpai-yame, busting and the final scores.

Rules (Mahjong Soul rules "Game length and ending", "Setup and scoring", docs/rules.md options table and
"Abortive draws", "Placement ties"): the dealer keeps the seat after a dealer win, a tenpai
exhaustive draw or an abortive draw; honba goes up on renchan and on any draw (or resets on a
passing draw under ``honba_on_pass="reset"``), and resets after a non-dealer win; if nobody has
30,000 after the last hand, play extends one wind and ends as soon as someone has 30,000, at the
latest after its 4th hand; agari-yame / tenpai-yame end the game when the last hand's dealer wins
or is tenpai in first place with 30,000+; the game ends when a player drops below 0 (0 is fine);
final score = (points − 30,000)/1000 + uma (+ oka 20 to first), ties go to the seat closer to the
starting dealer, leftover sticks to first place.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    QUIET,
    A,
    act,
    describe,
    discard,
    pass_claims,
    start_hand,
    tsumogiri,
)

from engine.events import EV_GAME_END
from engine.rules import MAHJONGSOUL

PINFU_TANYAO_3P = "45p234m567m234s88s"  # ron 3p: 2 han 30 fu (2000, dealer 2900)
DISCARDS_3P = "3p147m147s123456z"
QUIET_X = "39m19p15s1234567z"
QUIET_Y = "258m147p258s4567z"
TENHOU_HAND = "123m456p789s55s11z"  # + 0s: dealer tenhou, 16,000 from each

TA = "123m456m789m11z22z"
TB = "123p456p789p33z44z"
TC = "123s456s789s55z66z"
N1 = "147m258p369s1357z"
N2 = "258m369p147s2467z"
N3 = "369m147p258s1346z"


def seat_hands(dealer: int, by_offset: list[str]) -> list[str]:
    """Hands by absolute seat from hands given by offset from the dealer."""
    return [by_offset[(s - dealer) % 4] for s in range(4)]


def nondealer_ron(kyoku: int, **kwargs):
    """The dealer's first discard 3p is ronned by the next seat (2000)."""
    d = kyoku % 4
    hands = seat_hands(d, [DISCARDS_3P, PINFU_TANYAO_3P, QUIET_X, QUIET_Y])
    g = start_hand(hands=hands, draws="9p", dora="9s", kyoku=kyoku, **kwargs)
    discard(g, d, "3p")
    act(g, (d + 1) % 4, A.RON)
    return g


def dealer_ron(kyoku: int, **kwargs):
    """The next seat's first discard 3p is ronned by the dealer (2900)."""
    d = kyoku % 4
    hands = seat_hands(d, [PINFU_TANYAO_3P, DISCARDS_3P, QUIET_Y, QUIET_X])
    g = start_hand(hands=hands, draws="9m 9p", dora="9s", kyoku=kyoku, **kwargs)
    tsumogiri(g, d)
    pass_claims(g)
    discard(g, (d + 1) % 4, "3p")
    act(g, d, A.RON)
    return g


def dealer_tenhou(kyoku: int, **kwargs):
    d = kyoku % 4
    hands = seat_hands(d, [TENHOU_HAND, *QUIET])
    g = start_hand(hands=hands, draws="0s", dora="9p", kyoku=kyoku, **kwargs)
    act(g, d, A.TSUMO)
    return g


def exhaustive(hands: list[str], kyoku: int = 0, **kwargs):
    g = start_hand(hands=hands, dora="9p", kyoku=kyoku, seed=21, **kwargs)
    start = int(g.state.hand_index[0])
    for _ in range(400):
        if g.done or int(g.state.hand_index[0]) != start:
            return g
        if g.phase == "claim":
            pass_claims(g)
        else:
            tsumogiri(g)
    raise AssertionError(describe(g, "the hand did not end"))


def kyoku_honba(g) -> tuple[int, int]:
    return int(g.state.kyoku[0]), int(g.state.honba[0])


# ------------------------------------------------------------------------- renchan and honba


@pytest.mark.nojit
def test_dealer_win_renchan_honba_up():
    g = dealer_ron(1, honba=2)
    assert g.points == [25000, 25000 + 2900 + 600, 25000 - 3500, 25000], describe(g)
    assert kyoku_honba(g) == (1, 3), describe(g, "dealer win: renchan, honba +1")


def test_nondealer_win_passes_deal_honba_reset():
    g = nondealer_ron(2, honba=3)
    assert g.points == [25000, 25000, 25000 - 2900, 25000 + 2900], describe(g)
    assert kyoku_honba(g) == (3, 0), describe(g, "non-dealer win: deal passes, honba 0")


def test_dealer_tenpai_draw_renchan():
    g = exhaustive([TA, N1, N2, N3], honba=1)
    assert kyoku_honba(g) == (0, 2), describe(g, "dealer tenpai: renchan, honba +1")


def test_dealer_noten_draw_passes_honba_up():
    g = exhaustive([N1, TB, N2, TC], honba=1)
    assert kyoku_honba(g) == (1, 2), describe(g, "deal passes on a draw: honba +1")


def test_dealer_noten_draw_honba_reset_option():
    rules = MAHJONGSOUL.replace(honba_on_pass="reset")
    g = exhaustive([N1, TB, N2, TC], honba=1, rules=rules)
    assert kyoku_honba(g) == (1, 0), describe(g, 'honba_on_pass="reset"')


def test_abortive_draw_keeps_dealer_even_with_reset_option():
    rules = MAHJONGSOUL.replace(honba_on_pass="reset")
    hands = ["19m19p19s123z258m5p", N2, N3, "147m147p147s2358s"]
    g = start_hand(hands=hands, draws="6p", dora="8p", rules=rules, honba=1)
    act(g, 0, A.KYUUSHU)
    assert kyoku_honba(g) == (0, 2), describe(g, "abortive draw: dealer keeps, honba +1")


# ------------------------------------------------------------------------------- game length


def test_tonpuusen_ends_after_east_4():
    rules = MAHJONGSOUL.replace(game_length="tonpuusen")
    g = nondealer_ron(3, rules=rules, points=[31000, 23000, 23000, 23000])
    assert g.done, describe(g, "tonpuusen: East 4 passed with 31,000+ on the table: game over")


def test_hanchan_goes_on_after_east_4():
    g = nondealer_ron(3, points=[31000, 23000, 23000, 23000])
    assert not g.done and kyoku_honba(g) == (4, 0), describe(g, "hanchan: South 1 follows")


def test_hanchan_ends_after_south_4():
    g = nondealer_ron(7, points=[31000, 23000, 23000, 23000])
    assert g.done, describe(g, "South 4 passed with someone at 30,000+: game over")


def test_extension_round_when_nobody_has_30000():
    g = nondealer_ron(7)
    assert g.points == [27000, 25000, 25000, 23000], describe(g)
    assert not g.done and kyoku_honba(g) == (8, 0), describe(
        g, "nobody has 30,000 after South 4: West 1 (extension) is played"
    )


def test_tonpuusen_extension_into_south():
    rules = MAHJONGSOUL.replace(game_length="tonpuusen")
    g = nondealer_ron(3, rules=rules)
    assert not g.done and kyoku_honba(g) == (4, 0), describe(g, "tonpuusen extends into South")


def test_extension_ends_once_someone_has_30000():
    g = nondealer_ron(8, points=[25000, 28500, 23000, 23500])
    assert g.points[1] == 30500 and g.done, describe(g, "extension: 30,000 reached, game over")


def test_extension_ends_after_its_fourth_hand():
    g = nondealer_ron(11)
    assert max(g.points) < 30000 and g.done, describe(g, "West 4 is the last hand regardless")


def test_no_extension_when_rule_off():
    rules = MAHJONGSOUL.replace(extension_round=False)
    g = nondealer_ron(7, rules=rules)
    assert g.done, describe(g, "extension off: the game ends after South 4")


# ---------------------------------------------------------------------- agari-yame, tenpai-yame


def test_agari_yame_dealer_first_with_30000():
    g = dealer_ron(7, points=[20000, 25000, 25000, 30000])
    assert g.done, describe(g, "last hand: dealer wins in first with 30,000+: agari-yame")


def test_no_agari_yame_when_dealer_not_first():
    g = dealer_ron(7, points=[40000, 30000, 20000, 10000])
    assert not g.done and kyoku_honba(g) == (7, 1), describe(g, "dealer not first: renchan")


def test_no_agari_yame_when_rule_off():
    rules = MAHJONGSOUL.replace(agari_yame=False)
    g = dealer_ron(7, points=[20000, 25000, 25000, 30000], rules=rules)
    assert not g.done and kyoku_honba(g) == (7, 1), describe(g, "agari-yame off: renchan")


def test_tenpai_yame():
    hands = [N1, N2, N3, TA]
    g = exhaustive(hands, kyoku=7, points=[20000, 20000, 20000, 40000])
    assert g.done, describe(g, "last hand: dealer tenpai at the draw in first with 30,000+")


def test_no_tenpai_yame_when_rule_off_but_agari_yame_still_on():
    rules = MAHJONGSOUL.replace(tenpai_yame=False)
    hands = [N1, N2, N3, TA]
    g = exhaustive(hands, kyoku=7, points=[20000, 20000, 20000, 40000], rules=rules)
    assert not g.done and kyoku_honba(g) == (7, 1), describe(g, "tenpai-yame off: renchan")
    g = dealer_ron(7, points=[20000, 25000, 25000, 30000], rules=rules)
    assert g.done, describe(g, "agari-yame is a separate rule and still ends the game")


def test_no_tenpai_yame_when_dealer_not_first():
    hands = [N1, N2, N3, TA]
    g = exhaustive(hands, kyoku=7, points=[40000, 20000, 20000, 20000])
    assert not g.done and kyoku_honba(g) == (7, 1), describe(g, "dealer not first: renchan")


# -------------------------------------------------------------------------------- busting


def test_bust_below_zero_ends_the_game():
    g = dealer_tenhou(0, points=[20100, 15900, 48000, 16000])
    assert g.points == [68100, -100, 32000, 0], describe(g)
    assert g.done, describe(g, "S1 dropped below 0: the game ends at once")
    assert g.final_scores == pytest.approx([73.1, -45.1, 7.0, -35.0]), describe(
        g, f"final scores {g.final_scores}: (points-30000)/1000 + uma 15/5/-5/-15 + oka 20"
    )


def test_exactly_zero_does_not_bust():
    g = dealer_tenhou(0, points=[20000, 16000, 48000, 16000])
    assert g.points == [68000, 0, 32000, 0] and not g.done, describe(g, "0 exactly is fine")


def test_no_bust_when_rule_off():
    rules = MAHJONGSOUL.replace(busting=False)
    g = dealer_tenhou(0, points=[20100, 15900, 48000, 16000], rules=rules)
    assert not g.done, describe(g, "busting off: play on")


# ---------------------------------------------------------------------------- final scores


def test_placement_ties_go_to_the_seat_nearer_the_starting_dealer():
    g = dealer_tenhou(0, points=[20100, 15900, 32000, 32000])
    assert g.points == [68100, -100, 16000, 16000] and g.done, describe(g)
    assert [int(r) for r in g.state.final_ranks[0]] == [0, 3, 1, 2], describe(
        g, "S2 and S3 tie at 16,000: S2 (nearer seat 0) places higher"
    )
    assert g.final_scores == pytest.approx([73.1, -45.1, -9.0, -19.0]), describe(g)


def test_leftover_sticks_go_to_first_place():
    """Tonpuusen East 4 ends in a draw with 2 sticks on the table: first place takes them."""
    rules = MAHJONGSOUL.replace(game_length="tonpuusen")
    g = exhaustive(
        [TA, N1, N2, N3], kyoku=3, points=[40000, 20000, 20000, 18000], kyotaku=2, rules=rules
    )
    assert g.done, describe(g)
    end = [r for r in g.events() if r[0] == EV_GAME_END]
    assert end and [int(x) for x in end[-1][2:6]] == [45000, 19000, 19000, 17000], describe(
        g, "S0 (43,000) takes the 2 leftover sticks"
    )
    assert g.final_scores == pytest.approx([50.0, -6.0, -16.0, -28.0]), describe(
        g, f"final scores {g.final_scores}; S1 and S2 tie at 19,000, S1 places higher"
    )


def test_final_scores_under_tenhou_uma():
    """Tenhou preset: uma 20/10/-10/-20, oka 20."""
    from engine.rules import TENHOU

    g = dealer_tenhou(0, points=[20100, 15900, 48000, 16000], rules=TENHOU)
    assert g.done, describe(g)
    assert g.final_scores == pytest.approx([78.1, -50.1, 12.0, -40.0]), describe(
        g, f"final scores {g.final_scores}"
    )


@pytest.mark.parametrize("hands_, over", [(2, True), (4, False)])
def test_extension_hands_option(hands_, over):
    """West 2 ends the game when the extension has 2 hands; with 4 it goes on."""
    rules = MAHJONGSOUL.replace(extension_hands=hands_)
    g = nondealer_ron(9, rules=rules)
    assert max(g.points) < 30000 and g.done == over, describe(g, f"extension_hands={hands_}")
