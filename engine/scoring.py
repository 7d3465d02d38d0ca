"""Scoring: han, fu, limits and payments of a winning hand (the ``_score_hand`` kernel).

Every reading of the hand (``engine/agari.py``) and every place the winning tile can sit in it
is scored; the one that pays most wins, then more han, then more fu (docs/rules.md "Highest
reading"; a yakuman beats a kazoe yakuman of the same value, as the hand-score samples show).
Yakuman stack and drop every other yaku and dora; 13+ han without yakuman is kazoe yakuman when
``RULE_KAZOE`` is on. Payments round up to 100 and include honba, not sticks. Open riichi is
+2 han (with double riichi +4); ``CTX_YAKUMAN_PAY`` makes a ron pay at least a yakuman.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine._numba import njit
from engine.agari import (
    AGARI_READINGS,
    N_AGARI_WORK,
    READING_WIDTH,
    SET_TRIPLET,
    _decompose,
)
from engine.fu import (
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
from engine.melds import MELD_ANKAN, MELD_CHI, MELD_DAIMINKAN, MELD_KAKAN, MELD_PON, MELD_TYPES
from engine.rules import (
    MAHJONGSOUL,
    RULE_DOUBLE_YAKUMAN,
    RULE_KAZOE,
    RULE_KIRIAGE,
    RULE_OPEN_TANYAO,
    Rules,
    as_rules,
)
from engine.tiles import FIVES, N_KINDS, _dora_from_indicator, _parse_groups, tile34_to_str
from engine.validation import (
    InputError,
    InputTypeError,
    check_bool,
    check_int,
    describe,
    is_int,
)
from engine.yaku import (
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
    YAKU_KEYS,
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

(
    CTX_TSUMO,
    CTX_SEAT_WIND,
    CTX_ROUND_WIND,
    CTX_RIICHI,
    CTX_OPEN_RIICHI,
    CTX_IPPATSU,
    CTX_RINSHAN,
    CTX_CHANKAN,
    CTX_HAITEI,
    CTX_HOUTEI,
    CTX_TENHOU,
    CTX_CHIIHOU,
    CTX_HONBA,
    CTX_KYOTAKU,
    CTX_N_AKA,
    CTX_N_DORA,
    CTX_N_URA,
    CTX_YAKUMAN_PAY,
) = range(18)
N_CTX = 18
"""Length of the ``ctx`` vector of ``_score_hand``."""

(
    RES_STATUS,
    RES_HAN,
    RES_FU,
    RES_YAKUMAN,
    RES_LIMIT,
    RES_BASE,
    RES_PAY_RON,
    RES_PAY_DEALER,
    RES_PAY_NONDEALER,
    RES_WINNER_GAIN,
) = range(10)
N_RES = 10
"""Length of the ``out`` vector of ``_score_hand``."""

STATUS_OK = 0
STATUS_NOT_AGARI = 1
STATUS_NO_YAKU = 2

(
    LIMIT_NONE,
    LIMIT_MANGAN,
    LIMIT_HANEMAN,
    LIMIT_BAIMAN,
    LIMIT_SANBAIMAN,
    LIMIT_KAZOE,
    LIMIT_YAKUMAN,
) = range(7)
LIMIT_NAMES = ("", "mangan", "haneman", "baiman", "sanbaiman", "kazoe yakuman", "yakuman")

MAX_INDICATORS = 5
"""Dora (and ura) indicators: one at the start plus one per kan."""
MAX_COUNTER = 1000
"""Largest honba / kyotaku accepted by ``score_hand`` (keeps int32 payments exact)."""

W_AGARI = 0
W_READINGS = W_AGARI + AGARI_READINGS
W_FULL = W_AGARI + N_AGARI_WORK
W_BASE_YAKU = W_FULL + N_KINDS
MAX_EXTRA = 24
"""Room for the yaku one reading adds to the hand-level ones."""
W_EXTRA = W_BASE_YAKU + N_YAKU
N_WORK = W_EXTRA + 2 * MAX_EXTRA
"""Length of the ``work`` scratch vector of ``_score_hand`` (int32)."""


def new_work() -> np.ndarray:
    """Scratch for ``_score_hand``: allocate once, reuse for every call (not thread-shared)."""
    return np.zeros(N_WORK, dtype=np.int32)


@njit
def _put(work, y, menzen):
    """Record hand-level yaku ``y`` with its closed or open han (from the yaku table)."""
    work[W_BASE_YAKU + y] = YAKU_HAN_CLOSED[y] if menzen else YAKU_HAN_OPEN[y]


@njit
def _put_yakuman(work, y, double_on):
    """Record hand-level yakuman ``y`` with its multiplier (double ones count 1 when the rule
    is off)."""
    m = YAKU_YAKUMAN[y]
    work[W_BASE_YAKU + y] = m if double_on else 1


@njit
def _push(work, n, y, menzen):
    """Append yaku ``y`` (closed or open han) to a reading's extra list; returns the length."""
    work[W_EXTRA + n] = y
    work[W_EXTRA + MAX_EXTRA + n] = YAKU_HAN_CLOSED[y] if menzen else YAKU_HAN_OPEN[y]
    return n + 1


@njit
def _push_yakuman(work, n, y, double_on):
    """Append yakuman ``y`` with its multiplier to a reading's extra list; returns the length."""
    m = YAKU_YAKUMAN[y]
    work[W_EXTRA + n] = y
    work[W_EXTRA + MAX_EXTRA + n] = m if double_on else 1
    return n + 1


@njit
def _limit_base(han, fu, yakuman, rules):
    """(limit, base points) from han, fu and the yakuman multiplier."""
    if yakuman > 0:
        return LIMIT_YAKUMAN, 8000 * yakuman
    if han >= 13 and rules[RULE_KAZOE]:
        return LIMIT_KAZOE, 8000
    if han >= 11:
        return LIMIT_SANBAIMAN, 6000
    if han >= 8:
        return LIMIT_BAIMAN, 4000
    if han >= 6:
        return LIMIT_HANEMAN, 3000
    if han >= 5:
        return LIMIT_MANGAN, 2000
    base = fu << (2 + han)
    if base >= 2000:
        return LIMIT_MANGAN, 2000
    if rules[RULE_KIRIAGE] and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
        return LIMIT_MANGAN, 2000
    return LIMIT_NONE, base


@njit
def _ceil100(x):
    return (x + 99) // 100 * 100


@njit
def _payments(base, dealer, tsumo, honba, out):
    """Write ron / tsumo shares (honba included) to ``out``; returns the total paid."""
    if tsumo:
        out[RES_PAY_RON] = 0
        if dealer:
            each = _ceil100(2 * base) + 100 * honba
            out[RES_PAY_DEALER] = 0
            out[RES_PAY_NONDEALER] = each
            return 3 * each
        d = _ceil100(2 * base) + 100 * honba
        nd = _ceil100(base) + 100 * honba
        out[RES_PAY_DEALER] = d
        out[RES_PAY_NONDEALER] = nd
        return d + 2 * nd
    ron = _ceil100(base * (6 if dealer else 4)) + 300 * honba
    out[RES_PAY_RON] = ron
    out[RES_PAY_DEALER] = 0
    out[RES_PAY_NONDEALER] = 0
    return ron


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


@njit
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

    menzen = True
    n_kan = 0
    n_ankan = 0
    n_meld_trip = 0
    meld_seq_mask = 0
    meld_trip_mask = 0
    meld_fu = 0
    tile_mask = 0
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
    base_han = 0
    for y in range(Y_FIRST_YAKUMAN):
        base_han += work[W_BASE_YAKU + y]
    base_yakuman = 0
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
        fu = 30 if tsumo else 40
        has_yaku |= _offer(
            work,
            base_han,
            base_yakuman,
            n_dora,
            n,
            fu,
            dealer,
            tsumo,
            rules,
            out,
            yaku_out,
        )

    # Chiitoitsu: no melds, seven kinds, each exactly twice.
    if n_melds == 0 and n_kinds == 7 and all_pairs:
        agari = True
        n = _push(work, 0, Y_CHIITOITSU, True)
        has_yaku |= _offer(
            work,
            base_han,
            base_yakuman,
            n_dora,
            n,
            FU_CHIITOITSU,
            dealer,
            tsumo,
            rules,
            out,
            yaku_out,
        )

    # Four sets and a pair.
    for r in range(n_read):
        row = r * READING_WIDTH
        pair = work[W_READINGS + row]
        n_sets = work[W_READINGS + row + 1]
        seq_mask = meld_seq_mask
        trip_mask = meld_trip_mask
        n_cseq = 0
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
                work,
                base_han,
                base_yakuman,
                n_dora,
                n,
                fu,
                dealer,
                tsumo,
                rules,
                out,
                yaku_out,
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
            n_melds[b],
            win_tiles[b],
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


# ---------------------------------------------------------------------------------------------
# Public API

WINDS = "ESWN"
SITUATIONAL_FLAGS = (
    "riichi",
    "double_riichi",
    "open_riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "tenhou",
    "chiihou",
)
"""The hand-score format's boolean situational fields, all default false."""
_BOOL_FLAGS = (*SITUATIONAL_FLAGS, "yakuman_pay")


@dataclass(frozen=True)
class HandResult:
    """The score of one hand, field for field the hand-score format's result object.

    Attributes:
        valid: True for a scoring win.
        han: Total han, dora included; 13 x the yakuman multiplier for yakuman hands.
        fu: Rounded fu (25 for chiitoitsu); meaningless for yakuman hands.
        yaku: ``{"key", "han"}`` dicts in table order (yakuman entries add ``"yakuman": n`` and
            carry ``"han": 13 * n``); ``dora``, ``aka_dora``, ``ura_dora`` appear when non-zero.
        yakuman_multiplier: 0, or the sum of the yakuman (double ones count 2).
        limit: ``""``, ``"mangan"`` ... ``"sanbaiman"``, ``"kazoe yakuman"``, ``"yakuman"``,
            ``"2x yakuman"`` ...
        payments: ``{"ron": X}``, ``{"tsumo_all": X}`` (dealer tsumo) or
            ``{"tsumo_dealer": X, "tsumo_nondealer": Y}``; honba included, sticks excluded.
        winner_gain: Payments plus 1000 x kyotaku.
        error: ``""`` when valid, else ``"no_yaku"`` or ``"not_agari"``.
    """

    valid: bool
    han: int = 0
    fu: int = 0
    yaku: tuple = ()
    yakuman_multiplier: int = 0
    limit: str = ""
    payments: Mapping[str, int] = field(default_factory=dict)
    winner_gain: int = 0
    error: str = ""

    def to_dict(self) -> dict:
        """The hand-score format's result object."""
        if not self.valid:
            return {"valid": False, "error": self.error}
        return {
            "valid": True,
            "han": self.han,
            "fu": self.fu,
            "yaku": [dict(y) for y in self.yaku],
            "yakuman_multiplier": self.yakuman_multiplier,
            "limit": self.limit,
            "payments": dict(self.payments),
            "winner_gain": self.winner_gain,
        }


def _rules_array(rules: Rules | str) -> tuple[Rules, np.ndarray]:
    rules = as_rules(rules)
    return rules, rules.to_array()


def _tiles(name: str, text) -> list[tuple[int, bool]]:
    """(tile34, is_red) of an mpsz string argument."""
    if not isinstance(text, str):
        raise InputTypeError(name, f"must be an mpsz string, got {describe(text)}")
    if not text.strip():
        raise InputError(name, "is empty")
    try:
        return _parse_groups(text)
    except (ValueError, TypeError) as exc:
        raise InputError(name, str(exc)) from None


def _one_tile(name: str, text) -> tuple[int, bool]:
    tiles = _tiles(name, text)
    if len(tiles) != 1:
        raise InputError(name, f"must be exactly one tile, got {text!r}")
    return tiles[0]


def _tile_text(tile: tuple[int, bool]) -> str:
    t, red = tile
    return f"0{'mps'[t // 9]}" if red else tile34_to_str(t)


def _parse_wind(name: str, wind) -> int:
    if isinstance(wind, str) and wind in WINDS and len(wind) == 1:
        return WINDS.index(wind)
    if is_int(wind) and 0 <= wind <= 3:
        return int(wind)
    raise InputError(name, f"must be one of E, S, W, N (or 0-3), got {describe(wind)}")


def _parse_melds(melds) -> list[tuple[int, int, str, str, list[tuple[int, bool]]]]:
    """(meld type, lowest kind, type name, tiles text, parsed tiles) of each meld."""
    if isinstance(melds, (str, bytes, Mapping)) or not isinstance(melds, Iterable):
        raise InputTypeError("melds", f"must be a list of melds, got {describe(melds)}")
    melds = list(melds)
    if len(melds) > 4:
        raise InputError("melds", f"has {len(melds)} melds, at most 4")
    parsed = []
    for i, meld in enumerate(melds):
        name = f"melds[{i}]"
        if isinstance(meld, Mapping):
            if "type" not in meld:
                raise InputError(f"{name}.type", "is required")
            if "tiles" not in meld:
                raise InputError(f"{name}.tiles", "is required")
            kind, text = meld["type"], meld["tiles"]
        elif isinstance(meld, Sequence) and not isinstance(meld, str) and len(meld) == 2:
            kind, text = meld
        else:
            raise InputTypeError(
                name, f"must be (type, tiles) or {{'type', 'tiles'}}, got {describe(meld)}"
            )
        if not isinstance(kind, str) or kind not in MELD_TYPES:
            raise InputError(
                f"{name}.type", f"must be one of {', '.join(MELD_TYPES)}, got {describe(kind)}"
            )
        mt = MELD_TYPES[kind]
        tiles = _tiles(f"{name}.tiles", text)
        kinds = sorted(t for t, _ in tiles)
        if mt == MELD_CHI:
            ok = (
                len(kinds) == 3
                and kinds[0] < 27
                and kinds[0] // 9 == kinds[2] // 9
                and kinds[1] == kinds[0] + 1
                and kinds[2] == kinds[0] + 2
            )
            what = "three consecutive tiles of one suit"
        elif mt == MELD_PON:
            ok = len(kinds) == 3 and kinds[0] == kinds[2]
            what = "three identical tiles"
        else:
            ok = len(kinds) == 4 and kinds[0] == kinds[3]
            what = "four identical tiles"
        if not ok:
            raise InputError(f"{name}.tiles", f"{text!r} is not a {kind}: needs {what}")
        parsed.append((mt, kinds[0], kind, text, tiles))
    return parsed


def _check_count(name: str, value) -> int:
    if not is_int(value):
        raise InputTypeError(name, f"must be a whole number, got {describe(value)}")
    if not 0 <= value <= MAX_COUNTER:
        raise InputError(name, f"must be 0-{MAX_COUNTER}, got {value}")
    return int(value)


def _indicators(name: str, values) -> list[tuple[int, bool]]:
    if isinstance(values, str):
        out = _tiles(name, values) if values.strip() else []
    elif isinstance(values, (bytes, Mapping)) or not isinstance(values, Iterable):
        raise InputTypeError(name, f"must be a list of tiles, got {describe(values)}")
    else:
        out = [_one_tile(f"{name}[{i}]", v) for i, v in enumerate(values)]
    if len(out) > MAX_INDICATORS:
        raise InputError(name, f"has {len(out)} indicators, at most {MAX_INDICATORS}")
    return out


def _check_physical(closed, melds, dora, ura, rules: Rules) -> None:
    """At most four of a kind and no more red (or plain) fives than the ruleset has, the dora
    indicators included: the hand, the melds and the indicators are all tiles of one set."""
    counts = [0] * N_KINDS
    reds = [0, 0, 0]
    plain = [0, 0, 0]
    sources = [("closed", closed)] + [(f"melds[{i}].tiles", m[4]) for i, m in enumerate(melds)]
    sources += [("dora_indicators", dora), ("ura_dora_indicators", ura)]
    for name, tiles in sources:
        for t, red in tiles:
            counts[t] += 1
            if counts[t] > 4:
                raise InputError(
                    name, f"makes a fifth copy of {tile34_to_str(t)} (hand, melds and indicators)"
                )
            if t not in FIVES:
                continue
            suit = t // 9
            n_red = rules.red_fives[suit]
            if red:
                reds[suit] += 1
                if reds[suit] > n_red:
                    raise InputError(
                        name,
                        f"has red 0{'mps'[suit]} number {reds[suit]}; ruleset {rules.name} has "
                        f"{n_red}",
                    )
            else:
                plain[suit] += 1
                if plain[suit] > 4 - n_red:
                    raise InputError(
                        name,
                        f"has plain {tile34_to_str(t)} number {plain[suit]}, but ruleset "
                        f"{rules.name} makes {n_red} of the four red; write it as 0{'mps'[suit]}",
                    )


def _check_situation(flags, melds, tsumo: bool, dealer: bool, kyotaku, rules: Rules) -> int:
    """Situational yaku that cannot happen together (docs/rules.md, Mahjong Soul rules); the kyotaku to use."""
    open_meld = next((kind for mt, _, kind, _, _ in melds if mt != MELD_ANKAN), None)
    has_kan = any(mt in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN) for mt, *_ in melds)
    riichi = flags["riichi"] or flags["double_riichi"] or flags["open_riichi"]
    for f in ("riichi", "double_riichi", "open_riichi"):
        if flags[f] and open_meld:
            raise InputError(f, f"needs a closed hand, but melds has a {open_meld}")
    if flags["open_riichi"] and not rules.open_riichi:
        raise InputError("open_riichi", f"is not played in ruleset {rules.name}")
    if kyotaku is None:
        kyotaku = 1 if riichi else 0
    elif riichi and kyotaku < 1:
        raise InputError(
            "kyotaku",
            f"must be >= 1 with riichi (the winner's own stick is on the table), got {kyotaku}; "
            "leave it out for the default 1",
        )
    if flags["ippatsu"] and not riichi:
        raise InputError("ippatsu", "needs riichi")
    if flags["ippatsu"] and flags["rinshan"]:
        raise InputError("ippatsu", "is broken by the kan that rinshan follows")
    if flags["rinshan"] and not (tsumo and has_kan):
        raise InputError("rinshan", "needs win_type tsumo and a kan in melds")
    if flags["chankan"] and tsumo:
        raise InputError("chankan", "needs win_type ron")
    if flags["haitei"] and (not tsumo or flags["rinshan"]):
        raise InputError("haitei", "needs win_type tsumo on the last live-wall tile (not rinshan)")
    if flags["houtei"] and (tsumo or flags["chankan"]):
        raise InputError("houtei", "needs win_type ron on the last discard (not chankan)")
    for f, need_dealer in (("tenhou", True), ("chiihou", False)):
        if not flags[f]:
            continue
        if dealer != need_dealer:
            raise InputError(
                f, "needs seat_wind E" if need_dealer else "needs a seat_wind other than E"
            )
        if not tsumo:
            raise InputError(f, "needs win_type tsumo")
        if melds:
            raise InputError(f, "is broken by any call, a closed kan included (melds not empty)")
        if riichi:
            raise InputError(f, "cannot follow a riichi")
    if flags["yakuman_pay"] and (tsumo or not flags["open_riichi"]):
        raise InputError(
            "yakuman_pay", "only a ron (by a player not in riichi) into the winner's open riichi"
        )
    return kyotaku


def _parse_input(
    closed,
    win_tile,
    melds,
    win_type,
    seat_wind,
    round_wind,
    flags: dict,
    dora_indicators,
    ura_dora_indicators,
    honba,
    kyotaku,
    rules,
) -> dict:
    """Every check of ``score_hand``'s arguments, in the order the hand-score format names them;
    the parsed pieces as a dict."""
    if not isinstance(rules, (str, Rules)):
        raise InputTypeError(
            "rules", f"must be a preset name or an engine.rules.Rules, got {describe(rules)}"
        )
    try:
        rules_obj = as_rules(rules)
    except ValueError as exc:
        raise InputError("rules", str(exc)) from None
    closed_tiles = _tiles("closed", closed)
    win = _one_tile("win_tile", win_tile)
    meld_list = _parse_melds(melds)
    if win_type not in ("ron", "tsumo") or not isinstance(win_type, str):
        raise InputError("win_type", f"must be 'ron' or 'tsumo', got {describe(win_type)}")
    tsumo = win_type == "tsumo"
    seat = _parse_wind("seat_wind", seat_wind)
    round_ = _parse_wind("round_wind", round_wind)
    for name in _BOOL_FLAGS:
        if not isinstance(flags[name], (bool, np.bool_)):
            raise InputTypeError(name, f"must be True or False, got {describe(flags[name])}")
        flags[name] = bool(flags[name])
    dora = _indicators("dora_indicators", dora_indicators)
    ura = _indicators("ura_dora_indicators", ura_dora_indicators)
    honba = _check_count("honba", honba)
    if kyotaku is not None:
        kyotaku = _check_count("kyotaku", kyotaku)
    want = 14 - 3 * len(meld_list)
    if len(closed_tiles) != want:
        raise InputError(
            "closed",
            f"{len(closed_tiles)} tiles; with {len(meld_list)} meld(s) it must have {want} "
            "(the winning tile included)",
        )
    if win not in closed_tiles:
        raise InputError("win_tile", f"{_tile_text(win)} is not among the closed tiles {closed!r}")
    _check_physical(closed_tiles, meld_list, dora, ura, rules_obj)
    kyotaku = _check_situation(flags, meld_list, tsumo, seat == 0, kyotaku, rules_obj)
    return {
        "rules": rules_obj,
        "closed": closed_tiles,
        "win": win,
        "melds": meld_list,
        "tsumo": tsumo,
        "seat": seat,
        "round": round_,
        "flags": flags,
        "dora": dora,
        "ura": ura,
        "honba": honba,
        "kyotaku": kyotaku,
    }


def check_hand_input(
    closed: str,
    win_tile: str,
    *,
    melds=(),
    win_type: str = "ron",
    seat_wind: str | int = "E",
    round_wind: str | int = "E",
    riichi: bool = False,
    double_riichi: bool = False,
    open_riichi: bool = False,
    ippatsu: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    haitei: bool = False,
    houtei: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    dora_indicators=(),
    ura_dora_indicators=(),
    honba: int = 0,
    kyotaku: int | None = None,
    rules: Rules | str = MAHJONGSOUL,
    yakuman_pay: bool = False,
) -> dict:
    """Check ``score_hand``'s arguments without scoring; the same arguments, normalized.

    The one validation path of hand scoring: ``score_hand``, the hand-score JSON reader and the
    ``riichi-env score`` command all go through it. The result has the same keys as
    ``score_hand``'s parameters: ``riichi`` is True when any riichi flag is, ``kyotaku`` is
    resolved (1 with riichi when not given), ``melds`` are ``(type, tiles)`` pairs, indicators are
    tuples of one-tile strings and ``rules`` is a ``Rules``.

    Raises:
        engine.validation.InputError: a ``ValueError`` (``InputTypeError``, also a ``TypeError``,
            for a value of the wrong type) whose ``field`` names the argument; the message starts
            with it.
    """
    flags = dict(
        riichi=riichi,
        double_riichi=double_riichi,
        open_riichi=open_riichi,
        ippatsu=ippatsu,
        rinshan=rinshan,
        chankan=chankan,
        haitei=haitei,
        houtei=houtei,
        tenhou=tenhou,
        chiihou=chiihou,
        yakuman_pay=yakuman_pay,
    )
    p = _parse_input(
        closed,
        win_tile,
        melds,
        win_type,
        seat_wind,
        round_wind,
        flags,
        dora_indicators,
        ura_dora_indicators,
        honba,
        kyotaku,
        rules,
    )
    flags = p["flags"]
    return {
        "closed": closed,
        "win_tile": win_tile,
        "melds": tuple((kind, text) for _, _, kind, text, _ in p["melds"]),
        "win_type": "tsumo" if p["tsumo"] else "ron",
        "seat_wind": WINDS[p["seat"]],
        "round_wind": WINDS[p["round"]],
        **{name: flags[name] for name in SITUATIONAL_FLAGS},
        "riichi": flags["riichi"] or flags["double_riichi"] or flags["open_riichi"],
        "dora_indicators": tuple(_tile_text(t) for t in p["dora"]),
        "ura_dora_indicators": tuple(_tile_text(t) for t in p["ura"]),
        "honba": p["honba"],
        "kyotaku": p["kyotaku"],
        "rules": p["rules"],
        "yakuman_pay": flags["yakuman_pay"],
    }


def score_hand(
    closed: str,
    win_tile: str,
    *,
    melds=(),
    win_type: str = "ron",
    seat_wind: str | int = "E",
    round_wind: str | int = "E",
    riichi: bool = False,
    double_riichi: bool = False,
    open_riichi: bool = False,
    ippatsu: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    haitei: bool = False,
    houtei: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    dora_indicators=(),
    ura_dora_indicators=(),
    honba: int = 0,
    kyotaku: int | None = None,
    rules: Rules | str = MAHJONGSOUL,
    yakuman_pay: bool = False,
) -> HandResult:
    """Score a winning hand (hand-score format semantics).

    Args:
        closed: Concealed tiles including the winning tile, mpsz (``0`` = red five).
        win_tile: The winning tile (one of ``closed``).
        melds: Called melds as ``(type, mpsz)`` pairs or ``{"type", "tiles"}`` dicts; types
            ``chi``, ``pon``, ``daiminkan``, ``kakan``, ``ankan``.
        win_type: ``"ron"`` or ``"tsumo"``.
        seat_wind: ``E S W N`` (or 0-3); the winner is the dealer when it is ``E``.
        round_wind: ``E S W N`` (or 0-3).
        riichi, double_riichi, open_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou,
            chiihou: Situational yaku (double and open riichi imply riichi).
        dora_indicators, ura_dora_indicators: Indicator tiles (lists of tiles or one mpsz
            string); ura counts only with riichi. They are tiles of the same set as the hand:
            a fifth copy of a kind, or a red five the ruleset lacks, is refused.
        honba: Repeat counters (+300 a ron, +100 per payer a tsumo).
        kyotaku: Riichi sticks on the table, the winner's own included, added to
            ``winner_gain``. ``None`` (not given): 1 with riichi, else 0; 0 with riichi is
            refused.
        rules: A ``Rules`` object or preset name.
        yakuman_pay: The winner is in open riichi and the discarder was not in riichi: the ron
            pays at least a yakuman (needs ``open_riichi`` and ``win_type="ron"``).

    Returns:
        A ``HandResult`` (``valid=False`` with ``error`` ``"not_agari"`` or ``"no_yaku"``).

    Raises:
        ValueError, TypeError: malformed input (``engine.validation.InputError``); the message
            starts with the field's name. The checks are ``check_hand_input``'s.
    """
    flags = dict(
        riichi=riichi,
        double_riichi=double_riichi,
        open_riichi=open_riichi,
        ippatsu=ippatsu,
        rinshan=rinshan,
        chankan=chankan,
        haitei=haitei,
        houtei=houtei,
        tenhou=tenhou,
        chiihou=chiihou,
        yakuman_pay=yakuman_pay,
    )
    p = _parse_input(
        closed,
        win_tile,
        melds,
        win_type,
        seat_wind,
        round_wind,
        flags,
        dora_indicators,
        ura_dora_indicators,
        honba,
        kyotaku,
        rules,
    )
    rules_arr = p["rules"].to_array()
    flags = p["flags"]
    meld_list = p["melds"]
    tsumo = p["tsumo"]
    win = p["win"][0]
    honba = p["honba"]
    kyotaku = p["kyotaku"]
    dora = [t for t, _ in p["dora"]]
    ura = [t for t, _ in p["ura"]]
    seat, round_ = p["seat"], p["round"]
    any_riichi = flags["riichi"] or flags["double_riichi"] or flags["open_riichi"]
    closed34 = np.zeros(N_KINDS, dtype=np.uint8)
    red = [0, 0, 0]
    for t, is_red in p["closed"]:
        closed34[t] += 1
        if is_red:
            red[t // 9] += 1
    melds_arr = np.zeros((4, 2), dtype=np.int32)
    for i, (mt, low, _, _, tiles) in enumerate(meld_list):
        melds_arr[i] = mt, low
        for t, is_red in tiles:
            if is_red:
                red[t // 9] += 1

    ctx = np.zeros(N_CTX, dtype=np.int32)
    ctx[CTX_TSUMO] = tsumo
    ctx[CTX_SEAT_WIND] = seat
    ctx[CTX_ROUND_WIND] = round_
    ctx[CTX_RIICHI] = 2 if flags["double_riichi"] else (1 if any_riichi else 0)
    ctx[CTX_OPEN_RIICHI] = flags["open_riichi"]
    ctx[CTX_IPPATSU] = flags["ippatsu"]
    ctx[CTX_RINSHAN] = flags["rinshan"]
    ctx[CTX_CHANKAN] = flags["chankan"]
    ctx[CTX_HAITEI] = flags["haitei"]
    ctx[CTX_HOUTEI] = flags["houtei"]
    ctx[CTX_TENHOU] = flags["tenhou"]
    ctx[CTX_CHIIHOU] = flags["chiihou"]
    ctx[CTX_HONBA] = honba
    ctx[CTX_KYOTAKU] = kyotaku
    ctx[CTX_N_AKA] = sum(red)
    ctx[CTX_N_DORA] = len(dora)
    ctx[CTX_N_URA] = len(ura)
    ctx[CTX_YAKUMAN_PAY] = flags["yakuman_pay"]
    dora_arr = np.zeros(MAX_INDICATORS, dtype=np.int32)
    dora_arr[: len(dora)] = dora
    ura_arr = np.zeros(MAX_INDICATORS, dtype=np.int32)
    ura_arr[: len(ura)] = ura
    out = np.zeros(N_RES, dtype=np.int32)
    yaku_out = np.zeros(N_YAKU, dtype=np.int32)
    _score_hand(
        closed34,
        melds_arr,
        len(meld_list),
        win,
        ctx,
        dora_arr,
        ura_arr,
        rules_arr,
        new_work(),
        out,
        yaku_out,
    )
    return result_from_arrays(out, yaku_out)


def _limit_name(limit_id: int, yakuman: int) -> str:
    return (
        f"{yakuman}x yakuman"
        if limit_id == LIMIT_YAKUMAN and yakuman > 1
        else LIMIT_NAMES[limit_id]
    )


def _payments_dict(out: np.ndarray) -> dict[str, int]:
    """The format's ``payments`` object from a kernel's ``out`` vector."""
    if out[RES_PAY_RON]:
        return {"ron": int(out[RES_PAY_RON])}
    if out[RES_PAY_DEALER]:
        return {
            "tsumo_dealer": int(out[RES_PAY_DEALER]),
            "tsumo_nondealer": int(out[RES_PAY_NONDEALER]),
        }
    return {"tsumo_all": int(out[RES_PAY_NONDEALER])}


def payment(
    han: int,
    fu: int,
    *,
    dealer: bool,
    tsumo: bool,
    honba: int = 0,
    yakuman: int = 0,
    rules: Rules | str = MAHJONGSOUL,
) -> dict:
    """What a win of ``han``/``fu`` pays (the scoring reference tables), honba included, sticks excluded.

    Returns ``{"limit", "base", "payments", "total"}``; ``payments`` as in the hand-score format.
    ``yakuman`` > 0 is a yakuman of that multiplier (han and fu are then ignored).
    """
    checks = [("honba", honba, 0, 1000), ("yakuman", yakuman, 0, 6)]
    if not yakuman:
        checks += [("han", han, 1, 1000), ("fu", fu, 20, 1000)]
    for name, value, low, high in checks:
        check_int(name, value, low, high)
    dealer = check_bool("dealer", dealer)
    tsumo = check_bool("tsumo", tsumo)
    if not yakuman and fu != 25 and fu % 10:
        raise ValueError(f"fu must be 25 or a multiple of 10, got {fu}")
    _, rules_array = _rules_array(rules)
    limit_id, base = _limit_base(int(han), int(fu), int(yakuman), rules_array)
    out = np.zeros(N_RES, dtype=np.int32)
    total = _payments(base, bool(dealer), bool(tsumo), int(honba), out)
    return {
        "limit": _limit_name(int(limit_id), int(yakuman)),
        "base": int(base),
        "payments": _payments_dict(out),
        "total": int(total),
    }


def result_from_arrays(out: np.ndarray, yaku_out: np.ndarray) -> HandResult:
    """A ``HandResult`` from a kernel's ``out`` and ``yaku_out`` vectors."""
    status = int(out[RES_STATUS])
    if status == STATUS_NOT_AGARI:
        return HandResult(valid=False, error="not_agari")
    if status == STATUS_NO_YAKU:
        return HandResult(valid=False, error="no_yaku")
    yaku = []
    for y in range(N_YAKU):
        v = int(yaku_out[y])
        if v == 0:
            continue
        if YAKU_YAKUMAN[y]:
            yaku.append({"key": YAKU_KEYS[y], "han": 13 * v, "yakuman": v})
        else:
            yaku.append({"key": YAKU_KEYS[y], "han": v})
    mult = int(out[RES_YAKUMAN])
    limit = _limit_name(int(out[RES_LIMIT]), mult)
    payments = _payments_dict(out)
    return HandResult(
        valid=True,
        han=int(out[RES_HAN]),
        fu=int(out[RES_FU]),
        yaku=tuple(yaku),
        yakuman_multiplier=mult,
        limit=limit,
        payments=payments,
        winner_gain=int(out[RES_WINNER_GAIN]),
    )
