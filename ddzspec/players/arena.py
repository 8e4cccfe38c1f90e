"""Matches between computer levels on duplicate deals, with 95 % confidence intervals.

Entry point: :func:`arena` (rules, levels, games, seed), played on :mod:`ddzspec.execute` as one
task per duplicate deal (:func:`duplicate_deal`: deal ``k`` played once per rotation of the
levels over the seats, bidding included), summarised as an :class:`ArenaResult`, its figures
estimated with :mod:`ddzspec.stats` and paired by deal (:func:`paired_difference`).

Why figures are clustered by duplicate deal and differences paired by deal: docs/game.md,
"Design notes, module by module".
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..game import GameState
from ..rules import Rules
from ..stats import RATE, Estimate, estimate
from .base import Player, prepare
from .levels import LEVELS, player_for


@dataclass(frozen=True, slots=True)
class LevelRole:
    """One level in one role: ``wins`` (its side's win rate) and ``points`` (per seat-deal),
    clustered by duplicate deal: ``n`` of each estimate counts the deals in which the level
    held the role (:func:`summarize`)."""

    level: int
    role: str
    wins: Estimate
    points: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "role": self.role, "win_rate": self.wins.to_json(),
                "points": self.points.to_json()}


@dataclass(frozen=True, slots=True)
class SignTest:
    """The sign test of paired per-deal differences: ``better`` deals where the higher level
    did better, ``worse`` where it did worse (ties left out), and ``p``, the two-sided exact
    binomial probability of a split at least this uneven if either level were as likely to
    do better (Dixon & Mood 1946)."""

    better: int
    worse: int
    p: float

    def to_json(self) -> dict[str, Any]:
        return {"better": self.better, "worse": self.worse, "p": self.p}

    def __str__(self) -> str:
        return f"{self.better} better, {self.worse} worse (p {self.p:.2g})"


@dataclass(frozen=True, slots=True)
class Comparison:
    """``higher`` level minus ``lower`` level in ``role``: win rate and points differences,
    paired by deal (:func:`paired_difference`; ``n`` of each estimate: the deals where both
    levels held the role), and the sign test of the points differences (:func:`sign_test`)."""

    higher: int
    lower: int
    role: str
    wins: Estimate
    points: Estimate
    sign: SignTest | None = None

    def to_json(self) -> dict[str, Any]:
        return {"higher": self.higher, "lower": self.lower, "role": self.role,
                "win_rate": self.wins.to_json(), "points": self.points.to_json(),
                **({"sign_test": self.sign.to_json()} if self.sign is not None else {})}


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """What :func:`arena` measured. ``levels``: the seat pattern; ``games``: duplicate deals
    (each played ``len(levels)`` times); ``landlord_win_rate``: over every deal played."""

    rules: str
    levels: tuple[int, ...]
    games: int
    seed: int
    deals_played: int
    landlord_win_rate: Estimate
    rows: tuple[LevelRole, ...]
    comparisons: tuple[Comparison, ...]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data (the same as the text output)."""
        return {"rules": self.rules, "levels": list(self.levels), "games": self.games,
                "seed": self.seed, "deals_played": self.deals_played,
                "landlord_win_rate": self.landlord_win_rate.to_json(),
                "by_level_role": [r.to_json() for r in self.rows],
                "comparisons": [c.to_json() for c in self.comparisons],
                "seconds": self.seconds}

    def lines(self) -> list[str]:
        """The figures as text lines."""
        out = [(f"{self.rules}: levels {','.join(map(str, self.levels))}, {self.games} "
                f"duplicate deals ({self.deals_played} played), seed {self.seed}"),
               f"  landlord win rate (all deals): {_pct(self.landlord_win_rate)}"]
        for r in self.rows:
            out.append(f"  level {r.level} as {r.role:<8} ({r.points.n:>6} deals): "
                       f"side wins {_pct(r.wins)}, points {r.points}")
        for c in self.comparisons:
            sig = "significant" if c.points.significant else "not significant"
            out.append(f"  level {c.higher} - level {c.lower} as {c.role} (paired over "
                       f"{c.points.n} deals): points {c.points} ({sig}), win rate "
                       f"{_pct(c.wins)}" + (f"; sign test {c.sign}" if c.sign else ""))
        return out


def _pct(e: Estimate) -> str:
    if math.isinf(e.half):
        return f"{100 * e.mean:.1f}%"
    return f"{100 * e.mean:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def parse_levels(text: str, seats: int) -> tuple[int, ...]:
    """``"3,2,2"`` → ``(3, 2, 2)``. Fewer levels than seats repeat the last one; more is an
    error. Raises ValueError naming the bad part."""
    parts = [p.strip() for p in text.split(",")]
    out = []
    for p in parts:
        if p not in ("1", "2", "3"):
            raise ValueError(f"levels {text!r}: {p!r} is not a level (1, 2 or 3)")
        out.append(int(p))
    if len(out) > seats:
        raise ValueError(f"levels {text!r}: {len(out)} levels for {seats} seats")
    return tuple(out + [out[-1]] * (seats - len(out)))


def play_deal(rules: Rules, players: Sequence[Player], seed: int | str) -> GameState:
    """One deal from ``seed`` to the end, each seat deciding from its own view; the final
    state. Raises RuntimeError if a player returns an illegal action (a defect)."""
    state = GameState.new(rules, seed=seed)
    while not state.over:
        seat = state.turn
        assert seat is not None
        action = players[seat].decide(state.view(seat))
        state = state.apply(action)
    return state


@dataclass(frozen=True, slots=True)
class SeatDeal:
    """One seat of one deal played: its ``level``, ``role``, whether its side ``won``, its
    ``points``, and whether the deal's landlord won (``landlord_won``)."""

    level: int
    role: str
    won: bool
    points: int
    landlord_won: bool


def duplicate_deal(rules: Rules, levels: Sequence[int], seed: int, k: int,
                   budget: float | None = None) -> tuple[SeatDeal, ...]:
    """Deal ``k`` of ``seed`` played once per rotation of ``levels`` over the seats (see the
    module doc): one :class:`SeatDeal` per seat and rotation, rotation by rotation."""
    n = rules.deal.players
    out = []
    deal_seed = f"arena:{seed}:{k}"
    for rot in range(n):
        seat_levels = [levels[(s - rot) % n] for s in range(n)]
        players = [player_for(lv, f"{seed}:{k}:{rot}:{s}", budget=budget)
                   for s, lv in enumerate(seat_levels)]
        res = play_deal(rules, players, deal_seed).result
        assert res is not None
        ll_won = res.winner == "landlord"
        for s, lv in enumerate(seat_levels):
            role = "landlord" if s == res.landlord else "peasant"
            out.append(SeatDeal(lv, role, ll_won == (role == "landlord"), res.scores[s],
                                ll_won))
    return tuple(out)


def deal_task(rules: dict[str, Any], levels: list[int], seed: int, k: int,
              budget: float | None = None) -> dict[str, Any]:
    """:func:`duplicate_deal` as a task of :mod:`ddzspec.execute` (JSON-able arguments;
    ``rules`` as :func:`ddzspec.execute.rules_ref` writes them): ``{"deal": k, "seat_deals":
    [{"level", "role", "won", "points", "landlord_won"}, ...]}`` in :func:`duplicate_deal`'s
    order (:func:`seat_deals_of` reads them back)."""
    from ..execute import rules_of
    rules_obj = rules_of(rules)
    prepare(rules_obj, endgame=3 in levels)  # once per worker process: no decision pays it
    played = duplicate_deal(rules_obj, levels, seed, k, budget)
    return {"deal": k, "seat_deals": [
        {"level": r.level, "role": r.role, "won": r.won, "points": r.points,
         "landlord_won": r.landlord_won} for r in played]}


def seat_deals_of(row: dict[str, Any]) -> tuple[SeatDeal, ...]:
    """The seat-deals of a :func:`deal_task` row."""
    return tuple(SeatDeal(int(r["level"]), str(r["role"]), bool(r["won"]), int(r["points"]),
                          bool(r["landlord_won"])) for r in row["seat_deals"])


def paired_difference(deals: Sequence[Sequence[SeatDeal]], higher: int, lower: int,
                      role: str, field: str,
                      bounds: tuple[float, float] = (-math.inf, math.inf)) -> Estimate:
    """Mean over ``deals`` (each the seat-deals of one duplicate deal) of the per-deal
    difference ``higher``'s mean minus ``lower``'s mean of ``field`` (``"points"`` or
    ``"won"``, as 1/0) in ``role``, with its 95 % interval; deals where either level never held
    ``role`` are left out. Example: in a deal where level 3 was landlord once and won 6
    points, and level 2 was landlord twice and won 6 and −12 points, the difference is
    6 − (−3) = 9."""
    return estimate(_differences(deals, higher, lower, role, field), bounds)


def _differences(deals: Sequence[Sequence[SeatDeal]], higher: int, lower: int, role: str,
                 field: str) -> list[float]:
    """The per-deal differences of :func:`paired_difference`."""
    diffs = []
    for deal in deals:
        a = [float(getattr(r, field)) for r in deal if r.level == higher and r.role == role]
        b = [float(getattr(r, field)) for r in deal if r.level == lower and r.role == role]
        if a and b:
            diffs.append(sum(a) / len(a) - sum(b) / len(b))
    return diffs


def sign_test(deals: Sequence[Sequence[SeatDeal]], higher: int, lower: int,
              role: str) -> SignTest:
    """The sign test of the per-deal points differences of :func:`paired_difference`
    (``higher`` minus ``lower`` in ``role``): deals where the higher level did better, did
    worse, and the two-sided exact binomial p = min(1, 2 · Σ_{i ≤ k} C(n, i) / 2ⁿ), k the
    smaller count, n both (ties left out; p 1 for n 0). Example: 9 better and 1 worse give
    p = 2 · (1 + 10) / 1024 ≈ 0.021."""
    diffs = _differences(deals, higher, lower, role, "points")
    better = sum(1 for d in diffs if d > 0)
    worse = sum(1 for d in diffs if d < 0)
    n, k = better + worse, min(better, worse)
    p = min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)
    return SignTest(better, worse, p)


def summarize(rules_name: str, levels: Sequence[int], games: int, seed: int,
              records: Sequence[SeatDeal], seconds: float) -> ArenaResult:
    """The figures of :class:`ArenaResult` from the seat-deals of ``games`` duplicate deals
    (each deal's seats in order, as :func:`duplicate_deal` returns them: ``len(levels)²``
    seat-deals per deal). Per level and role, one value per deal (the mean of that level's
    seat-deals in that role; module doc): ``n`` of the rows counts deals."""
    n = len(levels)
    deals = [records[i:i + n * n] for i in range(0, len(records), n * n)]
    wins: dict[tuple[int, str], list[float]] = {}
    points: dict[tuple[int, str], list[float]] = {}
    for deal in deals:  # clustered by deal: one value per deal where the level held the role
        held: dict[tuple[int, str], list[SeatDeal]] = {}
        for r in deal:
            held.setdefault((r.level, r.role), []).append(r)
        for key, rs in held.items():
            wins.setdefault(key, []).append(sum(float(r.won) for r in rs) / len(rs))
            points.setdefault(key, []).append(sum(float(r.points) for r in rs) / len(rs))
    ll_wins = [float(r.landlord_won) for r in records[::n]]
    rows = tuple(LevelRole(lv, role, estimate(wins[lv, role], RATE),
                           estimate(points[lv, role]))
                 for lv in sorted(set(levels)) for role in ("landlord", "peasant")
                 if (lv, role) in wins)
    comps = []
    distinct = sorted(set(levels), reverse=True)
    for i, hi in enumerate(distinct):
        for lo in distinct[i + 1:]:
            for role in ("landlord", "peasant"):
                if (hi, role) in wins and (lo, role) in wins:
                    comps.append(Comparison(
                        hi, lo, role, paired_difference(deals, hi, lo, role, "won", (-1.0, 1.0)),
                        paired_difference(deals, hi, lo, role, "points"),
                        sign_test(deals, hi, lo, role)))
    return ArenaResult(rules_name, tuple(levels), games, seed, len(records) // n,
                       estimate(ll_wins, RATE), rows, tuple(comps), seconds)


def arena(rules: Rules, levels: Sequence[int], games: int, seed: int = 0, *,
          budget: float | None = None,
          progress: Callable[[int], None] | None = None) -> ArenaResult:
    """Play ``games`` duplicate deals among ``levels`` (one per seat; see the module doc).

    ``budget``: level 3's time per move. ``progress(k)`` is called after each duplicate deal
    with the number of deals played so far. Deterministic given ``seed``: the same figures
    every time (level 3's wall-clock guard aside, see :mod:`.level3`). Raises ValueError for
    bad levels or a non-positive ``games``."""
    n = rules.deal.players
    if len(levels) != n or any(v not in LEVELS for v in levels):
        raise ValueError(f"levels {list(levels)}: one of 1, 2, 3 per seat ({n} seats)")
    if games < 1:
        raise ValueError(f"games {games}: at least 1")
    prepare(rules, endgame=3 in levels)  # one-time set-up outside the timed deals
    t0 = time.perf_counter()
    records: list[SeatDeal] = []
    for k in range(games):
        records.extend(duplicate_deal(rules, levels, seed, k, budget))
        if progress is not None:
            progress((k + 1) * n)
    return summarize(rules.name, levels, games, seed, records, time.perf_counter() - t0)
