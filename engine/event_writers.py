"""Writing the event log: one typed kernel per event (row layout in ``engine/events.py``).

Each ``_log_*(st, t, ev, ...)`` appends its rows to table ``t``'s log ``ev[t]`` and counts them
in ``st[t].n_events``. A full log drops the row and sets ``st[t].ev_overflow``; a log of capacity
0 keeps nothing and flags nothing (self-play without records).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.events import (
    EV_CALL,
    EV_DEAL,
    EV_DELTA,
    EV_DISCARD,
    EV_DORA,
    EV_DRAW,
    EV_FINAL,
    EV_GAME_END,
    EV_GAME_START,
    EV_HAND_END,
    EV_HAND_START,
    EV_KITA,
    EV_POINTS,
    EV_RIICHI,
    EV_RIICHI_ACCEPTED,
    EV_RYUUKYOKU,
    EV_URA,
    EV_WALL,
    EV_WIN,
    EV_YAKU,
    _pack4,
)
from engine.rules import RULE_PLAYERS
from engine.scoring.layout import RES_FU, RES_HAN, RES_YAKUMAN
from engine.scoring.yaku import N_YAKU
from engine.state import DORA_START, URA_START, WALL_SIZE

M32 = 0xFFFFFFFF


@njit(inline="always")
def _row(st, t, ev, ev_type, seat):
    """The next free row of table ``t``'s log with its type and seat set, or -1 (log full/off)."""
    rec = st[t]
    i = rec.n_events
    if i >= ev.shape[1]:
        if ev.shape[1] > 0:
            rec.ev_overflow = 1
        return -1
    rec.n_events = i + 1
    row = ev[t, i]
    row[:] = 0
    row[0] = ev_type
    row[1] = seat
    return i


@njit
def _wrap32(x):
    """An unsigned 32-bit value as the int32 it is stored as."""
    if x >= 2147483648:
        return x - 4294967296
    return x


@njit
def _log_game_start(st, t, ev, seed, start_points):
    i = _row(st, t, ev, EV_GAME_START, -1)
    if i >= 0:
        ev[t, i, 2] = _wrap32(seed & M32)
        ev[t, i, 3] = _wrap32((seed >> 32) & M32)
        ev[t, i, 4] = start_points


@njit
def _log_hand_start(st, t, ev):
    """HAND_START, POINTS, WALL x7, DEAL x4 (x3 with three players) and the first DORA."""
    rec = st[t]
    dealer = rec.kyoku % 4
    i = _row(st, t, ev, EV_HAND_START, dealer)
    if i >= 0:
        ev[t, i, 2] = rec.kyoku
        ev[t, i, 3] = rec.honba
        ev[t, i, 4] = rec.kyotaku
        ev[t, i, 5] = rec.hand_index
    i = _row(st, t, ev, EV_POINTS, -1)
    if i >= 0:
        for s in range(4):
            ev[t, i, 2 + s] = rec.points[s]
    wall = rec.wall[:]
    for r in range(7):
        i = _row(st, t, ev, EV_WALL, -1)
        if i < 0:
            continue
        ev[t, i, 2] = r
        for c in range(5):
            base = 20 * r + 4 * c
            tl = np.full(4, 255, dtype=np.int64)
            for j in range(4):
                if base + j < WALL_SIZE:
                    tl[j] = wall[base + j]
            ev[t, i, 3 + c] = _pack4(tl[0], tl[1], tl[2], tl[3])
    n = rec.rules[RULE_PLAYERS]
    for k in range(n):
        i = _row(st, t, ev, EV_DEAL, (dealer + k) % n)
        if i < 0:
            continue
        for c in range(4):
            tl = np.full(4, 255, dtype=np.int64)
            for j in range(4):
                if 4 * c + j < 13:
                    tl[j] = wall[13 * k + 4 * c + j]
            ev[t, i, 2 + c] = _pack4(tl[0], tl[1], tl[2], tl[3])
    _log_dora(st, t, ev, 0)


@njit(inline="always")
def _log_dora(st, t, ev, k):
    """Dora indicator ``k`` (0-4) turned over."""
    i = _row(st, t, ev, EV_DORA, -1)
    if i >= 0:
        ev[t, i, 2] = st[t].wall[DORA_START + k]
        ev[t, i, 3] = k


@njit
def _log_draw(st, t, ev, s, tile, rinshan):
    i = _row(st, t, ev, EV_DRAW, s)
    if i >= 0:
        ev[t, i, 2] = tile
        ev[t, i, 3] = 1 if rinshan else 0


@njit
def _log_kita(st, t, ev, s, tile):
    """Seat ``s`` sets the North ``tile`` aside (kita), before anyone may ron it."""
    i = _row(st, t, ev, EV_KITA, s)
    if i >= 0:
        ev[t, i, 2] = tile


@njit
def _log_discard(st, t, ev, s, tile, tsumogiri, declaring):
    i = _row(st, t, ev, EV_DISCARD, s)
    if i >= 0:
        ev[t, i, 2] = tile
        ev[t, i, 3] = 1 if tsumogiri else 0
        ev[t, i, 4] = 1 if declaring else 0


@njit
def _log_riichi(st, t, ev, s, double, open_riichi):
    i = _row(st, t, ev, EV_RIICHI, s)
    if i >= 0:
        ev[t, i, 2] = 1 if double else 0
        ev[t, i, 3] = open_riichi


@njit
def _log_riichi_accepted(st, t, ev, s):
    """The riichi stick is down: points of ``s`` and sticks after it."""
    rec = st[t]
    i = _row(st, t, ev, EV_RIICHI_ACCEPTED, s)
    if i >= 0:
        ev[t, i, 2] = rec.points[s]
        ev[t, i, 3] = rec.kyotaku


@njit(inline="always")
def _log_meld(st, t, ev, s, m):
    """Meld ``m`` of seat ``s`` as it now stands (chi, pon, any kan)."""
    i = _row(st, t, ev, EV_CALL, s)
    if i >= 0:
        rec = st[t]
        tiles = rec.meld_tiles[s, m]
        ev[t, i, 2] = rec.meld_type[s, m]
        ev[t, i, 3] = rec.meld_from[s, m]
        ev[t, i, 4] = rec.meld_called[s, m]
        ev[t, i, 5] = _pack4(tiles[0], tiles[1], tiles[2], tiles[3])
        ev[t, i, 6] = rec.meld_tile34[s, m]


@njit(inline="always")
def _log_delta(st, t, ev, seat, delta, sticks):
    """Point changes of a settled win (``seat`` the winner) or draw (-1)."""
    i = _row(st, t, ev, EV_DELTA, seat)
    if i >= 0:
        for s in range(4):
            ev[t, i, 2 + s] = delta[s]
        ev[t, i, 6] = sticks


@njit
def _log_win(st, t, ev, w, from_seat, win_tile, out, yaku, pao, delta, sticks):
    """WIN, its YAKU rows, URA (riichi winners) and DELTA for one winner."""
    i = _row(st, t, ev, EV_WIN, w)
    if i >= 0:
        ev[t, i, 2] = from_seat
        ev[t, i, 3] = win_tile
        ev[t, i, 4] = out[RES_HAN]
        ev[t, i, 5] = out[RES_FU]
        ev[t, i, 6] = out[RES_YAKUMAN]
        ev[t, i, 7] = pao
    pairs = np.full(2 * N_YAKU + 6, -1, dtype=np.int64)
    n = 0
    for y in range(N_YAKU):
        if yaku[y] != 0:
            pairs[2 * n] = y
            pairs[2 * n + 1] = yaku[y]
            n += 1
    for k in range(0, n, 3):
        i = _row(st, t, ev, EV_YAKU, w)
        if i >= 0:
            for j in range(6):
                ev[t, i, 2 + j] = pairs[2 * k + j]
    rec = st[t]
    if rec.riichi[w] > 0:
        i = _row(st, t, ev, EV_URA, w)
        if i >= 0:
            ev[t, i, 2] = rec.n_dora
            for k in range(5):
                ev[t, i, 3 + k] = rec.wall[URA_START + k] if k < rec.n_dora else -1
    _log_delta(st, t, ev, w, delta, sticks)


@njit(inline="always")
def _log_ryuukyoku(st, t, ev, seat, kind, tenpai_mask, nagashi_mask):
    """A draw: ``kind`` DRAW_*, declared by ``seat`` (-1 for none)."""
    i = _row(st, t, ev, EV_RYUUKYOKU, seat)
    if i >= 0:
        ev[t, i, 2] = kind
        ev[t, i, 3] = tenpai_mask
        ev[t, i, 4] = nagashi_mask


@njit
def _log_hand_end(st, t, ev, next_honba):
    rec = st[t]
    i = _row(st, t, ev, EV_HAND_END, -1)
    if i >= 0:
        for s in range(4):
            ev[t, i, 2 + s] = rec.points[s]
        ev[t, i, 6] = rec.kyotaku
        ev[t, i, 7] = next_honba


@njit(inline="always")
def _log_game_end(st, t, ev, leftover, scores10, packed_ranks):
    """GAME_END (final points, leftover sticks) and FINAL (scores x10, packed ranks)."""
    i = _row(st, t, ev, EV_GAME_END, -1)
    if i >= 0:
        for s in range(4):
            ev[t, i, 2 + s] = st[t].points[s]
        ev[t, i, 6] = leftover
    i = _row(st, t, ev, EV_FINAL, -1)
    if i >= 0:
        for s in range(4):
            ev[t, i, 2 + s] = scores10[s]
        ev[t, i, 6] = packed_ranks
