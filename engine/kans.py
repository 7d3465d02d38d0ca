"""Kans (docs/rules.md, Kans): ankan and kakan with their chankan offers, completing any kan (dora
now or pending, suukaikan, the rinshan draw), and turning over kan dora; kita (three players:
a North set aside, offered for ron, then a replacement draw).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.deal import _draw
from engine.event_writers import (
    _log_dora,
    _log_kita,
    _log_meld,
)
from engine.melds import MELD_ANKAN, MELD_DAIMINKAN, MELD_KAKAN, MELD_PON
from engine.offers import _add_claimer, _ask_claimers, _open_offer
from engine.rules import (
    RULE_KAN_DORA_ON_DECLARE,
)
from engine.seats import (
    NORTH,
    _add_meld,
    _find_tile,
    _mark_passed_furiten,
    _n_players,
    _remove_tile,
    _seat_after,
)
from engine.settlement import _can_win
from engine.state import (
    CLAIM_ANKAN,
    CLAIM_BIT_RON,
    CLAIM_CHANKAN,
    CLAIM_KITA,
)
from engine.visibility import _furiten


@njit
def _reveal_dora(st, t, ev):
    """Turn over the next dora indicator (a kan dora)."""
    rec = st[t]
    k = rec.n_dora
    rec.n_dora = k + 1
    if rec.pending_dora > 0:
        rec.pending_dora -= 1
    _log_dora(st, t, ev, k)


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
def _offer_ron(st, t, tables, s, tile, kind):
    """Offer seat ``s``'s ankan, kakan or kita tile (``kind``) to every seat that may ron it (an
    ankan only with kokushi; ron on a kan is chankan) and ask them; True when one is asked."""
    rec = st[t]
    k = tile // 4
    _open_offer(st, t, tile, s, kind)
    chankan = np.int64(0 if kind == CLAIM_KITA else 1)
    n_players = _n_players(st, t)
    for j in range(1, n_players):
        o = _seat_after(s, j, n_players)
        can = _is_kokushi_with(rec.closed34[o], k) if kind == CLAIM_ANKAN else rec.waits[o, k] == 1
        if (
            can
            and not _furiten(st, t, o)
            and _can_win(st, t, tables, np.int64(o), np.int64(tile), np.int64(s), chankan)
        ):
            _add_claimer(st, t, o, CLAIM_BIT_RON)
    return _ask_claimers(st, t, s)


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.i32, x.i))
def _own_kan(st, t, ev, tables, s, k):
    """Ankan or kakan of kind ``k``; offers chankan (kokushi only for ankan), then completes it.

    A pending open/added kan indicator is revealed here (docs/rules.md) or, with
    ``kan_dora_on_declare`` off, once this kan is completed.
    """
    rec = st[t]
    if rec.pending_dora > 0 and rec.rules[RULE_KAN_DORA_ON_DECLARE]:
        _reveal_dora(st, t, ev)
    if rec.closed34[s, k] == 4:
        ts = np.empty(4, dtype=np.int32)
        for j in range(4):
            ts[j] = 4 * k + j
            _remove_tile(st, t, s, 4 * k + j)
        i = _add_meld(st, t, s, MELD_ANKAN, k, ts[0], ts[1], ts[2], ts[3], s, -1)
        kind = CLAIM_ANKAN
        offered = rec.drawn if rec.drawn // 4 == k else 4 * k
    else:
        i = 0
        while rec.meld_type[s, i] != MELD_PON or rec.meld_tile34[s, i] != k:
            i += 1
        added = _find_tile(st, t, s, k, True)
        if added < 0:
            added = _find_tile(st, t, s, k, False)
        _remove_tile(st, t, s, added)
        rec.meld_type[s, i] = MELD_KAKAN
        rec.meld_tiles[s, i, 3] = added
        rec.meld_called[s, i] = added
        kind = CLAIM_CHANKAN
        offered = added
    rec.drawn = -1
    rec.rinshan = 0
    _log_meld(st, t, ev, s, i)
    if _offer_ron(st, t, tables, s, np.int64(offered), np.int64(kind)):
        return
    if kind == CLAIM_CHANKAN:
        # a kakan tile no one may rob still counts as passed for furiten
        _mark_passed_furiten(st, t, s, k)
    _complete_kan(st, t, ev, tables, np.int64(s), kind == CLAIM_ANKAN)


@njit
def _complete_kan(st, t, ev, tables, s, closed_kan):
    """Kan effects: count it, dora now (ankan) or pending (open/added), suukaikan, rinshan draw."""
    rec = st[t]
    if rec.pending_dora > 0:
        _reveal_dora(st, t, ev)
    rec.n_kans += 1
    rec.first_go = 0
    for o in range(4):
        rec.ippatsu[o] = 0
    if closed_kan:
        _reveal_dora(st, t, ev)
    else:
        rec.pending_dora += 1
    if rec.n_kans == 4:
        owners = 0
        for o in range(4):
            for i in range(rec.n_melds[o]):
                mt = rec.meld_type[o, i]
                if mt in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN):
                    owners |= 1 << o
        if owners != 1 << s:
            rec.suukaikan_pending = 1
    _draw(st, t, ev, np.int64(s), np.bool_(True))


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.i32))
def _kita(st, t, ev, tables, s):
    """Kita (docs/rules.md, "Three-player riichi"): seat ``s`` sets a North aside (the drawn one
    first); every seat that may ron it is asked (no chankan yaku), then ``_complete_kita``."""
    rec = st[t]
    tile = _find_tile(st, t, s, np.int64(NORTH), False)
    _remove_tile(st, t, s, tile)
    rec.drawn = -1
    rec.rinshan = 0
    _log_kita(st, t, ev, s, tile)
    if _offer_ron(st, t, tables, s, np.int64(tile), np.int64(CLAIM_KITA)):
        return
    # a North no one may rob still went by every seat waiting on it (as an added kan's tile)
    _mark_passed_furiten(st, t, s, np.int64(NORTH))
    _complete_kita(st, t, ev, tables, np.int64(s), np.int64(tile))


@njit
def _complete_kita(st, t, ev, tables, s, tile):
    """The North is set aside (nuki dora): no call or kan, but ippatsu and the first go-around end
    for every seat; one live tile moves to the dead wall; a replacement draw (rinshan)."""
    rec = st[t]
    rec.kita_tiles[s, rec.n_kita[s]] = tile
    rec.n_kita[s] += 1
    rec.first_go = 0
    for o in range(4):
        rec.ippatsu[o] = 0
    _draw(st, t, ev, np.int64(s), np.bool_(True))
