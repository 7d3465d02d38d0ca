"""State invariants: ``validate(state)`` raises with a clear message naming the broken one.

Two kernels. ``_validate(st, t, detail)`` checks the bookkeeping: all 136 tiles in exactly one
place (wall, a hand, a meld, a river), hand counts agree with the held ids, hand sizes (13, or 14
for the seat on turn), points + sticks constant, kan/dora counters consistent, riichi hands
closed, waits counts, a seat asked for a claim has one, fields within their documented ranges,
final scores summing to zero. ``_validate_rules(st, t, ev, tables, detail)`` checks the rule facts
derived from the tiles (docs/rules.md): a riichi hand is tenpai (karaten is not); the stored waits are the waits of the
hand; the discarded-kinds table agrees with the river; the temporary and riichi furiten flags
agree with the tiles passed this hand (replayed from the event log); the claim masks agree with
the hands (no bit a hand cannot make, every pon, daiminkan and chi a hand can make, the asked seats
in turn order). ``validate`` runs both; ``engine.harness.selfplay``'s checks call ``_validate``.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.events import (
    EV_CALL,
    EV_DISCARD,
    EV_DRAW,
    EV_HAND_START,
    EV_KITA,
    EV_RIICHI,
    EV_RIICHI_ACCEPTED,
)
from engine.melds import MELD_ANKAN, MELD_CHI, MELD_DAIMINKAN, MELD_KAKAN, MELD_NONE, MELD_PON
from engine.rules import RULE_EXTENSION_HANDS, RULE_N_WINDS, RULE_START_POINTS
from engine.seats import _is_tenpai, _n_players
from engine.shanten import _shanten, _waits
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
    CLAIM_KITA,
    DEAL_SIZE_3P,
    LIVE_END_3P,
    LIVE_START,
    MAX_MELDS,
    MAX_RIVER,
    PHASE_CLAIM,
    PHASE_GAME_OVER,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    RINSHAN_START,
    RIVER_CALLED,
    WALL_SIZE,
    State,
)
from engine.wall import _live_end, _live_left

(
    VAL_OK,
    VAL_POINTS,
    VAL_TILE_COUNT,
    VAL_HAND34,
    VAL_HAND_SIZE,
    VAL_WALL_POS,
    VAL_KANS,
    VAL_DORA,
    VAL_RIICHI_OPEN,
    VAL_CLAIM,
    VAL_WAITS,
    VAL_FINAL,
    VAL_MELD,
    VAL_RANGE,
    VAL_PHASE,
    VAL_UNMASKED_ACCEPTED,
    VAL_MASKED_REFUSED,
    VAL_RIICHI_NOT_TENPAI,
    VAL_WAITS_WRONG,
    VAL_DISCARDED,
    VAL_FURITEN_TEMP,
    VAL_FURITEN_RIICHI,
    VAL_CLAIM_BIT,
    VAL_CLAIM_MISSING,
    VAL_CLAIM_QUEUE,
) = range(25)

MESSAGES = (
    "ok",
    "points plus riichi sticks do not add up to 4 x start points",
    "a tile is not in exactly one place (wall, hand, meld, river)",
    "closed34 does not match the held tile ids",
    "a hand has the wrong number of tiles",
    "wall position out of range",
    "n_kans does not match the kan melds",
    "revealed plus pending dora indicators do not match the kans",
    "a riichi hand has an open meld",
    "a seat asked for a claim has no claim (or turn is not the offering seat)",
    "n_waits does not match waits",
    "final scores do not sum to zero",
    "a meld's tiles do not match its type and kind",
    "a field is outside its documented range",
    "phase, turn or actor out of range",
    "an action outside the legal mask was accepted",
    "an action in the legal mask was refused",
    "a riichi hand is not tenpai",
    "stored waits differ from the waits of the hand",
    "discarded34 does not match the river",
    "the temporary furiten flag does not match the tiles passed since the seat's last discard",
    "the riichi furiten flag does not match the tiles passed since the riichi",
    "a claim mask offers a call the hand cannot make",
    "a claim mask lacks a pon, daiminkan or chi the hand can make",
    "the seats asked about a claim are not those with a claim, in turn order",
)
"""Message of each ``VAL_*`` code."""


@njit
def _validate(st, t, detail):
    """Check table ``t``; returns ``VAL_OK`` or a ``VAL_*`` code, ``detail[0:2]`` = seat, tile."""
    rec = st[t]
    detail[0] = -1
    detail[1] = -1
    rules = rec.rules[:]
    n_players = _n_players(st, t)
    total = 0
    for s in range(4):
        total += rec.points[s]
    if total + 1000 * rec.kyotaku != n_players * rules[RULE_START_POINTS]:
        return VAL_POINTS
    if n_players == 3 and rec.points[3] != 0:
        return VAL_POINTS
    if rec.kyotaku < 0 or rec.honba < 0 or rec.kyoku < 0 or rec.kyoku % 4 >= n_players:
        return VAL_RANGE
    if rec.kyoku >= 4 * rules[RULE_N_WINDS] + rules[RULE_EXTENSION_HANDS]:
        return VAL_RANGE
    phase = rec.phase
    if phase < 0 or phase > PHASE_GAME_OVER or rec.hand_over != 0:
        return VAL_PHASE
    if rec.game_over:
        if phase != PHASE_GAME_OVER:
            return VAL_PHASE
        f = 0.0
        for s in range(4):
            f += rec.final_scores[s]
        if abs(f) > 1e-6:
            return VAL_FINAL
    n_kans = rec.n_kans
    if n_kans < 0 or n_kans > 4:
        return VAL_RANGE
    pos = rec.wall_pos
    live_end = _live_end(st, t)
    if pos < LIVE_START or pos > live_end - n_kans:
        return VAL_WALL_POS
    if rec.n_dora < 1 or rec.n_dora > 5 or rec.n_dora + rec.pending_dora != 1 + n_kans:
        return VAL_DORA
    count = np.zeros(WALL_SIZE, dtype=np.int32)
    n_kita = 0
    for s in range(4):
        if rec.n_kita[s] < 0 or rec.n_kita[s] > 4 or (rec.n_kita[s] and n_players == 4):
            return VAL_RANGE
        n_kita += rec.n_kita[s]
        for i in range(4):
            x = rec.kita_tiles[s, i]
            if (i < rec.n_kita[s]) != (x >= 0) or (x >= 0 and x // 4 != 30):
                return VAL_RANGE
            if x >= 0:
                count[x] += 1
    n_repl = n_kans + n_kita
    if pos > live_end - n_repl:
        return VAL_WALL_POS
    if phase == PHASE_CLAIM and rec.claim_kind == CLAIM_KITA:
        count[rec.claim_tile] += 1  # the North on offer is in no hand yet
    # replacement draws 5-8 (three players) took the live wall's last tiles
    for i in range(pos, live_end - max(0, n_repl - 4)):
        count[rec.wall[i]] += 1
    if n_players == 3:
        # the unused slots hold the 2m-8m ids, which are in no hand, meld or river
        for i in range(WALL_SIZE):
            if DEAL_SIZE_3P <= i < LIVE_START or LIVE_END_3P <= i < RINSHAN_START:
                x = rec.wall[i]
                if x < 4 or x >= 32:
                    detail[1] = x
                    return VAL_TILE_COUNT
                count[x] += 1
    for i in range(RINSHAN_START + min(n_repl, 4), WALL_SIZE):
        count[rec.wall[i]] += 1
    kan_melds = 0
    h34 = np.zeros(34, dtype=np.int32)
    for s in range(4):
        detail[0] = s
        h34[:] = 0
        n_closed = 0
        for tile in range(WALL_SIZE):
            if rec.closed[s, tile]:
                count[tile] += 1
                h34[tile // 4] += 1
                n_closed += 1
        for k in range(34):
            if h34[k] != rec.closed34[s, k]:
                return VAL_HAND34
        nm = rec.n_melds[s]
        if nm < 0 or nm > MAX_MELDS:
            return VAL_RANGE
        for i in range(nm):
            mt = rec.meld_type[s, i]
            k = rec.meld_tile34[s, i]
            size = 4 if (mt in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN)) else 3
            if mt == MELD_NONE or mt > MELD_ANKAN:
                return VAL_MELD
            if size == 4:
                kan_melds += 1
            for j in range(4):
                x = rec.meld_tiles[s, i, j]
                if j >= size:
                    if x != -1:
                        return VAL_MELD
                    continue
                if x < 0 or x >= WALL_SIZE:
                    return VAL_MELD
                count[x] += 1
                want = k + j if mt == MELD_CHI else k
                if x // 4 != want:
                    detail[1] = x
                    return VAL_MELD
            if mt != MELD_ANKAN and rec.riichi[s] > 0:
                return VAL_RIICHI_OPEN
            if mt == MELD_CHI and (k >= 27 or k % 9 > 6):
                return VAL_MELD
            if mt == MELD_PON and rec.meld_from[s, i] == s:
                return VAL_MELD
        nr = rec.n_river[s]
        if nr < 0 or nr > MAX_RIVER:
            return VAL_RANGE
        for i in range(nr):
            x = rec.river[s, i]
            if x < 0 or x >= WALL_SIZE:
                return VAL_RANGE
            if not (rec.river_flags[s, i] & RIVER_CALLED):
                count[x] += 1
        size = n_closed + 3 * nm
        want = 13
        if (phase in (PHASE_TURN, PHASE_RIICHI_DISCARD)) and s == rec.turn:
            want = 14
        if s >= n_players:
            want = 0  # the absent seat: no tiles, melds or discards
            if nr != 0 or rec.riichi[s] != 0:
                return VAL_HAND_SIZE
        if phase != PHASE_GAME_OVER and size != want:
            return VAL_HAND_SIZE
        nw = 0
        for k in range(34):
            if rec.waits[s, k] > 1:
                return VAL_RANGE
            nw += rec.waits[s, k]
        if nw != rec.n_waits[s]:
            return VAL_WAITS
        if rec.riichi[s] < 0 or rec.riichi[s] > 2:
            return VAL_RANGE
        for v in (
            rec.ippatsu[s],
            rec.furiten_temp[s],
            rec.furiten_riichi[s],
            rec.nagashi[s],
        ):
            if v < 0 or v > 1:
                return VAL_RANGE
    detail[0] = -1
    for tile in range(WALL_SIZE):
        if count[tile] != 1:
            detail[1] = tile
            return VAL_TILE_COUNT
    in_kan_claim = phase == PHASE_CLAIM and rec.claim_kind in (CLAIM_CHANKAN, CLAIM_ANKAN)
    if kan_melds != n_kans + (1 if in_kan_claim else 0):
        return VAL_KANS
    if phase != PHASE_GAME_OVER:
        if rec.turn < 0 or rec.turn >= n_players or rec.actor < 0 or rec.actor >= n_players:
            return VAL_PHASE
        if phase == PHASE_CLAIM:
            if (
                rec.claim_mask[rec.actor] == 0
                or rec.actor == rec.claim_from
                or rec.turn != rec.claim_from
            ):
                return VAL_CLAIM
        elif rec.actor != rec.turn:
            return VAL_PHASE
    return VAL_OK


# ---------------------------------------------------------------------------- rule facts


@njit
def _kokushi_with(hand34, k):
    """True if ``hand34`` plus one ``k`` is kokushi musou (every terminal and honor, one pair)."""
    pair = 0
    for i in range(34):
        c = int(hand34[i]) + (1 if i == k else 0)
        yaochuu = i >= 27 or i % 9 == 0 or i % 9 == 8
        if not yaochuu:
            if c > 0:
                return False
        elif c == 0 or c > 2:
            return False
        elif c == 2:
            pair += 1
    return pair == 1


@njit
def _leaves_discard(hand34, k1, k2, forbid1, forbid2):
    """After taking ``k1`` and ``k2`` out for a call, some kind other than the kuikae kinds is held."""
    for i in range(34):
        c = int(hand34[i]) - (1 if i == k1 else 0) - (1 if i == k2 else 0)
        if c > 0 and i != forbid1 and i != forbid2:
            return True
    return False


@njit
def _calls_possible(st, t, s, x, d, live):
    """CLAIM_BIT_* of the pon, daiminkan and chi seat ``s`` can make on a discard of kind ``x``.

    docs/rules.md: no calls in riichi or on the last tile (houtei), chi only from the seat on the left,
    no fifth kan, kuikae (a call that would leave no legal discard is not offered: after
    chi from an end, the kind beyond the other end is forbidden too).
    """
    rec = st[t]
    m = 0
    if live <= 0 or rec.riichi[s] > 0:
        return m
    h = rec.closed34[s]
    if h[x] >= 2 and _leaves_discard(h, x, x, x, -1):
        m |= CLAIM_BIT_PON
    if h[x] == 3 and rec.n_kans < 4:
        m |= CLAIM_BIT_KAN
    if s == (d + 1) % 4 and x < 27 and _n_players(st, t) == 4:  # no chi with three players
        n = x % 9
        far = x + 3 if n <= 5 else -1
        if n <= 6 and h[x + 1] > 0 and h[x + 2] > 0 and _leaves_discard(h, x + 1, x + 2, x, far):
            m |= CLAIM_BIT_CHI_LOW
        if (
            1 <= n <= 7
            and h[x - 1] > 0
            and h[x + 1] > 0
            and _leaves_discard(h, x - 1, x + 1, x, -1)
        ):
            m |= CLAIM_BIT_CHI_MID
        far = x - 3 if n >= 3 else -1
        if n >= 2 and h[x - 2] > 0 and h[x - 1] > 0 and _leaves_discard(h, x - 2, x - 1, x, far):
            m |= CLAIM_BIT_CHI_HIGH
    return m


@njit
def _permanent_furiten(st, t, s):
    rec = st[t]
    for k in range(34):  # noqa: SIM110 (a generator in any() is slow under Numba)
        if rec.waits[s, k] and rec.discarded34[s, k]:
            return True
    return False


@njit
def _hand_at(st, t, ev, s, i, out):
    """Seat ``s``'s concealed counts just after event row ``i``: its later rows undone."""
    rec = st[t]
    for k in range(34):
        out[k] = rec.closed34[s, k]
    for j in range(i + 1, rec.n_events):
        if ev[t, j, 1] != s:
            continue
        e = ev[t, j, 0]
        if e == EV_DRAW:
            out[ev[t, j, 2] // 4] -= 1
        elif e == EV_DISCARD:
            out[ev[t, j, 2] // 4] += 1
        elif e == EV_CALL:
            mtype = ev[t, j, 2]
            if mtype == MELD_ANKAN:
                out[ev[t, j, 6]] += 4
            elif mtype == MELD_KAKAN:
                out[ev[t, j, 4] // 4] += 1
            else:
                called = ev[t, j, 4]
                packed = np.int64(ev[t, j, 5]) & 0xFFFFFFFF
                for b in range(4):
                    tile = (packed >> (8 * b)) & 255
                    if tile != 255 and tile != called:
                        out[tile // 4] += 1


@njit
def _replay_furiten(st, t, ev, temp, rfur):
    """Temporary and riichi furiten of every seat replayed from this hand's event log.

    docs/rules.md furiten: a seat passed a winning tile (a wait of its stored waits, yaku or not) when
    another seat's discard or added-kan tile went by without a win; a closed-kan tile only counts
    for a seat that could rob it (its hand then kokushi tenpai on it, not furiten). Temporary furiten clears on the
    seat's own discard; riichi furiten, for a pass after the seat's riichi, lasts the hand. The
    stored waits stand for the waits at each pass: a seat's waits change only with its own discard,
    which clears the temporary flag, and a riichi hand's waits never change. Returns False when the
    log does not hold the whole hand (it overflowed).
    """
    rec = st[t]
    n = rec.n_events
    if rec.ev_overflow:
        return False
    start = -1
    for i in range(n - 1, -1, -1):
        if ev[t, i, 0] == EV_HAND_START:
            start = i
            break
    if start < 0:
        return False
    last_progress = start
    for i in range(start, n):
        e = ev[t, i, 0]
        if e in (EV_DRAW, EV_CALL, EV_RIICHI_ACCEPTED):
            last_progress = i
    own = np.zeros((4, 34), dtype=np.uint8)
    in_riichi = np.zeros(4, dtype=np.uint8)
    then = np.zeros(34, dtype=np.int32)
    for s in range(4):
        temp[s] = 0
        rfur[s] = 0
    for i in range(start, n):
        e = ev[t, i, 0]
        d = ev[t, i, 1]
        if e == EV_RIICHI:
            in_riichi[d] = 1
            continue
        if e == EV_DISCARD:
            temp[d] = 0
            own[d, ev[t, i, 2] // 4] = 1
        if i >= last_progress:
            continue  # the tile is still on offer (or nothing was offered)
        if e == EV_DISCARD:
            k = ev[t, i, 2] // 4
            ankan = False
        elif e == EV_CALL and ev[t, i, 2] == MELD_KAKAN:
            k = ev[t, i, 4] // 4
            ankan = False
        elif e == EV_CALL and ev[t, i, 2] == MELD_ANKAN:
            k = ev[t, i, 6]
            ankan = True
        elif e == EV_KITA:
            k = ev[t, i, 2] // 4  # a kita went by as an added kan's tile does
            ankan = False
        else:
            continue
        for s in range(4):
            if s == d or not rec.waits[s, k]:
                continue
            if ankan:
                furiten = temp[s] != 0 or rfur[s] != 0
                for j in range(34):
                    if rec.waits[s, j] and own[s, j]:
                        furiten = True
                if furiten:
                    continue
                _hand_at(st, t, ev, s, i, then)
                if not _kokushi_with(then, k):
                    continue
            temp[s] = 1
            if in_riichi[s]:
                rfur[s] = 1
    return True


@njit
def _validate_rules(st, t, ev, tables, detail):
    """Rule facts of table ``t`` (module doc); ``VAL_OK`` or a ``VAL_*`` code.

    ``detail[0:3]`` = seat, tile136, tile34 where they apply (-1 otherwise). Call it on a state
    that passes ``_validate``; a finished game is not checked.
    """
    rec = st[t]
    detail[0] = -1
    detail[1] = -1
    detail[2] = -1
    phase = rec.phase
    if phase == PHASE_GAME_OVER:
        return VAL_OK
    suit = tables.shanten_suit
    honor = tables.shanten_honor
    turn = rec.turn
    on_turn = phase in (PHASE_TURN, PHASE_RIICHI_DISCARD)
    kan_offer = phase == PHASE_CLAIM and rec.claim_kind != CLAIM_DISCARD
    w = np.zeros(34, dtype=np.uint8)
    for s in range(_n_players(st, t)):
        detail[0] = s
        h = rec.closed34[s]
        n = 0
        for k in range(34):
            n += h[k]
        if rec.riichi[s] > 0:
            # 3n+1: tenpai as the draw counts it (karaten is not); 3n+2: the drawn tile is held
            if n % 3 == 1 and not _is_tenpai(st, t, tables, np.int64(s), h):
                return VAL_RIICHI_NOT_TENPAI
            if n % 3 == 2 and _shanten(h, suit, honor) > 0:
                return VAL_RIICHI_NOT_TENPAI
        # the seat on turn holds 3n+2 (its waits are those of its last discard); a kan being
        # offered for chankan leaves its owner's waits stale until its next discard
        if not (on_turn and s == turn) and not (kan_offer and s == rec.claim_from):
            _waits(h, suit, honor, w)
            for k in range(34):
                if w[k] != rec.waits[s, k]:
                    detail[2] = k
                    return VAL_WAITS_WRONG
        for k in range(34):
            w[k] = 0
        for i in range(rec.n_river[s]):
            w[rec.river[s, i] // 4] = 1
        for k in range(34):
            if w[k] != rec.discarded34[s, k]:
                detail[2] = k
                return VAL_DISCARDED
    temp = np.zeros(4, dtype=np.int32)
    rfur = np.zeros(4, dtype=np.int32)
    if _replay_furiten(st, t, ev, temp, rfur):
        for s in range(4):
            detail[0] = s
            if rec.furiten_temp[s] != temp[s]:
                return VAL_FURITEN_TEMP
            if rec.furiten_riichi[s] != rfur[s]:
                return VAL_FURITEN_RIICHI
    detail[0] = -1
    if phase != PHASE_CLAIM:
        return VAL_OK
    d = rec.claim_from
    tile = rec.claim_tile
    detail[1] = tile
    x = tile // 4
    live = _live_left(st, t)
    expected = 0
    n_players = _n_players(st, t)
    for j in range(1, n_players):
        s = (d + j) % n_players
        detail[0] = s
        m = rec.claim_mask[s]
        if m & CLAIM_BIT_RON:
            if rec.claim_kind == CLAIM_ANKAN:
                can = _kokushi_with(rec.closed34[s], x)
            else:
                can = rec.waits[s, x] == 1
            if not can or rec.furiten_temp[s] or rec.furiten_riichi[s]:
                return VAL_CLAIM_BIT
            if _permanent_furiten(st, t, s):
                return VAL_CLAIM_BIT
        calls = 0
        if rec.claim_kind == CLAIM_DISCARD:
            calls = _calls_possible(st, t, s, x, d, live)
        if (m & ~CLAIM_BIT_RON) & ~calls:
            return VAL_CLAIM_BIT
        if calls & ~m:
            return VAL_CLAIM_MISSING
        if m:
            if expected >= rec.claim_n or rec.claim_queue[expected] != s:
                return VAL_CLAIM_QUEUE
            expected += 1
    detail[0] = d
    if rec.claim_mask[d] != 0 or expected != rec.claim_n:
        return VAL_CLAIM_QUEUE
    return VAL_OK


def validate(state: State, t: int | None = None) -> None:
    """Check every table (or table ``t``); raises ``ValueError`` naming the broken invariant.

    Runs ``_validate`` (bookkeeping), then ``_validate_rules`` (rule facts from the tiles).
    """
    from engine.tables import load_tables
    from engine.tiles import tile34_to_str, tile136_to_str

    if not isinstance(state, State):
        raise TypeError(f"state must be an engine.state.State, got {type(state).__name__}")
    n = state.points.shape[0]
    if t is not None and (
        isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < n
    ):
        raise ValueError(f"table index t must be an int 0-{n - 1} or None, got {t!r}")
    tables = load_tables()
    detail = np.zeros(3, dtype=np.int64)
    for i in range(n) if t is None else [int(t)]:
        code = _validate(state.records, i, detail)
        if code == VAL_OK:
            code = _validate_rules(state.records, i, state.events, tables, detail)
        else:
            detail[2] = -1
        if code != VAL_OK:
            where = f" (seat {detail[0]})" if detail[0] >= 0 else ""
            if detail[1] >= 0:
                where += f" (tile {tile136_to_str(int(detail[1]))}, id {detail[1]})"
            if detail[2] >= 0:
                where += f" (kind {tile34_to_str(int(detail[2]))})"
            raise ValueError(f"table {i}: invalid state: {MESSAGES[code]}{where}")
