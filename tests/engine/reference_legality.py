"""An independent reference for legal actions, in plain Python, written from the rule text.

``engine.game._legal_mask`` decides legality for the step and for every check built on the step
(``selfplay(check=2)``: "every masked action is accepted" compares the mask with itself). This
module lists the legal actions of a state again, from the rule text: the rule decisions
(docs/rules.md, quoted where each rule is used below), the rule options of ``engine/rules.py``, the
action table of ``engine/actions.py`` and ``docs/environment.md``. It never calls ``_legal_mask``
or any of its helpers (nothing of ``engine.game``); it reads the state arrays and the event log of
the hand, and uses only public functions: ``engine.shanten.shanten`` / ``waits`` for tenpai and
waits, ``engine.scoring.agari.is_agari`` / ``decompose`` for complete hands and their readings, and
``engine.scoring.score_hand`` to know whether a win has a yaku.

What it derives itself rather than reading from the engine's bookkeeping: the waits of every hand,
furiten (from the rivers and the passed tiles of the event log), kuikae (from the last call), who
may claim a discard or a kan tile, the kan count (from the melds), the "first uninterrupted go"
(no meld anywhere, no own discard) and whether the last draw was a rinshan draw (from the log).

Entry points: ``legal_actions(state, rules, t)`` (the set for the seat to act), ``claimers(...)``
(the seats that would be asked about a tile, in asking order), ``offer_of(state, action, t)``
(which tile a discard or kan action is about to offer) and ``compare(state, rules, t)`` (every
disagreement with the engine at the current decision, as readable lines).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from engine import actions as A  # noqa: N812
from engine.events import (
    EV_CALL,
    EV_DISCARD,
    EV_DRAW,
    EV_HAND_START,
    EV_KITA,
    EV_RIICHI_ACCEPTED,
)
from engine.melds import MELD_ANKAN, MELD_CHI, MELD_DAIMINKAN, MELD_KAKAN, MELD_NAMES, MELD_PON
from engine.rules import Rules
from engine.scoring.agari import decompose, is_agari
from engine.scoring.hand_score import score_hand
from engine.shanten import shanten, waits
from engine.state import (
    LIVE_START,
    PHASE_CLAIM,
    PHASE_GAME_OVER,
    PHASE_RIICHI_DISCARD,
    PHASE_TURN,
    State,
)
from engine.tiles import hand34_to_str, tile34_to_str

YAOCHUU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
WINDS = "ESWN"

OFFER_DISCARD = "discard"
OFFER_KAKAN = "kakan"
OFFER_ANKAN = "ankan"
OFFER_KITA = "kita"
NORTH = 30


# ---------------------------------------------------------------------------- cached hand facts


@functools.lru_cache(maxsize=1 << 16)
def _waits(hand: tuple[int, ...]) -> frozenset[int]:
    """Kinds completing a 3n+1 hand (not a kind it holds all four of)."""
    return frozenset(waits(np.array(hand, dtype=np.uint8)))


@functools.lru_cache(maxsize=1 << 16)
def _shanten(hand: tuple[int, ...]) -> int:
    return shanten(np.array(hand, dtype=np.uint8))


@functools.lru_cache(maxsize=1 << 14)
def _agari(hand: tuple[int, ...]) -> bool:
    return is_agari(np.array(hand, dtype=np.uint8))


@functools.lru_cache(maxsize=1 << 12)
def _readings(hand: tuple[int, ...]) -> list:
    return decompose(np.array(hand, dtype=np.uint8))


def _kokushi(hand: list[int]) -> bool:
    """The 14 tiles are kokushi musou: every terminal and honor, one of them twice."""
    return (
        all(hand[k] >= 1 for k in YAOCHUU)
        and sum(hand) == 14
        and sum(hand[k] for k in YAOCHUU) == 14
    )


def _is_red(rules: Rules, tile: int) -> bool:
    """docs/rules.md: red fives are the copies with the lowest ids of 5m, 5p, 5s (id % 4 below the count)."""
    k = tile // 4
    if k in (4, 13, 22):
        return tile % 4 < rules.red_fives[k // 9]
    return False


def _discard_id(rules: Rules, tile: int) -> int:
    """The action that discards this physical tile: its kind, or the red five of its suit."""
    return A.DISCARD_RED + tile // 36 if _is_red(rules, tile) else tile // 4


# ---------------------------------------------------------------------------- the table, read once


@dataclass
class Table:
    """What the reference reads of one table: hands, melds, rivers and this hand's event log."""

    rules: Rules
    phase: int
    actor: int
    turn: int
    kyoku: int
    points: list[int]
    riichi: list[int]
    ids: list[list[int]]
    """Concealed tile136 ids of each seat."""
    hand: list[list[int]]
    """Concealed counts per kind of each seat."""
    melds: list[list[tuple[int, int, list[int], int, int]]]
    """Each seat's melds as (type, lowest kind, tile ids, from seat, called tile)."""
    river: list[list[int]]
    live: int
    log: list[tuple[int, ...]] = field(default_factory=list)
    """Event rows of the current hand."""
    last_progress: int = 0
    """Index of the last draw, call or accepted riichi in ``log``: a tile offered before it was
    passed (not won on), a tile offered after it is still on offer."""
    players: int = 4
    """Seats at the table (docs/rules.md, "Three-player riichi": seats 0-2, seat 3 absent)."""
    kita_rows: int = 0
    """Kita in this hand's log (a North set aside; three players)."""
    _furiten: dict = field(default_factory=dict)

    @property
    def n_kans(self) -> int:
        return sum(
            m[0] in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN) for ms in self.melds for m in ms
        )

    @property
    def dealer(self) -> int:
        return self.kyoku % 4

    def closed_hand(self, s: int) -> bool:
        return all(m[0] == MELD_ANKAN for m in self.melds[s])

    def others(self, d: int) -> list[int]:
        """The other seats in turn order after ``d``."""
        return [(d + i) % self.players for i in range(1, self.players)]


def read_table(state: State, rules: Rules, t: int = 0) -> Table:
    """Copy what the reference needs out of table ``t`` of ``state``."""
    if not np.array_equal(state.rules[t], rules.to_array()):
        raise ValueError("rules do not match the state's rules array")
    if state.ev_overflow[t]:
        raise ValueError("the event log overflowed; the reference needs the whole hand")
    events = state.events[t, : int(state.n_events[t])]
    start = int(np.flatnonzero(events[:, 0] == EV_HAND_START)[-1])
    log = [tuple(r) for r in events[start:].tolist()]
    ids = [[int(x) for x in np.flatnonzero(state.closed[t, s])] for s in range(4)]
    hand = []
    for s in range(4):
        h = [0] * 34
        for x in ids[s]:
            h[x // 4] += 1
        hand.append(h)
    melds = []
    for s in range(4):
        ms = []
        for i in range(int(state.n_melds[t, s])):
            tiles = [int(x) for x in state.meld_tiles[t, s, i] if x >= 0]
            ms.append(
                (
                    int(state.meld_type[t, s, i]),
                    int(state.meld_tile34[t, s, i]),
                    tiles,
                    int(state.meld_from[t, s, i]),
                    int(state.meld_called[t, s, i]),
                )
            )
        melds.append(ms)
    n_kans_melds = sum(m[0] in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN) for ms in melds for m in ms)
    # the live wall ends one tile earlier per completed kan (a kan still offered for chankan has
    # not moved its tile yet: it is a meld already, so count it out again)
    pending_kan = 0
    last = _last_play_row(log)
    if int(state.phase[t]) == PHASE_CLAIM and last is not None and last[0] == EV_CALL:
        pending_kan = 1 if last[2] in (MELD_KAKAN, MELD_ANKAN) else 0
    # three players: the live wall is 55 tiles, and a kita moves one live tile to the dead wall
    # once completed (one still offered for ron has not)
    kita_rows = sum(r[0] == EV_KITA for r in log)
    if int(state.phase[t]) == PHASE_CLAIM and last is not None and last[0] == EV_KITA:
        kita_rows -= 1
        pending_kita = 1
    else:
        pending_kita = 0
    # docs/rules.md: 70 live draws at the start (136 tiles, 52 dealt, 14 in the dead wall); three
    # players 55 (108 tiles, 39 dealt, 14)
    live_end = LIVE_START + (55 if rules.players == 3 else 70)
    live = live_end - (n_kans_melds - pending_kan) - kita_rows - int(state.wall_pos[t])
    return Table(
        rules=rules,
        phase=int(state.phase[t]),
        actor=int(state.actor[t]),
        turn=int(state.turn[t]),
        kyoku=int(state.kyoku[t]),
        points=[int(x) for x in state.points[t]],
        riichi=[int(x) for x in state.riichi[t]],
        ids=ids,
        hand=hand,
        melds=melds,
        river=[[int(x) for x in state.river[t, s, : int(state.n_river[t, s])]] for s in range(4)],
        live=live,
        log=log,
        last_progress=max(
            (i for i, r in enumerate(log) if r[0] in (EV_DRAW, EV_CALL, EV_RIICHI_ACCEPTED)),
            default=0,
        ),
        players=rules.players,
        kita_rows=kita_rows + pending_kita,
    )


def _last_play_row(rows) -> tuple | None:
    """The last draw, discard, call or kita row (dora reveals come after some of them)."""
    for r in reversed(rows):
        if r[0] in (EV_DRAW, EV_DISCARD, EV_CALL, EV_KITA):
            return tuple(r)
    return None


# ---------------------------------------------------------------------------- furiten


def seat_waits(tb: Table, s: int) -> frozenset[int]:
    """Waits of seat ``s``'s concealed 3n+1 hand (empty for a 3n+2 hand)."""
    h = tb.hand[s]
    if sum(h) % 3 != 1:
        return frozenset()
    return _waits(tuple(h))


def _passed_tiles(tb: Table, s: int, since: int) -> set[int]:
    """Kinds that went by seat ``s`` after log row ``since`` (docs/rules.md furiten: "passed").

    A discard by another seat that was not won on (a later draw or call shows it was passed), an
    added-kan tile (robbable or not), and a closed-kan tile the seat could have robbed (kokushi).
    """
    out = set()
    rows = tb.log
    for i in range(since + 1, tb.last_progress):
        r = rows[i]
        if r[1] == s:
            continue
        if r[0] == EV_DISCARD:
            out.add(r[2] // 4)
        elif r[0] == EV_CALL and r[2] == MELD_KAKAN:
            out.add(r[4] // 4)
        elif r[0] == EV_CALL and r[2] == MELD_ANKAN:
            h = list(tb.hand[s])
            h[r[6]] += 1
            if _kokushi(h):
                out.add(r[6])
        elif r[0] == EV_KITA:
            out.add(NORTH)  # docs/rules.md: a kita goes by every seat as an added kan's tile
    return out


def furiten(tb: Table, s: int) -> str:
    """Why seat ``s`` may not ron ("" if it may): docs/rules.md furiten, from rivers and the log.

    Permanent: a wait is among the seat's own discards (called ones included). Temporary: the
    seat passed a winning tile since its last discard (even one with no yaku). Riichi: it passed
    a winning tile after its riichi; lasts the hand.
    """
    if s not in tb._furiten:
        tb._furiten[s] = _furiten(tb, s)
    return tb._furiten[s]


def _furiten(tb: Table, s: int) -> str:
    w = seat_waits(tb, s)
    if not w:
        return ""
    own = {x // 4 for x in tb.river[s]}
    if w & own:
        return "permanent"
    last_discard = 0
    riichi_discard = None
    for i, r in enumerate(tb.log):
        if r[0] == EV_DISCARD and r[1] == s:
            last_discard = i
            if r[4]:
                riichi_discard = i
    if w & _passed_tiles(tb, s, last_discard):
        return "temporary"
    if tb.riichi[s] and riichi_discard is not None and w & _passed_tiles(tb, s, riichi_discard):
        return "riichi"
    return ""


# ---------------------------------------------------------------------------- yaku


def _meld_args(tb: Table, s: int) -> list[tuple[str, str]]:
    out = []
    for mtype, _low, tiles, _src, _called in tb.melds[s]:
        h = [0] * 34
        for x in tiles:
            h[x // 4] += 1
        out.append((MELD_NAMES[mtype], hand34_to_str(h)))
    return out


@functools.cache
def _without_red_fives(rules: Rules) -> Rules:
    return rules.replace(red_fives=(0, 0, 0))


def has_yaku(tb: Table, s: int, closed: list[int], win: int, tsumo: bool, **situation) -> bool:
    """``engine.scoring.score_hand`` says the win of ``s`` on ``win`` is valid (has a yaku).

    Dora, red fives, honba and ippatsu never make a hand valid, so they are left out (the hand is
    scored under the same rules without red fives, as plain tiles); riichi (any kind) counts as
    riichi. With three players the hand is scored under the table's three-player rules with the
    seat's kita (nuki dora never make a hand valid either, but the scorer checks a rinshan draw
    against the seat's kans and kita).
    """
    dealer = tb.dealer
    if tb.players == 3:  # the seat's own kita (a replacement draw after one is a rinshan draw)
        situation["kita"] = sum(r[0] == EV_KITA and r[1] == s for r in tb.log)
    result = score_hand(
        hand34_to_str(closed),
        tile34_to_str(win),
        melds=_meld_args(tb, s),
        win_type="tsumo" if tsumo else "ron",
        seat_wind=WINDS[(s - dealer) % tb.players],
        round_wind=WINDS[min(tb.kyoku // 4, 3)],
        riichi=tb.riichi[s] > 0,
        rules=_without_red_fives(tb.rules),
        **situation,
    )
    return result.valid


# ---------------------------------------------------------------------------- claims


def claim_options(tb: Table, s: int, tile: int, d: int, kind: str) -> set[int]:
    """What seat ``s`` may do (besides pass) about ``tile`` offered by seat ``d``.

    docs/rules.md: houtei (no live tile left) offers only ron; chankan robs any added kan; a closed
    kan only by kokushi musou; kuikae: a call that would leave no legal discard is not offered.
    Chi only from the seat on the left; no calls in riichi; daiminkan needs a live tile and fewer
    than four kans.
    """
    rules = tb.rules
    x = tile // 4
    h = tb.hand[s]
    out: set[int] = set()
    if kind == OFFER_ANKAN:
        full = list(h)
        full[x] += 1
        can = _kokushi(full)
    else:
        can = x in seat_waits(tb, s)
    if can and not furiten(tb, s):
        closed = list(h)
        closed[x] += 1
        if kind == OFFER_DISCARD:
            ok = has_yaku(tb, s, closed, x, False, houtei=tb.live == 0)
        elif kind == OFFER_KITA:
            ok = has_yaku(tb, s, closed, x, False)  # a kita robbed is no chankan
        else:
            ok = has_yaku(tb, s, closed, x, False, chankan=True)
        if ok:
            out.add(A.RON)
    if kind != OFFER_DISCARD or tb.live == 0 or tb.riichi[s]:
        return out

    def leaves_discard(used: tuple[int, ...], forbidden: set[int]) -> bool:
        rest = list(h)
        for k in used:
            rest[k] -= 1
        return any(c > 0 and k not in forbidden for k, c in enumerate(rest))

    def red_and_plain(k: int, plain_needed: int) -> bool:
        held = [i for i in tb.ids[s] if i // 4 == k]
        reds = sum(_is_red(rules, i) for i in held)
        return reds > 0 and len(held) - reds >= plain_needed

    if h[x] >= 2 and leaves_discard((x, x), {x}):
        out.add(A.PON)
        if red_and_plain(x, 2):
            out.add(A.PON_PLAIN)
    if h[x] == 3 and tb.n_kans < 4:
        out.add(A.KAN + x)
    if s == (d + 1) % 4 and x < 27 and tb.players == 4:  # no chi with three players
        n = x % 9
        shapes = (
            (A.CHI_LOW, n <= 6, (x + 1, x + 2), {x, x + 3} if n <= 5 else {x}),
            (A.CHI_MID, 1 <= n <= 7, (x - 1, x + 1), {x}),
            (A.CHI_HIGH, n >= 2, (x - 2, x - 1), {x, x - 3} if n >= 3 else {x}),
        )
        for action, fits, used, forbidden in shapes:
            if fits and all(h[k] > 0 for k in used) and leaves_discard(used, forbidden):
                out.add(action)
                if any(red_and_plain(k, 1) for k in used):
                    out.add(action + A.PLAIN_OFFSET)
    return out


def claimers(tb: Table, tile: int, d: int, kind: str) -> list[int]:
    """Seats that may claim ``tile`` from ``d``, in asking order (turn order after ``d``)."""
    return [s for s in tb.others(d) if claim_options(tb, s, tile, d, kind)]


def offer_of(tb: Table, action: int) -> tuple[int, int, str] | None:
    """(tile, seat, kind) that the actor's turn action is about to offer; None for the others."""
    if tb.phase not in (PHASE_TURN, PHASE_RIICHI_DISCARD):
        return None
    s = tb.actor
    if action < A.RIICHI:
        red = action >= A.DISCARD_RED
        k = 4 + 9 * (action - A.DISCARD_RED) if red else action
        pool = [i for i in tb.ids[s] if i // 4 == k and _is_red(tb.rules, i) == red]
        draw = _last_draw(tb, s)
        tile = draw[2] if draw is not None and draw[2] in pool else pool[0]
        return tile, s, OFFER_DISCARD
    if A.KAN <= action < A.KAN + 34:
        k = action - A.KAN
        return 4 * k, s, OFFER_ANKAN if tb.hand[s][k] == 4 else OFFER_KAKAN
    if action == A.KITA:
        pool = [i for i in tb.ids[s] if i // 4 == NORTH]
        draw = _last_draw(tb, s)
        tile = draw[2] if draw is not None and draw[2] in pool else pool[0]
        return tile, s, OFFER_KITA
    return None


# ---------------------------------------------------------------------------- the seat to act


def _last_draw(tb: Table, s: int) -> tuple | None:
    """The row of ``s``'s draw if its turn began with one (None: it called, or it is not its turn)."""
    last = _last_play_row(tb.log)
    if last is not None and last[0] == EV_DRAW and last[1] == s:
        return last
    return None


def turn_actions(tb: Table, s: int) -> set[int]:
    """Seat ``s``'s own-turn actions (docs/rules.md, engine/actions.py)."""
    rules = tb.rules
    h = tb.hand[s]
    out: set[int] = set()
    draw = _last_draw(tb, s)
    if draw is None:
        # right after chi or pon: discard only; kuikae (docs/rules.md) forbids the called kind, and
        # after chi from an end, the kind beyond the other end
        last = _last_play_row(tb.log)
        forbidden: set[int] = set()
        if last is not None and last[0] == EV_CALL and last[1] == s:
            x = last[4] // 4
            low = last[6]
            forbidden.add(x)
            if last[2] == MELD_CHI:
                if x == low and x % 9 <= 5:
                    forbidden.add(x + 3)
                if x == low + 2 and x % 9 >= 3:
                    forbidden.add(x - 3)
        for i in tb.ids[s]:
            if i // 4 not in forbidden:
                out.add(_discard_id(rules, i))
        return out
    drawn = draw[2]
    rinshan = draw[3] == 1
    # a kita ends the first go-around as a call does (docs/rules.md, "Three-player riichi")
    no_calls = all(not ms for ms in tb.melds) and tb.kita_rows == 0
    first_go = no_calls and not tb.river[s]
    if _agari(tuple(h)) and has_yaku(
        tb,
        s,
        h,
        drawn // 4,
        True,
        rinshan=rinshan,
        haitei=not rinshan and tb.live == 0,
        tenhou=first_go and s == tb.dealer,
        chiihou=first_go and s != tb.dealer,
    ):
        out.add(A.TSUMO)
    if tb.riichi[s]:
        out.add(_discard_id(rules, drawn))  # in riichi only the drawn tile may go
    else:
        out.update(_discard_id(rules, i) for i in tb.ids[s])
    if tb.live > 0 and tb.n_kans < 4:
        for k in range(34):
            if h[k] == 4 and (not tb.riichi[s] or riichi_ankan_ok(h, drawn // 4, k)):
                out.add(A.KAN + k)
        for mtype, low, *_ in tb.melds[s]:
            if mtype == MELD_PON and h[low] >= 1:
                out.add(A.KAN + low)
    if (
        not tb.riichi[s]
        and tb.closed_hand(s)
        and tb.points[s] >= 1000
        and tb.live >= tb.players  # one more own draw: 4 tiles, 3 with three players
        and any(tenpai(tb, s, _minus(h, k)) for k in range(34) if h[k])
    ):
        out.add(A.RIICHI)
        if rules.open_riichi:
            out.add(A.OPEN_RIICHI)
    if rules.abortive_draws and first_go and sum(h[k] > 0 for k in YAOCHUU) >= 9:
        out.add(A.KYUUSHU)
    # kita (docs/rules.md, "Three-player riichi"): a North after a draw, in riichi only the one
    # just drawn, and a live tile to move to the dead wall
    if rules.kita and h[NORTH] and tb.live > 0 and (not tb.riichi[s] or drawn // 4 == NORTH):
        out.add(A.KITA)
    return out


def _minus(h: list[int], k: int, n: int = 1) -> tuple[int, ...]:
    g = list(h)
    g[k] -= n
    return tuple(g)


def riichi_ankan_ok(h: list[int], drawn_kind: int, k: int) -> bool:
    """docs/rules.md: a riichi hand may ankan only with the tile just drawn, only if the waits do not
    change, and only if every reading of the hand has that tile as a triplet."""
    if drawn_kind != k:
        return False
    before = _minus(h, k)
    after = _minus(h, k, 4)
    w = _waits(before)
    if w != _waits(after):
        return False
    for x in w:
        full = list(before)
        full[x] += 1
        if any(("triplet", k) not in sets for _pair, sets in _readings(tuple(full))):
            return False
    return True


def riichi_discards(tb: Table, s: int) -> set[int]:
    """After declaring riichi: the discards that keep the hand tenpai."""
    h = tb.hand[s]
    return {_discard_id(tb.rules, i) for i in tb.ids[s] if tenpai(tb, s, _minus(h, i // 4))}


def tenpai(tb: Table, s: int, hand: tuple[int, ...]) -> bool:
    """docs/rules.md, Draws: the 3n+1 concealed part ``hand`` of seat ``s`` has a live wait, one
    whose four copies are not all among its concealed tiles (with ``karaten_melds``, its melds'
    copies counted too). Riichi needs it after the declaration discard."""
    w = _waits(tuple(hand))
    if not tb.rules.karaten_melds:
        return bool(w)
    melded = [x // 4 for m in tb.melds[s] for x in m[2]]
    return any(hand[k] + melded.count(k) < 4 for k in w)


def current_offer(tb: Table) -> tuple[int, int, str]:
    """The tile being offered to claims, from the log: (tile, seat, kind)."""
    last = _last_play_row(tb.log)
    if last is None:
        raise ValueError("claim phase with nothing in the log to claim")
    if last[0] == EV_DISCARD:
        return last[2], last[1], OFFER_DISCARD
    if last[0] == EV_CALL and last[2] == MELD_KAKAN:
        return last[4], last[1], OFFER_KAKAN
    if last[0] == EV_CALL and last[2] == MELD_ANKAN:
        return 4 * last[6], last[1], OFFER_ANKAN
    if last[0] == EV_KITA:
        return last[2], last[1], OFFER_KITA
    raise ValueError(f"claim phase after log row {last}")


def legal_actions(state: State, rules: Rules, t: int = 0) -> set[int]:
    """The legal action ids of the seat to act at table ``t`` (empty at game over)."""
    tb = read_table(state, rules, t)
    return _legal(tb)


def _legal(tb: Table) -> set[int]:
    if tb.phase == PHASE_GAME_OVER:
        return set()
    s = tb.actor
    if tb.phase == PHASE_CLAIM:
        tile, d, kind = current_offer(tb)
        return claim_options(tb, s, tile, d, kind) | {A.PASS}
    if tb.phase == PHASE_RIICHI_DISCARD:
        return riichi_discards(tb, s)
    return turn_actions(tb, s)


# ---------------------------------------------------------------------------- comparison


def _names(ids) -> str:
    return ", ".join(A.action_name(a) for a in sorted(ids)) or "-"


def compare(state: State, rules: Rules, t: int = 0, tb: Table | None = None) -> list[str]:
    """Every disagreement between the engine and the reference at the current decision.

    Checks the mask of the seat to act and, in a claim, the seats the engine asks.
    """
    from engine.game import legal_mask  # the public mask: what the env and agents see

    if tb is None:
        tb = read_table(state, rules, t)
    engine = {int(a) for a in np.flatnonzero(legal_mask(state, t))}
    ref = _legal(tb)
    out = []
    if engine != ref:
        phase = ("turn", "riichi discard", "claim", "game over")[tb.phase]
        out.append(
            f"seat {tb.actor} ({phase}): engine only [{_names(engine - ref)}], "
            f"reference only [{_names(ref - engine)}]"
        )
    if tb.phase == PHASE_CLAIM:
        tile, d, kind = current_offer(tb)
        # a closed kan offers the drawn copy or any copy of its kind: compare kinds there
        same = int(state.claim_tile[t]) == tile or (
            kind == OFFER_ANKAN and int(state.claim_tile[t]) // 4 == tile // 4
        )
        if not same or int(state.claim_from[t]) != d:
            out.append(
                f"claim_tile/claim_from {int(state.claim_tile[t])}/{int(state.claim_from[t])}, "
                f"but the log offers {tile} from seat {d}"
            )
        asked = [int(x) for x in state.claim_queue[t, : int(state.claim_n[t])]]
        want = claimers(tb, tile, d, kind)
        if asked != want:
            out.append(
                f"{kind} of {tile34_to_str(tile // 4)} by seat {d}: engine asks seats {asked}, "
                f"reference {want}"
            )
    return out


def check_offer(tb: Table, action: int, after: State, t: int = 0) -> list[str]:
    """After a discard or kan: the seats the engine asks about its tile are the reference's.

    ``tb`` is ``read_table`` of the state before ``action``, ``after`` the state after the step
    (a claim decision on that tile, or already the next draw when nobody may claim).
    """
    offer = offer_of(tb, action)
    if offer is None:
        return []
    tile, d, kind = offer
    want = claimers(tb, tile, d, kind)
    asked_now = int(after.phase[t]) == PHASE_CLAIM and int(after.claim_from[t]) == d
    asked = [int(x) for x in after.claim_queue[t, : int(after.claim_n[t])]] if asked_now else []
    if asked != want:
        return [
            f"{kind} of {tile34_to_str(tile // 4)} by seat {d}: engine asks seats {asked}, "
            f"reference {want}"
        ]
    return []


# ---------------------------------------------------------------------------- random play


def situations(tb: Table, legal: set[int]) -> set[str]:
    """Tags of the rule situations a decision exercises (to show the comparison covers them)."""
    tags = set()
    s = tb.actor
    if tb.phase == PHASE_CLAIM:
        tile, d, kind = current_offer(tb)
        x = tile // 4
        tags.add(f"claim on {kind}")
        if A.RON in legal:
            tags.add({OFFER_DISCARD: "ron", OFFER_KITA: "ron on a kita"}.get(kind, "chankan"))
        if x in seat_waits(tb, s) and A.RON not in legal:
            tags.add(f"wait but no ron ({furiten(tb, s) or 'no yaku'})")
        if kind == OFFER_DISCARD and tb.live == 0:
            tags.add("houtei")
        for a, tag in (
            (A.PON, "pon"),
            (A.PON_PLAIN, "pon plain"),
            (A.KAN + x, "daiminkan"),
            (A.CHI_LOW, "chi"),
            (A.CHI_MID, "chi"),
            (A.CHI_HIGH, "chi"),
            (A.CHI_LOW_PLAIN, "chi plain"),
            (A.CHI_MID_PLAIN, "chi plain"),
            (A.CHI_HIGH_PLAIN, "chi plain"),
        ):
            if a in legal:
                tags.add(tag)
        if s != (d + 1) % 4 and x < 27 and tb.players == 4:
            tags.add("claim from a seat that may not chi")
        return tags
    if tb.phase == PHASE_RIICHI_DISCARD:
        tags.add("riichi discard")
        if len(legal) < len({_discard_id(tb.rules, i) for i in tb.ids[s]}):
            tags.add("riichi discard refused (breaks tenpai)")
        return tags
    held = {_discard_id(tb.rules, i) for i in tb.ids[s]}
    if _last_draw(tb, s) is None:
        tags.add("discard after a call")
        if held - legal:
            tags.add("kuikae")
    for a, tag in ((A.TSUMO, "tsumo"), (A.RIICHI, "riichi"), (A.OPEN_RIICHI, "open riichi")):
        if a in legal:
            tags.add(tag)
    if A.KYUUSHU in legal:
        tags.add("kyuushu")
    if A.KITA in legal:
        tags.add("kita in riichi" if tb.riichi[s] else "kita")
    elif tb.hand[s][NORTH] and tb.rules.kita and _last_draw(tb, s) is not None:
        tags.add("kita refused (" + ("riichi" if tb.riichi[s] else "empty live wall") + ")")
    if (
        A.RIICHI not in legal
        and _last_draw(tb, s) is not None
        and not tb.riichi[s]
        and tb.closed_hand(s)
        and tb.live >= tb.players
        and tb.points[s] < 1000
        and any(tenpai(tb, s, _minus(tb.hand[s], k)) for k in range(34) if tb.hand[s][k])
    ):
        tags.add("riichi refused: under 1,000 points")
    for k in range(34):
        if A.KAN + k in legal:
            tags.add("ankan" if tb.hand[s][k] == 4 else "kakan")
            if tb.riichi[s]:
                tags.add("riichi ankan")
        elif tb.hand[s][k] == 4 and tb.riichi[s]:
            tags.add("riichi ankan refused")
    if tb.riichi[s]:
        tags.add("riichi tsumogiri")
    if any(x in (16, 52, 53, 88) and _is_red(tb.rules, x) for x in tb.ids[s]):
        tags.add("red five held")
    return tags


def offer_situations(tb: Table, action: int) -> set[str]:
    """Tags of what the offer made by ``action`` exercises for the seats that are not asked."""
    offer = offer_of(tb, action)
    if offer is None:
        return set()
    tile, d, kind = offer
    tags = {f"offer of a {kind} tile"}
    for s in tb.others(d):
        if tile // 4 in seat_waits(tb, s) and furiten(tb, s):
            tags.add(f"offer skips a {furiten(tb, s)} furiten wait")
    return tags


def choose(tb: Table, legal: set[int], rng: np.random.Generator) -> int:
    """A random legal action that often plays the hand on (so riichi, wins and furiten occur).

    Ron 70 % of the time (passing it makes furiten), a call 35 %, tsumo 90 %, riichi 70 %, a kan
    60 %, kyuushu 30 %; otherwise mostly a discard that keeps the lowest shanten.
    """
    legal_sorted = sorted(legal)
    if tb.phase == PHASE_CLAIM:
        if A.RON in legal and rng.random() < 0.7:
            return A.RON
        calls = [a for a in legal_sorted if a not in (A.PASS, A.RON)]
        if calls and rng.random() < 0.35:
            return int(rng.choice(calls))
        return A.PASS
    for action, p in ((A.TSUMO, 0.9), (A.KYUUSHU, 0.3), (A.KITA, 0.8)):
        if action in legal and rng.random() < p:
            return action
    kans = [a for a in legal_sorted if A.KAN <= a < A.KAN + 34]
    if kans and rng.random() < 0.6:
        return int(rng.choice(kans))
    for action in (A.OPEN_RIICHI, A.RIICHI):
        if action in legal and rng.random() < 0.7:
            return action
    discards = [a for a in legal_sorted if a < A.RIICHI]
    if discards and rng.random() < 0.85:
        h = tb.hand[tb.actor]
        after = [
            _shanten(_minus(h, a if a < A.DISCARD_RED else 4 + 9 * (a - A.DISCARD_RED)))
            for a in discards
        ]
        best = min(after)
        return int(rng.choice([a for a, v in zip(discards, after, strict=True) if v == best]))
    return int(rng.choice(legal_sorted))


@dataclass
class Report:
    """The outcome of ``play_and_compare``: decisions checked, situations seen, disagreements."""

    decisions: int = 0
    games: int = 0
    seen: dict = field(default_factory=dict)
    differences: list = field(default_factory=list)

    def add(self, other: Report) -> None:
        self.decisions += other.decisions
        self.games += other.games
        for k, v in other.seen.items():
            self.seen[k] = self.seen.get(k, 0) + v
        self.differences += other.differences


def play_and_compare(
    game,
    rules: Rules,
    rng: np.random.Generator,
    moves: tuple[str, ...] = (),
    max_decisions: int = 10**6,
    stop_after: int = 20,
) -> Report:
    """Play ``game`` (an ``engine.game.Game``), comparing the engine with the reference at every
    decision: first the scripted ``moves`` (``engine.harness.scenario.action_id`` text, or
    ``"tsumogiri"``), then ``choose`` to the end of the game.

    Every decision also runs ``engine.harness.invariants.validate`` (bookkeeping and rule facts); a broken
    invariant counts as a difference. Follows the engine's mask when the two disagree, so one
    difference does not end the game. Stops early after ``stop_after`` differences or
    ``max_decisions`` decisions.
    """
    from engine.game import legal_mask, step
    from engine.harness.invariants import validate
    from engine.harness.scenario import action_id

    report = Report(games=1)
    st = game.state
    script = list(moves)
    while not st.game_over[0] and report.decisions < max_decisions:
        tb = read_table(st, rules)
        diffs = compare(st, rules, tb=tb)
        try:
            validate(st)
        except ValueError as exc:
            diffs.append(f"validate: {exc}")
        legal = _legal(tb)
        for tag in situations(tb, legal):
            report.seen[tag] = report.seen.get(tag, 0) + 1
        if diffs:
            legal = {int(a) for a in np.flatnonzero(legal_mask(st))}
        if script:
            move = script.pop(0)
            draw = _last_draw(tb, tb.actor)
            if move == "tsumogiri" and draw is not None:
                action = _discard_id(rules, draw[2])
            else:
                action = action_id(game, move)
            if action not in legal:
                report.differences.append(f"scripted move {move!r} is not legal: {_names(legal)}")
                break
        else:
            action = choose(tb, legal, rng)
        for tag in offer_situations(tb, action):
            report.seen[tag] = report.seen.get(tag, 0) + 1
        step(st, action)
        report.decisions += 1
        diffs += check_offer(tb, action, st)
        for d in diffs:
            report.differences.append(f"seed {int(st.seed[0])} decision {report.decisions}: {d}")
        if len(report.differences) >= stop_after:
            break
    return report
