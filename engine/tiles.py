"""Tiles: 34 kinds, 136 physical ids, red fives, and mpsz text.

``tile34`` is a kind 0–33: 0–8 man, 9–17 pin, 18–26 sou, 27–33 East South West North Haku Hatsu
Chun. ``tile136`` is a physical id; ``tile136 // 4`` is its kind. Red fives are the copies with
``id % 4 == 0`` of 5m, 5p and 5s (ids 16, 52, 88); a ruleset with two red 5p also makes 53 red.
``hand34`` is a ``uint8[34]`` array of counts. Text is mpsz: ``"123m406p789s11z"``, ``0`` = red five.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from engine._numba import njit
from engine.arguments import ascii_digit_error, check_int, describe

N_KINDS = 34
"""Tile kinds."""
N_TILES = 136
"""Physical tiles: four copies of every kind."""

M1, M2, M3, M4, M5, M6, M7, M8, M9 = range(0, 9)
P1, P2, P3, P4, P5, P6, P7, P8, P9 = range(9, 18)
S1, S2, S3, S4, S5, S6, S7, S8, S9 = range(18, 27)
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)

FIVES = (M5, P5, S5)
"""Kinds that can be red, in suit order m, p, s."""
TERMINALS_HONORS = (M1, M9, P1, P9, S1, S9, EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN)
"""The 13 kinds of kokushi musou (yaochuuhai)."""
GREEN = (S2, S3, S4, S6, S8, HATSU)
"""The kinds allowed in ryuuiisou."""

SUITS = "mpsz"


def is_honor(tile34: int) -> bool:
    """True for winds and dragons."""
    return tile34 >= EAST


def is_terminal_or_honor(tile34: int) -> bool:
    """True for 1, 9 and honors (yaochuuhai)."""
    return tile34 >= EAST or tile34 % 9 in (0, 8)


def red_ids(red_fives: Sequence[int] = (1, 1, 1)) -> tuple[int, ...]:
    """Physical ids that are red, given red fives per suit (m, p, s), each 0–4."""
    if isinstance(red_fives, (str, bytes)) or not isinstance(red_fives, (Sequence, np.ndarray)):
        raise TypeError(f"red_fives must be three ints 0-4 (m, p, s), got {describe(red_fives)}")
    if len(red_fives) != 3:
        raise ValueError(f"red_fives must be three ints 0-4 (m, p, s), got {tuple(red_fives)}")
    ids = []
    for suit, count in enumerate(red_fives):
        count = check_int(f"red_fives[{suit}] (red fives per suit)", count, 0, 4)
        ids.extend(FIVES[suit] * 4 + k for k in range(count))
    return tuple(ids)


def red_mask136(red_fives: Sequence[int] = (1, 1, 1)) -> np.ndarray:
    """``bool[136]``: which physical ids are red under this configuration."""
    mask = np.zeros(N_TILES, dtype=np.bool_)
    mask[list(red_ids(red_fives))] = True
    return mask


def tile34_to_str(tile34: int) -> str:
    """One kind as mpsz, e.g. ``"5p"``, ``"7z"``."""
    tile34 = check_int("tile34", tile34, 0, N_KINDS - 1)
    return f"{tile34 % 9 + 1}{SUITS[tile34 // 9]}"


def tile136_to_str(tile136: int, red_fives: Sequence[int] = (1, 1, 1)) -> str:
    """One physical tile as mpsz, ``0`` for a red five."""
    tile136 = check_int("tile136", tile136, 0, N_TILES - 1)
    if tile136 in red_ids(red_fives):
        return f"0{SUITS[tile136 // 36]}"
    return tile34_to_str(tile136 // 4)


def _parse_groups(text: str) -> list[tuple[int, bool]]:
    """(tile34, is_red) for each tile of an mpsz string, in order; raises on bad text."""
    if not isinstance(text, str):
        raise TypeError(f"mpsz tiles must be a str, got {type(text).__name__}")
    tiles: list[tuple[int, bool]] = []
    digits = ""
    for pos, ch in enumerate(text):
        if "0" <= ch <= "9":
            digits += ch
        elif ch.isdigit() or ch.isdecimal() or ch.isnumeric():
            raise ValueError(ascii_digit_error(text, ch, pos))
        elif ch in SUITS:
            if not digits:
                raise ValueError(
                    f"malformed tile string {text!r}: suit {ch!r} at {pos} has no digits"
                )
            for d in digits:
                n = int(d)
                if ch == "z":
                    if not 1 <= n <= 7:
                        raise ValueError(
                            f"malformed tile string {text!r}: honor {d}z does not exist"
                        )
                    tiles.append((EAST + n - 1, False))
                else:
                    base = SUITS.index(ch) * 9
                    tiles.append((base + 4, True) if n == 0 else (base + n - 1, False))
            digits = ""
        elif not ch.isspace():
            raise ValueError(
                f"malformed tile string {text!r}: unexpected character {ch!r} at {pos}"
            )
    if digits:
        raise ValueError(f"malformed tile string {text!r}: {digits!r} has no suit letter")
    return tiles


def parse_tile(text: str) -> int:
    """One tile such as ``"5m"`` or ``"0p"`` as its kind (tile34)."""
    tiles = _parse_groups(text)
    if len(tiles) != 1:
        raise ValueError(f"expected exactly one tile, got {text!r}")
    return tiles[0][0]


def parse_tile34(text: str) -> list[int]:
    """Kinds of an mpsz string, in order (red fives become plain fives)."""
    return [t for t, _ in _parse_groups(text)]


def parse_hand34(text: str) -> np.ndarray:
    """An mpsz string as ``uint8[34]`` counts; raises on a fifth copy."""
    hand = np.zeros(N_KINDS, dtype=np.uint8)
    for t, _ in _parse_groups(text):
        hand[t] += 1
        if hand[t] > 4:
            raise ValueError(f"malformed tile string {text!r}: five copies of {tile34_to_str(t)}")
    return hand


def count_red(text: str) -> int:
    """Number of red fives (``0``) written in an mpsz string."""
    return sum(red for _, red in _parse_groups(text))


def parse_tile136(text: str, red_fives: Sequence[int] = (1, 1, 1)) -> np.ndarray:
    """An mpsz string as physical ids (``int32``), red fives on their red copies.

    Plain fives take the non-red copies first, so ``"555m"`` with one red 5m is ids 17, 18, 19.
    Raises ``ValueError`` on a fifth copy, or more red fives than the configuration has.
    """
    reds = red_ids(red_fives)
    used = np.zeros(N_TILES, dtype=np.bool_)
    out = np.empty(len(_parse_groups(text)), dtype=np.int32)
    for i, (t, red) in enumerate(_parse_groups(text)):
        candidates = [t * 4 + k for k in range(4)]
        if red:
            pool = [c for c in candidates if c in reds and not used[c]]
            if not pool:
                have = sum(c in reds for c in candidates)
                raise ValueError(
                    f"malformed tile string {text!r}: more red {tile34_to_str(t)} than the "
                    f"{have} this ruleset has"
                )
        else:
            pool = [c for c in candidates if c not in reds and not used[c]]
            pool += [c for c in candidates if c in reds and not used[c]] if not pool else []
            if not pool:
                raise ValueError(
                    f"malformed tile string {text!r}: five copies of {tile34_to_str(t)}"
                )
            if pool[0] in reds:
                raise ValueError(
                    f"malformed tile string {text!r}: a plain {tile34_to_str(t)} would have to "
                    "be a red copy; write it as 0"
                )
        used[pool[0]] = True
        out[i] = pool[0]
    return out


def hand34_to_str(hand34: Sequence[int] | np.ndarray, n_red: Sequence[int] = (0, 0, 0)) -> str:
    """Counts as mpsz (``"123m55p"``); ``n_red`` fives per suit are written as ``0``."""
    hand = np.asarray(hand34)
    if hand.shape != (N_KINDS,):
        raise ValueError(f"hand34 must have shape (34,), got {hand.shape}")
    if not np.issubdtype(hand.dtype, np.integer):
        raise TypeError(f"hand34 must hold integer counts, got dtype {hand.dtype}")
    out = []
    for suit in range(4):
        digits = []
        for i in range(9 if suit < 3 else 7):
            t = suit * 9 + i
            n = int(hand[t])
            if n < 0 or n > 4:
                raise ValueError(f"hand34 count of {tile34_to_str(t)} is {n}, must be 0-4")
            if suit < 3 and i == 4:
                red = min(int(n_red[suit]), n)
                digits.append("0" * red + "5" * (n - red))
            else:
                digits.append(str(i + 1) * n)
        text = "".join(digits)
        if text:
            out.append(text + SUITS[suit])
    return "".join(out)


def tiles136_to_str(tiles: Iterable[int], red_fives: Sequence[int] = (1, 1, 1)) -> str:
    """Physical ids as sorted mpsz, red fives as ``0``."""
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Iterable):
        raise TypeError(f"tiles must be an iterable of tile136 ids, got {describe(tiles)}")
    reds = set(red_ids(red_fives))
    hand = np.zeros(N_KINDS, dtype=np.int64)
    n_red = [0, 0, 0]
    for t in tiles:
        t = check_int("tile136", t, 0, N_TILES - 1)
        hand[t // 4] += 1
        if t in reds:
            n_red[t // 36] += 1
    return hand34_to_str(hand, n_red)


def dora_from_indicator(indicator34: int) -> int:
    """The dora kind that an indicator kind points to (9 → 1, North → East, Chun → Haku)."""
    indicator34 = check_int("tile34", indicator34, 0, N_KINDS - 1)
    return int(_dora_from_indicator(indicator34))


@njit(inline="always")
def _dora_from_indicator(indicator34):
    if indicator34 < 27:
        return indicator34 - indicator34 % 9 + (indicator34 % 9 + 1) % 9
    if indicator34 < 31:
        return 27 + (indicator34 - 27 + 1) % 4
    return 31 + (indicator34 - 31 + 1) % 3


@njit
def _hand34_from_tile136(tiles136, out34):
    """Fill ``out34`` (uint8[34]) with the counts of the physical ids in ``tiles136``."""
    out34[:] = 0
    for i in range(tiles136.shape[0]):
        out34[tiles136[i] // 4] += 1
