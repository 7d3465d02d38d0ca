"""The env's entry points, one Numba call per reset, step and observation (plain source here).

Each takes the state buffer of ``riichi_env._state_buffer`` (not the ``State`` tuple, whose ~60
arrays cost microseconds to pass) and the lookup tables as a plain tuple, and calls the engine's
kernels (``engine.game._reset``, ``_apply``, ``_legal_mask``) on the rebuilt state.

This file is not imported as kernels: ``riichi_env._kernels`` copies it, with the generated
``state_view``, into one cached module and compiles that (see there). Functions are therefore
undecorated, and ``state_view`` below is a placeholder the generated module overrides.
"""

from __future__ import annotations

from engine.game import _apply, _legal_mask, _reset
from engine.state import DORA_START, RIVER_CALLED
from engine.tables import Tables
from riichi_env.encoders import _encode

HAND_ENDED = 4
"""Bit of ``_k_step``'s result: a hand was settled by this action."""
GAME_OVER = -1
"""``_k_reset`` / ``_k_step`` result at game over."""
KERNELS = ("_k_reset", "_k_refresh", "_k_step", "_k_observe", "_k_visible")
"""The functions compiled by ``riichi_env._kernels``."""

state_view = None
"""Placeholder: ``state_view(buf, n, e) -> State`` (generated kernel, or ``views`` without JIT)."""


def _k_reset(buf, n, e, t, seed, tables_tuple, mask, hand_points):
    """Start a game; the seat to act (its mask in ``mask``), or ``GAME_OVER``."""
    st = state_view(buf, n, e)
    tables = Tables(*tables_tuple)
    _reset(st, tables, t, seed)
    for s in range(4):
        hand_points[s] = st.points[t, s]
    if st.game_over[t]:
        mask[:] = 0
        return GAME_OVER
    _legal_mask(st, tables, t, mask)
    return st.actor[t]


def _k_refresh(buf, n, e, t, tables_tuple, mask, hand_points):
    """After the state was loaded from elsewhere: the seat to act and its mask, or ``GAME_OVER``."""
    st = state_view(buf, n, e)
    tables = Tables(*tables_tuple)
    for s in range(4):
        hand_points[s] = st.points[t, s]
    if st.game_over[t]:
        mask[:] = 0
        return GAME_OVER
    _legal_mask(st, tables, t, mask)
    return st.actor[t]


def _k_step(buf, n, e, t, action, tables_tuple, mask, hand_points, delta, skip_forced):
    """Apply a legal ``action``; the next actor (``| HAND_ENDED`` if a hand ended) or ``GAME_OVER``.

    ``delta`` receives each seat's point change over the hands that ended (zeros if none). With
    ``skip_forced``, a following decision with exactly one legal action is applied here too.
    """
    st = state_view(buf, n, e)
    tables = Tables(*tables_tuple)
    ended = 0
    for s in range(4):
        delta[s] = 0
    while True:
        hand = st.hand_index[t]
        _apply(st, tables, t, action)
        if st.game_over[t] or st.hand_index[t] != hand:
            ended = HAND_ENDED
            for s in range(4):
                delta[s] += st.points[t, s] - hand_points[s]
                hand_points[s] = st.points[t, s]
        if st.game_over[t]:
            mask[:] = 0
            return GAME_OVER
        count = _legal_mask(st, tables, t, mask)
        if not skip_forced or count != 1:
            return st.actor[t] | ended
        for a in range(mask.shape[0]):
            if mask[a]:
                action = a


def _k_observe(buf, n, e, t, seat, encoder, tables_tuple, out):
    """Encoder ``encoder`` of ``seat`` into ``out``."""
    st = state_view(buf, n, e)
    _encode(st, t, seat, encoder, tables_tuple[0], tables_tuple[1], out)


def _k_visible(buf, n, e, t, seat, out):
    """Tiles ``seat`` sees outside its concealed hand (rivers, melds, dora indicators) per kind."""
    st = state_view(buf, n, e)
    out[:] = 0
    for s in range(4):
        for m in range(st.n_melds[t, s]):
            for j in range(4):
                tile = st.meld_tiles[t, s, m, j]
                if tile >= 0:
                    out[tile // 4] += 1
        for i in range(st.n_river[t, s]):
            if not st.river_flags[t, s, i] & RIVER_CALLED:
                out[st.river[t, s, i] // 4] += 1
    for d in range(st.n_dora[t]):
        out[st.wall[t, DORA_START + d] // 4] += 1
    for k in range(34):
        limit = 4 - st.closed34[t, seat, k]
        if out[k] > limit:
            out[k] = limit
