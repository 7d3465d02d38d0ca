"""Baseline policies compiled into the self-play kernels (``engine.harness.selfplay._choose``).

``_simple_action`` is ``agents.SimpleEfficiencyAgent`` run inside the kernels: it reads the same
facts from the state that the agent reads from its ``SeatView`` (the concealed tiles and the
visible ones, ``engine.visibility._visible34``) and shares the discard choice ``_best_discard``,
so the compiled and the Python agent choose the same actions (tests/engine/test_policies.py).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import (
    CHI_HIGH,
    CHI_HIGH_PLAIN,
    CHI_LOW,
    CHI_LOW_PLAIN,
    CHI_MID,
    CHI_MID_PLAIN,
    DISCARD,
    DISCARD_RED,
    KITA,
    KYUUSHU,
    PASS,
    PON,
    PON_PLAIN,
    RIICHI,
    RON,
    TSUMO,
)
from engine.melds import MELD_ANKAN, MELD_CHI
from engine.rules import RULE_PLAYERS
from engine.shanten import _shanten, _ukeire
from engine.visibility import _dora_kinds, _visible34

CLAIM_OPTIONS = (
    (PON, 0, 0),
    (PON_PLAIN, 0, 0),
    (CHI_LOW, 1, 2),
    (CHI_LOW_PLAIN, 1, 2),
    (CHI_MID, -1, 1),
    (CHI_MID_PLAIN, -1, 1),
    (CHI_HIGH, -2, -1),
    (CHI_HIGH_PLAIN, -2, -1),
)
"""The claims ``EfficiencyAgent`` tries, in its order (the two pons first): the action id and the
offsets from the offered kind of the two tiles the claim takes from the hand."""


@njit(inline="always")
def _winning_action(mask):
    """``TSUMO``, ``RON`` or (three players) ``KITA`` when the mask holds one, in that order; -1
    otherwise: both compiled agents take these first."""
    if mask[TSUMO]:
        return TSUMO
    if mask[RON]:
        return RON
    if mask.shape[0] > KITA and mask[KITA]:
        return KITA  # three players: a North set aside is a dora and a free draw
    return -1


@njit(inline="always")
def _legal_discards(mask, legal34):
    """Mark in ``legal34`` (all False) the kinds the mask lets the seat discard (a red five
    counts for its kind); True if there is one."""
    any_legal = False
    for k in range(34):
        if mask[DISCARD + k]:
            legal34[k] = True
            any_legal = True
    for suit in range(3):
        if mask[DISCARD_RED + suit]:
            legal34[9 * suit + 4] = True
            any_legal = True
    return any_legal


@njit(inline="always")
def _discard_action(mask, k):
    """The action that discards kind ``k``: the plain copy when the mask allows it, else the red five."""
    if mask[DISCARD + k]:
        return DISCARD + k
    return DISCARD_RED + k // 9


@njit(inline="always")
def _first_legal(mask):
    """The lowest legal action id; -1 if none."""
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@njit
def _tie_rank(t):
    """Lower is discarded first among equals: honors, then terminals, then simples."""
    if t >= 27:
        return 0
    r = t % 9
    if r == 0 or r == 8:
        return 1
    return 2


@njit
def _best_discard(hand34, visible34, legal34, suit_table, honor_table):
    """Kind to discard from a 3n+2 hand: min shanten, max ukeire, then honors/terminals; -1 if none."""
    h = hand34.copy()
    v = visible34.copy()
    best = -1
    best_s = 99
    best_u = -1
    best_r = 99
    for t in range(34):
        if not legal34[t] or h[t] == 0:
            continue
        h[t] -= 1
        v[t] += 1
        s = _shanten(h, suit_table, honor_table)
        u = _ukeire(h, v, suit_table, honor_table)
        h[t] += 1
        v[t] -= 1
        r = _tie_rank(t)
        if s < best_s or (s == best_s and (u > best_u or (u == best_u and r < best_r))):
            best, best_s, best_u, best_r = t, s, u, r
    return best


@njit(example=lambda x: (x.st, x.i, x.tables, x.mask))
def _simple_action(st, t, tables, mask):
    """``SimpleEfficiencyAgent``: win, riichi when offered, pass claims, most efficient discard."""
    win = _winning_action(mask)
    if win >= 0:
        return win
    if mask[RIICHI]:
        return RIICHI
    if mask[PASS]:
        return PASS
    rec = st[t]
    seat = rec.actor
    legal34 = np.zeros(34, dtype=np.bool_)
    if _legal_discards(mask, legal34):
        visible = np.zeros(34, dtype=np.uint8)
        _visible34(st, t, seat, False, visible)
        k = _best_discard(
            rec.closed34[seat], visible, legal34, tables.shanten_suit, tables.shanten_honor
        )
        if k >= 0:
            return _discard_action(mask, k)
    return _first_legal(mask)


# ------------------------------------------------------------------ EfficiencyAgent, compiled
# The same decisions as agents.EfficiencyAgent (its docstring says what they are), step for
# step: tests/engine/test_policies.py plays whole games with both and compares them.

EFF_FOLD_SHANTEN = 1
"""``EfficiencyAgent.fold_shanten``."""
EFF_CALL_SHANTEN = 1
"""``EfficiencyAgent.call_shanten``."""
EFF_DAMA_HAN = 4
"""``agents.efficiency_agent.DAMA_HAN``."""
PLAN_NONE = 0
PLAN_YAKUHAI = 1
PLAN_TANYAO = 2
PLAN_FLUSH = 3
NO_MELD = -2
"""``_plan``'s extra meld type when there is none (-1 is a pon being called)."""


@njit
def _is_simple(k):
    return k < 27 and 1 <= k % 9 <= 7


@njit(inline="always")
def _is_yakuhai(k, round_wind, seat_wind):
    return k >= 31 or k in (round_wind, seat_wind)


@njit
def _n_open(meld_type, n_melds, s):
    n = 0
    for m in range(n_melds[s]):
        if meld_type[s, m] != MELD_ANKAN:
            n += 1
    return n


@njit
def _main_suit(hand):
    """The suit with the most tiles in ``hand`` (the first on ties)."""
    best = 0
    best_n = -1
    for s in range(3):
        n = 0
        for i in range(9):
            n += hand[9 * s + i]
        if n > best_n:
            best, best_n = s, n
    return best


@njit
def _plan(hand, seat, meld_type, meld_tile, n_melds, extra_type, extra_low, rw, sw):
    """The yaku an open hand goes for (``PLAN_*``), with the seat's open melds and one more."""
    for m in range(n_melds[seat]):
        mt = meld_type[seat, m]
        if mt != MELD_ANKAN and mt != MELD_CHI and _is_yakuhai(meld_tile[seat, m], rw, sw):
            return PLAN_YAKUHAI
    if extra_type != NO_MELD and extra_type != MELD_CHI and _is_yakuhai(extra_low, rw, sw):
        return PLAN_YAKUHAI
    for k in range(27, 34):
        if _is_yakuhai(k, rw, sw) and hand[k] >= 3:
            return PLAN_YAKUHAI
    simple = True
    suit = -1
    suits = 0
    for m in range(n_melds[seat] + 1):
        if m < n_melds[seat]:
            mt = meld_type[seat, m]
            k = meld_tile[seat, m]
            if mt == MELD_ANKAN:
                continue
        else:
            mt = extra_type
            k = extra_low
            if mt == NO_MELD:
                continue
        if not _is_simple(k) or (mt == MELD_CHI and not _is_simple(k + 2)):
            simple = False
        if k < 27 and k // 9 != suit:
            suits += 1 if suit < 0 else 2
            suit = k // 9 if suit < 0 else suit
    if simple:
        off = 0
        for k in range(34):
            if not _is_simple(k):
                off += hand[k]
        if off <= 1:
            return PLAN_TANYAO
    if suits <= 1:
        if suit < 0:
            suit = _main_suit(hand)
        off = 0
        for k in range(27):
            if k // 9 != suit:
                off += hand[k]
        if off <= 1:
            return PLAN_FLUSH
    return PLAN_NONE


@njit
def _discard_table(hand, visible, legal, suit_table, honor_table, sh, uk, all_ukeire):
    """Shanten after discarding each legal kind (99 where not legal), and the ukeire after it
    (-1 where not computed): for every legal kind with ``all_ukeire``, else only where the
    shanten is the lowest (the only ones whose ukeire can decide)."""
    h = hand.copy()
    best = 99
    for k in range(34):
        sh[k] = 99
        uk[k] = -1
        if not legal[k] or h[k] == 0:
            continue
        h[k] -= 1
        sh[k] = _shanten(h, suit_table, honor_table)
        h[k] += 1
        if sh[k] < best:
            best = sh[k]
    _fill_ukeire(h, visible, suit_table, honor_table, sh, uk, np.int64(99 if all_ukeire else best))


@njit
def _fill_ukeire(h, visible, suit_table, honor_table, sh, uk, up_to):
    """Ukeire after discarding each kind whose shanten is at most ``up_to``."""
    v = visible.copy()
    for k in range(34):
        if sh[k] > up_to or sh[k] == 99:
            continue
        h[k] -= 1
        v[k] += 1
        uk[k] = _ukeire(h, v, suit_table, honor_table)
        h[k] += 1
        v[k] -= 1


@njit
def _best_after(hand, visible, suit_table, honor_table, sh, uk):
    """(shanten, ukeire) after the best discard of a 3n+2 hand (min shanten, then max ukeire)."""
    legal = hand > 0
    _discard_table(hand, visible, legal, suit_table, honor_table, sh, uk, False)
    best = 0
    for k in range(1, 34):
        if sh[k] < sh[best] or (sh[k] == sh[best] and uk[k] > uk[best]):
            best = k
    return sh[best], uk[best]


@njit
def _safety(k, threat, hand, visible, discarded):
    """``agents.efficiency_agent.safety``: how safe kind ``k`` is against ``threat``."""
    if discarded[threat, k]:
        return 10
    seen = int(visible[k]) + int(hand[k])
    if k >= 27:
        return 8 if seen >= 3 else (6 if seen >= 2 else 4)
    n = k % 9
    base = k - n
    low = n >= 3 and discarded[threat, base + n - 3] != 0
    high = n <= 5 and discarded[threat, base + n + 3] != 0
    if n == 0:
        return 7 if high else 2
    if n == 8:
        return 7 if low else 2
    if n == 1 or n == 2:
        return (6 if n == 1 else 5) if high else 1
    if n == 6 or n == 7:
        return (6 if n == 7 else 5) if low else 1
    if low and high:
        return 5
    return 3 if (low or high) else 0


@njit(example=lambda x: (x.st, x.i, x.tables, x.mask))
def _efficiency_action(st, t, tables, mask):
    """``agents.EfficiencyAgent`` inside the kernels, reading its ``SeatView`` from the state."""
    win = _winning_action(mask)
    if win >= 0:
        return win
    rec = st[t]
    seat = rec.actor
    hand = rec.closed34[seat].copy()
    visible = np.zeros(34, dtype=np.uint8)
    _visible34(st, t, seat, False, visible)
    discarded = rec.discarded34[:, :]
    meld_type = rec.meld_type[:, :]
    meld_tile = rec.meld_tile34[:, :]
    n_melds = rec.n_melds[:]
    kyoku = rec.kyoku
    rw = 27 + (kyoku // 4) % 4
    sw = 27 + (seat - kyoku % 4) % rec.rules[RULE_PLAYERS]
    suit_t = tables.shanten_suit
    honor_t = tables.shanten_honor
    sh = np.zeros(34, dtype=np.int64)
    uk = np.zeros(34, dtype=np.int64)
    threat = np.zeros(4, dtype=np.bool_)
    n_threats = 0
    for s in range(4):
        if s != seat and (rec.riichi[s] > 0 or _n_open(meld_type, n_melds, np.int64(s)) >= 3):
            threat[s] = True
            n_threats += 1
    own_open = _n_open(meld_type, n_melds, np.int64(seat))
    if mask[PASS]:
        k = rec.claim_tile // 4 if rec.claim_tile >= 0 else -1
        if k < 0:
            return PASS
        now = _shanten(hand, suit_t, honor_t)
        if n_threats > 0 and now >= EFF_FOLD_SHANTEN - 1:
            return PASS
        best_s = 99
        best_u = 0
        best_a = -1
        for i in range(8):
            a, d0, d1 = CLAIM_OPTIONS[i]
            if not mask[a]:
                continue
            after = hand.copy()
            after[k + d0] -= 1
            after[k + d1] -= 1
            is_chi = i >= 2
            low = min(k + d0, k)
            extra = np.int64(MELD_CHI if is_chi else -1)
            plan = _plan(after, seat, meld_type, meld_tile, n_melds, extra, np.int64(low), rw, sw)
            if plan == PLAN_NONE:
                continue
            s_after, u_after = _best_after(after, visible, suit_t, honor_t, sh, uk)
            yakuhai_pon = (not is_chi) and _is_yakuhai(k, rw, sw)
            wanted = (yakuhai_pon and s_after <= now) or (
                s_after < now and s_after <= EFF_CALL_SHANTEN
            )
            better = (
                s_after < best_s
                or (s_after == best_s and -u_after < best_u)
                or (s_after == best_s and -u_after == best_u and a < best_a)
            )
            if wanted and better:
                best_s, best_u, best_a = s_after, -u_after, a
        if best_a < 0 or (own_open == 0 and now <= 0):
            return PASS
        return best_a
    if mask[KYUUSHU]:
        return KYUUSHU
    if mask[RIICHI]:
        yaku = 1
        for k in range(34):
            if not _is_simple(k) and hand[k] > 0:
                yaku = 0
        for k in range(27, 34):
            if _is_yakuhai(k, rw, sw) and hand[k] >= 3:
                yaku += 1
        dama = False
        if yaku > 0:
            dora = np.zeros(34, dtype=np.int32)
            _dora_kinds(st, t, dora)
            d = 0
            for k in range(34):
                d += hand[k] * dora[k]
            dama = yaku + d >= EFF_DAMA_HAN
        if not dama:
            return RIICHI
    legal = np.zeros(34, dtype=np.bool_)
    if not _legal_discards(mask, legal):
        return _first_legal(mask)
    _discard_table(hand, visible, legal, suit_t, honor_t, sh, uk, False)
    best_sh = 99
    for k in range(34):
        if sh[k] < best_sh:
            best_sh = sh[k]
    choice = -1
    if n_threats > 0 and best_sh >= EFF_FOLD_SHANTEN:
        _fill_ukeire(hand.copy(), visible, suit_t, honor_t, sh, uk, np.int64(98))  # every kind
        best_safe = -1
        for k in range(34):
            if not legal[k]:
                continue
            safe = 99
            for s in range(4):
                if threat[s]:
                    v = _safety(k, s, hand, visible, discarded)
                    if v < safe:
                        safe = v
            better = choice < 0 or safe > best_safe
            if not better and safe == best_safe:
                better = sh[k] < sh[choice] or (sh[k] == sh[choice] and uk[k] > uk[choice])
            if better:  # the first maximum of (safety, -shanten, ukeire), as max() picks
                choice = k
                best_safe = safe
    else:
        plan = PLAN_NONE
        if own_open > 0:
            plan = _plan(
                hand, seat, meld_type, meld_tile, n_melds, np.int64(NO_MELD), np.int64(0), rw, sw
            )
        main = -1
        if plan == PLAN_FLUSH:
            for m in range(n_melds[seat]):
                if meld_type[seat, m] != MELD_ANKAN and meld_tile[seat, m] < 27 and main < 0:
                    main = meld_tile[seat, m] // 9
            if main < 0:
                main = _main_suit(hand)
        best_key = 0
        for c in range(34):
            if not legal[c]:
                continue
            keeps_pair = _is_yakuhai(c, rw, sw) and hand[c] == 2 and own_open == 0
            off_plan = (plan == PLAN_TANYAO and not _is_simple(c)) or (
                plan == PLAN_FLUSH and c < 27 and hand[c] <= 1 and c // 9 != main
            )
            # (shanten, not off-plan, keeps a yakuhai pair, -ukeire, tie rank, kind) as one
            # number: the agent's min() over that tuple (ukeire <= 136, shanten >= 0)
            key = (sh[c] + 1) * 2 + (0 if off_plan else 1)
            key = key * 2 + (1 if keeps_pair else 0)
            key = (key * 200 + 150 - uk[c]) * 3 + _tie_rank(c)
            key = key * 34 + c
            if choice < 0 or key < best_key:
                choice = c
                best_key = key
    return _discard_action(mask, choice)
