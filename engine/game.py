"""The game state machine: Numba kernels from the deal to the final score, and the ``Game`` facade.

Kernels take ``(st, tables, t, ...)``: the ``State`` of ``engine/state.py``, the lookup tables of
``engine.tables.load_tables()`` and a table index. ``_step`` applies one action and advances to
the next decision (claims that nobody can make are skipped, a finished hand is settled and the
next one dealt), so a table always rests at a decision or at game over. Rules follow
``docs/rules.md``; each rule's kernel names it.
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
    DISCARD_RED,
    KAN,
    KYUUSHU,
    N_ACTIONS,
    OPEN_RIICHI,
    PASS,
    PLAIN_OFFSET,
    PON,
    PON_PLAIN,
    RIICHI,
    RON,
    TSUMO,
    action_name,
)
from engine.events import (
    DRAW_EXHAUSTIVE,
    DRAW_KYUUSHU,
    DRAW_NAGASHI,
    DRAW_SANCHAHOU,
    DRAW_SUUCHA,
    DRAW_SUUFON,
    DRAW_SUUKAIKAN,
    EV_CALL,
    EV_DEAL,
    EV_DELTA,
    EV_DISCARD,
    EV_DORA,
    EV_DRAW,
    EV_FINAL,
    EV_GAME_END,
    EV_GAME_START,
    EV_HAND_END,
    EV_HAND_START,
    EV_POINTS,
    EV_RIICHI,
    EV_RIICHI_ACCEPTED,
    EV_RYUUKYOKU,
    EV_URA,
    EV_WALL,
    EV_WIN,
    EV_YAKU,
    _log,
    _pack4,
)
from engine.melds import MELD_ANKAN, MELD_CHI, MELD_DAIMINKAN, MELD_KAKAN, MELD_NONE, MELD_PON
from engine.rules import (
    MAHJONGSOUL,
    RULE_ABORTIVE_DRAWS,
    RULE_AGARI_YAME,
    RULE_BUSTING,
    RULE_EXTENSION,
    RULE_EXTENSION_HANDS,
    RULE_EXTENSION_RENCHAN,
    RULE_HONBA_RESET_ON_PASS,
    RULE_KAN_DORA_ON_DECLARE,
    RULE_N_WINDS,
    RULE_NAGASHI,
    RULE_OPEN_RIICHI,
    RULE_PAO,
    RULE_PAO_HONBA_LIABLE,
    RULE_RED_M,
    RULE_RETURN_POINTS,
    RULE_RINSHAN_KAN_DORA,
    RULE_SANCHAHOU,
    RULE_START_POINTS,
    RULE_TENPAI_YAME,
    RULE_UMA_1,
    Rules,
)
from engine.scoring import (
    CTX_CHANKAN,
    CTX_CHIIHOU,
    CTX_HAITEI,
    CTX_HONBA,
    CTX_HOUTEI,
    CTX_IPPATSU,
    CTX_KYOTAKU,
    CTX_N_AKA,
    CTX_N_DORA,
    CTX_N_URA,
    CTX_OPEN_RIICHI,
    CTX_RIICHI,
    CTX_RINSHAN,
    CTX_ROUND_WIND,
    CTX_SEAT_WIND,
    CTX_TENHOU,
    CTX_TSUMO,
    CTX_YAKUMAN_PAY,
    N_CTX,
    N_RES,
    N_WORK,
    RES_FU,
    RES_HAN,
    RES_PAY_DEALER,
    RES_PAY_NONDEALER,
    RES_PAY_RON,
    RES_YAKUMAN,
    STATUS_OK,
    _score_hand,
)
from engine.shanten import _is_agari, _shanten, _waits
from engine.state import (
    CLAIM_ANKAN,
    CLAIM_BIT_CHI_HIGH,
    CLAIM_BIT_CHI_LOW,
    CLAIM_BIT_CHI_MID,
    CLAIM_BIT_KAN,
    CLAIM_BIT_PON,
    CLAIM_BIT_RON,
    CLAIM_CHANKAN,
    CLAIM_DISCARD,
    DEAL_SIZE,
    DORA_START,
    LIVE_END,
    LIVE_START,
    PAO_DAISANGEN,
    PAO_DAISUUSHII,
    PAO_NONE,
    PHASE_CLAIM,
    PHASE_GAME_OVER,
    PHASE_NAMES,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RINSHAN_START,
    RIVER_CALLED,
    RIVER_RIICHI,
    RIVER_TSUMOGIRI,
    URA_START,
    WALL_SIZE,
    State,
    new_state,
)
from engine.yaku import N_YAKU, Y_DAISANGEN, Y_DAISUUSHII

# Call sites pass np.int64(...) / np.bool_(...) around constants: Numba would otherwise compile
# one specialization of the callee (and everything it calls) per literal value.
OK = 0
ERR_GAME_OVER = 1
ERR_RANGE = 2
ERR_ILLEGAL = 3
ERR_NAMES = ("ok", "the game is over", "action out of range", "illegal action")

M32 = 0xFFFFFFFF
_YAOCHUU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


# ---------------------------------------------------------------------------- randomness


@njit
def _mix32(x):
    """A 32-bit integer hash (two multiply-xorshift rounds), exact in int64 arithmetic."""
    x = (((x >> 16) ^ x) * 0x45D9F3B) & M32
    x = (((x >> 16) ^ x) * 0x45D9F3B) & M32
    return (x >> 16) ^ x


@njit
def _rng_seed(rng, seed, stream):
    """Key ``rng`` (int64[2]: key, counter) from a non-negative seed and a stream number."""
    seed = np.int64(seed)
    stream = np.int64(stream)
    lo = seed & M32
    hi = (seed >> 32) & M32
    a = _mix32(lo ^ _mix32(stream & M32))
    b = _mix32(hi ^ _mix32((stream + 0x5BD1E995) & M32))
    rng[0] = (a << 30) ^ b
    rng[1] = 0


@njit
def _rand_below(rng, n):
    """Uniform int in ``[0, n)`` from a counter-based stream; advances ``rng``."""
    c = rng[1]
    rng[1] = c + 1
    k = rng[0]
    x = _mix32((c & M32) ^ _mix32(k & M32))
    x = _mix32(x ^ ((k >> 32) & M32) ^ ((c >> 32) & M32))
    return (x * n) >> 32


@njit
def _shuffle_wall(wall, seed, hand_index):
    """Fisher-Yates shuffle of 0..135 keyed by (game seed, hand index)."""
    rng = np.zeros(2, dtype=np.int64)
    _rng_seed(rng, seed, hand_index)
    for i in range(WALL_SIZE):
        wall[i] = i
    for i in range(WALL_SIZE - 1, 0, -1):
        j = _rand_below(rng, i + 1)
        tmp = wall[i]
        wall[i] = wall[j]
        wall[j] = tmp


# ---------------------------------------------------------------------------- small helpers


@njit
def _is_red(rules, tile):
    """True if physical ``tile`` is a red five under ``rules``."""
    k = tile // 4
    if k == 4 or k == 13 or k == 22:
        return tile % 4 < rules[RULE_RED_M + k // 9]
    return False


@njit
def _live_left(st, t):
    return LIVE_END - st.n_kans[t] - st.wall_pos[t]


@njit
def _dealer(st, t):
    return st.kyoku[t] % 4


@njit
def _add_tile(st, t, s, tile):
    st.closed[t, s, tile] = 1
    st.closed34[t, s, tile // 4] += 1


@njit
def _remove_tile(st, t, s, tile):
    st.closed[t, s, tile] = 0
    st.closed34[t, s, tile // 4] -= 1


@njit
def _find_tile(st, t, s, k, red):
    """A held copy of kind ``k`` (red or plain as asked), the drawn tile first; -1 if none."""
    rules = st.rules[t]
    d = st.drawn[t]
    if (
        d >= 0
        and d // 4 == k
        and st.turn[t] == s
        and st.closed[t, s, d]
        and _is_red(rules, d) == red
    ):
        return d
    for j in range(4):
        tile = 4 * k + j
        if st.closed[t, s, tile] and _is_red(rules, tile) == red:
            return tile
    return -1


@njit
def _take_for_call(st, t, s, k, avoid, plain):
    """A held copy of kind ``k`` for a call, a red five first unless ``plain``; not ``avoid``."""
    rules = st.rules[t]
    best = -1
    for j in range(4):
        tile = 4 * k + j
        if tile != avoid and st.closed[t, s, tile]:
            if _is_red(rules, tile):
                if not plain:
                    return tile
                continue
            if best < 0:
                best = tile
    return best


@njit
def _plain_choice(st, t, s, k, need):
    """True if seat ``s`` holds a red copy of kind ``k`` and ``need`` plain copies besides."""
    rules = st.rules[t]
    red = False
    plain = 0
    for j in range(4):
        tile = 4 * k + j
        if st.closed[t, s, tile]:
            if _is_red(rules, tile):
                red = True
            else:
                plain += 1
    return red and plain >= need


@njit
def _n_open(st, t, s):
    n = 0
    for i in range(st.n_melds[t, s]):
        if st.meld_type[t, s, i] != MELD_ANKAN:
            n += 1
    return n


@njit
def _update_waits(st, tables, t, s):
    """Recompute the waits of seat ``s``'s 3n+1 hand."""
    st.n_waits[t, s] = _waits(
        st.closed34[t, s], tables.shanten_suit, tables.shanten_honor, st.waits[t, s]
    )


@njit
def _furiten(st, t, s):
    """Any furiten (docs/rules.md: permanent, temporary, riichi): ron is blocked."""
    if st.furiten_temp[t, s] or st.furiten_riichi[t, s]:
        return True
    for k in range(34):  # noqa: SIM110 (a generator in any() is slow under Numba)
        if st.waits[t, s, k] and st.discarded34[t, s, k]:
            return True
    return False


@njit
def _reveal_dora(st, t):
    """Turn over the next dora indicator (a kan dora)."""
    k = st.n_dora[t]
    st.n_dora[t] = k + 1
    if st.pending_dora[t] > 0:
        st.pending_dora[t] -= 1
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_DORA,
        -1,
        st.wall[t, DORA_START + k],
        k,
        0,
        0,
        0,
        0,
    )


@njit
def _is_kokushi_with(hand34, k):
    """True if ``hand34`` plus one ``k`` is kokushi musou (for robbing an ankan)."""
    pair = 0
    for i in range(34):
        c = int(hand34[i]) + (1 if i == k else 0)
        y = i >= 27 or i % 9 == 0 or i % 9 == 8
        if c == 0:
            if y:
                return False
            continue
        if not y or c > 2:
            return False
        if c == 2:
            pair += 1
    return pair == 1


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


# ---------------------------------------------------------------------------- scoring a win


@njit
def _score_win(st, tables, t, s, win_tile, from_seat, chankan, honba, kyotaku, out, yaku):
    """Score seat ``s`` winning on ``win_tile`` (tsumo if ``from_seat == s``); returns status."""
    tsumo = from_seat == s
    closed34 = st.closed34[t, s].copy()
    if not tsumo:
        closed34[win_tile // 4] += 1
    rules = st.rules[t]
    melds = np.zeros((4, 2), dtype=np.int32)
    n_aka = 0
    for tile in range(WALL_SIZE):
        if st.closed[t, s, tile] and _is_red(rules, tile):
            n_aka += 1
    if not tsumo and _is_red(rules, win_tile):
        n_aka += 1
    nm = st.n_melds[t, s]
    for i in range(nm):
        melds[i, 0] = st.meld_type[t, s, i]
        melds[i, 1] = st.meld_tile34[t, s, i]
        for j in range(4):
            x = st.meld_tiles[t, s, i, j]
            if x >= 0 and _is_red(rules, x):
                n_aka += 1
    dealer = _dealer(st, t)
    first_turn = st.first_go[t] == 1 and st.n_river[t, s] == 0
    ctx = np.zeros(N_CTX, dtype=np.int32)
    ctx[CTX_TSUMO] = tsumo
    ctx[CTX_SEAT_WIND] = (s - dealer) % 4
    ctx[CTX_ROUND_WIND] = min(st.kyoku[t] // 4, 3)
    ctx[CTX_RIICHI] = st.riichi[t, s]
    ctx[CTX_OPEN_RIICHI] = st.open_riichi[t, s]
    ctx[CTX_IPPATSU] = st.ippatsu[t, s]
    ctx[CTX_RINSHAN] = tsumo and st.rinshan[t] == 1
    ctx[CTX_CHANKAN] = chankan
    live = _live_left(st, t)
    ctx[CTX_HAITEI] = tsumo and st.rinshan[t] == 0 and live == 0
    ctx[CTX_HOUTEI] = (not tsumo) and (not chankan) and live == 0
    ctx[CTX_TENHOU] = tsumo and s == dealer and first_turn
    ctx[CTX_CHIIHOU] = tsumo and s != dealer and first_turn
    ctx[CTX_HONBA] = honba
    ctx[CTX_KYOTAKU] = kyotaku
    ctx[CTX_N_AKA] = n_aka
    ctx[CTX_N_DORA] = st.n_dora[t]
    ctx[CTX_N_URA] = st.n_dora[t] if st.riichi[t, s] > 0 else 0
    ctx[CTX_YAKUMAN_PAY] = (
        (not tsumo) and st.open_riichi[t, s] == 1 and st.riichi[t, from_seat] == 0
    )
    dora = np.zeros(5, dtype=np.int32)
    ura = np.zeros(5, dtype=np.int32)
    for k in range(st.n_dora[t]):
        dora[k] = st.wall[t, DORA_START + k] // 4
        ura[k] = st.wall[t, URA_START + k] // 4
    work = np.zeros(N_WORK, dtype=np.int32)
    return _score_hand(closed34, melds, nm, win_tile // 4, ctx, dora, ura, rules, work, out, yaku)


@njit
def _can_win(st, tables, t, s, win_tile, from_seat, chankan):
    """True if the win has a yaku (status OK); the caller checked the shape and furiten."""
    out = np.zeros(N_RES, dtype=np.int32)
    yaku = np.zeros(N_YAKU, dtype=np.int32)
    zero = np.int64(0)
    return (
        _score_win(st, tables, t, s, win_tile, from_seat, chankan, zero, zero, out, yaku)
        == STATUS_OK
    )


# ---------------------------------------------------------------------------- hand start


@njit
def _clear_hand(st, t):
    st.wall_pos[t] = LIVE_START
    st.n_kans[t] = 0
    st.n_dora[t] = 1
    st.pending_dora[t] = 0
    st.closed[t] = 0
    st.closed34[t] = 0
    st.drawn[t] = -1
    st.rinshan[t] = 0
    st.meld_type[t] = MELD_NONE
    st.meld_tile34[t] = -1
    st.meld_tiles[t] = -1
    st.meld_from[t] = -1
    st.meld_called[t] = -1
    st.n_melds[t] = 0
    st.river[t] = -1
    st.river_flags[t] = 0
    st.n_river[t] = 0
    st.discarded34[t] = 0
    st.riichi[t] = 0
    st.open_riichi[t] = 0
    st.riichi_pending[t] = -1
    st.ippatsu[t] = 0
    st.furiten_temp[t] = 0
    st.furiten_riichi[t] = 0
    st.waits[t] = 0
    st.n_waits[t] = 0
    st.nagashi[t] = 1
    st.first_go[t] = 1
    st.kuikae[t] = -1
    st.pao_seat[t] = -1
    st.pao_kind[t] = PAO_NONE
    st.suukaikan_pending[t] = 0
    st.claim_tile[t] = -1
    st.claim_from[t] = -1
    st.claim_kind[t] = CLAIM_DISCARD
    st.claim_mask[t] = 0
    st.claim_answer[t] = -1
    st.claim_queue[t] = -1
    st.claim_n[t] = 0
    st.claim_pos[t] = 0


@njit
def _start_hand_from_wall(st, tables, t, wall):
    """Deal a hand from ``wall`` (layout in engine/state.py) and stop at the dealer's first turn."""
    _clear_hand(st, t)
    for i in range(WALL_SIZE):
        st.wall[t, i] = wall[i]
    dealer = _dealer(st, t)
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_HAND_START,
        dealer,
        st.kyoku[t],
        st.honba[t],
        st.kyotaku[t],
        st.hand_index[t],
        0,
        0,
    )
    p = st.points[t]
    _log(st.events, st.n_events, st.ev_overflow, t, EV_POINTS, -1, p[0], p[1], p[2], p[3], 0, 0)
    for r in range(7):
        v = np.full(5, 0, dtype=np.int64)
        for c in range(5):
            base = 20 * r + 4 * c
            tl = np.full(4, 255, dtype=np.int64)
            for j in range(4):
                if base + j < WALL_SIZE:
                    tl[j] = st.wall[t, base + j]
            v[c] = _pack4(tl[0], tl[1], tl[2], tl[3])
        _log(
            st.events, st.n_events, st.ev_overflow, t, EV_WALL, -1, r, v[0], v[1], v[2], v[3], v[4]
        )
    for i in range(4):
        s = (dealer + i) % 4
        for j in range(13):
            _add_tile(st, t, s, st.wall[t, 13 * i + j])
        v = np.full(4, 0, dtype=np.int64)
        for c in range(4):
            tl = np.full(4, 255, dtype=np.int64)
            for j in range(4):
                if 4 * c + j < 13:
                    tl[j] = st.wall[t, 13 * i + 4 * c + j]
            v[c] = _pack4(tl[0], tl[1], tl[2], tl[3])
        _log(st.events, st.n_events, st.ev_overflow, t, EV_DEAL, s, v[0], v[1], v[2], v[3], 0, 0)
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_DORA,
        -1,
        st.wall[t, DORA_START],
        0,
        0,
        0,
        0,
        0,
    )
    for s in range(4):
        _update_waits(st, tables, t, s)
    st.wall_pos[t] = DEAL_SIZE
    _draw(st, t, np.int64(dealer), np.bool_(False))


@njit
def _new_hand(st, tables, t):
    """Shuffle this hand's wall from (seed, hand index) and deal it."""
    st.hand_index[t] += 1
    wall = np.empty(WALL_SIZE, dtype=np.int32)
    _shuffle_wall(wall, st.seed[t], st.hand_index[t])
    _start_hand_from_wall(st, tables, t, wall)


@njit
def _reset(st, tables, t, seed):
    """Start a new game with ``seed``: points, round, honba, sticks, then the first hand."""
    _init_game(st, t, seed)
    _new_hand(st, tables, t)


@njit
def _start_game_at(st, tables, t, seed, wall, kyoku, honba, kyotaku, points):
    """Start a game at a given hand (scenarios, replays): round, sticks, points and its wall."""
    _init_game(st, t, seed)
    st.kyoku[t] = kyoku
    st.honba[t] = honba
    st.kyotaku[t] = kyotaku
    for s in range(4):
        st.points[t, s] = points[s]
    st.hand_index[t] = 1
    _start_hand_from_wall(st, tables, t, wall)


@njit
def _init_game(st, t, seed):
    rules = st.rules[t]
    st.seed[t] = seed
    st.points[t] = rules[RULE_START_POINTS]
    st.kyoku[t] = 0
    st.honba[t] = 0
    st.kyotaku[t] = 0
    st.hand_index[t] = 0
    st.game_over[t] = 0
    st.final_scores[t] = 0.0
    st.final_ranks[t] = 0
    st.last_delta[t] = 0
    st.n_decisions[t] = 0
    st.n_events[t] = 0
    st.ev_overflow[t] = 0
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_GAME_START,
        -1,
        _wrap32(seed & M32),
        _wrap32((seed >> 32) & M32),
        rules[RULE_START_POINTS],
        0,
        0,
        0,
    )


@njit
def _wrap32(x):
    if x >= 2147483648:
        return x - 4294967296
    return x


# ---------------------------------------------------------------------------- draws


@njit
def _draw(st, t, s, rinshan):
    """Seat ``s`` draws from the live wall, or the next rinshan tile after a kan."""
    if rinshan:
        tile = st.wall[t, RINSHAN_START + st.n_kans[t] - 1]
    else:
        tile = st.wall[t, st.wall_pos[t]]
        st.wall_pos[t] += 1
    _add_tile(st, t, s, tile)
    st.drawn[t] = tile
    st.rinshan[t] = 1 if rinshan else 0
    st.kuikae[t] = -1
    st.phase[t] = PHASE_TURN
    st.turn[t] = s
    st.actor[t] = s
    _log(
        st.events, st.n_events, st.ev_overflow, t, EV_DRAW, s, tile, 1 if rinshan else 0, 0, 0, 0, 0
    )


# ---------------------------------------------------------------------------- legal actions


@njit
def _riichi_ankan_ok(st, tables, t, s, k):
    """Riichi ankan (docs/rules.md): only the drawn tile, waits unchanged, k a triplet in every reading."""
    d = st.drawn[t]
    if d < 0 or d // 4 != k:
        return False
    before = st.closed34[t, s].copy()
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
def _kuikae_leaves_discard(hand34, k1, k2, forbid1, forbid2):
    """True if after removing k1, k2 some kind other than the forbidden ones remains."""
    for i in range(34):
        c = int(hand34[i]) - (1 if i == k1 else 0) - (1 if i == k2 else 0)
        if c > 0 and i != forbid1 and i != forbid2:
            return True
    return False


@njit
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
    rules = st.rules[t]
    f1 = st.kuikae[t, 0]
    f2 = st.kuikae[t, 1]
    for tile in range(WALL_SIZE):
        if st.closed[t, s, tile]:
            k = tile // 4
            if k in (f1, f2):
                continue
            if _is_red(rules, tile):
                out[DISCARD_RED + k // 9] = True
            else:
                out[k] = True


@njit
def _legal_mask(st, tables, t, out):
    """Legal actions of ``st.actor[t]`` into ``out`` (bool[N_ACTIONS]); returns how many."""
    for i in range(N_ACTIONS):
        out[i] = False
    phase = st.phase[t]
    if phase == PHASE_GAME_OVER:
        return 0
    s = st.actor[t]
    rules = st.rules[t]
    if phase == PHASE_CLAIM:
        m = st.claim_mask[t, s]
        out[PASS] = True
        if m & CLAIM_BIT_RON:
            out[RON] = True
        if m & CLAIM_BIT_PON:
            out[PON] = True
        if m & CLAIM_BIT_KAN:
            out[KAN + st.claim_tile[t] // 4] = True
        if m & CLAIM_BIT_CHI_LOW:
            out[CHI_LOW] = True
        if m & CLAIM_BIT_CHI_MID:
            out[CHI_MID] = True
        if m & CLAIM_BIT_CHI_HIGH:
            out[CHI_HIGH] = True
        # the same call with plain fives, when it would otherwise use a held red five
        x = st.claim_tile[t] // 4
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
        h = st.closed34[t, s].copy()
        for tile in range(WALL_SIZE):
            if st.closed[t, s, tile]:
                k = tile // 4
                h[k] -= 1
                if _shanten(h, tables.shanten_suit, tables.shanten_honor) == 0:
                    if _is_red(rules, tile):
                        out[DISCARD_RED + k // 9] = True
                    else:
                        out[k] = True
                h[k] += 1
    else:
        d = st.drawn[t]
        if d < 0:
            _discard_mask(st, t, s, out)
        else:
            hand = st.closed34[t, s]
            if _is_agari(hand, tables.shanten_suit, tables.shanten_honor):
                if st.pending_dora[t] > 0 and rules[RULE_RINSHAN_KAN_DORA]:
                    # the win would reveal the pending kan dora first (rule rinshan_kan_dora)
                    st.n_dora[t] += 1
                    ok = _can_win(st, tables, t, s, d, s, np.int64(0))
                    st.n_dora[t] -= 1
                else:
                    ok = _can_win(st, tables, t, s, d, s, np.int64(0))
                if ok:
                    out[TSUMO] = True
            live = _live_left(st, t)
            if st.riichi[t, s] > 0:
                if _is_red(rules, d):
                    out[DISCARD_RED + d // 36] = True
                else:
                    out[d // 4] = True
            else:
                _discard_mask(st, t, s, out)
            if st.n_kans[t] < 4 and live > 0:
                for k in range(34):
                    if hand[k] == 4 and (
                        st.riichi[t, s] == 0 or _riichi_ankan_ok(st, tables, t, s, k)
                    ):
                        out[KAN + k] = True
                if st.riichi[t, s] == 0:
                    for i in range(st.n_melds[t, s]):
                        if st.meld_type[t, s, i] == MELD_PON and hand[st.meld_tile34[t, s, i]] > 0:
                            out[KAN + st.meld_tile34[t, s, i]] = True
            if (
                st.riichi[t, s] == 0
                and _n_open(st, t, s) == 0
                and st.points[t, s] >= 1000
                and live >= 4
                and _shanten(hand, tables.shanten_suit, tables.shanten_honor) <= 0
            ):
                out[RIICHI] = True
                if rules[RULE_OPEN_RIICHI]:
                    out[OPEN_RIICHI] = True
            if rules[RULE_ABORTIVE_DRAWS] and st.first_go[t] == 1 and st.n_river[t, s] == 0:
                kinds = 0
                for y in _YAOCHUU:
                    if hand[y] > 0:
                        kinds += 1
                if kinds >= 9:
                    out[KYUUSHU] = True
    n = 0
    for i in range(N_ACTIONS):
        if out[i]:
            n += 1
    return n


# ---------------------------------------------------------------------------- applying actions


@njit
def _step(st, tables, t, action):
    """Check ``action`` against the legal mask, apply it and advance; ``OK`` or an ``ERR_*``."""
    if st.phase[t] == PHASE_GAME_OVER:
        return ERR_GAME_OVER
    if action < 0 or action >= N_ACTIONS:
        return ERR_RANGE
    mask = np.zeros(N_ACTIONS, dtype=np.bool_)
    _legal_mask(st, tables, t, mask)
    if not mask[action]:
        return ERR_ILLEGAL
    _apply(st, tables, t, action)
    return OK


@njit
def _apply(st, tables, t, action):
    """Apply a legal action (unchecked) and advance to the next decision."""
    st.n_decisions[t] += 1
    phase = st.phase[t]
    s = st.actor[t]
    if phase == PHASE_CLAIM:
        st.claim_answer[t, s] = action
        st.claim_pos[t] += 1
        if st.claim_pos[t] < st.claim_n[t]:
            st.actor[t] = st.claim_queue[t, st.claim_pos[t]]
        else:
            _resolve_claims(st, tables, t)
        return
    if action < RIICHI:
        _discard(st, tables, t, s, action)
    elif action in (RIICHI, OPEN_RIICHI):
        double = st.first_go[t] == 1 and st.n_river[t, s] == 0
        st.riichi[t, s] = 2 if double else 1
        st.open_riichi[t, s] = 1 if action == OPEN_RIICHI else 0
        st.phase[t] = PHASE_RIICHI_DISCARD
        _log(
            st.events,
            st.n_events,
            st.ev_overflow,
            t,
            EV_RIICHI,
            s,
            1 if double else 0,
            st.open_riichi[t, s],
            0,
            0,
            0,
            0,
        )
    elif action == TSUMO:
        if st.pending_dora[t] > 0 and st.rules[t, RULE_RINSHAN_KAN_DORA]:
            _reveal_dora(st, t)
        _win(st, tables, t, s, s, st.drawn[t], np.int64(0))
    elif action == KYUUSHU:
        _abort(st, tables, t, np.int64(DRAW_KYUUSHU), np.int64(s))
    else:
        _own_kan(st, tables, t, s, action - KAN)


@njit
def _discard(st, tables, t, s, action):
    """Discard (tsumogiri flag, riichi declaration tile), then offer claims on it."""
    if action >= DISCARD_RED:
        tile = _find_tile(st, t, s, 4 + 9 * (action - DISCARD_RED), True)
    else:
        tile = _find_tile(st, t, s, action, False)
    k = tile // 4
    tsumogiri = tile == st.drawn[t]
    declaring = st.phase[t] == PHASE_RIICHI_DISCARD
    _remove_tile(st, t, s, tile)
    i = st.n_river[t, s]
    st.river[t, s, i] = tile
    st.river_flags[t, s, i] = (RIVER_TSUMOGIRI if tsumogiri else 0) | (
        RIVER_RIICHI if declaring else 0
    )
    st.n_river[t, s] = i + 1
    st.discarded34[t, s, k] = 1
    if not (k >= 27 or k % 9 == 0 or k % 9 == 8):
        st.nagashi[t, s] = 0
    st.furiten_temp[t, s] = 0
    if not declaring:
        st.ippatsu[t, s] = 0
    else:
        st.riichi_pending[t] = s
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_DISCARD,
        s,
        tile,
        1 if tsumogiri else 0,
        1 if declaring else 0,
        0,
        0,
        0,
    )
    if st.pending_dora[t] > 0:
        _reveal_dora(st, t)
    st.drawn[t] = -1
    st.rinshan[t] = 0
    st.kuikae[t] = -1
    _update_waits(st, tables, t, s)
    _offer_discard(st, tables, t, s, tile)


@njit
def _offer_discard(st, tables, t, d, tile):
    """Ask every seat with a legal claim on the discard, in turn order after the discarder."""
    x = tile // 4
    live = _live_left(st, t)
    st.claim_tile[t] = tile
    st.claim_from[t] = d
    st.claim_kind[t] = CLAIM_DISCARD
    st.claim_n[t] = 0
    st.claim_pos[t] = 0
    for s in range(4):
        st.claim_mask[t, s] = 0
        st.claim_answer[t, s] = -1
    for i in range(1, 4):
        s = (d + i) % 4
        m = 0
        if (
            st.waits[t, s, x]
            and not _furiten(st, t, s)
            and _can_win(st, tables, t, s, tile, d, np.int64(0))
        ):
            m |= CLAIM_BIT_RON
        if live > 0 and st.riichi[t, s] == 0:
            hand = st.closed34[t, s]
            c = int(hand[x])
            if c >= 2 and _kuikae_leaves_discard(hand, x, x, x, -1):
                m |= CLAIM_BIT_PON
            if c == 3 and st.n_kans[t] < 4:
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
        if m:
            st.claim_mask[t, s] = m
            st.claim_queue[t, st.claim_n[t]] = s
            st.claim_n[t] += 1
    if st.claim_n[t] > 0:
        st.phase[t] = PHASE_CLAIM
        st.turn[t] = d
        st.actor[t] = st.claim_queue[t, 0]
    else:
        _discard_passes(st, tables, t, np.int64(-1), np.int64(PASS))


@njit
def _mark_passed_furiten(st, t, d, x):
    """Temporary and riichi furiten for every seat whose wait ``x`` went by (docs/rules.md furiten)."""
    for s in range(4):
        if s != d and st.waits[t, s, x]:
            st.furiten_temp[t, s] = 1
            if st.riichi[t, s] > 0:
                st.furiten_riichi[t, s] = 1


@njit
def _resolve_claims(st, tables, t):
    """All asked seats answered: ron (several allowed) > pon/kan > chi > nothing."""
    d = st.claim_from[t]
    tile = st.claim_tile[t]
    n_ron = 0
    for i in range(st.claim_n[t]):
        if st.claim_answer[t, st.claim_queue[t, i]] == RON:
            n_ron += 1
    if n_ron > 0:
        if n_ron == 3 and st.rules[t, RULE_SANCHAHOU]:
            if st.riichi_pending[t] >= 0:
                st.riichi[t, st.riichi_pending[t]] = 0
                st.riichi_pending[t] = -1
            _abort(st, tables, t, np.int64(DRAW_SANCHAHOU), np.int64(-1))
            return
        _ron(st, tables, t, d, tile)
        return
    if st.claim_kind[t] == CLAIM_CHANKAN:
        _mark_passed_furiten(st, t, d, tile // 4)
    if st.claim_kind[t] != CLAIM_DISCARD:
        for i in range(st.claim_n[t]):
            s = st.claim_queue[t, i]
            st.furiten_temp[t, s] = 1
            if st.riichi[t, s] > 0:
                st.furiten_riichi[t, s] = 1
        _complete_kan(st, tables, t, np.int64(d), st.claim_kind[t] == CLAIM_ANKAN)
        return
    caller = -1
    choice = PASS
    for i in range(st.claim_n[t]):
        s = st.claim_queue[t, i]
        a = st.claim_answer[t, s]
        if a in (PON, PON_PLAIN) or KAN <= a < KAN + 34:
            caller = s
            choice = a
    if caller < 0:
        for i in range(st.claim_n[t]):
            s = st.claim_queue[t, i]
            a = st.claim_answer[t, s]
            if CHI_LOW <= a <= CHI_HIGH or CHI_LOW_PLAIN <= a <= CHI_HIGH_PLAIN:
                caller = s
                choice = a
    _discard_passes(st, tables, t, np.int64(caller), np.int64(choice))


@njit
def _discard_passes(st, tables, t, caller, choice):
    """The discard was not ronned: furiten, riichi stick, abortive draws, then a call or a draw."""
    d = st.claim_from[t]
    tile = st.claim_tile[t]
    x = tile // 4
    rules = st.rules[t]
    _mark_passed_furiten(st, t, d, x)
    if st.riichi_pending[t] == d:
        st.riichi_pending[t] = -1
        st.points[t, d] -= 1000
        st.kyotaku[t] += 1
        st.ippatsu[t, d] = 1
        _log(
            st.events,
            st.n_events,
            st.ev_overflow,
            t,
            EV_RIICHI_ACCEPTED,
            d,
            st.points[t, d],
            st.kyotaku[t],
            0,
            0,
            0,
            0,
        )
        if rules[RULE_ABORTIVE_DRAWS]:
            n_riichi = 0
            for s in range(4):
                if st.riichi[t, s] > 0:
                    n_riichi += 1
            if n_riichi == 4:
                _abort(st, tables, t, np.int64(DRAW_SUUCHA), np.int64(-1))
                return
    if rules[RULE_ABORTIVE_DRAWS]:
        if st.first_go[t] == 1 and 27 <= x <= 30:
            same = True
            for s in range(4):
                if st.n_river[t, s] != 1 or st.river[t, s, 0] // 4 != x:
                    same = False
            if same:
                _abort(st, tables, t, np.int64(DRAW_SUUFON), np.int64(-1))
                return
        if st.suukaikan_pending[t]:
            _abort(st, tables, t, np.int64(DRAW_SUUKAIKAN), np.int64(-1))
            return
    if caller >= 0:
        _call(st, tables, t, caller, choice)
        return
    if _live_left(st, t) == 0:
        _exhaustive_draw(st, tables, t)
        return
    _draw(st, t, np.int64((d + 1) % 4), np.bool_(False))


@njit
def _add_meld(st, t, s, mtype, k, t0, t1, t2, t3, src, called):
    i = st.n_melds[t, s]
    st.meld_type[t, s, i] = mtype
    st.meld_tile34[t, s, i] = k
    st.meld_tiles[t, s, i, 0] = t0
    st.meld_tiles[t, s, i, 1] = t1
    st.meld_tiles[t, s, i, 2] = t2
    st.meld_tiles[t, s, i, 3] = t3
    st.meld_from[t, s, i] = src
    st.meld_called[t, s, i] = called
    st.n_melds[t, s] = i + 1
    return i


@njit
def _log_meld(st, t, s, i):
    m = st.meld_tiles[t, s, i]
    packed = _pack4(m[0], m[1], m[2], m[3])
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_CALL,
        s,
        st.meld_type[t, s, i],
        st.meld_from[t, s, i],
        st.meld_called[t, s, i],
        packed,
        st.meld_tile34[t, s, i],
        0,
    )


@njit
def _check_pao(st, t, c, d, k):
    """Pao (docs/rules.md): a pon/kan from a discard that completes the 3rd dragon / 4th wind set."""
    if not st.rules[t, RULE_PAO] or k < 27:
        return
    dragons = 0
    winds = 0
    for i in range(st.n_melds[t, c]):
        mt = st.meld_type[t, c, i]
        if mt != MELD_CHI:
            m = st.meld_tile34[t, c, i]
            if m >= 31:
                dragons += 1
            elif m >= 27:
                winds += 1
    if k >= 31 and dragons == 3:
        st.pao_seat[t, c] = d
        st.pao_kind[t, c] = PAO_DAISANGEN
    elif 27 <= k <= 30 and winds == 4:
        st.pao_seat[t, c] = d
        st.pao_kind[t, c] = PAO_DAISUUSHII


@njit
def _call(st, tables, t, c, choice):
    """Chi, pon or daiminkan of the discard by seat ``c``."""
    d = st.claim_from[t]
    tile = st.claim_tile[t]
    x = tile // 4
    st.river_flags[t, d, st.n_river[t, d] - 1] |= RIVER_CALLED
    st.nagashi[t, d] = 0
    st.first_go[t] = 0
    for s in range(4):
        st.ippatsu[t, s] = 0
    plain = choice >= CHI_LOW_PLAIN
    if plain:
        choice -= PLAIN_OFFSET
    if choice == PON:
        a = _take_for_call(st, t, c, x, -1, plain)
        _remove_tile(st, t, c, a)
        b = _take_for_call(st, t, c, x, -1, plain)
        _remove_tile(st, t, c, b)
        i = _add_meld(st, t, c, MELD_PON, x, a, b, tile, -1, d, tile)
        st.kuikae[t, 0] = x
        st.kuikae[t, 1] = -1
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
        st.kuikae[t, 0] = x
        st.kuikae[t, 1] = _chi_forbid(x, shape)
    _log_meld(st, t, c, i)
    _check_pao(st, t, c, d, x)
    if choice >= KAN:
        _complete_kan(st, tables, t, np.int64(c), np.bool_(False))
        return
    st.phase[t] = PHASE_TURN
    st.turn[t] = c
    st.actor[t] = c
    st.drawn[t] = -1
    st.rinshan[t] = 0


@njit
def _own_kan(st, tables, t, s, k):
    """Ankan or kakan of kind ``k``; offers chankan (kokushi only for ankan), then completes it.

    A pending open/added kan indicator is revealed here (docs/rules.md) or, with
    ``kan_dora_on_declare`` off, once this kan is completed.
    """
    if st.pending_dora[t] > 0 and st.rules[t, RULE_KAN_DORA_ON_DECLARE]:
        _reveal_dora(st, t)
    if st.closed34[t, s, k] == 4:
        ts = np.empty(4, dtype=np.int32)
        for j in range(4):
            ts[j] = 4 * k + j
            _remove_tile(st, t, s, 4 * k + j)
        i = _add_meld(st, t, s, MELD_ANKAN, k, ts[0], ts[1], ts[2], ts[3], s, -1)
        kind = CLAIM_ANKAN
        offered = st.drawn[t] if st.drawn[t] // 4 == k else 4 * k
    else:
        i = 0
        while st.meld_type[t, s, i] != MELD_PON or st.meld_tile34[t, s, i] != k:
            i += 1
        added = _find_tile(st, t, s, k, True)
        if added < 0:
            added = _find_tile(st, t, s, k, False)
        _remove_tile(st, t, s, added)
        st.meld_type[t, s, i] = MELD_KAKAN
        st.meld_tiles[t, s, i, 3] = added
        st.meld_called[t, s, i] = added
        kind = CLAIM_CHANKAN
        offered = added
    st.drawn[t] = -1
    st.rinshan[t] = 0
    _log_meld(st, t, s, i)
    st.claim_tile[t] = offered
    st.claim_from[t] = s
    st.claim_kind[t] = kind
    st.claim_n[t] = 0
    st.claim_pos[t] = 0
    for o in range(4):
        st.claim_mask[t, o] = 0
        st.claim_answer[t, o] = -1
    for j in range(1, 4):
        o = (s + j) % 4
        if kind == CLAIM_CHANKAN:
            can = st.waits[t, o, k] == 1
        else:
            can = _is_kokushi_with(st.closed34[t, o], k)
        if can and not _furiten(st, t, o) and _can_win(st, tables, t, o, offered, s, np.int64(1)):
            st.claim_mask[t, o] = CLAIM_BIT_RON
            st.claim_queue[t, st.claim_n[t]] = o
            st.claim_n[t] += 1
    if st.claim_n[t] > 0:
        st.phase[t] = PHASE_CLAIM
        st.turn[t] = s
        st.actor[t] = st.claim_queue[t, 0]
        return
    if kind == CLAIM_CHANKAN:
        # a kakan tile no one may rob still counts as passed for furiten
        _mark_passed_furiten(st, t, s, k)
    _complete_kan(st, tables, t, np.int64(s), kind == CLAIM_ANKAN)


@njit
def _complete_kan(st, tables, t, s, closed_kan):
    """Kan effects: count it, dora now (ankan) or pending (open/added), suukaikan, rinshan draw."""
    if st.pending_dora[t] > 0:
        _reveal_dora(st, t)
    st.n_kans[t] += 1
    st.first_go[t] = 0
    for o in range(4):
        st.ippatsu[t, o] = 0
    if closed_kan:
        _reveal_dora(st, t)
    else:
        st.pending_dora[t] += 1
    if st.n_kans[t] == 4:
        owners = 0
        for o in range(4):
            for i in range(st.n_melds[t, o]):
                mt = st.meld_type[t, o, i]
                if mt in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN):
                    owners |= 1 << o
        if owners != 1 << s:
            st.suukaikan_pending[t] = 1
    _draw(st, t, np.int64(s), np.bool_(True))


# ---------------------------------------------------------------------------- hand results


@njit
def _log_win(st, t, w, from_seat, win_tile, out, yaku, pao, delta, sticks):
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_WIN,
        w,
        from_seat,
        win_tile,
        out[RES_HAN],
        out[RES_FU],
        out[RES_YAKUMAN],
        pao,
    )
    pairs = np.full(2 * N_YAKU + 6, -1, dtype=np.int64)
    n = 0
    for y in range(N_YAKU):
        if yaku[y] != 0:
            pairs[2 * n] = y
            pairs[2 * n + 1] = yaku[y]
            n += 1
    for k in range(0, n, 3):
        p = 2 * k
        _log(
            st.events,
            st.n_events,
            st.ev_overflow,
            t,
            EV_YAKU,
            w,
            pairs[p],
            pairs[p + 1],
            pairs[p + 2],
            pairs[p + 3],
            pairs[p + 4],
            pairs[p + 5],
        )
    if st.riichi[t, w] > 0:
        u = np.full(5, -1, dtype=np.int64)
        for k in range(st.n_dora[t]):
            u[k] = st.wall[t, URA_START + k]
        _log(
            st.events,
            st.n_events,
            st.ev_overflow,
            t,
            EV_URA,
            w,
            st.n_dora[t],
            u[0],
            u[1],
            u[2],
            u[3],
            u[4],
        )
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_DELTA,
        w,
        delta[0],
        delta[1],
        delta[2],
        delta[3],
        sticks,
        0,
    )


@njit
def _pay_win(st, tables, t, w, from_seat, win_tile, chankan, first, total):
    """Score one winner and add its payments to ``total``; pao per docs/rules.md (``pao_honba`` rule)."""
    dealer = _dealer(st, t)
    honba = st.honba[t] if first else 0
    sticks = st.kyotaku[t] if first else 0
    out = np.zeros(N_RES, dtype=np.int32)
    yaku = np.zeros(N_YAKU, dtype=np.int32)
    _score_win(st, tables, t, w, win_tile, from_seat, chankan, honba, sticks, out, yaku)
    delta = np.zeros(4, dtype=np.int32)
    pao = st.pao_seat[t, w]
    pao_mult = 0
    if pao >= 0:
        if st.pao_kind[t, w] == PAO_DAISANGEN:
            pao_mult = yaku[Y_DAISANGEN]
        elif st.pao_kind[t, w] == PAO_DAISUUSHII:
            pao_mult = yaku[Y_DAISUUSHII]
    if pao_mult == 0:
        pao = -1
    unit = 48000 if w == dealer else 32000
    if from_seat == w:
        if pao >= 0:
            rest = 8000 * (out[RES_YAKUMAN] - pao_mult)
            liable_honba = st.rules[t, RULE_PAO_HONBA_LIABLE] != 0
            for o in range(4):
                if o != w:
                    share = 2 * rest if (o == dealer or w == dealer) else rest
                    delta[o] -= share if liable_honba else share + 100 * honba
            delta[pao] -= unit * pao_mult
            if liable_honba:
                delta[pao] -= 300 * honba
        else:
            for o in range(4):
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
        st.kyotaku[t] = 0
    _log_win(st, t, w, from_seat, win_tile, out, yaku, pao, delta, sticks)
    for o in range(4):
        total[o] += delta[o]


@njit
def _win(st, tables, t, w, from_seat, win_tile, chankan):
    """Tsumo by ``w`` (``from_seat == w``): settle and end the hand."""
    total = np.zeros(4, dtype=np.int32)
    _pay_win(st, tables, t, w, from_seat, win_tile, chankan, np.bool_(True), total)
    for o in range(4):
        st.points[t, o] += total[o]
    st.last_delta[t] = total
    dealer = _dealer(st, t)
    yame = w == dealer and st.rules[t, RULE_AGARI_YAME] != 0
    _end_hand(st, tables, t, w == dealer, yame, w == dealer)


@njit
def _ron(st, tables, t, d, tile):
    """Every ron answer wins; honba and sticks to the first winner after the discarder."""
    chankan = 1 if st.claim_kind[t] != CLAIM_DISCARD else 0
    if st.riichi_pending[t] == d:
        st.riichi[t, d] = 0
        st.riichi_pending[t] = -1
    total = np.zeros(4, dtype=np.int32)
    first = True
    dealer_won = False
    dealer = _dealer(st, t)
    for i in range(st.claim_n[t]):
        w = st.claim_queue[t, i]
        if st.claim_answer[t, w] == RON:
            _pay_win(st, tables, t, w, d, tile, chankan, np.bool_(first), total)
            first = False
            if w == dealer:
                dealer_won = True
    for o in range(4):
        st.points[t, o] += total[o]
    st.last_delta[t] = total
    yame = dealer_won and st.rules[t, RULE_AGARI_YAME] != 0
    _end_hand(st, tables, t, dealer_won, yame, dealer_won)


@njit
def _draw_tenpai(st, t, s):
    """Tenpai at an exhaustive draw (docs/rules.md): formal tenpai, except a hand whose every wait
    is a kind the seat holds all four of, its own melds' copies counted (karaten is noten)."""
    for k in range(34):
        if not st.waits[t, s, k]:
            continue
        held = np.int32(st.closed34[t, s, k])
        for i in range(st.n_melds[t, s]):
            for j in range(4):
                x = st.meld_tiles[t, s, i, j]
                if x >= 0 and x // 4 == k:
                    held += 1
        if held < 4:
            return True
    return False


@njit
def _exhaustive_draw(st, tables, t):
    """Exhaustive draw: nagashi mangan, else tenpai payments (formal tenpai, karaten noten)."""
    rules = st.rules[t]
    dealer = _dealer(st, t)
    delta = np.zeros(4, dtype=np.int32)
    tenpai_mask = 0
    n_tenpai = 0
    for s in range(4):
        if _draw_tenpai(st, t, s):
            tenpai_mask |= 1 << s
            n_tenpai += 1
    nagashi_mask = 0
    if rules[RULE_NAGASHI]:
        for s in range(4):
            if st.nagashi[t, s] and st.n_river[t, s] > 0:
                nagashi_mask |= 1 << s
    if nagashi_mask:
        for s in range(4):
            if nagashi_mask >> s & 1:
                for o in range(4):
                    if o != s:
                        pay = 4000 if (s == dealer or o == dealer) else 2000
                        delta[o] -= pay
                        delta[s] += pay
        kind = DRAW_NAGASHI
    else:
        if 0 < n_tenpai < 4:
            gain = 3000 // n_tenpai
            loss = 3000 // (4 - n_tenpai)
            for s in range(4):
                delta[s] = gain if tenpai_mask >> s & 1 else -loss
        kind = DRAW_EXHAUSTIVE
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_RYUUKYOKU,
        -1,
        kind,
        tenpai_mask,
        nagashi_mask,
        0,
        0,
        0,
    )
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_DELTA,
        -1,
        delta[0],
        delta[1],
        delta[2],
        delta[3],
        0,
        0,
    )
    for s in range(4):
        st.points[t, s] += delta[s]
    st.last_delta[t] = delta
    dealer_tenpai = (tenpai_mask >> dealer & 1) == 1
    yame = dealer_tenpai and rules[RULE_TENPAI_YAME] != 0
    _end_hand(st, tables, t, dealer_tenpai, yame, np.bool_(True))


@njit
def _abort(st, tables, t, kind, seat):
    """Abortive draw: the dealer keeps the seat, honba + 1 (docs/rules.md)."""
    st.last_delta[t] = 0
    _log(st.events, st.n_events, st.ev_overflow, t, EV_RYUUKYOKU, seat, kind, 0, 0, 0, 0, 0)
    _log(st.events, st.n_events, st.ev_overflow, t, EV_DELTA, -1, 0, 0, 0, 0, 0, 0)
    _end_hand(st, tables, t, np.bool_(True), np.bool_(False), np.bool_(True))


@njit
def _top_seat(points):
    """First place: most points, ties to the seat closer to the starting dealer (seat 0)."""
    best = 0
    for s in range(1, 4):
        if points[s] > points[best]:
            best = s
    return best


@njit
def _end_hand(st, tables, t, renchan, yame_ok, honba_up):
    """Renchan/honba, then game end (busting, agari/tenpai-yame, last hand, extension) or the next hand.

    ``yame_ok`` is True when the hand allows agari-yame or tenpai-yame under the rules (a dealer
    win, or dealer tenpai at an exhaustive draw). ``honba_up`` is True for a dealer win and every
    draw; a non-dealer win resets honba. With ``extension_renchan`` a renchan in the extension is
    treated like one in the last regular hand: only busting or agari/tenpai-yame end the game
    (docs/rules.md, End of the game).
    """
    rules = st.rules[t]
    dealer = _dealer(st, t)
    if renchan:
        next_honba = st.honba[t] + 1
    elif honba_up:
        next_honba = 0 if rules[RULE_HONBA_RESET_ON_PASS] else st.honba[t] + 1
    else:
        next_honba = 0
    p = st.points[t]
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_HAND_END,
        -1,
        p[0],
        p[1],
        p[2],
        p[3],
        st.kyotaku[t],
        next_honba,
    )
    st.phase[t] = PHASE_GAME_OVER
    ret = rules[RULE_RETURN_POINTS]
    last = 4 * rules[RULE_N_WINDS] - 1
    k = st.kyoku[t]
    over = False
    anyone = False
    for s in range(4):
        if p[s] >= ret:
            anyone = True
    if rules[RULE_BUSTING]:
        for s in range(4):
            if p[s] < 0:
                over = True
    yame = yame_ok and _top_seat(p) == dealer and p[dealer] >= ret
    if not over:
        if k > last:
            if renchan and rules[RULE_EXTENSION_RENCHAN]:
                # extension_renchan (Tenhou): the dealer's renchan takes priority over someone
                # having the return points and over the extension's last hand; only yame ends it
                over = yame
            elif anyone or k >= last + rules[RULE_EXTENSION_HANDS]:
                # extension: ends once someone has the return points, or after its last hand
                over = True
        elif k == last:
            if renchan:
                over = yame
            elif anyone or not rules[RULE_EXTENSION] or rules[RULE_EXTENSION_HANDS] == 0:
                over = True
    if over:
        _end_game(st, t)
        return
    st.honba[t] = next_honba
    if not renchan:
        st.kyoku[t] = k + 1
    _new_hand(st, tables, t)


@njit
def _end_game(st, t):
    """Final scores: leftover sticks to first, (points - return) / 1000 + uma + oka."""
    rules = st.rules[t]
    p = st.points[t]
    top = _top_seat(p)
    left = st.kyotaku[t]
    p[top] += 1000 * left
    st.kyotaku[t] = 0
    order = np.zeros(4, dtype=np.int64)
    used = np.zeros(4, dtype=np.bool_)
    for r in range(4):
        best = -1
        for s in range(4):
            if not used[s] and (best < 0 or p[s] > p[best]):
                best = s
        used[best] = True
        order[r] = best
        st.final_ranks[t, best] = r
    ret = rules[RULE_RETURN_POINTS]
    oka = 4.0 * (ret - rules[RULE_START_POINTS]) / 1000.0
    packed = 0
    scores10 = np.zeros(4, dtype=np.int64)
    for s in range(4):
        r = st.final_ranks[t, s]
        # points are multiples of 100, so tenths are exact integers
        tenths = (p[s] - ret) // 100 + 10 * rules[RULE_UMA_1 + r]
        if r == 0:
            tenths += int(round(oka * 10))
        scores10[s] = tenths
        st.final_scores[t, s] = tenths / 10.0
        packed |= r << (2 * s)
    _log(
        st.events, st.n_events, st.ev_overflow, t, EV_GAME_END, -1, p[0], p[1], p[2], p[3], left, 0
    )
    _log(
        st.events,
        st.n_events,
        st.ev_overflow,
        t,
        EV_FINAL,
        -1,
        scores10[0],
        scores10[1],
        scores10[2],
        scores10[3],
        packed,
        0,
    )
    st.game_over[t] = 1
    st.phase[t] = PHASE_GAME_OVER
    st.actor[t] = -1


# ---------------------------------------------------------------------------- public API


def _tables():
    from engine.tables import load_tables

    return load_tables()


def _check_table(state: State, t: int) -> int:
    from engine.validation import check_int

    if not isinstance(state, State):
        raise TypeError(f"state must be an engine.state.State, got {type(state).__name__}")
    n = state.points.shape[0]
    return check_int("table index t", t, 0, n - 1)


def reset(state: State, seed: int, t: int = 0) -> None:
    """Start a new game on table ``t`` from ``seed`` (an int, ``0 <= seed <= 2**63 - 1``)."""
    from engine.validation import check_seed

    t = _check_table(state, t)
    seed = check_seed(seed)
    _reset(state, _tables(), t, np.int64(seed))


def legal_mask(state: State, t: int = 0) -> np.ndarray:
    """``bool[N_ACTIONS]``: the legal actions of the seat to act on table ``t``."""
    t = _check_table(state, t)
    out = np.zeros(N_ACTIONS, dtype=np.bool_)
    _legal_mask(state, _tables(), t, out)
    return out


def step(state: State, action: int, t: int = 0) -> None:
    """Apply ``action`` for the seat to act on table ``t``; raises ``ValueError`` if illegal."""
    from engine.validation import check_action

    t = _check_table(state, t)
    action = check_action(action, N_ACTIONS)
    tables = _tables()
    code = _step(state, tables, t, action)
    if code != OK:
        raise ValueError(explain_illegal(state, action, t) or ERR_NAMES[code])


def explain_illegal(state: State, action: int, t: int = 0) -> str:
    """Why ``action`` is illegal for the seat to act ("" if it is legal)."""
    from engine.tiles import tile34_to_str, tile136_to_str
    from engine.validation import check_action

    t = _check_table(state, t)
    action = check_action(action, N_ACTIONS)
    tables = _tables()
    mask = np.zeros(N_ACTIONS, dtype=np.bool_)
    _legal_mask(state, tables, t, mask)
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
        if action < RIICHI or action in (RIICHI, OPEN_RIICHI, TSUMO, KYUUSHU):
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
    if action in (PASS, RON) or CHI_LOW <= action <= PON or action >= CHI_LOW_PLAIN:
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
            f"in the live wall (hand {hand}, {int(state.points[t, s])} points, "
            f"{int(_live_left(state, t))} tiles left, already riichi: {bool(state.riichi[t, s])})"
        )
    if action == KYUUSHU:
        return f"{head}: needs 9 kinds of terminals/honors on an uninterrupted first draw ({hand})"
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


class Game:
    """One table: validates actions and raises clear errors, then calls the kernels.

    Args:
        rules: The ruleset: a preset name (``"mahjongsoul"``, ``"tenhou"``) or a
            ``engine.rules.Rules``.
        seed: Game seed, an int with ``0 <= seed <= 2**63 - 1``; ``None`` leaves the table
            unstarted (for scenarios).
        max_events: Event log capacity in rows (1 to ``engine.validation.MAX_EVENTS_LIMIT``).
    """

    def __init__(
        self, rules: Rules | str = MAHJONGSOUL, seed: int | None = 0, max_events: int = 8192
    ):
        from engine.rules import as_rules
        from engine.validation import check_max_events, check_seed

        rules = as_rules(rules)
        max_events = check_max_events(max_events)
        if seed is not None:
            seed = check_seed(seed)
        self.rules = rules
        self.state = new_state(1, rules, max_events)
        self.tables = _tables()
        if seed is not None:
            self.reset(seed)

    def reset(self, seed: int) -> None:
        """Start a new game from ``seed``."""
        reset(self.state, seed, 0)

    @property
    def actor(self) -> int:
        """Seat that must act now (-1 at game over)."""
        return int(self.state.actor[0]) if not self.done else -1

    @property
    def turn(self) -> int:
        """Seat whose turn it is."""
        return int(self.state.turn[0])

    @property
    def phase(self) -> str:
        """``"turn"``, ``"riichi discard"``, ``"claim"`` or ``"game over"``."""
        return PHASE_NAMES[int(self.state.phase[0])]

    @property
    def done(self) -> bool:
        """True at game over."""
        return bool(self.state.game_over[0])

    @property
    def points(self) -> list[int]:
        return [int(x) for x in self.state.points[0]]

    @property
    def final_scores(self) -> list[float]:
        return [float(x) for x in self.state.final_scores[0]]

    def legal_mask(self) -> np.ndarray:
        """``bool[N_ACTIONS]`` for the seat to act."""
        out = np.zeros(N_ACTIONS, dtype=np.bool_)
        _legal_mask(self.state, self.tables, 0, out)
        return out

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending."""
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def step(self, action: int) -> None:
        """Apply ``action`` for the seat to act; ``ValueError`` names seat, action and reason."""
        step(self.state, action, 0)

    def explain(self, action: int) -> str:
        """Why ``action`` is illegal now ("" if it is legal)."""
        return explain_illegal(self.state, action, 0)

    def hand(self, seat: int) -> str:
        """Concealed tiles of ``seat`` (0-3, absolute; 0 is the starting dealer) in mpsz."""
        from engine.validation import check_seat

        return _hand_str(self.state, 0, check_seat(seat))

    def events(self) -> np.ndarray:
        """The event log as ``int32[n, 8]``."""
        from engine.events import event_rows

        return event_rows(self.state, 0)

    def render(self) -> list[str]:
        """The event log as readable lines."""
        from engine.events import render

        return render(self.events(), self.rules.red_fives)
