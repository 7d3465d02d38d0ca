"""A claim offer: the tile offered, who may claim it, and asking them in turn order.

Shared by discards (``engine/claims.py``: ron, pon, kan, chi) and added or closed kans
(``engine/kans.py``: chankan). The seats asked are queued in turn order after the seat that offered
the tile; the first of them acts next.
"""

from __future__ import annotations

from engine._numba import njit
from engine.state import PHASE_CLAIM


@njit(inline="always")
def _open_offer(st, t, tile, src, kind):
    """Offer ``tile`` from seat ``src`` (``CLAIM_*`` ``kind``) with nobody asked yet."""
    rec = st[t]
    rec.claim_tile = tile
    rec.claim_from = src
    rec.claim_kind = kind
    rec.claim_n = 0
    rec.claim_pos = 0
    for s in range(4):
        rec.claim_mask[s] = 0
        rec.claim_answer[s] = -1


@njit(inline="always")
def _add_claimer(st, t, s, bits):
    """Queue seat ``s`` with its ``CLAIM_BIT_*`` options (callers go in turn order)."""
    rec = st[t]
    rec.claim_mask[s] = bits
    rec.claim_queue[rec.claim_n] = s
    rec.claim_n += 1


@njit
def _ask_claimers(st, t, src):
    """Hand the decision to the first queued seat; False when nobody may claim the tile."""
    rec = st[t]
    if rec.claim_n == 0:
        return False
    rec.phase = PHASE_CLAIM
    rec.turn = src
    rec.actor = rec.claim_queue[0]
    return True
