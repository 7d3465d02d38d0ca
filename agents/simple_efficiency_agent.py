"""The simple tile-efficiency baseline: win when possible, riichi when tenpai, never call, discard
for speed (the first ``EfficiencyAgent``, kept for comparison).

Discard choice: the legal discard that leaves the lowest shanten, then the most ukeire (unseen tiles
that lower shanten, counting what the seat can see), then honors before terminals before the rest,
then the lowest kind. Claims are passed; kans and kyuushu kyuuhai are declined.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import DISCARD, DISCARD_RED, PASS, RIICHI, RON, TSUMO
from engine.shanten import _shanten, _ukeire
from engine.tables import load_tables


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


class SimpleEfficiencyAgent:
    """Plays for tile efficiency with ``engine.shanten``; needs the seat's view (hand, visible tiles).

    Args:
        riichi: Declare riichi whenever it is legal (the engine offers it only in tenpai).
    """

    name = "simple"

    def __init__(self, riichi: bool = True) -> None:
        tables = load_tables()
        self._suit = tables.shanten_suit
        self._honor = tables.shanten_honor
        self.riichi = riichi
        self._legal34 = np.zeros(34, dtype=np.bool_)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view) -> int:
        """The chosen action id; ``view`` needs ``hand34`` (concealed) and ``visible34`` (the rest seen)."""
        mask = np.asarray(action_mask)
        if mask[TSUMO]:
            return TSUMO
        if mask[RON]:
            return RON
        if self.riichi and mask[RIICHI]:
            return RIICHI
        if mask[PASS]:
            return PASS
        legal34 = self._legal34
        legal34[:] = mask[DISCARD : DISCARD + 34] != 0
        for suit in range(3):
            if mask[DISCARD_RED + suit]:
                legal34[9 * suit + 4] = True
        if legal34.any():
            hand34 = np.asarray(view.hand34, dtype=np.uint8)
            visible34 = np.asarray(view.visible34, dtype=np.uint8)
            t = int(_best_discard(hand34, visible34, legal34, self._suit, self._honor))
            if t >= 0:
                if mask[DISCARD + t]:
                    return DISCARD + t
                return DISCARD_RED + t // 9
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("action_mask has no legal action")
        return int(legal[0])

    def __call__(self, observation, action_mask, view) -> int:
        return self.act(observation, action_mask, view)
