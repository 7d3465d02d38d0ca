"""A dataset row, written by a kernel of its own at a record seat's decision.

The replay kernel (``riichi_env.core.runner._run_replay``) plays a record through the runner's
loop; at each decision the record's seat (``riichi_env.core.record_seat``) knows, of a seat the
caller asked for and a kind it wants, ``_write_row`` writes row ``ti[B, O_ROWS]`` of the
``REPLAY`` buffers: the encoder's observation (float or bytes; with a record that shows wall
tiles, the oracle encoder's wall rows), the oracle's observation (option ``oracle``), the mask,
the recorded action and the columns (seat, kind, forced, hand, step), then counts the row.

The buffers are ``ROW_BUFFERS``, a tuple the runner takes out of the ``REPLAY`` tuple once a
call (``row_buffers``). ``_write_row`` is inlined where the replay calls it
(``inline="always"``): a call of a compiled function reference-counts each array it is passed
at its entry, some 30 counts a row, which cost the conversion 5-8 % as a kernel called apart.
``_quantize`` (the byte form of a float observation) is the runner's too.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import N_ACTIONS
from riichi_env.core.encoders import _encode, _known_wall_rows
from riichi_env.core.fields import (
    O_ENCODER,
    O_KINDS,
    O_ORACLE,
    O_ROWS,
    O_SKIP_FORCED,
    QUANT_INV,
    QUANT_LO,
    T_REC_HAND,
    T_REC_KNOWN,
    T_REC_SEAT_STEP,
    T_REC_SEATS,
)
from riichi_env.core.record_seat import (
    R_ACTION,
    R_FORCED,
    R_HAND,
    R_KIND,
    R_KNOWN,
    R_MASK,
    R_OBS,
    R_OBS_U8,
    R_ORACLE,
    R_ORACLE_SCRATCH,
    R_ORACLE_U8,
    R_SCRATCH,
    R_SEAT,
    R_STEP,
)

ROW_BUFFERS = (
    "known",
    "scratch",
    "oracle_scratch",
    "obs",
    "obs_u8",
    "oracle",
    "oracle_u8",
    "mask",
    "action",
    "seat",
    "kind",
    "forced",
    "hand",
    "step",
)
"""The ``REPLAY`` arrays ``_write_row`` reads or writes, in the order of its ``rows`` tuple."""
(
    W_KNOWN,
    W_SCRATCH,
    W_ORACLE_SCRATCH,
    W_OBS,
    W_OBS_U8,
    W_ORACLE,
    W_ORACLE_U8,
    W_MASK,
    W_ACTION,
    W_SEAT,
    W_KIND,
    W_FORCED,
    W_HAND,
    W_STEP,
) = range(len(ROW_BUFFERS))


@njit(inline="always")
def row_buffers(rp):
    """The ``ROW_BUFFERS`` of the ``REPLAY`` tuple ``rp``, a tuple (once a call)."""
    return (
        rp[R_KNOWN],
        rp[R_SCRATCH],
        rp[R_ORACLE_SCRATCH],
        rp[R_OBS],
        rp[R_OBS_U8],
        rp[R_ORACLE],
        rp[R_ORACLE_U8],
        rp[R_MASK],
        rp[R_ACTION],
        rp[R_SEAT],
        rp[R_KIND],
        rp[R_FORCED],
        rp[R_HAND],
        rp[R_STEP],
    )


@njit(inline="always")
def _row_wanted(ti, t, nb, actor, kind, known, count):
    """Whether the decision of ``actor`` at table ``t`` (``kind``, ``known``, ``count`` legal
    actions) gives a row: a known choice, of a seat in ``rec_seats``, of a kind in ``kinds``,
    not a forced one with ``skip_forced`` (``nb``: the options' row)."""
    if not known or not ti[t, T_REC_SEATS + actor] or not (ti[nb, O_KINDS] >> kind) & 1:
        return False
    return not ti[nb, O_SKIP_FORCED] or count != 1


@njit(inline="always")
def _write_row(st, t, actor, action, kind, count, ti, suit, honor, mask, rows):
    """Write row ``ti[B, O_ROWS]`` at table ``t``'s decision (``actor`` plays ``action`` of kind
    ``kind``; ``count`` legal actions in ``mask``; ``suit`` and ``honor`` the shanten tables;
    ``rows`` the ``ROW_BUFFERS``) and count it. The caller checked there is room."""
    nb = ti.shape[0] - 1
    r = ti[nb, O_ROWS]
    enc = ti[nb, O_ENCODER]
    h = ti[t, T_REC_HAND]
    shown = ti[t, T_REC_KNOWN]  # the record shows wall tiles: an oracle encoder's wall rows
    known_walls, scratch, orc_scratch = rows[W_KNOWN], rows[W_SCRATCH], rows[W_ORACLE_SCRATCH]
    obs, obs_u8, orc, orc_u8 = rows[W_OBS], rows[W_OBS_U8], rows[W_ORACLE], rows[W_ORACLE_U8]
    if enc < 0:  # no observation: a row count (the dataset's check)
        pass
    elif obs_u8.shape[0] > 0:  # bytes: through a float scratch row
        _encode(st, t, actor, enc, suit, honor, scratch)
        if shown:
            _known_wall_rows(st, t, enc, known_walls[h], scratch)
        n = scratch.shape[0]
        _quantize(scratch, QUANT_LO[enc, :n], QUANT_INV[enc, :n], obs_u8[r])
    else:
        _encode(st, t, actor, enc, suit, honor, obs[r])
        if shown:
            _known_wall_rows(st, t, enc, known_walls[h], obs[r])
    oracle_id = ti[nb, O_ORACLE]  # the oracle encoder's id (never 0)
    if oracle_id:
        _encode(st, t, actor, oracle_id, suit, honor, orc_scratch)
        if shown:
            _known_wall_rows(st, t, oracle_id, known_walls[h], orc_scratch)
        if orc_u8.shape[0] > 0:
            n = orc_scratch.shape[0]
            _quantize(orc_scratch, QUANT_LO[oracle_id, :n], QUANT_INV[oracle_id, :n], orc_u8[r])
        else:
            orc[r, :, :] = orc_scratch
    out_mask = rows[W_MASK]
    if mask.shape[0] == N_ACTIONS:  # a constant count: vector moves
        for a in range(N_ACTIONS):
            out_mask[r, a] = mask[a]
    else:
        for a in range(mask.shape[0]):
            out_mask[r, a] = mask[a]
    rows[W_ACTION][r] = action
    rows[W_SEAT][r] = actor
    rows[W_KIND][r] = kind
    rows[W_FORCED][r] = count == 1
    rows[W_HAND][r] = h
    rows[W_STEP][r] = ti[t, T_REC_SEAT_STEP + actor]
    ti[nb, O_ROWS] = r + 1


@njit(fastmath=True)
def _quantize(x, lo, inv, out):
    """``out = round((x - lo) * inv)``, the byte form of a float observation (0 .. 255; rows of
    34 columns, ``lo`` and ``inv`` by row).

    ``fastmath`` lets the clamp and the conversion vectorize (2.3x faster; values are finite);
    the columns' count a constant spares each row the loop's run-time checks (1.45x).
    """
    zero = np.float32(0.0)
    top = np.float32(255.0)
    for r in range(x.shape[0]):
        a = inv[r]
        b = np.float32(0.5) - lo[r] * inv[r]
        for c in range(34):
            out[r, c] = np.uint8(np.int32(min(max(x[r, c] * a + b, zero), top)))
