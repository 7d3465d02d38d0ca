"""The replay's decisions at a table: the record's seat plays its moves, and the wanted ones
become rows.

The runner's replay kernel (``runner._run_replay``) calls ``_replay`` once a table, after the
deal: the table then plays its record's hands to the end (or until the rows are full). An
inlined step that calls kernels keeps a reference count per array argument; once a table, for a
whole record, that costs nothing measurable, where the play kernels, a call per decision, keep
their decisions in the runner's body (docs/internals.md, "One runner").
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.kernels import _apply, _legal_mask
from riichi_env.core.encoders import _encode, _known_wall_rows
from riichi_env.core.fields import (
    FINISHED,
    O_ENCODER,
    O_ORACLE,
    O_ROWS,
    T_GAME_INDEX,
    T_REC_HAND,
    T_REC_KNOWN,
    T_REC_SEAT_STEP,
    T_REC_STEP,
)
from riichi_env.core.record_seat import (
    R_ACTION,
    R_KNOWN,
    R_OBS,
    R_OBS_U8,
    R_ORACLE,
    R_ORACLE_SCRATCH,
    R_ORACLE_U8,
    R_RED,
    R_SCRIPT,
    _end_recorded,
    _kind_of,
    _leave_record,
    _record_move,
    _rows_full,
)
from riichi_env.core.rows import _row_wanted, _write_row


@njit(inline="always")
def _replay(st, ev, tables, ti, t, nb, mask, rp, action, count):
    """Table ``t``'s decisions from its deal (``mask``: its ``count`` legal actions): the
    record's seat's moves (``_record_move``; a hand that leaves the record, ``_leave_record``),
    each through ``_apply``; at a wanted one (``_row_wanted``) its row, the columns
    (``_write_row``) then the observations; at a hand's end the record deals the next
    (``_end_recorded``), whatever the engine's rules say. Until the table's last hand or full
    rows (``_rows_full``); returns the moves played."""
    rec = st[t]
    script, red = rp[R_SCRIPT], rp[R_RED]
    shown, orc_scratch = rp[R_KNOWN], rp[R_ORACLE_SCRATCH]  # wall places the record shows
    obs_rows, obs_u8_rows = rp[R_OBS], rp[R_OBS_U8]  # the observations: float or bytes
    orc, orc_u8 = rp[R_ORACLE], rp[R_ORACLE_U8]  # the oracle's (option ``oracle``)
    capacity = rp[R_ACTION].shape[0]
    actor = np.int64(rec.actor)
    played = 0
    while True:
        if action < 0:  # the record's seat: its move, maybe a row
            action, known, left, err_row = _record_move(st, t, ti, mask, script, red)
            if action < 0:  # the hand left the record: on to the next
                count = _leave_record(st, t, ev, tables, ti, ti[nb], mask, rp, left, err_row)
                if ti[t, T_GAME_INDEX] == FINISHED:
                    break
                actor = np.int64(rec.actor)
                continue
            kind = _kind_of(st, t, action)
            if _row_wanted(ti, t, nb, actor, kind, known, count):
                if ti[nb, O_ROWS] >= capacity:
                    _rows_full(ti, t, ti[nb])
                    break
                _write_row(rp, ti, t, nb, mask, action, actor, kind, count == 1)
                r = ti[nb, O_ROWS] - 1  # the row just counted: its observations
                enc, orc_id = ti[nb, O_ENCODER], ti[nb, O_ORACLE]  # -1 / 0: none
                if enc >= 0 and obs_u8_rows.shape[0] > 0:  # bytes, by the encoder
                    _encode_row(st, t, tables, actor, enc, ti, shown, obs_u8_rows[r])
                elif enc >= 0:
                    _encode_row(st, t, tables, actor, enc, ti, shown, obs_rows[r])
                if orc_id and orc_u8.shape[0] > 0:  # the oracle encoder's
                    _encode_row(st, t, tables, actor, orc_id, ti, shown, orc_u8[r])
                elif orc_id:
                    _encode_row(st, t, tables, actor, orc_id, ti, shown, orc_scratch)
                    orc[r, :, :] = orc_scratch
        hand = rec.hand_index
        _apply(st, t, ev, tables, action)
        played += 1
        action = -1
        _count_decision(ti, t, actor)
        if rec.game_over or rec.hand_index != hand:  # the record deals the next hand
            count = _end_recorded(st, t, ev, tables, ti, ti[nb], mask, rp, True)
            if ti[t, T_GAME_INDEX] == FINISHED:
                break
        else:
            count = _legal_mask(st, t, tables, mask)
        actor = np.int64(rec.actor)
    return played


@njit(inline="always")
def _count_decision(ti, t, actor):
    """The replay's decision counters: the hand's, and the seat's own (its rows' ``step``)."""
    ti[t, T_REC_STEP] += 1
    ti[t, T_REC_SEAT_STEP + actor] += 1


@njit(inline="always")
def _encode_row(st, t, tables, seat, enc, ti, revealed, out):
    """The replay's observation of ``seat`` under encoder ``enc`` into ``out`` (float32 or uint8
    rows): with ``rec_known``, an oracle encoder's wall rows show only the places the record
    reveals (``revealed``, ``REPLAY``'s ``known``, at the hand in play)."""
    _encode(st, t, seat, enc, tables.shanten_suit, tables.shanten_honor, out)
    if ti[t, T_REC_KNOWN]:
        _known_wall_rows(st, t, enc, revealed[ti[t, T_REC_HAND]], out)
