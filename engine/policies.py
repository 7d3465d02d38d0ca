"""Baseline policies compiled into the self-play kernels (``engine.selfplay._choose``).

``_simple_action`` is ``agents.SimpleEfficiencyAgent`` run inside the kernels: it reads the same
facts from the state that the agent reads from its ``SeatView`` (the concealed tiles and the
visible ones, ``engine.visibility._visible34``) and shares the discard choice ``_best_discard``,
so the compiled and the Python agent choose the same actions (tests/engine/test_policies.py).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import DISCARD, DISCARD_RED, N_ACTIONS, PASS, RIICHI, RON, TSUMO
from engine.shanten import _shanten, _ukeire
from engine.visibility import _visible34


@njit
def _tie_rank(t):
    """Lower is discarded first among equals: honors, then terminals, then simples."""
    if t >= 27:
        return 0
    r = t % 9
    if r == 0 or r == 8:
        return 1
    return 2


@njit
def _best_discard(hand34, visible34, legal34, suit_table, honor_table):
    """Kind to discard from a 3n+2 hand: min shanten, max ukeire, then honors/terminals; -1 if none."""
    h = hand34.copy()
    v = visible34.copy()
    best = -1
    best_s = 99
    best_u = -1
    best_r = 99
    for t in range(34):
        if not legal34[t] or h[t] == 0:
            continue
        h[t] -= 1
        v[t] += 1
        s = _shanten(h, suit_table, honor_table)
        u = _ukeire(h, v, suit_table, honor_table)
        h[t] += 1
        v[t] -= 1
        r = _tie_rank(t)
        if s < best_s or (s == best_s and (u > best_u or (u == best_u and r < best_r))):
            best, best_s, best_u, best_r = t, s, u, r
    return best


@njit
def _simple_action(st, t, tables, mask):
    """``SimpleEfficiencyAgent``: win, riichi when offered, pass claims, most efficient discard."""
    if mask[TSUMO]:
        return TSUMO
    if mask[RON]:
        return RON
    if mask[RIICHI]:
        return RIICHI
    if mask[PASS]:
        return PASS
    rec = st[t]
    seat = rec.actor
    legal34 = np.zeros(34, dtype=np.bool_)
    any_legal = False
    for k in range(34):
        if mask[DISCARD + k]:
            legal34[k] = True
            any_legal = True
    for suit in range(3):
        if mask[DISCARD_RED + suit]:
            legal34[9 * suit + 4] = True
            any_legal = True
    if any_legal:
        visible = np.zeros(34, dtype=np.uint8)
        _visible34(st, t, seat, False, visible)
        k = _best_discard(
            rec.closed34[seat], visible, legal34, tables.shanten_suit, tables.shanten_honor
        )
        if k >= 0:
            if mask[DISCARD + k]:
                return DISCARD + k
            return DISCARD_RED + k // 9
    for a in range(N_ACTIONS):
        if mask[a]:
            return a
    return -1
