"""The per-table event log: compact ``int32`` rows, and a readable rendering in mpsz.

Every row is ``EV_WIDTH`` ints: ``[type, seat, a, b, c, d, e, f]`` (seat -1 when none). Lists of
tile136 ids are packed four to an int (``t0 | t1 << 8 | t2 << 16 | t3 << 24``, as a wrapped
int32; 255 pads). The payload of each type:

| type | seat | a | b | c | d | e | f |
|---|---|---|---|---|---|---|---|
| GAME_START | -1 | seed low 32 bits | seed high 32 bits | start points | | | |
| HAND_START | dealer | kyoku | honba | kyotaku | hand index | | |
| POINTS | -1 | points seat 0 | seat 1 | seat 2 | seat 3 | | |
| WALL | -1 | row 0-6 | five packed ints: wall[20 row : 20 row + 20] | | | | |
| DEAL | seat | four packed ints: the 13 dealt tile136 | | | | | |
| DORA | -1 | indicator tile136 | index 0-4 | | | | |
| DRAW | seat | tile136 | 1 if rinshan | | | | |
| DISCARD | seat | tile136 | 1 if tsumogiri | 1 if riichi declaration | | | |
| RIICHI | seat | 1 if double | 1 if open | | | | |
| RIICHI_ACCEPTED | seat | points after | kyotaku after | | | | |
| CALL | seat | MELD_* | from seat | called tile136 | packed meld tiles | lowest tile34 | |
| WIN | winner | from seat (winner: tsumo) | win tile136 | han | fu | yakuman mult | pao seat |
| YAKU | winner | up to three (yaku id, han or yakuman mult) pairs, -1 pads | | | | | |
| URA | winner | count | up to five ura indicator tile136 | | | | |
| DELTA | winner or -1 | delta seat 0 | seat 1 | seat 2 | seat 3 | sticks taken | |
| RYUUKYOKU | declarer or -1 | DRAW_* kind | tenpai seat mask | nagashi seat mask | | | |
| HAND_END | -1 | points seat 0 | seat 1 | seat 2 | seat 3 | kyotaku | honba next |
| GAME_END | -1 | final points seat 0 | seat 1 | seat 2 | seat 3 | leftover sticks | |
| FINAL | -1 | final score x10 seat 0 | seat 1 | seat 2 | seat 3 | packed ranks | |
| KITA | seat | North tile136 set aside | | | | | |

A hand's log is GAME_START (first hand only), HAND_START, POINTS, WALL x7, DEAL x4, DORA, then
play, then WIN/YAKU/URA/DELTA (one group per winner) or RYUUKYOKU/DELTA, then HAND_END.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine._numba import njit
from engine.melds import MELD_NAMES

EV_GAME_START = 1
EV_HAND_START = 2
EV_POINTS = 3
EV_WALL = 4
EV_DEAL = 5
EV_DORA = 6
EV_DRAW = 7
EV_DISCARD = 8
EV_RIICHI = 9
EV_RIICHI_ACCEPTED = 10
EV_CALL = 11
EV_WIN = 12
EV_YAKU = 13
EV_URA = 14
EV_DELTA = 15
EV_RYUUKYOKU = 16
EV_HAND_END = 17
EV_GAME_END = 18
EV_FINAL = 19
EV_KITA = 20

EVENT_NAMES = {
    EV_GAME_START: "game_start",
    EV_HAND_START: "hand_start",
    EV_POINTS: "points",
    EV_WALL: "wall",
    EV_DEAL: "deal",
    EV_DORA: "dora",
    EV_DRAW: "draw",
    EV_DISCARD: "discard",
    EV_RIICHI: "riichi",
    EV_RIICHI_ACCEPTED: "riichi_accepted",
    EV_CALL: "call",
    EV_WIN: "win",
    EV_YAKU: "yaku",
    EV_URA: "ura",
    EV_DELTA: "delta",
    EV_RYUUKYOKU: "ryuukyoku",
    EV_HAND_END: "hand_end",
    EV_GAME_END: "game_end",
    EV_FINAL: "final",
    EV_KITA: "kita",
}

DRAW_EXHAUSTIVE = 0
DRAW_NAGASHI = 1
"""Exhaustive draw in which at least one seat was paid nagashi mangan."""
DRAW_KYUUSHU = 2
DRAW_SUUFON = 3
DRAW_SUUCHA = 4
DRAW_SUUKAIKAN = 5
DRAW_SANCHAHOU = 6
DRAW_NAMES = (
    "exhaustive draw",
    "exhaustive draw (nagashi mangan)",
    "kyuushu kyuuhai",
    "suufon renda",
    "suucha riichi",
    "suukaikan",
    "sanchahou",
)

PACK_EMPTY = 255
"""Pad value of a packed tile slot."""
WIND_NAMES = ("East", "South", "West", "North")


@njit(inline="always")
def _pack4(t0, t1, t2, t3):
    """Four tile136 ids (or 255) packed into one int32-range int."""
    v = (t0 & 255) | ((t1 & 255) << 8) | ((t2 & 255) << 16) | ((t3 & 255) << 24)
    if v >= 2147483648:
        v -= 4294967296
    return v


@njit
def _log(events, n_events, ev_overflow, t, ev_type, seat, a, b, c, d, e, f):
    """Append one row to table ``t``'s log (sets ``ev_overflow`` when full).

    Takes the three log arrays of the State rather than the State, which keeps its many
    specializations (one per argument type mix) cheap to compile.
    """
    i = n_events[t]
    if i >= events.shape[1]:
        ev_overflow[t] = 1
        return
    row = events[t, i]
    row[0] = ev_type
    row[1] = seat
    row[2] = a
    row[3] = b
    row[4] = c
    row[5] = d
    row[6] = e
    row[7] = f
    n_events[t] = i + 1


def unpack_tiles(packed: Sequence[int]) -> list[int]:
    """The tile136 ids held in packed ints, pads dropped."""
    out = []
    for v in packed:
        u = int(v) & 0xFFFFFFFF
        for k in range(4):
            tile = (u >> (8 * k)) & 255
            if tile != PACK_EMPTY:
                out.append(tile)
    return out


def event_rows(state, t: int = 0) -> np.ndarray:
    """Table ``t``'s log as an ``int32[n, EV_WIDTH]`` copy."""
    return np.array(state.events[t, : int(state.n_events[t])])


def wall_from_events(rows: np.ndarray, hand: int = 0) -> np.ndarray:
    """The 136-tile wall of the ``hand``-th hand (0-based) of a log."""
    starts = [i for i, r in enumerate(rows) if r[0] == EV_HAND_START]
    if not 0 <= hand < len(starts):
        raise ValueError(f"log has {len(starts)} hands, no hand {hand}")
    packed = [0] * 35
    for r in rows[starts[hand] :]:
        if r[0] == EV_WALL:
            packed[5 * int(r[2]) : 5 * int(r[2]) + 5] = [int(x) for x in r[3:8]]
        elif r[0] == EV_DEAL:
            break
    return np.array(unpack_tiles(packed[:34]), dtype=np.int32)


def render(rows: np.ndarray, red_fives: Sequence[int] = (1, 1, 1)) -> list[str]:
    """Readable lines for a log (``event_rows`` output), tiles in mpsz."""
    from engine.scoring.yaku import YAKU_KEYS
    from engine.tiles import tile136_to_str, tiles136_to_str

    def tile(x: int) -> str:
        return tile136_to_str(int(x), red_fives)

    def seat(s: int) -> str:
        return f"S{int(s)}"

    lines = []
    for r in rows:
        kind, s, a, b, c, d, e, f = (int(x) for x in r)
        if kind == EV_GAME_START:
            seed = (a & 0xFFFFFFFF) | ((b & 0xFFFFFFFF) << 32)
            lines.append(f"game start: seed {seed}, {c} points each")
        elif kind == EV_HAND_START:
            lines.append(
                f"hand {d}: {WIND_NAMES[a // 4]} {a % 4 + 1}, honba {b}, sticks {c}, dealer S{s}"
            )
        elif kind == EV_POINTS:
            lines.append(f"  points {a} {b} {c} {d}")
        elif kind == EV_DEAL:
            lines.append(
                f"  {seat(s)} dealt {tiles136_to_str(unpack_tiles([a, b, c, d]), red_fives)}"
            )
        elif kind == EV_DORA:
            lines.append(f"  dora indicator {tile(a)}")
        elif kind == EV_DRAW:
            lines.append(f"  {seat(s)} draws {tile(a)}{' (rinshan)' if b else ''}")
        elif kind == EV_DISCARD:
            flags = (" tsumogiri" if b else "") + (" riichi" if c else "")
            lines.append(f"  {seat(s)} discards {tile(a)}{flags}")
        elif kind == EV_RIICHI:
            name = "double riichi" if a else "riichi"
            lines.append(f"  {seat(s)} declares {'open ' if b else ''}{name}")
        elif kind == EV_RIICHI_ACCEPTED:
            lines.append(f"  {seat(s)} riichi accepted, {a} points, {b} sticks")
        elif kind == EV_CALL:
            tiles = tiles136_to_str(unpack_tiles([d]), red_fives)
            src = f" from S{b}" if b != s else ""
            lines.append(f"  {seat(s)} {MELD_NAMES[a]} {tile(c) if c >= 0 else ''}{src} [{tiles}]")
        elif kind == EV_WIN:
            how = "tsumo" if a == s else f"ron from S{a}"
            yakuman = f", {e}x yakuman" if e else ""
            pao = f", pao S{f}" if f >= 0 else ""
            lines.append(f"  {seat(s)} wins by {how} on {tile(b)}: {c} han {d} fu{yakuman}{pao}")
        elif kind == EV_YAKU:
            parts = [f"{YAKU_KEYS[y]} {v}" for y, v in ((a, b), (c, d), (e, f)) if y >= 0]
            lines.append("    yaku: " + ", ".join(parts))
        elif kind == EV_URA:
            lines.append("    ura indicators " + " ".join(tile(x) for x in (b, c, d, e, f)[:a]))
        elif kind == EV_DELTA:
            sticks = f", {e} sticks" if e else ""
            lines.append(f"    deltas {a:+d} {b:+d} {c:+d} {d:+d}{sticks}")
        elif kind == EV_RYUUKYOKU:
            tenpai = [f"S{i}" for i in range(4) if b >> i & 1]
            nagashi = [f"S{i}" for i in range(4) if c >> i & 1]
            extra = f", tenpai {' '.join(tenpai) or 'none'}" if a <= DRAW_NAGASHI else ""
            extra += f", nagashi mangan {' '.join(nagashi)}" if nagashi else ""
            who = f" by S{s}" if s >= 0 else ""
            lines.append(f"  {DRAW_NAMES[a]}{who}{extra}")
        elif kind == EV_HAND_END:
            lines.append(f"  hand end: points {a} {b} {c} {d}, sticks {e}, next honba {f}")
        elif kind == EV_GAME_END:
            lines.append(f"game end: points {a} {b} {c} {d} (leftover sticks {e} to first)")
        elif kind == EV_KITA:
            lines.append(f"  {seat(s)} kita {tile(a)}")
        elif kind == EV_FINAL:
            ranks = [((e >> (2 * i)) & 3) + 1 for i in range(4)]
            scores = " ".join(f"{x / 10:+.1f}" for x in (a, b, c, d))
            lines.append(f"final scores {scores}, places {ranks}")
    return lines
