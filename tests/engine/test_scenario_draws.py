"""Scenario tests for draws: exhaustive draw payments, formal tenpai, nagashi mangan and the
abortive draws (kyuushu kyuuhai, suufon renda, suucha riichi).

Rules (the variant rules "Exhaustive Draw" table, Mahjong Soul rules "Draws", docs/rules.md "Tenpai at an exhaustive draw",
"Nagashi mangan", "Abortive draws", "Riichi stick"): tenpai players split 3,000 from the noten
players (1: 3000 / 1000 each, 2: 1500 each, 3: 1000 each / 3000, 0 or 4: nothing); tenpai is
formal (furiten counts) except a wait only on a kind held four times; nagashi mangan is paid like
a tsumo mangan, replaces the tenpai payments and leaves the sticks on the table; kyuushu kyuuhai
needs 9+ kinds of terminals/honors on an uninterrupted first draw; suufon renda is four identical
wind first discards; suucha riichi aborts after the fourth riichi discard passes, its stick paid.
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
    hand_deltas,
    last_draw_kind,
    pass_claims,
    play_out,
    ryuukyoku_row,
    start_hand,
    t34,
    tsumogiri,
    tsumogiri_each,
)

from engine.events import DRAW_EXHAUSTIVE, DRAW_KYUUSHU, DRAW_NAGASHI, DRAW_SUUCHA, DRAW_SUUFON
from engine.rules import MAHJONGSOUL
from engine.shanten import waits

TA = "123m456m789m11z22z"  # tenpai 1z-2z
TB = "123p456p789p33z44z"  # tenpai 3z-4z
TC = "123s456s789s55z66z"  # tenpai 5z-6z
TD = "234m567p678s777z5z"  # tenpai 5z tanki
N1 = "147m258p369s1357z"  # far from tenpai
N2 = "258m369p147s2467z"
N3 = "369m147p258s1346z"
N4 = "147m147p147s2358s"


@pytest.mark.parametrize(
    "hands, deltas",
    [
        ([TA, N1, N2, N3], [3000, -1000, -1000, -1000]),
        ([N1, TB, N2, TC], [-1500, 1500, -1500, 1500]),
        ([TA, TB, TC, N1], [1000, 1000, 1000, -3000]),
        ([N1, N2, N3, N4], [0, 0, 0, 0]),
        ([TA, TB, TC, TD], [0, 0, 0, 0]),
    ],
    ids=["1-tenpai", "2-tenpai", "3-tenpai", "0-tenpai", "4-tenpai"],
)
def test_exhaustive_draw_payments(hands, deltas):
    g = start_hand(hands=hands, dora="9p", seed=11)
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE, describe(g, "expected an exhaustive draw")
    assert hand_deltas(g) == deltas, describe(g, f"tenpai payments: expected {deltas}")
    tenpai_mask = int(ryuukyoku_row(g)[3])
    expected_mask = sum(1 << s for s in range(4) if hands[s] in (TA, TB, TC, TD))
    assert tenpai_mask == expected_mask, describe(g, f"tenpai mask {tenpai_mask:04b}")


def test_formal_tenpai_counts_in_furiten():
    """S1 (5z tanki) draws and discards a 5z itself: furiten, still tenpai at the draw."""
    g = start_hand(hands=[N1, TD, N3, N4], draws="? 5z", dora="9p", seed=12)
    tsumogiri(g, 0)
    pass_claims(g)
    assert int(g.state.drawn[0]) // 4 == t34("5z"), describe(g)
    tsumogiri(g, 1)
    play_out(g)
    assert hand_deltas(g) == [-1000, 3000, -1000, -1000], describe(g, "furiten tenpai is tenpai")


def test_wait_only_on_a_kind_held_four_times_is_noten():
    """S1 holds 1111m 234p 567p 789s: its only wait would be a fifth 1m, so it is noten."""
    hand = "1111m234p567p789s"
    assert waits(hand) == []
    g = start_hand(hands=[TC, hand, N2, "369m369p258s1346z"], dora="9p", seed=13)
    play_out(g)
    assert hand_deltas(g) == [3000, -1000, -1000, -1000], describe(g, "only S0 is tenpai")


# ------------------------------------------------------------------------------------ nagashi

# S1 draws only honors (18 draws at indices 1, 5, ..., 69) and discards them; nobody else holds an
# honor, so none can be called. S0 (dealer) is tenpai on 5s.
NAGASHI_HANDS = [
    "345m567m345p678p5s",
    "2367m2367p36778s",
    "2468m2468p2468s5m",
    "2468m2468p2468s5p",
]


def _nagashi_draws() -> list[str]:
    honors = [f"{k}z" for k in range(1, 8) for _ in range(4)][:18]
    draws = ["?"] * 70
    for j, tile in enumerate(honors):
        draws[1 + 4 * j] = tile
    return draws


def test_nagashi_mangan_replaces_tenpai_payments_sticks_stay():
    g = start_hand(hands=NAGASHI_HANDS, draws=_nagashi_draws(), dora="9p", kyotaku=1, seed=14)
    play_out(g)
    assert last_draw_kind(g) == DRAW_NAGASHI, describe(g)
    assert int(ryuukyoku_row(g)[4]) == 0b0010, describe(g, "S1 made nagashi mangan")
    assert hand_deltas(g) == [-4000, 8000, -2000, -2000], describe(
        g, "nagashi is paid like a non-dealer tsumo mangan; no tenpai payments"
    )
    assert int(g.state.kyotaku[0]) == 1, describe(g, "the riichi stick stays on the table")
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1, describe(
        g, "the dealer was tenpai: renchan, honba +1"
    )


def test_nagashi_off_pays_tenpai():
    rules = MAHJONGSOUL.replace(nagashi_mangan=False)
    g = start_hand(hands=NAGASHI_HANDS, draws=_nagashi_draws(), dora="9p", rules=rules, seed=14)
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE, describe(g)
    assert hand_deltas(g) == [3000, -1000, -1000, -1000], describe(g, "nagashi off: tenpai pay")


# ----------------------------------------------------------------------------- kyuushu kyuuhai

NINE_KINDS = "19m19p19s123z258m5p"  # 9 kinds of terminals/honors
EIGHT_KINDS = "19m19p19s12z2558m5p"  # 8 kinds


@pytest.mark.nojit
def test_kyuushu_offered_with_nine_kinds_and_aborts():
    g = start_hand(hands=[NINE_KINDS, N2, N3, N4], draws="6p", dora="8p")
    assert_legal(g, 0, A.KYUUSHU, "(9 kinds of terminals/honors on the first draw)")
    act(g, 0, A.KYUUSHU)
    assert last_draw_kind(g) == DRAW_KYUUSHU and hand_deltas(g) == [0, 0, 0, 0], describe(g)
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1, describe(
        g, "abortive draw: dealer keeps the seat, honba +1"
    )


def test_kyuushu_not_offered_with_eight_kinds():
    g = start_hand(hands=[EIGHT_KINDS, N2, N3, N4], draws="6p", dora="8p")
    assert_not_legal(g, 0, A.KYUUSHU, "(only 8 kinds)")


def test_kyuushu_not_offered_after_a_call_or_on_a_later_draw():
    """S1 has 9 kinds; S0's first discard is ponned by S3 before S1's first draw."""
    hands = ["147m258p369s1346z", "159m159p159s1237z", N4, "99p258m36p47s1346z"]
    g = start_hand(hands=hands, draws="9p 6s 7p", dora="8p")
    tsumogiri(g, 0)
    act(g, 3, A.PON)
    discard(g, 3, "1z")
    tsumogiri(g, 0)
    assert g.actor == 1, describe(g)
    assert_not_legal(g, 1, A.KYUUSHU, "(a call interrupted the first go-around)")


def test_kyuushu_off_without_abortive_draws():
    rules = MAHJONGSOUL.replace(abortive_draws=False)
    g = start_hand(hands=[NINE_KINDS, N2, N3, N4], draws="6p", dora="8p", rules=rules)
    assert_not_legal(g, 0, A.KYUUSHU, "(abortive draws off)")


# ------------------------------------------------------------------------------- suufon renda

SUUFON_HANDS = [
    "147m258p369s1234z",
    "258m369p147s1567z",
    "369m147p258s1237z",
    "147m369p258s1567z",
]


def _first_discards(hands: list[str], tiles: list[str]):
    """Seat s discards ``tiles[s]`` on its first turn, every claim passed (draws 9m 9p 9s 8m)."""
    g = start_hand(hands=hands, draws="9m 9p 9s 8m", dora="8p")
    for s, tile in enumerate(tiles):
        discard(g, s, tile)
        pass_claims(g)
    return g


def test_suufon_renda():
    g = _first_discards(SUUFON_HANDS, ["1z", "1z", "1z", "1z"])
    assert last_draw_kind(g) == DRAW_SUUFON, describe(g, "four East first discards")
    assert hand_deltas(g) == [0, 0, 0, 0] and int(g.state.honba[0]) == 1, describe(g)
    assert int(g.state.kyoku[0]) == 0, describe(g)


def test_no_suufon_renda_when_one_discard_differs():
    g = _first_discards(SUUFON_HANDS, ["1z", "1z", "1z", "5z"])
    assert int(g.state.hand_index[0]) == 1 and g.actor == 0, describe(g, "no abort")


DRAGON_HANDS = [
    "147m258p369s1235z",
    "258m369p147s1567z",
    "369m147p258s1257z",
    "147m369p258s1567z",
]
"""Each seat holds one 5z (haku): a dragon, not a wind."""


def test_four_identical_first_dragon_discards_do_not_abort():
    """Suufon renda is four identical first *wind* discards; four haku play on."""
    g = _first_discards(DRAGON_HANDS, ["5z", "5z", "5z", "5z"])
    assert int(g.state.hand_index[0]) == 1 and g.actor == 0, describe(g, "no abort on dragons")


def test_no_suufon_renda_without_abortive_draws():
    rules = MAHJONGSOUL.replace(abortive_draws=False)
    g = start_hand(hands=SUUFON_HANDS, draws="9m 9p 9s 8m", dora="8p", rules=rules)
    for s in range(4):
        discard(g, s, "1z")
        pass_claims(g)
    assert int(g.state.hand_index[0]) == 1, describe(g, "abortive draws off: play on")


# ------------------------------------------------------------------------------ suucha riichi


def test_suucha_riichi_aborts_with_the_fourth_stick_paid():
    g = start_hand(hands=[TA, TB, TC, TD], draws="9m 9p 1s 1p", dora="8p")
    for s, tile in enumerate(("9m", "9p", "1s", "1p")):
        act(g, s, A.RIICHI)
        discard(g, s, tile)
        if s < 3:
            pass_claims(g)
    assert last_draw_kind(g) == DRAW_SUUCHA, describe(g, "four riichi: suucha riichi")
    assert g.points == [24000] * 4 and int(g.state.kyotaku[0]) == 4, describe(
        g, "all four sticks (the fourth included) are paid and stay on the table"
    )
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1, describe(g)


@pytest.mark.parametrize("honba", [0, 3])
def test_tenpai_payments_ignore_honba(honba):
    g = start_hand(hands=[TA, N1, N2, N3], dora="9p", seed=11, honba=honba)
    play_out(g)
    assert hand_deltas(g) == [3000, -1000, -1000, -1000], describe(g, "no honba on draws")


def test_nagashi_broken_when_a_discard_is_called():
    """S3 pons S1's 5z: S1's river is still all honors but one was called, so no nagashi."""
    hands = list(NAGASHI_HANDS)
    hands[3] = "2468m2468p246s55z"
    draws = _nagashi_draws()
    draws[67] = "6z"
    g = start_hand(hands=hands, draws=draws, dora="9p", seed=14)
    ponned = False
    for _ in range(400):
        if int(g.state.hand_index[0]) != 1:
            break
        if g.phase == "claim":
            if g.actor == 3 and g.legal_mask()[A.PON] and int(g.state.claim_tile[0]) // 4 == 31:
                act(g, 3, A.PON)
                discard(g, 3, "2m")
                ponned = True
            else:
                pass_claims(g)
        else:
            tsumogiri(g)
    assert ponned, describe(g, "S3 should have ponned S1's 5z")
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE, describe(g, "a called discard breaks nagashi")
    assert hand_deltas(g) == [3000, -1000, -1000, -1000], describe(g)


def test_suucha_riichi_not_when_the_fourth_declaration_is_ronned():
    """S3's declaration tile 1z is ronned by S0 (waiting 1z-2z): a win, no abort, no 4th stick."""
    g = start_hand(hands=[TA, TB, TC, TD], draws="9m 9p 1s 1z", dora="8p")
    for s, tile in enumerate(("9m", "9p", "1s")):
        act(g, s, A.RIICHI)
        discard(g, s, tile)
        pass_claims(g)
    act(g, 3, A.RIICHI)
    discard(g, 3, "1z")
    act(g, 0, A.RON)
    pass_claims(g)
    assert last_draw_kind(g) is None, describe(g, "the ron stands; no suucha riichi")
    delta = hand_deltas(g)
    assert delta[1] == delta[2] == 0 and delta[0] == -delta[3] + 3000, describe(
        g, f"S0 takes the three sticks paid; S3's riichi is void (no stick): deltas {delta}"
    )
    assert g.points[3] == 25000 + delta[3], describe(g, "S3 paid no riichi stick")


def test_kyuushu_broken_by_a_closed_kan():
    """S1 has 9 kinds, but S0 (dealer) ankanned before S1's first draw: no kyuushu kyuuhai."""
    from scenario_helpers import PINLESS

    hands = ["1111p47m789p147s9s", "19m9p19s1237z2468s", PINLESS[1], PINLESS[2]]
    g = start_hand(hands=hands, draws="2p 6p", rinshan="3p", dora="9m")
    act(g, 0, A.KAN + t34("1p"))
    discard(g, 0, "2p")
    pass_claims(g)
    assert g.actor == 1, describe(g)
    assert_not_legal(g, 1, A.KYUUSHU, "(a closed kan interrupted the first go-around)")


def test_kyuushu_not_offered_on_a_later_draw():
    g = start_hand(hands=[NINE_KINDS, N2, N3, N4], draws="6p 8s 7s 6s 4p", dora="8p")
    discard(g, 0, "6p")
    tsumogiri_each(g, (1, 2, 3))
    pass_claims(g)
    assert g.actor == 0 and g.phase == "turn", describe(g)
    assert_not_legal(g, 0, A.KYUUSHU, "(second draw)")


def test_dealer_nagashi_mangan_and_deal_passes_when_dealer_noten():
    """S0 (dealer, noten) draws only honors: 4,000 from each; S1's tenpai is not paid."""
    hands = [NAGASHI_HANDS[1], NAGASHI_HANDS[0], NAGASHI_HANDS[2], NAGASHI_HANDS[3]]
    honors = [f"{k}z" for k in range(1, 8) for _ in range(4)][:18]
    draws = ["?"] * 70
    for j, tile in enumerate(honors):
        draws[4 * j] = tile
    g = start_hand(hands=hands, draws=draws, dora="9p", seed=15)
    play_out(g)
    assert last_draw_kind(g) == DRAW_NAGASHI, describe(g)
    assert hand_deltas(g) == [12000, -4000, -4000, -4000], describe(g, "dealer nagashi mangan")
    assert int(g.state.kyoku[0]) == 1 and int(g.state.honba[0]) == 1, describe(
        g, "the dealer was noten: the deal passes, honba +1"
    )
