"""The ``ansi`` rendering: a plain-text table of the game from one seat's point of view.

Every seat's points, riichi, melds and river are shown; concealed tiles only for the viewing seat
(or every seat with ``reveal=True``), and the hand of a seat in open riichi, which is public from
its declaration discard on (without the tile it just drew). River marks: ``*`` riichi declaration, ``'`` tsumogiri,
``>`` taken by a call. Melds: ``chi 3-45m<2`` is a chi of the 3m discarded by seat 2 (the called
tile first), ``ankan 7z`` a closed kan, ``kita x2`` two Norths set aside (three players, who have
seats 0-2 only).
"""

from __future__ import annotations

import numpy as np

from engine.actions import action_name
from engine.melds import MELD_ANKAN, MELD_NAMES
from engine.rules import RULE_PLAYERS
from engine.state import (
    DORA_START,
    LIVE_END,
    LIVE_END_3P,
    PHASE_GAME_OVER,
    PHASE_NAMES,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RIVER_CALLED,
    RIVER_RIICHI,
    RIVER_TSUMOGIRI,
    State,
)
from engine.tiles import tile136_to_str, tiles136_to_str

WINDS = "ESWN"
WIND_NAMES = ("East", "South", "West", "North")


def _meld_text(st: State, t: int, s: int, m: int, reds: tuple[int, int, int]) -> str:
    mtype = int(st.meld_type[t, s, m])
    tiles = [int(x) for x in st.meld_tiles[t, s, m] if x >= 0]
    name = MELD_NAMES.get(mtype, "?")
    if mtype == MELD_ANKAN:
        return f"{name} {tiles136_to_str(tiles, reds)}"
    called = int(st.meld_called[t, s, m])
    rest = [x for x in tiles if x != called]
    return (
        f"{name} {tile136_to_str(called, reds)}-{tiles136_to_str(rest, reds)}"
        f"<{int(st.meld_from[t, s, m])}"
    )


def _river_text(st: State, t: int, s: int, reds: tuple[int, int, int]) -> str:
    parts = []
    for i in range(int(st.n_river[t, s])):
        flags = int(st.river_flags[t, s, i])
        mark = ("*" if flags & RIVER_RIICHI else "") + ("'" if flags & RIVER_TSUMOGIRI else "")
        mark += ">" if flags & RIVER_CALLED else ""
        parts.append(tile136_to_str(int(st.river[t, s, i]), reds) + mark)
    return " ".join(parts)


def _open_hand_text(st: State, t: int, s: int, reds: tuple[int, int, int]) -> str | None:
    """Seat ``s``'s open riichi hand as others see it, or None while it is not public."""
    if not st.riichi[t, s] or not st.open_riichi[t, s] or int(st.phase[t]) == PHASE_GAME_OVER:
        return None
    if int(st.phase[t]) == PHASE_RIICHI_DISCARD and int(st.turn[t]) == s:
        return None  # declared; the hand is shown with the declaration discard
    drawn = int(st.drawn[t])
    hide = drawn if int(st.phase[t]) == PHASE_TURN and int(st.turn[t]) == s else -1
    ids = [int(x) for x in np.flatnonzero(st.closed[t, s]) if x != hide]
    return tiles136_to_str(ids, reds)


def render_text(
    st: State,
    t: int = 0,
    seat: int | None = None,
    legal_mask: np.ndarray | None = None,
    reveal: bool = False,
) -> str:
    """The table as text, seen from ``seat`` (``None``: no concealed tiles unless ``reveal``)."""
    reds = (int(st.rules[t, 0]), int(st.rules[t, 1]), int(st.rules[t, 2]))
    kyoku = int(st.kyoku[t])
    dealer = kyoku % 4
    players = int(st.rules[t, RULE_PLAYERS])
    end = LIVE_END_3P if players == 3 else LIVE_END
    left = end - int(st.n_kans[t]) - int(st.n_kita[t].sum()) - int(st.wall_pos[t])  # kita: a draw
    dora = [tile136_to_str(int(st.wall[t, DORA_START + d]), reds) for d in range(int(st.n_dora[t]))]
    lines = [
        f"{WIND_NAMES[(kyoku // 4) % 4]} {kyoku % 4 + 1}  honba {int(st.honba[t])}  "
        f"riichi sticks {int(st.kyotaku[t])}  wall {left}  dora indicators {' '.join(dora)}",
        "seat wind  points riichi | melds | river",
    ]
    for s in range(players):
        riichi = ("double" if st.riichi[t, s] == 2 else "yes") if st.riichi[t, s] else ""
        if st.riichi[t, s] and st.open_riichi[t, s]:
            riichi = "open" if st.riichi[t, s] == 1 else "open double"
        melds = ", ".join(_meld_text(st, t, s, m, reds) for m in range(int(st.n_melds[t, s])))
        if players == 3 and st.n_kita[t, s]:  # Norths set aside (nuki dora)
            melds = ", ".join(x for x in (melds, f"kita x{int(st.n_kita[t, s])}") if x)
        me = "*" if seat == s else " "
        lines.append(
            f"{me}{s}   {WINDS[(s - dealer) % players]}   {int(st.points[t, s]):>7} {riichi:>6} | "
            f"{melds or '-'} | {_river_text(st, t, s, reds)}"
        )
    shown = range(players) if reveal else ([] if seat is None else [seat])
    for s in shown:
        ids = np.flatnonzero(st.closed[t, s])
        drawn = int(st.drawn[t])
        text = tiles136_to_str([int(x) for x in ids if x != drawn or st.turn[t] != s], reds)
        if drawn >= 0 and st.turn[t] == s and st.closed[t, s, drawn]:
            text += f" + {tile136_to_str(drawn, reds)}"
        lines.append(f"hand of seat {s}: {text}")
    for s in range(players):
        if s in shown:
            continue
        text = _open_hand_text(st, t, s, reds)
        if text is not None:
            lines.append(f"open hand of seat {s}: {text}")
    phase = int(st.phase[t])
    if phase == PHASE_GAME_OVER:
        scores = ", ".join(f"{x:+.1f}" for x in st.final_scores[t, :players])
        points = list(map(int, st.points[t, :players]))
        lines.append(f"game over: final points {points}, scores {scores}")
    else:
        what = PHASE_NAMES[phase]
        extra = ""
        if st.claim_tile[t] >= 0 and phase == 2:
            extra = (
                f" on {tile136_to_str(int(st.claim_tile[t]), reds)} from {int(st.claim_from[t])}"
            )
        lines.append(f"to act: seat {int(st.actor[t])} ({what}{extra})")
        if legal_mask is not None:
            names = [action_name(int(a)) for a in np.flatnonzero(legal_mask)]
            lines.append("legal: " + ", ".join(names))
    return "\n".join(lines)
