"""What a seat holds: adding and removing tiles, finding a copy to discard or call with (red fives
under the table's rules), melds, waits and furiten (docs/rules.md, Furiten).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.melds import MELD_ANKAN
from engine.rules import (
    RULE_KARATEN_MELDS,
    RULE_PLAYERS,
    RULE_RED_M,
)
from engine.shanten import _waits

NORTH = 30
"""tile34 of North (kita, three players)."""


@njit(inline="always")
def _is_red(rules, tile):
    """True if physical ``tile`` is a red five under ``rules``."""
    k = tile // 4
    if k == 4 or k == 13 or k == 22:
        return tile % 4 < rules[RULE_RED_M + k // 9]
    return False


@njit
def _dealer(st, t):
    return st[t].kyoku % 4


@njit(inline="always")
def _n_players(st, t):
    """Seats at the table: 4, or 3 (seats 0-2; seat 3 absent)."""
    return np.int64(st[t].rules[RULE_PLAYERS])


@njit(inline="always")
def _next_seat(st, t, s):
    """The seat after ``s`` in turn order (a compare, not ``%`` by the seat count: no integer
    division on every discard)."""
    return _seat_after(s, 1, _n_players(st, t))


@njit(inline="always")
def _seat_after(s, i, n):
    """The seat ``i`` places after ``s`` (0 < i < n) at a table of ``n`` seats."""
    o = s + i
    return o - n if o >= n else o


@njit
def _add_tile(st, t, s, tile):
    rec = st[t]
    rec.closed[s, tile] = 1
    rec.closed34[s, tile // 4] += 1


@njit(inline="always")
def _remove_tile(st, t, s, tile):
    rec = st[t]
    rec.closed[s, tile] = 0
    rec.closed34[s, tile // 4] -= 1


@njit(inline="always")
def _find_tile(st, t, s, k, red):
    """A held copy of kind ``k`` (red or plain as asked), the drawn tile first; -1 if none."""
    rec = st[t]
    rules = rec.rules[:]
    d = rec.drawn
    if d >= 0 and d // 4 == k and rec.turn == s and rec.closed[s, d] and _is_red(rules, d) == red:
        return d
    for j in range(4):
        tile = 4 * k + j
        if rec.closed[s, tile] and _is_red(rules, tile) == red:
            return tile
    return -1


@njit(inline="always")
def _take_for_call(st, t, s, k, avoid, plain):
    """A held copy of kind ``k`` for a call, a red five first unless ``plain``; not ``avoid``."""
    rec = st[t]
    rules = rec.rules[:]
    best = -1
    for j in range(4):
        tile = 4 * k + j
        if tile != avoid and rec.closed[s, tile]:
            if _is_red(rules, tile):
                if not plain:
                    return tile
                continue
            if best < 0:
                best = tile
    return best


@njit
def _plain_choice(st, t, s, k, need):
    """True if seat ``s`` holds a red copy of kind ``k`` and ``need`` plain copies besides."""
    rec = st[t]
    rules = rec.rules[:]
    red = False
    plain = 0
    for j in range(4):
        tile = 4 * k + j
        if rec.closed[s, tile]:
            if _is_red(rules, tile):
                red = True
            else:
                plain += 1
    return red and plain >= need


@njit
def _n_open(st, t, s):
    rec = st[t]
    n = 0
    for i in range(rec.n_melds[s]):
        if rec.meld_type[s, i] != MELD_ANKAN:
            n += 1
    return n


@njit(inline="always")
def _update_waits(st, t, tables, s):
    """Recompute the waits of seat ``s``'s 3n+1 hand."""
    rec = st[t]
    rec.n_waits[s] = _waits(
        rec.closed34[s], tables.shanten_suit, tables.shanten_honor, rec.waits[s]
    )


@njit(example=lambda x: (x.st, x.i, x.tables, x.i, x.st[0]["closed34"][0]))
def _is_tenpai(st, t, tables, s, hand34):
    """Tenpai of seat ``s`` holding the 3n+1 concealed part ``hand34`` (docs/rules.md, Draws).

    Formal tenpai, except karaten: a wait counts only if the seat does not hold all four copies
    of its kind among its concealed tiles (with rule ``karaten_melds``, its own melds' copies
    counted too). The one definition of tenpai for the exhaustive draw and for riichi.
    """
    rec = st[t]
    w = np.zeros(34, dtype=np.uint8)
    if _waits(hand34, tables.shanten_suit, tables.shanten_honor, w) == 0:
        return False
    if rec.rules[RULE_KARATEN_MELDS] == 0:
        return True
    for k in range(34):
        if not w[k]:
            continue
        held = np.int64(hand34[k])
        for i in range(rec.n_melds[s]):
            for j in range(4):
                x = rec.meld_tiles[s, i, j]
                if x >= 0 and x // 4 == k:
                    held += 1
        if held < 4:
            return True
    return False


@njit
def _mark_passed_furiten(st, t, d, x):
    """Temporary and riichi furiten for every seat whose wait ``x`` went by (docs/rules.md furiten)."""
    rec = st[t]
    for s in range(4):
        if s != d and rec.waits[s, x]:
            rec.furiten_temp[s] = 1
            if rec.riichi[s] > 0:
                rec.furiten_riichi[s] = 1


@njit(inline="always")
def _add_meld(st, t, s, mtype, k, t0, t1, t2, t3, src, called):
    rec = st[t]
    i = rec.n_melds[s]
    rec.meld_type[s, i] = mtype
    rec.meld_tile34[s, i] = k
    rec.meld_tiles[s, i, 0] = t0
    rec.meld_tiles[s, i, 1] = t1
    rec.meld_tiles[s, i, 2] = t2
    rec.meld_tiles[s, i, 3] = t3
    rec.meld_from[s, i] = src
    rec.meld_called[s, i] = called
    rec.n_melds[s] = i + 1
    return i
