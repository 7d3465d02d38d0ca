"""State invariants: ``validate(state)`` raises with a clear message; ``_validate`` is the kernel.

Checked on every table: all 136 tiles in exactly one place (wall, a hand, a meld, a river), hand
counts agree with the held ids, hand sizes (13, or 14 for the seat on turn), points + sticks
constant, kan/dora counters consistent, riichi hands closed, waits counts, a seat asked for a
claim has one, fields within their documented ranges, final scores summing to zero.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.melds import MELD_ANKAN, MELD_CHI, MELD_DAIMINKAN, MELD_KAKAN, MELD_NONE, MELD_PON
from engine.rules import RULE_EXTENSION_HANDS, RULE_N_WINDS, RULE_START_POINTS
from engine.state import (
    CLAIM_DISCARD,
    LIVE_END,
    LIVE_START,
    MAX_MELDS,
    MAX_RIVER,
    PHASE_CLAIM,
    PHASE_GAME_OVER,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RINSHAN_START,
    RIVER_CALLED,
    WALL_SIZE,
    State,
)

(
    VAL_OK,
    VAL_POINTS,
    VAL_TILE_COUNT,
    VAL_HAND34,
    VAL_HAND_SIZE,
    VAL_WALL_POS,
    VAL_KANS,
    VAL_DORA,
    VAL_RIICHI_OPEN,
    VAL_CLAIM,
    VAL_WAITS,
    VAL_FINAL,
    VAL_MELD,
    VAL_RANGE,
    VAL_PHASE,
    VAL_UNMASKED_ACCEPTED,
    VAL_MASKED_REFUSED,
) = range(17)

MESSAGES = (
    "ok",
    "points plus riichi sticks do not add up to 4 x start points",
    "a tile is not in exactly one place (wall, hand, meld, river)",
    "closed34 does not match the held tile ids",
    "a hand has the wrong number of tiles",
    "wall position out of range",
    "n_kans does not match the kan melds",
    "revealed plus pending dora indicators do not match the kans",
    "a riichi hand has an open meld",
    "a seat asked for a claim has no claim",
    "n_waits does not match waits",
    "final scores do not sum to zero",
    "a meld's tiles do not match its type and kind",
    "a field is outside its documented range",
    "phase, turn or actor out of range",
    "an action outside the legal mask was accepted",
    "an action in the legal mask was refused",
)
"""Message of each ``VAL_*`` code."""


@njit
def _validate(st, t, detail):
    """Check table ``t``; returns ``VAL_OK`` or a ``VAL_*`` code, ``detail[0:2]`` = seat, tile."""
    detail[0] = -1
    detail[1] = -1
    rules = st.rules[t]
    total = 0
    for s in range(4):
        total += st.points[t, s]
    if total + 1000 * st.kyotaku[t] != 4 * rules[RULE_START_POINTS]:
        return VAL_POINTS
    if st.kyotaku[t] < 0 or st.honba[t] < 0 or st.kyoku[t] < 0:
        return VAL_RANGE
    if st.kyoku[t] >= 4 * rules[RULE_N_WINDS] + rules[RULE_EXTENSION_HANDS]:
        return VAL_RANGE
    phase = st.phase[t]
    if phase < 0 or phase > PHASE_GAME_OVER:
        return VAL_PHASE
    if st.game_over[t]:
        if phase != PHASE_GAME_OVER:
            return VAL_PHASE
        f = 0.0
        for s in range(4):
            f += st.final_scores[t, s]
        if abs(f) > 1e-6:
            return VAL_FINAL
    n_kans = st.n_kans[t]
    if n_kans < 0 or n_kans > 4:
        return VAL_RANGE
    pos = st.wall_pos[t]
    if pos < LIVE_START or pos > LIVE_END - n_kans:
        return VAL_WALL_POS
    if st.n_dora[t] < 1 or st.n_dora[t] > 5 or st.n_dora[t] + st.pending_dora[t] != 1 + n_kans:
        return VAL_DORA
    count = np.zeros(WALL_SIZE, dtype=np.int32)
    for i in range(pos, LIVE_END):
        count[st.wall[t, i]] += 1
    for i in range(RINSHAN_START + n_kans, WALL_SIZE):
        count[st.wall[t, i]] += 1
    kan_melds = 0
    h34 = np.zeros(34, dtype=np.int32)
    for s in range(4):
        detail[0] = s
        h34[:] = 0
        n_closed = 0
        for tile in range(WALL_SIZE):
            if st.closed[t, s, tile]:
                count[tile] += 1
                h34[tile // 4] += 1
                n_closed += 1
        for k in range(34):
            if h34[k] != st.closed34[t, s, k]:
                return VAL_HAND34
        nm = st.n_melds[t, s]
        if nm < 0 or nm > MAX_MELDS:
            return VAL_RANGE
        for i in range(nm):
            mt = st.meld_type[t, s, i]
            k = st.meld_tile34[t, s, i]
            size = 4 if (mt in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN)) else 3
            if mt == MELD_NONE or mt > MELD_ANKAN:
                return VAL_MELD
            if size == 4:
                kan_melds += 1
            for j in range(4):
                x = st.meld_tiles[t, s, i, j]
                if j >= size:
                    if x != -1:
                        return VAL_MELD
                    continue
                if x < 0 or x >= WALL_SIZE:
                    return VAL_MELD
                count[x] += 1
                want = k + j if mt == MELD_CHI else k
                if x // 4 != want:
                    detail[1] = x
                    return VAL_MELD
            if mt != MELD_ANKAN and st.riichi[t, s] > 0:
                return VAL_RIICHI_OPEN
            if mt == MELD_CHI and (k >= 27 or k % 9 > 6):
                return VAL_MELD
            if mt == MELD_PON and st.meld_from[t, s, i] == s:
                return VAL_MELD
        nr = st.n_river[t, s]
        if nr < 0 or nr > MAX_RIVER:
            return VAL_RANGE
        for i in range(nr):
            x = st.river[t, s, i]
            if x < 0 or x >= WALL_SIZE:
                return VAL_RANGE
            if not (st.river_flags[t, s, i] & RIVER_CALLED):
                count[x] += 1
        size = n_closed + 3 * nm
        want = 13
        if (phase in (PHASE_TURN, PHASE_RIICHI_DISCARD)) and s == st.turn[t]:
            want = 14
        if phase != PHASE_GAME_OVER and size != want:
            return VAL_HAND_SIZE
        nw = 0
        for k in range(34):
            if st.waits[t, s, k] > 1:
                return VAL_RANGE
            nw += st.waits[t, s, k]
        if nw != st.n_waits[t, s]:
            return VAL_WAITS
        if st.riichi[t, s] < 0 or st.riichi[t, s] > 2:
            return VAL_RANGE
        for v in (
            st.ippatsu[t, s],
            st.furiten_temp[t, s],
            st.furiten_riichi[t, s],
            st.nagashi[t, s],
        ):
            if v < 0 or v > 1:
                return VAL_RANGE
    detail[0] = -1
    for tile in range(WALL_SIZE):
        if count[tile] != 1:
            detail[1] = tile
            return VAL_TILE_COUNT
    in_kan_claim = phase == PHASE_CLAIM and st.claim_kind[t] != CLAIM_DISCARD
    if kan_melds != n_kans + (1 if in_kan_claim else 0):
        return VAL_KANS
    if phase != PHASE_GAME_OVER:
        if st.turn[t] < 0 or st.turn[t] > 3 or st.actor[t] < 0 or st.actor[t] > 3:
            return VAL_PHASE
        if phase == PHASE_CLAIM:
            if st.claim_mask[t, st.actor[t]] == 0 or st.actor[t] == st.claim_from[t]:
                return VAL_CLAIM
        elif st.actor[t] != st.turn[t]:
            return VAL_PHASE
    return VAL_OK


def validate(state: State, t: int | None = None) -> None:
    """Check every table (or table ``t``); raises ``ValueError`` naming the broken invariant."""
    from engine.tiles import tile136_to_str

    if not isinstance(state, State):
        raise TypeError(f"state must be an engine.state.State, got {type(state).__name__}")
    tables = range(state.points.shape[0]) if t is None else [t]
    detail = np.zeros(2, dtype=np.int64)
    for i in tables:
        code = _validate(state, i, detail)
        if code != VAL_OK:
            where = f" (seat {detail[0]})" if detail[0] >= 0 else ""
            if detail[1] >= 0:
                where += f" (tile {tile136_to_str(int(detail[1]))}, id {detail[1]})"
            raise ValueError(f"table {i}: invalid state: {MESSAGES[code]}{where}")
