"""What a seat can see: tiles outside its hand, open riichi hands, dora kinds and its furiten.

One place for the env's ``SeatView``, the encoders and the agents, so they agree on what is
public. A seat sees every meld (ankan included), every discard still in a river (a called
discard is counted in the caller's meld instead), the revealed dora indicators, and, once its
declaration discard is down, an open riichi hand (without the tile it just drew).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine._numba import njit
from engine.rules import RULE_PLAYERS
from engine.state import (
    DORA_START,
    LIVE_END,
    LIVE_END_3P,
    PHASE_CLAIM,
    PHASE_GAME_OVER,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RIVER_CALLED,
    State,
    check_table,
)
from engine.tiles import _dora_from_indicator


class SeatView(NamedTuple):
    """What one seat knows, as arrays for agents (copies, safe to keep)."""

    seat: int
    hand34: np.ndarray
    """``uint8[34]`` concealed tiles, the drawn tile included."""
    visible34: np.ndarray
    """``uint8[34]`` other tiles the seat can see: rivers (uncalled), melds, dora indicators."""
    points: np.ndarray
    """``int32[4]`` points by absolute seat."""
    riichi: np.ndarray
    """``int32[4]`` riichi state by absolute seat (0 none, 1 riichi, 2 double)."""
    discarded34: np.ndarray | None = None
    """``uint8[4, 34]`` 1 where that seat has discarded the kind (its genbutsu, furiten)."""
    meld_type: np.ndarray | None = None
    """``int32[4, 4]`` ``MELD_*`` of each seat's melds (``MELD_NONE`` past ``n_melds``)."""
    meld_tile34: np.ndarray | None = None
    """``int32[4, 4]`` lowest kind of each meld."""
    n_melds: np.ndarray | None = None
    """``int32[4]`` melds of each seat (an ankan keeps the hand closed)."""
    offered34: int = -1
    """Kind offered to this seat's claim (the discard or the kan tile), -1 on its own turn."""
    round_wind: int = 27
    """Kind of the round wind (27 East ... 30 North)."""
    seat_wind: int = 27
    """Kind of this seat's wind."""
    dora34: np.ndarray | None = None
    """``int32[34]`` how many revealed indicators make each kind dora."""
    tiles_left: int = 0
    """Live-wall tiles left to draw."""


@njit
def _open_hand_shown(st, t, s):
    """True while seat ``s``'s open riichi hand is public: from its declaration discard on."""
    rec = st[t]
    if rec.riichi[s] == 0 or rec.open_riichi[s] == 0 or rec.phase == PHASE_GAME_OVER:
        return False
    return not (rec.phase == PHASE_RIICHI_DISCARD and rec.turn == s)


@njit
def _open_hand(st, t, s, cnt):
    """Counts of seat ``s``'s open riichi hand as others see it: without the tile it just drew."""
    rec = st[t]
    for k in range(34):
        cnt[k] = rec.closed34[s, k]
    d = rec.drawn
    if rec.phase == PHASE_TURN and rec.turn == s and d >= 0 and rec.closed[s, d]:
        cnt[d // 4] -= 1


@njit
def _seen34(st, t, seat, open_seen, out):
    """Per kind, the copies ``seat`` sees outside its own hand (melds, rivers, dora indicators,
    and with ``open_seen`` the other seats' shown open riichi hands) into ``out`` (int32[34])."""
    rec = st[t]
    for k in range(34):
        out[k] = 0
    for s in range(4):
        for m in range(rec.n_melds[s]):
            for j in range(4):
                tile = rec.meld_tiles[s, m, j]
                if tile >= 0:
                    out[tile // 4] += 1
        for i in range(rec.n_river[s]):
            if not rec.river_flags[s, i] & RIVER_CALLED:
                out[rec.river[s, i] // 4] += 1
        out[30] += rec.n_kita[s]  # Norths set aside (kita) lie face up
    for d in range(rec.n_dora):
        out[rec.wall[DORA_START + d] // 4] += 1
    if open_seen:
        cnt = np.zeros(34, dtype=np.int32)
        for s in range(4):
            if s != seat and _open_hand_shown(st, t, s):
                _open_hand(st, t, s, cnt)
                for k in range(34):
                    out[k] += cnt[k]


@njit
def _visible34(st, t, seat, open_seen, out):
    """``_seen34`` capped at the copies the seat does not hold (``4 - hand``), into ``out``."""
    seen = np.zeros(34, dtype=np.int32)
    _seen34(st, t, np.int64(seat), np.bool_(open_seen), seen)  # one signature
    for k in range(34):
        limit = 4 - st[t].closed34[seat, k]
        out[k] = seen[k] if seen[k] < limit else limit


@njit
def _dora_kinds(st, t, out):
    """Per kind, how many revealed indicators make it dora, into ``out`` (int32[34])."""
    rec = st[t]
    for k in range(34):
        out[k] = 0
    for d in range(rec.n_dora):
        ind = rec.wall[DORA_START + d] // 4
        if ind == 0 and rec.rules[RULE_PLAYERS] == 3:
            out[8] += 1  # no 2m-8m with three players: 1m indicates 9m
        else:
            out[_dora_from_indicator(ind)] += 1


@njit
def _furiten(st, t, s):
    """Any furiten (docs/rules.md: permanent, temporary, riichi): ron is blocked."""
    rec = st[t]
    if rec.furiten_temp[s] or rec.furiten_riichi[s]:
        return True
    for k in range(34):  # noqa: SIM110 (a generator in any() is slow under Numba)
        if rec.waits[s, k] and rec.discarded34[s, k]:
            return True
    return False


def seat_view(state: State, seat: int, t: int = 0, open_seen: bool = False) -> SeatView:
    """The ``SeatView`` of ``seat`` (0-3, absolute) at table ``t``."""
    from engine.arguments import check_bool, check_seat

    t = check_table(state, t)
    seat = check_seat(seat)
    visible = np.zeros(34, dtype=np.uint8)
    _visible34(state.records, t, seat, check_bool("open_seen", open_seen), visible)
    rec = state.records[t]
    dora = np.zeros(34, dtype=np.int32)
    _dora_kinds(state.records, t, dora)
    claim = int(rec["claim_tile"])
    asked = int(rec["phase"]) == PHASE_CLAIM and int(rec["actor"]) == seat and claim >= 0
    kyoku = int(rec["kyoku"])
    players = int(rec["rules"][RULE_PLAYERS])
    return SeatView(
        seat,
        state.closed34[t, seat].copy(),
        visible,
        state.points[t].copy(),
        state.riichi[t].copy(),
        discarded34=rec["discarded34"].copy(),
        meld_type=rec["meld_type"].copy(),
        meld_tile34=rec["meld_tile34"].copy(),
        n_melds=rec["n_melds"].copy(),
        offered34=claim // 4 if asked else -1,
        round_wind=27 + (kyoku // 4) % 4,
        seat_wind=27 + (seat - kyoku % 4) % players,
        dora34=dora,
        tiles_left=int(
            (LIVE_END if players == 4 else LIVE_END_3P)
            - rec["n_kans"]
            - rec["n_kita"].sum()
            - rec["wall_pos"]
        ),
    )
