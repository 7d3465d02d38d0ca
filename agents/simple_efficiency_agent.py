"""The simple tile-efficiency baseline: win when possible, riichi when tenpai, never call, discard
for speed (the first ``EfficiencyAgent``, kept for comparison).

Discard choice: the legal discard that leaves the lowest shanten, then the most ukeire (unseen tiles
that lower shanten, counting what the seat can see), then honors before terminals before the rest,
then the lowest kind. Claims are passed; kans and kyuushu kyuuhai are declined. The same agent
runs inside the kernels as the compiled policy ``"simple"`` (``engine.harness.policies``).
"""

from __future__ import annotations

import numpy as np

from engine.actions import DISCARD, DISCARD_RED, KITA, PASS, RIICHI, RON, TSUMO
from engine.kernels import _best_discard, _tie_rank  # noqa: F401 (re-exported for agents)
from engine.tables import load_tables


def _winning_action(mask: np.ndarray) -> int:
    """``TSUMO``, ``RON`` or (three players) ``KITA`` when the mask holds one, in that order; -1
    otherwise. Both baseline agents take these first."""
    if mask[TSUMO]:
        return TSUMO
    if mask[RON]:
        return RON
    if mask.shape[0] > KITA and mask[KITA]:
        return KITA  # three players: a North set aside is a nuki dora and a free draw
    return -1


def _legal_discards(mask: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out`` (``bool[34]``) set to the kinds the mask lets the seat discard (a red five counts
    for its kind); returned."""
    out[:] = mask[DISCARD : DISCARD + 34] != 0
    for suit in range(3):
        if mask[DISCARD_RED + suit]:
            out[9 * suit + 4] = True
    return out


def _discard_id(mask: np.ndarray, k: int) -> int:
    """The action that discards kind ``k``: the plain copy when the mask allows it, else the red five."""
    if mask[DISCARD + k]:
        return DISCARD + k
    return DISCARD_RED + k // 9


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
        win = _winning_action(mask)
        if win >= 0:
            return win
        if self.riichi and mask[RIICHI]:
            return RIICHI
        if mask[PASS]:
            return PASS
        legal34 = _legal_discards(mask, self._legal34)
        if legal34.any():
            hand34 = np.asarray(view.hand34, dtype=np.uint8)
            visible34 = np.asarray(view.visible34, dtype=np.uint8)
            t = int(_best_discard(hand34, visible34, legal34, self._suit, self._honor))
            if t >= 0:
                return _discard_id(mask, t)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("action_mask has no legal action")
        return int(legal[0])

    def __call__(self, observation, action_mask, view) -> int:
        return self.act(observation, action_mask, view)
