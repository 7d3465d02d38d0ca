"""Agari: every reading of a complete hand (4 sets + pair, chiitoitsu, kokushi musou).

A *reading* of the concealed part of a standard hand is one pair plus ``n`` sets, where ``n`` is
four minus the called melds. Sets are coded as ints: a sequence is its lowest tile34 (0-26), a
triplet is ``SET_TRIPLET + tile34``. Every distinct reading is listed, because the scorer keeps
the one that pays most (docs/rules.md "Highest reading").

The search is over counts: the pair must sit in the one suit whose tile count is 2 mod 3; after
taking it, a reading is fixed by which kinds (count >= 3) are read as triplets, and the rest must
split into sequences greedily. A 14-tile hand has at most four such kinds, so at most 16 subsets.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.tiles import N_KINDS, parse_hand34

SET_TRIPLET = 34
"""Set code offset: ``SET_TRIPLET + t`` is a triplet of kind ``t``; codes below are sequences."""
READING_WIDTH = 6
"""Ints per reading row: pair tile34, number of sets, then up to four set codes."""
MAX_READINGS = 32
"""Room for readings; no complete hand has more (checked in tests over all one-suit hands)."""
AGARI_READINGS = 2 * N_KINDS
"""Offset in ``work`` where ``_decompose`` writes its readings (flat rows of READING_WIDTH)."""
N_AGARI_WORK = AGARI_READINGS + MAX_READINGS * READING_WIDTH
"""Ints of ``work`` that ``_decompose`` uses: scratch, then the readings."""

TERMINALS_HONORS_MASK = np.int64(
    sum(1 << t for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
)
"""Bit ``t`` set for the 13 kokushi kinds (int64, so shifts stay 64-bit without JIT)."""


@njit
def _decompose(hand34, work):
    """Write every standard reading to ``work[AGARI_READINGS:]``.

    Args:
        hand34: uint8[34] concealed tiles, 3n+2 of them (n = 0..4).
        work: int32 of at least ``N_AGARI_WORK``: scratch, then reading ``r`` at
            ``AGARI_READINGS + r * READING_WIDTH``: pair, n_sets, set codes...

    Returns:
        Number of readings (0 = not a standard complete hand).
    """
    total = 0
    s0 = 0
    s1 = 0
    s2 = 0
    for i in range(9):
        s0 += hand34[i]
        s1 += hand34[9 + i]
        s2 += hand34[18 + i]
    total = s0 + s1 + s2
    pair_zone = -1
    n_two = 0
    for t in range(27, 34):
        c = hand34[t]
        total += c
        if c == 1 or c == 4:
            return 0
        if c == 2:
            n_two += 1
            pair_zone = 3
    if total % 3 != 2 or n_two > 1:
        return 0
    n_sets = (total - 2) // 3
    if pair_zone == 3:
        if s0 % 3 != 0 or s1 % 3 != 0 or s2 % 3 != 0:
            return 0
    else:
        r0 = s0 % 3
        r1 = s1 % 3
        r2 = s2 % 3
        if r0 == 2 and r1 == 0 and r2 == 0:
            pair_zone = 0
        elif r0 == 0 and r1 == 2 and r2 == 0:
            pair_zone = 1
        elif r0 == 0 and r1 == 0 and r2 == 2:
            pair_zone = 2
        else:
            return 0
    n = 0
    lo = pair_zone * 9
    hi = lo + 9 if pair_zone < 3 else 34
    for p in range(lo, hi):
        if hand34[p] < 2 or (p >= 27 and hand34[p] != 2):
            continue
        for i in range(N_KINDS):
            work[i] = hand34[i]
        work[p] -= 2
        cands = 0  # the suited kinds held three times or more, five bits each
        n_cand = 0
        for i in range(27):
            if work[i] >= 3:
                cands |= i << (5 * n_cand)
                n_cand += 1
        for mask in range(1 << n_cand):
            row = AGARI_READINGS + n * READING_WIDTH
            for i in range(27):
                work[N_KINDS + i] = work[i]
            k = 2
            for b in range(n_cand):
                if (mask >> b) & 1:
                    work[N_KINDS + ((cands >> 5 * b) & 31)] -= 3
            ok = True
            for suit in range(3):
                b = suit * 9
                for j in range(7):
                    c = work[N_KINDS + b + j]
                    if c > 0:
                        if work[N_KINDS + b + j + 1] < c or work[N_KINDS + b + j + 2] < c:
                            ok = False
                            break
                        work[N_KINDS + b + j + 1] -= c
                        work[N_KINDS + b + j + 2] -= c
                        for _ in range(c):
                            work[row + k] = b + j
                            k += 1
                if not ok or work[N_KINDS + b + 7] != 0 or work[N_KINDS + b + 8] != 0:
                    ok = False
                    break
            if not ok:
                continue
            for b in range(n_cand):
                if (mask >> b) & 1:
                    work[row + k] = SET_TRIPLET + ((cands >> 5 * b) & 31)
                    k += 1
            for t in range(27, 34):
                if work[t] == 3:
                    work[row + k] = SET_TRIPLET + t
                    k += 1
            work[row] = p
            work[row + 1] = n_sets
            n += 1
            if n == MAX_READINGS:
                return n
    return n


@njit
def _is_chiitoitsu(hand34):
    """Chiitoitsu shape: 14 concealed tiles as seven different pairs."""
    pairs = 0
    for t in range(34):
        c = hand34[t]
        if c == 2:
            pairs += 1
        elif c != 0:
            return False
    return pairs == 7


@njit
def _is_kokushi(hand34):
    """Kokushi musou shape: all 13 terminal/honor kinds, one of them twice, nothing else."""
    total = 0
    for t in range(34):
        c = hand34[t]
        total += c
        if (TERMINALS_HONORS_MASK >> t) & 1:
            if c == 0 or c > 2:
                return False
        elif c != 0:
            return False
    return total == 14


@njit
def _is_complete(hand34, work):
    """True for a complete concealed part: standard, chiitoitsu or kokushi (3n+2 tiles)."""
    if _decompose(hand34, work) > 0:
        return True
    return _is_chiitoitsu(hand34) or _is_kokushi(hand34)


def _as_hand34(hand: str | np.ndarray) -> np.ndarray:
    if isinstance(hand, str):
        return parse_hand34(hand)
    arr = np.asarray(hand)
    if arr.shape != (N_KINDS,):
        raise ValueError(f"hand34 must have shape (34,), got {arr.shape}")
    if arr.min() < 0 or arr.max() > 4:
        raise ValueError("hand34 counts must be 0-4")
    return arr.astype(np.uint8)


def decompose(hand: str | np.ndarray) -> list[tuple[int, tuple[tuple[str, int], ...]]]:
    """Every standard reading of a complete concealed part (3n+2 tiles).

    Args:
        hand: mpsz string or ``hand34`` counts.

    Returns:
        A list of ``(pair_tile34, sets)``; each set is ``("seq", lowest tile34)`` or
        ``("triplet", tile34)``, sets sorted. Empty when the tiles are not 4-sets-and-a-pair.
    """
    hand34 = _as_hand34(hand)
    n_tiles = int(hand34.sum())
    if n_tiles % 3 != 2 or n_tiles > 14:
        raise ValueError(f"a complete part has 2, 5, 8, 11 or 14 tiles, got {n_tiles}")
    work = np.zeros(N_AGARI_WORK, dtype=np.int32)
    n = _decompose(hand34, work)
    rows = work[AGARI_READINGS:].reshape(MAX_READINGS, READING_WIDTH)
    out = []
    for r in range(n):
        sets = []
        for k in range(int(rows[r, 1])):
            code = int(rows[r, 2 + k])
            if code >= SET_TRIPLET:
                sets.append(("triplet", code - SET_TRIPLET))
            else:
                sets.append(("seq", code))
        out.append((int(rows[r, 0]), tuple(sorted(sets))))
    return out


def is_agari(hand: str | np.ndarray) -> bool:
    """True when the concealed part (3n+2 tiles) is complete in any of the three shapes."""
    hand34 = _as_hand34(hand)
    if int(hand34.sum()) % 3 != 2:
        raise ValueError(f"a complete part has 3n+2 tiles, got {int(hand34.sum())}")
    work = np.zeros(N_AGARI_WORK, dtype=np.int32)
    return bool(_is_complete(hand34, work))
