"""Yaku: the one table (id, key, han closed, han open, yakuman multiplier) and a predicate each.

The table order is the order in which yaku are listed in a result (the hand-score format's
sample order). ``han open = 0`` means the yaku needs a closed hand. Yakuman rows have han 13 and
a multiplier of 1 or 2 (2 = a double yakuman, counted once when ``RULE_DOUBLE_YAKUMAN`` is off).
``dora``, ``aka_dora`` and ``ura_dora`` are bonus rows: they count tiles and are never a yaku.

Predicates work on bitmasks over the 34 kinds (bit ``t`` = kind ``t``), which the scoring kernel
builds once per reading: ``tile_mask`` (kinds in the whole hand), ``seq_mask`` (lowest tiles of
sequences), ``trip_mask`` (kinds of triplets and kans), ``pair`` (tile34 of the pair).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit

YAKU_TABLE = (
    # key, han closed, han open (0 = closed only), yakuman multiplier
    ("menzen_tsumo", 1, 0, 0),
    ("riichi", 1, 0, 0),
    ("open_riichi", 2, 0, 0),
    ("ippatsu", 1, 0, 0),
    ("chankan", 1, 1, 0),
    ("rinshan_kaihou", 1, 1, 0),
    ("haitei_raoyue", 1, 1, 0),
    ("houtei_raoyui", 1, 1, 0),
    ("double_riichi", 2, 0, 0),
    ("pinfu", 1, 0, 0),
    ("tanyao", 1, 1, 0),
    ("iipeikou", 1, 0, 0),
    ("yakuhai_haku", 1, 1, 0),
    ("yakuhai_hatsu", 1, 1, 0),
    ("yakuhai_chun", 1, 1, 0),
    ("seat_wind_east", 1, 1, 0),
    ("seat_wind_south", 1, 1, 0),
    ("seat_wind_west", 1, 1, 0),
    ("seat_wind_north", 1, 1, 0),
    ("round_wind_east", 1, 1, 0),
    ("round_wind_south", 1, 1, 0),
    ("round_wind_west", 1, 1, 0),
    ("round_wind_north", 1, 1, 0),
    ("sanshoku_doujun", 2, 1, 0),
    ("ittsu", 2, 1, 0),
    ("chanta", 2, 1, 0),
    ("honroutou", 2, 2, 0),
    ("toitoi", 2, 2, 0),
    ("sanankou", 2, 2, 0),
    ("sankantsu", 2, 2, 0),
    ("sanshoku_doukou", 2, 2, 0),
    ("chiitoitsu", 2, 0, 0),
    ("shousangen", 2, 2, 0),
    ("honitsu", 3, 2, 0),
    ("junchan", 3, 2, 0),
    ("ryanpeikou", 3, 0, 0),
    ("chinitsu", 6, 5, 0),
    ("kokushi_musou", 13, 0, 1),
    ("chuuren_poutou", 13, 0, 1),
    ("suuankou", 13, 0, 1),
    ("daisangen", 13, 13, 1),
    ("shousuushii", 13, 13, 1),
    ("ryuuiisou", 13, 13, 1),
    ("suukantsu", 13, 13, 1),
    ("tsuuiisou", 13, 13, 1),
    ("chinroutou", 13, 13, 1),
    ("daisuushii", 13, 13, 2),
    ("kokushi_musou_13_sided", 13, 0, 2),
    ("suuankou_tanki", 13, 0, 2),
    ("junsei_chuuren_poutou", 13, 0, 2),
    ("tenhou", 13, 0, 1),
    ("chiihou", 13, 0, 1),
    ("dora", 1, 1, 0),
    ("aka_dora", 1, 1, 0),
    ("ura_dora", 1, 1, 0),
)
N_YAKU = len(YAKU_TABLE)
YAKU_KEYS = tuple(row[0] for row in YAKU_TABLE)
YAKU_ID = {key: i for i, key in enumerate(YAKU_KEYS)}
YAKU_HAN_CLOSED = tuple(row[1] for row in YAKU_TABLE)
YAKU_HAN_OPEN = tuple(row[2] for row in YAKU_TABLE)
YAKU_YAKUMAN = tuple(row[3] for row in YAKU_TABLE)

(
    Y_MENZEN_TSUMO,
    Y_RIICHI,
    Y_OPEN_RIICHI,
    Y_IPPATSU,
    Y_CHANKAN,
    Y_RINSHAN,
    Y_HAITEI,
    Y_HOUTEI,
    Y_DOUBLE_RIICHI,
    Y_PINFU,
    Y_TANYAO,
    Y_IIPEIKOU,
    Y_HAKU,
    Y_HATSU,
    Y_CHUN,
    Y_SEAT_EAST,
    Y_SEAT_SOUTH,
    Y_SEAT_WEST,
    Y_SEAT_NORTH,
    Y_ROUND_EAST,
    Y_ROUND_SOUTH,
    Y_ROUND_WEST,
    Y_ROUND_NORTH,
    Y_SANSHOKU,
    Y_ITTSU,
    Y_CHANTA,
    Y_HONROUTOU,
    Y_TOITOI,
    Y_SANANKOU,
    Y_SANKANTSU,
    Y_SANSHOKU_DOUKOU,
    Y_CHIITOITSU,
    Y_SHOUSANGEN,
    Y_HONITSU,
    Y_JUNCHAN,
    Y_RYANPEIKOU,
    Y_CHINITSU,
    Y_KOKUSHI,
    Y_CHUUREN,
    Y_SUUANKOU,
    Y_DAISANGEN,
    Y_SHOUSUUSHII,
    Y_RYUUIISOU,
    Y_SUUKANTSU,
    Y_TSUUIISOU,
    Y_CHINROUTOU,
    Y_DAISUUSHII,
    Y_KOKUSHI_13,
    Y_SUUANKOU_TANKI,
    Y_JUNSEI_CHUUREN,
    Y_TENHOU,
    Y_CHIIHOU,
    Y_DORA,
    Y_AKA_DORA,
    Y_URA_DORA,
) = range(N_YAKU)
Y_FIRST_YAKUMAN = Y_KOKUSHI
"""Rows ``Y_FIRST_YAKUMAN .. Y_CHIIHOU`` are yakuman; rows from ``Y_DORA`` are bonus han."""


ONE = np.int64(1)
"""Bit 0 as int64, so that masks over 34 kinds stay 64-bit without JIT too."""


def _mask(kinds) -> np.int64:
    m = 0
    for t in kinds:
        m |= 1 << t
    return np.int64(m)


TERMINAL_MASK = _mask((0, 8, 9, 17, 18, 26))
HONOR_MASK = _mask(range(27, 34))
WIND_MASK = _mask(range(27, 31))
DRAGON_MASK = _mask(range(31, 34))
YAOCHUU_MASK = TERMINAL_MASK | HONOR_MASK
GREEN_MASK = _mask((19, 20, 21, 23, 25, 32))
SUIT_MASK_M = _mask(range(0, 9))
SUIT_MASK_P = _mask(range(9, 18))
SUIT_MASK_S = _mask(range(18, 27))
OUTER_SEQ_MASK = _mask((0, 6, 9, 15, 18, 24))
"""Sequences that hold a terminal: 123 and 789 of each suit (by lowest tile)."""
ITTSU_MASK = _mask((0, 3, 6))


@njit
def _is_tanyao(tile_mask):
    """Tanyao: only simples."""
    return (tile_mask & YAOCHUU_MASK) == 0


@njit
def _is_honroutou(tile_mask):
    """Honroutou: only terminals and honors, both present (else chinroutou or tsuuiisou)."""
    return (
        (tile_mask & ~YAOCHUU_MASK) == 0
        and (tile_mask & HONOR_MASK) != 0
        and (tile_mask & TERMINAL_MASK) != 0
    )


@njit
def _is_tsuuiisou(tile_mask):
    """Tsuuiisou: only honors."""
    return (tile_mask & ~HONOR_MASK) == 0


@njit
def _is_chinroutou(tile_mask):
    """Chinroutou: only terminals."""
    return (tile_mask & ~TERMINAL_MASK) == 0


@njit
def _is_ryuuiisou(tile_mask):
    """Ryuuiisou: only 2, 3, 4, 6, 8 sou and Hatsu."""
    return (tile_mask & ~GREEN_MASK) == 0


@njit
def _flush(tile_mask):
    """Honitsu / chinitsu: 0 none, 1 honitsu (one suit + honors), 2 chinitsu (one suit only)."""
    n_suits = 0
    if tile_mask & SUIT_MASK_M:
        n_suits += 1
    if tile_mask & SUIT_MASK_P:
        n_suits += 1
    if tile_mask & SUIT_MASK_S:
        n_suits += 1
    if n_suits != 1:
        return 0
    return 1 if tile_mask & HONOR_MASK else 2


@njit
def _chuuren(closed34, n_melds, win_tile):
    """Chuuren poutou: 0 none, 1 nine gates, 2 junsei (1112345678999 before the win tile)."""
    if n_melds != 0 or win_tile >= 27:
        return 0
    base = win_tile - win_tile % 9
    total = 0
    for i in range(9):
        c = closed34[base + i]
        need = 3 if i == 0 or i == 8 else 1
        if c < need:
            return 0
        total += c
    if total != 14:
        return 0
    c = closed34[win_tile] - 1
    i = win_tile - base
    need = 3 if i == 0 or i == 8 else 1
    return 2 if c == need else 1


@njit
def _is_pinfu(menzen, n_seq, pair, seat_tile, round_tile, wait_ryanmen):
    """Pinfu: closed, four sequences, a pair of no value, a two-sided wait."""
    return (
        menzen
        and n_seq == 4
        and wait_ryanmen
        and pair < 31
        and pair != seat_tile
        and pair != round_tile
    )


@njit
def _is_sanshoku_doujun(seq_mask):
    """Sanshoku doujun: the same sequence in all three suits."""
    return (seq_mask & (seq_mask >> 9) & (seq_mask >> 18) & 0x1FF) != 0


@njit
def _is_ittsu(seq_mask):
    """Ittsu: 123, 456, 789 of one suit."""
    for s in range(3):  # noqa: SIM110
        if ((seq_mask >> (9 * s)) & ITTSU_MASK) == ITTSU_MASK:
            return True
    return False


@njit
def _outside(seq_mask, trip_mask, pair, n_seq):
    """Chanta / junchan: 0 none, 1 chanta, 2 junchan (every set and the pair hold a terminal or
    honor, at least one sequence; junchan when no honor at all)."""
    if n_seq == 0 or (seq_mask & ~OUTER_SEQ_MASK) != 0 or (trip_mask & ~YAOCHUU_MASK) != 0:
        return 0
    if not (YAOCHUU_MASK >> pair) & 1:
        return 0
    if pair >= 27 or (trip_mask & HONOR_MASK) != 0:
        return 1
    return 2


@njit
def _is_toitoi(n_trip):
    """Toitoi: four triplets or kans."""
    return n_trip == 4


@njit
def _is_sanankou(n_ankou):
    """Sanankou: exactly three concealed triplets (ankan count; a ron-completed one does not)."""
    return n_ankou == 3


@njit
def _suuankou(n_ankou, tanki):
    """Suuankou: 0 none, 1 suuankou, 2 suuankou tanki (won on the pair)."""
    if n_ankou != 4:
        return 0
    return 2 if tanki else 1


@njit
def _is_sankantsu(n_kan):
    """Sankantsu: three kans."""
    return n_kan == 3


@njit
def _is_suukantsu(n_kan):
    """Suukantsu: four kans."""
    return n_kan == 4


@njit
def _is_sanshoku_doukou(trip_mask):
    """Sanshoku doukou: triplets of the same number in all three suits."""
    return (trip_mask & (trip_mask >> 9) & (trip_mask >> 18) & 0x1FF) != 0


@njit
def _n_dragon_sets(trip_mask):
    return ((trip_mask >> 31) & 1) + ((trip_mask >> 32) & 1) + ((trip_mask >> 33) & 1)


@njit
def _n_wind_sets(trip_mask):
    return (
        ((trip_mask >> 27) & 1)
        + ((trip_mask >> 28) & 1)
        + ((trip_mask >> 29) & 1)
        + ((trip_mask >> 30) & 1)
    )


@njit
def _is_shousangen(trip_mask, pair):
    """Shousangen: two dragon triplets and a dragon pair."""
    return pair >= 31 and _n_dragon_sets(trip_mask) == 2


@njit
def _is_daisangen(trip_mask):
    """Daisangen: triplets of all three dragons."""
    return _n_dragon_sets(trip_mask) == 3


@njit
def _is_shousuushii(trip_mask, pair):
    """Shousuushii: three wind triplets and a wind pair."""
    return 27 <= pair <= 30 and _n_wind_sets(trip_mask) == 3


@njit
def _is_daisuushii(trip_mask):
    """Daisuushii: triplets of all four winds."""
    return _n_wind_sets(trip_mask) == 4
