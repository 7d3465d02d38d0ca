"""North bisection (``tsumo_loss=False``) with three players (issue 26; docs/rules.md, "Three-player
riichi", rows "tsumo loss" ... "nagashi mangan" and "Where the sources disagree").

Source (丸どり, method A, http://xn--ehqsqk89oqxg.com/sanma/marudori.html): the four-player tsumo
payments are worked out first, then the absent North's payment is split in half between the two
payers. Decision: each payer's sum is rounded up to 100 (a half can end in 50). Honba stay 100 per
payer. Every expected value below is worked out by hand from that rule, not taken from the engine:

    base b; four-player shares: dealer D = ceil100(2b), non-dealer N = ceil100(b)
    non-dealer winner: dealer pays ceil100(D + N/2), the other ceil100(N + N/2)
    dealer winner: each of the two pays ceil100(D + D/2)
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    A,
    act,
    by_rules,
    describe,
    last_draw_kind,
    last_wins,
    pass_claims,
    sanma_haku_tsumo,
    sanma_nagashi,
    sanma_pao_daisangen,
    sanma_presets,
    tsumogiri,
)
from scenario_helpers import hand_deltas as deltas

from engine.events import DRAW_NAGASHI
from engine.harness.invariants import validate
from engine.rules import MAHJONGSOUL_3P, TENHOU_3P, Rules
from engine.scoring.hand_score import score_hand
from engine.scoring.payment import payment

MS3B, T3B = sanma_presets("bisection", tsumo_loss=False)
BOTH = by_rules(MS3B, T3B)

HAKU = "45p789p123s99s555z"  # waits 3p-6p; haku: tsumo 2 han 30 fu, ron 1 han 40 fu
KANCHAN = "46p789p123s99s555z"  # waits 5p; haku: tsumo 2 han 40 fu
TSUMO_ONLY = "234p56p678s999s22z"  # waits 4p-7p; menzen tsumo only: 1 han 30 fu (seat W)


# -- score_hand: the payments at several values --------------------------------------------------

# (closed + win, win, kwargs, (han, fu or limit), non-dealer winner's payments, dealer's each)
VALUES = [
    # 1 han 30 fu, base 240: D 500, N 300; N/2 = 150 -> 650 -> 700, 450 -> 500; dealer 750 -> 800
    (TSUMO_ONLY + "4p", "4p", {}, (1, 30), (700, 500), 800),
    # 2 han 30 fu, base 480: D 1,000, N 500; N/2 = 250 -> 1,300 / 800; dealer 1,500
    (HAKU + "3p", "3p", {}, (2, 30), (1300, 800), 1500),
    # 2 han 40 fu, base 640: D 1,300, N 700; N/2 = 350 -> 1,700 / 1,100; dealer 1,950 -> 2,000
    (KANCHAN + "5p", "5p", {}, (2, 40), (1700, 1100), 2000),
    # mangan: D 4,000, N 2,000 -> 5,000 / 3,000 (8,000 as with four); dealer 6,000 each
    (HAKU + "3p", "3p", {"dora_indicators": ["4p", "8s"]}, (5, "mangan"), (5000, 3000), 6000),
]


@pytest.mark.parametrize(("closed", "win", "kw", "value", "nondealer", "dealer"), VALUES)
@BOTH
def test_tsumo_is_bisected(rules, closed, win, kw, value, nondealer, dealer):
    """A non-dealer's and a dealer's tsumo at 1/30, 2/30, 2/40 and a mangan."""
    r = score_hand(closed, win, win_type="tsumo", seat_wind="W", rules=rules, **kw)
    assert (r.han, r.limit or r.fu) == value
    assert r.payments == {"tsumo_dealer": nondealer[0], "tsumo_nondealer": nondealer[1]}
    assert r.winner_gain == sum(nondealer)
    r = score_hand(closed, win, win_type="tsumo", seat_wind="E", rules=rules, **kw)
    assert r.payments == {"tsumo_all": dealer} and r.winner_gain == 2 * dealer


@pytest.mark.parametrize(("rules", "mult"), [(MS3B, 2), (T3B, 1)], ids=["ms", "tenhou"])
def test_yakuman_tsumo_is_bisected(rules, mult):
    """A kokushi tsumo on its 13-sided wait (Mahjong Soul: double yakuman, Tenhou: single).
    Single yakuman: D 16,000, N 8,000 -> 20,000 / 12,000 (32,000, the four-player total); a dealer
    16,000 + 8,000 = 24,000 from each of two (48,000)."""
    hand = "19m19p19s1234567z1m"
    r = score_hand(hand, "1m", win_type="tsumo", seat_wind="S", rules=rules)
    assert r.yakuman_multiplier == mult
    assert r.payments == {"tsumo_dealer": 20000 * mult, "tsumo_nondealer": 12000 * mult}
    r = score_hand(hand, "1m", win_type="tsumo", seat_wind="E", rules=rules)
    assert r.payments == {"tsumo_all": 24000 * mult} and r.winner_gain == 48000 * mult


@BOTH
def test_honba_and_sticks(rules):
    """Honba stay 100 per payer, added after the bisection: 2 han 30 fu with 2 honba is 1,500 /
    1,000; a dealer's with 1 honba 1,600 each; sticks to the winner as always."""
    r = score_hand(HAKU + "3p", "3p", win_type="tsumo", seat_wind="S", honba=2, rules=rules)
    assert r.payments == {"tsumo_dealer": 1500, "tsumo_nondealer": 1000}
    assert r.winner_gain == 2500
    r = score_hand(HAKU + "3p", "3p", win_type="tsumo", seat_wind="E", honba=1, kyotaku=2,
                   rules=rules)  # fmt: skip
    assert r.payments == {"tsumo_all": 1600} and r.winner_gain == 3200 + 2000


@BOTH
def test_a_ron_is_unchanged(rules):
    """Bisection is about the tsumo only: 1 han 40 fu ron 1,300, 200 per honba (as tsumo loss)."""
    r = score_hand(HAKU + "3p", "3p", seat_wind="S", honba=3, rules=rules)
    assert (r.han, r.fu) == (1, 40) and r.payments == {"ron": 1300 + 600}
    loss = rules.replace(tsumo_loss=True)
    assert r == score_hand(HAKU + "3p", "3p", seat_wind="S", honba=3, rules=loss)


def test_payment_function():
    """``engine.scoring.payment.payment`` gives the same shares (the scoring reference tables)."""
    r = payment(1, 30, dealer=False, tsumo=True, rules=MS3B)
    assert r["payments"] == {"tsumo_dealer": 700, "tsumo_nondealer": 500} and r["total"] == 1200
    r = payment(1, 30, dealer=True, tsumo=True, honba=1, rules=T3B)
    assert r["payments"] == {"tsumo_all": 900} and r["total"] == 1800
    r = payment(1, 30, dealer=False, tsumo=True, rules=MAHJONGSOUL_3P)
    assert r["payments"] == {"tsumo_dealer": 500, "tsumo_nondealer": 300}


def test_score_hand_accepts_the_option_and_presets_keep_tsumo_loss():
    """The option is scored, not refused; both presets keep tsumo loss on."""
    assert MAHJONGSOUL_3P.tsumo_loss and TENHOU_3P.tsumo_loss
    assert Rules.preset("mahjongsoul-3p").tsumo_loss
    r = score_hand(HAKU + "3p", "3p", win_type="tsumo", seat_wind="S",
                   rules=Rules.preset("mahjongsoul-3p").replace(tsumo_loss=False))  # fmt: skip
    assert r.winner_gain == 2100


# -- the game: tsumo, pao, nagashi ----------------------------------------------------------------


@pytest.mark.nojit
@BOTH
def test_played_nondealer_tsumo_agrees_with_score_hand(rules):
    """Seat 1 tsumo 2 han 30 fu: dealer 1,300, seat 2 800 (tsumo loss: 1,000 + 500); ``score_hand``
    on the same hand with ``mahjongsoul-3p`` and ``tsumo_loss=False`` gives the same shares."""
    g = sanma_haku_tsumo(rules, dealer=False)
    assert deltas(g) == [-1300, 2100, -800, 0], describe(g)
    (win,) = last_wins(g)
    r = score_hand(HAKU + "3p", "3p", win_type="tsumo", seat_wind="S",
                   rules=Rules.preset("mahjongsoul-3p").replace(tsumo_loss=False))  # fmt: skip
    assert (r.han, r.fu) == (win["han"], win["fu"])
    assert deltas(g)[:3] == [-r.payments["tsumo_dealer"], r.winner_gain,
                             -r.payments["tsumo_nondealer"]]  # fmt: skip
    assert not validate(g.state)


@pytest.mark.nojit
@BOTH
def test_played_dealer_tsumo_with_honba(rules):
    """Dealer (seat 1 in East 2) tsumo 2 han 30 fu with 1 honba: 1,500 + 100 from each of two."""
    g = sanma_haku_tsumo(rules, dealer=True)
    assert deltas(g) == [-1600, 3200, -1600, 0], describe(g)


def _pao_daisangen(rules, honba: int = 0):
    """``sanma_pao_daisangen``, then seat 0 tsumogiris and seat 1 draws 5p."""
    g = sanma_pao_daisangen(rules, honba=honba)
    tsumogiri(g, 0)
    pass_claims(g)
    return g


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("rules", "expected"),
    [(MS3B, [-100, 32200, -32100, 0]), (T3B, [0, 32200, -32200, 0])],
    ids=["mahjongsoul-3p", "tenhou-3p"],
)
def test_pao_tsumo_pays_the_bisected_total(rules, expected):
    """Decision: the liable seat pays the tsumo total, which with bisection is 20,000 + 12,000 =
    32,000 for a non-dealer yakuman (with tsumo loss 24,000); honba as with tsumo loss (100 per
    payer, or all by the liable seat with ``pao_honba="liable"``)."""
    g = _pao_daisangen(rules, honba=1)
    act(g, 1, A.TSUMO)
    (win,) = last_wins(g)
    assert win["yaku"].get("daisangen") == 1 and win["pao"] == 2, describe(g, str(win))
    assert deltas(g) == expected, describe(g)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("seat", "expected"),
    [(0, [12000, -6000, -6000, 0]), (1, [-5000, 8000, -3000, 0])],
    ids=["dealer", "nondealer"],
)
@BOTH
def test_nagashi_mangan_is_a_bisected_mangan_tsumo(rules, seat, expected):
    """Decision: nagashi mangan is paid as a mangan tsumo, so bisected: a dealer 4,000 + 2,000
    from each of two; a non-dealer 4,000 + 1,000 from the dealer, 2,000 + 1,000 from the other."""
    hands = ["2345678s234567p", "2345678p234567s", "234567p234567s8p", ""]
    g = sanma_nagashi(seat, hands, "8s", rules)
    assert last_draw_kind(g) == DRAW_NAGASHI, describe(g)
    assert deltas(g) == expected, describe(g)


# -- self-play: points conserved -------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["greedy", "efficiency"])
@BOTH
def test_checked_self_play_with_bisection(rules, policy):
    """Self-play with bisection (``check=2``: every state valid, every masked action accepted):
    points plus sticks conserved, seat 3 at 0, final scores summing to 0; some tsumo was paid
    more than with tsumo loss (the same seeds' games differ)."""
    from engine.harness.selfplay import POLICY_EFFICIENCY, POLICY_GREEDY, selfplay

    pol = POLICY_GREEDY if policy == "greedy" else POLICY_EFFICIENCY
    out = selfplay(20, seed=4_000, rules=rules, check=2, policy=pol)
    assert out["errors"] == [], out["errors"][:3]
    for r in out["results"]:
        assert r["points"][3] == 0 and sum(r["points"]) == 3 * rules.start_points, r
        assert abs(sum(r["final_scores"])) < 1e-6, r
    loss = selfplay(20, seed=4_000, rules=rules.replace(tsumo_loss=True), policy=pol)
    assert [r["points"] for r in out["results"]] != [r["points"] for r in loss["results"]]


def test_record_export_values_a_bisected_tsumo():
    """The record export's win value (``points``: the sum of the tsumo shares) follows the rules:
    a non-dealer 30 fu 1 han tsumo is 800 with tsumo loss, 1,200 bisected; a dealer's 1,600."""
    from riichi_env.records.export import hand_value
    from riichi_env.records.model import Win

    win = Win(seat=1, from_seat=1, deltas=(0, 0, 0, 0), han=1, fu=30, limit="")
    assert hand_value(win, 0, 3) == 800 and hand_value(win, 0, 3, tsumo_loss=False) == 1200
    assert hand_value(win, 1, 3, tsumo_loss=False) == 1600
    ron = Win(seat=1, from_seat=0, deltas=(0, 0, 0, 0), han=1, fu=30, limit="")
    assert hand_value(ron, 0, 3, tsumo_loss=False) == hand_value(ron, 0, 3) == 1000
