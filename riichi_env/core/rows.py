"""The dataset's rows: which decisions of the record's seat become rows, and the row's columns.

The replay's decisions (``replay._replay``) ask ``_row_wanted`` at each decision of the record's
seat; at a wanted one ``_write_row`` writes the row's mask and columns into the ``REPLAY`` tuple's
row buffers and counts it, then ``_replay`` calls the encoders for its observations.

``_write_row`` is a kernel of its own, called rather than inlined, calling nothing, one loop and
no branch: so its array arguments cost nothing (Numba's reference-count pruning removes each
argument's incref and decref), where an inlined step, a call inside or a branch dropping an
argument early keeps them, at every row (``docs/internals.md``, "Replay").
"""

from __future__ import annotations

from engine._numba import njit
from riichi_env.core.fields import (
    O_KINDS,
    O_ROWS,
    O_SKIP_FORCED,
    T_REC_HAND,
    T_REC_SEAT_STEP,
    T_REC_SEATS,
    new_tables,
)
from riichi_env.core.record_seat import (
    R_ACTION,
    R_FORCED,
    R_HAND,
    R_KIND,
    R_MASK,
    R_SEAT,
    R_STEP,
    replay_example,
)


@njit(inline="always")
def _row_wanted(ti, t, nb, actor, kind, known, count):
    """Whether the decision of ``actor`` at table ``t`` (``kind``, ``known``, ``count`` legal
    actions) gives a row: a known choice, of a seat in ``rec_seats``, of a kind in ``kinds``,
    not a forced one with ``skip_forced`` (``nb``: the options' row)."""
    if not known or not ti[t, T_REC_SEATS + actor] or not (ti[nb, O_KINDS] >> kind) & 1:
        return False
    return not ti[nb, O_SKIP_FORCED] or count != 1


def _example(x) -> tuple:
    return (replay_example(), new_tables(1)[0], x.i, x.i, x.mask, x.i, x.i, x.i, x.b)


@njit(example=_example)
def _write_row(rp, ti, t, nb, mask, action, seat, kind, forced):
    """Row ``ti[nb, O_ROWS]`` of the record's move at table ``t`` (``action`` of ``seat``, of
    ``kind``, ``forced`` if the only legal one; ``mask`` the legal actions): the mask and the
    columns, ``REPLAY``'s ``mask`` .. ``step``; then one row more."""
    r = ti[nb, O_ROWS]
    out_mask = rp[R_MASK]
    for a in range(mask.shape[0]):  # one loop, no branch: the arguments cost nothing
        out_mask[r, a] = mask[a]
    rp[R_ACTION][r] = action
    rp[R_SEAT][r] = seat
    rp[R_KIND][r] = kind
    rp[R_FORCED][r] = forced
    rp[R_HAND][r] = ti[t, T_REC_HAND]
    rp[R_STEP][r] = ti[t, T_REC_SEAT_STEP + seat]
    ti[nb, O_ROWS] = r + 1
