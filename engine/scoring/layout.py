"""The scoring kernel's vectors: ``ctx`` (the situation of a win), ``out`` (the result),
status and limit codes, shared by ``engine/scoring/kernel.py``, ``engine/scoring/payment.py`` and the
game's settlement.
"""

from __future__ import annotations

(
    CTX_TSUMO,
    CTX_SEAT_WIND,
    CTX_ROUND_WIND,
    CTX_RIICHI,
    CTX_OPEN_RIICHI,
    CTX_IPPATSU,
    CTX_RINSHAN,
    CTX_CHANKAN,
    CTX_HAITEI,
    CTX_HOUTEI,
    CTX_TENHOU,
    CTX_CHIIHOU,
    CTX_HONBA,
    CTX_KYOTAKU,
    CTX_N_AKA,
    CTX_N_DORA,
    CTX_N_URA,
    CTX_YAKUMAN_PAY,
) = range(18)
N_CTX = 18
"""Length of the ``ctx`` vector of ``_score_hand``."""

(
    RES_STATUS,
    RES_HAN,
    RES_FU,
    RES_YAKUMAN,
    RES_LIMIT,
    RES_BASE,
    RES_PAY_RON,
    RES_PAY_DEALER,
    RES_PAY_NONDEALER,
    RES_WINNER_GAIN,
) = range(10)
N_RES = 10
"""Length of the ``out`` vector of ``_score_hand``."""

STATUS_OK = 0
STATUS_NOT_AGARI = 1
STATUS_NO_YAKU = 2

(
    LIMIT_NONE,
    LIMIT_MANGAN,
    LIMIT_HANEMAN,
    LIMIT_BAIMAN,
    LIMIT_SANBAIMAN,
    LIMIT_KAZOE,
    LIMIT_YAKUMAN,
) = range(7)
LIMIT_NAMES = ("", "mangan", "haneman", "baiman", "sanbaiman", "kazoe yakuman", "yakuman")

MAX_INDICATORS = 5
"""Dora (and ura) indicators: one at the start plus one per kan."""
MAX_COUNTER = 1000
"""Largest honba / kyotaku accepted by ``score_hand`` (keeps int32 payments exact)."""

__all__ = [name for name in dir() if name.isupper()]
"""Every constant above (``engine.scoring.hand_score`` re-exports them)."""
