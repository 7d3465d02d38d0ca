"""Agari readings: every 4-sets-and-a-pair reading, chiitoitsu and kokushi shapes."""

import itertools

import numpy as np
import pytest

from engine.scoring.agari import MAX_READINGS, decompose, is_agari

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)


def _sets(*codes):
    return tuple(sorted(codes))


def test_simple_hand_has_one_reading():
    readings = decompose("123m456p789s11122z")
    assert readings == [(28, _sets(("seq", 0), ("seq", 12), ("seq", 24), ("triplet", 27)))]


def test_triplets_or_sequences_give_two_readings():
    readings = decompose("111222333m44455p")
    assert len(readings) == 2
    assert (13, _sets(("seq", 0), ("seq", 0), ("seq", 0), ("triplet", 12))) in readings
    assert (13, _sets(*(("triplet", t) for t in (0, 1, 2, 12)))) in readings


def test_pair_can_move_between_readings():
    pairs = sorted(p for p, _ in decompose("11122233344455m"))
    assert pairs == [1, 4, 4, 4]


def test_ryanpeikou_shape_has_three_standard_readings():
    assert len(decompose("22334455667788p")) == 3


def test_melded_hands_have_fewer_sets():
    assert decompose("11z") == [(27, ())]
    assert decompose("111m11z") == [(27, (("triplet", 0),))]
    assert decompose("12m") == []


@pytest.mark.parametrize(
    "hand", ["123m456p789s11223z", "123m456p789s1122z5m", "13m", "19m19p19s12345677z"]
)
def test_incomplete_hands_have_no_standard_reading(hand):
    assert decompose(hand) == []


def test_is_agari_covers_all_three_shapes():
    assert is_agari("123m456p789s11122z")
    assert is_agari("1133m5577p99s1122z")
    assert is_agari("19m19p19s12345677z")
    assert not is_agari("1133m5577p99s1111z")
    assert not is_agari("19m19p19s12345678m")
    assert not is_agari("19m19p19s1234566z1m")


def test_decompose_rejects_wrong_sizes():
    with pytest.raises(ValueError, match="a complete part has 2, 5, 8, 11 or 14 tiles, got 3"):
        decompose("123m")
    with pytest.raises(ValueError, match="shape"):
        decompose(np.zeros(9, dtype=np.uint8))


def _one_suit_constructions():
    """Every way to build a 14-tile one-suit hand: pair + 4 sets (sets as codes)."""
    set_types = [("triplet", i) for i in range(9)] + [("seq", i) for i in range(7)]
    by_hand = {}
    for pair in range(9):
        for combo in itertools.combinations_with_replacement(set_types, 4):
            counts = [0] * 9
            counts[pair] += 2
            for kind, i in combo:
                if kind == "triplet":
                    counts[i] += 3
                else:
                    for j in range(3):
                        counts[i + j] += 1
            if max(counts) <= 4:
                by_hand.setdefault(tuple(counts), set()).add((pair, tuple(sorted(combo))))
    return by_hand


def test_every_one_suit_complete_hand_lists_exactly_its_readings():
    by_hand = _one_suit_constructions()
    worst = 0
    for counts, expected in by_hand.items():
        hand34 = np.zeros(34, dtype=np.uint8)
        hand34[9:18] = counts
        got = {(p - 9, tuple(sorted((k, t - 9) for k, t in s))) for p, s in decompose(hand34)}
        assert got == expected, counts
        worst = max(worst, len(expected))
    assert worst <= MAX_READINGS


@pytest.mark.nojit
def test_decompose_without_jit():
    assert len(decompose("111222333m44455p")) == 2
    assert is_agari("19m19p19s12345677z")
