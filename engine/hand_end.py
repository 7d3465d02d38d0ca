"""The end of a hand and of the game (docs/rules.md, End of the game): renchan and honba,
busting, agari-yame and tenpai-yame, the extension, then final placement scores with uma and oka.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.deal import _new_hand
from engine.event_writers import (
    _log_game_end,
    _log_hand_end,
)
from engine.rules import (
    RULE_BUSTING,
    RULE_EXTENSION,
    RULE_EXTENSION_HANDS,
    RULE_EXTENSION_RENCHAN,
    RULE_HONBA_RESET_ON_PASS,
    RULE_N_WINDS,
    RULE_RETURN_POINTS,
    RULE_START_POINTS,
    RULE_TARGET_POINTS,
    RULE_UMA_1,
)
from engine.seats import _dealer, _n_players
from engine.state import (
    PHASE_GAME_OVER,
)


@njit
def _top_seat(points, n_players):
    """First place: most points, ties to the seat closer to the starting dealer (seat 0)."""
    best = 0
    for s in range(1, n_players):
        if points[s] > points[best]:
            best = s
    return best


HAND_OVER = 1
"""``hand_over`` bit: a hand was settled; the next three bits are ``_end_hand``'s flags."""


@njit(inline="always")
def _settled(st, t, renchan, yame_ok, honba_up):
    """Mark the hand settled; ``_apply`` ends it (``_end_hand``) before it returns.

    Settlement (wins, draws) only records how the hand ended, so the kernels that settle do not
    also contain the next deal: each compiled kernel then holds less code (docs/internals.md).
    """
    st[t].hand_over = (
        HAND_OVER | (2 if renchan else 0) | (4 if yame_ok else 0) | (8 if honba_up else 0)
    )


@njit(inline="always")
def _finish_hand(st, t, ev, tables):
    """End a hand ``_settled`` marked (renchan, honba, game end or the next deal), if any."""
    flags = st[t].hand_over
    if flags:
        st[t].hand_over = 0
        _end_hand(st, t, ev, tables, flags & 2 != 0, flags & 4 != 0, flags & 8 != 0)


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.b, x.b, x.b))
def _end_hand(st, t, ev, tables, renchan, yame_ok, honba_up):
    """Renchan/honba, then game end (busting, agari/tenpai-yame, last hand, extension) or the next hand.

    ``yame_ok`` is True when the hand allows agari-yame or tenpai-yame under the rules (a dealer
    win, or dealer tenpai at an exhaustive draw). ``honba_up`` is True for a dealer win and every
    draw; a non-dealer win resets honba. With ``extension_renchan`` a renchan in the extension is
    treated like one in the last regular hand: only busting or agari/tenpai-yame end the game
    (docs/rules.md, End of the game).
    """
    rec = st[t]
    rules = rec.rules[:]
    dealer = _dealer(st, t)
    if renchan:
        next_honba = rec.honba + 1
    elif honba_up:
        next_honba = 0 if rules[RULE_HONBA_RESET_ON_PASS] else rec.honba + 1
    else:
        next_honba = 0
    p = rec.points[:]
    _log_hand_end(st, t, ev, next_honba)
    rec.phase = PHASE_GAME_OVER
    # the points that end the game (target_points, return_points unless set)
    ret = rules[RULE_TARGET_POINTS]
    n = _n_players(st, t)
    # kyoku is 4 x wind + dealer seat: with three players a wind has hands 0-2
    last = 4 * rules[RULE_N_WINDS] - 5 + n
    k = rec.kyoku
    over = False
    anyone = False
    for s in range(n):
        if p[s] >= ret:
            anyone = True
    if rules[RULE_BUSTING]:
        for s in range(n):
            if p[s] < 0:
                over = True
    yame = yame_ok and _top_seat(p, n) == dealer and p[dealer] >= ret
    if not over:
        if k > last:
            if renchan and rules[RULE_EXTENSION_RENCHAN]:
                # extension_renchan (Tenhou): the dealer's renchan takes priority over someone
                # having the return points and over the extension's last hand; only yame ends it
                over = yame
            elif anyone or k >= 4 * rules[RULE_N_WINDS] + rules[RULE_EXTENSION_HANDS] - 1:
                # extension: ends once someone has the return points, or after its last hand
                over = True
        elif k == last:
            if renchan:
                over = yame
            elif anyone or not rules[RULE_EXTENSION] or rules[RULE_EXTENSION_HANDS] == 0:
                over = True
    if over:
        _end_game(st, t, ev)
        return
    rec.honba = next_honba
    if not renchan:
        rec.kyoku = k + 1 if (k + 1) % 4 < n else k + 5 - n
    _new_hand(st, t, ev, tables)


@njit
def _end_game(st, t, ev):
    """Final scores: leftover sticks to first, (points - return) / 1000 + uma + oka."""
    rec = st[t]
    rules = rec.rules[:]
    p = rec.points[:]
    n = _n_players(st, t)
    top = _top_seat(p, n)
    left = rec.kyotaku
    p[top] += 1000 * left
    rec.kyotaku = 0
    order = np.zeros(4, dtype=np.int64)
    used = np.zeros(4, dtype=np.bool_)
    rec.final_ranks[3] = 3  # the absent seat with three players: last, score 0
    rec.final_scores[3] = 0.0
    for r in range(n):
        best = -1
        for s in range(n):
            if not used[s] and (best < 0 or p[s] > p[best]):
                best = s
        used[best] = True
        order[r] = best
        rec.final_ranks[best] = r
    ret = rules[RULE_RETURN_POINTS]
    oka = n * (ret - rules[RULE_START_POINTS]) / 1000.0
    packed = 3 << 6 if n == 3 else 0
    scores10 = np.zeros(4, dtype=np.int64)
    for s in range(n):
        r = rec.final_ranks[s]
        # points are multiples of 100, so tenths are exact integers
        tenths = (p[s] - ret) // 100 + 10 * rules[RULE_UMA_1 + r]
        if r == 0:
            tenths += int(round(oka * 10))
        scores10[s] = tenths
        rec.final_scores[s] = tenths / 10.0
        packed |= r << (2 * s)
    _log_game_end(st, t, ev, left, scores10, packed)
    rec.game_over = 1
    rec.phase = PHASE_GAME_OVER
    rec.actor = -1
