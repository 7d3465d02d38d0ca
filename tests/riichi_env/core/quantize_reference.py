"""The reference the byte observations are checked against: a float32 observation turned into
bytes row by row, ``round(255 * (x - low) / (high - low))`` clamped to 0..255 with each row's
``bounds``. The encoders write these bytes themselves (``encoders._unit``, ``_score``); the tests
compare them with this, over every encoder and every value a row can hold."""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from riichi_env.core.encoders import ALL_ENCODERS, ENCODER_IDS, N_ROWS, bounds

MAX_ROWS = 192
"""Row capacity of the byte bounds (``QUANT_LO``, ``QUANT_INV``): rows of the largest encoder
(``oracle_v0``, 184), rounded up."""
if max(N_ROWS.values()) > MAX_ROWS:
    raise ImportError(f"MAX_ROWS = {MAX_ROWS} is below an encoder's rows: raise it")


def _byte_bounds() -> tuple[np.ndarray, np.ndarray]:
    """Each encoder's rows' low bound and 255 / (high - low), ``float32 (encoders, MAX_ROWS)``,
    each encoder at its id (the three-seat encoders too)."""
    lo = np.zeros((len(ALL_ENCODERS), MAX_ROWS), dtype=np.float32)
    inv = np.ones((len(ALL_ENCODERS), MAX_ROWS), dtype=np.float32)
    for name in ALL_ENCODERS:
        i = ENCODER_IDS[name]
        low, high = bounds(name)
        lo[i, : low.shape[0]] = low[:, 0]
        inv[i, : low.shape[0]] = 255.0 / (high[:, 0] - low[:, 0])
    return lo, inv


QUANT_LO, QUANT_INV = _byte_bounds()


@njit(cache=False, fastmath=True)  # a test kernel: no cache files in tests/
def _quantize(x, lo, inv, out):
    """``out = round((x - lo) * inv)``, the byte form of a float observation (0 .. 255); ``lo``,
    ``inv``: an encoder's ``QUANT_LO``, ``QUANT_INV`` rows. ``fastmath`` lets the clamp and the
    conversion vectorize (values are finite)."""
    zero = np.float32(0.0)
    top = np.float32(255.0)
    for r in range(x.shape[0]):
        a = inv[r]
        b = np.float32(0.5) - lo[r] * inv[r]
        row = x[r]
        dest = out[r]
        for c in range(row.shape[0]):
            dest[c] = np.uint8(np.int32(min(max(row[c] * a + b, zero), top)))
