"""Limits, payments, honba and sticks, rule options, input validation and the kernels."""

import random

import numpy as np
import pytest

from engine.rules import MAHJONGSOUL, TENHOU
from engine.scoring.hand_score import (
    CTX_N_AKA,
    CTX_ROUND_WIND,
    CTX_SEAT_WIND,
    CTX_TSUMO,
    LIMIT_BAIMAN,
    LIMIT_HANEMAN,
    LIMIT_KAZOE,
    LIMIT_MANGAN,
    LIMIT_NONE,
    LIMIT_SANBAIMAN,
    N_CTX,
    N_RES,
    RES_HAN,
    RES_PAY_DEALER,
    RES_PAY_NONDEALER,
    RES_PAY_RON,
    RES_STATUS,
    STATUS_NO_YAKU,
    STATUS_NOT_AGARI,
    STATUS_OK,
    HandResult,
    _limit_base,
    _payments,
    _score_hand,
    _score_hands_batch,
    new_work,
    score_hand,
)
from engine.scoring.yaku import N_YAKU, Y_PINFU, Y_TANYAO
from engine.tiles import parse_hand34, parse_tile, tile34_to_str

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)

RULES = MAHJONGSOUL.to_array()
KIRIAGE = MAHJONGSOUL.replace(kiriage_mangan=True).to_array()
NO_KAZOE = MAHJONGSOUL.replace(kazoe_yakuman=False).to_array()
NO_RED = MAHJONGSOUL.replace(red_fives=(0, 0, 0))


@pytest.mark.parametrize(
    "han,fu,limit,base",
    [
        (1, 30, LIMIT_NONE, 240),
        (3, 30, LIMIT_NONE, 960),
        (4, 30, LIMIT_NONE, 1920),
        (3, 60, LIMIT_NONE, 1920),
        (4, 40, LIMIT_MANGAN, 2000),
        (3, 70, LIMIT_MANGAN, 2000),
        (5, 30, LIMIT_MANGAN, 2000),
        (6, 30, LIMIT_HANEMAN, 3000),
        (7, 30, LIMIT_HANEMAN, 3000),
        (8, 30, LIMIT_BAIMAN, 4000),
        (10, 30, LIMIT_BAIMAN, 4000),
        (11, 30, LIMIT_SANBAIMAN, 6000),
        (12, 30, LIMIT_SANBAIMAN, 6000),
        (13, 30, LIMIT_KAZOE, 8000),
        (30, 30, LIMIT_KAZOE, 8000),
    ],
)
def test_limits(han, fu, limit, base):
    assert _limit_base(han, fu, 0, RULES) == (limit, base)


def test_kiriage_and_kazoe_options():
    assert _limit_base(4, 30, 0, KIRIAGE) == (LIMIT_MANGAN, 2000)
    assert _limit_base(3, 60, 0, KIRIAGE) == (LIMIT_MANGAN, 2000)
    assert _limit_base(3, 50, 0, KIRIAGE) == (LIMIT_NONE, 1600)
    assert _limit_base(13, 30, 0, NO_KAZOE) == (LIMIT_SANBAIMAN, 6000)


@pytest.mark.parametrize(
    "base,dealer,tsumo,honba,ron,dealer_share,each",
    [
        (960, False, False, 0, 3900, 0, 0),  # 3 han 30 fu
        (960, True, False, 0, 5800, 0, 0),
        (1920, False, False, 0, 7700, 0, 0),
        (2000, False, False, 2, 8600, 0, 0),
        (240, False, True, 0, 0, 500, 300),
        (240, True, True, 1, 0, 0, 600),
        (8000, False, True, 3, 0, 16300, 8300),
        (16000, True, False, 0, 96000, 0, 0),
    ],
)
def test_payments(base, dealer, tsumo, honba, ron, dealer_share, each):
    out = np.zeros(N_RES, dtype=np.int32)
    total = _payments(base, dealer, tsumo, honba, out)
    assert (out[RES_PAY_RON], out[RES_PAY_DEALER], out[RES_PAY_NONDEALER]) == (
        ron,
        dealer_share,
        each,
    )
    assert total == (ron or (3 * each if dealer else dealer_share + 2 * each))


def test_honba_and_sticks_in_winner_gain():
    r = score_hand("234m456p678s22s345m", "5m", seat_wind="S", honba=2, kyotaku=3)
    assert r.payments == {"ron": 2000 + 600} and r.winner_gain == 2600 + 3000
    r = score_hand("234m456p678s22s345m", "5m", win_type="tsumo", honba=1)
    assert r.payments == {"tsumo_all": 1300 + 100} and r.winner_gain == 4200


def test_yakuman_payments():
    r = score_hand("555666777z123m99p", "9p", seat_wind="S")
    assert (r.limit, r.han, r.payments) == ("yakuman", 13, {"ron": 32000})
    r = score_hand("555666777z123m99p", "9p", seat_wind="E", win_type="tsumo")
    assert r.payments == {"tsumo_all": 16000}
    r = score_hand("111m222p333s444m55p", "5p", seat_wind="W", win_type="tsumo")
    assert r.limit == "2x yakuman" and r.payments == {
        "tsumo_dealer": 32000,
        "tsumo_nondealer": 16000,
    }
    r = score_hand("111m222p333s444m55p", "5p", seat_wind="W", win_type="tsumo", rules=TENHOU)
    assert r.limit == "yakuman" and r.yakuman_multiplier == 1


def test_kazoe_yakuman_and_its_option():
    kwargs = dict(riichi=True, win_type="tsumo", seat_wind="S", dora_indicators=["1m", "4m"])
    r = score_hand("22334455667788m", "8m", **kwargs)  # ryanpeikou chinitsu tanyao pinfu...
    assert r.han >= 13 and r.limit == "kazoe yakuman" and r.yakuman_multiplier == 0
    assert r.payments == {"tsumo_dealer": 16000, "tsumo_nondealer": 8000}
    r = score_hand(
        "22334455667788m", "8m", rules=MAHJONGSOUL.replace(kazoe_yakuman=False), **kwargs
    )
    assert r.limit == "sanbaiman" and r.payments == {"tsumo_dealer": 12000, "tsumo_nondealer": 6000}


def test_kiriage_through_score_hand():
    # 4 han 30 fu: riichi tanyao pinfu + aka dora, ron, non-dealer.
    r = score_hand("234m406p678s22s345m", "5m", riichi=True, seat_wind="S")
    assert (r.han, r.fu, r.payments) == (4, 30, {"ron": 7700})
    r = score_hand(
        "234m406p678s22s345m",
        "5m",
        riichi=True,
        seat_wind="S",
        rules=MAHJONGSOUL.replace(kiriage_mangan=True),
    )
    assert r.limit == "mangan" and r.payments == {"ron": 8000}


def test_not_agari_and_no_yaku():
    r = score_hand("123m456p789s11223z", "3z")
    assert r.to_dict() == {"valid": False, "error": "not_agari"}
    r = score_hand("123m456p789s11s222z", "2z", seat_wind="W")
    assert r.to_dict() == {"valid": False, "error": "no_yaku"}


def test_to_dict_matches_the_format():
    r = score_hand("234m406p678s22s345m", "5m", riichi=True, dora_indicators=["1z"])
    assert isinstance(r, HandResult)
    assert r.to_dict() == {
        "valid": True,
        "han": 4,
        "fu": 30,
        "yaku": [
            {"key": "riichi", "han": 1},
            {"key": "pinfu", "han": 1},
            {"key": "tanyao", "han": 1},
            {"key": "aka_dora", "han": 1},
        ],
        "yakuman_multiplier": 0,
        "limit": "",
        "payments": {"ron": 11600},
        "winner_gain": 12600,  # kyotaku not given: 1 with riichi (the winner's own stick)
    }


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(closed="123m456p789s11x", win_tile="1m"), "closed"),
        (dict(closed="123m456p789s1122z", win_tile="1m"), "closed: 13"),
        (dict(closed="123m456p789s11122z", win_tile="9m"), "win_tile"),
        (dict(closed="123m456p789s11122z", win_tile="12m"), "win_tile"),
        (dict(closed="123m456p789s11122z", win_tile="1m", win_type="draw"), "win_type"),
        (dict(closed="123m456p789s11122z", win_tile="1m", seat_wind="X"), "seat_wind"),
        (dict(closed="123m456p789s11122z", win_tile="1m", honba=-1), "honba"),
        (dict(closed="123m456p789s11122z", win_tile="1m", kyotaku=-2), "kyotaku"),
        (dict(closed="123m456p789s11122z", win_tile="1m", honba=1001), "honba: must be 0-1000"),
        (dict(closed="123m456p789s11122z", win_tile="1m", kyotaku=10**6), "kyotaku"),
        (
            dict(closed="123m456p789s11122z", win_tile="1m", dora_indicators=["1q"]),
            "dora_indicators",
        ),
        (
            dict(closed="456p789s11122z", win_tile="4p", melds=[("chow", "123m")]),
            "melds\\[0\\].type",
        ),
        (dict(closed="456p789s11122z", win_tile="4p", melds=[("chi", "124m")]), "melds\\[0\\]"),
        (dict(closed="456p789s11122z", win_tile="4p", melds=[("pon", "112m")]), "melds\\[0\\]"),
        (dict(closed="456p789s11122z", win_tile="4p", melds=[("ankan", "111m")]), "melds\\[0\\]"),
        (dict(closed="456p789s11122z", win_tile="4p", melds=[("chi", "789m9m")]), "melds\\[0\\]"),
        (dict(closed="456p789s11122z", win_tile="4p", melds=[{"tiles": "123m"}]), "melds\\[0\\]"),
        (dict(closed="11112m456p789s22z", win_tile="2m"), "closed"),  # 13 tiles
        (dict(closed="11111m456p789s22z", win_tile="1m"), "closed"),  # a fifth 1m
        (dict(closed="00m345m456p789s222z", win_tile="3m"), "red"),
        (
            dict(closed="456p789s11122z", win_tile="4p", melds=[("chi", "123m")], riichi=True),
            "riichi",
        ),
        (
            dict(
                closed="123m456p789s11122z",
                win_tile="1m",
                tenhou=True,
                seat_wind="S",
                win_type="tsumo",
            ),
            "tenhou",
        ),
        (
            dict(closed="123m456p789s11122z", win_tile="1m", chiihou=True, win_type="tsumo"),
            "chiihou",
        ),
    ],
)
def test_invalid_input_names_the_field(kwargs, match):
    with pytest.raises(ValueError, match=match):
        score_hand(**kwargs)


def test_bool_and_rules_types_are_checked():
    with pytest.raises(TypeError, match="riichi"):
        score_hand("123m456p789s11122z", "1m", riichi=1)
    with pytest.raises(TypeError, match="rules"):
        score_hand("123m456p789s11122z", "1m", rules=3)
    assert score_hand("234m456p678s22s345m", "5m", rules="tenhou").valid


def test_melds_accept_pairs_and_dicts():
    a = score_hand("234m456p22s345m", "5m", melds=[("chi", "867s")])
    b = score_hand("234m456p22s345m", "5m", melds=[{"type": "chi", "tiles": "678s", "from": 3}])
    assert a == b and a.valid


def test_red_fives_in_melds_count():
    r = score_hand("234m456p22s345m", "5m", melds=[("chi", "678s")])
    assert "aka_dora" not in {y["key"] for y in r.yaku}
    r = score_hand("234m678p22s345m", "5m", melds=[("chi", "406s")])
    assert {y["key"]: y["han"] for y in r.yaku}["aka_dora"] == 1


def _kernel_inputs(closed, win, tsumo=False, seat=1):
    closed34 = parse_hand34(closed)
    melds = np.zeros((4, 2), dtype=np.int32)
    ctx = np.zeros(N_CTX, dtype=np.int32)
    ctx[CTX_TSUMO] = tsumo
    ctx[CTX_SEAT_WIND] = seat
    ctx[CTX_ROUND_WIND] = 0
    ctx[CTX_N_AKA] = 0
    return closed34, melds, 0, parse_tile(win), ctx


def test_kernel_reuses_work_and_clears_outputs():
    work = new_work()
    out = np.zeros(N_RES, dtype=np.int32)
    yaku = np.zeros(N_YAKU, dtype=np.int32)
    ind = np.zeros(5, dtype=np.int32)
    a = _kernel_inputs("234m456p678s22s345m", "5m")
    assert _score_hand(*a, ind, ind, RULES, work, out, yaku) == STATUS_OK
    assert yaku[Y_PINFU] == 1 and yaku[Y_TANYAO] == 1 and out[RES_HAN] == 2
    b = _kernel_inputs("123m456p789s11223z", "3z")
    assert _score_hand(*b, ind, ind, RULES, work, out, yaku) == STATUS_NOT_AGARI
    assert out[RES_HAN] == 0 and yaku.sum() == 0
    c = _kernel_inputs("123m456p789s11s222z", "2z", seat=2)
    assert _score_hand(*c, ind, ind, RULES, work, out, yaku) == STATUS_NO_YAKU
    assert out[RES_STATUS] == STATUS_NO_YAKU


def test_batch_kernel_matches_single_calls():
    hands = [
        ("234m456p678s22s345m", "5m"),
        ("555666777z123m99p", "9p"),
        ("123m456p789s11223z", "3z"),
    ]
    B = len(hands)
    closed34s = np.zeros((B, 34), dtype=np.uint8)
    melds = np.zeros((B, 4, 2), dtype=np.int32)
    n_melds = np.zeros(B, dtype=np.int32)
    wins = np.zeros(B, dtype=np.int32)
    ctxs = np.zeros((B, N_CTX), dtype=np.int32)
    inds = np.zeros((B, 5), dtype=np.int32)
    for b, (closed, win) in enumerate(hands):
        closed34s[b], melds[b], n_melds[b], wins[b], ctxs[b] = _kernel_inputs(closed, win)
    out = np.zeros((B, N_RES), dtype=np.int32)
    yaku = np.zeros((B, N_YAKU), dtype=np.int32)
    work = new_work()
    _score_hands_batch(closed34s, melds, n_melds, wins, ctxs, inds, inds, RULES, work, out, yaku)
    for b in range(B):
        o1 = np.zeros(N_RES, dtype=np.int32)
        y1 = np.zeros(N_YAKU, dtype=np.int32)
        _score_hand(*_kernel_inputs(*hands[b]), inds[b], inds[b], RULES, work, o1, y1)
        assert (out[b] == o1).all() and (yaku[b] == y1).all()


@pytest.mark.nojit
def test_limits_and_payments_without_jit():
    assert _limit_base(4, 40, 0, RULES) == (LIMIT_MANGAN, 2000)
    r = score_hand("555666777z123m99p", "9p", seat_wind="S")
    assert r.payments == {"ron": 32000}


def test_ankan_keeps_riichi_and_ura_counts_kan_tiles():
    r = score_hand(
        "234m456p22s345m",
        "5m",
        melds=[("ankan", "6666s")],
        riichi=True,
        win_type="tsumo",
        rinshan=True,
        dora_indicators=["1z", "5s"],
        ura_dora_indicators=["1z", "5s"],
    )
    got = {y["key"]: y["han"] for y in r.yaku}
    assert got["riichi"] == 1 and got["rinshan_kaihou"] == 1
    assert got["dora"] == 4 and got["ura_dora"] == 4


def test_open_kan_types_score_the_same_fu():
    base = dict(houtei=True, seat_wind="S")
    for kind in ("daiminkan", "kakan"):
        r = score_hand("234s678s22m", "2m", melds=[(kind, "9999m"), ("pon", "555p")], **base)
        assert r.fu == 40  # 20 + 16 + 2 + tanki 2 = 40


def test_result_from_arrays_round_trips_a_kernel_result():
    from engine.scoring.hand_score import result_from_arrays

    out = np.zeros(N_RES, dtype=np.int32)
    yaku = np.zeros(N_YAKU, dtype=np.int32)
    ind = np.zeros(5, dtype=np.int32)
    _score_hand(
        *_kernel_inputs("234m456p678s22s345m", "5m"), ind, ind, RULES, new_work(), out, yaku
    )
    assert result_from_arrays(out, yaku) == score_hand("234m456p678s22s345m", "5m", seat_wind="S")


def _random_complete_hand(rng):
    """A random 14-tile hand: four sets (some called) and a pair, as score_hand kwargs."""
    counts = [0] * 34
    sets = []
    while len(sets) < 4:
        if rng.random() < 0.5:
            t = rng.randrange(27)
            if t % 9 > 6 or any(counts[t + i] >= 4 for i in range(3)):
                continue
            for i in range(3):
                counts[t + i] += 1
            sets.append(("chi", t))
        else:
            t = rng.randrange(34)
            if counts[t] > 1:
                continue
            counts[t] += 3
            sets.append(("pon", t))
    while True:
        pair = rng.randrange(34)
        if counts[pair] <= 2:
            counts[pair] += 2
            break
    closed, melds = [pair, pair], []
    for kind, t in sets:
        tiles = [t, t + 1, t + 2] if kind == "chi" else [t] * 3
        if rng.random() < 0.3:
            melds.append((kind, "".join(tile34_to_str(x) for x in tiles)))
        else:
            closed += tiles
    win = rng.choice(closed)
    indicator = rng.randrange(34)
    while counts[indicator] == 4:  # the indicator is a tile of the same set: no fifth copy
        indicator = rng.randrange(34)
    out = {
        "closed": "".join(tile34_to_str(x) for x in sorted(closed)),
        "win_tile": tile34_to_str(win),
        "melds": melds,
        "win_type": rng.choice(["ron", "tsumo"]),
        "seat_wind": rng.choice("ESWN"),
        "round_wind": rng.choice("ES"),
        "dora_indicators": [tile34_to_str(indicator)],
        "honba": rng.randrange(3),
        "kyotaku": rng.randrange(3),
        "riichi": not melds and rng.random() < 0.5,
        "rules": NO_RED,  # the hands are written with plain fives only (four 5p is possible)
    }
    if out["riichi"]:
        out["kyotaku"] = max(1, out["kyotaku"])  # the winner's own stick is on the table
    return out


def test_results_are_self_consistent_on_random_hands():
    rng = random.Random(20260501)
    n_valid = 0
    for _ in range(400):
        kwargs = _random_complete_hand(rng)
        r = score_hand(**kwargs)
        assert r.valid or r.error == "no_yaku", kwargs
        if not r.valid:
            continue
        n_valid += 1
        paid = r.payments.get("ron", 0)
        if "tsumo_all" in r.payments:
            paid = 3 * r.payments["tsumo_all"]
        elif "tsumo_dealer" in r.payments:
            paid = r.payments["tsumo_dealer"] + 2 * r.payments["tsumo_nondealer"]
        assert r.winner_gain == paid + 1000 * kwargs["kyotaku"]
        yakuman = [y for y in r.yaku if "yakuman" in y]
        if r.yakuman_multiplier:
            assert len(yakuman) == len(r.yaku) and r.han == 13 * r.yakuman_multiplier
            assert sum(y["yakuman"] for y in yakuman) == r.yakuman_multiplier
        else:
            assert not yakuman and r.han == sum(y["han"] for y in r.yaku)
            limit, _ = _limit_base(r.han, r.fu, 0, RULES)
            assert (
                r.limit == ("", "mangan", "haneman", "baiman", "sanbaiman", "kazoe yakuman")[limit]
            )
            assert r.fu in (20, 25) or r.fu % 10 == 0
        assert score_hand(**kwargs) == r
    assert n_valid > 150
