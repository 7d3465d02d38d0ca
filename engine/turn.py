"""Applying an action: ``_step`` checks it against the mask, ``_apply`` plays a legal one (a discard
and its claims, riichi, tsumo, kyuushu kyuuhai, a kan) and advances to the next decision.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import (
    DISCARD_RED,
    KAN,
    KITA,
    KYUUSHU,
    N_ACTIONS,
    N_ACTIONS_3P,
    OPEN_RIICHI,
    RIICHI,
    TSUMO,
)
from engine.claims import _offer_discard, _resolve_claims
from engine.event_writers import (
    _log_discard,
    _log_riichi,
)
from engine.events import (
    DRAW_KYUUSHU,
)
from engine.hand_end import _finish_hand
from engine.kans import _kita, _own_kan, _reveal_dora
from engine.legality import _legal_mask
from engine.rules import (
    RULE_PLAYERS,
    RULE_RINSHAN_KAN_DORA,
)
from engine.seats import _find_tile, _remove_tile, _update_waits
from engine.settlement import _abort, _win
from engine.state import (
    PHASE_CLAIM,
    PHASE_GAME_OVER,
    PHASE_RIICHI_DISCARD,
    RIVER_RIICHI,
    RIVER_TSUMOGIRI,
)

OK = 0
ERR_GAME_OVER = 1
ERR_RANGE = 2
ERR_ILLEGAL = 3
ERR_NAMES = ("ok", "the game is over", "action out of range", "illegal action")


@njit
def _step(st, t, ev, tables, action):
    """Check ``action`` against the legal mask, apply it and advance; ``OK`` or an ``ERR_*``."""
    if st[t].phase == PHASE_GAME_OVER:
        return ERR_GAME_OVER
    n = N_ACTIONS_3P if st[t].rules[RULE_PLAYERS] == 3 else N_ACTIONS
    if action < 0 or action >= n:
        return ERR_RANGE
    mask = np.zeros(n, dtype=np.int8)
    _legal_mask(st, t, tables, mask)
    if not mask[action]:
        return ERR_ILLEGAL
    _apply(st, t, ev, tables, action)
    return OK


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.i))
def _apply(st, t, ev, tables, action):
    """Apply a legal action (unchecked) and advance to the next decision.

    A hand settled by the action is ended here, last (``engine/hand_end.py`` ``_finish_hand``).
    """
    rec = st[t]
    rec.n_decisions += 1
    phase = rec.phase
    s = rec.actor
    if phase == PHASE_CLAIM:
        rec.claim_answer[s] = action
        rec.claim_pos += 1
        if rec.claim_pos < rec.claim_n:
            rec.actor = rec.claim_queue[rec.claim_pos]
            return
        _resolve_claims(st, t, ev, tables)
    elif action < RIICHI:
        tile = _discard(st, t, ev, tables, s, action)
        _offer_discard(st, t, ev, tables, s, tile)  # beside, not inside ``_discard``: inlined
        # into the inlined function it costs ``_apply`` ~0.9 s more compile (docs/internals.md)
    elif action in (RIICHI, OPEN_RIICHI):
        double = rec.first_go == 1 and rec.n_river[s] == 0
        rec.riichi[s] = 2 if double else 1
        rec.open_riichi[s] = 1 if action == OPEN_RIICHI else 0
        rec.phase = PHASE_RIICHI_DISCARD
        _log_riichi(st, t, ev, s, double, rec.open_riichi[s])
    elif action == TSUMO:
        if rec.pending_dora > 0 and rec.rules[RULE_RINSHAN_KAN_DORA]:
            _reveal_dora(st, t, ev)
        _win(st, t, ev, tables, s, s, rec.drawn, np.int64(0))
    elif action == KYUUSHU:
        _abort(st, t, ev, tables, np.int64(DRAW_KYUUSHU), np.int64(s))
    elif action == KITA:
        _kita(st, t, ev, tables, s)
    else:
        _own_kan(st, t, ev, tables, s, action - KAN)
    _finish_hand(st, t, ev, tables)


@njit(inline="always")
def _discard(st, t, ev, tables, s, action):
    """Discard (tsumogiri flag, riichi declaration tile); the tile discarded, which ``_apply``
    then offers for claims (``_offer_discard``)."""
    rec = st[t]
    if action >= DISCARD_RED:
        tile = _find_tile(st, t, s, 4 + 9 * (action - DISCARD_RED), True)
    else:
        tile = _find_tile(st, t, s, action, False)
    k = tile // 4
    tsumogiri = tile == rec.drawn
    declaring = rec.phase == PHASE_RIICHI_DISCARD
    _remove_tile(st, t, s, tile)
    i = rec.n_river[s]
    rec.river[s, i] = tile
    rec.river_flags[s, i] = (RIVER_TSUMOGIRI if tsumogiri else 0) | (
        RIVER_RIICHI if declaring else 0
    )
    rec.n_river[s] = i + 1
    rec.discarded34[s, k] = 1
    if not (k >= 27 or k % 9 == 0 or k % 9 == 8):
        rec.nagashi[s] = 0
    rec.furiten_temp[s] = 0
    if not declaring:
        rec.ippatsu[s] = 0
    else:
        rec.riichi_pending = s
    _log_discard(st, t, ev, s, tile, tsumogiri, declaring)
    if rec.pending_dora > 0:
        _reveal_dora(st, t, ev)
    rec.drawn = -1
    rec.rinshan = 0
    rec.kuikae[:] = -1
    _update_waits(st, t, tables, s)
    return tile
