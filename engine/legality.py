"""Legality: the mask of legal actions of the seat to act (``_legal_mask``) and, beside it, the
reason an action is not legal (``explain_illegal``), so the two read as one rule set.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import (
    CHI_LOW,
    CHI_LOW_PLAIN,
    DISCARD_RED,
    KAN,
    KITA,
    KYUUSHU,
    OPEN_RIICHI,
    PASS,
    PLAIN_OFFSET,
    PON,
    PON_PLAIN,
    RIICHI,
    RON,
    TSUMO,
    action_name,
    n_actions,
)
from engine.melds import MELD_PON
from engine.rules import (
    RULE_ABORTIVE_DRAWS,
    RULE_KITA,
    RULE_OPEN_RIICHI,
    RULE_PLAYERS,
    RULE_RED_M,
    RULE_RINSHAN_KAN_DORA,
)
from engine.seats import NORTH, _is_red, _is_tenpai, _n_open, _n_players, _plain_choice
from engine.settlement import _can_win
from engine.shanten import _is_agari, _shanten, _waits
from engine.state import (
    CLAIM_BIT_CHI_LOW,
    CLAIM_BIT_KAN,
    CLAIM_BIT_PON,
    CLAIM_BIT_RON,
    PHASE_CLAIM,
    PHASE_GAME_OVER,
    PHASE_RIICHI_DISCARD,
    WALL_SIZE,
    State,
    check_table,
)
from engine.tables import load_tables
from engine.wall import _live_left

_YAOCHUU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@njit
def _decomposes(hand34, pair_needed, forbid):
    """True if ``hand34`` splits into sets (+ one pair) with no triplet of kind ``forbid``.

    Iterative backtracking (recursion does not survive Numba's cache): at each level the lowest
    held kind is taken as a pair, a triplet or the start of a run.
    """
    h = hand34.astype(np.int64)
    kind = np.zeros(8, dtype=np.int64)
    option = np.zeros(8, dtype=np.int64)
    applied = np.full(8, -1, dtype=np.int64)
    pair_left = pair_needed
    d = 0
    fresh = True
    while True:
        if fresh:
            i = 0
            while i < 34 and h[i] == 0:
                i += 1
            if i == 34 and not pair_left:
                return True
            if i == 34:
                d -= 1
                if d < 0:
                    return False
            else:
                kind[d] = i
                option[d] = 0
                applied[d] = -1
        i = kind[d]
        a = applied[d]
        if a == 0:
            h[i] += 2
            pair_left = True
        elif a == 1:
            h[i] += 3
        elif a == 2:
            h[i] += 1
            h[i + 1] += 1
            h[i + 2] += 1
        applied[d] = -1
        while option[d] < 3 and applied[d] < 0:
            c = option[d]
            option[d] += 1
            if c == 0 and pair_left and h[i] >= 2:
                h[i] -= 2
                pair_left = False
                applied[d] = 0
            elif c == 1 and h[i] >= 3 and i != forbid:
                h[i] -= 3
                applied[d] = 1
            elif c == 2 and i < 27 and i % 9 <= 6 and h[i + 1] > 0 and h[i + 2] > 0:
                h[i] -= 1
                h[i + 1] -= 1
                h[i + 2] -= 1
                applied[d] = 2
        if applied[d] >= 0:
            d += 1
            fresh = True
        else:
            d -= 1
            fresh = False
            if d < 0:
                return False


@njit
def _riichi_ankan_ok(st, t, tables, s, k):
    """Riichi ankan (docs/rules.md): only the drawn tile, waits unchanged, k a triplet in every reading."""
    rec = st[t]
    d = rec.drawn
    if d < 0 or d // 4 != k:
        return False
    before = rec.closed34[s].copy()
    before[k] -= 1
    w0 = np.zeros(34, dtype=np.uint8)
    n0 = _waits(before, tables.shanten_suit, tables.shanten_honor, w0)
    if n0 == 0:
        return False
    after = before.copy()
    after[k] -= 3
    w1 = np.zeros(34, dtype=np.uint8)
    _waits(after, tables.shanten_suit, tables.shanten_honor, w1)
    for i in range(34):
        if w0[i] != w1[i]:
            return False
    h = before.copy()
    for w in range(34):
        if w0[w]:
            h[w] += 1
            bad = _decomposes(h, True, k)
            h[w] -= 1
            if bad:
                return False
    return True


@njit
def _riichi_discard_exists(st, t, tables, s):
    """True if some discard leaves seat ``s`` tenpai (``_is_tenpai``, the draw's definition)."""
    h = st[t].closed34[s].copy()
    for k in range(34):
        if h[k] > 0:
            h[k] -= 1
            ok = _is_tenpai(st, t, tables, np.int64(s), h)
            h[k] += 1
            if ok:
                return True
    return False


@njit(inline="always")
def _kuikae_leaves_discard(hand34, k1, k2, forbid1, forbid2):
    """True if after removing k1, k2 some kind other than the forbidden ones remains."""
    for i in range(34):
        c = int(hand34[i]) - (1 if i == k1 else 0) - (1 if i == k2 else 0)
        if c > 0 and i != forbid1 and i != forbid2:
            return True
    return False


@njit(inline="always")
def _chi_forbid(x, shape):
    """The kuikae kinds after chi: the called kind, and the far end for an end call (docs/rules.md)."""
    n = x % 9
    if shape == 0 and n <= 5:
        return x + 3
    if shape == 2 and n >= 3:
        return x - 3
    return -1


@njit
def _discard_mask(st, t, s, out):
    """Mark discard ids of held tiles (kuikae kinds excluded)."""
    rec = st[t]
    rules = rec.rules[:]
    f1 = rec.kuikae[0]
    f2 = rec.kuikae[1]
    for tile in range(WALL_SIZE):
        if rec.closed[s, tile]:
            k = tile // 4
            if k in (f1, f2):
                continue
            if _is_red(rules, tile):
                out[DISCARD_RED + k // 9] = True
            else:
                out[k] = True


@njit(example=lambda x: (x.st, x.i, x.tables, x.mask))
def _legal_mask(st, t, tables, out):
    """Legal actions of ``st[t].actor`` into ``out`` (bool[N_ACTIONS]); returns how many."""
    rec = st[t]
    for i in range(out.shape[0]):  # N_ACTIONS, or N_ACTIONS_3P with three players
        out[i] = False
    phase = rec.phase
    if phase == PHASE_GAME_OVER:
        return 0
    s = rec.actor
    rules = rec.rules[:]
    if phase == PHASE_CLAIM:
        m = rec.claim_mask[s]
        out[PASS] = True
        if m & CLAIM_BIT_RON:
            out[RON] = True
        if m & CLAIM_BIT_PON:
            out[PON] = True
        if m & CLAIM_BIT_KAN:
            out[KAN + rec.claim_tile // 4] = True
        for shape in range(3):  # CHI_LOW, CHI_MID, CHI_HIGH in the order of their bits
            if m & (CLAIM_BIT_CHI_LOW << shape):
                out[CHI_LOW + shape] = True
        # the same call with plain fives, when it would otherwise use a held red five
        x = rec.claim_tile // 4
        if out[PON] and _plain_choice(st, t, s, x, np.int64(2)):
            out[PON_PLAIN] = True
        if x < 27:
            for shape in range(3):
                if out[CHI_LOW + shape]:
                    lo = x - shape
                    for j in range(3):
                        if lo + j != x and _plain_choice(st, t, s, lo + j, np.int64(1)):
                            out[CHI_LOW_PLAIN + shape] = True
    elif phase == PHASE_RIICHI_DISCARD:
        h = rec.closed34[s].copy()
        for tile in range(WALL_SIZE):
            if rec.closed[s, tile]:
                k = tile // 4
                h[k] -= 1
                if _is_tenpai(st, t, tables, np.int64(s), h):
                    if _is_red(rules, tile):
                        out[DISCARD_RED + k // 9] = True
                    else:
                        out[k] = True
                h[k] += 1
    else:
        d = rec.drawn
        if d < 0:
            _discard_mask(st, t, s, out)
        else:
            hand = rec.closed34[s]
            if _is_agari(hand, tables.shanten_suit, tables.shanten_honor):
                if rec.pending_dora > 0 and rules[RULE_RINSHAN_KAN_DORA]:
                    # the win would reveal the pending kan dora first (rule rinshan_kan_dora)
                    rec.n_dora += 1
                    ok = _can_win(st, t, tables, np.int64(s), np.int64(d), np.int64(s), np.int64(0))
                    rec.n_dora -= 1
                else:
                    ok = _can_win(st, t, tables, np.int64(s), np.int64(d), np.int64(s), np.int64(0))
                if ok:
                    out[TSUMO] = True
            live = _live_left(st, t)
            if rec.riichi[s] > 0:
                if _is_red(rules, d):
                    out[DISCARD_RED + d // 36] = True
                else:
                    out[d // 4] = True
            else:
                _discard_mask(st, t, s, out)
            if rec.n_kans < 4 and live > 0:
                for k in range(34):
                    if hand[k] == 4 and (
                        rec.riichi[s] == 0 or _riichi_ankan_ok(st, t, tables, s, k)
                    ):
                        out[KAN + k] = True
                if rec.riichi[s] == 0:
                    for i in range(rec.n_melds[s]):
                        if rec.meld_type[s, i] == MELD_PON and hand[rec.meld_tile34[s, i]] > 0:
                            out[KAN + rec.meld_tile34[s, i]] = True
            if (
                rec.riichi[s] == 0
                and _n_open(st, t, s) == 0
                and rec.points[s] >= 1000
                and live >= _n_players(st, t)  # one more own draw (docs/rules.md, Riichi)
                and _shanten(hand, tables.shanten_suit, tables.shanten_honor) <= 0
                and _riichi_discard_exists(st, t, tables, s)
            ):
                out[RIICHI] = True
                if rules[RULE_OPEN_RIICHI]:
                    out[OPEN_RIICHI] = True
            if (
                rules[RULE_KITA]
                and hand[NORTH] > 0
                and live > 0
                and (rec.riichi[s] == 0 or d // 4 == NORTH)
            ):
                # kita (docs/rules.md, "Three-player riichi"): after a draw, in riichi only the
                # North just drawn, not with an empty live wall
                out[KITA] = True
            if rules[RULE_ABORTIVE_DRAWS] and rec.first_go == 1 and rec.n_river[s] == 0:
                kinds = 0
                for y in _YAOCHUU:
                    if hand[y] > 0:
                        kinds += 1
                if kinds >= 9:
                    out[KYUUSHU] = True
    n = 0
    for i in range(out.shape[0]):
        if out[i]:
            n += 1
    return n


def explain_illegal(state: State, action: int, t: int = 0) -> str:
    """Why ``action`` is illegal for the seat to act ("" if it is legal)."""
    from engine.arguments import check_action
    from engine.tiles import tile34_to_str, tile136_to_str

    t = check_table(state, t)
    n = n_actions(int(state.rules[t, RULE_PLAYERS]))
    action = check_action(action, n)
    tables = load_tables()
    mask = np.zeros(n, dtype=np.int8)
    _legal_mask(state.records, t, tables, mask)
    phase = int(state.phase[t])
    if phase == PHASE_GAME_OVER:
        return f"no {action_name(action)}: the game is over"
    if mask[action]:
        return ""
    s = int(state.actor[t])
    name = action_name(action)
    head = f"seat {s} cannot {name}"
    hand = _hand_str(state, t, s)
    if phase == PHASE_CLAIM:
        tile = tile136_to_str(int(state.claim_tile[t]), _red_tuple(state, t))
        if action < RIICHI or action in (RIICHI, OPEN_RIICHI, TSUMO, KYUUSHU, KITA):
            return f"{head}: it is asked about a claim on {tile}, not its own turn"
        if action == RON:
            return (
                f"{head} on {tile}: {tile} does not win {hand} with a yaku, or the seat is furiten"
            )
        if action >= CHI_LOW_PLAIN and mask[action - PLAIN_OFFSET]:
            return (
                f"{head} on {tile}: the call needs no red five from {hand}, or no plain copy "
                f"is held besides it; use {action_name(action - PLAIN_OFFSET)}"
            )
        if action in (PON, PON_PLAIN) or KAN <= action < KAN + 34:
            return f"{head} on {tile}: hand {hand} cannot make it (or riichi, last tile, kuikae, 4 kans)"
        return f"{head} on {tile}: chi needs the tile from the seat on the left and {hand} to hold the run"
    if action == KITA and (phase == PHASE_RIICHI_DISCARD or not state.rules[t, RULE_KITA]):
        return f"{head}: kita is played with three players and kita rules only, on the own turn"
    if action in (PASS, RON) or CHI_LOW <= action <= PON or CHI_LOW_PLAIN <= action <= PON_PLAIN:
        return f"{head}: there is no tile to claim, it is seat {s}'s own turn"
    if phase == PHASE_RIICHI_DISCARD and action >= RIICHI:
        return f"{head}: after declaring riichi the seat must discard"
    if action < RIICHI:
        kind = action if action < DISCARD_RED else 4 + 9 * (action - DISCARD_RED)
        if state.closed34[t, s, kind] == 0:
            return f"{head}: no {tile34_to_str(kind)} in hand {hand}"
        if phase == PHASE_RIICHI_DISCARD:
            return f"{head}: the riichi declaration discard must keep {hand} tenpai"
        if state.riichi[t, s] > 0:
            return f"{head}: in riichi only the drawn tile may be discarded"
        if kind in (int(state.kuikae[t, 0]), int(state.kuikae[t, 1])):
            return f"{head}: kuikae forbids discarding {tile34_to_str(kind)} right after the call"
        if action < DISCARD_RED:
            return f"{head}: the only {tile34_to_str(kind)} held is red; use discard 0{'mps'[kind // 9]}"
        return f"{head}: no red five of that suit in hand {hand}"
    if state.drawn[t] < 0:
        return f"{head}: right after a call the seat must discard"
    if action == TSUMO:
        return f"{head}: hand {hand} is not a complete hand with a yaku"
    if action in (RIICHI, OPEN_RIICHI):
        if action == OPEN_RIICHI and not state.rules[t, RULE_OPEN_RIICHI]:
            return f"{head}: open riichi is off in these rules"
        return (
            f"{head}: riichi needs a closed hand, tenpai after a discard, 1000 points and 4 tiles "
            f"(3 with three players) in the live wall (hand {hand}, {int(state.points[t, s])} points, "
            f"{int(_live_left(state.records, t))} tiles left, already riichi: {bool(state.riichi[t, s])})"
        )
    if action == KYUUSHU:
        return f"{head}: needs 9 kinds of terminals/honors on an uninterrupted first draw ({hand})"
    if action == KITA:
        return (
            f"{head}: needs a North in hand {hand} after a draw (in riichi the North just drawn) "
            "and a live wall tile"
        )
    if action >= KAN:
        return (
            f"{head}: needs four {tile34_to_str(action - KAN)} in hand or a pon plus the fourth, a "
            f"live wall tile and fewer than 4 kans (riichi: drawn tile, waits unchanged)"
        )
    return f"{head}: not legal now"


def _red_tuple(state: State, t: int) -> tuple[int, int, int]:
    r = state.rules[t]
    return (int(r[RULE_RED_M]), int(r[RULE_RED_M + 1]), int(r[RULE_RED_M + 2]))


def _hand_str(state: State, t: int, s: int) -> str:
    from engine.tiles import tiles136_to_str

    ids = np.flatnonzero(state.closed[t, s])
    return tiles136_to_str(ids.tolist(), _red_tuple(state, t)) or "(empty)"
