"""Claims on a discard (docs/rules.md, Calls): who may ron, pon, daiminkan or chi, asking them in
turn order, resolving the answers (ron > pon/kan > chi), and what happens when the discard
passes (riichi stick, furiten, abortive draws, the next draw).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import (
    CHI_HIGH,
    CHI_HIGH_PLAIN,
    CHI_LOW,
    CHI_LOW_PLAIN,
    KAN,
    PASS,
    PLAIN_OFFSET,
    PON,
    PON_PLAIN,
    RON,
)
from engine.deal import _draw
from engine.event_writers import (
    _log_meld,
    _log_riichi_accepted,
)
from engine.events import (
    DRAW_SANCHAHOU,
    DRAW_SUUCHA,
    DRAW_SUUFON,
    DRAW_SUUKAIKAN,
)
from engine.kans import _complete_kan, _complete_kita
from engine.legality import _chi_forbid, _kuikae_leaves_discard
from engine.melds import MELD_CHI, MELD_DAIMINKAN, MELD_PON
from engine.offers import _add_claimer, _ask_claimers, _open_offer
from engine.rules import (
    RULE_ABORTIVE_DRAWS,
    RULE_PAO,
    RULE_SANCHAHOU,
)
from engine.seats import (
    _add_meld,
    _mark_passed_furiten,
    _n_players,
    _next_seat,
    _remove_tile,
    _seat_after,
    _take_for_call,
)
from engine.settlement import _abort, _can_win, _exhaustive_draw, _ron
from engine.state import (
    CLAIM_ANKAN,
    CLAIM_BIT_CHI_HIGH,
    CLAIM_BIT_CHI_LOW,
    CLAIM_BIT_CHI_MID,
    CLAIM_BIT_KAN,
    CLAIM_BIT_PON,
    CLAIM_BIT_RON,
    CLAIM_BITS_CHI,
    CLAIM_CHANKAN,
    CLAIM_DISCARD,
    CLAIM_KITA,
    PAO_DAISANGEN,
    PAO_DAISUUSHII,
    PHASE_TURN,
    RIVER_CALLED,
)
from engine.visibility import _furiten
from engine.wall import _live_left


@njit(inline="always")
def _offer_discard(st, t, ev, tables, d, tile):
    """Ask every seat with a legal claim on the discard, in turn order after the discarder."""
    rec = st[t]
    x = tile // 4
    live = _live_left(st, t)
    _open_offer(st, t, tile, d, CLAIM_DISCARD)
    n_players = _n_players(st, t)
    for i in range(1, n_players):
        s = _seat_after(d, i, n_players)
        m = 0
        if (
            rec.waits[s, x]
            and not _furiten(st, t, s)
            and _can_win(st, t, tables, np.int64(s), np.int64(tile), np.int64(d), np.int64(0))
        ):
            m |= CLAIM_BIT_RON
        if live > 0 and rec.riichi[s] == 0:
            hand = rec.closed34[s]
            c = int(hand[x])
            if c >= 2 and _kuikae_leaves_discard(hand, x, x, x, -1):
                m |= CLAIM_BIT_PON
            if c == 3 and rec.n_kans < 4:
                m |= CLAIM_BIT_KAN
            if i == 1 and x < 27:
                n = x % 9
                # kuikae (docs/rules.md): a chi that would leave no legal discard is not offered
                if (
                    n <= 6
                    and hand[x + 1] > 0
                    and hand[x + 2] > 0
                    and _kuikae_leaves_discard(hand, x + 1, x + 2, x, _chi_forbid(x, 0))
                ):
                    m |= CLAIM_BIT_CHI_LOW
                if (
                    1 <= n <= 7
                    and hand[x - 1] > 0
                    and hand[x + 1] > 0
                    and _kuikae_leaves_discard(hand, x - 1, x + 1, x, -1)
                ):
                    m |= CLAIM_BIT_CHI_MID
                if (
                    n >= 2
                    and hand[x - 2] > 0
                    and hand[x - 1] > 0
                    and _kuikae_leaves_discard(hand, x - 2, x - 1, x, _chi_forbid(x, 2))
                ):
                    m |= CLAIM_BIT_CHI_HIGH
            if n_players == 3:  # no chi with three players
                m &= ~CLAIM_BITS_CHI
        if m:
            _add_claimer(st, t, s, m)
    if not _ask_claimers(st, t, d):
        _discard_passes(st, t, ev, tables, np.int64(-1), np.int64(PASS))


@njit(inline="always")
def _resolve_claims(st, t, ev, tables):
    """All asked seats answered: ron (several allowed) > pon/kan > chi > nothing."""
    rec = st[t]
    d = rec.claim_from
    tile = rec.claim_tile
    n_ron = 0
    for i in range(rec.claim_n):
        if rec.claim_answer[rec.claim_queue[i]] == RON:
            n_ron += 1
    if n_ron > 0:
        if n_ron == 3 and rec.rules[RULE_SANCHAHOU]:
            if rec.riichi_pending >= 0:
                rec.riichi[rec.riichi_pending] = 0
                rec.riichi_pending = -1
            _abort(st, t, ev, tables, np.int64(DRAW_SANCHAHOU), np.int64(-1))
            return
        _ron(st, t, ev, tables, d, tile)
        return
    if rec.claim_kind == CLAIM_CHANKAN or rec.claim_kind == CLAIM_KITA:
        _mark_passed_furiten(st, t, d, tile // 4)
    if rec.claim_kind != CLAIM_DISCARD:
        for i in range(rec.claim_n):
            s = rec.claim_queue[i]
            rec.furiten_temp[s] = 1
            if rec.riichi[s] > 0:
                rec.furiten_riichi[s] = 1
        if rec.claim_kind == CLAIM_KITA:
            _complete_kita(st, t, ev, tables, np.int64(d), np.int64(tile))
        else:
            _complete_kan(st, t, ev, tables, np.int64(d), rec.claim_kind == CLAIM_ANKAN)
        return
    caller = -1
    choice = PASS
    for i in range(rec.claim_n):
        s = rec.claim_queue[i]
        a = rec.claim_answer[s]
        if a in (PON, PON_PLAIN) or KAN <= a < KAN + 34:
            caller = s
            choice = a
    if caller < 0:
        for i in range(rec.claim_n):
            s = rec.claim_queue[i]
            a = rec.claim_answer[s]
            if CHI_LOW <= a <= CHI_HIGH or CHI_LOW_PLAIN <= a <= CHI_HIGH_PLAIN:
                caller = s
                choice = a
    _discard_passes(st, t, ev, tables, np.int64(caller), np.int64(choice))


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.i, x.i))
def _discard_passes(st, t, ev, tables, caller, choice):
    """The discard was not ronned: furiten, riichi stick, abortive draws, then a call or a draw."""
    rec = st[t]
    d = rec.claim_from
    tile = rec.claim_tile
    x = tile // 4
    rules = rec.rules[:]
    _mark_passed_furiten(st, t, d, x)
    if rec.riichi_pending == d:
        rec.riichi_pending = -1
        rec.points[d] -= 1000
        rec.kyotaku += 1
        rec.ippatsu[d] = 1
        _log_riichi_accepted(st, t, ev, d)
        if rules[RULE_ABORTIVE_DRAWS]:
            n_riichi = 0
            for s in range(4):
                if rec.riichi[s] > 0:
                    n_riichi += 1
            if n_riichi == 4:
                _abort(st, t, ev, tables, np.int64(DRAW_SUUCHA), np.int64(-1))
                return
    if rules[RULE_ABORTIVE_DRAWS]:
        if rec.first_go == 1 and 27 <= x <= 30:
            same = True
            for s in range(4):
                if rec.n_river[s] != 1 or rec.river[s, 0] // 4 != x:
                    same = False
            if same:
                _abort(st, t, ev, tables, np.int64(DRAW_SUUFON), np.int64(-1))
                return
        if rec.suukaikan_pending:
            _abort(st, t, ev, tables, np.int64(DRAW_SUUKAIKAN), np.int64(-1))
            return
    if caller >= 0:
        _call(st, t, ev, tables, caller, choice)
        return
    if _live_left(st, t) == 0:
        _exhaustive_draw(st, t, ev, tables)
        return
    _draw(st, t, ev, _next_seat(st, t, d), np.bool_(False))


@njit
def _check_pao(st, t, c, d, k):
    """Pao (docs/rules.md): a pon/kan from a discard that completes the 3rd dragon / 4th wind set."""
    rec = st[t]
    if not rec.rules[RULE_PAO] or k < 27:
        return
    dragons = 0
    winds = 0
    for i in range(rec.n_melds[c]):
        mt = rec.meld_type[c, i]
        if mt != MELD_CHI:
            m = rec.meld_tile34[c, i]
            if m >= 31:
                dragons += 1
            elif m >= 27:
                winds += 1
    if k >= 31 and dragons == 3:
        rec.pao_seat[c] = d
        rec.pao_kind[c] = PAO_DAISANGEN
    elif 27 <= k <= 30 and winds == 4:
        rec.pao_seat[c] = d
        rec.pao_kind[c] = PAO_DAISUUSHII


@njit  # not inlined: a claim is rare, and inlining it cost _discard_passes ~1 s of compile
def _call(st, t, ev, tables, c, choice):
    """Chi, pon or daiminkan of the discard by seat ``c``."""
    rec = st[t]
    d = rec.claim_from
    tile = rec.claim_tile
    x = tile // 4
    rec.river_flags[d, rec.n_river[d] - 1] |= RIVER_CALLED
    rec.nagashi[d] = 0
    rec.first_go = 0
    for s in range(4):
        rec.ippatsu[s] = 0
    plain = choice >= CHI_LOW_PLAIN
    if plain:
        choice -= PLAIN_OFFSET
    if choice == PON:
        a = _take_for_call(st, t, c, x, -1, plain)
        _remove_tile(st, t, c, a)
        b = _take_for_call(st, t, c, x, -1, plain)
        _remove_tile(st, t, c, b)
        i = _add_meld(st, t, c, MELD_PON, x, a, b, tile, -1, d, tile)
        rec.kuikae[0] = x
        rec.kuikae[1] = -1
    elif choice >= KAN:
        a = _take_for_call(st, t, c, x, -1, False)
        _remove_tile(st, t, c, a)
        b = _take_for_call(st, t, c, x, -1, False)
        _remove_tile(st, t, c, b)
        e = _take_for_call(st, t, c, x, -1, False)
        _remove_tile(st, t, c, e)
        i = _add_meld(st, t, c, MELD_DAIMINKAN, x, a, b, e, tile, d, tile)
    else:
        shape = choice - CHI_LOW
        lo = x - shape
        parts = np.empty(3, dtype=np.int32)
        for j in range(3):
            if lo + j == x:
                parts[j] = tile
            else:
                p = _take_for_call(st, t, c, lo + j, -1, plain)
                _remove_tile(st, t, c, p)
                parts[j] = p
        i = _add_meld(st, t, c, MELD_CHI, lo, parts[0], parts[1], parts[2], -1, d, tile)
        rec.kuikae[0] = x
        rec.kuikae[1] = _chi_forbid(x, shape)
    _log_meld(st, t, ev, c, i)
    _check_pao(st, t, c, d, x)
    if choice >= KAN:
        _complete_kan(st, t, ev, tables, np.int64(c), np.bool_(False))
        return
    rec.phase = PHASE_TURN
    rec.turn = c
    rec.actor = c
    rec.drawn = -1
    rec.rinshan = 0
