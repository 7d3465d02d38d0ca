"""Shanten, waits and ukeire from per-suit lookup tables.

Shanten is the number of tiles a hand is away from tenpai: ``distance - 1``, where ``distance`` is
the fewest tiles that must be drawn (each replacing a discard) to hold a complete hand of the same
size. A complete standard hand of ``3n+2`` concealed tiles is ``n`` sets plus a pair, with at most
four copies of a kind in it; chiitoitsu (seven distinct pairs) and kokushi musou count only for
13/14 tiles.

The distance splits by suit: for each suit pattern (nine counts, base-5 code, ``5**9`` entries; the
honors have ``5**7``) the table stores, for every target of ``m`` sets (0-4) without / with a pair,
the fewest tiles to add so that the suit contains such a target. A hand's distance is a min-plus
combination of its four rows. Table columns: ``m`` = ``m`` sets, ``5 + m`` = ``m`` sets and a pair.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from engine._numba import njit
from engine.tiles import N_KINDS, hand34_to_str, parse_hand34, tile34_to_str

N_SUIT_CODES = 5**9
"""Entries of the suit table: base-5 code of nine counts, rank 1 most significant."""
N_HONOR_CODES = 5**7
"""Entries of the honor table: base-5 code of seven counts, East most significant."""
N_COLS = 10
"""Table columns: ``m`` sets (0-4) without a pair, then ``m`` sets with a pair."""
NOT_APPLICABLE = 99
"""Returned by ``_shanten_chiitoitsu`` / ``_shanten_kokushi`` for a hand that is not 13/14 tiles."""
_INF = 60


def _target_codes(n_kinds: int, runs: bool) -> list[list[int]]:
    """Codes of every complete pattern per table column (counts at most four)."""
    sets = [tuple(3 if j == i else 0 for j in range(n_kinds)) for i in range(n_kinds)]
    if runs:
        sets += [
            tuple(1 if i <= j < i + 3 else 0 for j in range(n_kinds)) for i in range(n_kinds - 2)
        ]
    weights = [5 ** (n_kinds - 1 - i) for i in range(n_kinds)]
    cols: list[list[int]] = [[] for _ in range(N_COLS)]
    for m in range(5):
        for combo in itertools.combinations_with_replacement(sets, m):
            base = [sum(s[i] for s in combo) for i in range(n_kinds)]
            if max(base, default=0) > 4:
                continue
            cols[m].append(sum(c * w for c, w in zip(base, weights, strict=True)))
            for i in range(n_kinds):
                if base[i] <= 2:
                    cols[5 + m].append(cols[m][-1] + 2 * weights[i])
    return cols


def build_table(n_kinds: int, runs: bool) -> np.ndarray:
    """``int8[5**n_kinds, 10]``: fewest tiles to add so the pattern holds each target.

    ``min over complete patterns C of sum(max(0, C_i - H_i))`` is a separable min-plus transform, so
    it is applied one axis at a time to the indicator of the complete patterns.
    """
    dist = np.full((N_COLS,) + (5,) * n_kinds, _INF, dtype=np.int8)
    flat = dist.reshape(N_COLS, -1)
    for col, codes in enumerate(_target_codes(n_kinds, runs)):
        flat[col, np.array(codes, dtype=np.int64)] = 0
    for axis in range(1, n_kinds + 1):
        x = np.moveaxis(dist, axis, 0)
        out = x.copy()
        for h in range(3, -1, -1):
            np.minimum(out[h], out[h + 1] + 1, out=out[h])
        prefix = x[0].copy()
        for h in range(1, 5):
            np.minimum(out[h], prefix, out=out[h])
            np.minimum(prefix, x[h], out=prefix)
        dist = np.moveaxis(out, 0, axis)
    return np.ascontiguousarray(dist.reshape(N_COLS, -1).T)


def build_shanten_tables() -> tuple[np.ndarray, np.ndarray]:
    """The suit table ``int8[5**9, 10]`` and the honor table ``int8[5**7, 10]``."""
    return build_table(9, True), build_table(7, False)


@njit
def _codes(hand34):
    """Base-5 codes of the man, pin, sou and honor counts, and the tile total."""
    c0 = 0
    c1 = 0
    c2 = 0
    for i in range(9):
        c0 = c0 * 5 + int(hand34[i])
        c1 = c1 * 5 + int(hand34[9 + i])
        c2 = c2 * 5 + int(hand34[18 + i])
    c3 = 0
    for i in range(27, 34):
        c3 = c3 * 5 + int(hand34[i])
    n = 0
    for i in range(34):
        n += int(hand34[i])
    return c0, c1, c2, c3, n


@njit(inline="always")
def _split_min(a, ia, b, ib, m):
    """Fewest tiles to add for ``m`` sets split between rows ``a[ia]`` and ``b[ib]``: without a
    pair, and with one (in either row)."""
    x0 = _INF
    x1 = _INF
    for i in range(m + 1):
        j = m - i
        u = int(a[ia, i]) + int(b[ib, j])
        if u < x0:
            x0 = u
        u = min(int(a[ia, 5 + i]) + int(b[ib, j]), int(a[ia, i]) + int(b[ib, 5 + j]))
        if u < x1:
            x1 = u
    return x0, x1


@njit
def _combine(suit_table, honor_table, c0, c1, c2, c3, n_sets):
    """Fewest tiles to add for ``n_sets`` sets and a pair, from the four groups' codes.

    Min-plus over the split of the sets between (man, pin) and (sou, honors), the pair in either half.
    """
    best = _INF
    for i in range(n_sets + 1):
        x0, x1 = _split_min(suit_table, c0, suit_table, c1, i)
        y0, y1 = _split_min(suit_table, c2, honor_table, c3, n_sets - i)
        u = min(x0 + y1, x1 + y0)
        if u < best:
            best = u
    return best


@njit
def _shanten_standard(hand34, suit_table, honor_table):
    """Shanten of the standard form (``n`` sets and a pair) of a 3n+1 / 3n+2 concealed part."""
    c0, c1, c2, c3, n = _codes(hand34)
    return _combine(suit_table, honor_table, c0, c1, c2, c3, n // 3) - 1


@njit
def _shanten_chiitoitsu(hand34, suit_table, honor_table):
    """Shanten of chiitoitsu (seven distinct pairs); ``NOT_APPLICABLE`` unless 13/14 tiles."""
    n = 0
    pairs = 0
    kinds = 0
    for i in range(34):
        c = int(hand34[i])
        n += c
        if c >= 1:
            kinds += 1
        if c >= 2:
            pairs += 1
    if n != 13 and n != 14:
        return NOT_APPLICABLE
    s = 6 - pairs
    if kinds < 7:
        s += 7 - kinds
    return s


@njit
def _shanten_kokushi(hand34, suit_table, honor_table):
    """Shanten of kokushi musou (13 terminal/honor kinds plus a pair of one); 13/14 tiles only."""
    n = 0
    for i in range(34):
        n += int(hand34[i])
    if n != 13 and n != 14:
        return NOT_APPLICABLE
    kinds, pairs, y_kinds, y_pair = _stats(hand34)
    return 13 - y_kinds - y_pair


@njit
def _shanten(hand34, suit_table, honor_table):
    """Shanten of a 3n+1 / 3n+2 concealed part: min of standard, chiitoitsu, kokushi; -1 = agari."""
    c0 = np.int64(0)
    c1 = np.int64(0)
    c2 = np.int64(0)
    c3 = np.int64(0)
    n = np.int64(0)
    kinds = 0
    pairs = 0
    for i in range(9):
        a = int(hand34[i])
        b = int(hand34[9 + i])
        c = int(hand34[18 + i])
        c0 = c0 * 5 + a
        c1 = c1 * 5 + b
        c2 = c2 * 5 + c
        n += a + b + c
        kinds += (a > 0) + (b > 0) + (c > 0)
        pairs += (a > 1) + (b > 1) + (c > 1)
    for i in range(27, 34):
        a = int(hand34[i])
        c3 = c3 * 5 + a
        n += a
        kinds += a > 0
        pairs += a > 1
    s = _combine(suit_table, honor_table, c0, c1, c2, c3, n // 3) - 1
    if n == 13 or n == 14:
        chiitoitsu = 6 - pairs
        if kinds < 7:
            chiitoitsu += 7 - kinds
        if chiitoitsu < s:
            s = chiitoitsu
        if s > 0:
            y_kinds = 0
            y_pair = 0
            for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
                a = int(hand34[t])
                y_kinds += a > 0
                y_pair |= a > 1
            if 13 - y_kinds - y_pair < s:
                s = 13 - y_kinds - y_pair
    return s


@njit
def _shanten_batch(hands34, suit_table, honor_table, out):
    """``_shanten`` of every row of ``uint8[N, 34]`` into ``out`` (``int8[N]``)."""
    for i in range(hands34.shape[0]):
        out[i] = _shanten(hands34[i], suit_table, honor_table)


@njit
def _is_agari(hand34, suit_table, honor_table):
    """True if a 3n+2 concealed part is complete (standard, chiitoitsu or kokushi)."""
    c0, c1, c2, c3, n = _codes(hand34)
    if n % 3 != 2:
        return False
    if _combine(suit_table, honor_table, c0, c1, c2, c3, n // 3) == 0:
        return True
    if n != 14:
        return False
    return (
        _shanten_chiitoitsu(hand34, suit_table, honor_table) == -1
        or _shanten_kokushi(hand34, suit_table, honor_table) == -1
    )


@njit
def _stats(hand34):
    """Kinds held, kinds held twice or more, terminal/honor kinds held, and whether one is paired."""
    kinds = 0
    pairs = 0
    y_kinds = 0
    y_pair = 0
    for i in range(34):
        c = int(hand34[i])
        if c >= 1:
            kinds += 1
        if c >= 2:
            pairs += 1
        if i >= 27 or i % 9 == 0 or i % 9 == 8:
            if c >= 1:
                y_kinds += 1
            if c >= 2:
                y_pair = 1
    return kinds, pairs, y_kinds, y_pair


@njit(inline="always")
def _merge(a, ia, b, ib, out, io, n_sets):
    """Min-plus merge of distance rows ``a[ia]`` and ``b[ib]`` into ``out[io]`` (up to ``n_sets``)."""
    for m in range(n_sets + 1):
        out[io, m], out[io, 5 + m] = _split_min(a, ia, b, ib, m)


@njit
def _others(suit_table, honor_table, codes, n_sets, ws):
    """``ws[2 + g]``: the merged distance row of the three groups other than ``g``."""
    c0, c1, c2, c3, n = codes
    _merge(suit_table, c0, suit_table, c1, ws, 0, n_sets)
    _merge(suit_table, c2, honor_table, c3, ws, 1, n_sets)
    _merge(suit_table, c1, ws, 1, ws, 2, n_sets)
    _merge(suit_table, c0, ws, 1, ws, 3, n_sets)
    _merge(ws, 0, honor_table, c3, ws, 4, n_sets)
    _merge(ws, 0, suit_table, c2, ws, 5, n_sets)


@njit
def _plus_standard(table, code, ws, g, n_sets):
    """Standard distance with group ``g`` at ``table[code]`` and the others merged in ``ws[2 + g]``."""
    best = _INF
    for m in range(n_sets + 1):
        u = min(
            int(table[code, m]) + ws[2 + g, 5 + n_sets - m],
            int(table[code, 5 + m]) + ws[2 + g, n_sets - m],
        )
        if u < best:
            best = u
    return best


@njit
def _plus_special(hand34, t, n, stats):
    """Min of chiitoitsu and kokushi shanten of the hand plus one ``t``; 13/14 tiles only."""
    if n + 1 != 13 and n + 1 != 14:
        return NOT_APPLICABLE
    kinds, pairs, y_kinds, y_pair = stats
    held = int(hand34[t])
    if held == 0:
        kinds += 1
    elif held == 1:
        pairs += 1
    s = 6 - pairs
    if kinds < 7:
        s += 7 - kinds
    if t >= 27 or t % 9 == 0 or t % 9 == 8:
        if held == 0:
            y_kinds += 1
        elif held == 1:
            y_pair = 1
    return min(s, 13 - y_kinds - y_pair)


@njit
def _plus_workspace(hand34, suit_table, honor_table):
    """Codes, stats and the ``_others`` workspace for evaluating ``hand34`` plus one tile."""
    codes = _codes(hand34)
    ws = np.empty((6, N_COLS), np.int64)
    _others(suit_table, honor_table, codes, (codes[4] + 1) // 3, ws)
    return codes, _stats(hand34), ws


@njit
def _waits(hand34, suit_table, honor_table, out_bool34):
    """Mark in ``out_bool34`` the kinds ``t`` with ``hand34[t] < 4`` that complete a 3n+1 hand.

    Returns how many; a kind held four times is never a wait (docs/rules.md: formal tenpai).
    """
    for t in range(34):
        out_bool34[t] = False
    n = np.int64(0)
    for t in range(34):
        n += int(hand34[t])
    if n % 3 != 1 or _shanten(hand34, suit_table, honor_table) != 0:
        return 0
    codes, stats, ws = _plus_workspace(hand34, suit_table, honor_table)
    n_sets = (n + 1) // 3
    count = 0
    for g in range(4):
        table = suit_table if g < 3 else honor_table
        width = 9 if g < 3 else 7
        w = 390625 if g < 3 else 15625
        for k in range(width):
            t = 9 * g + k
            held = int(hand34[t])
            if held < 4:
                near = held > 0
                if g < 3:
                    for j in range(max(0, k - 2), min(width, k + 3)):
                        near |= hand34[9 * g + j] > 0
                win = near and _plus_standard(table, codes[g] + w, ws, g, n_sets) == 0
                if win or _plus_special(hand34, t, n, stats) == -1:
                    out_bool34[t] = True
                    count += 1
            w //= 5
    return count


@njit
def _ukeire(hand34, visible34, suit_table, honor_table):
    """Unseen tiles (``4 - hand - visible`` per kind) that lower the shanten of a 3n+1 hand."""
    n = np.int64(0)
    for t in range(34):
        n += int(hand34[t])
    if n % 3 != 1:
        return -1
    base = _shanten(hand34, suit_table, honor_table)
    codes, stats, ws = _plus_workspace(hand34, suit_table, honor_table)
    n_sets = (n + 1) // 3
    total = 0
    for g in range(4):
        table = suit_table if g < 3 else honor_table
        width = 9 if g < 3 else 7
        w = 390625 if g < 3 else 15625
        for k in range(width):
            t = 9 * g + k
            left = 4 - int(hand34[t]) - int(visible34[t])
            if left > 0:
                s = _plus_standard(table, codes[g] + w, ws, g, n_sets) - 1
                if s >= base:
                    s = min(s, _plus_special(hand34, t, n, stats))
                if s < base:
                    total += left
            w //= 5
    return total


def _as_hand34(hand: str | Sequence[int] | np.ndarray, what: str = "hand") -> np.ndarray:
    """An mpsz string or 34 counts as a fresh ``uint8[34]``; raises on bad input."""
    if isinstance(hand, str):
        return parse_hand34(hand)
    try:
        arr = np.asarray(hand)
    except Exception as exc:
        raise TypeError(f"{what} must be an mpsz string or 34 counts, got {hand!r}") from exc
    if arr.shape != (N_KINDS,):
        raise ValueError(f"{what} must be an mpsz string or 34 counts, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{what} counts must be integers, got dtype {arr.dtype}")
    bad = np.flatnonzero((arr < 0) | (arr > 4))
    if bad.size:
        t = int(bad[0])
        raise ValueError(f"{what} count of {tile34_to_str(t)} is {int(arr[t])}, must be 0-4")
    return arr.astype(np.uint8)


def _checked(hand: str | Sequence[int] | np.ndarray, closed_only: bool) -> np.ndarray:
    """Validated ``uint8[34]`` of a concealed part: 3n+1 tiles, or 3n+2 too if not ``closed_only``."""
    h = _as_hand34(hand)
    n = int(h.sum())
    ok = 1 <= n <= 14 and (n % 3 == 1 or (n % 3 == 2 and not closed_only))
    if not ok:
        need = "3n+1" if closed_only else "3n+1 or 3n+2"
        raise ValueError(f"hand {hand34_to_str(h) or '(empty)'} has {n} tiles; need {need}, 1-14")
    return h


def shanten(hand: str | Sequence[int] | np.ndarray) -> int:
    """Shanten of a concealed part of 3n+1 or 3n+2 tiles (mpsz or ``hand34``); -1 = agari.

    Minimum over the standard form, chiitoitsu and kokushi musou (the last two for 13/14 tiles).
    """
    from engine.tables import load_tables

    h = _checked(hand, closed_only=False)
    t = load_tables()
    return int(_shanten(h, t.shanten_suit, t.shanten_honor))


def waits(hand: str | Sequence[int] | np.ndarray) -> list[int]:
    """Sorted tile34 kinds that complete a 3n+1 hand, except kinds it holds all four of."""
    from engine.tables import load_tables

    h = _checked(hand, closed_only=True)
    t = load_tables()
    out = np.zeros(N_KINDS, dtype=np.bool_)
    _waits(h, t.shanten_suit, t.shanten_honor, out)
    return [int(k) for k in np.flatnonzero(out)]


def ukeire(
    hand: str | Sequence[int] | np.ndarray,
    visible: str | Sequence[int] | np.ndarray | None = None,
) -> int:
    """Number of unseen tiles that lower the shanten of a 3n+1 hand.

    ``visible`` holds the other tiles the player can see (discards, melds, dora indicators); a kind
    has ``4 - hand - visible`` tiles unseen.
    """
    from engine.tables import load_tables

    h = _checked(hand, closed_only=True)
    if visible is None:
        v = np.zeros(N_KINDS, dtype=np.uint8)
    else:
        v = _as_hand34(visible, "visible")
        over = np.flatnonzero(h.astype(np.int64) + v > 4)
        if over.size:
            raise ValueError(
                f"hand {hand34_to_str(h)} and visible {hand34_to_str(v)} hold more than four "
                f"of {tile34_to_str(int(over[0]))}"
            )
    t = load_tables()
    return int(_ukeire(h, v, t.shanten_suit, t.shanten_honor))
