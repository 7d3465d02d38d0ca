"""Fu: set, pair and wait fu, and the hand total (docs/rules.md, Scoring).

20 base; +10 closed ron; +2 tsumo (not pinfu); sets 2/4/8/16/32 (triplet of simples open 2,
doubled for terminals/honors, doubled when concealed, times four for a kan); a value pair 2 per
reason (a double-wind pair 4); +2 for kanchan, penchan or tanki. Round up to 10. Pinfu tsumo is
20, pinfu ron 30, chiitoitsu 25, and an open hand that comes to 20 is 30.
"""

from __future__ import annotations

from engine._numba import njit

WAIT_RYANMEN = 0
WAIT_SHANPON = 1
WAIT_KANCHAN = 2
WAIT_PENCHAN = 3
WAIT_TANKI = 4
WAIT_NAMES = ("ryanmen", "shanpon", "kanchan", "penchan", "tanki")

FU_CHIITOITSU = 25


@njit(inline="always")
def _set_fu(tile34, is_kan, concealed):
    """Fu of a triplet or kan: 2 open simple, x2 terminal/honor, x2 concealed, x4 kan."""
    fu = 2
    if tile34 >= 27 or tile34 % 9 == 0 or tile34 % 9 == 8:
        fu *= 2
    if concealed:
        fu *= 2
    if is_kan:
        fu *= 4
    return fu


@njit
def _pair_fu(pair, seat_tile, round_tile):
    """Pair fu: 2 for a dragon, 2 for the seat wind, 2 for the round wind (double wind 4)."""
    fu = 0
    if pair >= 31:
        fu += 2
    if pair == seat_tile:
        fu += 2
    if pair == round_tile:
        fu += 2
    return fu


@njit
def _seq_wait(seq_low, win_tile):
    """Wait type of a sequence (lowest tile ``seq_low``) completed by ``win_tile``."""
    pos = win_tile - seq_low
    if pos == 1:
        return WAIT_KANCHAN
    if (pos == 2 and seq_low % 9 == 0) or (pos == 0 and seq_low % 9 == 6):
        return WAIT_PENCHAN
    return WAIT_RYANMEN


@njit
def _wait_fu(wait):
    """2 fu for kanchan, penchan and tanki; 0 for ryanmen and shanpon."""
    return 2 if wait >= WAIT_KANCHAN else 0


@njit(inline="always")
def _round_fu(raw, menzen, tsumo, pinfu):
    """Total fu from the summed parts (which exclude base, menzen ron and tsumo fu)."""
    if pinfu:
        return 20 if tsumo else 30
    fu = 20 + raw
    if tsumo:
        fu += 2
    elif menzen:
        fu += 10
    fu = (fu + 9) // 10 * 10
    if fu == 20 and not menzen:
        fu = 30
    return fu
