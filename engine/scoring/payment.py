"""Limits and payments (docs/rules.md, Payments): base points from han, fu and yakuman, the
limit names, rounding to 100 and the shares of a ron or tsumo, honba included, sticks excluded.

The kernels serve ``_score_hand``; ``payment`` and ``base_points`` give the same numbers to Python
callers (the records use them, so a limit or a rounding is written once).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.arguments import check_bool, check_int
from engine.rules import (
    MAHJONGSOUL,
    RULE_KAZOE,
    RULE_KIRIAGE,
    Rules,
    as_rules,
)
from engine.scoring.layout import (
    LIMIT_BAIMAN,
    LIMIT_HANEMAN,
    LIMIT_KAZOE,
    LIMIT_MANGAN,
    LIMIT_NAMES,
    LIMIT_NONE,
    LIMIT_SANBAIMAN,
    LIMIT_YAKUMAN,
    N_RES,
    RES_PAY_DEALER,
    RES_PAY_NONDEALER,
    RES_PAY_RON,
)


@njit
def _limit_base(han, fu, yakuman, rules):
    """(limit, base points) from han, fu and the yakuman multiplier."""
    if yakuman > 0:
        return LIMIT_YAKUMAN, 8000 * yakuman
    if han >= 13 and rules[RULE_KAZOE]:
        return LIMIT_KAZOE, 8000
    if han >= 11:
        return LIMIT_SANBAIMAN, 6000
    if han >= 8:
        return LIMIT_BAIMAN, 4000
    if han >= 6:
        return LIMIT_HANEMAN, 3000
    if han >= 5:
        return LIMIT_MANGAN, 2000
    base = fu << (2 + han)
    if base >= 2000:
        return LIMIT_MANGAN, 2000
    if rules[RULE_KIRIAGE] and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
        return LIMIT_MANGAN, 2000
    return LIMIT_NONE, base


@njit
def _ceil100(x):
    return (x + 99) // 100 * 100


@njit(inline="always")
def _shares(base, dealer, tsumo, honba, payers, bisect, out):
    """Write ron / tsumo shares (honba included) to ``out`` when ``payers`` seats pay a tsumo (3,
    or 2 with three players); honba 100 per payer, on a ron too. ``bisect`` (three players without
    tsumo loss, "north bisection"): each payer adds half the absent seat's four-player share, its
    sum rounded up to 100 (docs/rules.md, "Three-player riichi"). Returns the total."""
    if tsumo:
        out[RES_PAY_RON] = 0
        d = _ceil100(2 * base)
        nd = d if dealer else _ceil100(base)
        # the absent seat is never the dealer: its share is ``nd``
        half = nd // 2 if bisect else 0
        each = _ceil100(nd + half) + 100 * honba
        out[RES_PAY_NONDEALER] = each
        if dealer:
            out[RES_PAY_DEALER] = 0
            return payers * each
        d = _ceil100(d + half) + 100 * honba
        out[RES_PAY_DEALER] = d
        return d + (payers - 1) * each
    ron = _ceil100(base * (6 if dealer else 4)) + 100 * payers * honba
    out[RES_PAY_RON] = ron
    out[RES_PAY_DEALER] = 0
    out[RES_PAY_NONDEALER] = 0
    return ron


@njit
def _payments(base, dealer, tsumo, honba, out):
    """Write ron / tsumo shares (honba included) to ``out``; returns the total paid."""
    return _shares(base, dealer, tsumo, honba, 3, False, out)


@njit
def _payments_3p(base, dealer, tsumo, honba, tsumo_loss, out):
    """Three players (docs/rules.md, "Three-player riichi"): the shares of ``_payments`` without
    the absent seat (``tsumo_loss``), else with half its share added to each payer's (north
    bisection); honba 100 per payer (200 on a ron). Returns the total."""
    return _shares(base, dealer, tsumo, honba, 2, not tsumo_loss, out)


def _limit_name(limit_id: int, yakuman: int) -> str:
    return (
        f"{yakuman}x yakuman"
        if limit_id == LIMIT_YAKUMAN and yakuman > 1
        else LIMIT_NAMES[limit_id]
    )


def _payments_dict(out: np.ndarray) -> dict[str, int]:
    """The format's ``payments`` object from a kernel's ``out`` vector."""
    if out[RES_PAY_RON]:
        return {"ron": int(out[RES_PAY_RON])}
    if out[RES_PAY_DEALER]:
        return {
            "tsumo_dealer": int(out[RES_PAY_DEALER]),
            "tsumo_nondealer": int(out[RES_PAY_NONDEALER]),
        }
    return {"tsumo_all": int(out[RES_PAY_NONDEALER])}


def payment(
    han: int,
    fu: int,
    *,
    dealer: bool,
    tsumo: bool,
    honba: int = 0,
    yakuman: int = 0,
    rules: Rules | str = MAHJONGSOUL,
) -> dict:
    """What a win of ``han``/``fu`` pays (the scoring reference tables), honba included, sticks excluded.

    Returns ``{"limit", "base", "payments", "total"}``; ``payments`` as in the hand-score format.
    ``yakuman`` > 0 is a yakuman of that multiplier (han and fu are then ignored). With three
    players a tsumo is paid by two seats (tsumo loss, or north bisection with ``tsumo_loss``
    off) and honba is 100 per payer.
    """
    checks = [("honba", honba, 0, 1000), ("yakuman", yakuman, 0, 6)]
    if not yakuman:
        checks += [("han", han, 1, 1000), ("fu", fu, 20, 1000)]
    for name, value, low, high in checks:
        check_int(name, value, low, high)
    dealer = check_bool("dealer", dealer)
    tsumo = check_bool("tsumo", tsumo)
    if not yakuman and fu != 25 and fu % 10:
        raise ValueError(f"fu must be 25 or a multiple of 10, got {fu}")
    rules = as_rules(rules)
    rules_array = rules.to_array()
    limit_id, base = _limit_base(int(han), int(fu), int(yakuman), rules_array)
    out = np.zeros(N_RES, dtype=np.int32)
    if rules.players == 3:
        total = _payments_3p(base, bool(dealer), bool(tsumo), int(honba), rules.tsumo_loss, out)
    else:
        total = _payments(base, bool(dealer), bool(tsumo), int(honba), out)
    return {
        "limit": _limit_name(int(limit_id), int(yakuman)),
        "base": int(base),
        "payments": _payments_dict(out),
        "total": int(total),
    }


def ceil100(x: int) -> int:
    """``x`` rounded up to a multiple of 100 (every payment is)."""
    return int(_ceil100(int(x)))


def limit_name(han: int, fu: int, yakuman: int = 0, rules: Rules | str = MAHJONGSOUL) -> str:
    """The limit a hand of ``han``/``fu`` reaches: ``""``, ``"mangan"`` ... ``"kazoe yakuman"``,
    ``"yakuman"`` (``"2x yakuman"`` ... for a multiple), under ``rules`` (kazoe, kiriage)."""
    limit_id, _ = _limit_base(int(han), int(fu), int(yakuman), as_rules(rules).to_array())
    return _limit_name(int(limit_id), int(yakuman))


def base_points(
    han: int, fu: int, yakuman: int = 0, rules: Rules | str = MAHJONGSOUL, limit: str = ""
) -> int:
    """Base points of a hand: 8000 per yakuman, the limit's fixed value, else fu x 2^(han+2)
    capped at mangan. A ``limit`` name given (a record's own) takes precedence over han and fu."""
    if yakuman:
        return 8000 * int(yakuman)
    fixed = {
        LIMIT_NAMES[LIMIT_MANGAN]: 2000,
        LIMIT_NAMES[LIMIT_HANEMAN]: 3000,
        LIMIT_NAMES[LIMIT_BAIMAN]: 4000,
        LIMIT_NAMES[LIMIT_SANBAIMAN]: 6000,
        LIMIT_NAMES[LIMIT_KAZOE]: 8000,
        LIMIT_NAMES[LIMIT_YAKUMAN]: 8000,
    }
    if limit:
        if limit not in fixed:
            raise ValueError(f"limit must be one of {sorted(fixed)} or empty, got {limit!r}")
        return fixed[limit]
    _, base = _limit_base(int(han), int(fu), 0, as_rules(rules).to_array())
    return int(base)


def hand_value(
    base: int, winner_is_dealer: bool, tsumo: bool, players: int = 4, tsumo_loss: bool = True
) -> int:
    """What a win of ``base`` points pays in all (ron, or the sum of the tsumo shares), without
    honba or sticks; ``players=3``: two payers, with tsumo loss or north bisection."""
    out = np.zeros(N_RES, dtype=np.int32)
    if players == 3:
        args = (int(base), bool(winner_is_dealer), bool(tsumo), 0, bool(tsumo_loss), out)
        return int(_payments_3p(*args))
    return int(_payments(int(base), bool(winner_is_dealer), bool(tsumo), 0, out))


def tsumo_shares(base: int, winner_is_dealer: bool) -> tuple[int, int]:
    """(dealer share, non-dealer share) of a tsumo of ``base`` points, honba excluded; a dealer's
    tsumo has no dealer share (0)."""
    out = np.zeros(N_RES, dtype=np.int32)
    _payments(int(base), bool(winner_is_dealer), True, 0, out)
    return int(out[RES_PAY_DEALER]), int(out[RES_PAY_NONDEALER])
