"""The settlement's arithmetic on numbers, the one place for it: a pair's multiplier under
``cap multiplier``, whether a multiplying play counts under ``cap bombs``, and the points of
``settle per_peasant``. The game's scoring (:mod:`ddzspec.game.scoring`, on its factors) and
the solver's score search (:mod:`ddzspec.solver.search`, which sits below the game) both
settle with it. Sources: seeds 000/002 (classic: landlord ±2S, each peasant ∓S), 003 (duel
±S); the caps (封顶) and a peasant's own doubling: Happy Dou Dizhu's rule pages.

>>> pair_multiplier(16, 8), pair_multiplier(16, None)
(8, 16)
>>> play_counts(2, 3), play_counts(3, 3), play_counts(9, None)
(True, False, True)
>>> points(3, 0, True, (0, 2, 4))   # base 3, landlord seat 0 wins; pairs at x2 and x4
(18, -6, -12)
"""

from __future__ import annotations

from collections.abc import Sequence


def pair_multiplier(product: int, cap: int | None) -> int:
    """The multiplier a peasant settles at with the landlord: ``product``, the product of its
    pair's factors that count (the table's times its own), at most ``cap`` (``cap
    multiplier N``; None: no cap)."""
    return product if cap is None or product <= cap else cap


def play_counts(counted: int, cap: int | None) -> bool:
    """Whether a play of a multiplying shape (bomb, rocket, …) multiplies when ``counted``
    such plays have multiplied before it: ``cap bombs N`` counts the first N only (a later one
    is itemised, cut); None: no cap."""
    return cap is None or counted < cap


def points(base: int, landlord: int, landlord_wins: bool,
           multipliers: Sequence[int]) -> tuple[int, ...]:
    """``settle per_peasant``: the points of each seat. ``multipliers[s]``: the multiplier the
    peasant ``s`` settles at (:func:`pair_multiplier`; the landlord's entry is not read). Each
    peasant pays (or gets) base × its multiplier to (from) the landlord, who gets (pays) the
    sum: zero-sum."""
    sign = 1 if landlord_wins else -1
    scores = [0] * len(multipliers)
    for p, mult in enumerate(multipliers):
        if p != landlord:
            scores[p] = -sign * base * mult
            scores[landlord] += sign * base * mult
    return tuple(scores)


__all__ = ["pair_multiplier", "play_counts", "points"]
