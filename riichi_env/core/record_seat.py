"""The record's seat: the runner's replay mode (``_run_replay``) plays a game record's moves.

A table of the replay deals each hand of a packed record (``riichi_env.dataset.pack``) from its
wall and plays its script (the record's discards, riichi, calls and kans; draws are the
engine's own) through the runner's loop: where a seat of a compiled policy would choose, the
record's seat reads the next move (``_record_move``). Claims the record does not make are
passed; a pass is a known choice only when ``_pass_known`` says so. A hand whose recorded move is
not in the mask, or whose play leaves the record, ends with a status (``HAND_*``) and the next
hand is dealt from the record again (``_end_recorded``). The runner writes a row at each chosen
decision; when the rows are full it stops and the caller grows them and calls again from the
hand it stopped in (``_rows_full``).

The record and the rows are the replay kernel's last argument, the tuple ``REPLAY`` declares;
the seat's state between decisions is in the table's ``rec_*`` fields (``fields.TABLE_INTS``).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import (
    CHI_HIGH,
    CHI_HIGH_PLAIN,
    CHI_LOW,
    CHI_LOW_PLAIN,
    DISCARD,
    DISCARD_RED,
    KAN,
    KITA,
    KYUUSHU,
    N_ACTIONS,
    OPEN_RIICHI,
    PASS,
    PLAIN_OFFSET,
    PON,
    PON_PLAIN,
    RIICHI,
    RON,
    TSUMO,
)
from engine.kernels import _continue_at, _legal_mask
from engine.state import (
    CLAIM_BIT_KAN,
    CLAIM_BIT_PON,
    CLAIM_BIT_RON,
    CLAIM_BITS_CHI,
    PHASE_CLAIM,
)
from riichi_env.core.encoders import N_ROWS
from riichi_env.core.fields import (
    FINISHED,
    O_ROWS,
    O_ROWS_FULL,
    T_GAME_INDEX,
    T_REC_CLAIMER,
    T_REC_END,
    T_REC_FINISHED,
    T_REC_HAND,
    T_REC_HAND_END,
    T_REC_HAND_ROWS,
    T_REC_HAND_SEAT_STEP,
    T_REC_HAND_STEP,
    T_REC_KYUSHU,
    T_REC_RON,
    T_REC_ROW,
    T_REC_SANCHAHOU,
    T_REC_SEAT_STEP,
    T_REC_STEP,
    T_REC_TAKEN,
    T_REC_TSUMO,
    T_START,
)

KINDS = (
    "discard",
    "riichi",
    "tsumo",
    "ron",
    "chi",
    "pon",
    "daiminkan",
    "ankan",
    "kakan",
    "kyushu",
    "pass",
    "kita",
)
"""Decision kinds, by id (the ``kind`` column): what the recorded action was (``kita``: three
players only; the ids of the others are those of the four-player dataset)."""
K_DISCARD, K_RIICHI, K_TSUMO, K_RON, K_CHI, K_PON, K_DAIMINKAN, K_ANKAN, K_KAKAN = range(9)
K_KYUSHU, K_PASS, K_KITA = 9, 10, 11

SCRIPT_CODES = ("discard", "riichi", "chi", "pon", "daiminkan", "ankan", "kakan", "kita")
"""The record's moves a script row holds, by code (``S_*``): the ``Event.type`` of each."""
S_DISCARD, S_RIICHI, S_CHI, S_PON, S_DAIMINKAN, S_ANKAN, S_KAKAN, S_KITA = range(len(SCRIPT_CODES))
SCRIPT_WIDTH = 6
"""Columns of a script row: code ``S_*``, seat, tile136, the seat called from, an auxiliary
tile136 (the lowest tile of a chi, the first consumed tile of a kan), 1 if a red five is among
the consumed tiles."""

HAND_OK = 0
"""The engine played the record's hand to its end and its point changes match."""
HAND_ILLEGAL = 1
"""A recorded move was not in the engine's mask (``err[h]``: the script row, -1 for the end)."""
HAND_DESYNC = 2
"""The record and the engine parted: another seat's move, or the hand ended early or late."""
HAND_OUTCOME = 3
"""The hand ended where the record's does but the point changes differ."""
HAND_UNFINISHED = 4
"""The record stops inside this hand (a game still running): rows kept, no outcome."""
HAND_TOO_LONG = 5
"""More than ``MAX_HAND_STEPS`` decisions."""
MAX_HAND_STEPS = 2000
"""Decisions in one hand beyond which the replay gives up on it (a real hand has under 300)."""

REPLAY: tuple[tuple[str, str, str], ...] = (
    # the record (H hands of the tables' records, one after the other)
    ("walls", "int32 (H, 136)", "each hand's wall (``engine.wall`` layout)"),
    ("known", "uint8 (H, 136)", "1 where the record shows a wall tile (oracle rows)"),
    ("starts", "int32 (H, 7)", "round wind, dealer and honba... of each hand: ``PackedGame``"),
    ("script", f"int32 (S, {SCRIPT_WIDTH})", "the recorded moves (``SCRIPT_WIDTH`` columns)"),
    ("script_lo", "int32 (H + 1)", "hand h's moves are script rows lo[h] .. lo[h + 1] - 1"),
    ("ends", "int32 (H, 4)", "each hand's end: tsumo seat, kyuushu, ron seats' bits, sanchahou"),
    ("rec_deltas", "int32 (H, 4)", "each hand's recorded point changes"),
    ("finished", "uint8 (H)", "1 if the record shows the hand's end"),
    ("red", "uint8 (136)", "1 for a red five's tile136"),
    # scratch
    (
        "oracle_scratch",
        "float32 (184 or 148, 34)",
        "one oracle observation (oracle_v0, oracle3_v0)",
    ),
    # the rows (R of them; the float or the byte buffers have no rows)
    ("obs", "float32 (R, rows, 34)", "the encoder's observation"),
    ("obs_u8", "uint8 (R, rows, 34)", "the same in bytes (the encoder's ``bounds``)"),
    ("oracle", "float32 (R, 184, 34)", "the oracle's observation (option ``oracle``)"),
    ("oracle_u8", "uint8 (R, 184, 34)", "the same in bytes"),
    ("mask", "int8 (R, N_ACTIONS)", "the legal actions"),
    ("action", "int16 (R)", "the recorded action"),
    ("seat", "int8 (R)", "the seat to act"),
    ("kind", "int8 (R)", "``KINDS`` id of the action"),
    ("forced", "bool (R)", "the decision had one legal action"),
    ("hand", "int16 (R)", "the hand (row of the record arrays)"),
    ("step", "int32 (R)", "the deciding seat's decisions played in the record before this one"),
    # each hand's outcome
    ("status", "int32 (H)", "``HAND_*``"),
    ("err", "int32 (H)", "the script row that failed, -1"),
    ("deltas", "int32 (H, 4)", "the engine's point changes"),
    ("hand_rows", "int32 (H)", "rows written when the hand was done (exclusive end)"),
)
"""The replay kernel's last argument, a tuple in this order: (name, dtype and shape, meaning)."""
(R_WALLS, R_KNOWN, R_STARTS, R_SCRIPT, R_SCRIPT_LO, R_ENDS, R_REC_DELTAS, R_FINISHED, R_RED) = (
    range(9)
)
R_ORACLE_SCRATCH, R_OBS, R_OBS_U8, R_ORACLE, R_ORACLE_U8 = range(9, 14)
R_MASK, R_ACTION, R_SEAT, R_KIND, R_FORCED, R_HAND, R_STEP = range(14, 21)
R_STATUS, R_ERR, R_DELTAS, R_HAND_ROWS = range(21, 25)
if len(REPLAY) - 1 != R_HAND_ROWS:
    raise ImportError("the R_* indices must follow REPLAY")


def replay_example() -> tuple:
    """A ``REPLAY`` tuple of a record of no hands and no rows, of the types
    ``riichi_env.dataset.convert.Converter`` passes (every option gives the same types: the
    unused float or byte buffers have no rows)."""
    i32, u8, f32 = np.int32, np.uint8, np.float32
    rows = max(N_ROWS.values())
    floats = np.zeros((0, rows, 34), f32)
    byte_rows = np.zeros((0, rows, 34), u8)
    record = (
        np.zeros((0, 136), i32),  # walls
        np.zeros((0, 136), u8),  # known
        np.zeros((0, 7), i32),  # starts
        np.zeros((0, SCRIPT_WIDTH), i32),  # script
        np.zeros(1, i32),  # script_lo
        np.zeros((0, 4), i32),  # ends
        np.zeros((0, 4), i32),  # rec_deltas
        np.zeros(0, u8),  # finished
        np.zeros(136, u8),  # red
    )
    rows_ = (
        np.zeros((rows, 34), f32),  # oracle_scratch
        floats,  # obs
        byte_rows,  # obs_u8
        floats,  # oracle
        byte_rows,  # oracle_u8
        np.zeros((0, N_ACTIONS), np.int8),  # mask
        np.zeros(0, np.int16),  # action
        np.zeros(0, np.int8),  # seat
        np.zeros(0, np.int8),  # kind
        np.zeros(0, np.bool_),  # forced
        np.zeros(0, np.int16),  # hand
        np.zeros(0, i32),  # step
        np.zeros(0, i32),  # status
        np.zeros(0, i32),  # err
        np.zeros((0, 4), i32),  # deltas
        np.zeros(0, i32),  # hand_rows
    )
    return record + rows_


@njit(inline="always")
def _kind_of(st, t, action):
    """The ``K_*`` kind of a legal ``action`` of the seat to act."""
    rec = st[t]
    if action < RIICHI:
        return K_DISCARD
    if action in (RIICHI, OPEN_RIICHI):
        return K_RIICHI
    if action == TSUMO:
        return K_TSUMO
    if action == RON:
        return K_RON
    if CHI_LOW <= action <= CHI_HIGH or CHI_LOW_PLAIN <= action <= CHI_HIGH_PLAIN:
        return K_CHI
    if action in (PON, PON_PLAIN):
        return K_PON
    if action == KYUUSHU:
        return K_KYUSHU
    if action == PASS:
        return K_PASS
    if action == KITA:  # after the frequent kinds: a kan (rare) pays the one comparison
        return K_KITA
    if rec.phase == PHASE_CLAIM:
        return K_DAIMINKAN
    if rec.closed34[rec.actor, action - KAN] == 4:
        return K_ANKAN
    return K_KAKAN


@njit(inline="always")
def _lowest(bits):
    """The lowest claim in ``CLAIM_BIT_*`` ``bits``: 1 chi, 2 pon or kan, 3 ron, 0 none."""
    if bits & CLAIM_BITS_CHI:
        return 1
    if bits & (CLAIM_BIT_PON | CLAIM_BIT_KAN):
        return 2
    if bits & CLAIM_BIT_RON:
        return 3
    return 0


@njit(inline="always")
def _pass_known(offered_bits, taken):
    """Whether a seat that the record shows declining an offer really chose to pass, given the
    claim the record shows taken on that tile (``taken``: 0 nobody, 1 chi, 2 pon or kan, 3 ron).

    Nobody claimed: every asked seat passed. Another seat's claim was taken: the seat did not
    choose anything that would have beaten it or been recorded beside it (a higher claim, or a
    second ron), but it may have asked for a call that lost (a pon or chi under a ron, a chi under
    a pon). Its pass is known only when every option it had would have shown: its lowest option
    ranks at least as high as the claim taken. Otherwise its choice is unknown: no row.
    """
    return taken == 0 or _lowest(offered_bits) >= taken


@njit(inline="always")
def _script_action(code, tile, aux, red_tile):
    """The action id of a script row (code ``S_*``, its tile136 and auxiliary tile136; a turn
    move or a call by the seat asked; ``red_tile``: the tile is a red five), a pon or chi with
    its red five (the caller makes it the plain one when the call uses no red five and the
    plain one is legal). Scalars only: an array
    argument costs a reference count per call."""
    k = tile // 4
    if code == S_DISCARD:
        if red_tile:
            return DISCARD_RED + k // 9
        return DISCARD + k
    if code == S_RIICHI:
        return RIICHI
    if code in (S_ANKAN, S_KAKAN):
        return KAN + aux // 4
    if code == S_DAIMINKAN:
        return KAN + k
    if code == S_KITA:
        return KITA
    if code == S_PON:
        return PON
    return CHI_LOW + (k - min(k, aux // 4))


@njit(inline="always")  # two arrays only: an array argument is reference-counted per call
def _record_move(st, t, ti, mask, script, red):
    """``(action, known, status, err)``: the record's move at table ``t``'s decision (``mask``
    its legal actions; ``script`` and ``red`` the ``REPLAY`` arrays; the hand's end in the
    table's ``rec_*`` fields) and whether it is the seat's known choice (a pass may not be);
    ``status`` ``HAND_OK``, or the ``HAND_*`` of a hand that leaves the record here (action -1;
    ``err`` the script row that failed)."""
    rec = st[t]
    end = ti[t, T_REC_END]
    i = ti[t, T_REC_ROW]
    if ti[t, T_REC_STEP] - ti[t, T_REC_HAND_STEP] >= MAX_HAND_STEPS:
        return -1, False, HAND_TOO_LONG, -1
    actor = rec.actor
    action = -1
    known = True
    if rec.phase == PHASE_CLAIM:
        if i >= end and not ti[t, T_REC_FINISHED]:
            # the record stops before anyone answered this offer: every choice on it is unknown
            return -1, False, HAND_UNFINISHED, end
        if rec.claim_pos == 0:  # a new offer: what does the record take on it?
            taken = 0
            claimer = -1
            if i < end:
                code = script[i, 0]
                if (
                    (code in (S_CHI, S_PON, S_DAIMINKAN))
                    and script[i, 3] == rec.claim_from
                    and script[i, 2] // 4 == rec.claim_tile // 4
                ):
                    taken = 1 if code == S_CHI else 2
                    claimer = script[i, 1]
            elif ti[t, T_REC_RON] != 0 or ti[t, T_REC_SANCHAHOU]:
                taken = 3
            ti[t, T_REC_TAKEN] = taken
            ti[t, T_REC_CLAIMER] = claimer
        taken = ti[t, T_REC_TAKEN]
        if taken in (1, 2) and actor == ti[t, T_REC_CLAIMER]:
            code = script[i, 0]
            action = _script_action(code, script[i, 2], script[i, 4], red[script[i, 2]])
            # the plain pon or chi when the call uses no red five and the plain one is legal
            if code in (S_PON, S_CHI) and script[i, 5] == 0 and mask[action + PLAIN_OFFSET]:
                action += PLAIN_OFFSET
            i += 1
        elif taken == 3 and (
            (ti[t, T_REC_RON] >> actor) & 1 or (ti[t, T_REC_SANCHAHOU] and mask[RON])
        ):
            action = RON
        else:
            action = PASS
            known = _pass_known(rec.claim_mask[actor], taken)
    else:
        if i < end:
            if script[i, 1] != actor or script[i, 0] in (S_CHI, S_PON, S_DAIMINKAN):
                return -1, False, HAND_DESYNC, i
            # a turn move (a discard, riichi or a kan: never a pon or chi)
            action = _script_action(script[i, 0], script[i, 2], script[i, 4], red[script[i, 2]])
            i += 1
        elif ti[t, T_REC_TSUMO] == actor:
            action = TSUMO
        elif ti[t, T_REC_KYUSHU]:
            action = KYUUSHU
        else:
            return -1, False, HAND_DESYNC if ti[t, T_REC_FINISHED] else HAND_UNFINISHED, end
    ti[t, T_REC_ROW] = i
    if not mask[action]:
        return -1, False, HAND_ILLEGAL, i - 1 if action not in (PASS, RON, TSUMO, KYUUSHU) else i
    return action, known, HAND_OK, -1


@njit(inline="always")
def _deal_recorded(st, t, ev, tables, ti, oi, mask, rp):
    """Deal table ``t``'s hand ``rec_hand`` from the record (``FINISHED`` past its last hand);
    the first decision's legal actions (-1: none)."""
    h = ti[t, T_REC_HAND]
    if h >= ti[t, T_REC_HAND_END]:
        ti[t, T_GAME_INDEX] = FINISHED
        return np.int64(-1)
    starts = rp[R_STARTS]
    points = np.empty(4, dtype=np.int32)
    for s in range(4):
        points[s] = starts[h, 3 + s]
    _continue_at(
        st, t, ev, tables, rp[R_WALLS][h], starts[h, 0], starts[h, 1], starts[h, 2], points, True
    )
    ti[t, T_REC_ROW] = rp[R_SCRIPT_LO][h]
    ti[t, T_REC_END] = rp[R_SCRIPT_LO][h + 1]
    ends = rp[R_ENDS]
    ti[t, T_REC_TSUMO] = ends[h, 0]
    ti[t, T_REC_KYUSHU] = ends[h, 1]
    ti[t, T_REC_RON] = ends[h, 2]
    ti[t, T_REC_SANCHAHOU] = ends[h, 3]
    ti[t, T_REC_FINISHED] = rp[R_FINISHED][h]
    ti[t, T_REC_TAKEN] = 0
    ti[t, T_REC_CLAIMER] = -1
    ti[t, T_REC_HAND_ROWS] = oi[O_ROWS]
    ti[t, T_REC_HAND_STEP] = ti[t, T_REC_STEP]
    for s in range(4):
        ti[t, T_REC_HAND_SEAT_STEP + s] = ti[t, T_REC_SEAT_STEP + s]
    rp[R_STATUS][h] = HAND_OK
    rp[R_ERR][h] = -1
    return _legal_mask(st, t, tables, mask)


@njit(inline="always")
def _end_recorded(st, t, ev, tables, ti, oi, mask, rp, played_out):
    """Table ``t``'s hand is over: ``played_out`` (the engine ended it; else it left the record,
    its status set): its status, point changes and rows; then deal the next hand (the legal
    actions of its first decision, -1: none)."""
    rec = st[t]
    h = ti[t, T_REC_HAND]
    status = rp[R_STATUS]
    if played_out and ti[t, T_REC_ROW] < rp[R_SCRIPT_LO][h + 1]:
        status[h] = HAND_DESYNC
        rp[R_ERR][h] = ti[t, T_REC_ROW]
    for s in range(4):
        rp[R_DELTAS][h, s] = rec.last_delta[s]
    if status[h] == HAND_OK:
        for s in range(4):
            if rec.last_delta[s] != rp[R_REC_DELTAS][h, s]:
                status[h] = HAND_OUTCOME
    if status[h] != HAND_OK and status[h] != HAND_UNFINISHED:
        oi[O_ROWS] = ti[t, T_REC_HAND_ROWS]  # a hand that left the record gives no rows
    rp[R_HAND_ROWS][h] = oi[O_ROWS]
    ti[t, T_REC_HAND] = h + 1
    return _deal_recorded(st, t, ev, tables, ti, oi, mask, rp)


@njit(inline="always")
def _leave_record(st, t, ev, tables, ti, oi, mask, rp, status, err):
    """Table ``t``'s hand left the record (``status`` ``HAND_*``, ``err`` the script row that
    failed): its status, then on to the next hand (``_end_recorded``)."""
    h = ti[t, T_REC_HAND]
    rp[R_STATUS][h] = status
    rp[R_ERR][h] = err
    return _end_recorded(st, t, ev, tables, ti, oi, mask, rp, False)


@njit(inline="always")
def _rows_full(ti, t, oi):
    """The rows are full inside table ``t``'s hand: drop its rows and deal it again next call."""
    oi[O_ROWS] = ti[t, T_REC_HAND_ROWS]
    ti[t, T_REC_STEP] = ti[t, T_REC_HAND_STEP]
    for s in range(4):
        ti[t, T_REC_SEAT_STEP + s] = ti[t, T_REC_HAND_SEAT_STEP + s]
    ti[t, T_START] = 1
    oi[O_ROWS_FULL] = 1
