"""The record-per-table state, ``deal_hand``, ``seat_view`` and the payment helpers the records use.

Issue 9: one structured array per batch (``engine/state.py``), the validated hand start shared by
scenarios and the replayer (``engine/deal.py``), one module for what a seat sees
(``engine/visibility.py``) and the limits and payments written once (``engine/scoring/payment.py``).
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from scenario_helpers import t34

from engine import payment as payment_fn
from engine.deal import deal_hand
from engine.events import EV_HAND_START
from engine.game import Game, legal_mask, reset, step
from engine.harness.invariants import validate
from engine.harness.scenario import build_wall, play, start_hand
from engine.rules import MAHJONGSOUL, TENHOU
from engine.scoring.payment import base_points, hand_value, limit_name, tsumo_shares
from engine.state import STATE_DTYPE, State, copy_state, new_state
from engine.tiles import parse_hand34
from engine.visibility import seat_view

NOTEN = ["159m159p159s1234z", "268m268p268s5677z", "3447m347p37s5566z", "48m48p48s1234567z"]

# -- the state ----------------------------------------------------------------------------------


@pytest.mark.nojit
def test_one_record_per_table_of_at_most_4_kb():
    st = new_state(3, MAHJONGSOUL, max_events=16)
    assert st.records.dtype == STATE_DTYPE and st.records.shape == (3,)
    assert STATE_DTYPE.itemsize <= 4096
    assert st.events.shape == (3, 16, 8)
    st.points[1, 2] = 12300  # a field view writes table 1 of the record array
    assert int(st.records["points"][1, 2]) == 12300
    assert int(st.phase[0]) == 3  # PHASE_GAME_OVER until reset
    with pytest.raises(AttributeError, match="no field 'nonsense'"):
        _ = st.nonsense
    with pytest.raises(AttributeError, match="write into them"):
        st.points = np.zeros((3, 4))


@pytest.mark.nojit
def test_copy_and_pickle_are_the_two_buffers():
    g = Game(seed=3)
    g.step(g.legal_actions()[0])
    for other in (copy_state(g.state), pickle.loads(pickle.dumps(g.state))):
        assert isinstance(other, State)
        for name in STATE_DTYPE.names:  # field by field: alignment padding carries no state
            assert np.array_equal(other.records[name], g.state.records[name]), name
        assert np.array_equal(other.events, g.state.events)
        assert other.records.ctypes.data != g.state.records.ctypes.data


@pytest.mark.nojit
def test_a_log_of_capacity_zero_keeps_nothing_and_flags_nothing():
    st = new_state(1, MAHJONGSOUL, max_events=0)
    reset(st, 11)
    for _ in range(30):
        step(st, int(np.flatnonzero(legal_mask(st))[0]))
    assert int(st.n_events[0]) == 0 and int(st.ev_overflow[0]) == 0


@pytest.mark.nojit
def test_a_full_log_drops_rows_and_says_so():
    g = Game(seed=4, max_events=40)
    while not g.done and int(g.state.n_events[0]) < 40:
        g.step(g.legal_actions()[0])
    g.step(g.legal_actions()[0])
    assert int(g.state.n_events[0]) == 40 and int(g.state.ev_overflow[0]) == 1


# -- deal_hand ----------------------------------------------------------------------------------


def _wall(seed=0):
    return build_wall(NOTEN, "9m1z", dealer=0, rules=MAHJONGSOUL, seed=seed)


@pytest.mark.nojit
def test_deal_hand_starts_a_new_game_at_the_hand():
    st = new_state(1)
    deal_hand(st, _wall(), kyoku=5, honba=2, kyotaku=1, points=[24000, 25000, 25000, 25000], seed=9)
    assert (int(st.kyoku[0]), int(st.honba[0]), int(st.kyotaku[0])) == (5, 2, 1)
    assert int(st.actor[0]) == 1  # South 2: seat 1 deals
    assert int(st.seed[0]) == 9
    validate(st)


@pytest.mark.nojit
@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"kyoku": -1}, ValueError, "kyoku must be a non-negative int"),
        ({"kyoku": 1.0}, ValueError, "kyoku must be a non-negative int"),
        ({"kyoku": 12}, ValueError, "kyoku"),  # past the West round's extension
        ({"kyoku": 0, "honba": -1}, ValueError, "honba=-1"),
        ({"kyoku": 0, "kyotaku": True}, ValueError, "kyotaku=True"),
        ({"kyoku": 0, "points": [25000] * 3}, ValueError, "points must be four ints"),
        ({"kyoku": 0, "points": ["a"] * 4}, ValueError, "points must be four ints"),
        ({"kyoku": 0, "points": [30000] * 4}, ValueError, "must add up to 100000"),
        ({"kyoku": 0, "t": 1}, ValueError, "table index t"),
        ({"kyoku": 0, "clear_log": 1}, TypeError, "clear_log"),
    ],
)
def test_deal_hand_names_the_bad_argument(kwargs, error, match):
    st = new_state(1)
    kwargs = {"seed": 0, **kwargs}
    with pytest.raises(error, match=match):
        deal_hand(st, _wall(), **kwargs)


@pytest.mark.nojit
@pytest.mark.parametrize(
    "wall", [list(range(135)), [0] * 136, np.arange(136, dtype=np.float64), "0 1 2"]
)
def test_deal_hand_refuses_a_wall_that_is_not_every_tile_once(wall):
    with pytest.raises(ValueError, match="each tile136 id 0-135 exactly once"):
        deal_hand(new_state(1), wall, kyoku=0, seed=0)


@pytest.mark.nojit
def test_deal_hand_without_seed_goes_on_with_the_records_points_and_may_clear_the_log():
    g = start_hand(hands=NOTEN, draws="9m1z")
    st = g.state
    seed = int(st.seed[0])
    rows_before = int(st.n_events[0])
    deal_hand(st, _wall(1), kyoku=1, points=[40000, 30000, 20000, 30000])  # sums to 120000
    assert int(st.seed[0]) == seed and int(st.n_events[0]) > rows_before
    assert [int(p) for p in st.points[0]] == [40000, 30000, 20000, 30000]
    deal_hand(st, _wall(1), kyoku=1, points=[25000] * 4, clear_log=True)
    assert int(st.events[0, 0, 0]) == EV_HAND_START  # the log starts again at this hand


# -- what a seat sees ---------------------------------------------------------------------------


@pytest.mark.nojit
def test_seat_view_counts_rivers_melds_and_indicators_not_the_own_hand():
    g = start_hand(hands=NOTEN, draws="9m1z", dora="1z")
    play(g, "9m")  # seat 0 discards 9m
    view = seat_view(g.state, 1)
    assert view.seat == 1 and np.array_equal(view.hand34, g.state.closed34[0, 1])
    want = np.zeros(34, dtype=np.uint8)
    want[t34("9m")] += 1  # seat 0's discard
    want[t34("1z")] += 1  # the dora indicator
    assert np.array_equal(view.visible34, np.minimum(want, 4 - view.hand34))
    with pytest.raises(ValueError, match="seat"):
        seat_view(g.state, 4)


# -- payments written once ----------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize("rules", [MAHJONGSOUL, TENHOU, MAHJONGSOUL.replace(kiriage_mangan=True)])
def test_payment_helpers_agree_with_payment(rules):
    for han in range(1, 14):
        for fu in (20, 25, 30, 40, 50, 60, 70, 110):
            if (han, fu) in ((1, 20), (1, 25)):
                continue
            for dealer in (False, True):
                for tsumo in (False, True):
                    ref = payment_fn(han, fu, dealer=dealer, tsumo=tsumo, rules=rules)
                    base = base_points(han, fu, rules=rules)
                    assert base == ref["base"]
                    assert limit_name(han, fu, rules=rules) == ref["limit"]
                    assert hand_value(base, dealer, tsumo) == ref["total"]
                    if tsumo:
                        d, nd = tsumo_shares(base, dealer)
                        p = ref["payments"]
                        assert (d, nd) == (
                            (0, p["tsumo_all"])
                            if dealer
                            else (p["tsumo_dealer"], p["tsumo_nondealer"])
                        )


@pytest.mark.nojit
def test_base_points_of_a_recorded_limit_and_yakuman():
    assert base_points(3, 30, limit="mangan") == 2000
    assert base_points(0, 0, limit="kazoe yakuman") == 8000
    assert base_points(13, 40, yakuman=2) == 16000
    assert limit_name(4, 30, rules=MAHJONGSOUL.replace(kiriage_mangan=True)) == "mangan"
    assert limit_name(13, 30, yakuman=2) == "2x yakuman"
    with pytest.raises(ValueError, match="limit must be one of"):
        base_points(3, 30, limit="double mangan")


@pytest.mark.nojit
def test_parse_hand34_is_what_seat_view_reports():
    g = start_hand(hands=NOTEN, draws="9m1z")
    assert np.array_equal(seat_view(g.state, 3).hand34, parse_hand34(NOTEN[3]))


@pytest.mark.nojit
@pytest.mark.parametrize("check", ["state", "validate"])
def test_a_claim_offer_asks_the_claimer_while_the_discarder_keeps_the_turn(check):
    hands = [NOTEN[0], "2899m268p268s567z", NOTEN[2], NOTEN[3]]
    g = start_hand(hands=hands, draws="1z")
    g.step(t34("9m"))  # the dealer discards 9m; seat 1 holds two
    if check == "state":
        assert (g.phase, g.turn, g.actor) == ("claim", 0, 1)
        assert int(g.state.claim_from[0]) == 0 and int(g.state.claim_tile[0]) // 4 == t34("9m")
    else:
        validate(g.state)
        g.state.turn[0] = 1  # the claimer as turn seat is a broken offer
        with pytest.raises(ValueError, match="turn is not the offering seat"):
            validate(g.state)
