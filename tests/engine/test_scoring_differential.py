"""Differential test: ``engine.scoring.score_hand`` against the ``mahjong`` package (1.4.0).

Random *winning* hands (seeded, deterministic) are scored by both, per preset, and han, fu (not
for yakuman), the yaku set and the payments must agree. The generator over-samples rare yaku and
every yakuman through themed hand shapes, and draws every meld type and situational flag the rules
allow together. Cases where the ``mahjong`` package is known to follow other rules are named
exclusion predicates below, each citing the rule; nothing is skipped silently.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pytest

from engine.rules import MAHJONGSOUL, TENHOU
from engine.scoring.hand_score import SITUATIONAL_FLAGS
from engine.tiles import hand34_to_str, tile34_to_str

mahjong = pytest.importorskip("mahjong")

from mahjong.constants import EAST as MJ_EAST  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules  # noqa: E402
from mahjong.hand_calculating.scores import ScoresCalculator  # noqa: E402
from mahjong.meld import Meld  # noqa: E402

PRESETS = ("mahjongsoul", "tenhou")
HANDS_PER_PRESET = 10_000
CHUNKS = 4
"""Each preset's hands are split in chunks so that ``pytest -n 2`` can spread them."""
VARIANT = MAHJONGSOUL.replace(
    red_fives=(0, 0, 0),
    open_tanyao=False,
    kiriage_mangan=True,
    kazoe_yakuman=False,
    double_yakuman=False,
    open_riichi=True,
    name="variant",
)
"""Every scoring option flipped from Mahjong Soul (the variant rules options), checked on fewer hands."""
VARIANT_HANDS = 5_000
WINDS = "ESWN"
FIVES = (4, 13, 22)
SIMPLES = [t for t in range(27) if t % 9 not in (0, 8)]
TERMINALS = [0, 8, 9, 17, 18, 26]
HONORS = list(range(27, 34))
WIND_TILES = list(range(27, 31))
DRAGONS = [31, 32, 33]
GREEN = [19, 20, 21, 23, 25, 32]
KAN_TYPES = ("daiminkan", "kakan", "ankan")


# ---------------------------------------------------------------------------------------------
# Generator
# ---------------------------------------------------------------------------------------------


@dataclass
class Shape:
    """A winning shape before melds and flags: four blocks and a pair, or a special hand."""

    blocks: list[tuple[str, int]] = field(default_factory=list)  # ("chi"|"pon", lowest tile34)
    pair: int = -1
    special: list[int] | None = None  # chiitoitsu / kokushi: all 14 kinds, closed
    closed_only: bool = False
    n_kans: int = 0  # pons to turn into kans
    win_on: int | None = None  # force the winning tile's kind
    force: dict[str, bool] = field(default_factory=dict)


def _chi_start(rng: random.Random, suits=(0, 1, 2), starts=range(7)) -> int:
    return rng.choice(suits) * 9 + rng.choice(list(starts))


def _random_block(rng: random.Random) -> tuple[str, int]:
    if rng.random() < 0.55:
        return ("chi", _chi_start(rng))
    return ("pon", rng.randrange(34))


def _theme_random(rng):
    return Shape([_random_block(rng) for _ in range(4)], rng.randrange(34))


def _theme_tanyao(rng):
    blocks = [
        ("chi", _chi_start(rng, starts=range(1, 6)))
        if rng.random() < 0.6
        else ("pon", rng.choice(SIMPLES))
        for _ in range(4)
    ]
    return Shape(blocks, rng.choice(SIMPLES))


def _theme_flush(rng, honors: bool):
    suit = rng.randrange(3)
    kinds = [suit * 9 + i for i in range(9)] + (HONORS if honors else [])
    blocks = []
    for _ in range(4):
        if rng.random() < 0.6:
            blocks.append(("chi", suit * 9 + rng.randrange(7)))
        else:
            blocks.append(("pon", rng.choice(kinds)))
    return Shape(blocks, rng.choice(kinds))


def _theme_outside(rng, honors: bool):
    yaochuu = TERMINALS + (HONORS if honors else [])
    blocks = []
    for _ in range(4):
        if rng.random() < 0.6:
            blocks.append(("chi", rng.randrange(3) * 9 + rng.choice((0, 6))))
        else:
            blocks.append(("pon", rng.choice(yaochuu)))
    if all(kind == "pon" for kind, _ in blocks):
        blocks[0] = ("chi", rng.randrange(3) * 9 + rng.choice((0, 6)))
    return Shape(blocks, rng.choice(yaochuu))


def _theme_ittsu(rng):
    suit = rng.randrange(3)
    return Shape(
        [("chi", suit * 9), ("chi", suit * 9 + 3), ("chi", suit * 9 + 6), _random_block(rng)],
        rng.randrange(34),
    )


def _theme_sanshoku(rng):
    n = rng.randrange(7)
    return Shape(
        [("chi", n), ("chi", 9 + n), ("chi", 18 + n), _random_block(rng)], rng.randrange(34)
    )


def _theme_sanshoku_doukou(rng):
    n = rng.randrange(9)
    return Shape(
        [("pon", n), ("pon", 9 + n), ("pon", 18 + n), _random_block(rng)], rng.randrange(34)
    )


def _theme_peikou(rng):
    a, b = _chi_start(rng), _chi_start(rng)
    blocks = [
        ("chi", a),
        ("chi", a),
        ("chi", b),
        ("chi", b) if rng.random() < 0.5 else _random_block(rng),
    ]
    return Shape(blocks, rng.randrange(34), closed_only=True)


def _theme_pinfu(rng):
    pair = rng.choice(list(range(27)) + [28, 29, 30])
    return Shape([("chi", _chi_start(rng)) for _ in range(4)], pair, closed_only=rng.random() < 0.7)


def _theme_toitoi(rng):
    return Shape([("pon", k) for k in rng.sample(range(34), 4)], rng.randrange(34))


def _theme_kans(rng, n):
    return Shape([("pon", k) for k in rng.sample(range(34), 4)], rng.randrange(34), n_kans=n)


def _theme_yakuhai(rng):
    honors = rng.sample(HONORS, rng.choice((1, 2)))
    blocks = [("pon", k) for k in honors] + [_random_block(rng) for _ in range(4 - len(honors))]
    return Shape(blocks, rng.randrange(34))


def _theme_shousangen(rng):
    d = rng.sample(DRAGONS, 3)
    return Shape([("pon", d[0]), ("pon", d[1]), _random_block(rng), _random_block(rng)], d[2])


def _theme_honroutou(rng):
    kinds = rng.sample(TERMINALS + HONORS, 5)
    return Shape([("pon", k) for k in kinds[:4]], kinds[4])


def _theme_daisangen(rng):
    return Shape([("pon", d) for d in DRAGONS] + [_random_block(rng)], rng.randrange(34))


def _theme_shousuushii(rng):
    w = rng.sample(WIND_TILES, 4)
    return Shape([("pon", w[0]), ("pon", w[1]), ("pon", w[2]), _random_block(rng)], w[3])


def _theme_daisuushii(rng):
    return Shape([("pon", w) for w in WIND_TILES], rng.randrange(34))


def _theme_tsuuiisou(rng):
    if rng.random() < 0.3:
        return Shape(special=_pairs(rng.sample(HONORS, 7)))
    kinds = rng.sample(HONORS, 5)
    return Shape([("pon", k) for k in kinds[:4]], kinds[4])


def _theme_chinroutou(rng):
    kinds = rng.sample(TERMINALS, 5)
    return Shape([("pon", k) for k in kinds[:4]], kinds[4])


def _theme_ryuuiisou(rng):
    blocks = [("chi", 19) if rng.random() < 0.4 else ("pon", rng.choice(GREEN)) for _ in range(4)]
    return Shape(blocks, rng.choice(GREEN))


def _theme_chuuren(rng):
    suit = rng.randrange(3)
    base = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8]
    extra = rng.randrange(9)
    kinds = [suit * 9 + i for i in base + [extra]]
    win = suit * 9 + extra if rng.random() < 0.5 else None
    return Shape(special=kinds, win_on=win)


def _theme_suuankou(rng):
    kinds = rng.sample(range(34), 5)
    tanki = rng.random() < 0.5
    shape = Shape([("pon", k) for k in kinds[:4]], kinds[4], closed_only=True)
    shape.n_kans = rng.choice((0, 0, 0, 1, 2))
    if tanki:
        shape.win_on = kinds[4]
    else:
        shape.force["tsumo"] = True
    return shape


def _theme_kokushi(rng):
    dup = rng.choice(TERMINALS + HONORS)
    return Shape(special=TERMINALS + HONORS + [dup], win_on=dup if rng.random() < 0.5 else None)


def _pairs(kinds):
    return [k for k in kinds for _ in range(2)]


def _theme_chiitoitsu(rng):
    pool = rng.choice((range(34), SIMPLES, TERMINALS + HONORS, list(range(9)) + HONORS))
    return Shape(special=_pairs(rng.sample(list(pool), 7)))


def _theme_first_draw(rng):
    shape = _theme_chiitoitsu(rng) if rng.random() < 0.2 else _theme_random(rng)
    shape.closed_only = True
    shape.force["tenhou" if rng.random() < 0.5 else "chiihou"] = True
    return shape


THEMES = (
    # name, weight, builder
    ("random", 40, _theme_random),
    ("tanyao", 6, _theme_tanyao),
    ("honitsu", 5, lambda rng: _theme_flush(rng, True)),
    ("chinitsu", 5, lambda rng: _theme_flush(rng, False)),
    ("chanta", 4, lambda rng: _theme_outside(rng, True)),
    ("junchan", 3, lambda rng: _theme_outside(rng, False)),
    ("ittsu", 3, _theme_ittsu),
    ("sanshoku", 3, _theme_sanshoku),
    ("sanshoku_doukou", 2, _theme_sanshoku_doukou),
    ("peikou", 3, _theme_peikou),
    ("pinfu", 4, _theme_pinfu),
    ("toitoi", 3, _theme_toitoi),
    ("sankantsu", 2, lambda rng: _theme_kans(rng, 3)),
    ("yakuhai", 4, _theme_yakuhai),
    ("shousangen", 2, _theme_shousangen),
    ("honroutou", 2, _theme_honroutou),
    ("chiitoitsu", 4, _theme_chiitoitsu),
    ("daisangen", 2, _theme_daisangen),
    ("shousuushii", 2, _theme_shousuushii),
    ("daisuushii", 2, _theme_daisuushii),
    ("tsuuiisou", 2, _theme_tsuuiisou),
    ("chinroutou", 2, _theme_chinroutou),
    ("ryuuiisou", 4, _theme_ryuuiisou),
    ("chuuren", 2, _theme_chuuren),
    ("suuankou", 3, _theme_suuankou),
    ("suukantsu", 2, lambda rng: _theme_kans(rng, 4)),
    ("kokushi", 2, _theme_kokushi),
    ("first_draw", 2, _theme_first_draw),
)


@dataclass
class Case:
    """One generated hand: the hand-score input object plus what the ``mahjong`` adapter needs."""

    theme: str
    inp: dict
    closed_kinds: list[int]
    closed_red: list[bool]
    melds: list[tuple[str, list[int], list[bool]]]  # type, kinds, red flags
    win_kind: int
    win_red: bool
    variant: bool = False  # scored with VARIANT rules (the input names its base preset)

    def describe(self) -> str:
        """The case in mpsz, for failure messages."""
        i = self.inp
        flags = [f for f in SITUATIONAL_FLAGS if i.get(f)]
        melds = " ".join(f"{m['type']}:{m['tiles']}" for m in i["melds"])
        return (
            f"[{self.theme}] {i['closed']} win {i['win_tile']} {i['win_type']} "
            f"{melds + ' ' if melds else ''}seat {i['seat_wind']} round {i['round_wind']} "
            f"{' '.join(flags)} dora {''.join(i['dora_indicators']) or '-'} "
            f"ura {''.join(i['ura_dora_indicators']) or '-'} honba {i['honba']} "
            f"kyotaku {i['kyotaku']} ({'variant' if self.variant else i['ruleset']})"
        )


def _mpsz(kinds: list[int], red: list[bool]) -> str:
    counts = [0] * 34
    n_red = [0, 0, 0]
    for k, r in zip(kinds, red, strict=True):
        counts[k] += 1
        if r:
            n_red[k // 9] += 1
    return hand34_to_str(counts, n_red)


def _tile_str(kind: int, red: bool) -> str:
    return f"0{'mps'[kind // 9]}" if red else tile34_to_str(kind)


def _build(rng: random.Random, preset: str, themes=THEMES) -> Case | None:
    """One random case, or None when the drawn shape breaks a tile count (the caller retries)."""
    theme, _, builder = rng.choices(themes, weights=[w for _, w, _ in themes])[0]
    shape = builder(rng)

    melds: list[tuple[str, list[int]]] = []
    closed: list[int] = []
    if shape.special is not None:
        closed = list(shape.special)
    else:
        p_call = 0.0 if shape.closed_only else rng.choice((0.0, 0.0, 0.25, 0.5, 0.8))
        pons = [i for i, (kind, _) in enumerate(shape.blocks) if kind == "pon"]
        kan_idx = set(rng.sample(pons, min(shape.n_kans, len(pons))))
        if shape.n_kans and len(kan_idx) < shape.n_kans:
            return None
        for i, (kind, t) in enumerate(shape.blocks):
            if kind == "chi":
                tiles = [t, t + 1, t + 2]
                if rng.random() < p_call:
                    melds.append(("chi", tiles))
                else:
                    closed += tiles
                continue
            called = rng.random() < p_call
            if i in kan_idx:
                mtype = "ankan" if shape.closed_only else rng.choice(KAN_TYPES)
            elif called:
                mtype = rng.choice(("pon", "pon", "daiminkan", "kakan", "ankan"))
            else:
                mtype = "ankan" if not shape.force and rng.random() < 0.06 else None
            if mtype is None:
                closed += [t] * 3
            else:
                melds.append((mtype, [t] * (3 if mtype == "pon" else 4)))
        closed += [shape.pair] * 2
    counts = Counter(closed)
    for _, tiles in melds:
        counts.update(tiles)
    if max(counts.values()) > 4:
        return None
    open_hand = any(m != "ankan" for m, _ in melds)
    has_kan = any(m in KAN_TYPES for m, _ in melds)

    # winning tile
    win_kind = shape.win_on if shape.win_on is not None else rng.choice(closed)

    # flags
    force = shape.force
    first_draw = force.get("tenhou") or force.get("chiihou")
    seat = "E" if force.get("tenhou") else rng.choice("SWN" if force.get("chiihou") else WINDS)
    rnd = rng.choice("EESSWN")
    tsumo = bool(force.get("tsumo") or first_draw or rng.random() < 0.5)
    flags = dict.fromkeys(SITUATIONAL_FLAGS, False)
    if first_draw:
        flags["tenhou"] = bool(force.get("tenhou"))
        flags["chiihou"] = bool(force.get("chiihou"))
    else:
        if not open_hand and rng.random() < 0.5:
            flags["riichi"] = True
            flags["double_riichi"] = rng.random() < 0.15
            if preset == "variant":
                flags["open_riichi"] = rng.random() < 0.4
        if tsumo and has_kan and rng.random() < 0.3:
            flags["rinshan"] = True
        if flags["riichi"] and not flags["rinshan"] and rng.random() < 0.3:
            flags["ippatsu"] = True
        if not tsumo and counts[win_kind] == 1 and rng.random() < 0.3:
            flags["chankan"] = True
        if tsumo and not flags["rinshan"] and rng.random() < 0.1:
            flags["haitei"] = True
        if not tsumo and not flags["chankan"] and rng.random() < 0.1:
            flags["houtei"] = True

    # dora indicators (physical tiles: keep at most four of a kind in all)
    def indicators(n: int) -> list[int] | None:
        out = []
        for _ in range(n):
            for _attempt in range(20):
                if rng.random() < 0.25:
                    dora = rng.choice(closed)
                    ind = _indicator_of(dora)
                else:
                    ind = rng.randrange(34)
                if counts[ind] < (3 if ind in FIVES else 4):
                    counts[ind] += 1
                    out.append(ind)
                    break
            else:
                return None
        return out

    n_kans = sum(m in KAN_TYPES for m, _ in melds)
    n_ind = min(5, 1 + n_kans + (rng.random() < 0.2))
    dora = indicators(n_ind)
    ura = indicators(n_ind) if flags["riichi"] else []
    if dora is None or ura is None:
        return None

    # red fives: at most one per suit (both presets); a fourth copy must be the red one
    closed_red = [False] * len(closed)
    meld_red = [[False] * len(tiles) for _, tiles in melds]
    for kind in FIVES:
        spots = [("c", i) for i, k in enumerate(closed) if k == kind]
        spots += [
            ("m", (j, i))
            for j, (_, tiles) in enumerate(melds)
            for i, k in enumerate(tiles)
            if k == kind
        ]
        if not spots:
            continue
        in_indicators = (dora + ura).count(kind)
        if preset == "variant":
            continue
        if len(spots) + in_indicators == 4 or rng.random() < 0.5:
            where, idx = rng.choice(spots)
            if where == "c":
                closed_red[idx] = True
            else:
                meld_red[idx[0]][idx[1]] = True

    win_reds = [r for k, r in zip(closed, closed_red, strict=True) if k == win_kind]
    if all(win_reds):
        win_red = True
    elif any(win_reds):
        win_red = rng.random() < 0.3
    else:
        win_red = False

    riichi = flags["riichi"]
    inp = {
        "closed": _mpsz(closed, closed_red),
        "win_tile": _tile_str(win_kind, win_red),
        "win_type": "tsumo" if tsumo else "ron",
        "seat_wind": seat,
        "round_wind": rnd,
        **flags,
        "dora_indicators": [tile34_to_str(t) for t in dora],
        "ura_dora_indicators": [tile34_to_str(t) for t in ura],
        "honba": rng.choice((0, 0, 0, 1, 2, 5)),
        "kyotaku": rng.choice((1, 1, 2, 3)) if riichi else rng.choice((0, 0, 1, 2)),
        "melds": [
            {"type": m, "tiles": _mpsz(tiles, red)}
            for (m, tiles), red in zip(melds, meld_red, strict=True)
        ],
        "ruleset": "mahjongsoul" if preset == "variant" else preset,
    }
    return Case(
        theme,
        inp,
        closed,
        closed_red,
        [(m, tiles, red) for (m, tiles), red in zip(melds, meld_red, strict=True)],
        win_kind,
        win_red,
        variant=preset == "variant",
    )


def _indicator_of(dora: int) -> int:
    if dora < 27:
        return dora - dora % 9 + (dora % 9 + 8) % 9
    if dora < 31:
        return 27 + (dora - 27 + 3) % 4
    return 31 + (dora - 31 + 2) % 3


def generate_cases(seed: int, n: int, preset: str, themes: tuple[str, ...] = ()) -> list[Case]:
    """``n`` random winning hands for ``preset``, reproducible from ``seed``.

    ``preset`` is ``"mahjongsoul"``, ``"tenhou"`` or ``"variant"`` (``VARIANT`` rules; no reds).

    ``themes`` restricts the hand shapes to those named in ``THEMES`` (default: all, weighted).
    """
    rng = random.Random(seed)
    table = [t for t in THEMES if t[0] in themes] if themes else list(THEMES)
    out: list[Case] = []
    while len(out) < n:
        case = _build(rng, preset, table)
        if case is not None:
            out.append(case)
    return out


def kernel_arrays(cases: list[Case]) -> tuple[np.ndarray, ...]:
    """Kernel inputs of ``_score_hands_batch`` for generated cases (as ``score_hand`` builds them)."""
    from engine.melds import MELD_TYPES
    from engine.scoring import hand_score as sc

    n = len(cases)
    closed = np.zeros((n, 34), np.uint8)
    melds = np.zeros((n, 4, 2), np.int32)
    n_melds = np.zeros(n, np.int32)
    win = np.zeros(n, np.int32)
    ctx = np.zeros((n, sc.N_CTX), np.int32)
    dora = np.zeros((n, sc.MAX_INDICATORS), np.int32)
    ura = np.zeros((n, sc.MAX_INDICATORS), np.int32)
    kind = {"E": 0, "S": 1, "W": 2, "N": 3}
    for i, c in enumerate(cases):
        inp = c.inp
        for t in c.closed_kinds:
            closed[i, t] += 1
        for j, (mtype, tiles, _) in enumerate(c.melds):
            melds[i, j] = MELD_TYPES[mtype], min(tiles)
        n_melds[i] = len(c.melds)
        win[i] = c.win_kind
        ctx[i, sc.CTX_TSUMO] = inp["win_type"] == "tsumo"
        ctx[i, sc.CTX_SEAT_WIND] = kind[inp["seat_wind"]]
        ctx[i, sc.CTX_ROUND_WIND] = kind[inp["round_wind"]]
        ctx[i, sc.CTX_RIICHI] = 2 if inp["double_riichi"] else int(inp["riichi"])
        ctx[i, sc.CTX_OPEN_RIICHI] = inp["open_riichi"]
        for flag, slot in (
            ("ippatsu", sc.CTX_IPPATSU),
            ("rinshan", sc.CTX_RINSHAN),
            ("chankan", sc.CTX_CHANKAN),
            ("haitei", sc.CTX_HAITEI),
            ("houtei", sc.CTX_HOUTEI),
            ("tenhou", sc.CTX_TENHOU),
            ("chiihou", sc.CTX_CHIIHOU),
        ):
            ctx[i, slot] = inp[flag]
        ctx[i, sc.CTX_HONBA] = inp["honba"]
        ctx[i, sc.CTX_KYOTAKU] = inp["kyotaku"]
        ctx[i, sc.CTX_N_AKA] = sum(c.closed_red) + sum(sum(r) for _, _, r in c.melds)
        for arr, key, slot in (
            (dora, "dora_indicators", sc.CTX_N_DORA),
            (ura, "ura_dora_indicators", sc.CTX_N_URA),
        ):
            tiles = [_kind(t) for t in inp[key]]
            arr[i, : len(tiles)] = tiles
            ctx[i, slot] = len(tiles)
    return closed, melds, n_melds, win, ctx, dora, ura


# ---------------------------------------------------------------------------------------------
# The mahjong package, configured per preset
# ---------------------------------------------------------------------------------------------

MJ_YAKU_KEYS = {
    "tsumo": "menzen_tsumo",
    "riichi": "riichi",
    "open_riichi": "open_riichi",
    "ippatsu": "ippatsu",
    "chankan": "chankan",
    "rinshan": "rinshan_kaihou",
    "haitei": "haitei_raoyue",
    "houtei": "houtei_raoyui",
    "daburu_riichi": "double_riichi",
    "pinfu": "pinfu",
    "tanyao": "tanyao",
    "iipeiko": "iipeikou",
    "haku": "yakuhai_haku",
    "hatsu": "yakuhai_hatsu",
    "chun": "yakuhai_chun",
    "sanshoku": "sanshoku_doujun",
    "ittsu": "ittsu",
    "chantai": "chanta",
    "honroto": "honroutou",
    "toitoi": "toitoi",
    "sanankou": "sanankou",
    "sankantsu": "sankantsu",
    "sanshoku_douko": "sanshoku_doukou",
    "chiitoitsu": "chiitoitsu",
    "shosangen": "shousangen",
    "honitsu": "honitsu",
    "junchan": "junchan",
    "ryanpeiko": "ryanpeikou",
    "chinitsu": "chinitsu",
    "kokushi": "kokushi_musou",
    "chuuren_poutou": "chuuren_poutou",
    "suuankou": "suuankou",
    "daisangen": "daisangen",
    "shosuushi": "shousuushii",
    "ryuisou": "ryuuiisou",
    "suukantsu": "suukantsu",
    "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou",
    "daisuushi": "daisuushii",
    "daburu_kokushi": "kokushi_musou_13_sided",
    "suuankou_tanki": "suuankou_tanki",
    "daburu_chuuren_poutou": "junsei_chuuren_poutou",
    "tenhou": "tenhou",
    "chiihou": "chiihou",
    "dora": "dora",
    "aka_dora": "aka_dora",
}
"""``mahjong`` YakuConfig attribute → hand-score key (seat/round winds are mapped by wind)."""
WIND_NAMES = {"E": "east", "S": "south", "W": "west", "N": "north"}


def mahjong_options(preset: str) -> OptionalRules:
    """The ``mahjong`` options matching a preset (docs/rules.md options table).

    Both presets: open tanyao on, red fives on (one per suit, the package's ids 16/52/88), kazoe
    yakuman at 13+ han (limited to one yakuman), kiriage off, open-pinfu ron 30 fu, pinfu tsumo
    20 fu, renhou off (Mahjong Soul rules: "Renhou isn't used"), no local yakuman. Double yakuman on for
    Mahjong Soul, off for Tenhou. ``"variant"`` flips them as ``VARIANT`` does.
    """
    variant = preset == "variant"
    return OptionalRules(
        has_open_tanyao=not variant,
        has_aka_dora=not variant,
        has_double_yakuman=preset == "mahjongsoul",
        kazoe_limit=HandConfig.KAZOE_SANBAIMAN if variant else HandConfig.KAZOE_LIMITED,
        kiriage=variant,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=False,
        has_daisharin=False,
        has_daisharin_other_suits=False,
        has_sashikomi_yakuman=False,
        limit_to_sextuple_yakuman=True,
        has_daichisei=False,
    )


class _RecordingScores(ScoresCalculator):
    """Records every reading the package prices, so its best-paying one can be found."""

    def __init__(self) -> None:
        super().__init__()
        self.readings: list[tuple[int, int, dict]] = []

    def calculate_scores(self, han, fu, config, is_yakuman=False):
        cost = super().calculate_scores(han, fu, config, is_yakuman)
        self.readings.append((han, fu, cost))
        return cost


def _ids136(kinds: list[int], reds: list[bool], used: set[int], aka: bool = True) -> list[int]:
    """Physical ids for kinds: red fives on id ``4k``, plain tiles on the other copies first.

    Without ``aka`` (the package then counts no red fives) a plain five may take id ``4k`` too.
    """
    out = []
    for k, red in zip(kinds, reds, strict=True):
        order = (
            [4 * k]
            if red
            else [4 * k + 1, 4 * k + 2, 4 * k + 3] + ([] if aka and k in FIVES else [4 * k])
        )
        tid = next(t for t in order if t not in used)
        used.add(tid)
        out.append(tid)
    return out


MJ_MELD = {
    "chi": (Meld.CHI, True),
    "pon": (Meld.PON, True),
    "daiminkan": (Meld.KAN, True),
    "kakan": (Meld.SHOUMINKAN, True),
    "ankan": (Meld.KAN, False),
}


def spec_double_open_riichi(config: HandConfig) -> None:
    """Spec 000 (open riichi): "Double Riichi and Open Riichi may combine for +4 han total".

    The package scores its "Double Open Riichi" 3 han; we give it the spec's 4 before scoring, so
    that every reading and payment the package computes follows our rule.
    """
    config.yaku.daburu_open_riichi.han_closed = 4


def mahjong_score(case: Case) -> dict:
    """Score a case with the ``mahjong`` package, as a hand-score result object.

    Extra key ``_readings``: every (han, fu, cost) reading the package priced; ``dora`` in the
    yaku holds dora plus ura dora (the package counts ura indicators as dora indicators).
    """
    inp = case.inp
    used: set[int] = set()
    win_id = None
    closed_ids = _ids136(case.closed_kinds, case.closed_red, used, not case.variant)
    for tid, k, r in zip(closed_ids, case.closed_kinds, case.closed_red, strict=True):
        if k == case.win_kind and r == case.win_red:
            win_id = tid
            break
    melds = []
    all_ids = list(closed_ids)
    for mtype, kinds, reds in case.melds:
        ids = _ids136(kinds, reds, used, not case.variant)
        all_ids += ids
        t, opened = MJ_MELD[mtype]
        melds.append(Meld(t, ids, opened=opened, called_tile=ids[0]))
    riichi = inp["riichi"] or inp["double_riichi"]
    indicators = inp["dora_indicators"] + (inp["ura_dora_indicators"] if riichi else [])
    ind_ids = [4 * _kind(t) + 3 for t in indicators]  # plain copies; the kind is what counts
    config = HandConfig(
        is_tsumo=inp["win_type"] == "tsumo",
        is_riichi=riichi,
        is_ippatsu=inp["ippatsu"],
        is_rinshan=inp["rinshan"],
        is_chankan=inp["chankan"],
        is_haitei=inp["haitei"],
        is_houtei=inp["houtei"],
        is_daburu_riichi=inp["double_riichi"],
        is_open_riichi=inp.get("open_riichi", False),
        is_tenhou=inp["tenhou"],
        is_chiihou=inp["chiihou"],
        player_wind=MJ_EAST + WINDS.index(inp["seat_wind"]),
        round_wind=MJ_EAST + WINDS.index(inp["round_wind"]),
        kyoutaku_number=inp["kyotaku"],
        tsumi_number=inp["honba"],
        options=mahjong_options("variant" if case.variant else inp["ruleset"]),
    )
    spec_double_open_riichi(config)
    recorder = _RecordingScores()
    response = HandCalculator().estimate_hand_value(
        all_ids,
        win_id,
        melds=melds,
        dora_indicators=ind_ids,
        config=config,
        scores_calculator_factory=lambda: recorder,
    )
    if response.error:
        if response.error == HandCalculator.ERR_NO_YAKU:
            return {"valid": False, "error": "no_yaku", "_readings": recorder.readings}
        if response.error in (
            HandCalculator.ERR_HAND_NOT_WINNING,
            HandCalculator.ERR_HAND_NOT_CORRECT,
        ):
            return {"valid": False, "error": "not_agari", "_readings": recorder.readings}
        return {
            "valid": False,
            "error": f"mahjong:{response.error}",
            "_readings": recorder.readings,
        }
    names = {id(v): k for k, v in vars(config.yaku).items()}
    yaku = []
    multiplier = 0
    for y in response.yaku:
        attr = names[id(y)]
        if attr == "daburu_open_riichi":  # 4 han: see spec_double_open_riichi
            yaku += [{"key": "double_riichi", "han": 2}, {"key": "open_riichi", "han": 2}]
            continue
        if attr == "yakuhai_place":
            key = f"seat_wind_{WIND_NAMES[inp['seat_wind']]}"
        elif attr == "yakuhai_round":
            key = f"round_wind_{WIND_NAMES[inp['round_wind']]}"
        else:
            key = MJ_YAKU_KEYS[attr]
        han = y.han_open if response.is_open_hand and y.han_open else y.han_closed
        if y.is_yakuman:
            yaku.append({"key": key, "han": han, "yakuman": han // 13})
            multiplier += han // 13
        else:
            yaku.append({"key": key, "han": han})
    return {
        "valid": True,
        "han": response.han,
        "fu": response.fu,
        "yaku": yaku,
        "yakuman_multiplier": multiplier,
        "limit": _limit_from_cost(response.cost, multiplier, response.han, response.fu),
        "payments": _payments_from_cost(response.cost, inp),
        "winner_gain": response.cost["total"],
        "_readings": recorder.readings,
    }


def _kind(tile: str) -> int:
    n, suit = int(tile[0]) or 5, "mpsz".index(tile[1])
    return suit * 9 + n - 1


def _limit_from_cost(cost: dict, multiplier: int, han: int, fu: int) -> str:
    """The package's ``yaku_level`` in the format's words."""
    level = cost["yaku_level"]
    if level == "yakuman" and multiplier == 0:
        return "kazoe yakuman"  # the package labels counted yakuman "yakuman" too
    if level == "kiriage mangan":
        return "mangan"
    if level == "" and han < 5 and fu * 2 ** (2 + han) > 2000:
        return "mangan"  # with kiriage on the package leaves mangan-by-fu unlabelled
    return level


def _payments_from_cost(cost: dict, inp: dict) -> dict:
    if inp["win_type"] == "ron":
        return {"ron": cost["main"] + cost["main_bonus"]}
    if inp["seat_wind"] == "E":
        return {"tsumo_all": cost["main"] + cost["main_bonus"]}
    return {
        "tsumo_dealer": cost["main"] + cost["main_bonus"],
        "tsumo_nondealer": cost["additional"] + cost["additional_bonus"],
    }


def our_score(case: Case) -> dict:
    """Our result object: through the hand-score I/O, or with ``VARIANT`` rules for variants."""
    from engine.scoring.hand_score import score_hand
    from riichi_env.cli.hand_score import score_input

    if not case.variant:
        return score_input(case.inp)
    kwargs = {k: v for k, v in case.inp.items() if k not in ("closed", "win_tile", "ruleset")}
    kwargs["melds"] = [(m["type"], m["tiles"]) for m in kwargs["melds"]]
    result = score_hand(case.inp["closed"], case.inp["win_tile"], **kwargs, rules=VARIANT)
    return result.to_dict()


# ---------------------------------------------------------------------------------------------
# Comparison, with the package's known departures from our rules
# ---------------------------------------------------------------------------------------------


def package_reading_not_best_paying(theirs: dict) -> bool:
    """docs/rules.md "Highest reading": the reading that *pays* most wins (then han, then fu).

    The package keeps the reading with the most han, then fu. When a reading with fewer han pays
    more (e.g. 2 han 70 fu 4,500 over 3 han 30 fu 3,900), the package's choice is not ours: we
    compare han, fu and payments against the package's best-paying reading instead, and cannot
    compare its yaku (the package does not report the yaku of readings it discards).
    """
    readings = theirs.get("_readings") or []
    if not theirs.get("valid") or len(readings) < 2:
        return False
    best = max(readings, key=lambda r: (r[2]["total"], r[0], r[1]))
    return best[2]["total"] != theirs["winner_gain"]


def kazoe_reading_ties_yakuman(ours: dict, theirs: dict) -> bool:
    """Spec 004: "A yakuman is worth the full limit regardless of fu or other han".

    A hand that reads both as a single yakuman and as 13+ han of ordinary yaku pays the same
    either way (one yakuman; Tenhou has no double suuankou, and a plain suuankou is single in
    both presets). We score the yakuman, as Tenhou and Mahjong Soul display it; the package
    orders readings by han and keeps the kazoe one (14 han > 13). Payments are still compared.
    """
    return (
        theirs.get("valid", False)
        and ours.get("valid", False)
        and theirs["limit"] == "kazoe yakuman"
        and theirs["yakuman_multiplier"] == 0
        and ours["yakuman_multiplier"] == 1
    )


def compare(case: Case, ours: dict, theirs: dict) -> list[str]:
    """Differences between our result and the package's, as readable strings (empty = agree)."""
    if ours.get("error") == "invalid_input":
        return [f"our validator rejected a generated case: {ours['message']}"]
    if not theirs["valid"] or not ours["valid"]:
        if ours.get("valid") != theirs["valid"] or ours.get("error") != theirs.get("error"):
            return [f"validity: ours {_short(ours)} vs mahjong {_short(theirs)}"]
        return []
    diffs = []
    if package_reading_not_best_paying(theirs):
        han, fu, cost = max(theirs["_readings"], key=lambda r: (r[2]["total"], r[0], r[1]))
        expected = {
            "han": han,
            "fu": fu,
            "payments": _payments_from_cost(cost, case.inp),
            "winner_gain": cost["total"],
        }
        compare_yaku = False
    else:
        expected = theirs
        compare_yaku = True
    if kazoe_reading_ties_yakuman(ours, theirs):
        expected = theirs
        compare_yaku = False
        fields = ["payments", "winner_gain"]
    else:
        yakuman = theirs["yakuman_multiplier"] > 0
        fields = ["han", "payments", "winner_gain"] + ([] if yakuman else ["fu"])
    for f in fields:
        if ours.get(f) != expected[f]:
            diffs.append(f"{f}: ours {ours.get(f)} vs mahjong {expected[f]}")
    if compare_yaku:
        if ours["yakuman_multiplier"] != theirs["yakuman_multiplier"]:
            diffs.append(
                f"yakuman_multiplier: ours {ours['yakuman_multiplier']} vs mahjong "
                f"{theirs['yakuman_multiplier']}"
            )
        if ours["limit"] != theirs["limit"]:
            diffs.append(f"limit: ours {ours['limit']!r} vs mahjong {theirs['limit']!r}")
        a, b = _yaku_map(ours["yaku"]), _yaku_map(theirs["yaku"])
        a["dora"] = a.pop("dora", 0) + a.pop("ura_dora", 0)
        b["dora"] = b.pop("dora", 0)
        a = {k: v for k, v in a.items() if v}
        b = {k: v for k, v in b.items() if v}
        if a != b:
            diffs.append(f"yaku: ours {_fmt_yaku(a)} vs mahjong {_fmt_yaku(b)}")
    return diffs


def _yaku_map(yaku: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for y in yaku:
        out[y["key"]] = out.get(y["key"], 0) + (13 * y["yakuman"] if "yakuman" in y else y["han"])
    return out


def _fmt_yaku(m: dict[str, int]) -> str:
    return "{" + ", ".join(f"{k} {v}" for k, v in sorted(m.items())) + "}"


def _short(r: dict) -> str:
    if r.get("valid"):
        return f"{r['han']} han {r['fu']} fu {r['payments']}"
    return r.get("error", "?") + (f" ({r['message']})" if "message" in r else "")


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------


def _seed(preset: str, chunk: int) -> int:
    return 20_260_000 + 100 * (*PRESETS, "variant").index(preset) + chunk


RUNS = [(p, c, HANDS_PER_PRESET // CHUNKS) for p in PRESETS for c in range(CHUNKS)]
RUNS += [("variant", c, VARIANT_HANDS // 2) for c in range(2)]


def test_generator_is_deterministic_and_valid():
    """Same seed, same hands; every hand passes the hand-score validator."""
    from riichi_env.cli.hand_score import parse_input

    a = generate_cases(7, 300, "mahjongsoul")
    b = generate_cases(7, 300, "mahjongsoul")
    assert [c.inp for c in a] == [c.inp for c in b]
    for case in a:
        parse_input(case.inp)


def test_generator_covers_every_meld_type_flag_and_yakuman():
    """Over-sampling reaches every meld type, situational flag and (per the package) yakuman."""
    cases = generate_cases(11, 2000, "mahjongsoul")
    melds = Counter(m["type"] for c in cases for m in c.inp["melds"])
    assert set(melds) == {"chi", "pon", "daiminkan", "kakan", "ankan"}
    for flag in SITUATIONAL_FLAGS:
        if flag != "open_riichi":  # drawn for the variant rules only
            assert sum(c.inp[flag] for c in cases) >= 10, flag
    assert sum(c.inp["win_type"] == "tsumo" for c in cases) > 500
    assert {c.inp["seat_wind"] for c in cases} == set(WINDS)
    assert sum(c.inp["honba"] > 0 for c in cases) > 100
    assert sum("0" in c.inp["closed"] for c in cases) > 100
    keys = Counter(y["key"] for c in cases for y in mahjong_score(c).get("yaku", []))
    yakuman = {
        "kokushi_musou",
        "kokushi_musou_13_sided",
        "chuuren_poutou",
        "junsei_chuuren_poutou",
        "suuankou",
        "suuankou_tanki",
        "daisangen",
        "shousuushii",
        "daisuushii",
        "ryuuiisou",
        "suukantsu",
        "tsuuiisou",
        "chinroutou",
        "tenhou",
        "chiihou",
    }
    missing = {k for k in yakuman if keys[k] < 5}
    assert not missing, f"yakuman drawn fewer than 5 times: {sorted(missing)}"
    rare = {
        "sankantsu",
        "sanshoku_doukou",
        "honroutou",
        "shousangen",
        "ryanpeikou",
        "junchan",
        "chinitsu",
        "ittsu",
        "sanshoku_doujun",
        "chanta",
        "rinshan_kaihou",
        "chankan",
        "haitei_raoyue",
        "houtei_raoyui",
        "double_riichi",
        "ippatsu",
    }
    missing = {k for k in rare if keys[k] < 10}
    assert not missing, f"rare yaku drawn fewer than 10 times: {sorted(missing)}"


def test_compare_reports_every_difference():
    """The comparison itself: a changed han, fu, yaku, limit or payment is reported."""
    case = _case("234m345s345777p22p", "4p", "ron", riichi=True)
    theirs = mahjong_score(case)
    ours = {k: v for k, v in theirs.items() if not k.startswith("_")}
    assert compare(case, ours, theirs) == []
    for change in (
        {"han": 3},
        {"fu": 30},
        {"payments": {"ron": 2000}},
        {"winner_gain": 1},
        {"limit": "mangan"},
        {"yaku": ours["yaku"][:-1]},
        {"yaku": [*ours["yaku"], {"key": "dora", "han": 1}]},
    ):
        assert compare(case, {**ours, **change}, theirs), change
    assert compare(case, {"valid": False, "error": "no_yaku"}, theirs)


def test_package_reading_predicate():
    """The exclusion fires only when the package kept a reading that pays less than another."""
    best_by_han = {"total": 3900}
    best_by_pay = {"total": 4500}
    theirs = {
        "valid": True,
        "winner_gain": 3900,
        "_readings": [(3, 30, best_by_han), (2, 70, best_by_pay)],
    }
    assert package_reading_not_best_paying(theirs)
    theirs = {
        "valid": True,
        "winner_gain": 4500,
        "_readings": [(3, 30, best_by_han), (2, 70, best_by_pay)],
    }
    assert not package_reading_not_best_paying(theirs)
    ours = {"valid": True, "yakuman_multiplier": 1}
    assert kazoe_reading_ties_yakuman(
        ours, {"valid": True, "limit": "kazoe yakuman", "yakuman_multiplier": 0}
    )
    assert not kazoe_reading_ties_yakuman(
        ours, {"valid": True, "limit": "yakuman", "yakuman_multiplier": 1}
    )


def test_batch_kernel_matches_score_hand():
    """``_score_hands_batch`` (what the benchmark times) gives score_hand's result on every hand."""
    from engine.scoring.hand_score import N_RES, _score_hands_batch, new_work, result_from_arrays
    from engine.scoring.yaku import N_YAKU

    for preset in PRESETS:
        cases = generate_cases(99, 500, preset)
        arrays = kernel_arrays(cases)
        out = np.zeros((len(cases), N_RES), np.int32)
        yaku_out = np.zeros((len(cases), N_YAKU), np.int32)
        rules = MAHJONGSOUL if preset == "mahjongsoul" else TENHOU
        _score_hands_batch(*arrays, rules.to_array(), new_work(), out, yaku_out)
        for i, case in enumerate(cases):
            assert result_from_arrays(out[i], yaku_out[i]).to_dict() == our_score(case), (
                case.describe()
            )


def test_mahjong_adapter_on_worked_examples():
    """The adapter reads the package right on the scoring reference's worked examples."""
    # Closed ron, riichi + tanyao, kanchan on 4p between 3p-5p, concealed 777p: 40 fu, 2,600.
    case = _case("234m345s345777p22p", "4p", "ron", riichi=True)
    r = mahjong_score(case)
    assert (r["han"], r["fu"], r["payments"]) == (2, 40, {"ron": 2600})
    # Open tsumo with a haku pon: 30 fu 1 han, dealer 500, others 300.
    case = _case("234m567s345p22p", "2p", "tsumo", melds=[("pon", [31] * 3)])
    r = mahjong_score(case)
    assert (r["han"], r["fu"]) == (1, 30)
    assert r["payments"] == {"tsumo_dealer": 500, "tsumo_nondealer": 300}
    assert r["winner_gain"] == 1100


def _case(
    closed: str, win: str, win_type: str, melds=(), riichi=False, seat="S", variant=False, **more
) -> Case:
    from engine.tiles import _parse_groups

    parsed = _parse_groups(closed)
    kinds = [t for t, _ in parsed]
    reds = [r for _, r in parsed]
    inp = {
        "closed": closed,
        "win_tile": win,
        "win_type": win_type,
        "seat_wind": seat,
        "round_wind": "E",
        "riichi": riichi,
        "double_riichi": False,
        "ippatsu": False,
        "rinshan": False,
        "chankan": False,
        "haitei": False,
        "houtei": False,
        "tenhou": False,
        "chiihou": False,
        "dora_indicators": [],
        "ura_dora_indicators": [],
        "honba": 0,
        "kyotaku": int(riichi),
        "ruleset": "mahjongsoul",
        "melds": [{"type": m, "tiles": _mpsz(k, [False] * len(k))} for m, k in melds],
        **more,
    }
    return Case(
        "fixed",
        inp,
        kinds,
        reds,
        [(m, k, [False] * len(k)) for m, k in melds],
        _kind(win),
        win.startswith("0"),
        variant=variant,
    )


@pytest.mark.parametrize(("preset", "chunk", "n"), RUNS, ids=[f"{p}-{c}" for p, c, _ in RUNS])
def test_score_hand_matches_mahjong_package(preset: str, chunk: int, n: int):
    """score_hand agrees with the mahjong package on ``n`` random hands of one chunk."""
    cases = generate_cases(_seed(preset, chunk), n, preset)
    failures = []
    excluded = 0
    for case in cases:
        ours, theirs = our_score(case), mahjong_score(case)
        excluded += package_reading_not_best_paying(theirs) or kazoe_reading_ties_yakuman(
            ours, theirs
        )
        diffs = compare(case, ours, theirs)
        if diffs:
            failures.append(f"{case.describe()}\n    " + "\n    ".join(diffs))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:25])
    assert excluded <= len(cases) // 200, f"exclusions fired on {excluded} of {len(cases)} hands"


def test_known_departures_on_real_hands():
    """Both exclusions, each on a hand where the package really departs; payments still match."""
    # VARIANT (no kazoe: 13+ han is sanbaiman): suuankou (yakuman, 8,000 / 16,000) beats the
    # 15-han chinitsu reading (sanbaiman, 6,000 / 12,000) that the package keeps for its han.
    case = _case(
        "44455566677p",
        "5p",
        "tsumo",
        melds=[("ankan", [16] * 4)],
        riichi=True,
        seat="W",
        variant=True,
        dora_indicators=["9s", "7z"],
        ura_dora_indicators=["6p", "3p"],
        kyotaku=3,
    )
    ours, theirs = our_score(case), mahjong_score(case)
    assert package_reading_not_best_paying(theirs)
    assert theirs["payments"] == {"tsumo_dealer": 12000, "tsumo_nondealer": 6000}
    assert ours["payments"] == {"tsumo_dealer": 16000, "tsumo_nondealer": 8000}
    assert [y["key"] for y in ours["yaku"]] == ["suuankou"]
    assert compare(case, ours, theirs) == []
    # Tenhou (single yakuman): suuankou or 14 han of chinitsu & co pay the same; we keep the
    # yakuman, the package the kazoe reading.
    case = _case(
        "22244666777888s",
        "2s",
        "tsumo",
        riichi=True,
        seat="W",
        haitei=True,
        dora_indicators=["1z"],
        ura_dora_indicators=["7s"],
        kyotaku=2,
        ruleset="tenhou",
    )
    ours, theirs = our_score(case), mahjong_score(case)
    assert kazoe_reading_ties_yakuman(ours, theirs)
    assert (theirs["han"], theirs["limit"]) == (14, "kazoe yakuman")
    assert (ours["han"], ours["limit"]) == (13, "yakuman")
    assert ours["payments"] == theirs["payments"]
    assert compare(case, ours, theirs) == []
