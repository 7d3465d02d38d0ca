import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import tiles
from engine.tiles import (
    CHUN,
    EAST,
    HAKU,
    M1,
    M5,
    M9,
    NORTH,
    P5,
    S5,
    count_red,
    dora_from_indicator,
    hand34_to_str,
    parse_hand34,
    parse_tile,
    parse_tile136,
    tile34_to_str,
    tile136_to_str,
    tiles136_to_str,
)

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)


def test_constants_follow_the_tile_id_layout():
    assert (M1, M9, P5, S5, EAST, HAKU, CHUN) == (0, 8, 13, 22, 27, 31, 33)
    assert [tile34_to_str(t) for t in (M1, P5, S5, EAST, CHUN)] == ["1m", "5p", "5s", "1z", "7z"]


def test_parse_hand34_counts_every_tile():
    hand = parse_hand34("123m406p789s11z")
    assert hand.dtype == np.uint8 and hand.shape == (34,)
    assert hand.sum() == 11
    assert hand[P5] == 1 and hand[EAST] == 2


@pytest.mark.nojit
def test_red_fives_are_copy_zero_of_each_five():
    assert list(parse_tile136("0m0p0s")) == [16, 52, 88]
    assert list(parse_tile136("550m")) == [17, 18, 16]
    assert tiles.red_ids((1, 2, 1)) == (16, 52, 53, 88)
    assert list(parse_tile136("00p", red_fives=(1, 2, 1))) == [52, 53]
    assert tile136_to_str(16) == "0m" and tile136_to_str(17) == "5m"
    assert tiles136_to_str([16, 17, 52, 0, 135]) == "105m0p7z"


def test_count_red():
    assert count_red("406p0s55m") == 2


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("12x", "'x'"),
        ("123", "'123' has no suit"),
        ("m123", "suit 'm' at 0"),
        ("11111m", "five copies of 1m"),
        ("8z", "8z"),
        ("0z", "0z"),
        ("00m", "more red 5m"),
    ],
)
def test_malformed_strings_name_the_bad_part(text, fragment):
    with pytest.raises(ValueError, match="malformed tile string") as err:
        parse_tile136(text)
    assert fragment in str(err.value)


def test_malformed_hand34_and_types():
    with pytest.raises(ValueError, match="five copies of 9p"):
        parse_hand34("99999p")
    with pytest.raises(TypeError):
        parse_hand34(123)
    with pytest.raises(ValueError, match="exactly one tile"):
        parse_tile("12m")
    with pytest.raises(ValueError, match="0-33"):
        tile34_to_str(34)


def test_a_plain_five_never_silently_becomes_the_red_copy():
    with pytest.raises(ValueError, match="write it as 0"):
        parse_tile136("5555m")
    assert sorted(parse_tile136("0555m")) == [16, 17, 18, 19]


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("1m", "2m"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("5s", "6s"),
        ("4z", "1z"),
        ("1z", "2z"),
        ("5z", "6z"),
        ("7z", "5z"),
    ],
)
def test_dora_from_indicator_wraps_within_its_group(indicator, dora):
    assert tile34_to_str(dora_from_indicator(parse_tile(indicator))) == dora
    assert parse_tile(dora) == tiles._dora_from_indicator(parse_tile(indicator))


def test_hand34_from_tile136_kernel():
    out = np.zeros(34, dtype=np.uint8)
    tiles._hand34_from_tile136(parse_tile136("123m0p77z"), out)
    assert hand34_to_str(out) == "123m5p77z"


hands = st.lists(st.integers(0, 33), max_size=14).filter(
    lambda ts: all(ts.count(t) <= 4 for t in set(ts))
)


@given(hands)
def test_hand34_round_trips_through_mpsz(kinds):
    hand = np.bincount(np.array(kinds, dtype=np.int64), minlength=34).astype(np.uint8)
    text = hand34_to_str(hand)
    assert np.array_equal(parse_hand34(text), hand)
    assert sorted(tiles.parse_tile34(text)) == sorted(kinds)


@given(st.sets(st.integers(0, 135), max_size=14))
def test_tile136_round_trips_through_mpsz(ids):
    text = tiles136_to_str(ids)
    back = parse_tile136(text)
    assert sorted(t // 4 for t in back) == sorted(t // 4 for t in ids)
    assert sum(t in (16, 52, 88) for t in back) == sum(t in (16, 52, 88) for t in ids)
    assert len(set(back.tolist())) == len(ids)


def test_north_and_haku_are_distinct_groups():
    assert dora_from_indicator(NORTH) == EAST
    assert dora_from_indicator(M5) == M5 + 1
