"""The env's compiled entry points: one Numba call per reset, step and observation.

Each takes the record array and event log of an ``engine.state.State`` (``st``, ``ev``), a table
index and the lookup tables, and calls the engine's kernels (``engine.kernels``) and the
encoders. They are ordinary ``@njit`` functions, cached like every other kernel.
"""

from __future__ import annotations

from engine._numba import njit
from engine.kernels import _apply, _legal_mask, _reset
from riichi_env.encoders import _encode

HAND_ENDED = 4
"""Bit of ``_k_step``'s result: a hand was settled by this action."""
GAME_OVER = -1
"""``_k_reset`` / ``_k_step`` result at game over."""


@njit
def _k_reset(st, t, ev, tables, seed, mask, hand_points):
    """Start a game; the seat to act (its mask in ``mask``), or ``GAME_OVER``."""
    _reset(st, t, ev, tables, seed)
    return _k_refresh(st, t, tables, mask, hand_points)


@njit
def _k_refresh(st, t, tables, mask, hand_points):
    """After the state was loaded from elsewhere: the seat to act and its mask, or ``GAME_OVER``."""
    rec = st[t]
    for s in range(4):
        hand_points[s] = rec.points[s]
    if rec.game_over:
        mask[:] = 0
        return GAME_OVER
    _legal_mask(st, t, tables, mask)
    return rec.actor


@njit
def _k_step(st, t, ev, tables, action, mask, hand_points, delta, skip_forced):
    """Apply a legal ``action``; the next actor (``| HAND_ENDED`` if a hand ended) or ``GAME_OVER``.

    ``delta`` receives each seat's point change over the hands that ended (zeros if none). With
    ``skip_forced``, a following decision with exactly one legal action is applied here too.
    """
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


@njit
def _k_observe(st, t, seat, encoder, tables, out):
    """Encoder ``encoder`` of ``seat`` into ``out``."""
    _encode(st, t, seat, encoder, tables.shanten_suit, tables.shanten_honor, out)
