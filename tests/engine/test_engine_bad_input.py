"""Bad input to the engine's public functions: a clear error naming the argument, no coercion.

Issue 8, "Bad input, found by trying the project as a new user would": seeds have one range
everywhere, every ``Rules`` field is type- and range-checked, ``rules=`` takes a preset name in
``Game`` and ``selfplay`` too, tile text refuses non-ASCII digits, hand scoring has one validation
path and one kyotaku default, and the ``Game`` facade refuses seats and tables out of range.
"""

from __future__ import annotations

import numpy as np
import pytest

import engine
from engine.actions import N_ACTIONS
from engine.arguments import SEED_MAX, InputError, check_seed
from engine.game import Game, explain_illegal, legal_mask, reset, step
from engine.harness.selfplay import play_one, selfplay
from engine.rules import MAHJONGSOUL, TENHOU, Rules, as_rules
from engine.scoring.hand_score import check_hand_input, score_hand
from engine.state import new_state
from engine.tiles import (
    dora_from_indicator,
    parse_tile,
    parse_tile136,
    tile34_to_str,
    tile136_to_str,
    tiles136_to_str,
)

# -- seeds: 0 <= seed <= 2**63 - 1, int or NumPy integer, everywhere -------------------------------

GOOD_SEEDS = [0, 2**62, 2**63 - 1, np.int64(5), np.uint64(2**63 - 1), np.uint8(3)]
BAD_SEED_VALUES = [-1, 2**63, 2**64, np.uint64(2**63), np.int64(-1)]
BAD_SEED_TYPES = [True, np.bool_(False), 1.5, 3.0, "3", None, [1]]


@pytest.mark.nojit
@pytest.mark.parametrize("seed", GOOD_SEEDS, ids=repr)
def test_check_seed_accepts_the_documented_range(seed):
    assert check_seed(seed) == int(seed) and type(check_seed(seed)) is int
    assert SEED_MAX == 2**63 - 1


@pytest.mark.nojit
@pytest.mark.parametrize("seed", BAD_SEED_VALUES, ids=repr)
def test_check_seed_refuses_values_outside_the_range(seed):
    with pytest.raises(ValueError, match=r"seed must be an int with 0 <= seed <= 2\*\*63 - 1"):
        check_seed(seed)


@pytest.mark.nojit
@pytest.mark.parametrize("seed", BAD_SEED_TYPES, ids=repr)
def test_check_seed_refuses_other_types(seed):
    with pytest.raises(TypeError, match=r"seed must be an int .* got .*\("):
        check_seed(seed)


def test_game_takes_the_whole_seed_range():
    """``Game`` refused 2**62 (and everything above) while the env accepted it."""
    for seed in (2**62, 2**63 - 1, np.uint64(2**63 - 1)):
        g = Game(seed=seed)
        assert int(g.state.seed[0]) == int(seed) and g.phase == "turn"
    for seed in (2**63, 2**64, -1):
        with pytest.raises(ValueError, match="seed must be an int with 0 <= seed <= 2"):
            Game(seed=seed)
    with pytest.raises(TypeError, match="seed"):
        Game(seed=True)
    st = new_state(1)
    with pytest.raises(ValueError, match="2\\*\\*63 - 1"):
        reset(st, 2**63)
    reset(st, 2**63 - 1)
    assert int(st.seed[0]) == 2**63 - 1


@pytest.mark.nojit
def test_selfplay_seed_range_and_types():
    with pytest.raises(ValueError, match="seed must be an int with 0 <= seed"):
        selfplay(1, seed=-1)
    with pytest.raises(ValueError, match="last game's seed would pass 2\\*\\*63 - 1"):
        selfplay(2, seed=2**63 - 1)
    with pytest.raises(TypeError, match="seed"):
        selfplay(1, seed=1.0)
    with pytest.raises(TypeError, match="games must be an int"):
        selfplay(True)
    with pytest.raises(TypeError, match="check must be an int"):
        selfplay(0, check=True)
    with pytest.raises(ValueError, match="threads must be 1-1024"):
        selfplay(0, threads=0)
    with pytest.raises(ValueError, match="max_events"):
        selfplay(0, max_events=0)
    with pytest.raises(ValueError, match="seed must be an int with"):
        play_one(-1)


def test_selfplay_plays_the_last_seed_and_takes_a_preset_name():
    out = selfplay(1, seed=2**63 - 1, rules="tenhou")
    assert out["results"][0]["seed"] == 2**63 - 1 and not out["errors"]


# -- rules: every field's type and range; preset names wherever rules are taken --------------------

BAD_RULES = [
    ({"start_points": "25000"}, TypeError, r"start_points must be an int, got '25000' \(str\)"),
    ({"start_points": True}, TypeError, "start_points must be an int"),
    ({"start_points": 25000.0}, TypeError, "start_points must be an int"),
    ({"start_points": 0}, ValueError, "start_points must be 1"),
    ({"return_points": 20000}, ValueError, "return_points must be >= start_points"),
    ({"return_points": "30000"}, TypeError, "return_points must be an int"),
    ({"red_fives": 1}, TypeError, r"red_fives must be a tuple of 3 ints .* got 1 \(int\)"),
    ({"red_fives": "111"}, TypeError, "red_fives must be a tuple"),
    ({"red_fives": (True, 1, 1)}, TypeError, "red_fives .* True .* at position 0"),
    ({"red_fives": (1, 1)}, ValueError, "red_fives must be a tuple of 3"),
    ({"red_fives": (1, 1.0, 1)}, TypeError, "red_fives"),
    ({"red_fives": (1, 5, 1)}, ValueError, "red_fives"),
    ({"uma": 5}, TypeError, "uma must be a tuple of 4 ints"),
    ({"uma": ("15", "5", "-5", "-15")}, TypeError, "uma"),
    ({"uma": (10, 10, 0, 0)}, ValueError, "uma must be four ints summing to 0"),
    ({"extension_hands": "4"}, TypeError, "extension_hands must be an int"),
    ({"extension_hands": 5}, ValueError, "extension_hands must be 0-4"),
    ({"game_length": ["hanchan"]}, ValueError, "game_length must be one of"),
    ({"game_length": "west"}, ValueError, "game_length"),
    ({"honba_on_pass": 1}, ValueError, "honba_on_pass must be one of"),
    ({"pao_honba": None}, ValueError, "pao_honba must be one of"),
    ({"open_tanyao": 1}, TypeError, r"open_tanyao must be True or False, got 1 \(int\)"),
    ({"busting": "yes"}, TypeError, "busting must be True or False"),
    ({"abortive_draws": None}, TypeError, "abortive_draws"),
    ({"name": 5}, TypeError, "name must be a str"),
]


@pytest.mark.nojit
@pytest.mark.parametrize(("changes", "error", "match"), BAD_RULES, ids=lambda x: repr(x)[:40])
def test_every_rules_field_is_checked(changes, error, match):
    with pytest.raises(error, match=match):
        Rules(**changes)
    with pytest.raises(error, match=match):
        MAHJONGSOUL.replace(**changes)


@pytest.mark.nojit
def test_rules_normalise_lossless_forms_only():
    r = Rules(red_fives=[np.int64(1), 2, 1], uma=[20, 10, -10, -20], start_points=np.int32(25000))
    assert r.red_fives == (1, 2, 1) and type(r.red_fives[0]) is int
    assert r.uma == (20, 10, -10, -20) and type(r.start_points) is int
    assert Rules(open_riichi=np.bool_(True)).open_riichi is True
    assert hash(r) == hash(Rules(red_fives=(1, 2, 1), uma=(20, 10, -10, -20)))


@pytest.mark.nojit
def test_preset_names_are_accepted_wherever_rules_are():
    assert as_rules("tenhou") is TENHOU and as_rules(MAHJONGSOUL) is MAHJONGSOUL
    with pytest.raises(ValueError, match="unknown rules preset 'ema'"):
        as_rules("ema")
    with pytest.raises(TypeError, match=r"rules must be a preset name .* got 3 \(int\)"):
        as_rules(3)
    with pytest.raises(TypeError, match="rules preset must be a str"):
        Rules.preset(None)
    assert score_hand("234m456p678s22s345m", "5m", rules="tenhou").valid


def test_game_takes_a_preset_name():
    """``Game(rules="tenhou")`` was refused although env and score_hand take preset names."""
    g = Game(rules="tenhou", seed=1)
    assert g.rules is TENHOU
    assert np.array_equal(g.state.rules[0], TENHOU.to_array())
    assert g.render() == Game(rules=TENHOU, seed=1).render()
    with pytest.raises(TypeError, match="rules must be a preset name"):
        Game(rules=None)
    with pytest.raises(ValueError, match="unknown rules preset"):
        Game(rules="Tenhou")


# -- tile text: ASCII digits only ----------------------------------------------------------------

UNICODE_DIGITS = [
    ("１２３m", "１", "U+FF11 FULLWIDTH DIGIT ONE"),
    ("\u0661\u0662\u0663m", "\u0661", "U+0661 ARABIC-INDIC DIGIT ONE"),
    ("\u0967\u0968\u0969p", "\u0967", "U+0967 DEVANAGARI DIGIT ONE"),
    ("12\u00b3s", "\u00b3", "U+00B3 SUPERSCRIPT THREE"),
    ("一二三m", "一", "U+4E00"),
    ("5\U0001d7d3z", "\U0001d7d3", "U+1D7D3 MATHEMATICAL BOLD DIGIT FIVE"),
]


@pytest.mark.nojit
@pytest.mark.parametrize(("text", "char", "name"), UNICODE_DIGITS, ids=lambda x: ascii(x))
def test_unicode_digits_are_refused_naming_the_character(text, char, name):
    for parse in (engine.parse_hand34, engine.parse_tile34, engine.parse_tile136):
        with pytest.raises(ValueError, match="not an ASCII digit 0-9") as info:
            parse(text)
        assert repr(char) in str(info.value) and name in str(info.value)
    with pytest.raises(ValueError, match="not an ASCII digit"):
        parse_tile(char + text[-1])
    with pytest.raises(InputError, match="closed: .*not an ASCII digit") as info:
        score_hand(text + "456p789s11122z", "4p")
    assert info.value.field == "closed"


@pytest.mark.nojit
def test_tile_ids_must_be_ints():
    for fn in (tile34_to_str, dora_from_indicator):
        with pytest.raises(TypeError, match=r"tile34 must be an int, got 1.5 \(float\)"):
            fn(1.5)
        with pytest.raises(TypeError, match="tile34 must be an int, got True"):
            fn(True)
        with pytest.raises(ValueError, match="tile34 must be 0-33, got -1"):
            fn(-1)
    with pytest.raises(TypeError, match="tile136 must be an int"):
        tile136_to_str(16.0)
    with pytest.raises(TypeError, match="tile136 must be an int"):
        tiles136_to_str([0, 1.0])
    assert tile34_to_str(np.int64(4)) == "5m" and tile136_to_str(np.int32(16)) == "0m"


# -- hand scoring: one validation path, one kyotaku default ---------------------------------------

RIICHI_HAND = dict(closed="234567m234567p55s", win_tile="7m", seat_wind="S", riichi=True)
"""Riichi pinfu tanyao, ron: 3 han 30 fu, 3,900."""


@pytest.mark.nojit
def test_a_fifth_copy_made_by_indicators_is_refused():
    """``score_hand`` accepted a fifth 2z made by the dora indicators; the CLI refused it."""
    hand = dict(closed="123m456p789s11222z", win_tile="2z", win_type="tsumo")
    with pytest.raises(InputError, match="dora_indicators: makes a fifth copy of 2z") as info:
        score_hand(**hand, dora_indicators=["2z", "2z"])
    assert info.value.field == "dora_indicators"
    with pytest.raises(InputError, match="ura_dora_indicators: makes a fifth copy of 2z"):
        score_hand(**hand, riichi=True, dora_indicators=["2z"], ura_dora_indicators=["2z"])
    with pytest.raises(InputError, match="dora_indicators: makes a fifth copy of 1z"):
        score_hand(**hand, dora_indicators="1z1z1z")
    with pytest.raises(InputError, match="dora_indicators: has red 0m number 2"):
        score_hand("234m406p789s11222z", "2z", dora_indicators=["0m", "0m"])
    assert score_hand(**hand, dora_indicators=["2z"]).valid  # the fourth copy is fine


@pytest.mark.nojit
def test_kyotaku_default_is_one_with_riichi():
    """Not given: 1 with riichi (the winner's own stick), else 0; an explicit 0 with riichi is
    refused. The Python API defaulted to 0, the CLI to 1 and ``--jsonl`` refused."""
    assert check_hand_input(**RIICHI_HAND)["kyotaku"] == 1
    assert check_hand_input(**{**RIICHI_HAND, "riichi": False})["kyotaku"] == 0
    assert check_hand_input(**{**RIICHI_HAND, "kyotaku": 3})["kyotaku"] == 3
    for flag in ("double_riichi", "open_riichi"):
        rules = MAHJONGSOUL.replace(open_riichi=True)
        kwargs = {**RIICHI_HAND, "riichi": False, flag: True, "rules": rules}
        assert check_hand_input(**kwargs)["kyotaku"] == 1
    with pytest.raises(InputError, match="kyotaku: must be >= 1 with riichi") as info:
        check_hand_input(**RIICHI_HAND, kyotaku=0)
    assert info.value.field == "kyotaku"


def test_kyotaku_default_reaches_the_winner_gain():
    r = score_hand(**RIICHI_HAND)
    assert r.payments == {"ron": 3900} and r.winner_gain == 4900
    assert score_hand(**RIICHI_HAND, kyotaku=2).winner_gain == 5900
    assert score_hand(**{**RIICHI_HAND, "riichi": False}, win_type="tsumo").valid


@pytest.mark.nojit
def test_check_hand_input_normalises_and_types_are_checked():
    kwargs = check_hand_input(
        "234m456p22s345m", "5m", melds=[{"type": "chi", "tiles": "867s", "from": 3}]
    )
    assert kwargs["melds"] == (("chi", "867s"),) and kwargs["rules"] is MAHJONGSOUL
    assert kwargs["seat_wind"] == "E" and kwargs["dora_indicators"] == ()
    cases = [
        (dict(riichi=1), TypeError, "riichi: must be True or False, got 1"),
        (dict(honba=1.0), TypeError, "honba: must be a whole number"),
        (dict(honba=True), TypeError, "honba"),
        (dict(kyotaku="1"), TypeError, "kyotaku: must be a whole number"),
        (dict(rules=3), TypeError, r"rules: must be a preset name .* got 3 \(int\)"),
        (dict(rules="ema"), ValueError, "rules: unknown rules preset"),
        (dict(win_type=["ron"]), ValueError, "win_type: must be 'ron' or 'tsumo'"),
        (dict(seat_wind=True), ValueError, "seat_wind"),
        (dict(melds="123m"), TypeError, "melds: must be a list of melds"),
        (dict(dora_indicators=5), TypeError, "dora_indicators: must be a list of tiles"),
    ]
    for changes, error, match in cases:
        with pytest.raises(error, match=match):
            score_hand("123m456p789s11122z", "1m", **changes)


# -- the Game facade: seats 0-3, table indices in range, actions ints -----------------------------


def test_game_refuses_seats_outside_0_to_3():
    """``Game.hand(-1)`` returned seat 3's hand."""
    g = Game(seed=0)
    assert g.hand(0) and g.hand(np.int64(3)) == g.hand(3)
    for seat in (-1, 4, 2**40):
        with pytest.raises(ValueError, match=f"seat must be 0-3, got {seat}"):
            g.hand(seat)
    for seat in (True, 1.0, "0", None):
        with pytest.raises(TypeError, match="seat must be an int"):
            g.hand(seat)


def test_public_functions_refuse_bad_tables_and_actions():
    g = Game(seed=0)
    st = g.state
    legal = g.legal_actions()[0]
    for fn in (legal_mask, lambda s, t: reset(s, 0, t), lambda s, t: step(s, legal, t)):
        with pytest.raises(ValueError, match="table index t must be 0-0, got 1"):
            fn(st, 1)
        with pytest.raises(ValueError, match="table index t must be 0-0, got -1"):
            fn(st, -1)
        with pytest.raises(TypeError, match="table index t must be an int, got True"):
            fn(st, True)
    with pytest.raises(ValueError, match="table index t"):
        explain_illegal(st, legal, 1)
    for action in (-1, N_ACTIONS):
        with pytest.raises(ValueError, match=f"action must be 0-{N_ACTIONS - 1}, got {action}"):
            g.explain(action)
    for action in (1.5, True, "3", None):
        with pytest.raises(TypeError, match="action must be an int"):
            g.explain(action)
        with pytest.raises(TypeError, match="action must be an int"):
            g.step(action)
    g.step(np.int16(legal))


@pytest.mark.nojit
def test_game_checks_max_events():
    for bad, error in ((True, TypeError), (1.5, TypeError), (0, ValueError), (-1, ValueError)):
        with pytest.raises(error, match="max_events"):
            Game(seed=None, max_events=bad)
    assert engine.Game(seed=None, max_events=np.int64(64)).state.events.shape[1] == 64


# -- found while trying the project as a new user -------------------------------------------------


@pytest.mark.nojit
def test_payment_flags_are_bools():
    """``payment(..., dealer="yes", tsumo=None)`` was read as a dealer ron."""
    with pytest.raises(TypeError, match="dealer must be True or False, got 'yes'"):
        engine.payment(3, 30, dealer="yes", tsumo=False)
    with pytest.raises(TypeError, match="tsumo must be True or False, got None"):
        engine.payment(3, 30, dealer=True, tsumo=None)
    with pytest.raises(TypeError, match="han must be an int"):
        engine.payment("3", 30, dealer=True, tsumo=False)
    assert engine.payment(3, 30, dealer=True, tsumo=False)["payments"] == {"ron": 5800}


@pytest.mark.nojit
def test_tile_helpers_check_their_arguments():
    with pytest.raises(TypeError, match="red_fives must be three ints"):
        parse_tile136("5m", red_fives=5)
    with pytest.raises(ValueError, match="red_fives must be three ints"):
        parse_tile136("5m", red_fives=(1,))
    with pytest.raises(TypeError, match=r"red_fives\[0\]"):
        parse_tile136("5m", red_fives=(1.5, 1, 1))
    with pytest.raises(TypeError, match="hand34 must hold integer counts"):
        engine.hand34_to_str([0.5] * 34)  # was "" (0.5 read as 0)
    with pytest.raises(TypeError, match="tiles must be an iterable of tile136 ids"):
        tiles136_to_str(5)
    assert parse_tile136("0m", red_fives=np.array([1, 1, 1])).tolist() == [16]


def test_scenario_takes_a_preset_name_like_every_rules_argument():
    from engine.harness.scenario import start_hand

    hands = ["123m456p789s1122z", "147m258p369s1234z", "258m369p147s1567z", "369m147p258s2347z"]
    g = start_hand(hands=hands, rules="tenhou")
    assert g.rules.name == "tenhou"
    with pytest.raises(ValueError, match="tenhuo"):
        start_hand(hands=hands, rules="tenhuo")


@pytest.mark.parametrize("n", [True, 1.0, "2"])
def test_new_state_refuses_a_non_int_table_count(n):
    from engine.state import new_state

    with pytest.raises(TypeError, match="number of tables must be an int"):
        new_state(n)
