"""``EfficiencyAgent``: wins, yaku-aware calls, riichi or dama, folding; cases as mpsz hands."""

import numpy as np
import pytest

import engine.actions as act
from agents import EfficiencyAgent
from engine.melds import MELD_NONE, MELD_PON
from engine.tiles import parse_hand34
from engine.visibility import SeatView


def view(
    hand: str,
    *,
    seat: int = 0,
    visible: str = "",
    riichi=(0, 0, 0, 0),
    discards: dict[int, str] | None = None,
    melds: dict[int, list[tuple[int, int]]] | None = None,
    offered: str = "",
    dora: str = "",
    round_wind: int = 27,
    seat_wind: int = 28,
) -> SeatView:
    """A ``SeatView`` built from mpsz strings (seat 0 is South by default: East is not yakuhai)."""
    discarded = np.zeros((4, 34), np.uint8)
    for s, tiles in (discards or {}).items():
        discarded[s] = parse_hand34(tiles) > 0
    meld_type = np.full((4, 4), MELD_NONE, np.int32)
    meld_tile = np.zeros((4, 4), np.int32)
    n_melds = np.zeros(4, np.int32)
    for s, ms in (melds or {}).items():
        for m, (mt, k) in enumerate(ms):
            meld_type[s, m], meld_tile[s, m] = mt, k
        n_melds[s] = len(ms)
    dora34 = np.zeros(34, np.int32)
    if dora:
        dora34[:] = parse_hand34(dora)
    return SeatView(
        seat,
        parse_hand34(hand),
        parse_hand34(visible) if visible else np.zeros(34, np.uint8),
        np.full(4, 25000, np.int32),
        np.array(riichi, np.int32),
        discarded34=discarded,
        meld_type=meld_type,
        meld_tile34=meld_tile,
        n_melds=n_melds,
        offered34=int(np.flatnonzero(parse_hand34(offered))[0]) if offered else -1,
        round_wind=round_wind,
        seat_wind=seat_wind,
        dora34=dora34,
        tiles_left=40,
    )


def mask_of(*actions: int, discards_of: str = "") -> np.ndarray:
    m = np.zeros(act.N_ACTIONS, np.int8)
    m[list(actions)] = 1
    if discards_of:
        m[act.DISCARD + np.flatnonzero(parse_hand34(discards_of))] = 1
    return m


@pytest.fixture(scope="module")
def agent():
    return EfficiencyAgent()


def test_always_wins(agent):
    v = view("123m456p789s11z")
    assert agent.act(None, mask_of(act.TSUMO, act.RIICHI, discards_of="1m"), v) == act.TSUMO
    assert agent.act(None, mask_of(act.RON, act.PON, act.PASS), v) == act.RON


def test_pons_a_yakuhai_pair(agent):
    v = view("77z123m456p789s25m", offered="7z")
    assert agent.act(None, mask_of(act.PON, act.PASS), v) == act.PON


def test_pons_the_seat_wind_but_not_another_wind(agent):
    hand = "22z123m456p789s25m"  # a pair of South
    assert agent.act(None, mask_of(act.PON, act.PASS), view(hand, offered="2z")) == act.PON
    west = view(hand, offered="2z", seat_wind=29)  # South is nobody's yakuhai here
    assert agent.act(None, mask_of(act.PON, act.PASS), west) == act.PASS


def test_chi_for_tanyao_only_when_it_keeps_the_yaku_and_lowers_shanten(agent):
    # all simples, one-shanten; chi 34s+5s leaves a tenpai tanyao hand
    v = view("234m567p34s66s88s2p", offered="5s")
    assert agent.act(None, mask_of(act.CHI_HIGH, act.PASS), v) == act.CHI_HIGH
    # the same shape with terminals and honors: the call would leave no yaku
    v = view("123m789p34s66s11z9p", offered="5s")
    assert agent.act(None, mask_of(act.CHI_HIGH, act.PASS), v) == act.PASS


def test_a_closed_tenpai_hand_keeps_riichi_instead_of_calling(agent):
    v = view("234m567p345s66s88s", offered="6s")
    assert agent.act(None, mask_of(act.PON, act.PASS), v) == act.PASS


def test_never_kans(agent):
    v = view("1111m456p789s2345z")
    mask = mask_of(act.KAN + 0, discards_of="1m456p789s2345z")
    assert agent.act(None, mask, v) != act.KAN + 0


def test_riichi_when_tenpai_and_dama_when_it_pays(agent):
    tenpai = "123m456p789s11z23m"
    discards = "123m456p789s1z"
    assert agent.act(None, mask_of(act.RIICHI, discards_of=discards), view(tenpai)) == act.RIICHI
    tanyao = "234m456p678s66s3456m"  # tanyao with three dora: dama
    m = mask_of(act.RIICHI, discards_of="23456m456p678s6s")
    assert agent.act(None, m, view(tanyao, dora="666s")) != act.RIICHI
    assert agent.act(None, m, view(tanyao)) == act.RIICHI


def test_folds_against_riichi_with_genbutsu(agent):
    # far from tenpai, seat 1 in riichi having discarded 5s: throw the 5s (genbutsu)
    hand = "159m2468p13579s1z"
    v = view(hand, riichi=(0, 1, 0, 0), discards={1: "5s"})
    assert agent.act(None, mask_of(discards_of=hand), v) == act.DISCARD + 22
    # without the threat it discards for speed (an isolated honor or terminal), not the 5s
    calm = view(hand, discards={1: "5s"})
    assert agent.act(None, mask_of(discards_of=hand), calm) != act.DISCARD + 22


def test_folds_against_three_open_melds_and_never_calls_then(agent):
    melds = {2: [(MELD_PON, 31), (MELD_PON, 5), (MELD_PON, 14)]}
    hand = "159m2468p13579s1z"
    v = view(hand, melds=melds, discards={2: "3s"})
    assert agent.act(None, mask_of(discards_of=hand), v) == act.DISCARD + 20
    v = view("77z159m2468p1357s", melds=melds, offered="7z")
    assert agent.act(None, mask_of(act.PON, act.PASS), v) == act.PASS
