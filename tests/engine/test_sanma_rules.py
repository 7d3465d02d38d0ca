"""Three-player rules (issue 26, docs/rules.md "Three-player riichi"): the ``Rules`` options and the
``mahjongsoul-3p`` / ``tenhou-3p`` presets, their validation, and the refusal of every entry point
that would play or score them with the four-player code (the engine does not play 3 seats yet)."""

from __future__ import annotations

import pytest

from engine.rules import (
    MAHJONGSOUL,
    MAHJONGSOUL_3P,
    N_RULES,
    PRESETS,
    PRESETS_3P,
    RULE_KITA,
    RULE_PLAYERS,
    RULE_RED_M,
    RULE_RED_P,
    RULE_RED_S,
    RULE_RETURN_POINTS,
    RULE_START_POINTS,
    RULE_TARGET_POINTS,
    RULE_TSUMO_LOSS,
    RULE_UMA_1,
    RULE_UMA_4,
    TENHOU,
    TENHOU_3P,
    Rules,
    as_rules,
)
from engine.scoring.hand_score import score_hand
from engine.scoring.payment import base_points, limit_name, payment
from engine.state import new_state

pytestmark = pytest.mark.nojit


def test_mahjongsoul_3p_preset():
    """W-MS19, W-MS24, MP: red 5p and 5s, kita, tsumo loss, 35,000 start and return (no oka),
    40,000 to end the game, uma 15/0/-15, three extension hands."""
    r = Rules.preset("mahjongsoul-3p")
    assert r is MAHJONGSOUL_3P and r.name == "mahjongsoul-3p"
    assert (r.players, r.kita, r.tsumo_loss, r.red_fives) == (3, True, True, (0, 1, 1))
    assert (r.start_points, r.return_points, r.target_points, r.target) == (
        35_000,
        35_000,
        40_000,
        40_000,
    )
    assert r.uma == (15, 0, -15) and r.oka == 0 and r.extension_hands == 3
    # everything else as the four-player preset of the same name
    assert r.double_yakuman and not r.sanchahou and r.pao_honba == "normal"
    assert r.replace(players=4, kita=False, red_fives=(1, 1, 1), start_points=25_000,
                     return_points=30_000, target_points=None, uma=(15, 5, -5, -15),
                     extension_hands=4, name="mahjongsoul") == MAHJONGSOUL  # fmt: skip


def test_tenhou_3p_preset():
    """T-EN, T-JA: 35,000 start, 40,000 return and target, uma 20/0/-20, oka 3 × 5 = 15."""
    r = Rules.preset("tenhou-3p")
    assert r is TENHOU_3P
    assert (r.players, r.kita, r.tsumo_loss, r.red_fives) == (3, True, True, (0, 1, 1))
    assert (r.start_points, r.return_points, r.target_points, r.target) == (
        35_000,
        40_000,
        None,
        40_000,
    )
    assert r.uma == (20, 0, -20) and r.oka == 15 and r.extension_hands == 3
    assert not r.double_yakuman and r.extension_renchan and r.pao_honba == "liable"
    assert r.replace(players=4, kita=False, red_fives=(1, 1, 1), start_points=25_000,
                     return_points=30_000, uma=(20, 10, -10, -20), extension_hands=4,
                     name="tenhou") == TENHOU  # fmt: skip


def test_presets_and_as_rules_know_the_3p_names():
    """``Rules.preset`` knows them; the lists of presets tools offer stay the four-player ones
    until the envs, bots and records play three players (docs/sanma-status.md)."""
    assert set(PRESETS_3P) == {"mahjongsoul-3p", "tenhou-3p"} and not set(PRESETS_3P) & set(PRESETS)
    assert as_rules("tenhou-3p") is TENHOU_3P
    with pytest.raises(ValueError, match=r"choose from \['mahjongsoul', 'tenhou', 'tenhou-2009'\]"):
        Rules.preset("sanma")


def test_four_player_rules_unchanged_by_the_3p_options():
    r = Rules()
    assert (r.players, r.kita, r.tsumo_loss, r.target_points, r.target) == (
        4,
        False,
        True,
        None,
        30_000,
    )
    assert r.oka == 20 and TENHOU.oka == 20
    a = MAHJONGSOUL.to_array()
    assert a.shape == (N_RULES,)
    assert (a[RULE_PLAYERS], a[RULE_KITA], a[RULE_TSUMO_LOSS], a[RULE_TARGET_POINTS]) == (
        4,
        0,
        1,
        30_000,
    )
    assert list(a[RULE_UMA_1 : RULE_UMA_4 + 1]) == [15, 5, -5, -15]
    # target_points follows return_points unless set, also after replace()
    assert MAHJONGSOUL.replace(return_points=32_000).target == 32_000
    assert MAHJONGSOUL.replace(target_points=35_000).to_array()[RULE_TARGET_POINTS] == 35_000


def test_3p_to_array():
    a = MAHJONGSOUL_3P.to_array()
    assert (a[RULE_PLAYERS], a[RULE_KITA], a[RULE_TSUMO_LOSS]) == (3, 1, 1)
    assert (a[RULE_RED_M], a[RULE_RED_P], a[RULE_RED_S]) == (0, 1, 1)
    assert (a[RULE_START_POINTS], a[RULE_RETURN_POINTS], a[RULE_TARGET_POINTS]) == (
        35_000,
        35_000,
        40_000,
    )
    assert list(a[RULE_UMA_1 : RULE_UMA_4 + 1]) == [15, 0, -15, 0]
    assert TENHOU_3P.to_array()[RULE_TARGET_POINTS] == 40_000


BAD_3P = [
    ({"players": 2}, ValueError, "players must be 3-4, got 2"),
    ({"players": "3"}, TypeError, "players must be an int"),
    ({"players": True}, TypeError, "players must be an int"),
    ({"uma": (15, 5, -5, -15)}, ValueError, "uma must be a tuple of 3 ints with players=3"),
    ({"uma": (15, 0, -10)}, ValueError, "uma must be three ints summing to 0"),
    ({"uma": (15, -15)}, ValueError, "uma must be a tuple of 3 ints"),
    ({"extension_hands": 4}, ValueError, "extension_hands must be 0-3"),
    ({"red_fives": (1, 1, 1)}, ValueError, "no red 5m with 3 players"),
    ({"kita": 1}, TypeError, "kita must be True or False"),
    ({"tsumo_loss": "yes"}, TypeError, "tsumo_loss must be True or False"),
    ({"target_points": "40000"}, TypeError, "target_points must be an int"),
    ({"target_points": 0}, ValueError, "target_points must be 1"),
]


@pytest.mark.parametrize(("changes", "error", "match"), BAD_3P, ids=lambda x: repr(x)[:40])
def test_bad_3p_options_are_refused(changes, error, match):
    with pytest.raises(error, match=match):
        MAHJONGSOUL_3P.replace(**changes)


@pytest.mark.parametrize("option", ["kita", "tsumo_loss"])
def test_3p_options_need_three_players(option):
    value = option == "kita"  # the non-default value
    with pytest.raises(ValueError, match=f"{option} is a three-player option: it needs players=3"):
        MAHJONGSOUL.replace(**{option: value})
    with pytest.raises(ValueError, match="uma must be a tuple of 3 ints with players=3"):
        MAHJONGSOUL.replace(players=3, red_fives=(0, 1, 1))


def test_no_kita_and_north_bisection_are_options():
    """Both are valid rules (kita off; tsumo_loss off is Mahjong Soul's "north bisection")."""
    assert not MAHJONGSOUL_3P.replace(kita=False).kita
    assert not MAHJONGSOUL_3P.replace(tsumo_loss=False).to_array()[RULE_TSUMO_LOSS]


@pytest.mark.parametrize("rules", [MAHJONGSOUL_3P, TENHOU_3P, "tenhou-3p"])
def test_north_bisection_is_accepted(rules):
    """North bisection is played (issue 26; tests/engine/test_sanma_bisection.py): ``new_state``
    and ``score_hand`` accept ``tsumo_loss=False`` (they refused it before it was played)."""
    r = as_rules(rules)
    assert new_state(1, r).rules[0, RULE_PLAYERS] == 3
    assert new_state(1, r.replace(tsumo_loss=False)).rules[0, RULE_TSUMO_LOSS] == 0
    res = score_hand(
        "45p789p123s99s555z3p", "3p", win_type="tsumo", rules=r.replace(tsumo_loss=False)
    )
    assert res.valid
    # limits do not depend on the number of players
    assert limit_name(5, 30, rules=rules) == "mangan" and base_points(5, 30, rules=rules) == 2000


def test_payment_with_three_players():
    """Tsumo loss (W-Sanma): a tsumo is the four-player table without the absent payer; honba
    100 per payer (a ron 200 per honba)."""
    nondealer = payment(2, 30, dealer=False, tsumo=True, honba=1, rules=MAHJONGSOUL_3P)
    assert nondealer["payments"] == {"tsumo_dealer": 1100, "tsumo_nondealer": 600}
    assert nondealer["total"] == 1700
    dealer = payment(5, 30, dealer=True, tsumo=True, rules="tenhou-3p")
    assert dealer["total"] == 8000 and dealer["limit"] == "mangan"
    ron = payment(1, 40, dealer=False, tsumo=False, honba=2, rules=MAHJONGSOUL_3P)
    assert ron["payments"] == {"ron": 1700} and ron["total"] == 1700
    four = payment(2, 30, dealer=False, tsumo=True, honba=1, rules=MAHJONGSOUL)
    assert four["total"] == 2300


def test_the_envs_refuse_three_players_until_they_play_them():
    """The AEC env, the vector env and self-play play three players now (``four_only=None``,
    tests/riichi_env/aec/test_env.py); a caller that plays four only still refuses them."""
    from riichi_env.core.options import _make_rules

    with pytest.raises(ValueError, match="three players: this tool plays four players only yet"):
        _make_rules("mahjongsoul-3p", {})
    with pytest.raises(ValueError, match="three players"):
        _make_rules(TENHOU_3P, {"kita": False})
    assert _make_rules("mahjongsoul", {}) is MAHJONGSOUL
    assert _make_rules("mahjongsoul-3p", {}, None, None) is MAHJONGSOUL_3P


def test_the_four_player_tools_refuse_three_players():
    """The mjai bot plays three players now; the dataset too, with a three-seat encoder (with a
    four-player encoder: a clear ValueError, never a three-player table in four-player code)."""
    import numpy as np

    from riichi_env.batch.tables import Batch
    from riichi_env.mjai.bot import MjaiPlayer

    # the batch runner plays three players now, with the 86-action table (kita)
    assert Batch(1, MAHJONGSOUL_3P, None, 0, np.float32).masks.shape == (1, 86)
    # the mjai bot plays three players now (tests/riichi_env/mjai/test_mjai_bots.py)
    assert MjaiPlayer("random", "tenhou-3p").rules.players == 3
    from riichi_env.dataset.convert import Converter

    # the dataset converts three players now (issue 26) with a three-seat encoder; three-player
    # rules with a four-player encoder are still a clear ValueError naming the encoders to use
    with pytest.raises(ValueError, match="'mahjongsoul-3p' are for 3 players but the encoder"):
        Converter(rules="mahjongsoul-3p")
    assert Converter("basic3_v0", rules="mahjongsoul-3p").n_actions == 86
