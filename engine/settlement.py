"""Settlement: scoring a win from the table, payments of tsumo and ron (double ron, honba, sticks,
pao), exhaustive draws (tenpai payments, karaten, nagashi mangan) and abortive draws
(docs/rules.md, Wins and payments, Draws).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import (
    RON,
)
from engine.event_writers import (
    _log_delta,
    _log_ryuukyoku,
    _log_win,
)
from engine.events import (
    DRAW_EXHAUSTIVE,
    DRAW_NAGASHI,
)
from engine.hand_end import _settled
from engine.rules import (
    RULE_AGARI_YAME,
    RULE_NAGASHI,
    RULE_PAO_HONBA_LIABLE,
    RULE_TENPAI_YAME,
    RULE_TSUMO_LOSS,
)
from engine.scoring import layout
from engine.scoring.kernel import N_WORK, _score_hand
from engine.scoring.layout import (
    N_RES,
    RES_BASE,
    RES_FU,
    RES_HAN,
    RES_LIMIT,
    RES_PAY_DEALER,
    RES_PAY_NONDEALER,
    RES_PAY_RON,
    RES_WINNER_GAIN,
    RES_YAKUMAN,
    STATUS_OK,
)
from engine.scoring.payment import _limit_base, _payments_3p
from engine.scoring.yaku import N_YAKU, Y_DAISANGEN, Y_DAISUUSHII, Y_DORA, Y_URA_DORA
from engine.seats import _dealer, _is_red, _is_tenpai, _n_players
from engine.state import (
    CLAIM_ANKAN,
    CLAIM_CHANKAN,
    DORA_START,
    PAO_DAISANGEN,
    PAO_DAISUUSHII,
    URA_START,
    WALL_SIZE,
)
from engine.wall import _live_left


@njit(example=lambda x: (x.st, x.i, x.tables, *[x.i] * 6, x.res, x.yaku))
def _score_win(st, t, tables, s, win_tile, from_seat, chankan, honba, kyotaku, out, yaku):
    """Score seat ``s`` winning on ``win_tile`` (tsumo if ``from_seat == s``); returns status."""
    rec = st[t]
    tsumo = from_seat == s
    closed34 = rec.closed34[s].copy()
    if not tsumo:
        closed34[win_tile // 4] += 1
    rules = rec.rules[:]
    melds = np.zeros((4, 2), dtype=np.int32)
    n_aka = 0
    for tile in range(WALL_SIZE):
        if rec.closed[s, tile] and _is_red(rules, tile):
            n_aka += 1
    if not tsumo and _is_red(rules, win_tile):
        n_aka += 1
    nm = np.int64(rec.n_melds[s])
    for i in range(nm):
        melds[i, 0] = rec.meld_type[s, i]
        melds[i, 1] = rec.meld_tile34[s, i]
        for j in range(4):
            x = rec.meld_tiles[s, i, j]
            if x >= 0 and _is_red(rules, x):
                n_aka += 1
    dealer = _dealer(st, t)
    first_turn = rec.first_go == 1 and rec.n_river[s] == 0
    ctx = np.zeros(layout.N_CTX, dtype=np.int32)
    ctx[layout.CTX_TSUMO] = tsumo
    n_players = _n_players(st, t)
    ctx[layout.CTX_SEAT_WIND] = (s - dealer) % n_players
    ctx[layout.CTX_ROUND_WIND] = min(rec.kyoku // 4, 3)
    ctx[layout.CTX_RIICHI] = rec.riichi[s]
    ctx[layout.CTX_OPEN_RIICHI] = rec.open_riichi[s]
    ctx[layout.CTX_IPPATSU] = rec.ippatsu[s]
    ctx[layout.CTX_RINSHAN] = tsumo and rec.rinshan == 1
    ctx[layout.CTX_CHANKAN] = chankan
    live = _live_left(st, t)
    ctx[layout.CTX_HAITEI] = tsumo and rec.rinshan == 0 and live == 0
    ctx[layout.CTX_HOUTEI] = (not tsumo) and (not chankan) and live == 0
    ctx[layout.CTX_TENHOU] = tsumo and s == dealer and first_turn
    ctx[layout.CTX_CHIIHOU] = tsumo and s != dealer and first_turn
    ctx[layout.CTX_HONBA] = honba
    ctx[layout.CTX_KYOTAKU] = kyotaku
    ctx[layout.CTX_N_AKA] = n_aka
    ctx[layout.CTX_N_DORA] = rec.n_dora
    ctx[layout.CTX_N_URA] = rec.n_dora if rec.riichi[s] > 0 else 0
    ctx[layout.CTX_YAKUMAN_PAY] = (
        (not tsumo) and rec.open_riichi[s] == 1 and rec.riichi[from_seat] == 0
    )
    dora = np.zeros(5, dtype=np.int32)
    ura = np.zeros(5, dtype=np.int32)
    for k in range(rec.n_dora):
        dora[k] = rec.wall[DORA_START + k] // 4
        ura[k] = rec.wall[URA_START + k] // 4
        if n_players == 3:
            # no 2m-8m: indicator 1m makes 9m the dora, as indicator 8m would (docs/rules.md)
            if dora[k] == 0:
                dora[k] = 7
            if ura[k] == 0:
                ura[k] = 7
    work = np.zeros(N_WORK, dtype=np.int32)
    status = _score_hand(closed34, melds, nm, win_tile // 4, ctx, dora, ura, rules, work, out, yaku)
    if status == STATUS_OK and rec.n_kita[s] > 0 and out[RES_YAKUMAN] == 0:
        # nuki dora (docs/rules.md, "Three-player riichi"): one han per kita, one more per West
        # indicator (dora, kan dora, ura for a riichi winner), counted with the dora as
        # Tenhou's records do; never a yaku (the hand already has one)
        per = 1
        per_ura = 0
        for k in range(rec.n_dora):
            if dora[k] == 29:
                per += 1
            if rec.riichi[s] > 0 and ura[k] == 29:
                per_ura += 1
        extra = per * rec.n_kita[s]
        extra_ura = per_ura * rec.n_kita[s]
        yaku[Y_DORA] += extra
        yaku[Y_URA_DORA] += extra_ura
        han = out[RES_HAN] + extra + extra_ura
        limit, base = _limit_base(np.int64(han), np.int64(out[RES_FU]), np.int64(0), rules)
        out[RES_HAN] = han
        if out[RES_BASE] < 8000:  # not an open-riichi yakuman payment
            out[RES_LIMIT] = limit
            out[RES_BASE] = base
    if n_players == 3 and status == STATUS_OK:
        # tsumo loss (or north bisection): two payers, honba 100 per payer
        gain = _payments_3p(
            np.int64(out[RES_BASE]), s == dealer, tsumo, honba, rules[RULE_TSUMO_LOSS] != 0, out
        )
        out[RES_WINNER_GAIN] = gain + 1000 * kyotaku
    return status


@njit(example=lambda x: (x.st, x.i, x.tables, x.i, x.i, x.i, x.i))
def _can_win(st, t, tables, s, win_tile, from_seat, chankan):
    """True if the win has a yaku (status OK); the caller checked the shape and furiten."""
    out = np.zeros(N_RES, dtype=np.int32)
    yaku = np.zeros(N_YAKU, dtype=np.int32)
    zero = np.int64(0)
    return (
        _score_win(st, t, tables, s, win_tile, from_seat, chankan, zero, zero, out, yaku)
        == STATUS_OK
    )


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.i, x.i, x.i, x.i, x.b, np.zeros(4, np.int32)))
def _pay_win(st, t, ev, tables, w, from_seat, win_tile, chankan, first, total):
    """Score one winner and add its payments to ``total``; pao per docs/rules.md (``pao_honba`` rule)."""
    rec = st[t]
    dealer = _dealer(st, t)
    honba = rec.honba if first else 0
    sticks = rec.kyotaku if first else 0
    out = np.zeros(N_RES, dtype=np.int32)
    yaku = np.zeros(N_YAKU, dtype=np.int32)
    _score_win(
        st, t, tables, w, win_tile, from_seat, chankan, np.int64(honba), np.int64(sticks), out, yaku
    )
    delta = np.zeros(4, dtype=np.int32)
    pao = rec.pao_seat[w]
    pao_mult = 0
    if pao >= 0:
        if rec.pao_kind[w] == PAO_DAISANGEN:
            pao_mult = yaku[Y_DAISANGEN]
        elif rec.pao_kind[w] == PAO_DAISUUSHII:
            pao_mult = yaku[Y_DAISUUSHII]
    if pao_mult == 0:
        pao = -1
    n_players = _n_players(st, t)
    unit = 48000 if w == dealer else 32000
    # north bisection: each of the two payers adds half the absent seat's share
    bisect = n_players == 3 and rec.rules[RULE_TSUMO_LOSS] == 0
    if from_seat == w:
        if n_players == 3 and not bisect:
            # the liable seat pays the tsumo total (docs/rules.md, "Three-player riichi"); with
            # north bisection that total is the four-player one (``unit``)
            unit = 32000 if w == dealer else 24000
        if pao >= 0:
            rest = 8000 * (out[RES_YAKUMAN] - pao_mult)
            absent = 2 * rest if w == dealer else rest
            liable_honba = rec.rules[RULE_PAO_HONBA_LIABLE] != 0
            for o in range(n_players):
                if o != w:
                    share = 2 * rest if (o == dealer or w == dealer) else rest
                    if bisect:
                        share += absent // 2
                    delta[o] -= share if liable_honba else share + 100 * honba
            delta[pao] -= unit * pao_mult
            if liable_honba:
                delta[pao] -= 100 * (n_players - 1) * honba
        else:
            for o in range(n_players):
                if o != w:
                    if w == dealer:
                        delta[o] -= out[RES_PAY_NONDEALER]
                    elif o == dealer:
                        delta[o] -= out[RES_PAY_DEALER]
                    else:
                        delta[o] -= out[RES_PAY_NONDEALER]
    else:
        ron = out[RES_PAY_RON]
        if pao >= 0 and pao != from_seat:
            half = unit * pao_mult // 2
            delta[pao] -= half
            delta[from_seat] -= ron - half
        else:
            delta[from_seat] -= ron
    paid = 0
    for o in range(4):
        paid -= delta[o]
    delta[w] += paid + 1000 * sticks
    if first:
        rec.kyotaku = 0
    _log_win(st, t, ev, w, from_seat, win_tile, out, yaku, pao, delta, sticks)
    for o in range(4):
        total[o] += delta[o]


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.i32, x.i32, x.i32, x.i))
def _win(st, t, ev, tables, w, from_seat, win_tile, chankan):
    """Tsumo by ``w`` (``from_seat == w``): settle and end the hand."""
    rec = st[t]
    total = np.zeros(4, dtype=np.int32)
    _pay_win(
        st,
        t,
        ev,
        tables,
        np.int64(w),
        np.int64(from_seat),
        np.int64(win_tile),
        np.int64(chankan),
        np.bool_(True),
        total,
    )
    for o in range(4):
        rec.points[o] += total[o]
        rec.last_delta[o] = total[o]  # a loop, not a slice copy: see docs/internals.md
    dealer = _dealer(st, t)
    yame = w == dealer and rec.rules[RULE_AGARI_YAME] != 0
    _settled(st, t, w == dealer, yame, w == dealer)


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.i32, x.i32))
def _ron(st, t, ev, tables, d, tile):
    """Every ron answer wins; honba and sticks to the first winner after the discarder."""
    rec = st[t]
    # a robbed kan is chankan; a robbed kita is not (docs/rules.md, "Three-player riichi")
    chankan = 1 if rec.claim_kind in (CLAIM_CHANKAN, CLAIM_ANKAN) else 0
    if rec.riichi_pending == d:
        rec.riichi[d] = 0
        rec.riichi_pending = -1
    total = np.zeros(4, dtype=np.int32)
    first = True
    dealer_won = False
    dealer = _dealer(st, t)
    for i in range(rec.claim_n):
        w = rec.claim_queue[i]
        if rec.claim_answer[w] == RON:
            _pay_win(
                st,
                t,
                ev,
                tables,
                np.int64(w),
                np.int64(d),
                np.int64(tile),
                np.int64(chankan),
                np.bool_(first),
                total,
            )
            first = False
            if w == dealer:
                dealer_won = True
    for o in range(4):
        rec.points[o] += total[o]
        rec.last_delta[o] = total[o]  # a loop, not a slice copy: see docs/internals.md
    yame = dealer_won and rec.rules[RULE_AGARI_YAME] != 0
    _settled(st, t, dealer_won, yame, dealer_won)


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables))
def _exhaustive_draw(st, t, ev, tables):
    """Exhaustive draw: nagashi mangan, else tenpai payments (``_is_tenpai``: karaten is noten)."""
    rec = st[t]
    rules = rec.rules[:]
    dealer = _dealer(st, t)
    delta = np.zeros(4, dtype=np.int32)
    n_players = _n_players(st, t)
    tenpai_mask = 0
    n_tenpai = 0
    for s in range(n_players):
        if _is_tenpai(st, t, tables, np.int64(s), rec.closed34[s]):
            tenpai_mask |= 1 << s
            n_tenpai += 1
    nagashi_mask = 0
    if rules[RULE_NAGASHI]:
        for s in range(n_players):
            if rec.nagashi[s] and rec.n_river[s] > 0:
                nagashi_mask |= 1 << s
    # north bisection: a nagashi mangan is paid as a bisected mangan tsumo
    bisect = n_players == 3 and rules[RULE_TSUMO_LOSS] == 0
    if nagashi_mask:
        for s in range(n_players):
            if nagashi_mask >> s & 1:
                for o in range(n_players):
                    if o != s:
                        pay = 4000 if (s == dealer or o == dealer) else 2000
                        if bisect:
                            pay += 2000 if s == dealer else 1000
                        delta[o] -= pay
                        delta[s] += pay
        kind = DRAW_NAGASHI
    else:
        if 0 < n_tenpai < n_players:
            # 3,000 in all with four players, 2,000 with three
            gain = 1000 * (n_players - 1) // n_tenpai
            loss = 1000 * (n_players - 1) // (n_players - n_tenpai)
            for s in range(n_players):
                delta[s] = gain if tenpai_mask >> s & 1 else -loss
        kind = DRAW_EXHAUSTIVE
    _log_ryuukyoku(st, t, ev, -1, kind, tenpai_mask, nagashi_mask)
    _log_delta(st, t, ev, -1, delta, 0)
    for s in range(4):
        rec.points[s] += delta[s]
        rec.last_delta[s] = delta[s]
    dealer_tenpai = (tenpai_mask >> dealer & 1) == 1
    yame = dealer_tenpai and rules[RULE_TENPAI_YAME] != 0
    _settled(st, t, dealer_tenpai, yame, True)


@njit
def _abort(st, t, ev, tables, kind, seat):
    """Abortive draw: the dealer keeps the seat, honba + 1 (docs/rules.md)."""
    rec = st[t]
    rec.last_delta[:] = 0
    _log_ryuukyoku(st, t, ev, seat, kind, 0, 0)
    _log_delta(st, t, ev, -1, rec.last_delta[:], 0)
    _settled(st, t, True, False, True)
