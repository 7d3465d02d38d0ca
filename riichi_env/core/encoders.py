"""Versioned observation encoders: Numba kernels that write one seat's view into ``float32[R, 34]``,
or its bytes into ``uint8[R, 34]``.

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

``TABLE`` declares every encoder (name, id, players, feature families); everything else derives
from it: the names, ids, row counts, ``ROWS``, ``bounds`` and the dispatch of ``_encode``. The
kernels are one per feature family, each taking the player count: the public rows
(``_public_rows``), the rich rows (``_encode_rich_at``), the hidden rows (``_oracle_rows``) and
the open-riichi rows (``_encode_open``). Adding an encoder: a ``TABLE`` entry (the next free id;
ids are never reused nor renumbered) and its own kernel ``_encode_<name>`` (the families it lists,
what the env calls), its table in ``docs/environment.md`` and its tests.

**Bytes** (``obs_dtype=np.uint8``, the dataset's ``dtype="uint8"``): the same kernels, compiled for
a ``uint8`` output, store each value's byte, ``round(255 * (x - low) / (high - low))`` with the
row's ``bounds`` (``_unit``, ``_score``: exactly the bytes of the float32 observation, clamped to
0..255 and rounded in float32, that the tests' reference computes), with no float row in
between. A float32 output compiles to the float code alone (``_bytes`` is a constant of the
output's type). The count / 4 rows (river kinds, dora, ura)
count tiles in the bytes and store each count's byte once counted (``_quarter``).

``ROWS[name]`` lists ``(first row, number of rows, meaning)``; ``docs/environment.md`` prints the
same table. An encoder never changes once released: a new layout gets a new version suffix.
Only ``oracle_v0`` reads hidden information (other seats' concealed tiles, the wall). With the
``open_riichi`` rule an open riichi hand is public: the v1 encoders show it (from its declaration
discard on, without the tile its owner just drew), the v0 encoders never do.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

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
    PHASE_CLAIM,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RIVER_CALLED,
    RIVER_RIICHI,
    RIVER_TSUMOGIRI,
    URA_START,
)


class Encoder(NamedTuple):
    """One encoder: its feature families, in row order public, rich, oracle, open."""

    name: str
    id: int
    """What the runner's options hold (``O_ENCODER``): fixed once given, never reused."""
    players: int
    rich: bool = False
    """The six derived rows of the own hand (shanten, waits, furiten, discards, seen tiles)."""
    oracle: bool = False
    """The hidden rows: the other hands, the live wall, the next draws, the ura indicators."""
    open_hands: bool = False
    """The open-riichi rows (four players); open hands then count as seen in the rich rows."""


TABLE = (
    Encoder("basic_v0", 0, 4),
    Encoder("rich_v0", 1, 4, rich=True),
    Encoder("oracle_v0", 2, 4, rich=True, oracle=True),
    Encoder("basic_v1", 3, 4, open_hands=True),
    Encoder("rich_v1", 4, 4, rich=True, open_hands=True),
    Encoder("basic3_v0", 5, 3),
    Encoder("rich3_v0", 6, 3, rich=True),
    Encoder("oracle3_v0", 7, 3, rich=True, oracle=True),
)
"""Every encoder. The env takes the names; the runner's options and ``_encode`` take the ids."""

RIVER_SLOTS = 24
"""Discards kept in order per seat; later ones appear only in the river-kinds rows."""
LIVE_DRAWS4 = 70
"""Live-wall draws of a four-player hand (``TILES_LEFT``'s scale)."""
LIVE_DRAWS3 = 55
"""Live-wall draws of a three-player hand (``TILES_LEFT3``'s scale)."""


def _public_layout(players: int) -> tuple[int, ...]:
    """First row of each public block for ``players`` seats (``_PUBLIC_BLOCKS`` order), then
    the number of public rows. Seat blocks have one entry per seat; only three players have kita
    rows."""
    n = players
    counts = (4, 1, 1, 1, 4 * n, n, RIVER_SLOTS * n, 3 * n, n, 1, 1, 1, 1, n, 1, 1, 1, n)
    counts += (n if n == 3 else 0, 1, 1, 1)
    firsts = []
    at = 0
    for c in counts:
        firsts.append(at)
        at += c
    return (*firsts, at)


# basic_v0 (seats r = 0..3) and basic3_v0 (r = 0..2), same blocks (kita rows: three players only)
_PUBLIC4 = _public_layout(4)
_PUBLIC3 = _public_layout(3)
(HAND, HAND_RED, DRAWN, OFFERED, MELDS, ANKAN, RIVER, RIVER_FLAGS, RIVER_KINDS, DORA_INDICATORS,
 DORA, ROUND_WIND, SEAT_WIND, SCORES, KYOTAKU, HONBA, TILES_LEFT, RIICHI, _NO_KITA, KYOKU, SEAT,
 DECISION, N_BASIC) = _PUBLIC4  # fmt: skip
(HAND3, HAND_RED3, DRAWN3, OFFERED3, MELDS3, ANKAN3, RIVER3, RIVER_FLAGS3, RIVER_KINDS3,
 DORA_INDICATORS3, DORA3, ROUND_WIND3, SEAT_WIND3, SCORES3, KYOTAKU3, HONBA3, TILES_LEFT3, RIICHI3,
 KITA3, KYOKU3, SEAT3, DECISION3, N_BASIC3) = _PUBLIC3  # fmt: skip
# the rich block, named by its rows in rich_v0 (from N_BASIC); other encoders shift it
N_RICH_ROWS = 6
SHANTEN, WAITS, FURITEN, DISCARD_SHANTEN, DISCARD_UKEIRE, SEEN = range(N_BASIC, N_BASIC + 6)
N_RICH = N_BASIC + N_RICH_ROWS
N_RICH3 = N_BASIC3 + N_RICH_ROWS


def _oracle_count(players: int) -> int:
    """Hidden rows: 4 per other seat, the wall's kinds (4), the next draws (4), the ura row."""
    return 4 * (players - 1) + 9


# the oracle block of oracle_v0 (from N_RICH) and oracle3_v0 (from N_RICH3)
HIDDEN_HANDS = N_RICH
WALL_KINDS = HIDDEN_HANDS + 12
NEXT_DRAWS = WALL_KINDS + 4
URA_INDICATORS = NEXT_DRAWS + 4
N_ORACLE = N_RICH + _oracle_count(4)
HIDDEN_HANDS3 = N_RICH3
WALL_KINDS3 = HIDDEN_HANDS3 + 8
NEXT_DRAWS3 = WALL_KINDS3 + 4
URA_INDICATORS3 = NEXT_DRAWS3 + 4
N_ORACLE3 = N_RICH3 + _oracle_count(3)
# the open-riichi block of basic_v1 (rows from N_BASIC) and rich_v1 (rows from N_RICH)
OPEN_HANDS = 0
"""Offset of 12 rows: 4(r-1)+k, r=1..3: seat r's open riichi hand, count >= k+1."""
OPEN_RIICHI = 12
"""Offset of 4 scalar rows: 12+r: 1 if seat r declared open riichi."""
N_OPEN = 16
N_BASIC_V1 = N_BASIC + N_OPEN
N_RICH_V1 = N_RICH + N_OPEN


def _blocks(spec: Encoder) -> tuple[int, int, int, int]:
    """First row of ``spec``'s rich, oracle and open blocks (-1: none), then its rows."""
    at = _PUBLIC3[-1] if spec.players == 3 else _PUBLIC4[-1]
    rich = oracle = opened = -1
    if spec.rich:
        rich, at = at, at + N_RICH_ROWS
    if spec.oracle:
        oracle, at = at, at + _oracle_count(spec.players)
    if spec.open_hands:
        opened, at = at, at + N_OPEN
    return rich, oracle, opened, at


def _check_table() -> None:
    ids = sorted(spec.id for spec in TABLE)
    if ids != list(range(len(TABLE))) or len({spec.name for spec in TABLE}) != len(TABLE):
        raise ImportError("encoder ids must be 0..n-1 and names unique")
    for spec in TABLE:
        if spec.players not in (3, 4) or (spec.open_hands and spec.players != 4):
            raise ImportError(f"encoder {spec.name}: open riichi rows exist with four players only")


_check_table()
_BY_ID = tuple(sorted(TABLE, key=lambda spec: spec.id))
ALL_ENCODERS = tuple(spec.name for spec in _BY_ID)
"""Every encoder, in id order (``ENCODER_IDS``)."""
ENCODERS = tuple(spec.name for spec in _BY_ID if spec.players == 4)
"""Four-player encoder names; ``riichi_env.env(encoder=...)`` takes one of them."""
ENCODERS_3P = tuple(spec.name for spec in _BY_ID if spec.players == 3)
"""Three-player encoder names (seats 0-2; the kita rows): the envs take them with three-player
rules."""
DEFAULT_ENCODER = "basic_v0"
DEFAULT_ENCODER_3P = "basic3_v0"
ENCODER_IDS = {spec.name: spec.id for spec in TABLE}
SPECS = {spec.name: spec for spec in TABLE}
"""Encoder name → its ``TABLE`` entry."""
N_ROWS = {spec.name: _blocks(spec)[3] for spec in TABLE}
HIDDEN_INFORMATION = {spec.name: spec.oracle for spec in TABLE}
OPEN_HAND_ENCODERS = tuple(spec.name for spec in _BY_ID if spec.open_hands)
"""Encoders that show open riichi hands (public under the ``open_riichi`` rule)."""
_PLAN = np.array(
    [(spec.players, *_blocks(spec)[:3], spec.open_hands) for spec in _BY_ID], dtype=np.int64
)
"""Per id: players, first row of the rich, oracle and open blocks (-1: none), open hands seen:
what ``_encode`` and ``_known_wall_rows`` read."""


def _public_table(players: int) -> list[tuple[int, int, str]]:
    three = players == 3
    (hand, hand_red, drawn, offered, melds, ankan, river, flags, kinds, dora_ind, dora, round_wind,
     seat_wind, scores, kyotaku, honba, left, riichi, kita, kyoku, seat, decision, _) = (
        _public_layout(players)
    )  # fmt: skip
    n = players
    rows = [
        (hand, 4, "own concealed tiles (drawn tile included): row k = 1 where the count is >= k+1"),
        (hand_red, 1, f"own red fives: at {'5p/5s' if three else '5m/5p/5s'}, red copies held / 4"),
        (drawn, 1, "the tile just drawn by self (one-hot), on own turn"),
        (
            offered,
            1,
            "the tile self is asked to claim "
            f"({'discard, kan or kita tile' if three else 'discard or kan tile'}), one-hot",
        ),
        (melds, 4 * n, f"row {melds}+4r+k: seat r's called tiles (all melds), count >= k+1"),
        (ankan, n, f"row {ankan}+r: kinds seat r has as a closed kan"),
        (river, RIVER_SLOTS * n, f"row {river}+24r+i: seat r's i-th discard (one-hot), i < 24"),
        (
            flags,
            3 * n,
            f"row {flags}+3r+f, column i: flag f of seat r's i-th discard "
            "(f=0 tsumogiri, f=1 riichi declaration, f=2 called by another seat)",
        ),
        (kinds, n, f"row {kinds}+r: seat r's discards per kind, count / 4 (called ones included)"),
        (dora_ind, 1, "revealed dora indicators per kind, count / 4"),
        (
            dora,
            1,
            f"dora per kind (indicators pointing at it{'; 1m indicates 9m' if three else ''}) / 4",
        ),
        (round_wind, 1, "round wind, one-hot at E/S/W/N"),
        (seat_wind, 1, f"own seat wind, one-hot at {'E/S/W' if three else 'E/S/W/N'}"),
        (scores, n, f"row {scores}+r, scalar: seat r's points / 100,000, clipped to [-2, 2]"),
        (kyotaku, 1, "scalar: riichi sticks on the table / 10, clipped to 1"),
        (honba, 1, "scalar: honba / 10, clipped to 1"),
        (left, 1, f"scalar: live-wall tiles left / {LIVE_DRAWS3 if three else LIVE_DRAWS4}"),
        (riichi, n, f"row {riichi}+r, scalar: 1 if seat r has declared riichi"),
    ]
    if three:
        rows.append(
            (kita, n, f"row {kita}+r, scalar: Norths seat r has set aside (kita, nuki dora) / 4")
        )
    hands = "E1 = 0, E2 = 1, E3 = 2, S1 = 4 ..." if three else "E1 = 0 ... S4 = 7, W1 = 8 ..."
    rows += [
        (kyoku, 1, f"one-hot at column 4 x wind + hand ({hands})"),
        (seat, 1, f"own absolute seat (0 = starting dealer), one-hot at columns 0-{n - 1}"),
        (
            decision,
            1,
            "own pending decision, one-hot at column 0 turn, 1 riichi discard, 2 claim",
        ),
    ]
    return rows


def _rich_table(base: int, open_seen: bool) -> list[tuple[int, int, str]]:
    seen = " (open riichi hands count as seen)" if open_seen else ""
    return [
        (base, 1, "scalar: (shanten + 1) / 7 of the own concealed part, clipped (0 = complete)"),
        (base + 1, 1, "kinds that complete the own 3n+1 hand (tenpai waits)"),
        (base + 2, 1, "scalar: 1 if the own 3n+1 hand is tenpai and furiten (any kind)"),
        (
            base + 3,
            1,
            "3n+2 hands: at each held kind, (shanten after discarding it + 1) / 7, clipped",
        ),
        (
            base + 4,
            1,
            "3n+2 hands: at each held kind whose discard keeps the lowest shanten, ukeire after "
            "discarding it / 80, clipped (0 at the other kinds)" + seen,
        ),
        (
            base + 5,
            1,
            "tiles the seat can see per kind (own hand, rivers, melds, indicators) / 4" + seen,
        ),
    ]


def _oracle_table(base: int, players: int) -> list[tuple[int, int, str]]:
    wall = base + 4 * (players - 1)
    return [
        (
            base,
            4 * (players - 1),
            f"row {base}+4(r-1)+k, r=1..{players - 1}: seat r's concealed tiles, count >= k+1",
        ),
        (wall, 4, f"row {wall}+k: tiles left in the live wall per kind, count >= k+1"),
        (wall + 4, 4, f"row {wall + 4}+k: the k-th next live-wall draw (one-hot)"),
        (wall + 8, 1, "ura indicators under the revealed dora indicators, count / 4"),
    ]


def _open_table(base: int) -> list[tuple[int, int, str]]:
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


def _row_table(spec: Encoder) -> list[tuple[int, int, str]]:
    rich, oracle, opened, _ = _blocks(spec)
    rows = _public_table(spec.players)
    if rich >= 0:
        rows += _rich_table(rich, spec.open_hands)
    if oracle >= 0:
        rows += _oracle_table(oracle, spec.players)
    if opened >= 0:
        rows += _open_table(opened)
    return rows


ROWS = {spec.name: _row_table(spec) for spec in TABLE}
"""Encoder name → ``(first row, rows, meaning)`` of each block, in order."""


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
    n = SPECS[name].players
    scores = SCORES3 if n == 3 else SCORES
    low[scores : scores + n] = -2.0
    high[scores : scores + n] = 2.0
    return low, high


UNIT_LOW, UNIT_SCALE = np.float32(0.0), np.float32(255.0)
"""Every row but the scores lies in [0, 1] (``bounds``): its bytes' low bound and 255 / width."""
SCORE_LOW, SCORE_SCALE = np.float32(-2.0), np.float32(255.0 / 4.0)
"""The same for the score rows, [-2, 2]: the byte of 0 is 128."""


def table_markdown(name: str, start: int = 0) -> str:
    """The encoder's row table as Markdown (rows, meaning), from row ``start`` on."""
    lines = ["| rows | meaning |", "|---|---|"]
    for first, count, meaning in ROWS[name]:
        if first < start:
            continue
        rows = str(first) if count == 1 else f"{first}-{first + count - 1}"
        lines.append(f"| {rows} | {meaning} |")
    return "\n".join(lines)


def _bytes(out) -> bool:
    """Whether ``out`` holds bytes (uint8 rows, ``obs_dtype=np.uint8``) rather than float32: a
    constant of each compiled type (``_bytes_typed``), so each kernel keeps one branch."""
    return out.dtype == np.uint8


@overload(_bytes, inline="always")
def _bytes_typed(out):
    answer = out.dtype == types.uint8
    return lambda out: answer


@njit(inline="always")
def _byte(x, low, scale):
    """The byte of value ``x`` (rounded to float32) in a row of low bound ``low`` and ``scale =
    255 / (high - low)``: ``(x - low) * scale + 0.5`` in float32, clamped to 0..255, truncated
    (the tests compare them with their reference over every value a row can hold)."""
    y = (np.float32(x) - low) * scale + np.float32(0.5)
    return np.uint8(np.int32(min(max(y, np.float32(0.0)), np.float32(255.0))))


@njit(inline="always")
def _unit(out, x):
    """``x``, a value of a [0, 1] row (every row but the scores), as ``out`` holds it: itself,
    or its byte."""
    if _bytes(out):
        return _byte(x, UNIT_LOW, UNIT_SCALE)
    return x


@njit(inline="always")
def _score(out, x):
    """``x``, a value of a score row ([-2, 2]), as ``out`` holds it: itself, or its byte."""
    if _bytes(out):
        return _byte(x, SCORE_LOW, SCORE_SCALE)
    return x


@njit(inline="always")
def _quarter(out):
    """What a tile adds to a cell of a count / 4 row: 0.25, or 1 in uint8 rows, which count tiles
    and become bytes once counted (``_counts_to_bytes``): bytes do not add up, 4 x 64 is not 255."""
    if _bytes(out):
        return 1.0
    return 0.25


@njit(inline="always")
def _counts_to_bytes(out, row):
    """A count / 4 row of uint8 ``out`` from its counts (``_quarter``) to their bytes; float32
    rows are left as they are."""
    if _bytes(out):
        for c in range(34):
            out[row, c] = _byte(out[row, c] * 0.25, UNIT_LOW, UNIT_SCALE)


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
def _public_rows(st, t, seat, players, out):
    """The public rows and the own hand (``basic_v0`` with four players, ``basic3_v0`` with
    three): only what ``seat`` may see; seats ``r`` relative to it, ``players`` of them."""
    (HAND, HAND_RED, DRAWN, OFFERED, MELDS, ANKAN, RIVER, RIVER_FLAGS, RIVER_KINDS,
     DORA_INDICATORS, DORA, ROUND_WIND, SEAT_WIND, SCORES, KYOTAKU, HONBA, TILES_LEFT, RIICHI, KITA,
     KYOKU, SEAT, DECISION, N_PUBLIC) = _PUBLIC3 if players == 3 else _PUBLIC4  # fmt: skip
    three = players == 3
    live_draws = float(LIVE_DRAWS3) if three else float(LIVE_DRAWS4)
    rec = st[t]
    one = _unit(out, 1.0)  # 1.0, or the byte 255
    quarter = _quarter(out)
    out[:N_PUBLIC, :] = 0.0  # every score row is written below (its byte of 0 is 128)
    rules = rec.rules[:]
    hand = rec.closed34[seat]
    for k in range(34):
        c = hand[k]
        for j in range(4):
            if c > j:
                out[HAND + j, k] = one
    for suit in range(3):
        five = 9 * suit + 4
        n_red = rules[suit]
        held = 0
        for j in range(n_red):
            held += rec.closed[seat, five * 4 + j]
        out[HAND_RED, five] = _unit(out, held / 4.0)
    phase = rec.phase
    my_decision = rec.actor == seat
    own_turn = phase <= PHASE_RIICHI_DISCARD and rec.turn == seat
    if own_turn and rec.drawn >= 0:
        out[DRAWN, rec.drawn // 4] = one
    if my_decision and phase == PHASE_CLAIM and rec.claim_tile >= 0:
        out[OFFERED, rec.claim_tile // 4] = one
    for r in range(players):
        s = (seat + r) % players
        melds = MELDS + 4 * r
        for m in range(rec.n_melds[s]):
            for j in range(4):
                tile = rec.meld_tiles[s, m, j]
                if tile >= 0:  # the next unset row of the kind's count (no scratch array)
                    k = tile // 4
                    c = 0
                    while c < 3 and out[melds + c, k] != 0.0:
                        c += 1
                    out[melds + c, k] = one
            if rec.meld_type[s, m] == MELD_ANKAN:
                out[ANKAN + r, rec.meld_tile34[s, m]] = one
        n_river = rec.n_river[s]
        for i in range(n_river):
            k = rec.river[s, i] // 4
            out[RIVER_KINDS + r, k] += quarter  # at most four copies
            if i < RIVER_SLOTS:
                out[RIVER + RIVER_SLOTS * r + i, k] = one
                flags = rec.river_flags[s, i]
                if flags & RIVER_TSUMOGIRI:
                    out[RIVER_FLAGS + 3 * r, i] = one
                if flags & RIVER_RIICHI:
                    out[RIVER_FLAGS + 3 * r + 1, i] = one
                if flags & RIVER_CALLED:
                    out[RIVER_FLAGS + 3 * r + 2, i] = one
        _fill(out, SCORES + r, _score(out, _clip(rec.points[s] / 100000.0, -2.0, 2.0)))
        if rec.riichi[s] > 0:
            _fill(out, RIICHI + r, one)
        if three:
            _fill(out, KITA + r, _unit(out, _clip(rec.n_kita[s] / 4.0, 0.0, 1.0)))
    for d in range(rec.n_dora):
        ind = rec.wall[DORA_START + d] // 4
        out[DORA_INDICATORS, ind] += quarter
        if three and ind == 0:
            out[DORA, 8] += quarter  # 1m indicates 9m
        else:
            out[DORA, _dora_from_indicator(ind)] += quarter
    for r in range(players):
        _counts_to_bytes(out, RIVER_KINDS + r)
    _counts_to_bytes(out, DORA_INDICATORS)
    _counts_to_bytes(out, DORA)
    kyoku = rec.kyoku
    dealer = kyoku % 4
    out[ROUND_WIND, 27 + (kyoku // 4) % 4] = one
    out[SEAT_WIND, 27 + (seat - dealer) % players] = one
    _fill(out, KYOTAKU, _unit(out, _clip(rec.kyotaku / 10.0, 0.0, 1.0)))
    _fill(out, HONBA, _unit(out, _clip(rec.honba / 10.0, 0.0, 1.0)))
    _fill(out, TILES_LEFT, _unit(out, _clip(_live_left(st, t) / live_draws, 0.0, 1.0)))
    out[KYOKU, min(kyoku, 33)] = one
    out[SEAT, seat] = one
    if my_decision:
        if phase == PHASE_TURN:
            out[DECISION, 0] = one
        elif phase == PHASE_RIICHI_DISCARD:
            out[DECISION, 1] = one
        elif phase == PHASE_CLAIM:
            out[DECISION, 2] = one


@njit
def _encode_open(st, t, seat, base, out):
    """The open-riichi block (``basic_v1`` at ``N_BASIC``, ``rich_v1`` at ``N_RICH``)."""
    rec = st[t]
    one = _unit(out, 1.0)
    out[base : base + N_OPEN, :] = 0.0
    cnt = np.zeros(34, dtype=np.int32)
    for r in range(4):
        s = (seat + r) % 4
        if rec.riichi[s] > 0 and rec.open_riichi[s]:
            _fill(out, base + OPEN_RIICHI + r, one)
        if r == 0 or not _open_hand_shown(st, t, s):
            continue
        _open_hand(st, t, s, cnt)
        for k in range(34):
            for j in range(4):
                if cnt[k] > j:
                    out[base + OPEN_HANDS + 4 * (r - 1) + j, k] = one


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
    three players (the rules') the kinds 2m-8m (not in the wall) count as seen for the ukeire.
    """
    rec = st[t]
    out[base : base + N_RICH_ROWS, :] = 0.0
    shift = base - N_BASIC  # the rows below are named by their rich_v0 index
    three = rec.rules[RULE_PLAYERS] == 3
    hand = rec.closed34[seat].copy()
    n = 0
    for k in range(34):
        n += hand[k]
    if n > 0:
        s = _shanten(hand, suit_table, honor_table)
        _fill(out, SHANTEN + shift, _unit(out, _clip((s + 1) / 7.0, 0.0, 1.0)))
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
        out[SEEN + shift, k] = _unit(out, _clip((seen[k] + hand[k]) / 4.0, 0.0, 1.0))
    if n % 3 == 1:
        waits = np.zeros(34, dtype=np.uint8)
        if _waits(hand, suit_table, honor_table, waits) > 0:
            furiten = rec.furiten_temp[seat] != 0 or rec.furiten_riichi[seat] != 0
            for k in range(34):
                if waits[k]:
                    out[WAITS + shift, k] = _unit(out, 1.0)
                    if rec.discarded34[seat, k]:
                        furiten = True
            if furiten:
                _fill(out, FURITEN + shift, _unit(out, 1.0))
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
            out[DISCARD_SHANTEN + shift, k] = _unit(out, _clip((after[k] + 1) / 7.0, 0.0, 1.0))
        for k in range(34):
            if after[k] != best:
                continue
            hand[k] -= 1
            visible[k] += 1
            u = _ukeire(hand, visible, suit_table, honor_table)
            hand[k] += 1
            visible[k] -= 1
            out[DISCARD_UKEIRE + shift, k] = _unit(out, _clip(u / 80.0, 0.0, 1.0))


@njit
def _oracle_rows(st, t, seat, players, base, out):
    """The hidden rows from row ``base`` (163 in ``oracle_v0``, 131 in ``oracle3_v0``): the
    other seats' concealed tiles, then the wall rows (``_oracle_wall_rows``)."""
    rec = st[t]
    wall = base + 4 * (players - 1)
    out[base:wall, :] = 0.0
    one = _unit(out, 1.0)
    for r in range(1, players):
        s = (seat + r) % players
        for k in range(34):
            c = rec.closed34[s, k]
            for j in range(4):
                if c > j:
                    out[base + 4 * (r - 1) + j, k] = one
    _oracle_wall_rows(st, t, wall, np.zeros(0, dtype=np.uint8), out)


@njit
def _oracle_wall_rows(st, t, base, known, out):
    """The nine wall rows from row ``base`` (175 in ``oracle_v0``, 139 in ``oracle3_v0``): the
    live wall's kinds, the next four draws and the ura indicators. ``known`` (uint8, one entry
    per wall place) limits them to the places it marks, as a game record reveals them
    (``riichi_env.dataset``); empty, the whole wall counts."""
    rec = st[t]
    out[base : base + 9, :] = 0.0
    one, quarter = _unit(out, 1.0), _quarter(out)
    whole = known.shape[0] == 0
    end = rec.wall_pos + _live_left(st, t)
    cnt = np.zeros(34, dtype=np.int32)
    for i in range(rec.wall_pos, end):
        if whole or known[i]:
            cnt[rec.wall[i] // 4] += 1
    for k in range(34):
        for j in range(4):
            if cnt[k] > j:
                out[base + j, k] = one
    for j in range(4):
        i = rec.wall_pos + j
        if i < end and (whole or known[i]):
            out[base + 4 + j, rec.wall[i] // 4] = one
    for d in range(rec.n_dora):
        if whole or known[URA_START + d]:
            out[base + 8, rec.wall[URA_START + d] // 4] += quarter
    _counts_to_bytes(out, base + 8)


@njit(inline="always")
def _known_wall_rows(st, t, encoder, known, out):
    """The wall rows of oracle encoder ``encoder`` (``oracle_v0`` or ``oracle3_v0``; any id
    without the oracle rows: nothing) limited to the wall places ``known`` marks (a record's
    revealed tiles)."""
    if 0 <= encoder < _PLAN.shape[0] and _PLAN[encoder, 2] >= 0:
        players = _PLAN[encoder, 0]
        _oracle_wall_rows(st, t, _PLAN[encoder, 2] + 4 * (players - 1), known, out)


def _example(x, *encoder) -> tuple:
    """An encoder kernel's warm-up arguments; ``_encode``'s with the ``encoder`` id."""
    obs = np.zeros((1, 34), dtype=np.float32)  # any row count: the type is the same
    return (x.st, x.i, x.i, *encoder, x.tables.shanten_suit, x.tables.shanten_honor, obs)


@njit(example=lambda x: _example(x, x.i))
def _encode(st, t, seat, encoder, suit_table, honor_table, out):
    """Encoder ``ALL_ENCODERS[encoder]`` of ``seat`` at table ``t`` into ``out`` (float32 or
    uint8 ``[rows, 34]``): the families ``TABLE`` lists for that id, each called once (any other
    id: nothing)."""
    if encoder < 0 or encoder >= _PLAN.shape[0]:
        return
    players = _PLAN[encoder, 0]
    _public_rows(st, t, seat, players, out)
    if _PLAN[encoder, 1] >= 0:
        open_seen = _PLAN[encoder, 4] != 0
        _encode_rich_at(st, t, seat, suit_table, honor_table, open_seen, _PLAN[encoder, 1], out)
    if _PLAN[encoder, 2] >= 0:
        _oracle_rows(st, t, seat, players, _PLAN[encoder, 2], out)
    if _PLAN[encoder, 3] >= 0:
        _encode_open(st, t, seat, _PLAN[encoder, 3], out)


# Each encoder's own kernel, called as ``(st, t, seat, suit_table, honor_table, out)``: the env
# observes through it and so compiles the families of its encoder alone (``_encode`` compiles all).
# Each calls the families its ``TABLE`` entry lists, with the same argument types as ``_encode``.
_FOUR, _THREE, _NO, _YES = np.int64(4), np.int64(3), np.bool_(False), np.bool_(True)


@njit(example=_example)
def _encode_basic_v0(st, t, seat, suit_table, honor_table, out):
    _public_rows(st, t, seat, _FOUR, out)


@njit(example=_example)
def _encode_rich_v0(st, t, seat, suit_table, honor_table, out):
    _public_rows(st, t, seat, _FOUR, out)
    _encode_rich_at(st, t, seat, suit_table, honor_table, _NO, np.int64(N_BASIC), out)


@njit(example=_example)
def _encode_oracle_v0(st, t, seat, suit_table, honor_table, out):
    _public_rows(st, t, seat, _FOUR, out)
    _encode_rich_at(st, t, seat, suit_table, honor_table, _NO, np.int64(N_BASIC), out)
    _oracle_rows(st, t, seat, _FOUR, np.int64(N_RICH), out)


@njit(example=_example)
def _encode_basic_v1(st, t, seat, suit_table, honor_table, out):
    _public_rows(st, t, seat, _FOUR, out)
    _encode_open(st, t, seat, np.int64(N_BASIC), out)


@njit(example=_example)
def _encode_rich_v1(st, t, seat, suit_table, honor_table, out):
    _public_rows(st, t, seat, _FOUR, out)
    _encode_rich_at(st, t, seat, suit_table, honor_table, _YES, np.int64(N_BASIC), out)
    _encode_open(st, t, seat, np.int64(N_RICH), out)


@njit(example=_example)
def _encode_basic3_v0(st, t, seat, suit_table, honor_table, out):
    _public_rows(st, t, seat, _THREE, out)


@njit(example=_example)
def _encode_rich3_v0(st, t, seat, suit_table, honor_table, out):
    _public_rows(st, t, seat, _THREE, out)
    _encode_rich_at(st, t, seat, suit_table, honor_table, _NO, np.int64(N_BASIC3), out)


@njit(example=_example)
def _encode_oracle3_v0(st, t, seat, suit_table, honor_table, out):
    _public_rows(st, t, seat, _THREE, out)
    _encode_rich_at(st, t, seat, suit_table, honor_table, _NO, np.int64(N_BASIC3), out)
    _oracle_rows(st, t, seat, _THREE, np.int64(N_RICH3), out)


KERNELS = {spec.name: globals()["_encode_" + spec.name] for spec in _BY_ID}
"""Encoder name → its own kernel (``_encode_<name>``; a ``TABLE`` entry without one fails here)."""
ENCODE_KERNELS = tuple(KERNELS[name] for name in ENCODERS)
"""The four-player encoders' kernels, in ``ENCODERS`` order (their ids)."""
ENCODE_KERNELS_3P = tuple(KERNELS[name] for name in ENCODERS_3P)
"""The same for ``ENCODERS_3P``."""
