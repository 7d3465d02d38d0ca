"""Versioned observation encoders: Numba kernels that write one seat's view into ``float32[R, 34]``.

Every row has 34 columns, one per tile kind (tile34 order 1m..9m 1p..9p 1s..9s E S W N Haku Hatsu
Chun). A *scalar* row holds one number repeated in all 34 columns. Seats are relative to the
observer: ``r = 0`` self, ``1`` shimocha (next to act, on the right), ``2`` toimen, ``3`` kamicha.
All values lie in ``[0, 1]`` except the score rows (``[-2, 2]``).

| encoder | rows | adds |
|---|---|---|
| ``basic_v0`` (default) | 157 | public table and own hand |
| ``rich_v0`` | 163 | shanten, waits, furiten, per-discard shanten/ukeire, tiles seen |
| ``oracle_v0`` | 184 | other hands, live wall, next draws, ura indicators (hidden: training only) |
| ``basic_v1`` | 173 | ``basic_v0`` + open riichi: the open hands and who declared it |
| ``rich_v1`` | 179 | ``rich_v0`` + the same rows; open hands count as seen in rows 161-162 |
| ``basic3_v0`` (three players, default) | 125 | ``basic_v0`` over three seats + the kita count per seat |
| ``rich3_v0`` (three players) | 131 | ``basic3_v0`` + ``rich_v0``'s six rows |
| ``oracle3_v0`` (three players) | 148 | ``rich3_v0`` + the two other hands, live wall, next draws, ura |

**Three players** have encoders of their own, named ``*3_v0`` (``ENCODERS_3P``), rather
than the four-player names with a players-dependent shape: a name always means one layout. The
four-player encoders are unchanged and refused with three-player rules, and the other way round
(``check_encoder(name, players)``; ``encoder_for(None, 3)`` is ``basic3_v0``). Their seats are
``r = 0`` self, ``1`` shimocha, ``2`` kamicha (turn order 0 → 1 → 2): the absent seat 3 has no
rows. They add ``KITA3``, each seat's Norths set aside (nuki dora) / 4; the dora row counts 9m for
an indicator 1m; tiles left are out of 55 live draws; the ukeire row counts 2m-8m as absent. The
shanten rows use the four-player shanten tables (1m may count toward a run with 2m/3m, tiles that
a three-player wall lacks). They do not show open riichi hands (as the v0 encoders).

``ROWS[name]`` lists ``(first row, number of rows, meaning)``; ``docs/environment.md`` prints the
same table. An encoder never changes once released: a new layout gets a new version suffix.
Only ``oracle_v0`` reads hidden information (other seats' concealed tiles, the wall). With the
``open_riichi`` rule an open riichi hand is public: the v1 encoders show it (from its declaration
discard on, without the tile its owner just drew), the v0 encoders never do.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.kernels import (
    _dora_from_indicator,
    _live_left,
    _open_hand,
    _open_hand_shown,
    _seen34,
    _shanten,
    _ukeire,
    _waits,
)
from engine.melds import MELD_ANKAN
from engine.rules import RULE_PLAYERS
from engine.state import (
    DORA_START,
    LIVE_END,
    PHASE_CLAIM,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RIVER_CALLED,
    RIVER_RIICHI,
    RIVER_TSUMOGIRI,
    URA_START,
)

RIVER_SLOTS = 24
"""Discards kept in order per seat; later ones appear only in the river-kinds rows."""

# basic_v0
HAND = 0
HAND_RED = 4
DRAWN = 5
OFFERED = 6
MELDS = 7
ANKAN = 23
RIVER = 27
RIVER_FLAGS = 123
RIVER_KINDS = 135
DORA_INDICATORS = 139
DORA = 140
ROUND_WIND = 141
SEAT_WIND = 142
SCORES = 143
KYOTAKU = 147
HONBA = 148
TILES_LEFT = 149
RIICHI = 150
KYOKU = 154
SEAT = 155
DECISION = 156
N_BASIC = 157
# rich_v0
SHANTEN = 157
WAITS = 158
FURITEN = 159
DISCARD_SHANTEN = 160
DISCARD_UKEIRE = 161
SEEN = 162
N_RICH = 163
# oracle_v0
HIDDEN_HANDS = 163
WALL_KINDS = 175
NEXT_DRAWS = 179
URA_INDICATORS = 183
N_ORACLE = 184
# the open-riichi block of basic_v1 (rows from N_BASIC) and rich_v1 (rows from N_RICH)
OPEN_HANDS = 0
"""Offset of 12 rows: 4(r-1)+k, r=1..3: seat r's open riichi hand, count >= k+1."""
OPEN_RIICHI = 12
"""Offset of 4 scalar rows: 12+r: 1 if seat r declared open riichi."""
N_OPEN = 16
N_BASIC_V1 = N_BASIC + N_OPEN
N_RICH_V1 = N_RICH + N_OPEN
# basic3_v0: three seats, r = 0 self, 1 shimocha, 2 kamicha (seat 3 absent: no rows for it)
HAND3 = 0
HAND_RED3 = 4
DRAWN3 = 5
OFFERED3 = 6
MELDS3 = 7
ANKAN3 = 19
RIVER3 = 22
RIVER_FLAGS3 = 94
RIVER_KINDS3 = 103
DORA_INDICATORS3 = 106
DORA3 = 107
ROUND_WIND3 = 108
SEAT_WIND3 = 109
SCORES3 = 110
KYOTAKU3 = 113
HONBA3 = 114
TILES_LEFT3 = 115
RIICHI3 = 116
KITA3 = 119
KYOKU3 = 122
SEAT3 = 123
DECISION3 = 124
N_BASIC3 = 125
# rich3_v0: the six rich rows (rich_v0's meanings) from N_BASIC3
N_RICH3 = N_BASIC3 + N_RICH - N_BASIC
# oracle3_v0
HIDDEN_HANDS3 = N_RICH3
WALL_KINDS3 = HIDDEN_HANDS3 + 8
NEXT_DRAWS3 = WALL_KINDS3 + 4
URA_INDICATORS3 = NEXT_DRAWS3 + 4
N_ORACLE3 = URA_INDICATORS3 + 1
LIVE_DRAWS3 = 55
"""Live-wall draws of a three-player hand (``TILES_LEFT3``'s scale)."""

_BASIC_ROWS = [
    (HAND, 4, "own concealed tiles (drawn tile included): row k = 1 where the count is >= k+1"),
    (HAND_RED, 1, "own red fives: at 5m/5p/5s, red copies held / 4"),
    (DRAWN, 1, "the tile just drawn by self (one-hot), on own turn"),
    (OFFERED, 1, "the tile self is asked to claim (discard or kan tile), one-hot"),
    (MELDS, 16, "row 7+4r+k: seat r's called tiles (all melds), count >= k+1"),
    (ANKAN, 4, "row 23+r: kinds seat r has as a closed kan"),
    (RIVER, 96, "row 27+24r+i: seat r's i-th discard (one-hot), i < 24"),
    (
        RIVER_FLAGS,
        12,
        "row 123+3r+f, column i: flag f of seat r's i-th discard "
        "(f=0 tsumogiri, f=1 riichi declaration, f=2 called by another seat)",
    ),
    (RIVER_KINDS, 4, "row 135+r: seat r's discards per kind, count / 4 (called ones included)"),
    (DORA_INDICATORS, 1, "revealed dora indicators per kind, count / 4"),
    (DORA, 1, "dora per kind (indicators pointing at it) / 4"),
    (ROUND_WIND, 1, "round wind, one-hot at E/S/W/N"),
    (SEAT_WIND, 1, "own seat wind, one-hot at E/S/W/N"),
    (SCORES, 4, "row 143+r, scalar: seat r's points / 100,000, clipped to [-2, 2]"),
    (KYOTAKU, 1, "scalar: riichi sticks on the table / 10, clipped to 1"),
    (HONBA, 1, "scalar: honba / 10, clipped to 1"),
    (TILES_LEFT, 1, "scalar: live-wall tiles left / 70"),
    (RIICHI, 4, "row 150+r, scalar: 1 if seat r has declared riichi"),
    (KYOKU, 1, "one-hot at column 4 x wind + hand (E1 = 0 ... S4 = 7, W1 = 8 ...)"),
    (SEAT, 1, "own absolute seat (0 = starting dealer), one-hot at columns 0-3"),
    (
        DECISION,
        1,
        "own pending decision, one-hot at column 0 turn, 1 riichi discard, 2 claim",
    ),
]
_RICH_ROWS = [
    (SHANTEN, 1, "scalar: (shanten + 1) / 7 of the own concealed part, clipped (0 = complete)"),
    (WAITS, 1, "kinds that complete the own 3n+1 hand (tenpai waits)"),
    (FURITEN, 1, "scalar: 1 if the own 3n+1 hand is tenpai and furiten (any kind)"),
    (
        DISCARD_SHANTEN,
        1,
        "3n+2 hands: at each held kind, (shanten after discarding it + 1) / 7, clipped",
    ),
    (
        DISCARD_UKEIRE,
        1,
        "3n+2 hands: at each held kind whose discard keeps the lowest shanten, ukeire after "
        "discarding it / 80, clipped (0 at the other kinds)",
    ),
    (SEEN, 1, "tiles the seat can see per kind (own hand, rivers, melds, indicators) / 4"),
]
_ORACLE_ROWS = [
    (HIDDEN_HANDS, 12, "row 163+4(r-1)+k, r=1..3: seat r's concealed tiles, count >= k+1"),
    (WALL_KINDS, 4, "row 175+k: tiles left in the live wall per kind, count >= k+1"),
    (NEXT_DRAWS, 4, "row 179+k: the k-th next live-wall draw (one-hot)"),
    (URA_INDICATORS, 1, "ura indicators under the revealed dora indicators, count / 4"),
]


_BASIC3_ROWS = [
    (HAND3, 4, "own concealed tiles (drawn tile included): row k = 1 where the count is >= k+1"),
    (HAND_RED3, 1, "own red fives: at 5p/5s, red copies held / 4"),
    (DRAWN3, 1, "the tile just drawn by self (one-hot), on own turn"),
    (OFFERED3, 1, "the tile self is asked to claim (discard, kan or kita tile), one-hot"),
    (MELDS3, 12, "row 7+4r+k: seat r's called tiles (all melds), count >= k+1"),
    (ANKAN3, 3, "row 19+r: kinds seat r has as a closed kan"),
    (RIVER3, 72, "row 22+24r+i: seat r's i-th discard (one-hot), i < 24"),
    (
        RIVER_FLAGS3,
        9,
        "row 94+3r+f, column i: flag f of seat r's i-th discard "
        "(f=0 tsumogiri, f=1 riichi declaration, f=2 called by another seat)",
    ),
    (RIVER_KINDS3, 3, "row 103+r: seat r's discards per kind, count / 4 (called ones included)"),
    (DORA_INDICATORS3, 1, "revealed dora indicators per kind, count / 4"),
    (DORA3, 1, "dora per kind (indicators pointing at it; 1m indicates 9m) / 4"),
    (ROUND_WIND3, 1, "round wind, one-hot at E/S/W/N"),
    (SEAT_WIND3, 1, "own seat wind, one-hot at E/S/W"),
    (SCORES3, 3, "row 110+r, scalar: seat r's points / 100,000, clipped to [-2, 2]"),
    (KYOTAKU3, 1, "scalar: riichi sticks on the table / 10, clipped to 1"),
    (HONBA3, 1, "scalar: honba / 10, clipped to 1"),
    (TILES_LEFT3, 1, "scalar: live-wall tiles left / 55"),
    (RIICHI3, 3, "row 116+r, scalar: 1 if seat r has declared riichi"),
    (KITA3, 3, "row 119+r, scalar: Norths seat r has set aside (kita, nuki dora) / 4"),
    (KYOKU3, 1, "one-hot at column 4 x wind + hand (E1 = 0, E2 = 1, E3 = 2, S1 = 4 ...)"),
    (SEAT3, 1, "own absolute seat (0 = starting dealer), one-hot at columns 0-2"),
    (
        DECISION3,
        1,
        "own pending decision, one-hot at column 0 turn, 1 riichi discard, 2 claim",
    ),
]
_ORACLE3_ROWS = [
    (
        HIDDEN_HANDS3,
        8,
        f"row {HIDDEN_HANDS3}+4(r-1)+k, r=1..2: seat r's concealed tiles, count >= k+1",
    ),
    (WALL_KINDS3, 4, f"row {WALL_KINDS3}+k: tiles left in the live wall per kind, count >= k+1"),
    (NEXT_DRAWS3, 4, f"row {NEXT_DRAWS3}+k: the k-th next live-wall draw (one-hot)"),
    (URA_INDICATORS3, 1, "ura indicators under the revealed dora indicators, count / 4"),
]


def _rich_rows_at(base: int) -> list[tuple[int, int, str]]:
    """``rich_v0``'s six rows moved to start at row ``base``."""
    return [(first - N_BASIC + base, count, text) for first, count, text in _RICH_ROWS]


def _open_rows(base: int) -> list[tuple[int, int, str]]:
    return [
        (
            base + OPEN_HANDS,
            12,
            f"row {base}+4(r-1)+k, r=1..3: seat r's concealed tiles while it is in open riichi "
            "(from its declaration discard on; not the tile it just drew), count >= k+1",
        ),
        (
            base + OPEN_RIICHI,
            4,
            f"row {base + OPEN_RIICHI}+r, scalar: 1 if seat r declared open riichi",
        ),
    ]


_RICH_V1_ROWS = [
    row
    if row[0] < DISCARD_UKEIRE
    else (row[0], row[1], row[2] + " (open riichi hands count as seen)")
    for row in _RICH_ROWS
]

ENCODERS = ("basic_v0", "rich_v0", "oracle_v0", "basic_v1", "rich_v1")
"""Four-player encoder names; ``riichi_env.env(encoder=...)`` takes one of them."""
ENCODERS_3P = ("basic3_v0", "rich3_v0", "oracle3_v0")
"""Three-player encoder names (seats 0-2; the kita rows): the envs take them with three-player
rules."""
ALL_ENCODERS = ENCODERS + ENCODERS_3P
"""Every encoder, in id order (``ENCODER_IDS``)."""
DEFAULT_ENCODER = "basic_v0"
DEFAULT_ENCODER_3P = "basic3_v0"
ENCODER_IDS = {name: i for i, name in enumerate(ALL_ENCODERS)}
_ORACLE_V0, _ORACLE3_V0 = ENCODER_IDS["oracle_v0"], ENCODER_IDS["oracle3_v0"]
N_ROWS = {
    "basic_v0": N_BASIC,
    "rich_v0": N_RICH,
    "oracle_v0": N_ORACLE,
    "basic_v1": N_BASIC_V1,
    "rich_v1": N_RICH_V1,
    "basic3_v0": N_BASIC3,
    "rich3_v0": N_RICH3,
    "oracle3_v0": N_ORACLE3,
}
ROWS = {
    "basic_v0": _BASIC_ROWS,
    "rich_v0": _BASIC_ROWS + _RICH_ROWS,
    "oracle_v0": _BASIC_ROWS + _RICH_ROWS + _ORACLE_ROWS,
    "basic_v1": _BASIC_ROWS + _open_rows(N_BASIC),
    "rich_v1": _BASIC_ROWS + _RICH_V1_ROWS + _open_rows(N_RICH),
    "basic3_v0": _BASIC3_ROWS,
    "rich3_v0": _BASIC3_ROWS + _rich_rows_at(N_BASIC3),
    "oracle3_v0": _BASIC3_ROWS + _rich_rows_at(N_BASIC3) + _ORACLE3_ROWS,
}
"""Encoder name → ``(first row, rows, meaning)`` of each block, in order."""
HIDDEN_INFORMATION = {name: name.startswith("oracle") for name in ALL_ENCODERS}
OPEN_HAND_ENCODERS = ("basic_v1", "rich_v1")
"""Encoders that show open riichi hands (public under the ``open_riichi`` rule)."""


def check_encoder(name: object, players: int = 4) -> str:
    """An encoder name for ``players`` (``ENCODERS``, or ``ENCODERS_3P`` for 3); ``ValueError``
    listing them otherwise."""
    names = ENCODERS_3P if players == 3 else ENCODERS
    if not isinstance(name, str) or name not in names:
        other = ENCODERS if players == 3 else ENCODERS_3P
        kind = "three" if players == 3 else "four"
        hint = (
            f" ({name!r} is for {'four' if players == 3 else 'three'}-player rules)"
            if isinstance(name, str) and name in other
            else ""
        )
        raise ValueError(
            f"unknown encoder {name!r} for {kind}-player rules{hint}; choose from {list(names)}"
        )
    return name


def encoder_for(name: str | None, players: int) -> str:
    """The encoder an env with ``players`` seats uses: ``name`` checked (``check_encoder``), or
    the default of that many players (``basic_v0``, ``basic3_v0``) for ``None``."""
    if name is None:
        return DEFAULT_ENCODER_3P if players == 3 else DEFAULT_ENCODER
    return check_encoder(name, players)


def bounds(name: str) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` arrays of shape ``(rows, 34)`` for the encoder's ``Box``."""
    if name not in N_ROWS:
        check_encoder(name)
    low = np.zeros((N_ROWS[name], 34), dtype=np.float32)
    high = np.ones((N_ROWS[name], 34), dtype=np.float32)
    scores, n = (SCORES3, 3) if name in ENCODERS_3P else (SCORES, 4)
    low[scores : scores + n] = -2.0
    high[scores : scores + n] = 2.0
    return low, high


def table_markdown(name: str, start: int = 0) -> str:
    """The encoder's row table as Markdown (rows, meaning), from row ``start`` on."""
    lines = ["| rows | meaning |", "|---|---|"]
    for first, count, meaning in ROWS[name]:
        if first < start:
            continue
        rows = str(first) if count == 1 else f"{first}-{first + count - 1}"
        lines.append(f"| {rows} | {meaning} |")
    return "\n".join(lines)


@njit(inline="always")
def _fill(out, row, value):
    for c in range(34):
        out[row, c] = value


@njit
def _clip(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@njit
def _encode_basic(st, t, seat, out):
    """Rows 0..156 (``basic_v0``): only what ``seat`` may see."""
    rec = st[t]
    out[:N_BASIC, :] = 0.0
    rules = rec.rules[:]
    hand = rec.closed34[seat]
    for k in range(34):
        c = hand[k]
        for j in range(4):
            if c > j:
                out[HAND + j, k] = 1.0
    for suit in range(3):
        five = 9 * suit + 4
        n_red = rules[suit]
        held = 0
        for j in range(n_red):
            held += rec.closed[seat, five * 4 + j]
        out[HAND_RED, five] = held / 4.0
    phase = rec.phase
    my_decision = rec.actor == seat
    own_turn = phase <= PHASE_RIICHI_DISCARD and rec.turn == seat
    if own_turn and rec.drawn >= 0:
        out[DRAWN, rec.drawn // 4] = 1.0
    if my_decision and phase == PHASE_CLAIM and rec.claim_tile >= 0:
        out[OFFERED, rec.claim_tile // 4] = 1.0
    for r in range(4):
        s = (seat + r) % 4
        melds = MELDS + 4 * r
        for m in range(rec.n_melds[s]):
            for j in range(4):
                tile = rec.meld_tiles[s, m, j]
                if tile >= 0:  # the next unset row of the kind's count (no scratch array)
                    k = tile // 4
                    c = 0
                    while c < 3 and out[melds + c, k] != 0.0:
                        c += 1
                    out[melds + c, k] = 1.0
            if rec.meld_type[s, m] == MELD_ANKAN:
                out[ANKAN + r, rec.meld_tile34[s, m]] = 1.0
        n_river = rec.n_river[s]
        for i in range(n_river):
            k = rec.river[s, i] // 4
            out[RIVER_KINDS + r, k] += 0.25  # at most four copies: never above 1
            if i < RIVER_SLOTS:
                out[RIVER + RIVER_SLOTS * r + i, k] = 1.0
                flags = rec.river_flags[s, i]
                if flags & RIVER_TSUMOGIRI:
                    out[RIVER_FLAGS + 3 * r, i] = 1.0
                if flags & RIVER_RIICHI:
                    out[RIVER_FLAGS + 3 * r + 1, i] = 1.0
                if flags & RIVER_CALLED:
                    out[RIVER_FLAGS + 3 * r + 2, i] = 1.0
        _fill(out, SCORES + r, _clip(rec.points[s] / 100000.0, -2.0, 2.0))
        if rec.riichi[s] > 0:
            _fill(out, RIICHI + r, 1.0)
    for d in range(rec.n_dora):
        ind = rec.wall[DORA_START + d] // 4
        out[DORA_INDICATORS, ind] += 0.25
        out[DORA, _dora_from_indicator(ind)] += 0.25
    kyoku = rec.kyoku
    dealer = kyoku % 4
    out[ROUND_WIND, 27 + (kyoku // 4) % 4] = 1.0
    out[SEAT_WIND, 27 + (seat - dealer) % 4] = 1.0
    _fill(out, KYOTAKU, _clip(rec.kyotaku / 10.0, 0.0, 1.0))
    _fill(out, HONBA, _clip(rec.honba / 10.0, 0.0, 1.0))
    left = LIVE_END - rec.n_kans - rec.wall_pos
    _fill(out, TILES_LEFT, _clip(left / 70.0, 0.0, 1.0))
    out[KYOKU, min(kyoku, 33)] = 1.0
    out[SEAT, seat] = 1.0
    if my_decision:
        if phase == PHASE_TURN:
            out[DECISION, 0] = 1.0
        elif phase == PHASE_RIICHI_DISCARD:
            out[DECISION, 1] = 1.0
        elif phase == PHASE_CLAIM:
            out[DECISION, 2] = 1.0


@njit
def _encode_open(st, t, seat, base, out):
    """The open-riichi block (``basic_v1`` at ``N_BASIC``, ``rich_v1`` at ``N_RICH``)."""
    rec = st[t]
    out[base : base + N_OPEN, :] = 0.0
    cnt = np.zeros(34, dtype=np.int32)
    for r in range(4):
        s = (seat + r) % 4
        if rec.riichi[s] > 0 and rec.open_riichi[s]:
            _fill(out, base + OPEN_RIICHI + r, 1.0)
        if r == 0 or not _open_hand_shown(st, t, s):
            continue
        _open_hand(st, t, s, cnt)
        for k in range(34):
            for j in range(4):
                if cnt[k] > j:
                    out[base + OPEN_HANDS + 4 * (r - 1) + j, k] = 1.0


@njit(inline="always")
def _encode_rich(st, t, seat, suit_table, honor_table, open_seen, out):
    """Rows 157..162 (``rich_v0`` on top of ``basic_v0``): derived features of the own hand.

    With ``open_seen`` (``rich_v1``) the open riichi hands of the other seats count as seen.
    """
    _encode_rich_at(st, t, seat, suit_table, honor_table, open_seen, np.int64(N_BASIC), out)


@njit
def _encode_rich_at(st, t, seat, suit_table, honor_table, open_seen, base, out):
    """The six rich rows from row ``base`` (157 in ``rich_v0``, 125 in ``rich3_v0``): derived
    features of the own hand.

    With ``open_seen`` (``rich_v1``) the open riichi hands of the other seats count as seen. With
    three players the kinds 2m-8m (not in the wall) count as seen for the ukeire.
    """
    rec = st[t]
    out[base : base + N_RICH - N_BASIC, :] = 0.0
    shift = base - N_BASIC  # the rows below are named by their rich_v0 index
    three = rec.rules[RULE_PLAYERS] == 3
    hand = rec.closed34[seat].copy()
    n = 0
    for k in range(34):
        n += hand[k]
    if n > 0:
        s = _shanten(hand, suit_table, honor_table)
        _fill(out, SHANTEN + shift, _clip((s + 1) / 7.0, 0.0, 1.0))
    seen = np.zeros(34, dtype=np.int32)
    _seen34(st, t, np.int64(seat), np.bool_(open_seen), seen)  # one signature
    visible = np.zeros(34, dtype=np.uint8)
    for k in range(34):
        v = seen[k]
        if v > 4 - hand[k]:
            v = 4 - hand[k]
        if three and 1 <= k <= 7:
            v = 4 - hand[k]  # no 2m-8m in a three-player wall
        visible[k] = v
        out[SEEN + shift, k] = _clip((seen[k] + hand[k]) / 4.0, 0.0, 1.0)
    if n % 3 == 1:
        waits = np.zeros(34, dtype=np.uint8)
        if _waits(hand, suit_table, honor_table, waits) > 0:
            furiten = rec.furiten_temp[seat] != 0 or rec.furiten_riichi[seat] != 0
            for k in range(34):
                if waits[k]:
                    out[WAITS + shift, k] = 1.0
                    if rec.discarded34[seat, k]:
                        furiten = True
            if furiten:
                _fill(out, FURITEN + shift, 1.0)
    elif n % 3 == 2:
        after = np.full(34, 99, dtype=np.int32)
        best = 99
        for k in range(34):
            if hand[k] == 0:
                continue
            hand[k] -= 1
            after[k] = _shanten(hand, suit_table, honor_table)
            hand[k] += 1
            best = min(best, after[k])
            out[DISCARD_SHANTEN + shift, k] = _clip((after[k] + 1) / 7.0, 0.0, 1.0)
        for k in range(34):
            if after[k] != best:
                continue
            hand[k] -= 1
            visible[k] += 1
            u = _ukeire(hand, visible, suit_table, honor_table)
            hand[k] += 1
            visible[k] -= 1
            out[DISCARD_UKEIRE + shift, k] = _clip(u / 80.0, 0.0, 1.0)


@njit
def _encode_oracle(st, t, seat, out):
    """Rows 163..183 (``oracle_v0``): the hidden information."""
    rec = st[t]
    out[HIDDEN_HANDS:WALL_KINDS, :] = 0.0
    for r in range(1, 4):
        s = (seat + r) % 4
        for k in range(34):
            c = rec.closed34[s, k]
            for j in range(4):
                if c > j:
                    out[HIDDEN_HANDS + 4 * (r - 1) + j, k] = 1.0
    _oracle_wall_rows(st, t, np.zeros(0, dtype=np.uint8), out)


@njit
def _oracle_wall_rows(st, t, known, out):
    """Rows 175..183 of ``oracle_v0``: the live wall's kinds, the next four draws and the ura
    indicators. ``known`` (uint8, one entry per wall place) limits them to the places it marks,
    as a game record reveals them (``riichi_env.dataset``); empty, the whole wall counts."""
    rec = st[t]
    out[WALL_KINDS:N_ORACLE, :] = 0.0
    whole = known.shape[0] == 0
    end = LIVE_END - rec.n_kans
    cnt = np.zeros(34, dtype=np.int32)
    for i in range(rec.wall_pos, end):
        if whole or known[i]:
            cnt[rec.wall[i] // 4] += 1
    for k in range(34):
        for j in range(4):
            if cnt[k] > j:
                out[WALL_KINDS + j, k] = 1.0
    for j in range(4):
        i = rec.wall_pos + j
        if i < end and (whole or known[i]):
            out[NEXT_DRAWS + j, rec.wall[i] // 4] = 1.0
    for d in range(rec.n_dora):
        if whole or known[URA_START + d]:
            out[URA_INDICATORS, rec.wall[URA_START + d] // 4] += 0.25


@njit
def _encode_basic3(st, t, seat, out):
    """Rows 0..124 (``basic3_v0``): only what ``seat`` may see, three seats (seat 3 absent)."""
    rec = st[t]
    out[:N_BASIC3, :] = 0.0
    rules = rec.rules[:]
    hand = rec.closed34[seat]
    for k in range(34):
        c = hand[k]
        for j in range(4):
            if c > j:
                out[HAND3 + j, k] = 1.0
    for suit in range(3):
        five = 9 * suit + 4
        held = 0
        for j in range(rules[suit]):
            held += rec.closed[seat, five * 4 + j]
        out[HAND_RED3, five] = held / 4.0
    phase = rec.phase
    my_decision = rec.actor == seat
    own_turn = phase <= PHASE_RIICHI_DISCARD and rec.turn == seat
    if own_turn and rec.drawn >= 0:
        out[DRAWN3, rec.drawn // 4] = 1.0
    if my_decision and phase == PHASE_CLAIM and rec.claim_tile >= 0:
        out[OFFERED3, rec.claim_tile // 4] = 1.0
    for r in range(3):
        s = (seat + r) % 3
        melds = MELDS3 + 4 * r
        for m in range(rec.n_melds[s]):
            for j in range(4):
                tile = rec.meld_tiles[s, m, j]
                if tile >= 0:
                    k = tile // 4
                    c = 0
                    while c < 3 and out[melds + c, k] != 0.0:
                        c += 1
                    out[melds + c, k] = 1.0
            if rec.meld_type[s, m] == MELD_ANKAN:
                out[ANKAN3 + r, rec.meld_tile34[s, m]] = 1.0
        for i in range(rec.n_river[s]):
            k = rec.river[s, i] // 4
            out[RIVER_KINDS3 + r, k] += 0.25
            if i < RIVER_SLOTS:
                out[RIVER3 + RIVER_SLOTS * r + i, k] = 1.0
                flags = rec.river_flags[s, i]
                if flags & RIVER_TSUMOGIRI:
                    out[RIVER_FLAGS3 + 3 * r, i] = 1.0
                if flags & RIVER_RIICHI:
                    out[RIVER_FLAGS3 + 3 * r + 1, i] = 1.0
                if flags & RIVER_CALLED:
                    out[RIVER_FLAGS3 + 3 * r + 2, i] = 1.0
        _fill(out, SCORES3 + r, _clip(rec.points[s] / 100000.0, -2.0, 2.0))
        if rec.riichi[s] > 0:
            _fill(out, RIICHI3 + r, 1.0)
        _fill(out, KITA3 + r, _clip(rec.n_kita[s] / 4.0, 0.0, 1.0))
    for d in range(rec.n_dora):
        ind = rec.wall[DORA_START + d] // 4
        out[DORA_INDICATORS3, ind] += 0.25
        out[DORA3, 8 if ind == 0 else _dora_from_indicator(ind)] += 0.25  # 1m indicates 9m
    kyoku = rec.kyoku
    dealer = kyoku % 4
    out[ROUND_WIND3, 27 + (kyoku // 4) % 4] = 1.0
    out[SEAT_WIND3, 27 + (seat - dealer) % 3] = 1.0
    _fill(out, KYOTAKU3, _clip(rec.kyotaku / 10.0, 0.0, 1.0))
    _fill(out, HONBA3, _clip(rec.honba / 10.0, 0.0, 1.0))
    _fill(out, TILES_LEFT3, _clip(_live_left(st, t) / float(LIVE_DRAWS3), 0.0, 1.0))
    out[KYOKU3, min(kyoku, 33)] = 1.0
    out[SEAT3, seat] = 1.0
    if my_decision:
        if phase == PHASE_TURN:
            out[DECISION3, 0] = 1.0
        elif phase == PHASE_RIICHI_DISCARD:
            out[DECISION3, 1] = 1.0
        elif phase == PHASE_CLAIM:
            out[DECISION3, 2] = 1.0


@njit
def _encode_oracle3(st, t, seat, out):
    """Rows 131..147 (``oracle3_v0``): the other two hands, the live wall, the ura indicators."""
    rec = st[t]
    out[HIDDEN_HANDS3:N_ORACLE3, :] = 0.0
    for r in range(1, 3):
        s = (seat + r) % 3
        for k in range(34):
            c = rec.closed34[s, k]
            for j in range(4):
                if c > j:
                    out[HIDDEN_HANDS3 + 4 * (r - 1) + j, k] = 1.0
    _oracle3_wall_rows(st, t, np.zeros(0, dtype=np.uint8), out)


@njit
def _oracle3_wall_rows(st, t, known, out):
    """Rows 139..147 of ``oracle3_v0``: the live wall's kinds, the next four draws and the ura
    indicators; ``known`` as in :func:`_oracle_wall_rows` (empty: the whole wall)."""
    rec = st[t]
    out[WALL_KINDS3:N_ORACLE3, :] = 0.0
    whole = known.shape[0] == 0
    end = rec.wall_pos + _live_left(st, t)
    cnt = np.zeros(34, dtype=np.int32)
    for i in range(rec.wall_pos, end):
        if whole or known[i]:
            cnt[rec.wall[i] // 4] += 1
    for k in range(34):
        for j in range(4):
            if cnt[k] > j:
                out[WALL_KINDS3 + j, k] = 1.0
    for j in range(4):
        i = rec.wall_pos + j
        if i < end and (whole or known[i]):
            out[NEXT_DRAWS3 + j, rec.wall[i] // 4] = 1.0
    for d in range(rec.n_dora):
        if whole or known[URA_START + d]:
            out[URA_INDICATORS3, rec.wall[URA_START + d] // 4] += 0.25


@njit(inline="always")
def _known_wall_rows(st, t, encoder, known, out):
    """The wall rows of oracle encoder ``encoder`` (``oracle_v0`` or ``oracle3_v0``; any other
    id: nothing) limited to the wall places ``known`` marks (a record's revealed tiles)."""
    if encoder == _ORACLE_V0:
        _oracle_wall_rows(st, t, known, out)
    elif encoder == _ORACLE3_V0:
        _oracle3_wall_rows(st, t, known, out)


@njit(inline="always")
def _encode_basic_v0(st, t, seat, suit_table, honor_table, out):
    """``basic_v0``: the public table and the own hand."""
    _encode_basic(st, t, seat, out)


@njit(inline="always")
def _encode_rich_v0(st, t, seat, suit_table, honor_table, out):
    """``rich_v0``: ``basic_v0`` and the shanten, wait and seen-tile rows."""
    _encode_basic(st, t, seat, out)
    _encode_rich(st, t, seat, suit_table, honor_table, np.bool_(False), out)


@njit(inline="always")
def _encode_oracle_v0(st, t, seat, suit_table, honor_table, out):
    """``oracle_v0``: ``rich_v0`` and the hidden rows (other hands, the wall)."""
    _encode_basic(st, t, seat, out)
    _encode_rich(st, t, seat, suit_table, honor_table, np.bool_(False), out)
    _encode_oracle(st, t, seat, out)


@njit(inline="always")
def _encode_basic_v1(st, t, seat, suit_table, honor_table, out):
    """``basic_v1``: ``basic_v0`` and the open riichi hands."""
    _encode_basic(st, t, seat, out)
    _encode_open(st, t, seat, np.int64(N_BASIC), out)


@njit(inline="always")
def _encode_rich_v1(st, t, seat, suit_table, honor_table, out):
    """``rich_v1``: ``rich_v0`` (open hands count as seen) and the open riichi hands."""
    _encode_basic(st, t, seat, out)
    _encode_rich(st, t, seat, suit_table, honor_table, np.bool_(True), out)
    _encode_open(st, t, seat, np.int64(N_RICH), out)


@njit(inline="always")
def _encode_basic3_v0(st, t, seat, suit_table, honor_table, out):
    """``basic3_v0``: the public three-player table and the own hand."""
    _encode_basic3(st, t, seat, out)


@njit(inline="always")
def _encode_rich3_v0(st, t, seat, suit_table, honor_table, out):
    """``rich3_v0``: ``basic3_v0`` and the shanten, wait and seen-tile rows."""
    _encode_basic3(st, t, seat, out)
    _encode_rich_at(st, t, seat, suit_table, honor_table, np.bool_(False), np.int64(N_BASIC3), out)


@njit(inline="always")
def _encode_oracle3_v0(st, t, seat, suit_table, honor_table, out):
    """``oracle3_v0``: ``rich3_v0`` and the hidden rows (the other hands, the wall)."""
    _encode_basic3(st, t, seat, out)
    _encode_rich_at(st, t, seat, suit_table, honor_table, np.bool_(False), np.int64(N_BASIC3), out)
    _encode_oracle3(st, t, seat, out)


ENCODE_KERNELS = (
    _encode_basic_v0,
    _encode_rich_v0,
    _encode_oracle_v0,
    _encode_basic_v1,
    _encode_rich_v1,
)
"""One kernel per four-player encoder, in ``ENCODERS`` order, all called as ``(st, t, seat,
suit_table, honor_table, out)``. The env calls its own encoder's kernel, so it compiles that
encoder alone; ``_encode`` (the vector env, the learner view) inlines them all and picks one by id."""
ENCODE_KERNELS_3P = (_encode_basic3_v0, _encode_rich3_v0, _encode_oracle3_v0)
"""The same for ``ENCODERS_3P``."""
KERNELS = dict(zip(ALL_ENCODERS, ENCODE_KERNELS + ENCODE_KERNELS_3P, strict=True))
"""Encoder name → its kernel."""


@njit
def _encode(st, t, seat, encoder, suit_table, honor_table, out):
    """Encoder ``ALL_ENCODERS[encoder]`` of ``seat`` at table ``t`` into ``out`` (float32[rows, 34])."""
    if encoder == 0:
        _encode_basic_v0(st, t, seat, suit_table, honor_table, out)
    elif encoder == 1:
        _encode_rich_v0(st, t, seat, suit_table, honor_table, out)
    elif encoder == 2:
        _encode_oracle_v0(st, t, seat, suit_table, honor_table, out)
    elif encoder == 3:
        _encode_basic_v1(st, t, seat, suit_table, honor_table, out)
    elif encoder == 4:
        _encode_rich_v1(st, t, seat, suit_table, honor_table, out)
    elif encoder == 5:
        _encode_basic3_v0(st, t, seat, suit_table, honor_table, out)
    elif encoder == 6:
        _encode_rich3_v0(st, t, seat, suit_table, honor_table, out)
    else:
        _encode_oracle3_v0(st, t, seat, suit_table, honor_table, out)
