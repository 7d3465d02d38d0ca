"""Every yaku: a hand that has it and a near miss that does not (cases as mpsz hands)."""

import pytest

from engine.rules import MAHJONGSOUL, TENHOU
from engine.scoring.hand_score import score_hand
from engine.scoring.yaku import (
    N_YAKU,
    YAKU_HAN_CLOSED,
    YAKU_HAN_OPEN,
    YAKU_KEYS,
    YAKU_TABLE,
    YAKU_YAKUMAN,
)

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)


def yaku_of(closed, win, **kwargs):
    """``{key: han}`` of the scored hand (yakuman entries: their multiplier)."""
    result = score_hand(closed, win, **kwargs)
    assert result.valid, (closed, win, kwargs, result)
    return {y["key"]: y.get("yakuman", y["han"]) for y in result.yaku}


def test_table_is_consistent():
    assert len(YAKU_TABLE) == N_YAKU == len(set(YAKU_KEYS))
    for key, closed, opened, mult in YAKU_TABLE:
        assert opened <= closed, key
        assert mult in (0, 1, 2), key
        if mult:
            assert closed == 13, key
    assert YAKU_KEYS[-3:] == ("dora", "aka_dora", "ura_dora")
    assert YAKU_HAN_CLOSED[YAKU_KEYS.index("chinitsu")] == 6
    assert YAKU_HAN_OPEN[YAKU_KEYS.index("chinitsu")] == 5
    assert YAKU_YAKUMAN[YAKU_KEYS.index("daisuushii")] == 2


TANYAO_HAND = "234m456p678s22s345m"  # all simples, pinfu shape
OPEN_MELDS = [("chi", "678s")]
OPEN_CLOSED = "234m456p22s345m"

# (name, positive (closed, win, kwargs), key, han, negative (closed, win, kwargs))
CASES = [
    (
        "menzen_tsumo",
        (TANYAO_HAND, "5m", {"win_type": "tsumo"}),
        1,
        (OPEN_CLOSED, "5m", {"win_type": "tsumo", "melds": OPEN_MELDS}),
    ),
    ("riichi", (TANYAO_HAND, "5m", {"riichi": True}), 1, (TANYAO_HAND, "5m", {})),
    (
        "ippatsu",
        (TANYAO_HAND, "5m", {"riichi": True, "ippatsu": True}),
        1,
        (TANYAO_HAND, "5m", {"riichi": True}),
    ),
    (
        "chankan",
        (TANYAO_HAND, "5m", {"chankan": True}),
        1,
        (TANYAO_HAND, "5m", {}),
    ),
    (
        "rinshan_kaihou",
        (
            "234m456p22s345m",
            "5m",
            {"win_type": "tsumo", "rinshan": True, "melds": [("ankan", "6666s")]},
        ),
        1,
        ("234m456p22s345m", "5m", {"win_type": "tsumo", "melds": [("ankan", "6666s")]}),
    ),
    (
        "haitei_raoyue",
        (TANYAO_HAND, "5m", {"win_type": "tsumo", "haitei": True}),
        1,
        (TANYAO_HAND, "5m", {"win_type": "tsumo"}),
    ),
    (
        "houtei_raoyui",
        (TANYAO_HAND, "5m", {"houtei": True}),
        1,
        (TANYAO_HAND, "5m", {}),
    ),
    (
        "double_riichi",
        (TANYAO_HAND, "5m", {"double_riichi": True}),
        2,
        (TANYAO_HAND, "5m", {"riichi": True}),
    ),
    ("pinfu", (TANYAO_HAND, "5m", {}), 1, ("234m456p678s22s357m", "5m", {"riichi": True})),
    ("tanyao", (TANYAO_HAND, "5m", {}), 1, ("123m456p678s22s345m", "5m", {"riichi": True})),
    (
        "iipeikou",
        ("223344m456p678s55s", "4m", {}),
        1,
        ("223344m456p55s", "4m", {"melds": [("chi", "678s")]}),
    ),
    (
        "yakuhai_haku",
        ("123m456p789s55s555z", "5z", {}),
        1,
        ("123m456p789s555s55z", "5z", {"riichi": True}),
    ),
    (
        "yakuhai_hatsu",
        ("123m456p789s55s666z", "6z", {}),
        1,
        ("123m456p789s555s66z", "6z", {"riichi": True}),
    ),
    (
        "yakuhai_chun",
        ("123m456p789s55s777z", "7z", {}),
        1,
        ("123m456p789s555s77z", "7z", {"riichi": True}),
    ),
    (
        "seat_wind_south",
        ("123m456p789s55s222z", "2z", {"seat_wind": "S"}),
        1,
        ("123m456p789s55s222z", "2z", {"seat_wind": "W", "riichi": True}),
    ),
    (
        "seat_wind_west",
        ("123m456p789s55s333z", "3z", {"seat_wind": "W"}),
        1,
        ("123m456p789s55s333z", "3z", {"seat_wind": "N", "riichi": True}),
    ),
    (
        "seat_wind_north",
        ("123m456p789s55s444z", "4z", {"seat_wind": "N"}),
        1,
        ("123m456p789s55s444z", "4z", {"seat_wind": "S", "riichi": True}),
    ),
    (
        "round_wind_south",
        ("123m456p789s55s222z", "2z", {"seat_wind": "W", "round_wind": "S"}),
        1,
        ("123m456p789s55s222z", "2z", {"seat_wind": "W", "riichi": True}),
    ),
    (
        "round_wind_west",
        ("123m456p789s55s333z", "3z", {"seat_wind": "S", "round_wind": "W"}),
        1,
        ("123m456p789s55s333z", "3z", {"seat_wind": "S", "riichi": True}),
    ),
    (
        "round_wind_north",
        ("123m456p789s55s444z", "4z", {"seat_wind": "S", "round_wind": "N"}),
        1,
        ("123m456p789s55s444z", "4z", {"seat_wind": "S", "riichi": True}),
    ),
    (
        "sanshoku_doujun",
        ("123m123p123s456m99p", "3m", {"riichi": True}),
        2,
        ("123m123p234s456m99p", "3m", {"riichi": True}),
    ),
    (
        "ittsu",
        ("123456789m234p55s", "9m", {"riichi": True}),
        2,
        ("123456m789p234p55s", "6m", {"riichi": True}),
    ),
    (
        "chanta",
        ("123m789p789s111z99m", "9m", {"riichi": True}),
        2,
        ("234m789p789s111z99m", "9m", {"riichi": True}),
    ),
    (
        "junchan",
        ("123m789p789s111s99m", "9m", {"riichi": True}),
        3,
        ("123m789p789s111z99m", "9m", {"riichi": True}),
    ),
    (
        "honroutou",
        (
            "111z99s",
            "9s",
            {
                "melds": [("pon", "111m"), ("pon", "999p"), ("pon", "111s")],
                "seat_wind": "W",
                "round_wind": "S",
            },
        ),
        2,
        (
            "111z22s",
            "2s",
            {
                "melds": [("pon", "111m"), ("pon", "999p"), ("pon", "111s")],
                "seat_wind": "W",
                "round_wind": "S",
            },
        ),
    ),
    (
        "toitoi",
        ("222z55s", "5s", {"melds": [("pon", "111m"), ("pon", "444p"), ("pon", "777s")]}),
        2,
        (
            "222z55s",
            "5s",
            {"melds": [("pon", "111m"), ("chi", "345p"), ("pon", "777s")], "houtei": True},
        ),
    ),
    (
        "sanankou",
        ("111m222p333s456m77p", "7p", {}),
        2,
        ("111m222p333s456m77p", "3s", {"riichi": True}),
    ),
    (
        "sankantsu",
        (
            "456m55p",
            "5p",
            {"melds": [("ankan", "2222m"), ("daiminkan", "3333p"), ("kakan", "8888s")]},
        ),
        2,
        ("456m55p", "5p", {"melds": [("ankan", "2222m"), ("pon", "333p"), ("kakan", "8888s")]}),
    ),
    (
        "sanshoku_doukou",
        ("222m222p222s456m99p", "6m", {"riichi": True}),
        2,
        ("222m222p333s456m99p", "6m", {"riichi": True}),
    ),
    (
        "chiitoitsu",
        ("1133m5577p99s1122z", "1z", {}),
        2,
        ("1133m5577p99s1111z", "1z", {"riichi": True}),
    ),
    (
        "shousangen",
        ("555z666z77z123m456p", "4p", {}),
        2,
        ("555z666z11z123m456p", "4p", {}),
    ),
    (
        "honitsu",
        ("123m456m789m111z22z", "2z", {}),
        3,
        ("123m456m789m111m22m", "2m", {}),
    ),
    (
        "ryanpeikou",
        ("223344m556677p99s", "9s", {}),
        3,
        ("223344m567678p99s", "9s", {"riichi": True}),
    ),
    (
        "chinitsu",
        ("111234567m888m99m", "9m", {}),
        6,
        ("111234567m888m11z", "1z", {}),
    ),
]


@pytest.mark.parametrize("name,pos,han,neg", CASES, ids=[c[0] for c in CASES])
def test_yaku_present_and_near_miss_absent(name, pos, han, neg):
    closed, win, kwargs = pos
    got = yaku_of(closed, win, **kwargs)
    assert got.get(name) == han, got
    closed, win, kwargs = neg
    result = score_hand(closed, win, **kwargs)
    keys = {y["key"] for y in result.yaku}
    assert name not in keys, result


def test_seat_and_round_east_are_two_entries():
    got = yaku_of("123m456p789s55s111z", "1z", seat_wind="E", round_wind="E")
    assert got["seat_wind_east"] == 1 and got["round_wind_east"] == 1


def test_round_east_alone():
    got = yaku_of("123m456p789s55s111z", "1z", seat_wind="S", round_wind="E")
    assert "seat_wind_east" not in got and got["round_wind_east"] == 1


def test_open_han_values():
    melds = [("chi", "123p")]
    assert yaku_of("123m123s456m99p", "3m", melds=melds)["sanshoku_doujun"] == 1
    assert yaku_of("123m456m789m99p", "9m", melds=melds)["ittsu"] == 1
    assert yaku_of("123m789p111z99m", "9m", melds=[("chi", "789s")])["chanta"] == 1
    assert yaku_of("123m789p111s99m", "9m", melds=[("chi", "789s")])["junchan"] == 2
    assert yaku_of("123m456m789m22z", "2z", melds=[("pon", "111z")])["honitsu"] == 2
    assert yaku_of("234567m888m99m", "9m", melds=[("chi", "123m")])["chinitsu"] == 5


def test_open_tanyao_follows_the_rule():
    kwargs = {"melds": OPEN_MELDS}
    assert yaku_of(OPEN_CLOSED, "5m", **kwargs)["tanyao"] == 1
    no_kuitan = MAHJONGSOUL.replace(open_tanyao=False)
    assert score_hand(OPEN_CLOSED, "5m", rules=no_kuitan, **kwargs).error == "no_yaku"


def test_closed_only_yaku_vanish_when_open():
    got = yaku_of("223344m456p55s", "4m", melds=[("chi", "678s")], win_type="tsumo")
    assert "iipeikou" not in got and "menzen_tsumo" not in got and "pinfu" not in got


def test_ankan_keeps_the_hand_closed():
    got = yaku_of("234m456p22s345m", "5m", win_type="tsumo", melds=[("ankan", "6666s")])
    assert got["menzen_tsumo"] == 1


def test_ryanpeikou_beats_chiitoitsu_and_replaces_iipeikou():
    got = yaku_of("223344m556677p99s", "9s")
    assert "chiitoitsu" not in got and "iipeikou" not in got


def test_chiitoitsu_with_honroutou_and_tanyao():
    assert yaku_of("1199m99p11s112233z", "1z") == {
        "chiitoitsu": 2,
        "honroutou": 2,
    }
    assert yaku_of("22m88m4466p2288s55p", "5p") == {
        "chiitoitsu": 2,
        "tanyao": 1,
    }


def test_open_riichi_and_double_open_riichi():
    rules = MAHJONGSOUL.replace(open_riichi=True)
    got = yaku_of(TANYAO_HAND, "5m", open_riichi=True, rules=rules)
    assert got.get("open_riichi") == 2 and "riichi" not in got
    got = yaku_of(TANYAO_HAND, "5m", open_riichi=True, double_riichi=True, rules=rules)
    assert got.get("open_riichi") == 2 and got.get("double_riichi") == 2
    with pytest.raises(ValueError, match="open_riichi"):
        score_hand(TANYAO_HAND, "5m", open_riichi=True)


def test_ron_into_open_riichi_pays_yakuman():
    rules = MAHJONGSOUL.replace(open_riichi=True)
    r = score_hand(
        TANYAO_HAND, "5m", open_riichi=True, yakuman_pay=True, seat_wind="S", rules=rules
    )
    assert r.limit == "yakuman" and r.payments == {"ron": 32000} and r.han == 4
    assert r.yakuman_multiplier == 0
    with pytest.raises(ValueError, match="yakuman_pay"):
        score_hand(TANYAO_HAND, "5m", yakuman_pay=True, rules=rules)


def test_situational_yaku_need_consistent_input():
    with pytest.raises(ValueError, match="ippatsu"):
        score_hand(TANYAO_HAND, "5m", ippatsu=True)
    with pytest.raises(ValueError, match="chankan"):
        score_hand(TANYAO_HAND, "5m", chankan=True, win_type="tsumo")
    with pytest.raises(ValueError, match="rinshan"):
        score_hand(TANYAO_HAND, "5m", rinshan=True, win_type="tsumo")
    with pytest.raises(ValueError, match="haitei"):
        score_hand(TANYAO_HAND, "5m", haitei=True)
    with pytest.raises(ValueError, match="houtei"):
        score_hand(TANYAO_HAND, "5m", houtei=True, win_type="tsumo")


# Yakuman: (name, positive, multiplier with double yakuman on, negative).
YAKUMAN_CASES = [
    (
        "kokushi_musou",
        ("19m19p19s12345677z", "1m", {}),
        1,
        (
            "123m456p789s11122z",
            "1z",
            {"riichi": True},
        ),
    ),
    (
        "kokushi_musou_13_sided",
        ("19m19p19s12345677z", "7z", {}),
        2,
        ("19m19p19s12345677z", "6z", {}),
    ),
    ("chuuren_poutou", ("11122345678999m", "3m", {}), 1, ("11122345678999m", "2m", {})),
    ("junsei_chuuren_poutou", ("11122345678999m", "2m", {}), 2, ("11122345678999m", "3m", {})),
    (
        "suuankou",
        ("111m222p333s444m55p", "4m", {"win_type": "tsumo"}),
        1,
        ("111m222p333s444m55p", "4m", {}),
    ),
    (
        "suuankou_tanki",
        ("111m222p333s444m55p", "5p", {}),
        2,
        ("111m222p333s444m55p", "4m", {"win_type": "tsumo"}),
    ),
    ("daisangen", ("555666777z123m99p", "9p", {}), 1, ("555z666z77z123m456p", "4p", {})),
    ("shousuushii", ("111222333z44z123m", "3m", {}), 1, ("111222z44z123m456p", "3m", {})),
    ("daisuushii", ("111222333444z55m", "5m", {}), 2, ("111222333z44z123m", "3m", {})),
    ("ryuuiisou", ("223344666888s66z", "6z", {}), 1, ("223344666888s77z", "7z", {})),
    (
        "suukantsu",
        (
            "55p",
            "5p",
            {
                "melds": [
                    ("ankan", "2222m"),
                    ("daiminkan", "3333p"),
                    ("kakan", "8888s"),
                    ("daiminkan", "1111z"),
                ]
            },
        ),
        1,
        (
            "55p",
            "5p",
            {
                "melds": [
                    ("ankan", "2222m"),
                    ("daiminkan", "3333p"),
                    ("kakan", "8888s"),
                    ("pon", "111z"),
                ]
            },
        ),
    ),
    (
        "tsuuiisou",
        ("11223344556677z", "7z", {}),
        1,
        ("112233445566z99m", "9m", {}),
    ),
    (
        "chinroutou",
        ("111s99s", "9s", {"melds": [("pon", "111m"), ("pon", "999p"), ("pon", "999m")]}),
        1,
        ("111s11z", "1z", {"melds": [("pon", "111m"), ("pon", "999p"), ("pon", "999m")]}),
    ),
    (
        "tenhou",
        (TANYAO_HAND, "5m", {"win_type": "tsumo", "tenhou": True}),
        1,
        (TANYAO_HAND, "5m", {"win_type": "tsumo"}),
    ),
    (
        "chiihou",
        (TANYAO_HAND, "5m", {"win_type": "tsumo", "chiihou": True, "seat_wind": "S"}),
        1,
        (TANYAO_HAND, "5m", {"win_type": "tsumo", "seat_wind": "S"}),
    ),
]


@pytest.mark.parametrize("name,pos,mult,neg", YAKUMAN_CASES, ids=[c[0] for c in YAKUMAN_CASES])
def test_yakuman_present_and_near_miss_absent(name, pos, mult, neg):
    closed, win, kwargs = pos
    result = score_hand(closed, win, **kwargs)
    got = {y["key"]: y for y in result.yaku}
    assert got[name]["yakuman"] == mult, result
    assert got[name]["han"] == 13 * mult
    assert all("yakuman" in y for y in result.yaku), "yakuman drops every other yaku"
    closed, win, kwargs = neg
    result = score_hand(closed, win, **kwargs)
    assert name not in {y["key"] for y in result.yaku}, result


@pytest.mark.parametrize(
    "closed,win,key",
    [
        ("19m19p19s12345677z", "7z", "kokushi_musou_13_sided"),
        ("11122345678999m", "2m", "junsei_chuuren_poutou"),
        ("111m222p333s444m55p", "5p", "suuankou_tanki"),
        ("111222333z55m", "5m", "daisuushii"),
    ],
)
def test_double_yakuman_count_single_in_tenhou_preset(closed, win, key):
    melds = [("pon", "444z")] if key == "daisuushii" else []
    result = score_hand(closed, win, melds=melds, rules=TENHOU)
    assert result.yaku == ({"key": key, "han": 13, "yakuman": 1},)
    assert result.yakuman_multiplier == 1 and result.limit == "yakuman"


def test_yakuman_stack():
    result = score_hand("111222333z55m", "5m", melds=[("pon", "444z")])
    assert result.yakuman_multiplier == 2
    result = score_hand("11122233344477z", "7z", win_type="tsumo")
    keys = {y["key"]: y["yakuman"] for y in result.yaku}
    assert keys == {"tsuuiisou": 1, "daisuushii": 2, "suuankou_tanki": 2}
    assert result.yakuman_multiplier == 5 and result.limit == "5x yakuman"


def test_ron_on_shanpon_is_not_suuankou():
    got = yaku_of("111m222p333s444m55p", "4m")
    assert got == {"toitoi": 2, "sanankou": 2}


class TestDora:
    def test_dora_ura_and_aka_counts(self):
        got = yaku_of(
            "234m406p678s22s345m",
            "5m",
            riichi=True,
            dora_indicators=["1s"],
            ura_dora_indicators=["3m"],
        )
        assert got["dora"] == 2 and got["ura_dora"] == 2 and got["aka_dora"] == 1

    def test_ura_needs_riichi_and_zero_counts_are_absent(self):
        got = yaku_of(TANYAO_HAND, "5m", dora_indicators=["7z"], ura_dora_indicators=["3m"])
        assert "ura_dora" not in got and "dora" not in got

    def test_dora_indicator_wraps(self):
        assert (
            yaku_of("123m456p789s55s111z", "1z", seat_wind="E", dora_indicators=["4z"])["dora"] == 3
        )
        assert yaku_of("123m456p789s55s555z", "5z", dora_indicators=["7z"])["dora"] == 3
        assert yaku_of("123m456p789s11s555z", "5z", dora_indicators=["9s"])["dora"] == 2

    def test_kan_counts_four_dora(self):
        got = yaku_of(
            "234m456p22s345m",
            "5m",
            win_type="tsumo",
            melds=[("ankan", "6666s")],
            dora_indicators=["5s"],
        )
        assert got["dora"] == 4

    def test_dora_alone_is_no_yaku(self):
        result = score_hand("123m406p789s11s555s", "5s", dora_indicators=["4s"])
        assert not result.valid and result.error == "no_yaku"


@pytest.mark.nojit
def test_one_yaku_without_jit():
    got = yaku_of("223344m556677p99s", "9s")
    assert got == {"ryanpeikou": 3}
