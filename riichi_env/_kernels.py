"""The env's own compiled step: one Numba call per ``env.step``.

``_k_step`` takes the record array and event log of an ``engine.state.State`` (``st``, ``ev``), a
table index and the lookup tables, and calls the engine's kernels (``engine.kernels``). Reset,
masks and observations call the engine's and the encoders' kernels directly (``_reset``,
``_legal_mask``, ``_encode``), so the env compiles no second copy of them.
"""

from __future__ import annotations

from engine._numba import njit
from engine.kernels import _apply, _legal_mask
from engine.tables import Tables

HAND_ENDED = 4
"""Bit of ``_k_step``'s result: a hand was settled by this action."""
GAME_OVER = -1
"""``_k_step`` result at game over."""


@njit
def _k_step(st, t, ev, tables_tuple, action, mask, hand_points, delta, skip_forced):
    """Apply a legal ``action``; the next actor (``| HAND_ENDED`` if a hand ended) or ``GAME_OVER``.

    ``delta`` receives each seat's point change over the hands that ended (zeros if none). With
    ``skip_forced``, a following decision with exactly one legal action is applied here too.
    ``tables_tuple`` is ``tuple(load_tables())``: a plain tuple crosses from Python in about half
    a microsecond, a NamedTuple in about 1.4.
    """
    tables = Tables(tables_tuple[0], tables_tuple[1])
    rec = st[t]
    ended = 0
    for s in range(4):
        delta[s] = 0
    while True:
        hand = rec.hand_index
        _apply(st, t, ev, tables, action)
        if rec.game_over or rec.hand_index != hand:
            ended = HAND_ENDED
            for s in range(4):
                delta[s] += rec.points[s] - hand_points[s]
                hand_points[s] = rec.points[s]
        if rec.game_over:
            mask[:] = 0
            return GAME_OVER
        count = _legal_mask(st, t, tables, mask)
        if not skip_forced or count != 1:
            return rec.actor | ended
        for a in range(mask.shape[0]):
            if mask[a]:
                action = a
