"""Intervals and paired differences with the deal set as the unit (numpy and the standard library).

Duplicate play (``riichi_env.batch.arena``) plays each set of walls, a *deal set*, in every seat
rotation. The games of one deal set share the luck of its walls, and a spec seated twice in a
game has ranks that constrain each other, so the seat-games are not independent draws: the deal
sets are. Every figure of the arena is a ratio of per-deal-set totals, ``R = sum(y) / sum(n)``
(the ranks a spec took over its seat-games, or its wins over the hands it played), and its
standard error is the cluster-robust (linearised, "sandwich") one over the deal sets:

    se(R)² = sum_k (y_k - R n_k)² / (K (K - 1) nbar²),   nbar = sum(n) / K,

with a Student t quantile of ``K - 1`` degrees of freedom for the interval. A difference of two
figures on the same deal sets uses the per-deal-set difference of the two linearised terms, so
whatever the two share (the walls, the table) cancels. With a figure of constant ``n_k`` (every
rank-based figure) this is exactly the t interval of the deal sets' means.

Why this and not a bootstrap over deal sets: it is deterministic (the same games give the same
interval, so a published table can be checked), it costs nothing (``--target-ci`` recomputes it
after every batch), and with few deal sets the t quantile keeps the coverage near the nominal
level where a percentile bootstrap falls short (it behaves as a normal interval with ``K``
rather than ``K - 1`` in the variance). ``tests/riichi_env/batch/test_arena_stats.py`` shows the
coverage on simulated and on real duplicate games.

When every deal set gives the same value at the edge of a figure's range (a spec first in every
game), the spread is unknown rather than 0: the interval then reaches ``3 / K`` of the range
from the edge (the rule of three).
"""

from __future__ import annotations

import functools
import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from engine.arguments import describe

LEVEL = 0.95
"""Confidence level of every interval."""
POWER = 0.8
"""Power of the smallest detectable difference (``min_detectable``)."""
_CF_ITERATIONS = 10_000
_CF_EPS = 1e-15
_LARGE_DF = 1e7
"""Degrees of freedom past which the t distribution is taken as the normal one."""


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, _CF_ITERATIONS + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _CF_EPS:
            break
    return h


def beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)`` for ``a, b > 0``, ``0 <= x <= 1``."""
    if not (a > 0 and b > 0):
        raise ValueError(f"a and b must be > 0, got {describe(a)} and {describe(b)}")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be in [0, 1], got {describe(x)}")
    if x in (0.0, 1.0):
        return x
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf2(t: float, df: float) -> float:
    """``P(|T| >= |t|)`` for Student's t with ``df`` degrees of freedom (a two-sided p-value)."""
    if not df > 0:
        raise ValueError(f"df must be > 0, got {describe(df)}")
    t = abs(float(t))
    if math.isinf(t):
        return 0.0
    if df > _LARGE_DF:
        return 2.0 * (1.0 - NormalDist().cdf(t)) if t < 8 else math.erfc(t / math.sqrt(2))
    return beta_inc(df / 2.0, 0.5, df / (df + t * t))


def t_cdf(t: float, df: float) -> float:
    """``P(T <= t)`` for Student's t with ``df`` degrees of freedom."""
    half = t_sf2(t, df) / 2.0
    return 1.0 - half if t >= 0 else half


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``df`` may be a float)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be between 0 and 1, got {describe(p)}")
    if not df > 0:
        raise ValueError(f"df must be > 0, got {describe(df)}")
    if p == 0.5:
        return 0.0
    if df > _LARGE_DF:
        return NormalDist().inv_cdf(p)
    upper = p > 0.5
    tail = 2.0 * (1.0 - p if upper else p)  # P(|T| >= q), decreasing in q
    lo, hi = 0.0, max(1.0, NormalDist().inv_cdf(1.0 - tail / 2.0))
    while t_sf2(hi, df) > tail:
        lo, hi = hi, hi * 2.0
    for _ in range(200):  # bisection to double precision
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        if t_sf2(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    q = (lo + hi) / 2.0
    return q if upper else -q


class Estimate(NamedTuple):
    """A figure estimated over deal sets: its value, standard error and ``LEVEL`` interval."""

    value: float
    se: float
    """Cluster-robust standard error over the deal sets (nan with fewer than two)."""
    lo: float
    hi: float
    deal_sets: int
    min_detectable: float
    """The smallest true difference (from a fixed value, or between the two figures of a paired
    difference) that a two-sided test at ``1 - LEVEL`` finds with probability ``POWER``."""
    p_value: float = math.nan
    """Two-sided, for a difference being 0 (nan for a single figure)."""

    @property
    def width(self) -> float:
        """``hi - lo`` (nan without an interval)."""
        return self.hi - self.lo


@functools.lru_cache(maxsize=4096)
def _quantiles(k: int, level: float) -> tuple[float, float]:
    """The t quantiles of ``k`` deal sets: the interval's, and the one of ``POWER``."""
    df = k - 1
    return t_quantile(0.5 + level / 2.0, df), t_quantile(POWER, df)


def _check(y: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(y, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if y.ndim != 1 or y.shape != n.shape:
        raise ValueError(
            f"y and n must be two 1-D arrays of the same length (one entry per deal set), "
            f"got shapes {y.shape} and {n.shape}"
        )
    if not (np.isfinite(y).all() and np.isfinite(n).all()) or (n < 0).any():
        raise ValueError("y must be finite and n finite and >= 0")
    return y, n


def _terms(y: np.ndarray, n: np.ndarray) -> tuple[float, np.ndarray]:
    """The ratio and each deal set's linearised term ``(y_k - R n_k) / nbar``."""
    total = float(n.sum())
    if total == 0:
        return math.nan, np.full(y.shape, math.nan)
    r = float(y.sum()) / total
    return r, (y - r * n) / (total / y.size)


def _estimate(
    value: float,
    terms: np.ndarray,
    level: float,
    bounds: tuple[float, float] | None,
    paired: bool,
) -> Estimate:
    k = terms.size
    if k < 2 or not math.isfinite(value) or not np.isfinite(terms).all():
        return Estimate(value, math.nan, math.nan, math.nan, k, math.nan, math.nan)
    se = math.sqrt(float(terms @ terms) / (k * (k - 1)))
    q, q_power = _quantiles(k, level)
    lo, hi = value - q * se, value + q * se
    if bounds is not None:
        lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
        lo, hi = min(lo, value), max(hi, value)
        span = bounds[1] - bounds[0]
        if se == 0 and not paired and math.isfinite(span) and value in bounds:
            # every deal set at the edge (first in every game): the spread is unknown, not 0.
            # The rule of three: with 95 % confidence fewer than 3/K of the deal sets differ,
            # each by at most the whole range.
            reach = min(3.0 / k, 1.0) * span
            lo, hi = (value, value + reach) if value == bounds[0] else (value - reach, value)
    p = math.nan
    if paired:  # no spread at all: certain of a 0 difference, or of one that is not 0
        p = t_sf2(value / se, k - 1) if se > 0 else float(value == 0)
    return Estimate(value, se, lo, hi, k, (q + q_power) * se, p)


def ratio_estimate(
    y, n, level: float = LEVEL, bounds: tuple[float, float] | None = None
) -> Estimate:
    """``sum(y) / sum(n)`` over deal sets (``y[k]``, ``n[k]``: deal set ``k``'s totals) with its
    cluster-robust interval (module docstring), clipped to ``bounds`` (the figure's range).

    Fewer than two deal sets, or no ``n`` at all, give nan where nothing can be said.
    """
    y, n = _check(y, n)
    _level(level)
    value, terms = _terms(y, n)
    return _estimate(value, terms, level, bounds, paired=False)


def ratio_difference(ya, na, yb, nb, level: float = LEVEL) -> Estimate:
    """``sum(ya) / sum(na) - sum(yb) / sum(nb)`` over the same deal sets, paired by deal set, with
    its interval and two-sided p-value (Student's t with ``K - 1`` degrees of freedom)."""
    ya, na = _check(ya, na)
    yb, nb = _check(yb, nb)
    if ya.shape != yb.shape:
        raise ValueError(f"both figures need the same deal sets, got {ya.size} and {yb.size}")
    _level(level)
    ra, ta = _terms(ya, na)
    rb, tb = _terms(yb, nb)
    return _estimate(ra - rb, ta - tb, level, None, paired=True)


def deal_sets_for(se: float, deal_sets: int, width: float, level: float = LEVEL) -> int:
    """About how many deal sets bring an interval of standard error ``se`` (over ``deal_sets``)
    down to ``width`` (the standard error shrinks as one over the square root of the deal sets)."""
    if not (math.isfinite(se) and deal_sets >= 2 and width > 0):
        return 0
    q = NormalDist().inv_cdf(0.5 + level / 2.0)
    need = deal_sets * (2.0 * q * se / width) ** 2
    for _ in range(4):  # the t quantile of the deal sets needed, a fixed point
        need = (
            deal_sets * (2.0 * t_quantile(0.5 + level / 2.0, max(need, 2.0) - 1) * se / width) ** 2
        )
    return max(math.ceil(need), 2)


def _level(level: float) -> None:
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {describe(level)}")


__all__ = [
    "LEVEL",
    "POWER",
    "Estimate",
    "beta_inc",
    "deal_sets_for",
    "ratio_difference",
    "ratio_estimate",
    "t_cdf",
    "t_quantile",
    "t_sf2",
]
