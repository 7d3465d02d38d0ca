"""Scenario tests for the event log of played hands (docs/internals.md "Event log"): the wall can be
read back, rows come in the documented order, and ``render`` reads every kind of hand result.
"""

from __future__ import annotations

import numpy as np
from scenario_helpers import (
    QUIET,
    A,
    act,
    describe,
    discard,
    four_kans_by_two,
    hand_events,
    pass_claims,
    start_hand,
    tsumogiri,
    tsumogiri_each,
)

from engine.events import (
    EV_DEAL,
    EV_DELTA,
    EV_DORA,
    EV_HAND_END,
    EV_HAND_START,
    EV_POINTS,
    EV_URA,
    EV_WALL,
    EV_WIN,
    EV_YAKU,
    wall_from_events,
)
from engine.harness.scenario import build_wall

RIICHI_HAND = "123m33456p789s5s9m"


def test_wall_read_back_from_the_log():
    hands = [RIICHI_HAND, *QUIET]
    wall = build_wall(hands, draws="5s 9m", dora="1z", ura="2p", rinshan="9p")
    g = start_hand(hands=hands, draws="5s 9m", dora="1z", ura="2p", rinshan="9p")
    assert np.array_equal(wall_from_events(g.events(), 0), wall)
    assert np.array_equal(g.state.wall[0], wall)


def test_riichi_tsumo_log_order_and_render():
    g = start_hand(hands=[RIICHI_HAND, *QUIET], draws="5s 9m 9p 9s 3p", dora="1z", ura="2p")
    act(g, 0, A.RIICHI)
    discard(g, 0, "9m")
    tsumogiri_each(g, (1, 2, 3))
    act(g, 0, A.TSUMO)
    rows = hand_events(g)
    kinds = [int(r[0]) for r in rows]
    assert kinds[:3] == [EV_HAND_START, EV_POINTS, EV_WALL], describe(g)
    assert kinds.count(EV_WALL) == 7 and kinds.count(EV_DEAL) == 4, describe(g)
    assert kinds[kinds.index(EV_DEAL) + 4] == EV_DORA, describe(g)
    tail = [k for k in kinds if k in (EV_WIN, EV_YAKU, EV_URA, EV_DELTA, EV_HAND_END)]
    assert tail[0] == EV_WIN and tail[-2:] == [EV_DELTA, EV_HAND_END], describe(g)
    assert EV_URA in tail, describe(g, "a riichi winner's ura indicators are logged")
    delta = next(r for r in rows if r[0] == EV_DELTA)
    assert int(delta[2:6].sum()) == 1000 * int(delta[6]), describe(
        g, "deltas sum to the sticks taken from the table"
    )
    text = "\n".join(g.render())
    for needle in ("declares double riichi", "riichi accepted", "wins by tsumo", "ura indicators"):
        assert needle in text, text


def test_render_of_draws_and_kans():
    g = four_kans_by_two()
    tsumogiri(g, 1)
    pass_claims(g)
    text = "\n".join(g.render())
    assert "suukaikan" in text and "ankan" in text and "(rinshan)" in text, text
