"""Every number of the scoring reference's tables (and the rule texts' payment rules) comes out of ours.

The han × fu grids and the limits table go through ``engine.scoring.payment`` (the payment
kernels); the worked examples and one hand per limit row also go through ``score_hand`` on
constructed hands.
"""

from __future__ import annotations

import pytest

from engine.rules import MAHJONGSOUL, TENHOU
from engine.scoring.hand_score import MAX_COUNTER, payment, score_hand

KIRIAGE = MAHJONGSOUL.replace(kiriage_mangan=True)
NO_KAZOE = MAHJONGSOUL.replace(kazoe_yakuman=False)


def pay(han, fu, *, dealer, tsumo, honba=0, yakuman=0, rules=MAHJONGSOUL):
    """(limit name, base, payments in the hand-score format, total) from ``engine.scoring.payment``."""
    r = payment(han, fu, dealer=dealer, tsumo=tsumo, honba=honba, yakuman=yakuman, rules=rules)
    return r["limit"], r["base"], r["payments"], r["total"]


# -- the scoring reference "Quick reference: ron payments" ----------------------------------------------------

FU_COLUMNS = (30, 40, 50, 60, 70)
NONDEALER_RON = {
    1: (1000, 1300, 1600, 2000, 2300),
    2: (2000, 2600, 3200, 3900, 4500),
    3: (3900, 5200, 6400, 7700, 8000),
    4: (7700, 8000, 8000, 8000, 8000),
}
DEALER_RON = {
    1: (1500, 2000, 2400, 2900, 3400),
    2: (2900, 3900, 4800, 5800, 6800),
    3: (5800, 7700, 9600, 11600, 12000),
    4: (11600, 12000, 12000, 12000, 12000),
}


@pytest.mark.parametrize("rules", [MAHJONGSOUL, TENHOU], ids=["mahjongsoul", "tenhou"])
@pytest.mark.parametrize(("dealer", "grid"), [(False, NONDEALER_RON), (True, DEALER_RON)])
def test_ron_grid(dealer, grid, rules):
    """Spec 004 ron grids, han 1-4 × fu 30-70, no kiriage and no honba."""
    for han, row in grid.items():
        for fu, expected in zip(FU_COLUMNS, row, strict=True):
            _, base, payments, _ = pay(han, fu, dealer=dealer, tsumo=False, rules=rules)
            assert payments == {"ron": expected}, (han, fu)
            assert (base >= 2000) == (expected in (8000, 12000)), (han, fu)


def test_grid_cells_above_2000_base_are_mangan():
    """'Any cell above 2,000 base is already a mangan': 3 han 70 fu and 4 han 40+ fu."""
    for han, fu in [(3, 70), (4, 40), (4, 50), (4, 60), (4, 70)]:
        assert pay(han, fu, dealer=False, tsumo=False)[:2] == ("mangan", 2000)
    for han, fu in [(3, 60), (4, 30)]:
        assert pay(han, fu, dealer=False, tsumo=False)[:2] == ("", 1920)


# -- the scoring reference "Limits" ------------------------------------------------------------------------------

LIMITS = [
    # name, han that reach it, non-dealer ron, dealer ron, (each non-dealer, dealer), dealer tsumo
    ("mangan", (5,), 8000, 12000, (2000, 4000), 4000),
    ("haneman", (6, 7), 12000, 18000, (3000, 6000), 6000),
    ("baiman", (8, 9, 10), 16000, 24000, (4000, 8000), 8000),
    ("sanbaiman", (11, 12), 24000, 36000, (6000, 12000), 12000),
    ("kazoe yakuman", (13, 14, 20, 26), 32000, 48000, (8000, 16000), 16000),
]


@pytest.mark.parametrize("row", LIMITS, ids=[r[0] for r in LIMITS])
@pytest.mark.parametrize("fu", [20, 25, 30, 40, 110])
def test_limits_table(row, fu):
    """Spec 004 limits: every han of the row, every payment column; fu does not matter."""
    name, hans, ron_nd, ron_d, (tsumo_nd, tsumo_d), tsumo_all = row
    for han in hans:
        assert pay(han, fu, dealer=False, tsumo=False)[0] == name
        assert pay(han, fu, dealer=False, tsumo=False)[2] == {"ron": ron_nd}
        assert pay(han, fu, dealer=True, tsumo=False)[2] == {"ron": ron_d}
        assert pay(han, fu, dealer=False, tsumo=True)[2] == {
            "tsumo_nondealer": tsumo_nd,
            "tsumo_dealer": tsumo_d,
        }
        assert pay(han, fu, dealer=True, tsumo=True)[2] == {"tsumo_all": tsumo_all}


def test_mangan_by_han_and_fu():
    """'Mangan: 5, or 4 with 40+ fu, or 3 with 70+ fu' in every payment column."""
    for han, fu in [(5, 20), (4, 40), (3, 70)]:
        assert pay(han, fu, dealer=False, tsumo=False)[2] == {"ron": 8000}
        assert pay(han, fu, dealer=True, tsumo=False)[2] == {"ron": 12000}
        assert pay(han, fu, dealer=False, tsumo=True)[2] == {
            "tsumo_nondealer": 2000,
            "tsumo_dealer": 4000,
        }
        assert pay(han, fu, dealer=True, tsumo=True)[2] == {"tsumo_all": 4000}


@pytest.mark.parametrize("multiplier", range(1, 7))
def test_yakuman_hand_pays_the_limit_times_its_multiplier(multiplier):
    """Spec 004: a yakuman hand pays 32,000 / 48,000 (8,000 / 16,000 tsumo) whatever its han."""
    m = multiplier
    for han, fu in [(0, 0), (13 * m, 30)]:
        name, base, payments, _ = pay(han, fu, dealer=False, tsumo=False, yakuman=m)
        limit = "yakuman" if m == 1 else f"{m}x yakuman"
        assert (name, base, payments) == (limit, 8000 * m, {"ron": 32000 * m})
        assert pay(han, fu, dealer=True, tsumo=False, yakuman=m)[2] == {"ron": 48000 * m}
        assert pay(han, fu, dealer=False, tsumo=True, yakuman=m)[2] == {
            "tsumo_nondealer": 8000 * m,
            "tsumo_dealer": 16000 * m,
        }
        assert pay(han, fu, dealer=True, tsumo=True, yakuman=m)[2] == {"tsumo_all": 16000 * m}


def test_kazoe_option_off_caps_at_sanbaiman():
    """Spec 004: whether 13+ counted han is yakuman 'depends on the group' (rule option)."""
    assert pay(13, 30, dealer=False, tsumo=False, rules=NO_KAZOE)[:3] == (
        "sanbaiman",
        6000,
        {"ron": 24000},
    )
    assert pay(20, 30, dealer=True, tsumo=True, rules=NO_KAZOE)[2] == {"tsumo_all": 12000}


# -- the scoring reference "The formula" and worked examples -----------------------------------------------------


def test_formula_and_rounding():
    """Base = fu × 2^(2+han); ron 4× / 6×, tsumo 2× and 1× base, each rounded up to 100."""
    for han in range(1, 5):
        for fu in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110):
            base = fu * 2 ** (2 + han)
            if base >= 2000:
                continue
            up = lambda x: -(-x // 100) * 100  # noqa: E731
            assert pay(han, fu, dealer=False, tsumo=False)[2] == {"ron": up(4 * base)}
            assert pay(han, fu, dealer=True, tsumo=False)[2] == {"ron": up(6 * base)}
            assert pay(han, fu, dealer=False, tsumo=True)[2] == {
                "tsumo_nondealer": up(base),
                "tsumo_dealer": up(2 * base),
            }
            assert pay(han, fu, dealer=True, tsumo=True)[2] == {"tsumo_all": up(2 * base)}


def test_worked_example_3_han_30_fu():
    """'3 han 30 fu, non-dealer, ron. Base is 960. Four times that is 3,840, rounded up to 3,900.'"""
    assert pay(3, 30, dealer=False, tsumo=False)[1:3] == (960, {"ron": 3900})


@pytest.mark.nojit
def test_worked_example_4_han_30_fu_and_kiriage():
    """'4 han 30 fu is 1,920 base. As a ron that is 7,700'; kiriage rounds to 2,000 and 8,000."""
    assert pay(4, 30, dealer=False, tsumo=False)[:3] == ("", 1920, {"ron": 7700})
    assert pay(4, 30, dealer=False, tsumo=False, rules=KIRIAGE)[:3] == (
        "mangan",
        2000,
        {"ron": 8000},
    )
    # Mahjong Soul rules: without kiriage 60 fu 3 han is 7,700 too; the variant rules roundUpMangan makes it mangan
    assert pay(3, 60, dealer=False, tsumo=False)[2] == {"ron": 7700}
    assert pay(3, 60, dealer=False, tsumo=False, rules=KIRIAGE)[2] == {"ron": 8000}
    assert pay(3, 50, dealer=False, tsumo=False, rules=KIRIAGE)[2] == {"ron": 6400}


def test_worked_fu_examples_payments():
    """2 han 40 fu: base 640, non-dealer ron 2,600. 1 han 30 fu tsumo: base 240, 500 / 300."""
    assert pay(2, 40, dealer=False, tsumo=False)[1:3] == (640, {"ron": 2600})
    _, base, payments, total = pay(1, 30, dealer=False, tsumo=True)
    assert base == 240
    assert payments == {"tsumo_nondealer": 300, "tsumo_dealer": 500}
    assert total == 1100


@pytest.mark.nojit
def test_honba():
    """'Each counter adds 300 points to a ron, or 100 from each player on a tsumo.'"""
    for honba in (1, 2, 5):
        assert pay(3, 30, dealer=False, tsumo=False, honba=honba)[2] == {"ron": 3900 + 300 * honba}
        assert pay(5, 30, dealer=True, tsumo=False, honba=honba)[2] == {"ron": 12000 + 300 * honba}
        assert pay(1, 30, dealer=False, tsumo=True, honba=honba)[2] == {
            "tsumo_nondealer": 300 + 100 * honba,
            "tsumo_dealer": 500 + 100 * honba,
        }
        assert pay(5, 30, dealer=True, tsumo=True, honba=honba)[2] == {
            "tsumo_all": 4000 + 100 * honba
        }


# -- the same numbers from score_hand on constructed hands -----------------------------------------

PINFU = "234567m234567p55s"
"""Closed riichi pinfu tanyao; won on 7m (ryanmen): 3 han 30 fu by ron, 4 han 20 fu by tsumo."""
SINGLE_DORA = ["1m", "2m", "3m", "4m", "5m", "6m", "1p", "2p", "3p", "4p"]
"""Indicators whose dora is one tile of PINFU each; ``4s`` points at its two 5s."""


def _indicators(extra_han: int) -> tuple[list[str], list[str]]:
    """Dora and ura indicators adding exactly ``extra_han`` to PINFU (at most five of each)."""
    picks = ["4s"] * min(extra_han // 2, 4)
    picks += SINGLE_DORA[: extra_han - 2 * len(picks)]
    assert sum(2 if p == "4s" else 1 for p in picks) == extra_han and len(picks) <= 10
    return picks[:5], picks[5:]


def _pinfu(extra_han: int, *, dealer: bool, tsumo: bool, rules=MAHJONGSOUL, honba=0):
    dora, ura = _indicators(extra_han)
    return score_hand(
        PINFU,
        "7m",
        win_type="tsumo" if tsumo else "ron",
        seat_wind="E" if dealer else "S",
        round_wind="E",
        riichi=True,
        dora_indicators=dora,
        ura_dora_indicators=ura,
        honba=honba,
        kyotaku=1,
        rules=rules,
    )


def test_score_hand_3_han_30_fu_ron():
    r = _pinfu(0, dealer=False, tsumo=False)
    assert (r.han, r.fu, r.limit, r.payments) == (3, 30, "", {"ron": 3900})
    assert {y["key"] for y in r.yaku} == {"riichi", "pinfu", "tanyao"}
    assert _pinfu(0, dealer=True, tsumo=False).payments == {"ron": 5800}


def test_score_hand_4_han_30_fu_and_kiriage():
    r = _pinfu(1, dealer=False, tsumo=False)
    assert (r.han, r.fu, r.limit, r.payments) == (4, 30, "", {"ron": 7700})
    r = _pinfu(1, dealer=False, tsumo=False, rules=KIRIAGE)
    assert (r.han, r.fu, r.limit, r.payments) == (4, 30, "mangan", {"ron": 8000})
    assert _pinfu(1, dealer=True, tsumo=False).payments == {"ron": 11600}


@pytest.mark.parametrize("row", LIMITS, ids=[r[0] for r in LIMITS])
def test_score_hand_limit_rows(row):
    """One constructed hand per han of each limit row, in all four payment columns."""
    name, hans, ron_nd, ron_d, (tsumo_nd, tsumo_d), tsumo_all = row
    for han in hans:
        if han > 3 + 14:
            continue  # PINFU + 10 indicators reaches 17 han by ron
        r = _pinfu(han - 3, dealer=False, tsumo=False)
        assert (r.han, r.limit, r.payments) == (han, name, {"ron": ron_nd})
        assert _pinfu(han - 3, dealer=True, tsumo=False).payments == {"ron": ron_d}
        # by tsumo menzen tsumo adds a han (and pinfu makes it 20 fu)
        r = _pinfu(han - 4, dealer=False, tsumo=True)
        assert (r.han, r.fu, r.limit) == (han, 20, name)
        assert r.payments == {"tsumo_dealer": tsumo_d, "tsumo_nondealer": tsumo_nd}
        assert _pinfu(han - 4, dealer=True, tsumo=True).payments == {"tsumo_all": tsumo_all}


def test_score_hand_yakuman_row():
    """Kokushi musou (single wait): 32,000 / 48,000 / 8,000-16,000 / 16,000 all."""
    hand = dict(closed="119m19p19s1234567z", win_tile="9m")
    r = score_hand(**hand, win_type="ron", seat_wind="S")
    assert (r.limit, r.yakuman_multiplier, r.payments) == ("yakuman", 1, {"ron": 32000})
    assert score_hand(**hand, win_type="ron", seat_wind="E").payments == {"ron": 48000}
    r = score_hand(**hand, win_type="tsumo", seat_wind="W")
    assert r.payments == {"tsumo_dealer": 16000, "tsumo_nondealer": 8000}
    r = score_hand(**hand, win_type="tsumo", seat_wind="E")
    assert r.payments == {"tsumo_all": 16000}


def test_score_hand_kazoe_without_the_option():
    r = _pinfu(10, dealer=False, tsumo=False, rules=NO_KAZOE)
    assert (r.han, r.limit, r.payments) == (13, "sanbaiman", {"ron": 24000})


@pytest.mark.nojit
def test_score_hand_worked_fu_example_closed_ron():
    """Spec 004: riichi + tanyao, three chows, 22p pair, concealed 777p, kanchan: 40 fu, 2,600."""
    r = score_hand(
        "234m345s345777p22p", "4p", win_type="ron", seat_wind="S", riichi=True, kyotaku=1
    )
    assert (r.han, r.fu, r.payments, r.winner_gain) == (2, 40, {"ron": 2600}, 3600)
    assert {y["key"] for y in r.yaku} == {"riichi", "tanyao"}


@pytest.mark.nojit
def test_score_hand_worked_fu_example_open_tsumo():
    """Spec 004: open haku pon, three chows, a pair, tsumo: 26 → 30 fu, 500 / 300, 1,100."""
    r = score_hand(
        "234m567s345p22p", "5p", melds=[("pon", "555z")], win_type="tsumo", seat_wind="S"
    )
    assert (r.han, r.fu) == (1, 30)
    assert r.payments == {"tsumo_dealer": 500, "tsumo_nondealer": 300}
    assert r.winner_gain == 1100


def test_score_hand_honba():
    r = _pinfu(0, dealer=False, tsumo=False, honba=2)
    assert (r.payments, r.winner_gain) == ({"ron": 4500}, 5500)
    r = _pinfu(0, dealer=False, tsumo=True, honba=3)  # 4 han 20 fu: 2,600 / 1,300
    assert r.payments == {"tsumo_dealer": 2600 + 300, "tsumo_nondealer": 1300 + 300}


# Spec 000's exhaustive-draw table (1 tenpai 3,000 / 1,000 each; 2: 1,500; 3: 1,000 / 3,000) is
# tests/engine/test_scenario_draws.py::test_exhaustive_draw_payments (the game pays it).


@pytest.mark.parametrize(("field", "value"), [("honba", 10**7), ("kyotaku", 3 * 10**6)])
def test_huge_counters_are_refused_naming_the_field(field, value):
    """Honba and kyotaku far beyond any game (above MAX_COUNTER) are a ValueError naming the field."""
    kwargs = {"seat_wind": "S", "riichi": True, "kyotaku": 1, field: value}
    with pytest.raises(ValueError, match=rf"^{field}: must be 0-{MAX_COUNTER}\b"):
        score_hand(PINFU, "7m", **kwargs)
    kwargs[field] = MAX_COUNTER
    r = score_hand(PINFU, "7m", **kwargs)
    if field == "honba":
        assert r.payments == {"ron": 3900 + 300 * MAX_COUNTER}
    else:
        assert r.winner_gain == 3900 + 1000 * MAX_COUNTER


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"han": 0, "fu": 30}, ValueError, "han must be 1-1000"),
        ({"han": 2, "fu": 35}, ValueError, "fu must be 25 or a multiple of 10"),
        ({"han": 2, "fu": 30, "honba": -1}, ValueError, "honba must be 0-1000"),
        ({"han": 2.0, "fu": 30}, TypeError, "han must be an int"),
        ({"han": 2, "fu": 30, "yakuman": 7}, ValueError, "yakuman must be 0-6"),
        ({"han": 2, "fu": 30, "rules": "sanma"}, ValueError, "unknown rules preset"),
    ],
)
def test_payment_refuses_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        payment(dealer=False, tsumo=False, **kwargs)


def test_payment_reports_limit_base_and_total():
    assert payment(3, 30, dealer=False, tsumo=False) == {
        "limit": "",
        "base": 960,
        "payments": {"ron": 3900},
        "total": 3900,
    }
    assert payment(4, 30, dealer=False, tsumo=True, honba=1, rules=KIRIAGE)["total"] == 8300
