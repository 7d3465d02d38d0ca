"""Hand scoring with three players (issue 26; docs/rules.md "Three-player riichi", docs/hand-score.md):
``score_hand`` with ``players=3`` or a three-player preset: tsumo loss, honba 100 per payer (a ron
200 per honba), indicator 1m making 9m the dora, kita as nuki dora (one more per West indicator),
the three-player tile set (no 2m-8m), no chi, no North seat or round.

Expected values are worked from the rules (W-Sanma, W-MS19, mahjong-rule.jp for kita under a
West indicator); ``test_three_player_scores_match_mahjong_package`` compares random hands with the
``mahjong`` package, which has no three-player payments or kita: its han and fu are taken, the
kita han added and the payments worked out by the rules below.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, TENHOU, TENHOU_3P
from engine.scoring import check_hand_input, score_hand

BOTH = pytest.mark.parametrize("rules", ["mahjongsoul-3p", "tenhou-3p"])

HAKU = "45p789p123s99s555z3p"  # haku + (menzen tsumo), win 3p: 40 fu ron, 30 fu tsumo


def score(closed=HAKU, win="3p", **kwargs):
    return score_hand(closed, win, **kwargs)


# -- payments: tsumo loss and honba ------------------------------------------------------------


@BOTH
def test_nondealer_tsumo_is_paid_by_two_seats(rules):
    """W-Sanma, W-MS19: 2 han 30 fu (base 480): the dealer pays 1,000, the other seat 500; no
    third payer (with four players the winner would get 2,000). Honba: 100 from each payer."""
    r = score(win_type="tsumo", seat_wind="S", rules=rules)
    assert (r.han, r.fu) == (2, 30)
    assert r.payments == {"tsumo_dealer": 1000, "tsumo_nondealer": 500} and r.winner_gain == 1500
    r = score(win_type="tsumo", seat_wind="W", honba=2, rules=rules)
    assert r.payments == {"tsumo_dealer": 1200, "tsumo_nondealer": 700} and r.winner_gain == 1900
    four = score(win_type="tsumo", seat_wind="S", rules=rules.removesuffix("-3p"))
    assert four.winner_gain == 2000


@BOTH
def test_dealer_tsumo_and_ron_with_honba(rules):
    """A dealer tsumo of 2 han 30 fu: 1,000 from each of two; a ron 200 per honba (not 300)."""
    r = score(win_type="tsumo", seat_wind="E", honba=1, rules=rules)
    assert r.payments == {"tsumo_all": 1100} and r.winner_gain == 2200
    r = score(win_type="ron", seat_wind="S", honba=3, kyotaku=2, rules=rules)
    assert (r.han, r.fu) == (1, 40)
    assert r.payments == {"ron": 1300 + 600} and r.winner_gain == 1900 + 2000


@BOTH
def test_mangan_tsumo_with_tsumo_loss(rules):
    """R-tenhou sanma2.xml hand 1 (mangan 2,000 + 4,000 = 6,000); a dealer mangan 4,000 each."""
    hand = "45p789p123s99s555z3p"
    r = score(hand, win_type="tsumo", seat_wind="S", dora_indicators=["4p", "8s"], rules=rules)
    assert (r.han, r.limit) == (5, "mangan")
    assert r.payments == {"tsumo_dealer": 4000, "tsumo_nondealer": 2000}
    r = score(hand, win_type="tsumo", seat_wind="E", dora_indicators=["4p", "8s"], rules=rules)
    assert r.payments == {"tsumo_all": 4000} and r.winner_gain == 8000


@pytest.mark.parametrize(
    ("rules", "paid"), [("mahjongsoul-3p", 64000), ("tenhou-3p", 32000)], ids=["ms", "tenhou"]
)
def test_thirteen_sided_kokushi(rules, paid):
    """R-mjs kokushi13_withnuki.json (64,000: double yakuman); Tenhou: single yakuman."""
    r = score("19m19p19s1234567z1m", "1m", seat_wind="S", rules=rules)
    assert r.payments == {"ron": paid}
    r = score("19m19p19s1234567z1m", "1m", win_type="tsumo", seat_wind="S", rules=rules)
    assert r.payments == {"tsumo_dealer": paid // 2, "tsumo_nondealer": paid // 4}


# -- dora: 1m indicates 9m; kita ----------------------------------------------------------------


@BOTH
def test_indicator_1m_makes_9m_dora(rules):
    """W-Sanma: no 2m-8m, so indicator 1m makes 9m the dora (ura too, with riichi)."""
    hand = "45p789p123s99m555z3p"
    r = score(hand, seat_wind="S", dora_indicators=["1m"], rules=rules)
    assert dict((y["key"], y["han"]) for y in r.yaku)["dora"] == 2 and r.han == 3
    assert r.payments == {"ron": 5200}
    r = score(hand, seat_wind="S", riichi=True, ura_dora_indicators=["1m"], rules=rules)
    assert dict((y["key"], y["han"]) for y in r.yaku)["ura_dora"] == 2
    four = score(hand, seat_wind="S", dora_indicators=["1m"], rules=rules.removesuffix("-3p"))
    assert four.han == 1, "with four players 1m indicates 2m"


def _yaku(r) -> dict[str, int]:
    return {y["key"]: y["han"] for y in r.yaku}


@BOTH
def test_kita_is_nuki_dora(rules):
    """W-Sanma, W-MS19: each kita is one han of dora (R-tenhou sanma2.xml counts it in "dora")."""
    base = score(win_type="tsumo", seat_wind="S", rules=rules)
    r = score(win_type="tsumo", seat_wind="S", kita=2, rules=rules)
    assert _yaku(r)["dora"] == 2 and r.han == base.han + 2 and r.fu == base.fu
    assert r.payments == {"tsumo_dealer": 3900, "tsumo_nondealer": 2000}  # 4 han 30 fu


@BOTH
def test_kita_under_a_west_indicator_is_two_dora(rules):
    """mahjong-rule.jp: a West indicator makes North dora, so each kita is 2 han; a West ura
    indicator gives each kita one ura dora for a riichi winner (docs/rules.md decision) and
    nothing without riichi."""
    r = score(win_type="tsumo", seat_wind="S", kita=1, dora_indicators=["3z"], rules=rules)
    assert _yaku(r)["dora"] == 2 and r.han == 4
    r = score(win_type="tsumo", seat_wind="S", kita=2, dora_indicators=["3z", "3z"],
              riichi=True, ura_dora_indicators=["3z", "1z"], rules=rules)  # fmt: skip
    assert _yaku(r)["dora"] == 6 and _yaku(r)["ura_dora"] == 2 and r.han == 11
    assert r.limit == "sanbaiman"
    r = score(win_type="tsumo", seat_wind="S", kita=1, ura_dora_indicators=["3z"], rules=rules)
    assert "ura_dora" not in _yaku(r) and r.han == 3


@BOTH
def test_kita_raises_the_limit(rules):
    """Haku, tsumo and two dora, 4 han 30 fu (3,900 + 2,000); one kita more: 5 han, mangan."""
    r = score(win_type="tsumo", seat_wind="S", dora_indicators=["8s"], rules=rules)
    assert (r.han, r.fu, r.limit) == (4, 30, "")
    assert r.payments == {"tsumo_dealer": 3900, "tsumo_nondealer": 2000}
    r = score(win_type="tsumo", seat_wind="S", dora_indicators=["8s"], kita=1, rules=rules)
    assert (r.han, r.limit) == (5, "mangan")
    assert r.payments == {"tsumo_dealer": 4000, "tsumo_nondealer": 2000}


@BOTH
def test_no_kita_han_for_a_yakuman(rules):
    """A yakuman pays the yakuman: dora, nuki dora included, do not count."""
    hand = "111p99s555z666z777z"
    kwargs = {"win_type": "tsumo", "seat_wind": "S", "rules": rules}
    r0 = score(hand, "1p", **kwargs)
    r = score(hand, "1p", kita=2, dora_indicators=["3z"], **kwargs)
    assert r.yakuman_multiplier >= 1 and "dora" not in _yaku(r)
    assert r.payments == r0.payments


# -- players, the tile set and the refusals ------------------------------------------------------


def test_players_picks_the_three_player_preset():
    """``players=3`` with a four-player preset scores its three-player version, and back."""
    assert check_hand_input(HAKU, "3p", players=3)["rules"] is MAHJONGSOUL_3P
    assert check_hand_input(HAKU, "3p", players=3, rules="tenhou")["rules"] is TENHOU_3P
    assert check_hand_input(HAKU, "3p", players=4, rules="tenhou-3p")["rules"] is TENHOU
    got = check_hand_input(HAKU, "3p", rules="mahjongsoul-3p")
    assert got["rules"] is MAHJONGSOUL_3P and got["players"] == 3 and got["kita"] == 0
    assert check_hand_input(HAKU, "3p")["players"] == 4
    assert score(players=3).payments == score(rules=MAHJONGSOUL_3P).payments


BAD = [
    ({"players": 2}, ValueError, "players: must be 3 or 4, got 2"),
    ({"players": True}, ValueError, "players: must be 3 or 4"),
    ({"players": 3, "rules": "tenhou-2009"}, ValueError, "players: is 3, but rules 'tenhou-2009'"),
    ({"players": 3, "rules": MAHJONGSOUL.replace(uma=(20, 10, -10, -20))}, ValueError, "players"),
    ({"rules": MAHJONGSOUL_3P.replace(tsumo_loss=False)}, ValueError, "rules: .*north bisection"),
    ({"seat_wind": "N", "rules": "tenhou-3p"}, ValueError, "seat_wind: is N, but with three"),
    ({"round_wind": "N", "players": 3}, ValueError, "round_wind: is N"),
    ({"kita": 5, "players": 3}, ValueError, "kita: must be 0-4, got 5"),
    ({"kita": -1, "players": 3}, ValueError, "kita: must be 0-4"),
    ({"kita": True, "players": 3}, TypeError, "kita: must be a whole number"),
    ({"kita": 1.0, "players": 3}, TypeError, "kita: must be a whole number"),
    ({"kita": 1}, ValueError, "kita: is 1, but ruleset mahjongsoul has no kita"),
    ({"kita": 1, "rules": MAHJONGSOUL_3P.replace(kita=False)}, ValueError, "has no kita"),
    ({"dora_indicators": ["5m"], "players": 3}, ValueError, "dora_indicators: has 5m, which is"),
    ({"dora_indicators": ["4z"] * 2, "kita": 3, "players": 3}, ValueError, "kita: makes a fifth"),
]


@pytest.mark.parametrize(("kwargs", "error", "match"), BAD, ids=lambda x: repr(x)[:50])
def test_bad_three_player_input_is_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        score(**kwargs)


def test_three_player_tile_set_and_no_chi():
    with pytest.raises(ValueError, match="closed: has 2m, which is not in the three-player set"):
        score("234m789p123s99s555z", "4m", players=3)
    with pytest.raises(ValueError, match=r"melds\[0\]\.type: is chi, which three players"):
        score("789p123s99s555z", "9s", melds=[("chi", "345p")], rules="tenhou-3p")
    with pytest.raises(ValueError, match=r"melds\[0\]\.tiles: has 5m"):
        score("789p123s99s555z", "9s", melds=[("pon", "555m")], players=3)
    ok = score("789p123s99s555z", "9s", melds=[("pon", "111m")], players=3)
    assert ok.valid and ok.payments == {"ron": 3900}  # dealer: haku, open chanta; 2 han 40 fu


# -- the same as the game ----------------------------------------------------------------------


@BOTH
def test_score_hand_agrees_with_the_game_on_a_kita_win(rules):
    """The scenario of test_sanma_presets.py::test_ura_dora_on_a_kita (dealer riichi, kita, rinshan
    tsumo on 3p, West ura indicator): the game and ``score_hand`` give the same score."""
    from scenario_helpers import act, last_wins, pass_claims, tsumogiri

    from engine import actions as A  # noqa: N812
    from engine.actions import KITA
    from engine.scenario import start_hand

    g = start_hand(hands=["45p789p123s99s555z", "19m147p258s12367z", "19m369p147s12367z", ""],
                   draws="9m 1s 9s 1p 1s 9s 4z", rinshan="3p", dora="1z", ura="3z",
                   rules=rules)  # fmt: skip
    tsumogiri(g, 0)
    for s in (1, 2, None):
        pass_claims(g)
        if s is not None:
            tsumogiri(g, s)
    act(g, 0, A.RIICHI)
    tsumogiri(g, 0)
    for s in (1, 2, None):
        pass_claims(g)
        if s is not None:
            tsumogiri(g, s)
    act(g, 0, KITA)
    act(g, 0, A.TSUMO)
    (win,) = last_wins(g)
    r = score(win_type="tsumo", riichi=True, rinshan=True, kita=1, dora_indicators=["1z"],
              ura_dora_indicators=["3z"], rules=rules)  # fmt: skip
    assert (r.han, r.fu) == (win["han"], win["fu"]) and _yaku(r) == win["yaku"], (r, win)
    assert r.winner_gain == g.state.last_delta[0, 0], (r, g.state.last_delta[0])


# -- the hand-score format and ``riichi-env score`` ----------------------------------------------

OBJ = {
    "closed": HAKU,
    "win_tile": "3p",
    "win_type": "tsumo",
    "seat_wind": "S",
    "round_wind": "E",
}


def test_hand_score_format_with_three_players():
    """docs/hand-score.md: ``ruleset`` names a three-player preset, or ``players: 3`` the
    three-player version of a four-player one; ``kita`` counts the winner's Norths set aside."""
    from riichi_env.cli.hand_score import score_input

    want = {"tsumo_dealer": 3900, "tsumo_nondealer": 2000}  # haku, tsumo, 2 kita: 4 han 30 fu
    for extra in ({"ruleset": "tenhou-3p"}, {"players": 3}, {"ruleset": "mahjongsoul-3p"}):
        got = score_input({**OBJ, **extra, "kita": 2})
        assert got["valid"] and got["payments"] == want and got["winner_gain"] == 5900, got
    assert score_input(OBJ)["winner_gain"] == 2000, "four players: three payers"
    for extra, message in (
        ({"players": None}, "players: must be a whole number, got null"),
        ({"players": "3"}, "players: must be 3 or 4"),
        ({"kita": "1", "players": 3}, "kita: must be a whole number"),
        ({"kita": 1}, "kita: is 1, but ruleset mahjongsoul has no kita"),
        ({"seat_wind": "N", "ruleset": "tenhou-3p"}, "seat_wind: is N"),
        ({"ruleset": "sanma"}, "ruleset: must be one of mahjongsoul, tenhou, tenhou-2009, "),
    ):
        got = score_input({**OBJ, **extra})
        assert got["error"] == "invalid_input" and got["message"].startswith(message), got


def test_score_cli_players_and_kita(capsys):
    """``riichi-env score --players 3 --kita N`` (and ``--rules tenhou-3p``)."""
    from riichi_env.cli.main import main

    rc = main(["score", "45p789p123s99s555z", "--win", "3p", "--tsumo", "--seat", "S",
               "--players", "3", "--kita", "2"])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0 and "dora                     2 han" in out, out
    assert "tsumo: dealer pays 3,900, the other non-dealer 2,000" in out
    assert "winner gains 5,900" in out
    rc = main(["score", "45p789p123s99s555z", "--win", "3p", "--tsumo", "--seat", "E",
               "--rules", "tenhou-3p", "--json"])  # fmt: skip
    got = json.loads(capsys.readouterr().out)
    assert rc == 0 and got["payments"] == {"tsumo_all": 1000} and got["winner_gain"] == 2000
    rc = main(["score", "45p789p123s99s555z", "--win", "3p", "--seat", "N", "--players", "3"])
    assert rc == 2 and "seat_wind: is N" in capsys.readouterr().out


# -- differential: the ``mahjong`` package's han and fu, three-player payments -------------------

SANMA_CASES = 2_000
"""Three-player hands per preset compared with the ``mahjong`` package."""


def _swap_suits(case, a: int, b: int):
    """The same case with suits ``a`` and ``b`` exchanged (hand, melds, winning tile,
    indicators): every yaku but ryuuiisou is blind to which suit is which."""
    import dataclasses

    from test_scoring_differential import _kind, _mpsz, _tile_str

    def swap(k: int) -> int:
        return (
            k + 9 * (b - a)
            if k // 9 == a and k < 27
            else k - 9 * (b - a)
            if k // 9 == b and k < 27
            else k
        )

    def swap_text(t: str) -> str:
        return _tile_str(swap(_kind(t)), t[0] == "0")

    kinds = [swap(k) for k in case.closed_kinds]
    melds = [(m, [swap(k) for k in ks], red) for m, ks, red in case.melds]
    inp = dict(case.inp)
    inp["closed"] = _mpsz(kinds, case.closed_red)
    inp["win_tile"] = _tile_str(swap(case.win_kind), case.win_red)
    inp["melds"] = [{"type": m, "tiles": _mpsz(ks, red)} for m, ks, red in melds]
    for key in ("dora_indicators", "ura_dora_indicators"):
        inp[key] = [swap_text(t) for t in inp[key]]
    return dataclasses.replace(
        case, inp=inp, closed_kinds=kinds, melds=melds, win_kind=swap(case.win_kind)
    )


def _sanma_cases(preset: str, n: int, seed: int) -> list[tuple]:
    """``n`` random winning hands of ``test_scoring_differential`` that three players can hold
    (no 2m-8m, no chi, no North seat or round; a hand with 2m-8m but no pinzu or no souzu has
    its manzu exchanged with that suit first), each with a random kita count the Norths allow:
    (three-player case, the same with 1m indicators written as 8m for the package, our input)."""
    import copy

    from test_scoring_differential import _kind, generate_cases

    def kinds_of(case) -> list[int]:
        inp = case.inp
        kinds = list(case.closed_kinds) + [k for _, ks, _ in case.melds for k in ks]
        return kinds + [_kind(t) for t in inp["dora_indicators"] + inp["ura_dora_indicators"]]

    rng = random.Random(seed)
    out = []
    batch = 0
    while len(out) < n:
        batch += 1
        for case in generate_cases(seed * 1000 + batch, 1000, preset):
            kinds = kinds_of(case)
            for suit in (1, 2):
                if any(1 <= k <= 7 for k in kinds) and not any(k // 9 == suit for k in kinds):
                    case = _swap_suits(case, 0, suit)
                    kinds = kinds_of(case)
                    break
            inp = case.inp
            if any(1 <= k <= 7 for k in kinds) or "N" in (inp["seat_wind"], inp["round_wind"]):
                continue
            if any(m == "chi" for m, _, _ in case.melds):
                continue
            kita = min(rng.choice([0, 0, 1, 1, 2, 3, 4]), 4 - kinds.count(30))
            theirs = copy.deepcopy(case)
            for key in ("dora_indicators", "ura_dora_indicators"):
                theirs.inp[key] = ["8m" if t == "1m" else t for t in inp[key]]
            out.append((case, theirs, {**inp, "ruleset": f"{preset}-3p", "kita": kita}))
            if len(out) == n:
                break
    return out


def _expected_3p(case, theirs: dict, kita: int) -> dict:
    """The package's result with the kita han added and three-player payments (tsumo loss,
    honba 100 per payer)."""
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.hand_calculating.scores import ScoresCalculator
    from test_scoring_differential import WINDS, _limit_from_cost, mahjong_options

    inp = case.inp
    mult = theirs["yakuman_multiplier"]
    han, fu = theirs["han"], theirs["fu"]
    yaku = [dict(y) for y in theirs["yaku"]]
    if kita and not mult:
        riichi = inp["riichi"] or inp["double_riichi"]
        west = inp["dora_indicators"].count("3z")
        west += inp["ura_dora_indicators"].count("3z") if riichi else 0
        han += kita * (1 + west)
        yaku.append({"key": "dora", "han": kita * (1 + west)})
    tsumo = inp["win_type"] == "tsumo"
    config = HandConfig(
        is_tsumo=tsumo,
        player_wind=27 + WINDS.index(inp["seat_wind"]),
        round_wind=27 + WINDS.index(inp["round_wind"]),
        options=mahjong_options(inp["ruleset"]),
    )
    cost = ScoresCalculator().calculate_scores(han, fu, config, is_yakuman=mult > 0)
    honba = inp["honba"]
    if not tsumo:
        payments = {"ron": cost["main"] + 200 * honba}
        total = payments["ron"]
    elif inp["seat_wind"] == "E":
        payments = {"tsumo_all": cost["main"] + 100 * honba}
        total = 2 * payments["tsumo_all"]
    else:
        payments = {
            "tsumo_dealer": cost["main"] + 100 * honba,
            "tsumo_nondealer": cost["additional"] + 100 * honba,
        }
        total = sum(payments.values())
    return {
        **theirs,
        "han": han,
        "yaku": yaku,
        "limit": _limit_from_cost(cost, mult, han, fu),
        "payments": payments,
        "winner_gain": total + 1000 * inp["kyotaku"],
        "_readings": [],
    }


@pytest.mark.parametrize("preset", ["mahjongsoul", "tenhou"])
def test_three_player_scores_match_mahjong_package(preset):
    """``score_hand`` with three players against the ``mahjong`` package (which has no tsumo
    loss or kita): the package scores the same hand (indicator 1m given as 8m, so that 9m is the
    dora); its han plus the kita han (one per kita, one more per West indicator, and per West ura
    indicator with riichi; none for a yakuman) priced by the package, paid by the rules of
    three players. Hands where the package keeps a reading that is not the best-paying one are
    left out (``test_scoring_differential.package_reading_not_best_paying``), at most 1%."""
    pytest.importorskip("mahjong")
    from test_scoring_differential import compare, mahjong_score, package_reading_not_best_paying

    from riichi_env.cli.hand_score import score_input

    cases = _sanma_cases(preset, SANMA_CASES, seed=26 + (preset == "tenhou"))
    assert sum(o["kita"] > 0 for _, _, o in cases) > len(cases) // 3
    failures, skipped = [], 0
    for case, their_case, inp in cases:
        theirs = mahjong_score(their_case)
        ours = score_input(inp)
        if theirs["valid"] and package_reading_not_best_paying(theirs):
            skipped += 1
            continue
        if theirs["valid"]:
            theirs = _expected_3p(case, theirs, inp["kita"])
        diffs = compare(case, ours, theirs)
        if diffs:
            failures.append(f"{case.describe()} kita {inp['kita']}\n    " + "\n    ".join(diffs))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    assert skipped <= len(cases) // 100, skipped
