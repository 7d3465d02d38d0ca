"""Walls for replaying a recorded hand: check a known wall, or build one that fits the record.

Tenhou layout (``tests/data/logs/INDEX.md``): the 136-tile array is dealt from its end (dealer
first, 4-4-4-1), live draws continue downward from index 83; the dead wall is indices 0–13. For
``"tenhou"`` (current seeds) dora indicators are at 5, 7, 9, 11, 13, ura at 4, 6, 8, 10, 12 and
replacement draws at 1, 0, 3, 2; for ``"tenhou_old"`` dora at 4, 6, …, ura at 5, 7, … and
replacement draws at 0, 1, 2, 3.

Three-player hands (``hand.players == 3``) are built and kept in the engine's own layout
(``"engine"``, ``engine/state.py``): the deal at 0–38, live draws from 52, replacement draws
(kans and kita together) at 122–125 then from the live wall's end (106, 105, …), dora indicators
at 126–130, ura at 131–135, and 2m–8m in the unused slots. Tenhou's three-player wall from the
``SHUFFLE`` seed is not known, so such a wall is built to fit the record.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.state import (
    DORA_START,
    LIVE_END_3P,
    RINSHAN_START,
    SANMA_REMOVED,
    SANMA_UNUSED_SLOTS,
    URA_START,
)
from engine.state import LIVE_START as ENGINE_LIVE_START
from riichi_env.records.model import Hand, RecordError

LAYOUTS = {
    "tenhou": {"dora": (5, 7, 9, 11, 13), "ura": (4, 6, 8, 10, 12), "rinshan": (1, 0, 3, 2)},
    "tenhou_old": {"dora": (4, 6, 8, 10, 12), "ura": (5, 7, 9, 11, 13), "rinshan": (0, 1, 2, 3)},
}
LIVE_START = 83
"""Index of the first live draw (135 − 52 dealt tiles)."""


def deal_positions(dealer: int) -> list[list[int]]:
    """Wall indices of each seat's 13 dealt tiles, in dealing order."""
    pos: list[list[int]] = [[], [], [], []]
    i = 135
    for rnd in range(4):
        for k in range(4):
            seat = (dealer + k) % 4
            n = 4 if rnd < 3 else 1
            pos[seat].extend(range(i, i - n, -1))
            i -= n
    return pos


def _engine_slots_3p(hand: Hand) -> list[tuple[int, int, str]]:
    """:func:`wall_slots` of a three-player hand, in the engine's layout."""
    slots = []
    for i in range(3):
        seat = (hand.dealer + i) % 3
        for j, t in enumerate(hand.haipai[seat]):
            slots.append((13 * i + j, t, f"seat {seat} deal"))
    k = _draw_slots(hand, slots, ENGINE_LIVE_START, 1, _RINSHAN_3P)
    dora = range(DORA_START, DORA_START + len(hand.dora_indicators))
    _indicator_slots(hand, slots, dora, range(URA_START, URA_START + len(hand.ura_indicators)))
    for p, t, what in slots:
        if t // 4 in range(1, 8):
            raise RecordError(
                f"{what}: tile {t} is a 2m-8m, which three-player games do not have",
                hand=hand.label,
            )
        if "rinshan" not in what and what.endswith(" draw") and p >= LIVE_END_3P - max(0, k - 4):
            raise RecordError(f"{what}: more live draws than the wall holds", hand=hand.label)
    return slots


def wall_slots(hand: Hand, layout: str = "tenhou") -> list[tuple[int, int, str]]:
    """(wall index, tile136, what) for every tile the record reveals, in record order."""
    if hand.players == 3 or layout == "engine":
        return _engine_slots_3p(hand)
    lay = LAYOUTS[layout]
    slots = []
    for seat, positions in enumerate(deal_positions(hand.dealer)):
        for p, t in zip(positions, hand.haipai[seat], strict=True):
            slots.append((p, t, f"seat {seat} deal"))
    _draw_slots(hand, slots, LIVE_START, -1, lay["rinshan"])
    _indicator_slots(hand, slots, lay["dora"], lay["ura"])
    return slots


_RINSHAN_3P = (
    *range(RINSHAN_START, RINSHAN_START + 4),
    *range(LIVE_END_3P - 1, LIVE_END_3P - 5, -1),
)
"""The slots of a three-player hand's replacement draws in order: the four of the dead wall,
then (after kita) from the live wall's end backwards."""
_COUNT_WORDS = {4: "four", 8: "eight"}


def _draw_slots(hand: Hand, slots: list, live: int, step: int, rinshan: Sequence[int]) -> int:
    """Append the slots of the hand's draws to ``slots``: the ``k``-th replacement draw at
    ``rinshan[k]`` (no more than ``len(rinshan)``), the others from ``live`` on by ``step``;
    return how many replacement draws there were."""
    k = 0
    for n, ev in enumerate(hand.events):
        if ev.type != "draw":
            continue
        if ev.rinshan:
            if k >= len(rinshan):
                raise RecordError(
                    f"more than {_COUNT_WORDS[len(rinshan)]} replacement draws",
                    hand=hand.label,
                    position=f"event {n}",
                )
            slots.append((rinshan[k], ev.tile, f"event {n} rinshan draw"))
            k += 1
        else:
            slots.append((live, ev.tile, f"event {n} draw"))
            live += step
    return k


def _indicator_slots(hand: Hand, slots: list, dora: Sequence[int], ura: Sequence[int]) -> None:
    """Append the slots of the dora indicators (the ``i``-th at ``dora[i]``) and ura indicators."""
    for i, t in enumerate(hand.dora_indicators):
        slots.append((dora[i], t, f"dora indicator {i}"))
    for i, t in enumerate(hand.ura_indicators):
        slots.append((ura[i], t, f"ura indicator {i}"))


def check_wall(hand: Hand) -> None:
    """Raise :class:`RecordError` if ``hand.wall`` disagrees with any tile the record shows."""
    if hand.wall is None:
        return
    if sorted(hand.wall) != list(range(136)):
        raise RecordError("the wall is not a permutation of the 136 tiles", hand=hand.label)
    if hand.players == 3:
        if hand.wall_layout != "engine":
            raise RecordError("a three-player wall must be in the engine's layout", hand=hand.label)
        for p, t, what in wall_slots(hand):
            if hand.wall[p] != t:
                raise RecordError(
                    f"{what}: the record has tile {t} but the wall has {hand.wall[p]} at index {p}",
                    hand=hand.label,
                )
        return
    for p, t, what in wall_slots(hand, hand.wall_layout):
        if p < 14 + 0 and what.endswith("draw") and "rinshan" not in what:
            raise RecordError(f"{what}: the live wall ran into the dead wall", hand=hand.label)
        if hand.wall[p] != t:
            raise RecordError(
                f"{what}: the record has tile {t} but the wall has {hand.wall[p]} at index {p}",
                hand=hand.label,
            )


def build_wall(hand: Hand, layout: str = "tenhou") -> list[int]:
    """A full wall that fits every tile the record reveals; unseen places get the unused tiles.

    A three-player hand's wall is in the engine's layout whatever ``layout`` says.
    """
    wall = [-1] * 136
    placed: dict[int, str] = {}
    if hand.players == 3:
        for p, t in zip(SANMA_UNUSED_SLOTS, SANMA_REMOVED, strict=True):
            wall[p] = t
            placed[t] = "unused"
    for p, t, what in wall_slots(hand, layout):
        if not 0 <= t < 136:
            raise RecordError(f"{what}: tile id {t} is not 0-135", hand=hand.label)
        if t in placed and placed[t] != what:
            raise RecordError(f"{what}: tile {t} is also the {placed[t]}", hand=hand.label)
        placed[t] = what
        if p < 14 and what.endswith(" draw") and "rinshan" not in what:
            raise RecordError(f"{what}: more live draws than the wall holds", hand=hand.label)
        if wall[p] not in (-1, t):
            raise RecordError(f"{what}: wall index {p} is needed twice", hand=hand.label)
        wall[p] = t
    used = set(wall)
    free = iter(t for t in range(136) if t not in used)
    return [t if t >= 0 else next(free) for t in wall]


def hand_wall(hand: Hand) -> tuple[list[int], str]:
    """The hand's own wall (checked) when the record has one, else a built one; with its layout."""
    if hand.wall is not None:
        check_wall(hand)
        return list(hand.wall), hand.wall_layout
    return build_wall(hand), "engine" if hand.players == 3 else "tenhou"


def to_engine_wall(wall: list[int], layout: str = "tenhou", dealer: int = 0) -> list[int]:
    """A Tenhou-layout wall in the engine's layout (``engine/state.py``: deal, live, rinshan,
    dora, ura); a wall already in it (``"engine"``, three players) as it is."""
    if layout == "engine":
        return list(wall)
    lay = LAYOUTS[layout]
    out: list[int] = []
    for i in range(4):
        out += [wall[p] for p in deal_positions(dealer)[(dealer + i) % 4]]
    out += [wall[LIVE_START - j] for j in range(70)]
    out += [wall[p] for p in lay["rinshan"]]
    out += [wall[p] for p in lay["dora"]]
    out += [wall[p] for p in lay["ura"]]
    return out


def from_engine_wall(engine_wall, dealer: int = 0, layout: str = "tenhou") -> list[int]:
    """The inverse of :func:`to_engine_wall`."""
    lay = LAYOUTS[layout]
    wall = [-1] * 136
    pos = deal_positions(dealer)
    for i in range(4):
        for j, p in enumerate(pos[(dealer + i) % 4]):
            wall[p] = int(engine_wall[13 * i + j])
    for j in range(70):
        wall[LIVE_START - j] = int(engine_wall[52 + j])
    for k in range(4):
        wall[lay["rinshan"][k]] = int(engine_wall[122 + k])
    for k in range(5):
        wall[lay["dora"][k]] = int(engine_wall[126 + k])
        wall[lay["ura"][k]] = int(engine_wall[131 + k])
    return wall
