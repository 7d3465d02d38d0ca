"""The wall's randomness: a counter-based RNG keyed by (game seed, stream), the shuffle of each
hand's wall from (seed, hand index), and how many live tiles are left.

The wall layout is in ``engine/state.py``. Every kernel takes ``(st, t, ...)``: the record array
of ``engine/state.py`` and a table index.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.rules import RULE_PLAYERS
from engine.state import (
    DEAL_SIZE_3P,
    LIVE_END,
    LIVE_END_3P,
    LIVE_START,
    RINSHAN_START,
    WALL_SIZE,
)

M32 = 0xFFFFFFFF


@njit
def _mix32(x):
    """A 32-bit integer hash (two multiply-xorshift rounds), exact in int64 arithmetic."""
    x = (((x >> 16) ^ x) * 0x45D9F3B) & M32
    x = (((x >> 16) ^ x) * 0x45D9F3B) & M32
    return (x >> 16) ^ x


@njit(inline="always")
def _rng_seed(rng, seed, stream):
    """Key ``rng`` (int64[2]: key, counter) from a non-negative seed and a stream number."""
    seed = np.int64(seed)
    stream = np.int64(stream)
    lo = seed & M32
    hi = (seed >> 32) & M32
    a = _mix32(lo ^ _mix32(stream & M32))
    b = _mix32(hi ^ _mix32((stream + 0x5BD1E995) & M32))
    rng[0] = (a << 30) ^ b
    rng[1] = 0


@njit(inline="always")
def _rand_below(rng, n):
    """Uniform int in ``[0, n)`` from a counter-based stream; advances ``rng``."""
    c = rng[1]
    rng[1] = c + 1
    k = rng[0]
    x = _mix32((c & M32) ^ _mix32(k & M32))
    x = _mix32(x ^ ((k >> 32) & M32) ^ ((c >> 32) & M32))
    return (x * n) >> 32


@njit
def _shuffle_wall(wall, seed, hand_index):
    """Fisher-Yates shuffle of 0..135 keyed by (game seed, hand index)."""
    rng = np.zeros(2, dtype=np.int64)
    _rng_seed(rng, seed, hand_index)
    for i in range(WALL_SIZE):
        wall[i] = i
    for i in range(WALL_SIZE - 1, 0, -1):
        j = _rand_below(rng, i + 1)
        tmp = wall[i]
        wall[i] = wall[j]
        wall[j] = tmp


@njit
def _shuffle_wall_3p(wall, seed, hand_index):
    """Three players: Fisher-Yates shuffle of the 108 ids without 2m-8m keyed by (game seed, hand
    index), laid out in the slots of engine/state.py; the removed ids 4-31 fill the unused slots."""
    rng = np.zeros(2, dtype=np.int64)
    _rng_seed(rng, seed, hand_index)
    kept = np.empty(108, dtype=np.int32)
    n = 0
    for i in range(WALL_SIZE):
        if i < 4 or i >= 32:
            kept[n] = i
            n += 1
    for i in range(107, 0, -1):
        j = _rand_below(rng, i + 1)
        tmp = kept[i]
        kept[i] = kept[j]
        kept[j] = tmp
    n = 0
    removed = 4
    for i in range(WALL_SIZE):
        if DEAL_SIZE_3P <= i < LIVE_START or LIVE_END_3P <= i < RINSHAN_START:
            wall[i] = removed
            removed += 1
        else:
            wall[i] = kept[n]
            n += 1


@njit(inline="always")
def _live_end(st, t):
    """End (exclusive) of the live wall before any kan: 122, or 107 with three players."""
    return LIVE_END_3P if st[t].rules[RULE_PLAYERS] == 3 else LIVE_END


@njit(inline="always")
def _n_replacements(st, t):
    """Replacement draws taken this hand: one per kan and one per kita; each moved one live tile
    into the dead wall."""
    rec = st[t]
    n = rec.n_kans
    for s in range(4):
        n += rec.n_kita[s]
    return n


@njit
def _live_left(st, t):
    rec = st[t]
    return _live_end(st, t) - _n_replacements(st, t) - rec.wall_pos
