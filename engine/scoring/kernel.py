"""Scoring: han, fu, limits and payments of a winning hand (the ``_score_hand`` kernel).

Every reading of the hand (``engine/scoring/agari.py``) and every place the winning tile can sit in it
is scored; the one that pays most wins, then more han, then more fu (docs/rules.md "Highest
reading"; a yakuman beats a kazoe yakuman of the same value, as the hand-score samples show).
Yakuman stack and drop every other yaku and dora; 13+ han without yakuman is kazoe yakuman when
``RULE_KAZOE`` is on. Payments round up to 100 and include honba, not sticks. Open riichi is
+2 han (with double riichi +4); ``CTX_YAKUMAN_PAY`` makes a ron pay at least a yakuman.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.melds import MELD_ANKAN, MELD_CHI, MELD_DAIMINKAN, MELD_KAKAN
from engine.rules import (
    RULE_DOUBLE_YAKUMAN,
    RULE_OPEN_TANYAO,
)
from engine.scoring.agari import (
    AGARI_READINGS,
    N_AGARI_WORK,
    READING_WIDTH,
    SET_TRIPLET,
    _decompose,
)
from engine.scoring.fu import (
    FU_CHIITOITSU,
    WAIT_RYANMEN,
    WAIT_SHANPON,
    WAIT_TANKI,
    _pair_fu,
    _round_fu,
    _seq_wait,
    _set_fu,
    _wait_fu,
)
from engine.scoring.layout import (
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
    LIMIT_YAKUMAN,
    N_RES,
    RES_BASE,
    RES_FU,
    RES_HAN,
    RES_LIMIT,
    RES_STATUS,
    RES_WINNER_GAIN,
    RES_YAKUMAN,
    STATUS_NO_YAKU,
    STATUS_NOT_AGARI,
    STATUS_OK,
)
from engine.scoring.payment import _ceil100, _limit_base, _payments
from engine.scoring.yaku import (
    N_YAKU,
    ONE,
    Y_AKA_DORA,
    Y_CHANKAN,
    Y_CHANTA,
    Y_CHIIHOU,
    Y_CHIITOITSU,
    Y_CHINITSU,
    Y_CHINROUTOU,
    Y_CHUN,
    Y_CHUUREN,
    Y_DAISANGEN,
    Y_DAISUUSHII,
    Y_DORA,
    Y_DOUBLE_RIICHI,
    Y_FIRST_YAKUMAN,
    Y_HAITEI,
    Y_HAKU,
    Y_HATSU,
    Y_HONITSU,
    Y_HONROUTOU,
    Y_HOUTEI,
    Y_IIPEIKOU,
    Y_IPPATSU,
    Y_ITTSU,
    Y_JUNCHAN,
    Y_JUNSEI_CHUUREN,
    Y_KOKUSHI,
    Y_KOKUSHI_13,
    Y_MENZEN_TSUMO,
    Y_OPEN_RIICHI,
    Y_PINFU,
    Y_RIICHI,
    Y_RINSHAN,
    Y_ROUND_EAST,
    Y_RYANPEIKOU,
    Y_RYUUIISOU,
    Y_SANANKOU,
    Y_SANKANTSU,
    Y_SANSHOKU,
    Y_SANSHOKU_DOUKOU,
    Y_SEAT_EAST,
    Y_SHOUSANGEN,
    Y_SHOUSUUSHII,
    Y_SUUANKOU,
    Y_SUUANKOU_TANKI,
    Y_SUUKANTSU,
    Y_TANYAO,
    Y_TENHOU,
    Y_TOITOI,
    Y_TSUUIISOU,
    Y_URA_DORA,
    YAKU_HAN_CLOSED,
    YAKU_HAN_OPEN,
    YAKU_YAKUMAN,
    YAOCHUU_MASK,
    _chuuren,
    _flush,
    _is_chinroutou,
    _is_daisangen,
    _is_daisuushii,
    _is_honroutou,
    _is_ittsu,
    _is_pinfu,
    _is_ryuuiisou,
    _is_sanankou,
    _is_sankantsu,
    _is_sanshoku_doujun,
    _is_sanshoku_doukou,
    _is_shousangen,
    _is_shousuushii,
    _is_suukantsu,
    _is_tanyao,
    _is_toitoi,
    _is_tsuuiisou,
    _outside,
    _suuankou,
)
from engine.tiles import N_KINDS, _dora_from_indicator

W_AGARI = 0
W_READINGS = W_AGARI + AGARI_READINGS
W_FULL = W_AGARI + N_AGARI_WORK
W_BASE_YAKU = W_FULL + N_KINDS
MAX_EXTRA = 24
"""Room for the yaku one reading adds to the hand-level ones."""
W_EXTRA = W_BASE_YAKU + N_YAKU
N_WORK = W_EXTRA + 2 * MAX_EXTRA
"""Length of the ``work`` scratch vector of ``_score_hand`` (int32)."""
_HAN_CLOSED = np.array(YAKU_HAN_CLOSED, dtype=np.int32)
_HAN_OPEN = np.array(YAKU_HAN_OPEN, dtype=np.int32)
_YAKUMAN = np.array(YAKU_YAKUMAN, dtype=np.int32)
"""The yaku table's han and yakuman multipliers as arrays for the kernels: a tuple of constants
indexed by a constant compiles an accessor per index (62 of them, 2 s of a cold compile)."""


def new_work() -> np.ndarray:
    """Scratch for ``_score_hand``: allocate once, reuse for every call (not thread-shared)."""
    return np.zeros(N_WORK, dtype=np.int32)


@njit(inline="always")
def _put(work, y, menzen):
    """Record hand-level yaku ``y`` with its closed or open han (from the yaku table)."""
    work[W_BASE_YAKU + y] = _HAN_CLOSED[y] if menzen else _HAN_OPEN[y]


@njit(inline="always")
def _put_yakuman(work, y, double_on):
    """Record hand-level yakuman ``y`` with its multiplier (double ones count 1 when the rule
    is off)."""
    m = _YAKUMAN[y]
    work[W_BASE_YAKU + y] = m if double_on else 1


@njit(inline="always")
def _push(work, n, y, menzen):
    """Append yaku ``y`` (closed or open han) to a reading's extra list; returns the length."""
    work[W_EXTRA + n] = y
    work[W_EXTRA + MAX_EXTRA + n] = _HAN_CLOSED[y] if menzen else _HAN_OPEN[y]
    return n + 1


@njit(inline="always")
def _push_yakuman(work, n, y, double_on):
    """Append yakuman ``y`` with its multiplier to a reading's extra list; returns the length."""
    m = _YAKUMAN[y]
    work[W_EXTRA + n] = y
    work[W_EXTRA + MAX_EXTRA + n] = m if double_on else 1
    return n + 1


@njit
def _offer(
    work,
    base_han,
    base_yakuman,
    n_dora,
    n_extra,
    fu,
    dealer,
    tsumo,
    rules,
    out,
    yaku_out,
):
    """Total one candidate (hand-level yaku plus a reading's extra list) and keep it in
    ``out``/``yaku_out`` if it pays more than the best so far.

    Order: more points; then a yakuman over a kazoe yakuman of equal value (the hand-score
    samples); then more han; then more fu. Returns True when the candidate has a yaku.
    """
    han = base_han
    yakuman = base_yakuman
    for i in range(n_extra):
        if work[W_EXTRA + i] >= Y_FIRST_YAKUMAN:
            yakuman += work[W_EXTRA + MAX_EXTRA + i]
        else:
            han += work[W_EXTRA + MAX_EXTRA + i]
    if yakuman > 0:
        han = 13 * yakuman
    elif han == 0:
        return False
    else:
        han += n_dora
    limit, base = _limit_base(han, fu, yakuman, rules)
    if tsumo:
        gain = 3 * _ceil100(2 * base) if dealer else _ceil100(2 * base) + 2 * _ceil100(base)
    else:
        gain = _ceil100(base * (6 if dealer else 4))
    if out[RES_STATUS] == STATUS_OK:
        old = out[RES_WINNER_GAIN]
        if gain < old:
            return True
        if gain == old:
            old_yakuman = out[RES_YAKUMAN] > 0
            if old_yakuman and yakuman == 0:
                return True
            if old_yakuman == (yakuman > 0) and (
                han < out[RES_HAN] or (han == out[RES_HAN] and fu <= out[RES_FU])
            ):
                return True
    out[RES_STATUS] = STATUS_OK
    out[RES_HAN] = han
    out[RES_FU] = fu
    out[RES_YAKUMAN] = yakuman
    out[RES_LIMIT] = limit
    out[RES_BASE] = base
    out[RES_WINNER_GAIN] = gain
    for y in range(N_YAKU):
        yaku_out[y] = work[W_BASE_YAKU + y]
    for i in range(n_extra):
        yaku_out[work[W_EXTRA + i]] = work[W_EXTRA + MAX_EXTRA + i]
    if yakuman > 0:
        for y in range(Y_FIRST_YAKUMAN):
            yaku_out[y] = 0
        for y in range(Y_DORA, N_YAKU):
            yaku_out[y] = 0
    return True


def _score_hand_example(x) -> tuple:
    """``_score_hand``'s warm-up arguments, of the types ``score_hand`` and ``_score_win`` pass."""
    a = np.zeros(1, dtype=np.int32)
    closed, melds = np.zeros(34, dtype=np.uint8), np.zeros((4, 2), dtype=np.int32)
    return (closed, melds, x.i, x.i, a, a, a, a, a, a, a)


@njit(example=_score_hand_example)
def _score_hand(
    closed34, melds, n_melds, win_tile, ctx, dora_ind, ura_ind, rules, work, out, yaku_out
):
    """Score a complete hand; see docs/internals.md "Scoring" for every argument.

    Args:
        closed34: uint8[34] concealed tiles including the winning tile.
        melds: int32[4, 2] called melds (type, lowest tile34); ``n_melds`` rows are used.
        n_melds: number of called melds.
        win_tile: tile34 of the winning tile.
        ctx: int32[N_CTX] situation, indexed by ``CTX_*``.
        dora_ind: int32[5] dora indicators (``ctx[CTX_N_DORA]`` valid).
        ura_ind: int32[5] ura dora indicators (``ctx[CTX_N_URA]`` valid; count only with riichi).
        rules: int32[N_RULES] rules vector.
        work: int32[N_WORK] scratch (``new_work()``).
        out: int32[N_RES] result, indexed by ``RES_*``.
        yaku_out: int32[N_YAKU] han per yaku (yakuman: multiplier; dora rows: counts).

    Returns:
        ``out[RES_STATUS]``.
    """
    for i in range(N_RES):
        out[i] = 0
    out[RES_STATUS] = STATUS_NOT_AGARI
    for i in range(N_YAKU):
        yaku_out[i] = 0

    tsumo = ctx[CTX_TSUMO] != 0
    dealer = ctx[CTX_SEAT_WIND] == 0
    seat_tile = 27 + ctx[CTX_SEAT_WIND]
    round_tile = 27 + ctx[CTX_ROUND_WIND]
    honba = ctx[CTX_HONBA]
    double_on = rules[RULE_DOUBLE_YAKUMAN] != 0

    # typed (not constants) from the start: a constant would first type the callees below with
    # its literal value, a compile that Numba then repeats with the merged type
    menzen = np.bool_(True)
    n_kan = np.int64(0)
    n_ankan = 0
    n_meld_trip = 0
    meld_seq_mask = np.int64(0)
    meld_trip_mask = np.int64(0)
    meld_fu = 0
    tile_mask = np.int64(0)
    n_kinds = 0
    all_pairs = True
    for i in range(N_KINDS):
        c = closed34[i]
        work[W_FULL + i] = c
        if c:
            tile_mask |= ONE << i
            n_kinds += 1
            if c != 2:
                all_pairs = False
    for m in range(n_melds):
        mt = melds[m, 0]
        t = melds[m, 1]
        if mt == MELD_CHI:
            work[W_FULL + t] += 1
            work[W_FULL + t + 1] += 1
            work[W_FULL + t + 2] += 1
            meld_seq_mask |= ONE << t
            tile_mask |= (ONE << t) | (ONE << (t + 1)) | (ONE << (t + 2))
            menzen = False
            continue
        is_kan = mt == MELD_DAIMINKAN or mt == MELD_KAKAN or mt == MELD_ANKAN  # noqa: SIM109
        work[W_FULL + t] += 4 if is_kan else 3
        meld_trip_mask |= ONE << t
        tile_mask |= ONE << t
        n_meld_trip += 1
        if is_kan:
            n_kan += 1
        if mt == MELD_ANKAN:
            n_ankan += 1
            meld_fu += _set_fu(t, True, True)
        else:
            menzen = False
            meld_fu += _set_fu(t, is_kan, False)
    n_chi = n_melds - n_meld_trip

    # Yaku that do not depend on the reading.
    for y in range(N_YAKU):
        work[W_BASE_YAKU + y] = 0
    riichi = ctx[CTX_RIICHI]
    if ctx[CTX_OPEN_RIICHI]:
        _put(work, Y_OPEN_RIICHI, True)
        if riichi == 2:
            _put(work, Y_DOUBLE_RIICHI, True)
        if riichi == 0:
            riichi = 1
    elif riichi == 2:
        _put(work, Y_DOUBLE_RIICHI, True)
    elif riichi == 1:
        _put(work, Y_RIICHI, True)
    if ctx[CTX_IPPATSU]:
        _put(work, Y_IPPATSU, True)
    if tsumo and menzen:
        _put(work, Y_MENZEN_TSUMO, True)
    if ctx[CTX_CHANKAN]:
        _put(work, Y_CHANKAN, menzen)
    if ctx[CTX_RINSHAN]:
        _put(work, Y_RINSHAN, menzen)
    if ctx[CTX_HAITEI]:
        _put(work, Y_HAITEI, menzen)
    if ctx[CTX_HOUTEI]:
        _put(work, Y_HOUTEI, menzen)
    if _is_tanyao(tile_mask) and (menzen or rules[RULE_OPEN_TANYAO]):
        _put(work, Y_TANYAO, menzen)
    flush = _flush(tile_mask)
    if flush == 1:
        _put(work, Y_HONITSU, menzen)
    elif flush == 2:
        _put(work, Y_CHINITSU, menzen)
    if _is_honroutou(tile_mask):
        _put(work, Y_HONROUTOU, menzen)
    if _is_sankantsu(n_kan):
        _put(work, Y_SANKANTSU, menzen)
    if _is_suukantsu(n_kan):
        _put_yakuman(work, Y_SUUKANTSU, double_on)
    if _is_tsuuiisou(tile_mask):
        _put_yakuman(work, Y_TSUUIISOU, double_on)
    if _is_chinroutou(tile_mask):
        _put_yakuman(work, Y_CHINROUTOU, double_on)
    if _is_ryuuiisou(tile_mask):
        _put_yakuman(work, Y_RYUUIISOU, double_on)
    if ctx[CTX_TENHOU]:
        _put_yakuman(work, Y_TENHOU, double_on)
    if ctx[CTX_CHIIHOU]:
        _put_yakuman(work, Y_CHIIHOU, double_on)
    n_dora = 0
    for i in range(ctx[CTX_N_DORA]):
        n_dora += work[W_FULL + _dora_from_indicator(dora_ind[i])]
    work[W_BASE_YAKU + Y_DORA] = n_dora
    work[W_BASE_YAKU + Y_AKA_DORA] = ctx[CTX_N_AKA]
    if riichi > 0:
        n_ura = 0
        for i in range(ctx[CTX_N_URA]):
            n_ura += work[W_FULL + _dora_from_indicator(ura_ind[i])]
        work[W_BASE_YAKU + Y_URA_DORA] = n_ura

    n_read = _decompose(closed34, work)
    if n_read > 0 and n_melds == 0:
        chuuren = _chuuren(closed34, n_melds, win_tile)
        if chuuren == 2:
            _put_yakuman(work, Y_JUNSEI_CHUUREN, double_on)
        elif chuuren == 1:
            _put_yakuman(work, Y_CHUUREN, double_on)
    base_han = np.int64(0)
    for y in range(Y_FIRST_YAKUMAN):
        base_han += work[W_BASE_YAKU + y]
    base_yakuman = np.int64(0)
    for y in range(Y_FIRST_YAKUMAN, Y_DORA):
        base_yakuman += work[W_BASE_YAKU + y]
    n_dora = (
        work[W_BASE_YAKU + Y_DORA] + work[W_BASE_YAKU + Y_AKA_DORA] + work[W_BASE_YAKU + Y_URA_DORA]
    )

    agari = n_read > 0
    has_yaku = False

    # Kokushi musou: no melds and all 13 terminal/honor kinds (14 tiles, so one twice).
    if n_melds == 0 and tile_mask == YAOCHUU_MASK:
        agari = True
        y = Y_KOKUSHI_13 if closed34[win_tile] == 2 else Y_KOKUSHI
        n = _push_yakuman(work, 0, y, double_on)
        fu = np.int64(30 if tsumo else 40)
        has_yaku |= _offer(
            work, base_han, base_yakuman, n_dora, n, fu, dealer, tsumo, rules, out, yaku_out
        )

    # Chiitoitsu: no melds, seven kinds, each exactly twice.
    if n_melds == 0 and n_kinds == 7 and all_pairs:
        agari = True
        n = _push(work, 0, Y_CHIITOITSU, True)
        fu = np.int64(FU_CHIITOITSU)
        has_yaku |= _offer(
            work, base_han, base_yakuman, n_dora, n, fu, dealer, tsumo, rules, out, yaku_out
        )

    # Four sets and a pair.
    for r in range(n_read):
        row = r * READING_WIDTH
        pair = work[W_READINGS + row]
        n_sets = work[W_READINGS + row + 1]
        seq_mask = meld_seq_mask
        trip_mask = meld_trip_mask
        n_cseq = np.int64(0)
        n_ctrip = 0
        n_peikou = 0
        run = 0
        prev = -1
        trip_fu = 0
        for k in range(n_sets):
            code = work[W_READINGS + row + 2 + k]
            if code >= SET_TRIPLET:
                trip_mask |= ONE << (code - SET_TRIPLET)
                n_ctrip += 1
                trip_fu += _set_fu(code - SET_TRIPLET, False, True)
            else:
                seq_mask |= ONE << code
                n_cseq += 1
                if code == prev:
                    run += 1
                    if run == 2:
                        n_peikou += 1
                        run = 0
                else:
                    run = 1
                prev = code
        n_seq = n_cseq + n_chi
        n_trip = n_ctrip + n_meld_trip
        pair_fu = _pair_fu(pair, seat_tile, round_tile)

        # Yaku of the reading, whatever the wait.
        n_r = 0
        if menzen:
            if n_peikou == 2:
                n_r = _push(work, n_r, Y_RYANPEIKOU, True)
            elif n_peikou == 1:
                n_r = _push(work, n_r, Y_IIPEIKOU, True)
        if trip_mask >> 31 & 1:
            n_r = _push(work, n_r, Y_HAKU, menzen)
        if trip_mask >> 32 & 1:
            n_r = _push(work, n_r, Y_HATSU, menzen)
        if trip_mask >> 33 & 1:
            n_r = _push(work, n_r, Y_CHUN, menzen)
        if trip_mask >> seat_tile & 1:
            n_r = _push(work, n_r, Y_SEAT_EAST + seat_tile - 27, menzen)
        if trip_mask >> round_tile & 1:
            n_r = _push(work, n_r, Y_ROUND_EAST + round_tile - 27, menzen)
        if n_seq > 0:
            if _is_sanshoku_doujun(seq_mask):
                n_r = _push(work, n_r, Y_SANSHOKU, menzen)
            if _is_ittsu(seq_mask):
                n_r = _push(work, n_r, Y_ITTSU, menzen)
            outside = _outside(seq_mask, trip_mask, pair, n_seq)
            if outside == 1:
                n_r = _push(work, n_r, Y_CHANTA, menzen)
            elif outside == 2:
                n_r = _push(work, n_r, Y_JUNCHAN, menzen)
        if _is_toitoi(n_trip):
            n_r = _push(work, n_r, Y_TOITOI, menzen)
        if n_trip >= 3:
            if _is_sanshoku_doukou(trip_mask):
                n_r = _push(work, n_r, Y_SANSHOKU_DOUKOU, menzen)
            if _is_daisangen(trip_mask):
                n_r = _push_yakuman(work, n_r, Y_DAISANGEN, double_on)
            if _is_shousuushii(trip_mask, pair):
                n_r = _push_yakuman(work, n_r, Y_SHOUSUUSHII, double_on)
            if _is_daisuushii(trip_mask):
                n_r = _push_yakuman(work, n_r, Y_DAISUUSHII, double_on)
        if n_trip >= 2 and _is_shousangen(trip_mask, pair):
            n_r = _push(work, n_r, Y_SHOUSANGEN, menzen)

        # Every place the winning tile can sit: its wait, pinfu, concealed triplets and fu.
        for pos in range(-1, n_sets):
            if pos < 0:
                if pair != win_tile:
                    continue
                wait = WAIT_TANKI
            else:
                code = work[W_READINGS + row + 2 + pos]
                if pos > 0 and work[W_READINGS + row + 1 + pos] == code:
                    continue
                if code >= SET_TRIPLET:
                    if code - SET_TRIPLET != win_tile:
                        continue
                    wait = WAIT_SHANPON
                else:
                    if win_tile < code or win_tile > code + 2:
                        continue
                    wait = _seq_wait(code, win_tile)
            ron_triplet = (not tsumo) and wait == WAIT_SHANPON
            n_ankou = n_ctrip + n_ankan - (1 if ron_triplet else 0)
            n = n_r
            pinfu = _is_pinfu(menzen, n_cseq, pair, seat_tile, round_tile, wait == WAIT_RYANMEN)
            if pinfu:
                n = _push(work, n, Y_PINFU, True)
            if _is_sanankou(n_ankou):
                n = _push(work, n, Y_SANANKOU, menzen)
            suuankou = _suuankou(n_ankou, wait == WAIT_TANKI)
            if suuankou == 2:
                n = _push_yakuman(work, n, Y_SUUANKOU_TANKI, double_on)
            elif suuankou == 1:
                n = _push_yakuman(work, n, Y_SUUANKOU, double_on)
            raw = meld_fu + trip_fu + pair_fu + _wait_fu(wait)
            if ron_triplet:
                raw -= _set_fu(win_tile, False, True) - _set_fu(win_tile, False, False)
            fu = _round_fu(raw, menzen, tsumo, pinfu)
            has_yaku |= _offer(
                work, base_han, base_yakuman, n_dora, n, fu, dealer, tsumo, rules, out, yaku_out
            )

    if not agari:
        out[RES_STATUS] = STATUS_NOT_AGARI
        return STATUS_NOT_AGARI
    if not has_yaku:
        for i in range(N_RES):
            out[i] = 0
        for i in range(N_YAKU):
            yaku_out[i] = 0
        out[RES_STATUS] = STATUS_NO_YAKU
        return STATUS_NO_YAKU
    base = out[RES_BASE]
    if ctx[CTX_YAKUMAN_PAY] and not tsumo and base < 8000:
        base = 8000
        out[RES_LIMIT] = LIMIT_YAKUMAN
        out[RES_BASE] = base
    gain = _payments(base, dealer, tsumo, honba, out)
    out[RES_WINNER_GAIN] = gain + 1000 * ctx[CTX_KYOTAKU]
    return STATUS_OK


@njit
def _score_hands_batch(
    closed34s, melds, n_melds, win_tiles, ctxs, dora_inds, ura_inds, rules, work, out, yaku_out
):
    """``_score_hand`` over a batch: every argument but ``rules`` and ``work`` gains a leading
    batch axis (``closed34s`` uint8[B, 34], ``melds`` int32[B, 4, 2], ``n_melds`` int32[B], ...).

    Rows are copied into small buffers made once per batch: cheaper than a view per row, whose
    reference counting costs more than the copy.
    """
    closed34 = np.empty(N_KINDS, dtype=np.uint8)
    meld_rows = np.empty((4, 2), dtype=np.int32)
    ctx = np.empty(ctxs.shape[1], dtype=np.int32)
    dora_ind = np.empty(dora_inds.shape[1], dtype=np.int32)
    ura_ind = np.empty(ura_inds.shape[1], dtype=np.int32)
    res = np.empty(N_RES, dtype=np.int32)
    yaku = np.empty(N_YAKU, dtype=np.int32)
    for b in range(closed34s.shape[0]):
        for i in range(N_KINDS):
            closed34[i] = closed34s[b, i]
        for i in range(4):
            meld_rows[i, 0] = melds[b, i, 0]
            meld_rows[i, 1] = melds[b, i, 1]
        for i in range(ctx.shape[0]):
            ctx[i] = ctxs[b, i]
        for i in range(dora_ind.shape[0]):
            dora_ind[i] = dora_inds[b, i]
        for i in range(ura_ind.shape[0]):
            ura_ind[i] = ura_inds[b, i]
        _score_hand(
            closed34,
            meld_rows,
            np.int64(n_melds[b]),
            np.int64(win_tiles[b]),
            ctx,
            dora_ind,
            ura_ind,
            rules,
            work,
            res,
            yaku,
        )
        for i in range(N_RES):
            out[b, i] = res[i]
        for i in range(N_YAKU):
            yaku_out[b, i] = yaku[i]
