"""A record as arrays for the compiled replay: walls, hand starts, scripts and outcomes.

:func:`pack_game` turns a :class:`~riichi_env.records.model.Game` into a :class:`PackedGame`
once; :func:`permute_suits` maps its tiles through a suit permutation (augmentation) without
reading the record again. The script of a hand lists the record's own moves (discards, riichi,
calls, kans) in order; draws are left to the engine, which deals from the hand's wall.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np

from engine.rules import GAME_LENGTHS, Rules
from engine.state import SANMA_UNUSED_SLOTS
from engine.tiles import red_ids
from riichi_env.core.record_seat import (
    S_CHI,
    S_DISCARD,
    SCRIPT_CODES,
    SCRIPT_WIDTH,
)
from riichi_env.dataset.pack_kernels import (
    WALL_TILE_RANGE,
    WALL_TOO_MANY_DRAWS,
    WALL_TWICE,
    compact_script,
    engine_wall,
    pack_hands,
)
from riichi_env.records.model import (
    Event,
    Game,
    Hand,
    RecordError,
    compact_events,
)
from riichi_env.records.wall import build_wall, hand_wall, to_engine_wall, wall_slots

_CODES = {name: code for code, name in enumerate(SCRIPT_CODES)}


@dataclass
class PackedGame:
    """The hands of a record that could be packed, as arrays (``H`` hands, ``S`` script rows).

    Attributes:
        walls: int32 (H, 136), each hand's wall in the engine's layout (``engine/state.py``; three
            players: its three-player layout, 2m-8m in the unused places).
        known: uint8 (H, 136), 1 where the record reveals that wall place (all 1 with a full wall).
        starts: int32 (H, 7), kyoku code, honba, riichi sticks, the four scores at hand start.
        script: int32 (S, 6), the recorded moves (``riichi_env.core.record_seat.SCRIPT_WIDTH`` columns).
        script_lo: int32 (H + 1,), hand ``h``'s rows are ``script_lo[h] : script_lo[h + 1]``.
        ends: int32 (H, 4), tsumo seat (-1), kyuushu kyuuhai (0/1), ron seats (bits), sanchahou.
        rec_deltas: int32 (H, 4), the record's point changes of each hand.
        finished: uint8 (H,), 1 when the record gives the hand's result.
        hand_ids: int32 (H,), the index of each packed hand in ``game.hands``.
        labels: each packed hand's label (``E1-0``).
        errors: (index in ``game.hands``, label, message) of hands that could not be packed.
        red: uint8 (136,), 1 for the red fives of the rules.
    """

    walls: np.ndarray
    known: np.ndarray
    starts: np.ndarray
    script: np.ndarray
    script_lo: np.ndarray
    ends: np.ndarray
    rec_deltas: np.ndarray
    finished: np.ndarray
    hand_ids: np.ndarray
    labels: list[str]
    errors: list[tuple[int, str, str]]
    red: np.ndarray
    full_walls: bool


def red_flags(rules: Rules) -> np.ndarray:
    """uint8 (136,): 1 for the tiles that are red fives under ``rules``."""
    red = np.zeros(136, dtype=np.uint8)
    red[list(red_ids(rules.red_fives))] = 1
    return red


def pack_game(game: Game, rules: Rules) -> PackedGame:
    """Pack every hand of ``game`` that has a consistent wall and start (others go to ``errors``)."""
    red_set = frozenset(red_ids(rules.red_fives))
    red = red_flags(rules)
    last = 4 * GAME_LENGTHS[rules.game_length] + rules.extension_hands - 1  # as engine deal_hand
    packed = _pack_compact(game, red_set, red, last)
    if packed is not None:
        return packed
    walls = np.empty((len(game.hands), 136), dtype=np.int32)
    known = np.empty((len(game.hands), 136), dtype=np.uint8)
    starts, ends, deltas, finished, ids, labels = [], [], [], [], [], []
    scripts: list[np.ndarray] = []
    lo = [0]
    errors: list[tuple[int, str, str]] = []
    full = True
    n = 0  # hands packed
    for index, hand in enumerate(game.hands):
        code = hand.round_wind * 4 + hand.kyoku
        if code > last:
            errors.append((index, hand.label, f"the rules ({rules.name}) end the game before it"))
            continue
        if hand.wall is not None:
            try:
                wall, layout = hand_wall(hand)
            except RecordError as exc:
                errors.append((index, hand.label, f"wall: {exc.detail}"))
                continue
        script, draws, rinshan = _script(hand, red_set)
        if hand.wall is not None:
            walls[n] = to_engine_wall(wall, layout, hand.dealer)
            known[n] = 1
        else:
            full = False
            try:
                if hand.players == 3:
                    walls[n], known[n] = _engine_wall_3p(hand)
                else:
                    _fit_wall(hand, draws, rinshan, walls[n], known[n])
            except RecordError as exc:
                errors.append((index, hand.label, f"wall: {exc.detail}"))
                continue
        _outcome(hand, code, starts, ends, deltas, finished)
        ids.append(index)
        labels.append(hand.label)
        scripts.append(script)
        lo.append(lo[-1] + len(script))
        n += 1
    return PackedGame(
        walls=walls[:n] if n < len(walls) else walls,
        known=known[:n] if n < len(known) else known,
        starts=np.array(starts, dtype=np.int32).reshape(n, 7),
        script=np.concatenate(scripts) if scripts else np.zeros((0, SCRIPT_WIDTH), np.int32),
        script_lo=np.array(lo, dtype=np.int32),
        ends=np.array(ends, dtype=np.int32).reshape(n, 4),
        rec_deltas=np.array(deltas, dtype=np.int32).reshape(n, 4),
        finished=np.array(finished, dtype=np.uint8),
        hand_ids=np.array(ids, dtype=np.int32),
        labels=labels,
        errors=errors,
        red=red,
        full_walls=full,
    )


def _outcome(hand: Hand, code: int, starts: list, ends: list, deltas: list, finished: list):
    """Append the hand's start (kyoku ``code``), end, point changes and whether finished."""
    wins, draw = hand.wins, hand.draw
    tsumo, ron = -1, 0
    for w in wins:
        if not w.tsumo:
            ron |= 1 << w.seat
        elif tsumo < 0:
            tsumo = w.seat
    kind = draw.kind if draw is not None else ""
    starts.append((code, hand.honba, hand.kyotaku, *hand.scores))
    ends.append((tsumo, int(kind == "kyuushu_kyuuhai"), ron, int(kind == "sanchahou")))
    deltas.append(hand.deltas)
    finished.append(int(bool(wins) or draw is not None))


def _pack_compact(
    game: Game, red_set: frozenset[int], red: np.ndarray, last: int
) -> PackedGame | None:
    """:func:`pack_game` of a record a reader holds compactly: every hand four-player, without a
    full wall, within the rules' game, dealt 13 tiles a seat, its events compact
    (``compact_events``); its scripts and walls in one compiled call (``pack_hands``). ``None``
    otherwise, or when a wall does not fit: the hand-by-hand path then packs it and names the
    hands it cannot."""
    hands = game.hands
    if not hands:
        return None
    ops, event_rows, revealed = [], [], []
    ops_lo, event_lo, revealed_lo, n_dora, dealers = [0], [0], [0], [], []
    starts, ends, deltas, finished = [], [], [], []
    for hand in hands:
        compact = compact_events(hand)
        code = hand.round_wind * 4 + hand.kyoku
        if compact is None or hand.wall is not None or hand.players != 4 or code > last:
            return None
        if [len(tiles) for tiles in hand.haipai] != [13, 13, 13, 13]:
            return None
        ops.append(compact.ops)
        ops_lo.append(ops_lo[-1] + len(compact.ops))
        event_rows.extend(_row(ev, red_set) or _NO_ROW for ev in compact.others)
        event_lo.append(len(event_rows))
        tiles, dora = _reveals(hand)
        revealed.extend(tiles)
        revealed_lo.append(len(revealed))
        n_dora.append(dora)
        dealers.append(hand.dealer)
        _outcome(hand, code, starts, ends, deltas, finished)
    n = len(hands)
    all_ops = np.concatenate(ops)
    script = np.empty((len(all_ops), SCRIPT_WIDTH), dtype=np.int32)
    script_lo = np.empty(n + 1, dtype=np.int32)
    walls = np.empty((n, 136), dtype=np.int32)
    known = np.empty((n, 136), dtype=np.uint8)
    problems = np.empty((n, 3), dtype=np.int32)
    i32 = np.int32
    rows = pack_hands(
        all_ops,
        np.array(ops_lo, dtype=i32),
        np.array(event_rows, dtype=i32).reshape(-1, SCRIPT_WIDTH),
        np.array(event_lo, dtype=i32),
        np.array(revealed, dtype=i32),
        np.array(revealed_lo, dtype=i32),
        np.array(n_dora, dtype=i32),
        np.array(dealers, dtype=i32),
        script,
        script_lo,
        walls,
        known,
        problems,
    )
    if problems[:, 0].any():
        return None
    return PackedGame(
        walls=walls,
        known=known,
        starts=np.array(starts, dtype=np.int32).reshape(n, 7),
        script=script[:rows],
        script_lo=script_lo,
        ends=np.array(ends, dtype=np.int32).reshape(n, 4),
        rec_deltas=np.array(deltas, dtype=np.int32).reshape(n, 4),
        finished=np.array(finished, dtype=np.uint8),
        hand_ids=np.arange(n, dtype=np.int32),
        labels=[hand.label for hand in hands],
        errors=[],
        red=red,
        full_walls=False,
    )


_NO_ROW = (-1,) * SCRIPT_WIDTH
_NO_ROWS = np.zeros((0, SCRIPT_WIDTH), dtype=np.int32)


def _script(hand: Hand, red_set: frozenset[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hand's script rows (int32 (rows, ``SCRIPT_WIDTH``)), its draws in order and its
    replacement draws in order (int32)."""
    compact = compact_events(hand)
    if compact is not None:  # a reader's compact form: no Event objects for draws and discards
        ops = compact.ops
        m = len(ops)
        event_rows = (
            np.array([_row(ev, red_set) or _NO_ROW for ev in compact.others], dtype=np.int32)
            if compact.others
            else _NO_ROWS
        )
        space = np.empty(m * (SCRIPT_WIDTH + 2), dtype=np.int32)
        script = space[: m * SCRIPT_WIDTH].reshape(m, SCRIPT_WIDTH)
        draws, rinshan = space[m * SCRIPT_WIDTH : -m], space[-m:] if m else space
        r, d, k = compact_script(ops, event_rows, script, draws, rinshan)
        return script[:r], draws[:d], rinshan[:k]
    rows: list[int] = []  # flat: SCRIPT_WIDTH ints a row (NumPy reads a flat list fastest)
    draws_: list[int] = []
    rinshan_: list[int] = []
    add = rows.extend
    for ev in hand.events:
        typ = ev.type
        if typ == "discard":  # most events: the first test
            add((S_DISCARD, ev.seat, ev.tile, -1, -1, 0))
        elif typ == "draw":
            (rinshan_ if ev.rinshan else draws_).append(ev.tile)
        else:
            row = _row(ev, red_set)
            if row is not None:
                add(row)
    return (
        np.array(rows, dtype=np.int32).reshape(-1, SCRIPT_WIDTH),
        np.array(draws_, dtype=np.int32),
        np.array(rinshan_, dtype=np.int32),
    )


def _row(ev: Event, red_set: frozenset[int]) -> tuple[int, ...] | None:
    """The script row of an event other than a draw or discard (``None``: not in the script)."""
    c = _CODES.get(ev.type)
    if c is None:
        return None
    aux = -1
    red_used = 0
    if ev.consumed:
        red_used = int(any(t in red_set for t in ev.consumed))
        aux = min(ev.consumed, key=lambda t: t // 4) if c == S_CHI else ev.consumed[0]
    return (c, ev.seat, ev.tile, ev.from_seat, aux, red_used)


def _engine_wall(hand, draws: list[int], rinshan: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """A wall in the engine's layout that fits every tile the hand's record reveals (the deal,
    the draws in order, replacement draws, dora and ura indicators), the unseen places filled
    with the tiles nobody saw in id order; and which places the record reveals."""
    wall = np.empty(136, dtype=np.int32)
    known = np.empty(136, dtype=np.uint8)
    _fit_wall(hand, np.asarray(draws, np.int32), np.asarray(rinshan, np.int32), wall, known)
    return wall, known


def _fit_wall(hand, draws: np.ndarray, rinshan: np.ndarray, wall: np.ndarray, known: np.ndarray):
    """:func:`_engine_wall` into ``wall`` and ``known`` (int32 draws and replacement draws)."""
    dealer = hand.dealer
    for i in range(4):
        tiles = hand.haipai[(dealer + i) % 4]
        if len(tiles) != 13:
            raise RecordError(f"seat {(dealer + i) % 4} is dealt {len(tiles)} tiles, not 13")
    tiles, n_dora = _reveals(hand)
    revealed = np.array(tiles, dtype=np.int32)
    problem, a, b = engine_wall(revealed, n_dora, dealer, draws, rinshan, wall, known)
    if problem == WALL_TOO_MANY_DRAWS:
        raise RecordError(f"{a} draws and {b} replacement draws: more than a wall has")
    if problem == WALL_TILE_RANGE:
        raise RecordError("a tile id outside 0-135")
    if problem == WALL_TWICE:
        raise RecordError(f"tile id {a} appears {b} times")


def _reveals(hand: Hand) -> tuple[list[int], int]:
    """What a hand's record reveals of its wall, as ``engine_wall`` reads it: the deal (seat 0
    first), then at most five dora and five ura indicators; and how many dora indicators."""
    dora = hand.dora_indicators[:5]
    return [*itertools.chain.from_iterable(hand.haipai), *dora, *hand.ura_indicators[:5]], len(dora)


def _engine_wall_3p(hand) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_engine_wall` of a three-player hand: the wall ``riichi_env.records.wall``
    builds in the engine's three-player layout (2m-8m in the unused places), and which places the
    record reveals (the unused places count as revealed: the rules fix them)."""
    wall = np.array(build_wall(hand), dtype=np.int32)
    known = np.zeros(136, dtype=np.uint8)
    known[list(SANMA_UNUSED_SLOTS)] = 1
    known[[p for p, _, _ in wall_slots(hand)]] = 1
    return wall, known


SUIT_PERMUTATIONS = ((0, 1, 2), (1, 0, 2), (0, 2, 1), (2, 1, 0), (1, 2, 0), (2, 0, 1))
"""Suit permutations (where man, pin, sou go), the identity first and the man-pin swap second;
``permute_suits`` index ``p`` is ``SUIT_PERMUTATIONS[p]``."""


def tile_permutation(perm: tuple[int, int, int]) -> np.ndarray:
    """int32 (136,): where each tile136 goes when suit ``s`` becomes suit ``perm[s]`` (same
    number, same copy; honors stay)."""
    out = np.arange(136, dtype=np.int32)
    for t in range(108):
        k, copy = divmod(t, 4)
        out[t] = (perm[k // 9] * 9 + k % 9) * 4 + copy
    return out


def permute_suits(packed: PackedGame, perm: tuple[int, int, int]) -> PackedGame:
    """The packed record with every tile's suit permuted (``SUIT_PERMUTATIONS``).

    The red fives must be the same in the suits swapped (they are the same copy ids), so the
    permuted record has the same red fives; raises ``ValueError`` otherwise. Point changes stay:
    every yaku is the same under a suit permutation except ryuuiisou (all green is souzu), whose
    permuted hand no longer scores and is dropped as an outcome difference.
    """
    table = tile_permutation(perm)
    if not np.array_equal(packed.red[table], packed.red):
        raise ValueError(f"suit permutation {perm} needs the same red fives in the suits it swaps")
    script = packed.script.copy()
    if script.shape[0]:
        script[:, 2] = table[script[:, 2]]
        aux = script[:, 4]
        script[:, 4] = np.where(aux >= 0, table[np.maximum(aux, 0)], -1)
    return replace(packed, walls=table[packed.walls], script=script)
