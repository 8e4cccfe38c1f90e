"""Sample statistics with 95 % intervals, shared by the arena and ``balance``:
:class:`Estimate`, :func:`estimate`, :func:`wilson` (the Wilson score interval for rates,
:data:`RATE`) and :func:`difference` (of two independent samples).

>>> e = estimate([1.0, 0.0, 1.0, 1.0], RATE)
>>> e.mean, round(e.low, 3), round(e.high, 3)
(0.75, 0.301, 0.954)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: The two-sided 95 % quantile of the normal distribution.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its 95 % interval: ``mean`` ± ``half`` over ``n`` values, kept
    within ``bounds`` (a win rate lies in 0 … 1, a difference of win rates in −1 … 1)."""

    n: int
    mean: float
    half: float
    bounds: tuple[float, float] = (-math.inf, math.inf)
    #: An interval not centred on ``mean`` (the Wilson interval of a rate), or None.
    interval: tuple[float, float] | None = None

    @property
    def low(self) -> float:
        """Lower end of the interval."""
        if self.interval is not None:
            return self.interval[0]
        return max(self.bounds[0], self.mean - self.half)

    @property
    def high(self) -> float:
        """Upper end of the interval."""
        if self.interval is not None:
            return self.interval[1]
        return min(self.bounds[1], self.mean + self.half)

    @property
    def significant(self) -> bool:
        """Whether the interval excludes zero."""
        return self.n > 1 and (self.low > 0 or self.high < 0)

    def to_json(self) -> dict[str, Any]:
        """``{"n", "mean", "low", "high"}``; ``low`` and ``high`` are null when nothing is known
        of the spread (fewer than two values): JSON has no infinity."""
        known = math.isfinite(self.half)
        return {"n": self.n, "mean": self.mean, "low": self.low if known else None,
                "high": self.high if known else None}

    def __str__(self) -> str:
        if not math.isfinite(self.half):
            return f"{self.mean:+.3f} [interval unknown: n={self.n}]"
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"


#: The range of a win rate (per seat-deal, 1 when the side won).
RATE = (0.0, 1.0)


def wilson(p: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``p`` (0 … 1) observed over ``n`` ≥ 1
    values: centre (p + z²/2n)/(1 + z²/n), half-width z/(1 + z²/n)·√(p(1−p)/n + z²/4n²).
    Unlike p ± z·√(p(1−p)/n) it keeps a width at p = 0 or 1 and stays within 0 … 1.
    Example: 0 of 30 → (0, 0.1135)."""
    z2 = Z95 * Z95
    d = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / d
    half = Z95 / d * math.sqrt(max(0.0, p * (1 - p)) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def estimate(values: Sequence[float],
             bounds: tuple[float, float] = (-math.inf, math.inf)) -> Estimate:
    """Mean and 95 % interval of ``values``, kept within ``bounds``. A rate (``bounds`` is
    :data:`RATE`: values in 0 … 1, e.g. 1 when a side won) gets the Wilson score interval
    (:func:`wilson`, over ``n = len(values)``); other values the normal approximation (sample
    standard deviation), whose half-width is infinite with fewer than two values (nothing is
    known)."""
    n = len(values)
    if n == 0:
        return Estimate(0, 0.0, math.inf, bounds)
    if bounds == RATE:
        p = sum(values) / n
        lo, hi = wilson(p, n)
        return Estimate(n, p, (hi - lo) / 2, bounds, (lo, hi))
    m = sum(values) / n
    if n == 1:
        return Estimate(1, m, math.inf, bounds)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return Estimate(n, m, Z95 * math.sqrt(var / n), bounds)


def difference(a: Sequence[float], b: Sequence[float],
               bounds: tuple[float, float] = (-math.inf, math.inf)) -> Estimate:
    """Mean of ``a`` minus mean of ``b`` with a 95 % interval (independent samples), kept
    within ``bounds`` (for win rates: −1 … 1)."""
    ea, eb = estimate(a), estimate(b)
    if ea.n < 2 or eb.n < 2:
        return Estimate(min(ea.n, eb.n), ea.mean - eb.mean, math.inf, bounds)
    half = math.hypot(ea.half, eb.half)
    return Estimate(min(ea.n, eb.n), ea.mean - eb.mean, half, bounds)
