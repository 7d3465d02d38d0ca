"""The env's own compiled step: one Numba call per ``env.step``.

``_k_step`` takes the record array and event log of an ``engine.state.State`` (``st``, ``ev``), a
table index and the lookup tables, and calls the engine's kernels (``engine.kernels``). Reset,
masks and observations call the engine's and the encoders' kernels directly (``_reset``,
``_legal_mask``, ``_encode``), so the env compiles no second copy of them.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.kernels import ACTION_STREAM, _apply, _choose, _legal_mask, _reset, _rng_seed
from engine.tables import Tables
from engine.validation import SEED_MAX
from riichi_env.aec.encoders import _encode

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


REWARD_HAND = 0
"""``_run_tables`` reward mode: each hand's point change times ``reward_params[0]``."""
REWARD_PLACEMENT = 1
"""At game end only: the final score."""
REWARD_RANK = 2
"""At game end only: ``reward_params[1 + rank]``."""
PYTHON_SEAT = -1
"""``seat_policy`` entry of a seat whose actions come from Python (``actions``)."""
FINISHED = -1
"""``game_index`` of a table that has played all its games."""


@njit
def _run_tables(
    st,
    ev,
    tables_tuple,
    lo,
    hi,
    actions,
    pending,
    masks,
    seats,
    seat_policy,
    rng,
    hand_points,
    delta,
    rewards,
    reward_mode,
    reward_params,
    terms,
    game_index,
    seed_base,
    stride,
    games_end,
    skip_forced,
    need_reset,
    stop_at_game_end,
    encoder,
    suit_table,
    honor_table,
    obs_f,
    obs_u8,
    quant_lo,
    quant_inv,
    final_obs,
    final_i,
    final_f,
    results_i,
    results_f,
    counter,
):
    """Advance tables ``lo .. hi - 1`` until each one waits for a Python seat, or is finished.

    A table with ``pending[t]`` first plays ``actions[t]`` (legal: the caller checked it) for its
    acting seat; then seats whose ``seat_policy[t]`` entry (``int64 (tables, 4)``) is a compiled
    policy (``engine.selfplay``'s ``POLICY_*``) play until a ``PYTHON_SEAT`` must act. ``seats[t]`` is that seat (``FINISHED``
    when the table has no game left), ``masks[t]`` its mask and the observation of encoder
    ``encoder`` is written (``-1``: none) into ``obs_f[t]``, or quantized into ``obs_u8[t]`` when
    ``obs_u8`` has rows. ``rewards[t]`` sums each seat's rewards since this call began.

    A finished game sets ``terms[t]``, writes the acting seat's last view into ``final_obs[t]``
    (when it has rows), its points 0-3, ranks 4-7 and seed 8 into ``final_i[t]`` and final scores
    into ``final_f[t]`` (when they have rows), and its results into row ``game_index[t]`` of
    ``results_i`` (points 0-3, ranks 4-7, hands 8, decisions 9) and ``results_f`` (final scores),
    when they have rows. The
    table then starts game ``game_index[t] + stride`` unless that is
    ``games_end`` or more (seed ``seed_base[t] + index`` modulo 2**63); with ``stop_at_game_end`` it waits instead with ``need_reset[t]`` set
    (its event log still holds the game), and the next call starts it. Returns the decisions
    played.
    """
    tables = Tables(tables_tuple[0], tables_tuple[1])
    played = 0
    for t in range(lo, hi):
        rec = st[t]
        terms[t] = False
        for s in range(4):
            rewards[t, s] = 0.0
        if need_reset[t]:
            need_reset[t] = False
            _next_game(st, t, ev, tables, game_index, seed_base, stride, games_end, rng, masks)
            for s in range(4):
                hand_points[t, s] = rec.points[s]
        if game_index[t] == FINISHED:
            seats[t] = FINISHED
            continue
        if rec.game_over and not pending[t]:
            seats[t] = FINISHED
            continue
        actor = rec.actor
        if pending[t]:
            pending[t] = False
            action = actions[t]
        else:
            action = -1
        while True:
            if action < 0:
                policy = seat_policy[t, actor]
                if policy == PYTHON_SEAT:
                    break
                n = np.int64(0)
                for a in range(masks.shape[1]):
                    n += masks[t, a]
                action = _choose(st, t, tables, masks[t], n, policy, rng[t])
            r = _k_step(
                st, t, ev, tables_tuple, action, masks[t], hand_points[t], delta, skip_forced
            )
            played += 1
            action = -1
            if (r == GAME_OVER or r & HAND_ENDED) and reward_mode == REWARD_HAND:
                for s in range(4):
                    rewards[t, s] += delta[s] * reward_params[0]
            if r != GAME_OVER:
                actor = r & 3
                continue
            # the game is over
            terms[t] = True
            for s in range(4):
                if reward_mode == REWARD_PLACEMENT:
                    rewards[t, s] += rec.final_scores[s]
                elif reward_mode == REWARD_RANK:
                    rewards[t, s] += reward_params[1 + rec.final_ranks[s]]
            if final_obs.shape[0] > 0 and encoder >= 0:
                _encode(st, t, seats[t], encoder, suit_table, honor_table, final_obs[t])
            k = game_index[t]
            if final_i.shape[0] > 0:
                for s in range(4):
                    final_i[t, s] = rec.points[s]
                    final_i[t, 4 + s] = rec.final_ranks[s]
                    final_f[t, s] = rec.final_scores[s]
                final_i[t, 8] = rec.seed
            if results_i.shape[0] > 0:
                for s in range(4):
                    results_i[k, s] = rec.points[s]
                    results_i[k, 4 + s] = rec.final_ranks[s]
                    results_f[k, s] = rec.final_scores[s]
                results_i[k, 8] = rec.hand_index
                results_i[k, 9] = rec.n_decisions
            counter[0] += 1
            if stop_at_game_end:
                need_reset[t] = True
                break
            _next_game(st, t, ev, tables, game_index, seed_base, stride, games_end, rng, masks)
            if game_index[t] == FINISHED:
                break
            for s in range(4):
                hand_points[t, s] = rec.points[s]
            actor = rec.actor
        if game_index[t] == FINISHED or need_reset[t]:
            seats[t] = FINISHED
            continue
        seats[t] = actor
        if encoder >= 0:
            if obs_u8.shape[0] > 0:
                _encode(st, t, actor, encoder, suit_table, honor_table, obs_f[0])
                _quantize(obs_f[0], quant_lo, quant_inv, obs_u8[t])
            else:
                _encode(st, t, actor, encoder, suit_table, honor_table, obs_f[t])
    return played


@njit
def _expert_actions(st, tables_tuple, masks, seats, policy, rng, out):
    """``out[t]``: the action compiled ``policy`` (a ``POLICY_*``) takes for the seat deciding at
    table ``t`` (``seats[t]``, with mask ``masks[t]``); ``-1`` where no seat decides. Nothing is
    played; random policies draw from ``rng[t]`` (the caller's own stream, not the tables')."""
    tables = Tables(tables_tuple[0], tables_tuple[1])
    for t in range(st.shape[0]):
        out[t] = -1
        if seats[t] < 0:  # FINISHED
            continue
        n = np.int64(0)
        for a in range(masks.shape[1]):
            n += masks[t, a]
        if n > 0:
            out[t] = _choose(st, t, tables, masks[t], n, policy, rng[t])


@njit
def _next_game(st, t, ev, tables, game_index, seed_base, stride, games_end, rng, masks):
    """Start table ``t``'s next game (index ``game_index[t] + stride``) or mark it finished."""
    k = game_index[t] + stride
    if k >= games_end:
        game_index[t] = FINISHED
        return
    game_index[t] = k
    _start(st, t, ev, tables, (seed_base[t] + k) & SEED_MAX, rng, masks)


@njit
def _start(st, t, ev, tables, seed, rng, masks):
    """Reset table ``t`` to a new game with ``seed``: its action RNG and the first mask."""
    _rng_seed(rng[t], seed, ACTION_STREAM)
    _reset(st, t, ev, tables, seed)
    _legal_mask(st, t, tables, masks[t])


@njit
def _start_tables(st, ev, tables_tuple, lo, hi, game_index, seed_base, rng, masks, hand_points):
    """Start game ``game_index[t]`` on each table ``lo .. hi - 1`` (``FINISHED`` ones are left)."""
    tables = Tables(tables_tuple[0], tables_tuple[1])
    for t in range(lo, hi):
        if game_index[t] != FINISHED:
            _start(st, t, ev, tables, (seed_base[t] + game_index[t]) & SEED_MAX, rng, masks)
        for s in range(4):
            hand_points[t, s] = st[t].points[s]


@njit(fastmath=True)
def _quantize(x, lo, inv, out):
    """``out = round((x - lo) * inv)``, the byte form of a float observation (0 .. 255).

    ``fastmath`` lets the clamp and the conversion vectorize (2.3x faster; values are finite).
    """
    zero = np.float32(0.0)
    top = np.float32(255.0)
    for r in range(x.shape[0]):
        a = inv[r]
        b = np.float32(0.5) - lo[r] * inv[r]
        row = x[r]
        dest = out[r]
        for c in range(row.shape[0]):
            dest[c] = np.uint8(np.int32(min(max(row[c] * a + b, zero), top)))
