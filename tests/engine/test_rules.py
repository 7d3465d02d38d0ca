import pytest

from engine.rules import (
    MAHJONGSOUL,
    N_RULES,
    RULE_DOUBLE_YAKUMAN,
    RULE_EXTENSION_RENCHAN,
    RULE_KAN_DORA_ON_DECLARE,
    RULE_KARATEN_MELDS,
    RULE_N_WINDS,
    RULE_PAO_HONBA_LIABLE,
    RULE_RED_P,
    RULE_RINSHAN_KAN_DORA,
    RULE_SANCHAHOU,
    RULE_TENPAI_YAME,
    RULE_UMA_1,
    TENHOU,
    TENHOU_2009,
    Rules,
)

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)


def test_default_is_mahjong_soul():
    assert Rules() == MAHJONGSOUL
    assert MAHJONGSOUL.red_fives == (1, 1, 1)
    assert MAHJONGSOUL.open_tanyao and MAHJONGSOUL.double_yakuman and not MAHJONGSOUL.kiriage_mangan
    assert MAHJONGSOUL.uma == (15, 5, -5, -15) and MAHJONGSOUL.oka == 20


def test_tenhou_preset_differs_where_rules_md_says():
    assert not TENHOU.double_yakuman and TENHOU.sanchahou
    assert Rules.preset("tenhou") is TENHOU


def test_tenhou_preset_follows_its_records():
    """Tenpai-yame since June 2010 (tenhou-2009 for older records such as bug1.xml), pao.xml
    (liable pays pao honba), double_kakan_then_chankan.json."""
    assert TENHOU.agari_yame and TENHOU.tenpai_yame
    assert Rules.preset("tenhou-2009") is TENHOU_2009 and not TENHOU_2009.tenpai_yame
    assert TENHOU.pao_honba == "liable" and not TENHOU.kan_dora_on_declare
    assert MAHJONGSOUL.tenpai_yame and MAHJONGSOUL.pao_honba == "normal"
    assert MAHJONGSOUL.kan_dora_on_declare
    assert MAHJONGSOUL.rinshan_kan_dora and not TENHOU.rinshan_kan_dora
    a = TENHOU.to_array()
    assert (a[RULE_TENPAI_YAME], a[RULE_PAO_HONBA_LIABLE], a[RULE_KAN_DORA_ON_DECLARE]) == (1, 1, 0)
    assert TENHOU_2009.to_array()[RULE_TENPAI_YAME] == 0
    assert a[RULE_RINSHAN_KAN_DORA] == 0 and MAHJONGSOUL.to_array()[RULE_RINSHAN_KAN_DORA] == 1


def test_extension_renchan_is_tenhou_only():
    """Tenhou's manual: in the extension a dealer renchan takes priority; Mahjong Soul (docs/rules.md)
    ends the extension as soon as someone has 30,000."""
    assert TENHOU.extension_renchan and not MAHJONGSOUL.extension_renchan
    assert not Rules().extension_renchan
    assert TENHOU.to_array()[RULE_EXTENSION_RENCHAN] == 1
    assert MAHJONGSOUL.to_array()[RULE_EXTENSION_RENCHAN] == 0
    with pytest.raises(TypeError, match="extension_renchan"):
        MAHJONGSOUL.replace(extension_renchan=1)


def test_karaten_counts_concealed_copies_only_in_both_presets():
    """docs/rules.md, Draws: copies in the seat's own melds do not make a wait dead (Tenhou,
    Mahjong Soul); ``karaten_melds`` is the option for rule sets that count them."""
    assert not MAHJONGSOUL.karaten_melds and not TENHOU.karaten_melds
    assert MAHJONGSOUL.to_array()[RULE_KARATEN_MELDS] == 0
    assert MAHJONGSOUL.replace(karaten_melds=True).to_array()[RULE_KARATEN_MELDS] == 1
    with pytest.raises(TypeError, match="karaten_melds"):
        MAHJONGSOUL.replace(karaten_melds="yes")


def test_to_array_is_what_kernels_read():
    a = MAHJONGSOUL.to_array()
    assert a.shape == (N_RULES,) and a.dtype.name == "int32"
    assert a[RULE_DOUBLE_YAKUMAN] == 1 and a[RULE_SANCHAHOU] == 0 and a[RULE_N_WINDS] == 2
    assert TENHOU.to_array()[RULE_UMA_1] == 20
    assert MAHJONGSOUL.replace(red_fives=(1, 2, 1)).to_array()[RULE_RED_P] == 2
    assert MAHJONGSOUL.replace(game_length="tonpuusen").to_array()[RULE_N_WINDS] == 1


def test_rules_are_immutable_and_hashable():
    with pytest.raises(AttributeError):
        MAHJONGSOUL.open_tanyao = False  # type: ignore[misc]
    assert len({MAHJONGSOUL, TENHOU, Rules()}) == 2


@pytest.mark.parametrize(
    ("changes", "error", "match"),
    [
        ({"red_fives": (1, 5, 1)}, ValueError, "red_fives"),
        ({"game_length": "west"}, ValueError, "game_length"),
        ({"uma": (10, 10, 0, 0)}, ValueError, "uma"),
        ({"honba_on_pass": "keep"}, ValueError, "honba_on_pass"),
        ({"pao_honba": "split"}, ValueError, "pao_honba"),
        ({"tenpai_yame": 0}, TypeError, "tenpai_yame"),
        ({"open_tanyao": 1}, TypeError, "open_tanyao"),
        ({"no_such_rule": True}, TypeError, "no_such_rule"),
    ],
)
def test_bad_options_are_refused(changes, error, match):
    with pytest.raises(error, match=match):
        MAHJONGSOUL.replace(**changes)


def test_unknown_preset():
    with pytest.raises(ValueError, match="unknown rules preset"):
        Rules.preset("sanma")
