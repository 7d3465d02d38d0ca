"""A sensible beginner-intermediate baseline: fast hands with a yaku, and folding against threats.

- **Wins** whenever it can (tsumo, ron).
- **Discards** for the lowest shanten, then the most ukeire (counting the tiles it can see),
  keeping yakuhai pairs (dragons, its seat wind, the round wind) and, once open for tanyao or a
  flush, throwing the tiles that break that plan first.
- **Calls**: pon on a yakuhai pair (when the call does not slow the hand); chi or pon for tanyao or a
  flush only when the call keeps that yaku and lowers the shanten to one or less; never into a
  hand with no yaku; never kans.
- **Riichi** when closed and tenpai, except damaten when the hand already pays well (a yaku
  without riichi and an estimated 4 han or more with dora).
- **Defends**: against a riichi, or a seat with three open melds, while not yet tenpai, it
  folds with the safest tile (genbutsu, then honors seen, suji, terminals), the most efficient
  among equals.
"""

from __future__ import annotations

import numpy as np

from agents.simple_efficiency_agent import _discard_id, _legal_discards, _tie_rank, _winning_action
from engine.actions import KYUUSHU, PASS, RIICHI
from engine.harness.policies import CLAIM_OPTIONS
from engine.kernels import _discard_table, _shanten
from engine.melds import MELD_ANKAN, MELD_CHI
from engine.tables import load_tables

DRAGONS = (31, 32, 33)
FOLD_SHANTEN = 1
"""Fold against a threat while at least this many tiles from tenpai (1: unless tenpai; 2 and 0
measured worse against ``SimpleEfficiencyAgent``)."""
DAMA_HAN = 4
"""Stay dama (no riichi) when the hand already has a yaku and about this many han."""


def is_simple(k: int) -> bool:
    """2-8 of a suit."""
    return k < 27 and 1 <= k % 9 <= 7


def safety(k: int, threat: int, view) -> int:
    """How safe discarding kind ``k`` is against seat ``threat`` (higher is safer)."""
    if view.discarded34[threat, k]:
        return 10  # genbutsu
    seen = int(view.visible34[k]) + int(view.hand34[k])
    if k >= 27:
        return 8 if seen >= 3 else 6 if seen >= 2 else 4
    n = k % 9
    base = k - n
    gone = view.discarded34[threat]
    low = n >= 3 and gone[base + n - 3]
    high = n <= 5 and gone[base + n + 3]
    if n in (0, 8):
        return 7 if (high if n == 0 else low) else 2
    if n in (1, 7, 2, 6):
        side = high if n <= 2 else low
        return (6 if n in (1, 7) else 5) if side else 1
    if low and high:
        return 5
    return 3 if low or high else 0


class EfficiencyAgent:
    """The yaku-aware efficiency baseline (module docstring); needs the seat's ``SeatView``."""

    name = "efficiency"
    fold_shanten = FOLD_SHANTEN
    """Fold against a threat while at least this many tiles from tenpai."""
    call_shanten = 1
    """Call for tanyao or a flush only when the call leaves at most this shanten."""

    def __init__(self) -> None:
        tables = load_tables()
        self._suit = tables.shanten_suit
        self._honor = tables.shanten_honor
        self._sh = np.zeros(34, dtype=np.int64)
        self._uk = np.zeros(34, dtype=np.int64)

    # ------------------------------------------------------------------ helpers

    def _yakuhai(self, view) -> set[int]:
        return {*DRAGONS, view.seat_wind, view.round_wind}

    def _shanten(self, hand34: np.ndarray) -> int:
        return int(_shanten(hand34, self._suit, self._honor))

    def _best_after(self, hand34: np.ndarray, view) -> tuple[int, int]:
        """(shanten, ukeire) after the best discard of a 3n+2 hand."""
        legal = hand34 > 0
        _discard_table(
            hand34, view.visible34, legal, self._suit, self._honor, self._sh, self._uk, True
        )
        k = int(np.lexsort((-self._uk, self._sh))[0])
        return int(self._sh[k]), int(self._uk[k])

    def _open_melds(self, view, seat: int) -> list[tuple[int, int]]:
        return [
            (int(view.meld_type[seat, m]), int(view.meld_tile34[seat, m]))
            for m in range(int(view.n_melds[seat]))
            if view.meld_type[seat, m] != MELD_ANKAN
        ]

    def _plan(self, view, hand34: np.ndarray, melds: list[tuple[int, int]]) -> str:
        """The yaku an open hand goes for: "yakuhai", "tanyao", "flush" or "" (none)."""
        yakuhai = self._yakuhai(view)
        if any(t in yakuhai and mt != MELD_CHI for mt, t in melds):
            return "yakuhai"
        if any(hand34[k] >= 3 for k in yakuhai):
            return "yakuhai"
        kinds = [t for _, t in melds]
        meld_kinds = kinds + [t + 2 for mt, t in melds if mt == MELD_CHI]
        if all(is_simple(k) for k in meld_kinds):
            off = sum(int(hand34[k]) for k in range(34) if not is_simple(k))
            if off <= 1:
                return "tanyao"
        suits = {k // 9 for k in kinds if k < 27}
        if len(suits) <= 1:
            suit = (
                suits.pop()
                if suits
                else int(np.argmax([hand34[9 * s : 9 * s + 9].sum() for s in range(3)]))
            )
            off = sum(int(hand34[k]) for k in range(27) if k // 9 != suit)
            if off <= 1:
                return "flush"
        return ""

    def _threats(self, view) -> list[int]:
        return [
            s
            for s in range(4)
            if s != view.seat and (view.riichi[s] > 0 or len(self._open_melds(view, s)) >= 3)
        ]

    # ------------------------------------------------------------------ decisions

    def act(self, observation, action_mask: np.ndarray, view) -> int:
        """The chosen action id (``view``: the seat's ``engine.visibility.SeatView``)."""
        mask = np.asarray(action_mask)
        win = _winning_action(mask)
        if win >= 0:
            return win
        hand = np.asarray(view.hand34, dtype=np.uint8)
        if mask[PASS]:
            return self._claim(mask, view, hand)
        if mask[KYUUSHU]:
            return KYUUSHU
        if mask[RIICHI] and not self._dama(view, hand):
            return RIICHI
        return self._discard(mask, view, hand)

    def _dama(self, view, hand: np.ndarray) -> bool:
        """Closed tenpai that already pays well without riichi: stay dama."""
        yaku = 0
        if all(hand[k] == 0 for k in range(34) if not is_simple(k)):
            yaku += 1
        yaku += sum(1 for k in self._yakuhai(view) if hand[k] >= 3)
        if yaku == 0:
            return False
        dora = int(np.dot(hand.astype(np.int64), view.dora34))
        return yaku + dora >= DAMA_HAN

    def _claim(self, mask: np.ndarray, view, hand: np.ndarray) -> int:
        k = int(view.offered34)
        if k < 0 or self._threats(view) and self._shanten(hand) >= self.fold_shanten - 1:
            return PASS
        now = self._shanten(hand)
        melds = self._open_melds(view, view.seat)
        closed = not melds  # no open meld (an ankan keeps the hand closed)
        options = []
        for action, d0, d1 in CLAIM_OPTIONS:
            if not mask[action]:
                continue
            used = (k + d0, k + d1)
            kind = "chi" if d0 != 0 else "pon"
            after = hand.copy()
            for u in used:
                after[u] -= 1
            low = min(used[0], k)
            new_melds = [*melds, (MELD_CHI if kind == "chi" else -1, low)]
            plan = self._plan(view, after, new_melds)
            if not plan:
                continue  # never call into a hand with no yaku
            s, u = self._best_after(after, view)
            yakuhai_pon = kind == "pon" and k in self._yakuhai(view)
            if (yakuhai_pon and s <= now) or (s < now and s <= self.call_shanten):
                options.append((s, -u, action))
        if not options or (closed and now <= 0):
            return PASS  # a closed tenpai hand keeps riichi
        return min(options)[2]

    def _discard(self, mask: np.ndarray, view, hand: np.ndarray) -> int:
        legal = _legal_discards(mask, np.zeros(34, dtype=np.bool_))
        if not legal.any():
            return int(np.flatnonzero(mask)[0])
        _discard_table(
            hand, view.visible34, legal, self._suit, self._honor, self._sh, self._uk, True
        )
        sh, uk = self._sh, self._uk
        best_sh = int(sh.min())
        threats = self._threats(view)
        candidates = [k for k in range(34) if legal[k]]
        if threats and best_sh >= self.fold_shanten:
            k = max(
                candidates,
                key=lambda c: (min(safety(c, s, view) for s in threats), -sh[c], uk[c]),
            )
            return _discard_id(mask, k)
        yakuhai = self._yakuhai(view)
        melds = self._open_melds(view, view.seat)
        plan = self._plan(view, hand, melds) if melds else ""

        def key(c: int):
            keeps_pair = c in yakuhai and hand[c] == 2 and not melds
            off_plan = (plan == "tanyao" and not is_simple(c)) or (
                plan == "flush" and c < 27 and hand[c] <= 1 and self._off_suit(c, hand, melds)
            )
            return (sh[c], not off_plan, keeps_pair, -uk[c], _tie_rank(c), c)

        return _discard_id(mask, min(candidates, key=key))

    def _off_suit(self, c: int, hand: np.ndarray, melds) -> bool:
        suits = [t // 9 for _, t in melds if t < 27]
        suit = (
            suits[0] if suits else int(np.argmax([hand[9 * s : 9 * s + 9].sum() for s in range(3)]))
        )
        return c // 9 != suit

    def __call__(self, observation, action_mask, view) -> int:
        return self.act(observation, action_mask, view)
