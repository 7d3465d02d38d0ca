"""Compiled parts of :func:`riichi_env.dataset.pack.pack_game`: a hand's script from a reader's
compact events, a wall that fits what a record reveals, and both for every hand of a record in
one call."""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from riichi_env.core.compiling import GAME, KINDS, add_group
from riichi_env.core.record_seat import S_DISCARD, S_RIICHI
from riichi_env.records.mjai_kernels import (
    OP_DISCARD,
    OP_DRAW,
    OP_EVENT,
    OP_RIICHI,
    OP_RINSHAN,
    OP_TSUMOGIRI,
)

WALL_OK, WALL_TOO_MANY_DRAWS, WALL_TILE_RANGE, WALL_TWICE = range(4)
"""What :func:`engine_wall` returns first: no problem, more draws than a wall has, a tile id
outside 0-135, a tile id twice."""


@njit(
    example=lambda x: (
        np.zeros((1, 1), np.int32),
        np.zeros((1, 1), np.int32),
        np.zeros((1, 1), np.int32),
        np.zeros(1, np.int32),
        np.zeros(1, np.int32),
    )
)
def compact_script(ops, event_rows, script, draws, rinshan):
    """A hand's script rows (into ``script``), draws and replacement draws in order, from its
    compact events ``ops`` (``CompactEvents.ops``); ``event_rows``: the script row of each
    ``OP_EVENT`` row in turn (code -1: none). Returns the numbers of rows, draws and replacement
    draws (those beyond the arrays' length counted, not written)."""
    n = 0
    n_draws = 0
    n_rinshan = 0
    e = 0
    for j in range(ops.shape[0]):
        code = ops[j, 0]
        if code in (OP_DISCARD, OP_TSUMOGIRI, OP_RIICHI):
            script[n, 0] = S_RIICHI if code == OP_RIICHI else S_DISCARD
            script[n, 1] = ops[j, 1]
            script[n, 2] = ops[j, 2]
            script[n, 3] = -1
            script[n, 4] = -1
            script[n, 5] = 0
            n += 1
        elif code == OP_DRAW:
            if n_draws < draws.shape[0]:
                draws[n_draws] = ops[j, 2]
            n_draws += 1
        elif code == OP_RINSHAN:
            if n_rinshan < rinshan.shape[0]:
                rinshan[n_rinshan] = ops[j, 2]
            n_rinshan += 1
        elif code == OP_EVENT:
            if event_rows[e, 0] >= 0:
                script[n] = event_rows[e]
                n += 1
            e += 1
    return n, n_draws, n_rinshan


@njit(
    example=lambda x: (
        np.zeros(1, np.int32),
        x.i,
        x.i,
        np.zeros(1, np.int32),
        np.zeros(1, np.int32),
        np.zeros(1, np.int32),
        np.zeros(1, np.uint8),
    )
)
def engine_wall(revealed, n_dora, dealer, draws, rinshan, wall, known):
    """A wall in the engine's layout (into ``wall``, ``known`` 1 where the record reveals the
    place) from what the record reveals: ``revealed`` the deal (13 tiles a seat, seat 0 first),
    then ``n_dora`` dora indicators and the ura indicators (at most five each); ``draws`` and
    ``rinshan`` the draws and replacement draws in order. The places nobody saw get the tiles
    nobody saw, in id order; a negative id reveals nothing. Returns ``(WALL_*, a, b)``: ``a`` and
    ``b`` the numbers of draws and replacement draws (``WALL_TOO_MANY_DRAWS``), or the tile id
    and how many times it is placed (``WALL_TWICE``)."""
    n_draws = draws.shape[0]
    n_rinshan = rinshan.shape[0]
    if n_draws > 70 or n_rinshan > 4:
        return WALL_TOO_MANY_DRAWS, n_draws, n_rinshan
    wall[:] = -1
    for i in range(4):
        seat = (dealer + i) % 4
        for k in range(13):
            wall[13 * i + k] = revealed[13 * seat + k]
    for k in range(n_draws):
        wall[52 + k] = draws[k]
    for k in range(n_rinshan):
        wall[122 + k] = rinshan[k]
    for k in range(n_dora):
        wall[126 + k] = revealed[52 + k]
    for k in range(revealed.shape[0] - 52 - n_dora):
        wall[131 + k] = revealed[52 + n_dora + k]
    counts = np.zeros(136, dtype=np.int64)
    for p in range(136):
        t = wall[p]
        known[p] = 1 if t >= 0 else 0
        if t > 135:
            return WALL_TILE_RANGE, t, 0
    for p in range(136):
        if wall[p] >= 0:
            counts[wall[p]] += 1
    most = 0
    for t in range(136):
        if counts[t] > counts[most]:
            most = t
    if counts[most] > 1:
        return WALL_TWICE, most, counts[most]
    t = 0
    for p in range(136):
        if wall[p] < 0:
            while counts[t] > 0:
                t += 1
            wall[p] = t
            t += 1
    return WALL_OK, 0, 0


@njit(
    example=lambda x: (
        np.zeros((1, 3), np.int32),
        np.zeros(2, np.int32),
        np.zeros((1, 6), np.int32),
        np.zeros(2, np.int32),
        np.zeros(1, np.int32),
        np.zeros(2, np.int32),
        np.zeros(1, np.int32),
        np.zeros(1, np.int32),
        np.zeros((1, 6), np.int32),
        np.zeros(2, np.int32),
        np.zeros((1, 136), np.int32),
        np.zeros((1, 136), np.uint8),
        np.zeros((1, 3), np.int32),
    )
)
def pack_hands(
    ops, ops_lo, event_rows, event_lo, revealed, revealed_lo, n_dora, dealers, script, script_lo,
    walls, known, problems,
):  # fmt: skip
    """:func:`compact_script` and :func:`engine_wall` of every hand ``h`` of a record in one call:
    its compact events ``ops[ops_lo[h]:ops_lo[h + 1]]`` with the script rows of its other events
    ``event_rows[event_lo[h]:event_lo[h + 1]]``, what it reveals ``revealed[revealed_lo[h]:
    revealed_lo[h + 1]]`` (``n_dora[h]`` dora indicators) and its dealer. Writes the hands'
    script rows one after the other into ``script`` (at least as many rows as ``ops``), hand
    ``h``'s from ``script_lo[h]``, their walls into ``walls[h]`` and ``known[h]``, and
    ``engine_wall``'s answer into ``problems[h]``. Returns the script rows written."""
    draws = np.empty(ops.shape[0], dtype=np.int32)  # a hand's draws: at most one an event
    rinshan = np.empty(ops.shape[0], dtype=np.int32)
    r = 0
    script_lo[0] = 0
    for h in range(dealers.shape[0]):
        rows, d, k = compact_script(
            ops[ops_lo[h] : ops_lo[h + 1]],
            event_rows[event_lo[h] : event_lo[h + 1]],
            script[r:],
            draws,
            rinshan,
        )
        r += rows
        script_lo[h + 1] = r
        problem, a, b = engine_wall(
            revealed[revealed_lo[h] : revealed_lo[h + 1]],
            n_dora[h],
            dealers[h],
            draws[:d],
            rinshan[:k],
            walls[h],
            known[h],
        )
        problems[h, 0] = problem
        problems[h, 1] = a
        problems[h, 2] = b
    return r


def _dataset() -> list:
    """The game, the record readers', the packing kernels and the replay that writes rows."""
    from riichi_env.core.rows import _write_row
    from riichi_env.core.runner import _run_replay

    kernels = [compact_script, engine_wall, pack_hands, _write_row, _run_replay]
    return [*GAME, *KINDS["records"][2](), *kernels]


add_group(
    "dataset", "the record replay that writes dataset rows (every encoder)", "40 to 90 s", _dataset
)
