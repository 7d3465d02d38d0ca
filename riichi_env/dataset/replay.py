"""The compiled replay of a packed record: the engine plays the recorded moves and writes rows.

``_replay_game`` deals each hand of a :class:`riichi_env.dataset.pack.PackedGame` from its wall,
plays its script (the record's discards, riichi, calls and kans; draws are the engine's own)
through ``engine``'s ``_apply`` and, at each decision of a chosen seat, writes what the env shows
there: the encoder's rows (the env's own ``_encode`` kernel), the mask (``_legal_mask``), the
recorded action and its kind. Claims the record does not make are passed; a pass gets a row only
when the seat's choice is known (``_pass_known``). A hand whose recorded move is not in the mask,
or whose play leaves the record, is dropped with a status (``HAND_*``); the next hand is dealt
from the record again. The kernel is resumable: when the row buffers are full it returns, and
the caller grows them and calls again from the hand it stopped at.
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
from engine.kernels import _apply, _continue_at, _legal_mask
from engine.state import (
    CLAIM_BIT_CHI_HIGH,
    CLAIM_BIT_CHI_LOW,
    CLAIM_BIT_CHI_MID,
    CLAIM_BIT_KAN,
    CLAIM_BIT_PON,
    CLAIM_BIT_RON,
    PHASE_CLAIM,
)
from engine.tables import Tables
from riichi_env.aec.encoders import _encode, _oracle_wall_rows
from riichi_env.batch.runner import _quantize

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
)
"""Decision kinds, by id (the ``kind`` column): what the recorded action was."""
K_DISCARD, K_RIICHI, K_TSUMO, K_RON, K_CHI, K_PON, K_DAIMINKAN, K_ANKAN, K_KAKAN = range(9)
K_KYUSHU, K_PASS = 9, 10

# script rows: (code, seat, tile136, from seat, aux tile136, red consumed)
SCRIPT_CODES = ("discard", "riichi", "chi", "pon", "daiminkan", "ankan", "kakan")
"""The record's moves a script row holds, by code (``S_*``): the ``Event.type`` of each."""
S_DISCARD, S_RIICHI, S_CHI, S_PON, S_DAIMINKAN, S_ANKAN, S_KAKAN = range(len(SCRIPT_CODES))
SCRIPT_WIDTH = 6
"""Columns of a script row: code ``S_*``, seat, tile136, the seat called from, an auxiliary
tile136 (the lowest tile of a chi, the first consumed tile of a kan), 1 if a red five is among
the consumed tiles."""

# hand outcome (``status``)
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
    if rec.phase == PHASE_CLAIM:
        return K_DAIMINKAN
    if rec.closed34[rec.actor, action - KAN] == 4:
        return K_ANKAN
    return K_KAKAN


@njit(inline="always")
def _lowest(bits):
    """The lowest claim in ``CLAIM_BIT_*`` ``bits``: 1 chi, 2 pon or kan, 3 ron, 0 none."""
    if bits & (CLAIM_BIT_CHI_LOW | CLAIM_BIT_CHI_MID | CLAIM_BIT_CHI_HIGH):
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


@njit
def _script_action(row, red, mask):
    """The action id of script row ``row`` (a turn move or a call by the seat asked)."""
    code = row[0]
    tile = row[2]
    k = tile // 4
    if code == S_DISCARD:
        if red[tile]:
            return DISCARD_RED + k // 9
        return DISCARD + k
    if code == S_RIICHI:
        return RIICHI
    if code in (S_ANKAN, S_KAKAN):
        return KAN + row[4] // 4
    if code == S_DAIMINKAN:
        return KAN + k
    if code == S_PON:
        action = PON
    else:
        lo = min(k, row[4] // 4)
        action = CHI_LOW + (k - lo)
    if row[5] == 0 and mask[action + PLAIN_OFFSET]:
        action += PLAIN_OFFSET
    return action


@njit
def _replay_game(
    st,
    ev,
    tables_tuple,
    walls,
    known,
    starts,
    script,
    script_lo,
    ends,
    rec_deltas,
    finished,
    red,
    h0,
    row0,
    step0,
    seat_ok,
    kind_ok,
    skip_forced,
    encoder,
    oracle,
    use_known,
    suit_table,
    honor_table,
    quant_lo,
    quant_inv,
    oracle_lo,
    oracle_inv,
    scratch,
    oracle_scratch,
    mask,
    obs_f,
    obs_u8,
    orc_f,
    orc_u8,
    out_mask,
    out_action,
    out_seat,
    out_kind,
    out_forced,
    out_hand,
    out_step,
    status,
    err,
    deltas,
    hand_rows,
    counters,
):
    """Replay hands ``h0 ..`` of a packed game on table 0 of ``st``, writing rows from ``row0``.

    Returns the hand to resume at: ``walls.shape[0]`` when every hand is done, less when the row
    buffers (``out_action.shape[0]`` rows) filled up inside that hand (its rows are dropped; grow
    the buffers and call again from it). ``counters``: [rows written, decisions stepped (the
    ``step`` of the next row)]. Per hand: ``status`` (``HAND_*``), ``err`` (the script row that
    failed), ``deltas`` (the engine's point changes), ``hand_rows`` (rows end, exclusive).
    Float rows go to ``obs_f`` / ``orc_f``, or are quantized into ``obs_u8`` / ``orc_u8`` when
    those have rows (``scratch`` and ``oracle_scratch`` are one-row float buffers).
    """
    tables = Tables(tables_tuple[0], tables_tuple[1])
    cap = out_action.shape[0]
    quantized = obs_u8.shape[0] > 0
    t0 = np.int64(0)  # the one table: an int64, as everywhere else (a constant 0 would compile the
    # game's kernels a second time, for Literal[int](0))
    rec = st[0]
    n_rows = row0
    step = step0
    for h in range(h0, walls.shape[0]):
        hand_start_rows = n_rows
        hand_start_step = step
        pts = np.empty(4, dtype=np.int32)
        for s in range(4):
            pts[s] = starts[h, 3 + s]
        _continue_at(
            st, t0, ev, tables, walls[h], starts[h, 0], starts[h, 1], starts[h, 2], pts, True
        )
        hand_index = rec.hand_index
        i = script_lo[h]
        end = script_lo[h + 1]
        tsumo_seat = ends[h, 0]
        kyushu = ends[h, 1]
        ron_mask = ends[h, 2]
        sanchahou = ends[h, 3]
        taken = 0
        claimer = -1
        result = HAND_OK
        err[h] = -1
        full = False
        for _ in range(MAX_HAND_STEPS + 1):
            if rec.game_over or rec.hand_index != hand_index:
                if i < end:
                    result = HAND_DESYNC
                    err[h] = i
                break
            if step - hand_start_step >= MAX_HAND_STEPS:
                result = HAND_TOO_LONG
                break
            count = _legal_mask(st, t0, tables, mask)
            actor = rec.actor
            action = -1
            kind_row = True
            if rec.phase == PHASE_CLAIM:
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
                    elif ron_mask != 0 or sanchahou:
                        taken = 3
                if taken in (1, 2) and actor == claimer:
                    action = _script_action(script[i], red, mask)
                    i += 1
                elif taken == 3 and ((ron_mask >> actor) & 1 or (sanchahou and mask[RON])):
                    action = RON
                else:
                    action = PASS
                    kind_row = _pass_known(rec.claim_mask[actor], taken)
            else:
                if i < end:
                    if script[i, 1] != actor:
                        result = HAND_DESYNC
                        err[h] = i
                        break
                    code = script[i, 0]
                    if code in (S_CHI, S_PON, S_DAIMINKAN):
                        result = HAND_DESYNC
                        err[h] = i
                        break
                    action = _script_action(script[i], red, mask)
                    i += 1
                elif tsumo_seat == actor:
                    action = TSUMO
                elif kyushu:
                    action = KYUUSHU
                else:
                    result = HAND_DESYNC if finished[h] else HAND_UNFINISHED
                    err[h] = end
                    break
            if not mask[action]:
                result = HAND_ILLEGAL
                err[h] = i - 1 if action not in (PASS, RON, TSUMO, KYUUSHU) else i
                break
            kind = _kind_of(st, t0, action)
            if kind_row and seat_ok[actor] and kind_ok[kind] and not (skip_forced and count == 1):
                if n_rows >= cap:
                    full = True
                    break
                r = n_rows
                if quantized:
                    _encode(st, t0, actor, encoder, suit_table, honor_table, scratch)
                    if use_known and encoder == 2:
                        _oracle_wall_rows(st, t0, known[h], scratch)
                    _quantize(scratch, quant_lo, quant_inv, obs_u8[r])
                else:
                    _encode(st, t0, actor, encoder, suit_table, honor_table, obs_f[r])
                    if use_known and encoder == 2:
                        _oracle_wall_rows(st, t0, known[h], obs_f[r])
                if oracle:
                    _encode(st, t0, actor, np.int64(2), suit_table, honor_table, oracle_scratch)
                    if use_known:
                        _oracle_wall_rows(st, t0, known[h], oracle_scratch)
                    if quantized:
                        _quantize(oracle_scratch, oracle_lo, oracle_inv, orc_u8[r])
                    else:
                        orc_f[r, :, :] = oracle_scratch
                for a in range(N_ACTIONS):
                    out_mask[r, a] = mask[a]
                out_action[r] = action
                out_seat[r] = actor
                out_kind[r] = kind
                out_forced[r] = count == 1
                out_hand[r] = h
                out_step[r] = step
                n_rows += 1
            _apply(st, t0, ev, tables, action)
            step += 1
        if full:
            counters[0] = hand_start_rows
            counters[1] = hand_start_step
            return h
        for s in range(4):
            deltas[h, s] = rec.last_delta[s]
        if result == HAND_OK:
            for s in range(4):
                if rec.last_delta[s] != rec_deltas[h, s]:
                    result = HAND_OUTCOME
        status[h] = result
        if result != HAND_OK and result != HAND_UNFINISHED:
            n_rows = hand_start_rows  # a hand that left the record gives no rows
        hand_rows[h] = n_rows
    counters[0] = n_rows
    counters[1] = step
    return walls.shape[0]


def example_arguments() -> tuple:
    """Arguments of a ``_replay_game`` call over a game of no hands, of the types
    ``riichi_env.dataset.convert.Converter`` passes (every option gives the same types: the
    unused float or byte buffers have no rows): what ``riichi_env.compile("dataset")``
    compiles it for, running nothing. ``tests/riichi_env/test_dataset.py`` checks that a
    conversion finds exactly this signature compiled."""
    from engine.rules import MAHJONGSOUL
    from engine.state import new_state
    from engine.tables import load_tables
    from riichi_env.aec.encoders import N_ROWS

    state = new_state(1, MAHJONGSOUL, 0)
    tables = load_tables()
    i32, u8, f32 = np.int32, np.uint8, np.float32
    rows = N_ROWS["oracle_v0"]
    floats = np.zeros((0, rows, 34), f32)
    byte_rows = np.zeros((0, rows, 34), u8)
    return (
        state.records,
        state.events,
        tuple(tables),
        np.zeros((0, 136), i32),  # walls
        np.zeros((0, 136), u8),  # known
        np.zeros((0, 7), i32),  # starts
        np.zeros((0, SCRIPT_WIDTH), i32),  # script
        np.zeros(1, i32),  # script_lo
        np.zeros((0, 4), i32),  # ends
        np.zeros((0, 4), i32),  # rec_deltas
        np.zeros(0, u8),  # finished
        np.zeros(136, u8),  # red
        0,  # h0
        0,  # row0
        0,  # step0
        np.ones(4, u8),  # seat_ok
        np.ones(len(KINDS), u8),  # kind_ok
        False,  # skip_forced
        0,  # encoder
        False,  # oracle
        False,  # use_known
        tables.shanten_suit,
        tables.shanten_honor,
        np.zeros(rows, f32),  # quant_lo
        np.ones(rows, f32),  # quant_inv
        np.zeros(rows, f32),  # oracle_lo
        np.ones(rows, f32),  # oracle_inv
        np.zeros((rows, 34), f32),  # scratch
        np.zeros((rows, 34), f32),  # oracle_scratch
        np.zeros(N_ACTIONS, np.int8),  # mask
        floats,  # obs_f
        byte_rows,  # obs_u8
        floats,  # orc_f
        byte_rows,  # orc_u8
        np.zeros((0, N_ACTIONS), np.int8),  # out_mask
        np.zeros(0, np.int16),  # out_action
        np.zeros(0, np.int8),  # out_seat
        np.zeros(0, np.int8),  # out_kind
        np.zeros(0, np.bool_),  # out_forced
        np.zeros(0, np.int16),  # out_hand
        np.zeros(0, i32),  # out_step
        np.zeros(0, i32),  # status
        np.zeros(0, i32),  # err
        np.zeros((0, 4), i32),  # deltas
        np.zeros(0, i32),  # hand_rows
        np.zeros(2, np.int64),  # counters
    )
