"""Scenario tests for the game flow: renchan and honba, game length, the extension round,
agari-yame / tenpai-yame, busting and the final scores.

Rules (Mahjong Soul rules "Game length and ending", "Setup and scoring", docs/rules.md options table and
"Abortive draws", "Placement ties"): the dealer keeps the seat after a dealer win, a tenpai
exhaustive draw or an abortive draw; honba goes up on renchan and on any draw (or resets on a
passing draw under ``honba_on_pass="reset"``), and resets after a non-dealer win; if nobody has
30,000 after the last hand, play extends one wind and ends as soon as someone has 30,000, at the
latest after its 4th hand (``extension_renchan``, Tenhou: a hand in which the dealer keeps the
deal goes on in the extension, even past 30,000 and in its 4th hand, unless agari-yame /
tenpai-yame end it); agari-yame / tenpai-yame end the game when the last hand's dealer wins
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
    kyoku_honba,
    pass_claims,
    start_hand,
    tsumogiri,
)

from engine.events import EV_GAME_END
from engine.rules import MAHJONGSOUL, TENHOU, TENHOU_2009

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


# ------------------------------------------------ extension renchan (docs/rules.md, End of the game)

RENCHAN_FIRST = MAHJONGSOUL.replace(extension_renchan=True, name="renchan-first")
"""Mahjong Soul with Tenhou's extension rule: a dealer renchan takes priority."""
KYUUSHU_HAND = "19m19p19s123z258m5p"


def kyuushu(kyoku: int, **kwargs):
    """The dealer (seat 0) declares kyuushu kyuuhai on the first draw: an abortive draw."""
    hands = [KYUUSHU_HAND, N2, N3, "147m147p147s2358s"]
    g = start_hand(hands=hands, draws="6p", dora="8p", kyoku=kyoku, **kwargs)
    act(g, 0, A.KYUUSHU)
    return g


@pytest.mark.nojit
def test_extension_dealer_tenpai_while_another_seat_has_30000():
    """West 1, exhaustive draw, only the dealer tenpai (+3000); seat 1 ends at 31,000 (RiichiEnv
    tenhou_seed288 W1-0 is this case)."""
    points = [20000, 32000, 24000, 24000]
    g = exhaustive([TA, N1, N2, N3], kyoku=8, points=points)
    assert g.points == [23000, 31000, 23000, 23000], describe(g)
    assert g.done, describe(g, "Mahjong Soul: someone has 30,000 in the extension: game over")
    for rules in (RENCHAN_FIRST, TENHOU):
        g = exhaustive([TA, N1, N2, N3], kyoku=8, points=points, rules=rules)
        assert not g.done and kyoku_honba(g) == (8, 1), describe(
            g, f"{rules.name}: the dealer's renchan takes priority: West 1, 1 honba"
        )


def test_extension_dealer_win_while_another_seat_has_30000():
    points = [20000, 24000, 32000, 24000]
    g = dealer_ron(8, points=points)
    assert g.points == [22900, 21100, 32000, 24000], describe(g)
    assert g.done, describe(g, "Mahjong Soul: someone has 30,000 in the extension: game over")
    g = dealer_ron(8, points=points, rules=RENCHAN_FIRST)
    assert not g.done and kyoku_honba(g) == (8, 1), describe(g, "renchan first: West 1-1")


def test_extension_abortive_draw_while_someone_has_30000():
    points = [20000, 31000, 24000, 25000]
    assert kyuushu(8, points=points).done
    g = kyuushu(8, points=points, rules=RENCHAN_FIRST)
    assert not g.done and kyoku_honba(g) == (8, 1), describe(g, "abortive draw: renchan first")


def test_extension_last_hand_renchan():
    """West 4, dealer (seat 3) tenpai at the draw, nobody at 30,000."""
    hands = [N1, N2, N3, TA]
    g = exhaustive(hands, kyoku=11)
    assert g.points == [24000, 24000, 24000, 28000] and g.done, describe(
        g, "Mahjong Soul: West 4 is the last hand whatever happens"
    )
    g = exhaustive(hands, kyoku=11, rules=RENCHAN_FIRST)
    assert not g.done and kyoku_honba(g) == (11, 1), describe(g, "renchan first: West 4-1")
    g = dealer_ron(11, rules=RENCHAN_FIRST)
    assert not g.done and kyoku_honba(g) == (11, 1), describe(g, "a dealer win too: West 4-1")


def test_extension_renchan_still_ends_by_agari_yame():
    """West 1: the dealer wins and is first with 30,900."""
    points = [28000, 24000, 24000, 24000]
    for rules in (MAHJONGSOUL, RENCHAN_FIRST, TENHOU):
        assert dealer_ron(8, points=points, rules=rules).done, rules.name
    g = dealer_ron(8, points=points, rules=RENCHAN_FIRST.replace(agari_yame=False))
    assert not g.done and kyoku_honba(g) == (8, 1), describe(g, "no agari-yame: renchan first")
    g = dealer_ron(8, points=points, rules=MAHJONGSOUL.replace(agari_yame=False))
    assert g.done, describe(g, "Mahjong Soul: the dealer has 30,000 in the extension: game over")


def test_extension_renchan_and_tenpai_yame():
    """West 1: the dealer is tenpai at the draw and first with 31,000 (Tenhou: "the all-last
    dealer includes the dealer of the sudden-death hands after it")."""
    points = [28000, 24000, 24000, 24000]
    hands = [TA, N1, N2, N3]
    for rules in (RENCHAN_FIRST, TENHOU):
        g = exhaustive(hands, kyoku=8, points=points, rules=rules)
        assert g.points == [31000, 23000, 23000, 23000] and g.done, describe(g, rules.name)
    g = exhaustive(hands, kyoku=8, points=points, rules=TENHOU_2009)
    assert not g.done and kyoku_honba(g) == (8, 1), describe(
        g, "tenhou-2009 (before June 2010): no tenpai-yame, so the dealer's renchan goes on"
    )


def test_extension_renchan_still_ends_by_busting():
    g = dealer_tenhou(8, points=[20100, 15900, 48000, 16000], rules=RENCHAN_FIRST)
    assert g.points == [68100, -100, 32000, 0] and g.done, describe(g, "busting ends it")


@pytest.mark.parametrize("rules", [MAHJONGSOUL, RENCHAN_FIRST], ids=["off", "on"])
def test_extension_without_renchan_ends_either_way(rules):
    """The deal passes: the extension ends once someone has 30,000, and after West 4."""
    g = nondealer_ron(8, points=[25000, 28500, 23000, 23500], rules=rules)
    assert g.points[1] == 30500 and g.done, describe(g, "30,000 reached with the deal passing")
    g = nondealer_ron(9, rules=rules)
    assert not g.done and kyoku_honba(g) == (10, 0), describe(g, "nobody at 30,000: West 3")
    g = nondealer_ron(11, rules=rules)
    assert max(g.points) < 30000 and g.done, describe(g, "West 4 passed: game over")
    g = exhaustive([N1, N2, N3, QUIET_X], kyoku=11, rules=rules)
    assert g.done, describe(g, "West 4 draw, dealer noten: game over")


def test_south_4_renchan_is_unchanged_by_the_option():
    """The last regular hand already lets a dealer renchan go on past someone else's 30,000."""
    points = [40000, 30000, 20000, 10000]
    for rules in (MAHJONGSOUL, RENCHAN_FIRST):
        g = dealer_ron(7, points=points, rules=rules)
        assert not g.done and kyoku_honba(g) == (7, 1), describe(g, rules.name)


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


# ------------------------------------------- Tenhou's tenpai-yame (docs/rules.md, End of the game)

TENHOU_TON = TENHOU.replace(game_length="tonpuusen")
TENHOU_2009_TON = TENHOU_2009.replace(game_length="tonpuusen")


@pytest.mark.parametrize(
    ("kyoku", "rules", "rules_2009"),
    [
        (7, TENHOU, TENHOU_2009),
        (3, TENHOU_TON, TENHOU_2009_TON),
    ],
    ids=["hanchan South 4", "tonpuusen East 4"],
)
def test_tenhou_all_last_dealer_tenpai_and_first(kyoku, rules, rules_2009):
    """Since June 2010 Tenhou ends the game when the all-last dealer (seat 3) is tenpai at an
    exhaustive draw and first with 30,000 or more; before that (tenhou-2009) it played on."""
    hands = [N1, N2, N3, TA]
    points = [20000, 20000, 20000, 40000]
    g = exhaustive(hands, kyoku=kyoku, points=points, rules=rules)
    assert g.points == [19000, 19000, 19000, 43000] and g.done, describe(g, "tenpai-yame")
    g = exhaustive(hands, kyoku=kyoku, points=points, rules=rules_2009)
    assert not g.done and kyoku_honba(g) == (kyoku, 1), describe(g, "tenhou-2009: renchan")


@pytest.mark.parametrize("kyoku", [7, 3], ids=["hanchan South 4", "tonpuusen East 4"])
@pytest.mark.parametrize(
    ("points", "why"),
    [
        ([40000, 20000, 20000, 20000], "another seat is first"),
        ([31000, 21000, 21000, 27000], "tied first at 30,000: the tie goes to seat 0"),
        ([24000, 24000, 25000, 27000], "first at exactly 30,000 after the draw"),
        ([24000, 25000, 25000, 26000], "first but below 30,000 (29,000)"),
    ],
    ids=["not first", "tied", "exactly 30,000", "below 30,000"],
)
def test_tenhou_all_last_dealer_tenpai_conditions(kyoku, points, why):
    """Tenhou: "the all-last dealer ends the game by keeping first place above the return
    points" (30,000 or more, not counting sticks on the table; ties go to the seat closer to
    the starting dealer, so a tied dealer in seat 3 is not first)."""
    rules = TENHOU if kyoku == 7 else TENHOU_TON
    g = exhaustive([N1, N2, N3, TA], kyoku=kyoku, points=points, rules=rules)
    ends = why.startswith("first at exactly")
    assert g.done == ends, describe(g, why)
    if not ends:
        assert kyoku_honba(g) == (kyoku, 1), describe(g, f"{why}: renchan")


@pytest.mark.parametrize(
    ("kyoku", "rules"),
    [(8, TENHOU), (4, TENHOU_TON)],
    ids=["hanchan West 1", "tonpuusen South 1"],
)
def test_tenhou_extension_dealer_tenpai(kyoku, rules):
    """The extension's dealer (seat 0) is tenpai at the draw: first with 30,000+ ends the game;
    below 30,000 or behind a seat with 30,000+ the renchan goes on (extension_renchan)."""
    hands = [TA, N1, N2, N3]
    g = exhaustive(hands, kyoku=kyoku, points=[28000, 24000, 24000, 24000], rules=rules)
    assert g.points == [31000, 23000, 23000, 23000] and g.done, describe(g, "tenpai-yame")
    g = exhaustive(hands, kyoku=kyoku, points=[26000, 25000, 25000, 24000], rules=rules)
    assert g.points[0] == 29000 and not g.done, describe(g, "below 30,000: renchan")
    assert kyoku_honba(g) == (kyoku, 1), describe(g)
    g = exhaustive(hands, kyoku=kyoku, points=[20000, 32000, 24000, 24000], rules=rules)
    assert g.points == [23000, 31000, 23000, 23000] and not g.done, describe(g, "not first")
    assert kyoku_honba(g) == (kyoku, 1), describe(g, "a dealer renchan takes priority")


def test_tenhou_2009_is_tenhou_without_tenpai_yame():
    assert TENHOU.tenpai_yame and not TENHOU_2009.tenpai_yame
    assert TENHOU.replace(tenpai_yame=False) == TENHOU_2009
    assert TENHOU_2009.name == "tenhou-2009"


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


# ------------------------------------ target_points (docs/rules.md, End of the game; issue 26)

TARGET_35K = MAHJONGSOUL.replace(target_points=35_000, name="target-35k")
"""Four players with a target above the return points (as Mahjong Soul 3-player: 40,000 to end
the game, 35,000 returned)."""


@pytest.mark.nojit
def test_target_points_not_return_points_end_the_extension():
    """West 1: seat 1 reaches 30,500: the game ends at the return points, goes on to a 35,000
    target."""
    points = [25000, 28500, 23000, 23500]
    assert nondealer_ron(8, points=points).done
    g = nondealer_ron(8, points=points, rules=TARGET_35K)
    assert g.points[1] == 30500 and not g.done and kyoku_honba(g) == (9, 0), describe(
        g, "30,500 < target 35,000: West 2 follows"
    )
    g = nondealer_ron(8, points=[25000, 33000, 23000, 19000], rules=TARGET_35K)
    assert g.points[1] == 35000 and g.done, describe(g, "35,000 reached: game over")


def test_target_points_for_the_extension_and_agari_yame():
    """South 4 passed with 31,000: extension with a 35,000 target; agari-yame needs the target."""
    g = nondealer_ron(7, points=[31000, 23000, 23000, 23000], rules=TARGET_35K)
    assert not g.done and kyoku_honba(g) == (8, 0), describe(g, "nobody has 35,000: West 1")
    g = dealer_ron(7, points=[20000, 25000, 25000, 30000], rules=TARGET_35K)
    assert not g.done and kyoku_honba(g) == (7, 1), describe(g, "dealer 32,900 < 35,000: renchan")
    g = dealer_ron(7, points=[20000, 22000, 25000, 33000], rules=TARGET_35K)
    assert g.done, describe(g, "dealer first with 35,900: agari-yame")


def test_final_scores_use_return_points_not_target():
    """Start 25,000 = return 25,000 (no oka), target 30,000: scores are (points − 25,000) / 1000
    + uma, as Mahjong Soul 3-player scores against its 35,000 start."""
    rules = MAHJONGSOUL.replace(return_points=25_000, target_points=30_000)
    assert rules.oka == 0 and rules.target == 30_000
    g = dealer_tenhou(0, points=[20100, 15900, 48000, 16000], rules=rules)
    assert g.done, describe(g)
    assert g.points == [68100, -100, 32000, 0], describe(g)
    assert g.final_scores == pytest.approx([58.1, -40.1, 12.0, -30.0]), describe(
        g, f"final scores {g.final_scores}"
    )
